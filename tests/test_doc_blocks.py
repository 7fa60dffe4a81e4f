"""Every Python block of the README and spec/adapters.md runs as written, from public imports
only, against the real SDKs (and a real redis-server where a block needs one)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.adapters._redis import redis_server

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("README.md", "spec/adapters.md")


def _blocks(doc: str) -> list[str]:
    text = (ROOT / doc).read_text(encoding="utf-8")
    return re.findall(r"^```python\n(.*?)^```", text, re.DOTALL | re.MULTILINE)


BLOCKS = [(doc, i) for doc in DOCS for i in range(len(_blocks(doc)))]


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    """A redis-server of this module's own on a loopback port."""
    with redis_server() as port:
        yield f"redis://127.0.0.1:{port}/0"


def test_the_docs_have_blocks_to_run() -> None:
    """SETUP-3: the README shows a complete server; spec/adapters.md shows it, FastMCP and the
    stores."""
    assert len(_blocks("README.md")) >= 1
    assert len(_blocks("spec/adapters.md")) >= 3


@pytest.mark.parametrize(("doc", "index"), BLOCKS, ids=[f"{d}#{i}" for d, i in BLOCKS])
def test_doc_block_runs(
    doc: str, index: int, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """SETUP-3: each block exits 0 run as a script in an empty directory (its asserts are its
    checks)."""
    block = _blocks(doc)[index]
    for line in block.splitlines():
        if line.startswith(("from mcp_touchstone", "import mcp_touchstone")):
            assert "._" not in line.split(" import ")[0], f"a private import in {doc}: {line}"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if "REDIS_URL" in block:
        env["REDIS_URL"] = request.getfixturevalue("redis_url")
    script = tmp_path / "block.py"
    script.write_text(block, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, f"{doc} block {index}:\n{run.stderr[-3000:]}"


def test_readme_server_is_the_spec_example() -> None:
    """SETUP-3: the README's server is spec/adapters.md's first example, word for word (one text,
    two places: they cannot drift)."""
    assert _blocks("README.md")[0] == _blocks("spec/adapters.md")[0]
