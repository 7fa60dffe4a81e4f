"""Differential test: the hosted matcher against a naive model written the way request_matching.rs
@ 08876737 is (a fresh walk and a fresh ``Regex::new`` for every constraint evaluated, deny
patterns compiled inside the loop), so the per-resolution caches of ``HostedFacts`` cannot change
an answer or the point where an error surfaces (SCOPE-HOSTED-RX-2)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_touchstone.scope import (
    ArgumentFacts,
    ChioScope,
    ConstraintError,
    InvalidConstraint,
    ModelMetadata,
    constraint_matches,
    decode_model_metadata,
    decode_scope,
    resolve_hosted_matching_grants,
)
from mcp_touchstone.scope import _types as t
from mcp_touchstone.scope._regex import RegexCompileError
from mcp_touchstone.scope._regex import compile_rust_regex_uncached as compile_rust_regex
from mcp_touchstone.scope._walks import collect_string_leaves
from mcp_touchstone.serde_json import JSON
from tests.strategies.scope import decided_constraint_json, grant_json, json_values
from tests.strategies.scope_hosted import (
    drop_constraint_json,
    hosted_constraint_json,
    model_metadata_json,
    pass_constraint_json,
)

_TIERS = ["low", "standard", "high", "restricted"]
_BAD = st.sampled_from(["(", "(?=x)", r"(a)\1", r"\Z", "[", "a{,3}"])


def _naive_regex(pattern: str, args: JSON, label: str) -> bool | str:
    compiled = compile_rust_regex(pattern)
    if isinstance(compiled, RegexCompileError):
        return f'{label} "{pattern}" failed to compile: {compiled.detail}'
    return any(compiled.is_match(leaf.value) for leaf in collect_string_leaves(args))


def _naive_verdict(c: t.Constraint, args: JSON, meta: ModelMetadata | None) -> bool | str:
    """One constraint, the upstream way; a string is the InvalidConstraint detail."""
    if isinstance(c, t.RegexMatch):
        return _naive_regex(c.pattern, args, "regex")
    if isinstance(c, t.MemoryWriteDenyPatterns):
        for pattern in c.patterns:
            hit = _naive_regex(pattern, args, "memory write deny pattern")
            if isinstance(hit, str):
                return hit
            if hit:
                return False
        return True
    if isinstance(c, t.ModelConstraint):
        if not c.allowed_model_ids and c.min_safety_tier is None:
            return True
        if meta is None:
            return False
        if c.allowed_model_ids and meta.model_id not in c.allowed_model_ids:
            return False
        if c.min_safety_tier is not None:
            tier = meta.safety_tier
            floor = _TIERS.index(c.min_safety_tier.value)
            if tier is None or _TIERS.index(tier.value) < floor:
                return False
        return True
    if isinstance(c, t.ContentReviewTier | t.MaxTransactionAmountUsd | t.RequireDualApproval):
        return False
    verdict = constraint_matches(c, ArgumentFacts(args))  # a fresh walk for this constraint
    # The portable matcher refuses the ten enforced-later variants; the hosted one passes them.
    return True if isinstance(verdict, ConstraintError) else verdict


def _naive_resolve(scope: ChioScope, tool: str, server: str, args: JSON, meta: JSON) -> object:
    metadata = decode_model_metadata(meta)
    found = []
    for i, g in enumerate(scope.grants):
        if g.server_id not in ("*", server) or g.tool_name not in ("*", tool):
            continue
        if t.Operation.INVOKE not in g.operations:
            continue
        ok = True
        for c in g.constraints:
            verdict = _naive_verdict(c, args, metadata)
            if isinstance(verdict, str):
                return ("error", "invalid capability constraint: " + verdict)
            if not verdict:
                ok = False
                break
        if ok:
            spec = (int(g.server_id == server), int(g.tool_name == tool), len(g.constraints))
            found.append((spec, i))
    found.sort(key=lambda si: (-si[0][0], -si[0][1], -si[0][2], si[1]))
    return [(i, spec) for spec, i in found]


def _ours(scope: ChioScope, tool: str, server: str, args: JSON, meta: JSON) -> object:
    result = resolve_hosted_matching_grants(scope, tool, server, args, decode_model_metadata(meta))
    if isinstance(result, InvalidConstraint):
        return ("error", result.message)
    return [(m.index, m.specificity) for m in result]


_constraints = st.one_of(
    decided_constraint_json(),
    pass_constraint_json(),
    drop_constraint_json(),
    hosted_constraint_json(),
    _BAD.map(lambda p: {"type": "regex_match", "value": p}),
    st.lists(st.one_of(_BAD, st.sampled_from(["a", "x", "^$", r"\d"])), max_size=3).map(
        lambda ps: {"type": "memory_write_deny_patterns", "value": ps}
    ),
)
_cases = st.tuples(
    st.lists(grant_json(_constraints), max_size=5),
    st.sampled_from(["read", "send", "*"]),
    st.sampled_from(["files", "mail", "*"]),
    json_values(25),
    model_metadata_json(),
)


def _check(case: tuple[list[dict[str, JSON]], str, str, JSON, JSON]) -> None:
    grants, tool, server, args, meta = case
    grants_json: list[JSON] = list(grants)
    scope = decode_scope({"grants": grants_json})
    assert _ours(scope, tool, server, args, meta) == _naive_resolve(scope, tool, server, args, meta)


@settings(max_examples=150, deadline=None)
@given(_cases)
def test_hosted_matcher_equals_naive_model(
    case: tuple[list[dict[str, JSON]], str, str, JSON, JSON],
) -> None:
    """Hosted resolution equals the naive per-evaluation model (SCOPE-HOSTED-RX-2,
    SCOPE-HOSTED-RES-1, SCOPE-HOSTED-DENY-1)."""
    _check(case)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(_cases)
def test_hosted_matcher_equals_naive_model_long(
    case: tuple[list[dict[str, JSON]], str, str, JSON, JSON],
) -> None:
    """The same differential check with a 3000-example budget (SCOPE-HOSTED-RX-2)."""
    _check(case)
