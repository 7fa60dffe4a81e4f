"""Solve the proof models for witness inputs; run in a process of its own (``z3_witnesses``).

Z3's choice of model depends on what ran before in the same process (toolchain.md §3.4), so
:mod:`conformance.vectorgen.z3_witnesses` runs this module as ``python -m`` and reads the JSON
it prints.  Every input below is a Z3 model of a constraint over :mod:`proofs.models`, decoded
to real strings; every expected answer is the *model's* verdict on that input (Python
backend).  Nothing here imports ``mcp_touchstone``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

import z3
from proofs._ops import PY, Z3
from proofs.models import allmatch, glob, paths, ranking, template

HOST = z3.Concat(
    z3.Plus(z3.Range("a", "b")), z3.Plus(z3.Concat(z3.Re("."), z3.Plus(z3.Range("a", "b"))))
)
"""Domain witnesses: labels over ``a b`` joined by single dots, at least one dot.  Such a
string is its own ``parse_domain`` result (SCOPE-DOM-2), so the model's glob verdict on it is
the constraint's verdict."""
URI = z3.Star(z3.Union(z3.Range("a", "b"), z3.Re("/")))


def _models(constraints: list[Any], terms: list[Any], limit: int) -> Iterator[list[Any]]:
    """Up to ``limit`` distinct assignments of ``terms`` (blocking clauses between them)."""
    solver = z3.Solver()
    solver.set("random_seed", 0)
    solver.add(*constraints)
    for _ in range(limit):
        if solver.check() != z3.sat:
            return
        model = solver.model()
        values = [model.eval(t, model_completion=True) for t in terms]
        yield values
        solver.add(z3.Or(*[t != v for t, v in zip(terms, values, strict=True)]))


def _grant(constraint: dict[str, Any]) -> dict[str, Any]:
    return {
        "server_id": "files",
        "tool_name": "read",
        "operations": ["invoke"],
        "constraints": [constraint],
    }


def _scope_case(constraint: dict[str, Any], arguments: Any, holds: bool) -> dict[str, Any]:
    matches = [{"index": 0, "specificity": [1, 1, 1]}] if holds else []
    return {
        "input": {
            "scope": {"grants": [_grant(constraint)]},
            "tool_name": "read",
            "server_id": "files",
            "arguments": arguments,
        },
        "expected": {"matches": matches},
    }


# ----------------------------------------------------------------------------- paths

N, NAMES = 4, 4


def _raw(name: str) -> list[z3.ArithRef]:
    return [z3.Int(f"{name}{i}") for i in range(N)]


def _dom(xs: list[z3.ArithRef]) -> z3.BoolRef:
    return z3.And(*[z3.And(x >= 0, x < 3 + NAMES) for x in xs])


def path_cases() -> list[tuple[str, str, str, bool]]:
    """``(family, prefix, candidate, expected)`` from the segment model and string theory."""
    p, q = _raw("p"), _raw("q")
    cap = 2 * N + 1
    pa, qa = z3.Bool("pa"), z3.Bool("qa")
    pn, qn = paths.normalize(pa, p, cap, Z3), paths.normalize(qa, q, cap, Z3)
    under = paths.under(qn, pn, Z3)
    last_differs = z3.And(
        *[z3.Implies(pn.depth == j + 1, pn.stack[j] != qn.stack[j]) for j in range(cap)]
    )
    same_before = z3.And(
        *[z3.Implies(j < pn.depth - 1, pn.stack[j] == qn.stack[j]) for j in range(cap)]
    )
    families = {
        "descendant": [under, qn.depth > pn.depth, pn.depth > 0, pa],
        "sibling": [
            z3.Not(under),
            pn.ok,
            qn.ok,
            qn.depth == pn.depth,
            pn.depth > 0,
            same_before,
            last_differs,
            pa,
            qa,
        ],
        "dotdot": [z3.Not(qn.ok), pn.ok, pn.depth > 0, qa, pa, q[0] == p[0]],
    }
    out = []
    for family, cond in families.items():
        for values in _models([_dom(p), _dom(q), *cond], [pa, qa, *p, *q], 4):
            a, b = z3.is_true(values[0]), z3.is_true(values[1])
            pv = [v.as_long() for v in values[2 : 2 + N]]
            qv = [v.as_long() for v in values[2 + N :]]
            prefix, cand = paths.decode(a, pv), paths.decode(b, qv)
            out.append((family, prefix, cand, paths.model_has_prefix(cand, prefix, PY)))
    # String level (below the segment abstraction): the prefix plus more name characters.
    pre, extra = z3.Strings("pre extra")
    alpha = z3.Star(z3.Union(z3.Range("a", "c"), z3.Re("/")))
    cond = [
        z3.InRe(pre, alpha),
        z3.InRe(extra, z3.Plus(z3.Range("a", "c"))),
        z3.PrefixOf(z3.StringVal("/"), pre),
        z3.Length(pre) >= 2,
        z3.Length(pre) <= 6,
        z3.Not(z3.Contains(pre, z3.StringVal("//"))),
        z3.Not(z3.SuffixOf(z3.StringVal("/"), pre)),
        z3.Length(extra) <= 2,
    ]
    for pv, ev in _models(cond, [pre, extra], 4):
        prefix = pv.as_string()
        cand = prefix + ev.as_string()
        out.append(("string-sibling", prefix, cand, paths.model_has_prefix(cand, prefix, PY)))
    return out


# ----------------------------------------------------------------------------- globs


def _hosts(regex: Any, limit: int, max_len: int) -> list[str]:
    t = z3.String("t")
    cond = [z3.InRe(t, z3.Intersect(regex, HOST)), z3.Length(t) <= max_len]
    return [v.as_string() for (v,) in _models(cond, [t], limit)]


