"""Every mrtr conformance vector passes against OPERATIONS under the pinned comparison rules
(spec/mrtr.md MRTR-HARNESS-1; spec/vectors.md VEC-CASE-1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_touchstone.conformance import outputs_match
from mcp_touchstone.mrtr._harness import OPERATIONS
from mcp_touchstone.serde_json import JSON, from_str

VECTORS = Path(__file__).resolve().parents[2] / "conformance" / "vectors" / "mrtr"


def _cases() -> list[tuple[str, str, JSON, JSON]]:
    cases: list[tuple[str, str, JSON, JSON]] = []
    for path in sorted(VECTORS.glob("*.json")):
        doc = from_str(path.read_text(encoding="utf-8"))
        assert isinstance(doc, dict)
        operation = doc["operation"]
        tests = doc["tests"]
        assert isinstance(operation, str)
        assert isinstance(tests, list)
        for test in tests:
            assert isinstance(test, dict)
            vid = test["id"]
            assert isinstance(vid, str)
            cases.append((vid, operation, test["input"], test["expected"]))
    return cases


CASES = _cases()


def test_the_suite_is_broad() -> None:
    """MRTR-HARNESS-1: every one of the six operations has vectors."""
    assert {op for _, op, _, _ in CASES} == set(OPERATIONS)
    assert len(CASES) >= 150


@pytest.mark.parametrize(
    ("vid", "operation", "input_", "expected"), CASES, ids=[c[0] for c in CASES]
)
def test_vector(vid: str, operation: str, input_: JSON, expected: JSON) -> None:
    """MRTR-HARNESS-1: the operation answers the vector's input as expected."""
    actual = OPERATIONS[operation](input_)
    assert outputs_match(operation, expected, actual), (vid, actual)
