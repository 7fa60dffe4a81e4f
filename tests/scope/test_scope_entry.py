"""Where cumulative approval is refused (SCOPE-CUMUL-*), and the evaluate entry points.

Tests named after upstream re-express bb-connor/arc ``mutation_boundaries.rs`` and
``portable_build.rs`` (chio.md §9.1, §9.2) through :func:`evaluate_entry`.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.scope import (
    ChioScope,
    ConstraintError,
    EntryAllowed,
    EntryDenied,
    EntryMatches,
    EntryPath,
    EntryRefused,
    MatchedGrant,
    RefusalKind,
    evaluate_entry,
    has_cumulative_approval,
)
from mcp_touchstone.serde_json import JSON
from tests.scope._helpers import con, grant, scope

CUMULATIVE_CON = con(
    "require_cumulative_approval_above",
    {
        "threshold": {"units": 100, "currency": "USD"},
        "approval_budget_id": "budget-1",
        "approval_budget_epoch": 1,
    },
)
NOT_NEGOTIATED = EntryRefused(
    RefusalKind.ATTENUATION_VIOLATION, "cumulative_approval_budget was not negotiated"
)
UNSUPPORTED = EntryRefused(
    RefusalKind.UNSUPPORTED_CAPABILITY_FEATURE, "cumulative approval enforcement is unavailable"
)
FEATURE = frozenset({"cumulative_approval_budget"})


def entry(
    s: ChioScope,
    path: str,
    *,
    negotiated: frozenset[str] = frozenset(),
    args: JSON = None,
    tool: str = "echo",
    server: str = "srv-a",
) -> object:
    """Run one entry point on ``s`` for ``tool`` on ``server``."""
    return evaluate_entry(
        s,
        EntryPath(path),
        negotiated,
        tool_name=tool,
        server_id=server,
        arguments={} if args is None else args,
    )


def test_resolve_matching_grants_rejects_cumulative_approval_until_enforced() -> None:
    """SCOPE-CUMUL-4: only a direct matcher call reaches the matcher's own ConstraintError."""
    s = scope(grant("srv-a", "echo", [CUMULATIVE_CON]))
    assert entry(s, "direct") == EntryMatches(
        ConstraintError("portable kernel cannot safely evaluate require_cumulative_approval_above")
    )


def test_evaluate_out_of_scope() -> None:
    """SCOPE-CUMUL-5: no covering grant denies with the not-in-capability-scope reason."""
    d = entry(scope(grant("srv-a", "other")), "plain")
    assert d == EntryDenied("requested tool echo on server srv-a is not in capability scope")


def test_evaluate_fails_closed_on_unsupported_constraint() -> None:
    """SCOPE-CUMUL-5: a refused constraint on the target grant denies with constraint evaluation
    failed."""
    d = entry(
        scope(grant("srv-a", "echo", [con("minimum_runtime_assurance", "attested")])), "plain"
    )
    assert isinstance(d, EntryDenied)
    assert "constraint evaluation failed" in d.reason
    assert "minimum_runtime_assurance" in d.reason


@pytest.mark.parametrize(
    ("name", "path", "allowed"),
    [
        ("evaluate_enforces_path_prefix_constraint", "/data/safe/unsafe/../ok.txt", True),
        ("evaluate_enforces_path_prefix_constraint", "/data/unsafe/x.txt", False),
        (
            "evaluate_rejects_path_traversal_against_path_prefix_constraint",
            "/data/safe/../secret.txt",
            False,
        ),
        ("evaluate_rejects_sibling_prefix_match_for_path_constraint", "/data/safeX/f.txt", False),
    ],
)
def test_evaluate_path_prefix_upstream_cases(name: str, path: str, allowed: bool) -> None:
    """SCOPE-CUMUL-5: evaluate's matching follows the portable matcher (portable_build.rs path
    tests)."""
    s = scope(grant("srv-a", "echo", [con("path_prefix", "/data/safe")]))
    for p in ("plain", "full_floor"):
        assert (
            isinstance(entry(s, p, negotiated=FEATURE, args={"path": path}), EntryAllowed)
            is allowed
        ), name


def test_evaluate_allow_path() -> None:
    """SCOPE-CUMUL-5: evaluate takes matches.first(), the most specific grant."""
    d = entry(scope(grant("*", "*"), grant("srv-a", "echo")), "plain")
    assert isinstance(d, EntryAllowed)
    assert (d.matched.index, d.matched.specificity) == (1, (1, 1, 0))


