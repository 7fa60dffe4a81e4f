"""Differential test: the optimized matcher against a naive model written the upstream way
(one fresh walk of the arguments per constraint, recursion for Custom and the allowlists)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_touchstone import serde_json
from mcp_touchstone.scope import ChioScope, ConstraintError, decode_scope, resolve_matching_grants
from mcp_touchstone.scope import _types as t
from mcp_touchstone.scope._arguments import (
    AUDIENCE_KEYS,
    MEMORY_STORE_KEYS,
    ascii_lower,
    is_path_key,
    looks_like_path,
    normalize_domain,
    parse_domain,
    path_has_prefix,
    wildcard_matches,
)
from mcp_touchstone.serde_json import JSON
from tests.strategies.scope import constraint_json, grant_json, json_values


def _leaves(value: JSON, key: str | None = None) -> list[tuple[str | None, str]]:
    if isinstance(value, str):
        return [(key, value)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in _leaves(item, key)]
    if isinstance(value, dict):
        return [leaf for k, item in value.items() for leaf in _leaves(item, k)]
    return []


def _custom(value: JSON, key: str, expected: str) -> bool:
    if isinstance(value, dict):
        return any(
            (k == key and isinstance(v, str) and v == expected) or _custom(v, key, expected)
            for k, v in value.items()
        )
    if isinstance(value, list):
        return any(_custom(v, key, expected) for v in value)
    return False


def _strict(value: JSON, out: list[str]) -> bool:
    if isinstance(value, str):
        out.append(value)
        return True
    if isinstance(value, list):
        return all(_strict(v, out) for v in value)
    return False


def _allow(value: JSON, keys: frozenset[str], allowed: tuple[str, ...]) -> bool:
    saw = invalid = False
    values: list[str] = []

    def walk(v: JSON) -> None:
        nonlocal saw, invalid
        if isinstance(v, dict):
            for k, item in v.items():
                if ascii_lower(k) in keys:
                    saw = True
                    before = len(values)
                    if not _strict(item, values) or len(values) == before:
                        invalid = True
                else:
                    walk(item)
        elif isinstance(v, list):
            for item in v:
                walk(item)

    walk(value)
    return not invalid and (not saw or all(v in allowed for v in values))


def _model_constraint(c: t.Constraint, args: JSON) -> bool | None:
    """None = refused."""
    leaves = _leaves(args)
    if isinstance(c, t.PathPrefix):
        cands = [v for k, v in leaves if (k is not None and is_path_key(k)) or looks_like_path(v)]
        return bool(cands) and all(path_has_prefix(v, c.prefix) for v in cands)
    if isinstance(c, t.DomainExact):
        doms = [d for _, v in leaves if (d := parse_domain(v)) is not None]
        return bool(doms) and all(d == normalize_domain(c.domain) for d in doms)
    if isinstance(c, t.DomainGlob):
        doms = [d for _, v in leaves if (d := parse_domain(v)) is not None]
        pat = ascii_lower(c.pattern)
        return bool(doms) and all(wildcard_matches(pat, d) for d in doms)
    if isinstance(c, t.MaxLength):
        return all(len(v.encode()) <= c.limit for _, v in leaves)
    if isinstance(c, t.MaxArgsSize):
        return len(serde_json.to_string(args).encode()) <= c.limit
    if isinstance(c, t.Custom):
        return _custom(args, c.key, c.expected)
    if isinstance(c, t.AudienceAllowlist):
        return _allow(args, AUDIENCE_KEYS, c.allowed)
    if isinstance(c, t.MemoryStoreAllowlist):
        return _allow(args, MEMORY_STORE_KEYS, c.allowed)
    return None


def _model(scope: ChioScope, tool: str, server: str, args: JSON) -> object:
    found = []
    for i, g in enumerate(scope.grants):
        if g.server_id not in ("*", server) or g.tool_name not in ("*", tool):
            continue
        if t.Operation.INVOKE not in g.operations:
            continue
        ok = True
        for c in g.constraints:
            verdict = _model_constraint(c, args)
            if verdict is None:
                return ("error", type(c).KIND.value)
            if not verdict:
                ok = False
                break
        if ok:
            spec = (int(g.server_id == server), int(g.tool_name == tool), len(g.constraints))
            found.append((spec, i))
    found.sort(key=lambda si: (-si[0][0], -si[0][1], -si[0][2], si[1]))
    return [(i, spec) for spec, i in found]


def _ours(scope: ChioScope, tool: str, server: str, args: JSON) -> object:
    result = resolve_matching_grants(scope, tool, server, args)
    if isinstance(result, ConstraintError):
        return ("error", result.message.removeprefix("portable kernel cannot safely evaluate "))
    return [(m.index, m.specificity) for m in result]


_cases = st.tuples(
    st.lists(grant_json(constraint_json()), max_size=5),
    st.sampled_from(["read", "send", "*"]),
    st.sampled_from(["files", "mail", "*"]),
    json_values(25),
)


def _check(case: tuple[list[dict[str, JSON]], str, str, JSON]) -> None:
    grants, tool, server, args = case
    grants_json: list[JSON] = list(grants)
    scope = decode_scope({"grants": grants_json})
    assert _ours(scope, tool, server, args) == _model(scope, tool, server, args)


@settings(max_examples=150, deadline=None)
@given(_cases)
def test_matcher_equals_naive_model(case: tuple[list[dict[str, JSON]], str, str, JSON]) -> None:
    """Resolution equals the naive per-constraint model on random scopes (SCOPE-ARG-3)."""
    _check(case)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(_cases)
def test_matcher_equals_naive_model_long(
    case: tuple[list[dict[str, JSON]], str, str, JSON],
) -> None:
    """The same differential check with a 3000-example budget (SCOPE-ARG-3)."""
    _check(case)
