"""Chio's own scope tests and Kani harnesses, re-expressed with the same meaning.

Names follow upstream (bb-connor/arc ``mutation_boundaries.rs``, ``portable_build.rs``,
``kani_public_harnesses.rs``; backbay-labs/chio ``scope_proptest.rs``).
"""

from __future__ import annotations

from mcp_touchstone.scope import (
    ConstraintError,
    MatchedGrant,
    OutOfScope,
    resolve_capability_grants,
    resolve_matching_grants,
)
from mcp_touchstone.serde_json import JSON
from tests.scope._helpers import con, grant, scope


def _ranked(result: object) -> list[tuple[int, tuple[int, int, int]]]:
    assert isinstance(result, tuple), result
    out = []
    for m in result:
        assert isinstance(m, MatchedGrant)
        out.append((m.index, m.specificity))
    return out


def _count(s: object, args: JSON, tool: str = "read", server: str = "files") -> int:
    from mcp_touchstone.scope import ChioScope

    assert isinstance(s, ChioScope)
    return len(_ranked(resolve_matching_grants(s, tool, server, args)))


def test_exact_grants_sort_ahead_of_wildcard_fallbacks() -> None:
    """[*/*, files/read]: position 0 is index 1 at (1,1,0) (SCOPE-RANK-1, SCOPE-RANK-2)."""
    args: JSON = {"path": "/tenant/a/private/report.txt"}
    result = resolve_matching_grants(scope(grant("*", "*"), grant()), "read", "files", args)
    assert _ranked(result) == [(1, (1, 1, 0)), (0, (0, 0, 0))]


def test_public_resolve_matching_grants_rejects_out_of_scope_request() -> None:
    """Kani: a grant s/r does not cover tool w on s, so the match set is empty (SCOPE-RES-1)."""
    assert resolve_matching_grants(scope(grant("s", "r")), "w", "s", None) == ()


def test_public_resolve_matching_grants_preserves_wildcard_matching() -> None:
    """Kani: a */* grant yields exactly one match with specificity (0,0,0) (SCOPE-RANK-1)."""
    result = resolve_matching_grants(scope(grant("*", "*")), "w", "s", None)
    assert _ranked(result) == [(0, (0, 0, 0))]


def test_resolve_matching_grants_enforces_path_constraints_and_specificity() -> None:
    """A private path ranks the constrained exact grant first; public leaves */* (SCOPE-PATH-4)."""
    s = scope(grant("*", "*"), grant(constraints=[con("path_prefix", "/workspace/private")]))
    private = resolve_matching_grants(s, "read", "files", {"path": "/workspace/private/a.txt"})
    assert _ranked(private) == [(1, (1, 1, 1)), (0, (0, 0, 0))]
    public = resolve_matching_grants(s, "read", "files", {"path": "/workspace/public/report.txt"})
    assert _ranked(public) == [(0, (0, 0, 0))]


def test_resolve_matching_grants_enforces_domain_audience_and_memory_constraints() -> None:
    """Glob, audience, store and Custom pass together; each wrong value fails (SCOPE-ALLOW-3)."""
    s = scope(
        grant(
            "web",
            "send",
            [
                con("domain_glob", "*.example.com"),
                con("audience_allowlist", ["security", "ops"]),
                con("memory_store_allowlist", ["case-notes"]),
                con("custom", ["ticket", "INC-123"]),
            ],
        )
    )
    good: dict[str, JSON] = {
        "url": "https://api.example.com/v1/events",
        "audience": ["security", "ops"],
        "memory_store": "case-notes",
        "meta": {"ticket": "INC-123"},
    }
    one: dict[str, JSON] = {**good, "audience": ["security"]}
    assert _count(s, good, "send", "web") == 1
    assert _count(s, {**one, "url": "https://api.evil.test/v1/events"}, "send", "web") == 0
    assert _count(s, {**good, "audience": ["finance"]}, "send", "web") == 0
    assert _count(s, {**one, "memory_store": "scratch"}, "send", "web") == 0


def test_resolve_matching_grants_audience_allowlist_rejects_non_string_values() -> None:
    """42, an object and [] under audience fail; an absent key matches (SCOPE-ALLOW-2)."""
    s = scope(grant(constraints=[con("audience_allowlist", ["security"])]))
    assert _count(s, {"audience": 42}) == 0
    assert _count(s, {"audience": {"team": "security"}}) == 0
    assert _count(s, {"audience": []}) == 0
    assert _count(s, {"body": "hello"}) == 1


