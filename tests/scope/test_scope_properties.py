"""Hypothesis properties: upstream's four scope_proptest properties, plus oracle checks.

The four upstream properties run at 96 examples unless ``PROPTEST_CASES`` overrides it,
exactly like ``proptest_config_for_lane(96)``.
"""

from __future__ import annotations

import itertools
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_touchstone import serde_json
from mcp_touchstone.harness._scope import OPERATIONS
from mcp_touchstone.scope import (
    ChioScope,
    ConstraintError,
    MatchedGrant,
    decode_scope,
    resolve_matching_grants,
)
from mcp_touchstone.scope._arguments import wildcard_matches
from mcp_touchstone.serde_json import JSON
from tests.scope._helpers import con, grant, scope
from tests.strategies.scope import (
    DEFAULT_CASES,
    domain_labels,
    grant_json,
    identifiers,
    json_values,
    lowercase_values,
    proptest_cases,
    proptest_settings,
    refused_constraint_json,
)


def _count(s: ChioScope, args: JSON) -> int:
    """Upstream's ``matching_count``: matches for ``read`` on ``files``, never an error."""
    result = resolve_matching_grants(s, "read", "files", args)
    assert isinstance(result, tuple), result
    return len(result)


# --------------------------------------------------------------------------- upstream four


@proptest_settings()
@given(tenant=identifiers, leaf=identifiers)
def test_path_prefix_allows_normalized_descendants_and_denies_siblings(
    tenant: str, leaf: str
) -> None:
    """{prefix}/./{leaf}.txt matches and /tenant/{t}/public/{leaf}.txt does not (SCOPE-PATH-4)."""
    prefix = f"/tenant/{tenant}/private"
    s = scope(grant(constraints=[con("path_prefix", prefix)]))
    assert _count(s, {"path": f"{prefix}/./{leaf}.txt"}) == 1
    sibling = f"/tenant/{tenant}/public/{leaf}.txt"
    assert _count(s, {"path": sibling}) == 0


@proptest_settings()
@given(label=domain_labels)
def test_domain_exact_normalizes_case_and_url_authority(label: str) -> None:
    """Upper-cased DomainExact admits its URL with port and query, not a sibling (SCOPE-DOM-3)."""
    s = scope(grant(constraints=[con("domain_exact", f"api.{label}.example.com".upper())]))
    good = f"https://api.{label}.example.com:443/v1/events?cursor=1"
    assert _count(s, {"url": good}) == 1
    evil = f"https://evil.{label}.example.com/v1/events"
    assert _count(s, {"url": evil}) == 0


@proptest_settings()
@given(label=domain_labels)
def test_domain_glob_matches_subdomain_but_not_base_domain(label: str) -> None:
    """*.{l}.example.com admits api.{l}.example.com and not {l}.example.com (SCOPE-DOM-5)."""
    s = scope(grant(constraints=[con("domain_glob", f"*.{label}.example.com")]))
    sub = f"https://api.{label}.example.com/v1"
    assert _count(s, {"url": sub}) == 1
    base = f"https://{label}.example.com/v1"
    assert _count(s, {"url": base}) == 0


@proptest_settings()
@given(value=lowercase_values)
def test_max_length_and_max_args_size_boundaries_are_inclusive(value: str) -> None:
    """MaxLength(len v) admits v, not v+x; MaxArgsSize(compact len) admits (SCOPE-LEN-1)."""
    s = scope(grant(constraints=[con("max_length", len(value))]))
    assert _count(s, {"value": value}) == 1
    assert _count(s, {"value": value + "x"}) == 0
    size = len(serde_json.to_string({"v": value}))
    s2 = scope(grant(constraints=[con("max_args_size", size)]))
    assert _count(s2, {"v": value}) == 1