@pytest.mark.parametrize(
    "negotiated", [frozenset(), FEATURE, frozenset({"aggregate_invocation_budget"})]
)
def test_plain_path_refuses_whatever_was_negotiated(negotiated: frozenset[str]) -> None:
    """SCOPE-CUMUL-2: the plain verifier passes cumulative_approval_enabled = false."""
    assert (
        entry(scope(grant("srv-a", "echo", [CUMULATIVE_CON])), "plain", negotiated=negotiated)
        == NOT_NEGOTIATED
    )


def test_full_floor_without_feature_is_the_verifier_refusal() -> None:
    """SCOPE-CUMUL-3: a peer without the feature gets the same not-negotiated rejection."""
    s = scope(grant("srv-a", "echo", [CUMULATIVE_CON]))
    assert (
        entry(s, "full_floor", negotiated=frozenset({"aggregate_invocation_budget"}))
        == NOT_NEGOTIATED
    )


def test_full_floor_with_feature_is_unsupported_capability_feature() -> None:
    """SCOPE-CUMUL-3: negotiated: UnsupportedCapabilityFeature, reason cumulative approval
    enforcement is unavailable."""
    assert (
        entry(scope(grant("srv-a", "echo", [CUMULATIVE_CON])), "full_floor", negotiated=FEATURE)
        == UNSUPPORTED
    )


@pytest.mark.parametrize("path", ["plain", "full_floor"])
def test_refusal_is_scope_wide_and_before_matching(path: str) -> None:
    """SCOPE-CUMUL-1: a cumulative grant the walk never reaches still refuses."""
    s = scope(
        grant("srv-a", "echo"),
        grant("srv-b", "other", [con("path_prefix", "/never"), CUMULATIVE_CON]),
        grant("srv-c", "x", [CUMULATIVE_CON], operations=["read"]),
    )
    expected = UNSUPPORTED if path == "full_floor" else NOT_NEGOTIATED
    assert entry(s, path, negotiated=FEATURE) == expected
    assert entry(s, "direct") == EntryMatches(entry_direct_matches(s))


def entry_direct_matches(s: ChioScope) -> tuple[MatchedGrant, ...] | ConstraintError:
    """The direct matcher's answer for srv-a/echo: grant 0 only."""
    from mcp_touchstone.scope import resolve_matching_grants

    return resolve_matching_grants(s, "echo", "srv-a", {})


def test_direct_path_ignores_non_target_cumulative() -> None:
    """SCOPE-CUMUL-4: the matcher's refusal is target-only: a false constraint first avoids it."""
    s = scope(
        grant("srv-a", "echo", [con("path_prefix", "/data"), CUMULATIVE_CON]), grant("*", "*")
    )
    d = entry(s, "direct", args={"q": "no path"})
    assert isinstance(d, EntryMatches)
    assert isinstance(d.result, tuple)
    assert [m.index for m in d.result] == [1]


def test_refusal_precedes_a_constraint_error() -> None:
    """SCOPE-CUMUL-1: the refusal precedes matching, so a refused constraint is never reached."""
    s = scope(grant("srv-a", "echo", [con("regex_match", ".*")]), grant("z", "z", [CUMULATIVE_CON]))
    assert entry(s, "plain") == NOT_NEGOTIATED


def test_has_cumulative_approval_reads_every_tool_grant() -> None:
    """SCOPE-CUMUL-1: any tool grant anywhere carrying the variant, whatever it targets."""
    assert not has_cumulative_approval(scope(grant(), grant("a", "b", [con("max_length", 3)])))
    assert has_cumulative_approval(
        scope(grant(), grant("a", "b", [con("max_length", 3), CUMULATIVE_CON]))
    )
    assert has_cumulative_approval(scope(grant("a", "b", [CUMULATIVE_CON], operations=[])))


@given(
    st.lists(st.sampled_from(["srv-a", "srv-b", "*"]), min_size=1, max_size=4), st.integers(0, 3)
)
def test_refusal_independent_of_position(servers: list[str], where: int) -> None:
    """SCOPE-CUMUL-1: wherever the cumulative grant sits, both evaluate paths refuse first."""
    grants = [grant(s, "echo") for s in servers]
    grants.insert(min(where, len(grants)), grant("q", "q", [CUMULATIVE_CON]))
    s = scope(*grants)
    assert entry(s, "plain") == NOT_NEGOTIATED
    assert entry(s, "full_floor", negotiated=FEATURE) == UNSUPPORTED
