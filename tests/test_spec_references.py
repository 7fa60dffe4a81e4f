"""What the spec says pins a rule exists: cited test files and vector ids resolve."""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

from mcp_touchstone.conformance import load_vectors

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
TEST_PATH = re.compile(r"`(tests/[^`\s]+\.py)")
VECTOR_ID = re.compile(r"`((?:scope|vis|mrtr|json)-[a-z0-9*\-]+)`")


def _spec_texts() -> dict[str, str]:
    return {p.name: FENCE.sub("", p.read_text()) for p in sorted((ROOT / "spec").glob("*.md"))}


def test_cited_test_files_exist() -> None:
    """Every tests/... file a spec rule names as pinning it exists."""
    missing = [
        f"{name}: {path}"
        for name, text in _spec_texts().items()
        for path in TEST_PATH.findall(text)
        if not (ROOT / path).is_file()
    ]
    assert not missing, missing


def test_cited_vector_ids_exist() -> None:
    """Every vector id (or id pattern with *) a spec rule names matches a vector in the suite."""
    ids = {v.id for v in load_vectors(ROOT / "conformance" / "vectors")}
    missing = [
        f"{name}: {cited}"
        for name, text in _spec_texts().items()
        for cited in VECTOR_ID.findall(text)
        if not any(fnmatch.fnmatchcase(i, cited) for i in ids)
    ]
    assert not missing, missing
