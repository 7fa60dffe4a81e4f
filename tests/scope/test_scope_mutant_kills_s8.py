"""Tests that kill the scope mutants session 8's re-decided sample left alive (docs/assurance.md,
"Session 8"): the general decoder's wording for a unit variant written as a map of zero or
several keys, and DomainExact over several candidates."""

from __future__ import annotations

import pytest

from mcp_touchstone import scope
from mcp_touchstone.scope._arguments import ArgumentFacts
from mcp_touchstone.serde_json import JSON

_SINGLE_KEY = "invalid value: map, expected map with a single key"


@pytest.mark.parametrize(
    ("value", "where"),
    [
        ({"type": "minimum_runtime_assurance", "value": {}}, "constraint.value"),
        ({"type": "operation_class", "value": {"read": None, "admin": None}}, "constraint.value"),
    ],
)
def test_a_tier_written_as_a_map_needs_exactly_one_key(value: JSON, where: str) -> None:
    """A unit variant as a map of zero or two keys is serde's single-key refusal, with its place."""
    with pytest.raises(scope.ScopeDecodeError) as caught:
        scope.decode_constraint(value)
    assert str(caught.value) == f"{where}: {_SINGLE_KEY}"


def test_an_operation_written_as_an_empty_map_needs_exactly_one_key() -> None:
    """A grant's operation as ``{}`` is the same refusal, at the operation's place."""
    value: JSON = {"grants": [{"server_id": "s", "tool_name": "t", "operations": [{}]}]}
    with pytest.raises(scope.ScopeDecodeError) as caught:
        scope.decode_scope(value)
    assert str(caught.value) == f"scope.grants[0].operations[0]: {_SINGLE_KEY}"


def test_domain_exact_is_false_when_two_domains_both_differ() -> None:
    """DomainExact over two distinct domains, neither the expected one, does not hold."""
    facts = ArgumentFacts({"u": "b.com", "v": "c.com"})
    assert facts.domain_candidates == ("b.com", "c.com")
    assert not facts.domain_exact("a.com")
    assert not facts.domain_exact("b.com")
