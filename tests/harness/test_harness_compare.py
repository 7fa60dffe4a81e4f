"""The runner's comparison rules (spec/harness.md, HARNESS-CMP-*)."""

from __future__ import annotations

from mcp_touchstone.conformance import outputs_match
from mcp_touchstone.serde_json import JSON


def test_key_order_irrelevant_array_order_matters() -> None:
    """HARNESS-CMP-1: objects compare regardless of key order, arrays by position."""
    assert outputs_match("x", {"a": 1, "b": [1, 2]}, {"b": [1, 2], "a": 1})
    assert not outputs_match("x", {"b": [1, 2]}, {"b": [2, 1]})


def test_numbers_keep_their_kind() -> None:
    """HARNESS-CMP-1: 1 differs from 1.0 and true, and -0.0 differs from 0.0."""
    assert not outputs_match("x", {"n": 1}, {"n": 1.0})
    assert not outputs_match("x", {"n": 1}, {"n": True})
    assert not outputs_match("x", {"n": 0.0}, {"n": -0.0})
    assert not outputs_match("x", {"n": None}, {"n": 0})
    assert outputs_match("x", {"n": -0.0}, {"n": -0.0})


def test_invalid_input_message_not_compared() -> None:
    """HARNESS-CMP-2: invalid_input messages may differ; the kind may not."""
    a: JSON = {"error": {"kind": "invalid_input", "message": "mine"}}
    b: JSON = {"error": {"kind": "invalid_input", "message": "theirs"}}
    assert outputs_match("scope.resolve_matching_grants", a, b)
    c: JSON = {"error": {"kind": "constraint_error", "message": "theirs"}}
    assert not outputs_match("scope.resolve_matching_grants", a, c)
    d: JSON = {"error": {"kind": "constraint_error", "message": "mine"}}
    assert not outputs_match("scope.resolve_matching_grants", c, d)


def test_capability_error_messages_not_compared() -> None:
    """HARNESS-CMP-3: mrtr.capabilities / mrtr.allows error messages are not compared."""
    for op in ("mrtr.capabilities", "mrtr.allows"):
        assert outputs_match(op, {"error": {"message": "a"}}, {"error": {"message": "b"}})
    a: JSON = {"error": {"message": "a"}}
    b: JSON = {"error": {"message": "b"}}
    assert not outputs_match("mrtr.state.seal", a, b)


def test_parse_error_code_only_for_open() -> None:
    """HARNESS-CMP-4: for mrtr.state.open -32700 only the code counts; other codes compare fully."""
    a: JSON = {"error": {"code": -32700, "message": "x"}}
    b: JSON = {"error": {"code": -32700, "message": "y"}}
    assert outputs_match("mrtr.state.open", a, b)
    assert not outputs_match("mrtr.state.seal", a, b)
    c: JSON = {"error": {"code": -32602, "message": "x"}}
    d: JSON = {"error": {"code": -32602, "message": "y"}}
    assert not outputs_match("mrtr.state.open", c, d)
    assert not outputs_match("mrtr.state.open", a, c)


def test_mrtr_client_error_messages_are_compared() -> None:
    """HARNESS-MRTR-CLIENT-3: every loop error compares whole, a -32700 message included."""
    a: dict[str, JSON] = {"sent": [1], "error": {"code": -32700, "message": "serde", "data": None}}
    b: dict[str, JSON] = {"sent": [1], "error": {"code": -32700, "message": "other", "data": None}}
    assert not outputs_match("mrtr.client", a, b)
    assert outputs_match("mrtr.client", a, {**a})
    assert not outputs_match("mrtr.client", a, {**a, "sent": [2]})
    c: JSON = {"sent": [1], "error": {"code": -32603, "message": "x", "data": None}}
    d: JSON = {"sent": [1], "error": {"code": -32603, "message": "y", "data": None}}
    assert not outputs_match("mrtr.client", c, d)


def _invalid_constraint(message: str) -> JSON:
    return {"error": {"kind": "invalid_constraint", "message": message}}


def test_hosted_compile_failure_compared_up_to_the_phrase() -> None:
    """HARNESS-CMP-6: for scope.hosted_match the engine's explanation after `failed to compile`
    is not compared; the pattern, the constraint name and the prefix are."""
    op = "scope.hosted_match"
    ours = _invalid_constraint('invalid capability constraint: regex "(" failed to compile: x')
    theirs = _invalid_constraint(
        'invalid capability constraint: regex "(" failed to compile: regex parse error: ...'
    )
    assert outputs_match(op, ours, theirs)
    bare = _invalid_constraint('invalid capability constraint: regex "(" failed to compile')
    assert outputs_match(op, ours, bare)
    other_pattern = _invalid_constraint(
        'invalid capability constraint: regex "((" failed to compile: x'
    )
    assert not outputs_match(op, ours, other_pattern)
    deny = _invalid_constraint(
        'invalid capability constraint: memory write deny pattern "(" failed to compile: x'
    )
    assert not outputs_match(op, ours, deny)
    assert not outputs_match(op, ours, _invalid_constraint("invalid capability constraint: x"))


def test_compile_failure_rule_is_scoped() -> None:
    """HARNESS-CMP-6: the cut applies only to scope.hosted_match invalid_constraint messages;
    a message without the phrase, another kind or another operation is compared whole."""
    a = _invalid_constraint('regex "(" failed to compile: one')
    b = _invalid_constraint('regex "(" failed to compile: two')
    assert not outputs_match("scope.admit", a, b)
    c: JSON = {"error": {"kind": "constraint_error", "message": "failed to compile: one"}}
    d: JSON = {"error": {"kind": "constraint_error", "message": "failed to compile: two"}}
    assert not outputs_match("scope.hosted_match", c, d)
    assert not outputs_match(
        "scope.hosted_match", _invalid_constraint("no phrase: a"), _invalid_constraint("no phrase")
    )
    assert not outputs_match("scope.hosted_match", a, {"matches": []})