def test_proptest_cases_override() -> None:
    """PROPTEST_CASES overrides the 96-case default; unparsable values fall back (SCOPE-WIRE-1)."""
    assert proptest_cases({}) == DEFAULT_CASES == 96
    assert proptest_cases({"PROPTEST_CASES": "500"}) == 500
    assert proptest_cases({"PROPTEST_CASES": "lots"}) == 96
    assert proptest_cases({"PROPTEST_CASES": "-1"}) == 96
    assert proptest_cases({"PROPTEST_CASES": "4294967296"}) == 96
    assert proptest_cases({"PROPTEST_CASES": "+7"}) == 7
    assert proptest_cases({"PROPTEST_CASES": " 7"}) == 96
    assert proptest_cases({"PROPTEST_CASES": "1_000"}) == 96


# --------------------------------------------------------------------------- Kani, generalized


@settings(max_examples=60, deadline=None)
@given(server=identifiers, tool=identifiers, other=identifiers)
def test_uncovering_grant_yields_empty(server: str, tool: str, other: str) -> None:
    """Any unconstrained invoke grant naming another tool yields no match (SCOPE-RES-1)."""
    if other == tool:
        return
    s = scope(grant(server, other))
    assert resolve_matching_grants(s, tool, server, None) == ()


@settings(max_examples=60, deadline=None)
@given(server=identifiers, tool=identifiers, args=json_values())
def test_wildcard_grant_yields_one_zero_match(server: str, tool: str, args: JSON) -> None:
    """A */* grant yields exactly one match, index 0 at (0,0,0) (SCOPE-RANK-1)."""
    (match,) = _matches(resolve_matching_grants(scope(grant("*", "*")), tool, server, args))
    assert (match.index, match.specificity) == (0, (0, 0, 0))


def _matches(result: object) -> tuple[MatchedGrant, ...]:
    assert isinstance(result, tuple), result
    return result


# --------------------------------------------------------------------------- ranking invariants


@settings(max_examples=100, deadline=None)
@given(
    grants=st.lists(grant_json(), max_size=6),
    server=st.sampled_from(["files", "mail", "*"]),
    tool=st.sampled_from(["read", "send", "*"]),
    args=json_values(),
)
def test_ranking_invariants(
    grants: list[dict[str, JSON]], server: str, tool: str, args: JSON
) -> None:
    """Matches are target grants, correctly scored, sorted by (-spec, index) (SCOPE-RANK-2)."""
    s: ChioScope = decode_scope({"grants": list(grants)})
    result = _matches(resolve_matching_grants(s, tool, server, args))
    indexes = [m.index for m in result]
    assert len(set(indexes)) == len(indexes)
    for m in result:
        g = s.grants[m.index]
        assert m.grant is g
        assert g.server_id in ("*", server)
        assert g.tool_name in ("*", tool)
        assert m.specificity == (
            int(g.server_id == server),
            int(g.tool_name == tool),
            len(g.constraints),
        )
    keys = [(-m.specificity[0], -m.specificity[1], -m.specificity[2], m.index) for m in result]
    assert keys == sorted(keys)


@settings(max_examples=60, deadline=None)
@given(
    before=st.lists(grant_json(), max_size=3),
    refused=refused_constraint_json(),
    args=json_values(),
)
def test_refusal_on_target_always_aborts(
    before: list[dict[str, JSON]], refused: tuple[str, JSON], args: JSON
) -> None:
    """A refused variant first on a */* grant aborts with its tag, whatever else (SCOPE-RES-4)."""
    tag, constraint = refused
    target: JSON = {
        "server_id": "*",
        "tool_name": "*",
        "operations": ["invoke"],
        "constraints": [constraint],
    }
    grants: list[JSON] = [*before, target]  # before: decided constraints only
    s = decode_scope({"grants": grants})
    result = resolve_matching_grants(s, "read", "files", args)
    assert result == ConstraintError(f"portable kernel cannot safely evaluate {tag}")


# --------------------------------------------------------------------------- oracles


@settings(max_examples=500, deadline=None)
@given(
    pattern=st.text(st.sampled_from("ab.*?"), max_size=8),
    candidate=st.text(st.sampled_from("ab."), max_size=10),
)
def test_wildcard_equals_regex_oracle(pattern: str, candidate: str) -> None:
    """The backtracking glob equals a regex where * is .* and all else literal (SCOPE-DOM-5)."""
    regex = ".*".join(re.escape(part) for part in pattern.split("*"))
    assert wildcard_matches(pattern, candidate) == bool(re.fullmatch(regex, candidate, re.S))


