"""`touchstone example`: the shipped examples listed, printed and located (SETUP-2)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from mcp_touchstone.examples import EXAMPLES, path_of

ROOT = Path(__file__).resolve().parents[1]
TOUCHSTONE = Path(sys.executable).parent / "touchstone"


def _touchstone(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(TOUCHSTONE), *args], capture_output=True, text=True, timeout=60, check=False
    )


def test_example_lists_every_shipped_example() -> None:
    """SETUP-2: `touchstone example` names each example with what it is."""
    done = _touchstone("example")
    assert done.returncode == 0
    names = [line.split()[0] for line in done.stdout.splitlines()]
    assert names == [e.name for e in EXAMPLES]


def test_example_prints_the_file_and_its_path() -> None:
    """SETUP-2: `touchstone example NAME` prints the file as shipped; `--path` says where it is;
    the Node harness is the one in conformance/harnesses/node."""
    for example in EXAMPLES:
        text = _touchstone("example", example.name).stdout
        assert text == path_of(example.name).read_text(encoding="utf-8")
        where = _touchstone("example", example.name, "--path").stdout.strip()
        assert Path(where) == path_of(example.name)
    node = ROOT / "conformance" / "harnesses" / "node" / "harness.js"
    assert _touchstone("example", "node-harness").stdout == node.read_text(encoding="utf-8")


def test_unknown_example_is_one_line() -> None:
    """SETUP-2: an unknown name exits 2 with one line naming the choices, no traceback."""
    done = _touchstone("example", "nope")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "touchstone: no example 'nope' (known: scope, server, client, node-harness, node-baseline)"
    ]