def glob_cases() -> list[tuple[str, str, str, bool]]:
    """``(family, pattern, candidate, expected)``."""
    out = []
    every = z3.Star(z3.AllChar(z3.ReSort(z3.StringSort())))
    for pattern in ("*.ab.a", "a*b", "*a*b*", "a.*.b", "*.*", "b*a.*b"):
        r = glob.glob(pattern, glob.Z3_RE)
        for text in _hosts(r, 2, len(pattern) + 3) + _hosts(z3.Complement(r), 2, len(pattern) + 2):
            out.append(("glob", pattern, text, glob.model_matches(pattern, text)))
    for base in ("a.b", "ab.a"):
        pattern = "*." + base
        for text in _hosts(glob.glob(pattern, glob.Z3_RE), 3, len(base) + 4):
            out.append(("glob-subdomain", pattern, text, glob.model_matches(pattern, text)))
        out.append(("glob-apex", pattern, base, glob.model_matches(pattern, base)))
    for pattern in ("*.a.b.", "a.*.", "*."):
        # The hosts the pattern would name without its trailing dot.
        for text in _hosts(glob.glob(pattern[:-1], glob.Z3_RE), 2, len(pattern) + 3):
            out.append(("glob-trailing-dot", pattern, text, glob.model_matches(pattern, text)))
    for pattern in ("a.b", "ab.ba"):
        near = z3.Intersect(z3.Complement(z3.Re(pattern)), every)
        for text in [pattern, *_hosts(near, 2, len(pattern))]:
            out.append(("glob-literal", pattern, text, glob.model_matches(pattern, text)))
    return out


# ----------------------------------------------------------------------------- ranking


def rank_cases() -> list[list[tuple[int, int, int]]]:
    """Scopes of 3 grants (server exact?, tool exact?, constraints) whose ranking reorders
    them and has a tie."""
    keys = [tuple(z3.Int(f"k{i}{j}") for j in range(3)) for i in range(3)]
    dom = [z3.And(k[0] >= 0, k[0] <= 1, k[1] >= 0, k[1] <= 1, k[2] >= 0, k[2] <= 2) for k in keys]
    full = [(*k, z3.IntVal(i)) for i, k in enumerate(keys)]
    reorders = z3.Or(ranking.precedes(full[2], full[0], Z3), ranking.precedes(full[1], full[0], Z3))
    tie = z3.Or(
        *[
            z3.And(*[a == b for a, b in zip(keys[i], keys[j], strict=True)])
            for i in range(3)
            for j in range(i + 1, 3)
        ]
    )
    terms = [x for k in keys for x in k]
    out = []
    for values in _models([*dom, reorders, tie], terms, 4):
        v = [x.as_long() for x in values]
        out.append([(v[0], v[1], v[2]), (v[3], v[4], v[5]), (v[6], v[7], v[8])])
    return out


# ----------------------------------------------------------------------------- all candidates


def all_cases() -> list[tuple[str, list[bool]]]:
    """Verdict vectors that make the fail-closed conjunction false: none at all, or mixed."""
    out: list[tuple[str, list[bool]]] = []
    verdict, n = z3.Array("v", z3.IntSort(), z3.BoolSort()), z3.Int("n")
    cells = [verdict[i] for i in range(3)]
    base = [z3.Not(allmatch.quantified(verdict, n)), n >= 0, n <= 3]
    every_true = z3.And(*[z3.Implies(i < n, cells[i]) for i in range(3)])
    some_true = z3.Or(*[z3.And(i < n, cells[i]) for i in range(3)])
    for family, cond in (("all-empty", [every_true]), ("all-mixed", [n >= 2, some_true])):
        for values in _models(base + cond, [n, *cells], 3):
            count = values[0].as_long()
            out.append((family, [z3.is_true(values[1 + i]) for i in range(count)]))
    return out


# ----------------------------------------------------------------------------- templates


def template_cases() -> list[tuple[str, str, str, bool]]:
    """``(family, template, uri, expected)``."""
    out = []
    every = z3.Star(z3.AllChar(z3.ReSort(z3.StringSort())))
    for tpl in ("a{v}b", "{v}/a", "a/{v}/{w}"):
        r = template.z3_regex(tpl)
        spans = z3.Concat(every, z3.Re("/"), every)
        u = z3.String("u")
        for want in (r, z3.Intersect(z3.Complement(r), spans)):
            cond = [z3.InRe(u, z3.Intersect(want, URI)), z3.Length(u) <= len(tpl) + 2]
            for (value,) in _models(cond, [u], 2):
                uri = value.as_string()
                out.append(("segment", tpl, uri, bool(template.model_matches(tpl, uri))))
    for tpl in ("a{v}", "{v}b", "a{+v}b"):
        r = template.z3_regex(tpl)
        u = z3.String("u")
        longer = z3.Union(
            z3.Concat(z3.Plus(z3.Range("a", "b")), r), z3.Concat(r, z3.Plus(z3.Range("a", "b")))
        )
        cond = [
            z3.InRe(u, z3.Intersect(longer, z3.Complement(r), URI)),
            z3.Length(u) <= len(tpl) + 2,
        ]
        for (value,) in _models(cond, [u], 2):
            uri = value.as_string()
            out.append(("anchored", tpl, uri, bool(template.model_matches(tpl, uri))))
    return out


SOLVERS: dict[str, Callable[[], Any]] = {
    "paths": path_cases,
    "globs": glob_cases,
    "ranks": rank_cases,
    "all": all_cases,
    "templates": template_cases,
}


if __name__ == "__main__":
    json.dump({name: solve() for name, solve in SOLVERS.items()}, sys.stdout)
