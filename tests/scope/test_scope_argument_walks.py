"""The per-fact argument walks of ``ArgumentFacts`` against upstream's per-constraint walks.

Each fact (string values, path candidates, string entries, allowlist observations) has its own
walk that collects only that fact; these properties check every one, and a resolution asking
several facts in any order, against ``tests/scope/_naive.py`` (SCOPE-ARG-3).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_touchstone._rust import ascii_lower, rust_trim
from mcp_touchstone.scope import _types as t
from mcp_touchstone.scope._arguments import (
    AUDIENCE_KEYS,
    MEMORY_STORE_KEYS,
    ArgumentFacts,
    is_path_key,
    looks_like_path,
    normalize_path,
    parse_domain,
)
from mcp_touchstone.scope._matcher import constraint_matches
from mcp_touchstone.serde_json import JSON
from tests.scope import _naive
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
@given(args=json_values(30))
def test_each_walk_collects_its_fact(args: JSON) -> None:
    """The path candidates, domains and longest leaf equal those read from upstream's leaf list
    (the nearest enclosing key for the path test), duplicates dropped (SCOPE-ARG-3)."""
    facts = ArgumentFacts(args)
    leaves = _naive.leaves(args)
    paths = [v for k, v in leaves if (k is not None and is_path_key(k)) or looks_like_path(v)]
    normalized = [normalize_path(v) for v in dict.fromkeys(paths)]
    expected = tuple(None if n is None else (n.is_absolute, n.segments) for n in normalized)
    assert facts.path_candidates == expected
    domains = [d for _, v in leaves if (d := parse_domain(v)) is not None]
    assert facts.domain_candidates == tuple(dict.fromkeys(domains))
    assert facts.longest_leaf == max((len(v.encode()) for _, v in leaves), default=0)
    assert facts.string_leaves == leaves
    assert facts.string_values == [v for _, v in leaves]


@settings(max_examples=150, deadline=None)
@given(args=json_values(30), constraints=st.lists(_CONSTRAINTS, max_size=6))
def test_facts_in_any_order_equal_fresh_walks(args: JSON, constraints: list[t.Constraint]) -> None:
    """One facts object asked several constraints in any order gives each constraint the
    verdict of a fresh per-constraint walk (SCOPE-ARG-3, SCOPE-ALLOW-3)."""
    facts = ArgumentFacts(args)
    for constraint in constraints:
        assert constraint_matches(constraint, facts) == _naive.constraint_verdict(
            constraint, args
        ), constraint


def test_allowlist_walk_stops_below_a_relevant_key() -> None:
    """Below an audience key only the memory-store walk goes on, and below both nothing is
    observed (SCOPE-ALLOW-1)."""
    args: JSON = {"to": {"store": 5, "x": {"to": "a"}}, "store": {"to": ["b"], "store": "c"}}
    facts = ArgumentFacts(args)
    assert facts.audience_allowlist(("a",)) == _naive.allowlist(args, AUDIENCE_KEYS, ("a",))
    assert facts.memory_store_allowlist(("c",)) == _naive.allowlist(args, MEMORY_STORE_KEYS, ("c",))
    assert not facts.memory_store_allowlist(("c",))  # the store key under "to" holds 5


def _parse_domain_reference(value: str) -> str | None:
    """``parse_domain`` as it read the authority before (the earliest of ``/``, ``?`` and
    ``#`` found by three searches, then the last ``@`` always split off)."""
    if "." not in value and (len(value) < 9 or "localhost" not in value.lower()):
        return None
    if value.startswith("/") and "://" not in value:
        return None
    trimmed = rust_trim(value)
    if not trimmed:
        return None
    _, sep, rest = trimmed.partition("://")
    host_port = rest if sep else trimmed
    end = len(host_port)
    for stop in "/?#":
        at = host_port.find(stop)
        if at != -1 and at < end:
            end = at
    authority = host_port[:end].rpartition("@")[2]
    host = authority.partition(":")[0].strip(".")
    normalized = ascii_lower(rust_trim(host).strip("."))
    if normalized == "localhost":
        return normalized
    if normalized and "." in normalized and set(normalized) <= _DOMAIN_CHARS:
        return normalized
    return None


_DOMAIN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-.")


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(
        st.text(st.sampled_from("aL.:/?#@ \u00a0"), max_size=16),
        st.lists(
            st.sampled_from(["https://", "a.b", "LocalHost", "/", "?", "#", "@", ":8", "."])
        ).map("".join),
    )
)
def test_domain_parse_equals_the_earliest_stop_search(value: str) -> None:
    """``parse_domain``, cutting the authority at each stop in turn, equals the earliest-stop
    search it replaced (SCOPE-DOM-1, SCOPE-DOM-2, SCOPE-DOM-3)."""
    assert parse_domain(value) == _parse_domain_reference(value)
