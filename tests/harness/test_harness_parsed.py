"""The operations the harness server serves (HARNESS-OPS-2): an adapter's PARSED_OPERATIONS
answer as its OPERATIONS do for every input the server can hand them."""

from __future__ import annotations

import importlib
import io
import json

import pytest
from hypothesis import given

from mcp_touchstone.conformance import default_vectors_dir, load_vectors
from mcp_touchstone.harness._registry import (
    adapter_modules,
    parsed_input_operations,
    reference_operations,
)
from mcp_touchstone.harness._server import serve
from mcp_touchstone.serde_json import JSON, JsonError, from_str, to_string_ordered, validate
from tests.strategies.mrtr import json_values


def _parsed_names() -> set[str]:
    names: set[str] = set()
    for module in adapter_modules():
        adapter = importlib.import_module(f"mcp_touchstone.harness.{module}")
        parsed = getattr(adapter, "PARSED_OPERATIONS", {})
        assert set(parsed) <= set(adapter.OPERATIONS)
        names |= set(parsed)
    return names


def test_parsed_operations_answer_every_vector_alike() -> None:
    """Every shipped vector of an operation with a parsed variant gets the same output from
    the served (parsed) table as from the general one."""
    root = default_vectors_dir()
    assert root is not None
    names = _parsed_names()
    assert {
        "mrtr.round",
        "mrtr.client",
        "mrtr.state.open",
        "scope.resolve_matching_grants",
    } <= names
    checked, parsed = reference_operations(), parsed_input_operations()
    seen = 0
    for vector in load_vectors(root):
        if vector.operation in names:
            raw = from_str(to_string_ordered(vector.input))
            assert parsed[vector.operation](raw) == checked[vector.operation](raw), vector.id
            seen += 1
    assert seen > 1000


@given(json_values)
def test_a_parsed_value_always_validates(value: object) -> None:
    """What the server's parser (serde_json.from_str) produces is always a value validate
    accepts, so the parsed operations never skip a check that could fail."""
    text = json.dumps(value, ensure_ascii=False)
    try:
        parsed = from_str(text)
    except JsonError:
        return
    validate(parsed)


_REFUSED_INPUTS = [
    b"NaN",
    b"Infinity",
    b"1e400",
    b'"\\ud800"',
    b'{"a":"\\udc00x"}',
    b"[" * 130 + b"]" * 130,
    b'{"a":1,}',
    b"-",
    b'"\xff"',
]


@pytest.mark.parametrize("value", _REFUSED_INPUTS)
@pytest.mark.parametrize(
    "operation",
    ["mrtr.round", "mrtr.client", "mrtr.state.open", "scope.resolve_matching_grants"],
)
def test_the_server_refuses_what_validate_would(value: bytes, operation: str) -> None:
    """A line whose input serde_json could not hold is refused by the server's parse before
    any operation runs: the parsed and the general tables answer it alike."""
    line = b'{"cmd":"run","seq":1,"case":{"operation":"' + operation.encode()
    line += b'","input":' + value + b"}}\n"
    answers = []
    for table in (reference_operations(), parsed_input_operations()):
        out = io.BytesIO()
        serve([line], out, table)
        answers.append(out.getvalue())
    assert answers[0] == answers[1]
    assert b'"errored":true' in answers[0]


_SCOPE_INPUT: dict[str, JSON] = {
    "scope": {"grants": [{"server_id": "s", "tool_name": "t", "operations": ["invoke"]}]},
    "tool_name": "t",
    "server_id": "s",
    "arguments": {"x": float("nan")},
}


@pytest.mark.parametrize("operation", sorted(_parsed_names()))
def test_general_operations_still_validate(operation: str) -> None:
    """A Python value serde_json could not hold is still refused by the general table, with
    validate's message naming the place (the scope operations check their arguments)."""
    if operation.startswith("scope."):
        raw, where = _SCOPE_INPUT, "arguments.x"
    else:
        raw, where = {"request": float("nan")}, "input.request"
    out = reference_operations()[operation](raw)
    assert out == {"error": {"kind": "invalid_input", "message": f"{where}: non-finite float nan"}}