def test_resolve_matching_grants_audience_null_fails_closed_and_missing_allows() -> None:
    """null and "" fail, a missing key matches, for audience and store (SCOPE-ALLOW-2)."""
    aud = scope(grant(constraints=[con("audience_allowlist", ["security"])]))
    store = scope(grant(constraints=[con("memory_store_allowlist", ["case-notes"])]))
    for s, key in ((aud, "audience"), (store, "store")):
        assert _count(s, {key: None}) == 0
        assert _count(s, {key: ""}) == 0
        assert _count(s, {"other": "x"}) == 1


def test_resolve_matching_grants_audience_mixed_null_array_fails_closed() -> None:
    """["security", null] and ["case-notes", null] fail closed (SCOPE-ALLOW-2)."""
    aud = scope(grant(constraints=[con("audience_allowlist", ["security"])]))
    store = scope(grant(constraints=[con("memory_store_allowlist", ["case-notes"])]))
    assert _count(aud, {"audience": ["security", None]}) == 0
    assert _count(store, {"store": ["case-notes", None]}) == 0


def test_resolve_matching_grants_memory_store_allowlist_rejects_non_string_values() -> None:
    """{"store": true} and {"namespace": {"id": ...}} fail (SCOPE-ALLOW-2)."""
    s = scope(grant(constraints=[con("memory_store_allowlist", ["case-notes"])]))
    assert _count(s, {"store": True}) == 0
    assert _count(s, {"namespace": {"id": "case-notes"}}) == 0


def test_resolve_matching_grants_fails_closed_on_unsupported_constraints() -> None:
    """RegexMatch on the target grant is a ConstraintError (SCOPE-CON-2)."""
    s = scope(grant("web", "send", [con("regex_match", "^safe$")]))
    result = resolve_matching_grants(s, "send", "web", {"value": "safe"})
    assert result == ConstraintError("portable kernel cannot safely evaluate regex_match")


def test_resolve_matching_grants_rejects_cumulative_approval_until_enforced() -> None:
    """The cumulative variant gives exactly its refusal message (SCOPE-CON-2)."""
    cumulative = con(
        "require_cumulative_approval_above",
        {
            "threshold": {"units": 1000, "currency": "USD"},
            "approval_budget_id": "budget-1",
            "approval_budget_epoch": 1,
        },
    )
    result = resolve_matching_grants(scope(grant(constraints=[cumulative])), "read", "files", {})
    assert result == ConstraintError(
        "portable kernel cannot safely evaluate require_cumulative_approval_above"
    )


def test_resolve_matching_grants_fails_closed_when_target_match_has_unsupported_constraint() -> (
    None
):
    """[srv-a/echo + minimum_runtime_assurance, */*] errors though */* would match (SCOPE-RES-4)."""
    s = scope(
        grant("srv-a", "echo", [con("minimum_runtime_assurance", "attested")]),
        grant("*", "*"),
    )
    result = resolve_matching_grants(s, "echo", "srv-a", {"msg": "hello"})
    assert isinstance(result, ConstraintError)
    assert "minimum_runtime_assurance" in result.message


def test_resolve_matching_grants_ignores_unsupported_constraints_on_unrelated_grants() -> None:
    """The refused constraint sits on srv-b: exactly one match, index 1 (SCOPE-RES-2)."""
    s = scope(
        grant("srv-b", "echo", [con("minimum_runtime_assurance", "attested")]),
        grant("srv-a", "echo"),
    )
    result = resolve_matching_grants(s, "echo", "srv-a", {"msg": "hello"})
    assert _ranked(result) == [(1, (1, 1, 0))]


def test_evaluate_path_prefix_family() -> None:
    """Prefix .../safe denies sibling, traversal and safeX; admits a child (SCOPE-PATH-4)."""
    s = scope(grant("srv-a", "echo", [con("path_prefix", "/workspace/safe")]))
    assert _count(s, {"path": "/workspace/safe/file.txt"}, "echo", "srv-a") == 1
    assert _count(s, {"path": "/workspace/unsafe/file.txt"}, "echo", "srv-a") == 0
    assert _count(s, {"path": "/workspace/safe/../secret.txt"}, "echo", "srv-a") == 0
    assert _count(s, {"path": "/workspace/safeX/file.txt"}, "echo", "srv-a") == 0


def test_evaluate_out_of_scope_through_capability_wrapper() -> None:
    """An uncovered call through the capability wrapper is OutOfScope (SCOPE-RES-6)."""
    assert resolve_capability_grants(scope(grant("s", "r")), "w", "s", None) == OutOfScope()


def test_resolve_required_matching_grants_maps_empty_matches_to_out_of_scope() -> None:
    """Empty scope: () from the scope function, OutOfScope from the wrapper (SCOPE-RES-6)."""
    assert resolve_matching_grants(scope(), "read", "files", None) == ()
    assert resolve_capability_grants(scope(), "read", "files", None) == OutOfScope()
