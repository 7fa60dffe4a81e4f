"""A naive model of the portable matcher written the upstream way: one fresh walk of the
arguments per constraint, recursion for Custom and the allowlists.  The differential tests
compare the optimized matcher (one shared walk, memoized verdicts) against it."""

from __future__ import annotations

from mcp_touchstone import serde_json
from mcp_touchstone.scope import ChioScope
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


def leaves(value: JSON, key: str | None = None) -> list[tuple[str | None, str]]:
    """Every string with its nearest enclosing key; arrays inherit the key."""
    if isinstance(value, str):
        return [(key, value)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in leaves(item, key)]
    if isinstance(value, dict):
        return [leaf for k, item in value.items() for leaf in leaves(item, k)]
    return []


def custom(value: JSON, key: str, expected: str) -> bool:
    """Some object entry ``key`` anywhere holds the string ``expected``."""
    if isinstance(value, dict):
        return any(
            (k == key and isinstance(v, str) and v == expected) or custom(v, key, expected)
            for k, v in value.items()
        )
    if isinstance(value, list):
        return any(custom(v, key, expected) for v in value)
    return False


def _strict(value: JSON, out: list[str]) -> bool:
    if isinstance(value, str):
        out.append(value)
        return True
    if isinstance(value, list):
        return all(_strict(v, out) for v in value)
    return False


def allowlist(value: JSON, keys: frozenset[str], allowed: tuple[str, ...] | list[str]) -> bool:
    """The strict allowlist verdict: invalid fails, absent allows, else all listed."""
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


def constraint_verdict(c: t.Constraint, args: JSON) -> bool | None:
    """One constraint on fresh walks of ``args``; ``None`` means refused."""
    found = leaves(args)
    if isinstance(c, t.PathPrefix):
        cands = [v for k, v in found if (k is not None and is_path_key(k)) or looks_like_path(v)]
        return bool(cands) and all(path_has_prefix(v, c.prefix) for v in cands)
    if isinstance(c, t.DomainExact):
        doms = [d for _, v in found if (d := parse_domain(v)) is not None]
        return bool(doms) and all(d == normalize_domain(c.domain) for d in doms)
    if isinstance(c, t.DomainGlob):
        doms = [d for _, v in found if (d := parse_domain(v)) is not None]
        pat = ascii_lower(c.pattern)
        return bool(doms) and all(wildcard_matches(pat, d) for d in doms)
    if isinstance(c, t.MaxLength):
        return all(len(v.encode()) <= c.limit for _, v in found)
    if isinstance(c, t.MaxArgsSize):
        return len(serde_json.to_string(args).encode()) <= c.limit
    if isinstance(c, t.Custom):
        return custom(args, c.key, c.expected)
    if isinstance(c, t.AudienceAllowlist):
        return allowlist(args, AUDIENCE_KEYS, c.allowed)
    if isinstance(c, t.MemoryStoreAllowlist):
        return allowlist(args, MEMORY_STORE_KEYS, c.allowed)
    return None


def resolve(scope: ChioScope, tool: str, server: str, args: JSON) -> object:
    """``[(index, specificity), ...]`` ranked, or ``("error", tag)``."""
    found = []
    for i, g in enumerate(scope.grants):
        if g.server_id not in ("*", server) or g.tool_name not in ("*", tool):
            continue
        if t.Operation.INVOKE not in g.operations:
            continue
        ok = True
        for c in g.constraints:
            verdict = constraint_verdict(c, args)
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


def greedy_wildcard(pattern: str, candidate: str) -> bool:
    """Upstream's glob loop: greedy, one remembered star, backtrack by one character."""
    p = c = 0
    star: int | None = None
    mark = 0
    while c < len(candidate):
        if p < len(pattern) and pattern[p] in ("*", candidate[c]):
            if pattern[p] == "*":
                star, mark = p, c
                p += 1
            else:
                p += 1
                c += 1
        elif star is not None:
            p = star + 1
            mark += 1
            c = mark
        else:
            return False
    while p < len(pattern) and pattern[p] == "*":
        p += 1
    return p == len(pattern)
