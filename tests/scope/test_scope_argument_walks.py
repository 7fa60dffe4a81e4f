"""How the portable constraints walk the arguments (SCOPE-ARG-1, SCOPE-ARG-3, SCOPE-ALLOW-1).

``ArgumentFacts`` collects the string leaves once per resolution where upstream collects them
afresh for every constraint; these tests pin that a facts object asked several constraints in
any order answers each as a fresh one does, and what the walks themselves collect.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_touchstone.scope import ArgumentFacts, constraint_matches
from mcp_touchstone.scope import _types as t
from mcp_touchstone.scope._walks import StringLeaf, collect_string_leaves
from mcp_touchstone.serde_json import JSON
from tests.strategies.scope import json_values

_CONSTRAINTS = st.sampled_from(
    [
        t.PathPrefix("/data"),
        t.PathPrefix("rel"),
        t.PathPrefix(""),
        t.DomainExact("api.example.com"),
        t.DomainExact("localhost"),
        t.DomainGlob("*.example.com"),
        t.DomainGlob("*"),
        t.MaxLength(3),
        t.MaxLength(0),
        t.MaxArgsSize(40),
        t.Custom("to", "#ops"),
        t.Custom("path", "/data/a"),
        t.AudienceAllowlist(("#ops", "prod")),
        t.AudienceAllowlist(()),
        t.MemoryStoreAllowlist(("case-notes",)),
        t.MemoryStoreAllowlist(()),
    ]
)


@settings(max_examples=150, deadline=None)
@given(args=json_values(30), constraints=st.lists(_CONSTRAINTS, max_size=6))
def test_shared_facts_answer_as_fresh_facts(args: JSON, constraints: list[t.Constraint]) -> None:
    """SCOPE-ARG-3: one facts object asked several constraints in any order gives each the
    verdict a fresh facts object (a fresh walk, as upstream does) gives."""
    shared = ArgumentFacts(args)
    for constraint in constraints:
        fresh = ArgumentFacts(args)
        assert constraint_matches(constraint, shared) == constraint_matches(constraint, fresh)


def test_string_leaves_carry_their_nearest_key_in_document_order() -> None:
    """SCOPE-ARG-1: every string with its nearest enclosing key; an array's elements inherit
    the key, top-level strings have none, numbers, booleans and null hold no leaf."""
    args: JSON = ["top", {"a": ["x", {"b": "y"}, 3, None], "c": "z", "d": True}]
    assert collect_string_leaves(args) == (
        StringLeaf(None, "top"),
        StringLeaf("a", "x"),
        StringLeaf("b", "y"),
        StringLeaf("c", "z"),
    )
    assert collect_string_leaves("s") == (StringLeaf(None, "s"),)
    assert collect_string_leaves(None) == ()


def test_each_allowlist_walks_on_below_the_other_ones_keys() -> None:
    """SCOPE-ALLOW-1: below a relevant key its own walk stops, but the other allowlist's walk
    goes on: a store key inside an audience value is found, and an audience key inside a store
    value."""
    store_under_to: JSON = {"to": {"store": "c"}}
    assert not ArgumentFacts(store_under_to).audience_allowlist(("c",))  # an object under "to"
    assert ArgumentFacts(store_under_to).memory_store_allowlist(("c",))
    to_under_store: JSON = {"store": {"to": "a"}}
    assert ArgumentFacts(to_under_store).audience_allowlist(("a",))
    assert not ArgumentFacts(to_under_store).memory_store_allowlist(("a",))
    nested: JSON = {"to": ["a"], "x": {"to": {"to": "b"}}}
    assert not ArgumentFacts(nested).audience_allowlist(("a", "b"))  # the walk stops at the object


def test_custom_finds_an_exact_string_entry_at_any_depth() -> None:
    """SCOPE-CUSTOM-1: one entry ``key`` holding exactly the string ``expected``, at any depth
    and inside arrays, is enough; a number, an array or a top-level string never matches, and
    the key is compared case-sensitively."""
    cases: list[tuple[JSON, str, str, bool]] = [
        ({"env": "dev", "x": [{"env": "prod"}]}, "env", "prod", True),
        ([{"k": "v"}], "k", "v", True),
        ({"n": 5}, "n", "5", False),
        ({"env": ["prod"]}, "env", "prod", False),
        ("prod", "env", "prod", False),
        ({}, "env", "prod", False),
        ({"env": "prod"}, "Env", "prod", False),
        ({"env": {"env": "prod"}}, "env", "prod", True),
    ]
    for args, key, expected, holds in cases:
        assert ArgumentFacts(args).custom(key, expected) is holds, (args, key, expected)