def test_wildcard_equals_the_regex_reading_exhaustively() -> None:
    """SCOPE-DOM-5: the greedy glob equals a full match of the pattern with each ``*`` read as
    ``.*`` and all else literal, on every pattern of up to 5 characters over ``ab*.`` and every
    candidate of up to 4 over ``ab.``."""
    patterns = ["".join(p) for n in range(6) for p in itertools.product("ab*.", repeat=n)]
    candidates = ["".join(c) for n in range(5) for c in itertools.product("ab.", repeat=n)]
    for pattern in patterns:
        regex = re.compile(".*".join(re.escape(part) for part in pattern.split("*")), re.S)
        for candidate in candidates:
            expected = regex.fullmatch(candidate) is not None
            assert wildcard_matches(pattern, candidate) is expected, (pattern, candidate)


@settings(max_examples=100, deadline=None)
@given(raw=json_values(15))
def test_harness_operations_are_total(raw: JSON) -> None:
    """Any JSON input gets an output object, never an exception (SCOPE-WIRE-2)."""
    for op in OPERATIONS.values():
        out = op(raw)
        assert isinstance(out, dict)
        assert set(out) <= {"matches", "error"}
        serde_json.validate(out)


@settings(max_examples=60, deadline=None)
@given(grants=st.lists(grant_json(), max_size=4), args=json_values())
def test_harness_operations_total_on_scopes(grants: list[dict[str, JSON]], args: JSON) -> None:
    """Generated scopes give matches or a constraint error through the harness (SCOPE-WIRE-1)."""
    raw: JSON = {
        "scope": {"grants": list(grants)},
        "tool_name": "read",
        "server_id": "files",
        "arguments": args,
    }
    out = OPERATIONS["scope.resolve_matching_grants"](raw)
    assert "matches" in out or out["error"]["kind"] == "constraint_error"  # type: ignore[index,call-overload]  # error shape checked by the vectors


def test_a_scope_asked_again_is_answered_from_its_own_text() -> None:
    """SCOPE-WIRE-2: the harness decodes each distinct scope text once and keeps the outcome;
    values that differ only in JSON type (``1``, ``1.0``, ``true``) or key order are distinct
    texts, each answered as its own first reading, however often and in whatever order."""
    op = OPERATIONS["scope.resolve_matching_grants"]

    def ask(max_invocations: JSON, *, server_first: bool = True) -> dict[str, JSON]:
        fields: dict[str, JSON] = {"tool_name": "read", "operations": ["invoke"]}
        server: dict[str, JSON] = {"server_id": "files"}
        fields = {**server, **fields} if server_first else {**fields, **server}
        fields["max_invocations"] = max_invocations
        raw: JSON = {
            "scope": {"grants": [fields]},
            "tool_name": "read",
            "server_id": "files",
            "arguments": {},
        }
        return op(raw)

    matched: dict[str, JSON] = {"matches": [{"index": 0, "specificity": [1, 1, 0]}]}
    for _ in range(2):
        assert ask(1) == matched
        assert ask(1, server_first=False) == matched
        for wrong in (1.0, True, "1", -1):
            out = ask(wrong)
            assert out["error"]["kind"] == "invalid_input", wrong  # type: ignore[index,call-overload]  # error shape checked by the vectors


def test_a_scope_that_is_no_json_value_is_invalid_input() -> None:
    """SCOPE-WIRE-2: a caller's scope holding what JSON cannot (NaN, a set) is ``invalid_input``
    naming the scope, never an exception."""
    op = OPERATIONS["scope.resolve_matching_grants"]
    for bad in (float("nan"), {1, 2}):
        raw: JSON = {
            "scope": {"grants": [], "note": bad},  # type: ignore[dict-item]  # not JSON on purpose
            "tool_name": "read",
            "server_id": "files",
            "arguments": {},
        }
        out = op(raw)
        assert out["error"]["kind"] == "invalid_input", bad  # type: ignore[index,call-overload]  # error shape checked by the vectors
        assert out["error"]["message"].startswith("scope: ")  # type: ignore[index,call-overload,union-attr]  # as above
