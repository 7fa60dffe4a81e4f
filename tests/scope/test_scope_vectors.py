"""Every scope conformance vector, run through the scope harness operations in-process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest

from mcp_touchstone import serde_json
from mcp_touchstone.conformance._compare import outputs_match
from mcp_touchstone.scope._harness import OPERATIONS

_ROOT = Path(__file__).resolve().parents[2]
_VECTORS = _ROOT / "conformance" / "vectors" / "scope"
_SCHEMA = _ROOT / "conformance" / "schema" / "vectors.schema.json"


def _files() -> list[Path]:
    return sorted(_VECTORS.glob("*.json"))


def _cases() -> list[tuple[str, str, serde_json.JSON, serde_json.JSON]]:
    cases = []
    for path in _files():
        doc = serde_json.from_str(path.read_bytes())
        assert isinstance(doc, dict)
        tests = doc["tests"]
        assert isinstance(tests, list)
        for test in tests:
            assert isinstance(test, dict)
            cases.append((str(test["id"]), str(doc["operation"]), test["input"], test["expected"]))
    return cases


_CASES = _cases()


@pytest.mark.parametrize(
    ("vector_id", "operation", "given", "expected"), _CASES, ids=[c[0] for c in _CASES]
)
def test_scope_vector(
    vector_id: str, operation: str, given: serde_json.JSON, expected: serde_json.JSON
) -> None:
    """Each vector's expected output equals the operation's answer (SCOPE-WIRE-1)."""
    actual = OPERATIONS[operation](given)
    assert outputs_match(operation, expected, actual), (vector_id, actual)


def test_scope_vector_files_are_schema_valid() -> None:
    """Every scope vector file validates against the format-1 schema (SCOPE-WIRE-1)."""
    schema: Any = serde_json.from_str(_SCHEMA.read_bytes())
    for path in _files():
        doc: Any = serde_json.from_str(path.read_bytes())
        jsonschema.validate(doc, schema)
        assert doc["semantic"] == "scope"
        assert doc["operation"] in OPERATIONS
        for test in doc["tests"]:
            assert set(test["flags"]) <= set(doc["notes"]), test["id"]


def test_scope_vector_ids_unique() -> None:
    """Vector ids are unique and carry the scope- prefix (SCOPE-WIRE-1)."""
    ids = [c[0] for c in _CASES]
    assert len(ids) == len(set(ids))
    assert all(i.startswith("scope-") for i in ids)
