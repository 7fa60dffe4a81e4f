"""Z3 obligations about the scope models, and the ties that hold each model to the real code.

Every ``prop_*`` function checks one property: its Z3 obligations (UNSAT or a failure; unknown
and timeouts are failures), then its tie to the implementation (the real function against the
model, exhaustively over a stated bound), then its witnessing vectors through the real harness
operation.  It returns nothing, or raises with what failed.
"""

from __future__ import annotations

import itertools
from functools import cache

import z3

from mcp_touchstone.scope import ChioScope, Operation, ToolGrant, resolve_matching_grants
from mcp_touchstone.scope._arguments import (
    ArgumentFacts,
    parse_domain,
    path_has_prefix,
    wildcard_matches,
)
from mcp_touchstone.scope._matcher import MatchedGrant, _rank_key
from mcp_touchstone.scope._types import MaxLength
from mcp_touchstone.serde_json import JSON
from proofs import _vectors
from proofs._ops import PY, Z3, prove
from proofs.models import allmatch, glob, paths, ranking

# ----------------------------------------------------------------------------- shared bits


def _fail(failures: list[str]) -> None:
    if failures:
        raise AssertionError("; ".join(failures[:5]) + (" ..." if len(failures) > 5 else ""))


def _words(alphabet: str, max_len: int) -> list[str]:
    return ["".join(w) for n in range(max_len + 1) for w in itertools.product(alphabet, repeat=n)]


PATH_SEGMENTS = ("", ".", "..", "a", "ab", "a\\b")
"""Segments of the path bound: string-prefix names (a, ab) and a backslash inside one."""


def _paths(max_segments: int) -> list[str]:
    out: list[str] = []
    for n in range(max_segments + 1):
        for segs in itertools.product(PATH_SEGMENTS, repeat=n):
            body = "/".join(segs)
            out.extend((body, "/" + body))
    return sorted(set(out))


@cache
def _path_tie() -> tuple[str, ...]:
    """Real ``path_has_prefix`` against the model, every candidate of <= 3 segments against
    every prefix of <= 2 segments (segments from :data:`PATH_SEGMENTS`, relative or absolute)."""
    failures = []
    for cand in _paths(3):
        for pref in _paths(2):
            if path_has_prefix(cand, pref) != paths.model_has_prefix(cand, pref):
                failures.append(f"path_has_prefix({cand!r}, {pref!r}) disagrees with the model")
                if len(failures) > 5:  # enough to refute; the report shows five
                    return tuple(failures)
    return tuple(failures)


N = 4
CAP = N + 3


def _raw(name: str, n: int = N) -> list[z3.ArithRef]:
    return [z3.Int(f"{name}{i}") for i in range(n)]


def _domain(xs: list[z3.ArithRef]) -> z3.BoolRef:
    return z3.And(*[z3.And(x >= 0, x < 3 + len(paths.NAMES)) for x in xs])


# ----------------------------------------------------------------------------- paths


def prop_path_descendant() -> None:
    """PROOF-SCOPE-PATH-DESC."""
    p, c, a = _raw("p"), z3.Int("c"), z3.Bool("a")
    base = paths.normalize(a, p, CAP, Z3)
    child = paths.normalize(a, [*p, c], CAP, Z3)
    prove("descendant", z3.Implies(base.ok, paths.under(child, base, Z3)), _domain(p), c >= 3)
    prove("reflexive", z3.Implies(base.ok, paths.under(base, base, Z3)), _domain(p))
    failures = list(_path_tie())
    for pref in _paths(2):
        for name in ("a", "ab", "x"):
            sep = "" if pref.endswith("/") or pref == "" else "/"
            if paths.model_has_prefix(pref, pref) and not path_has_prefix(pref + sep + name, pref):
                failures.append(f"descendant {pref + sep + name!r} not under {pref!r}")
    failures += _vectors.replay(("scope-z3-path-descendant-*",))
    _fail(failures)


def prop_path_sibling() -> None:
    """PROOF-SCOPE-PATH-SIBLING."""
    p, c2, a = _raw("p"), z3.Int("c2"), z3.Bool("a")
    base = paths.normalize(a, p, CAP, Z3)
    other = paths.normalize(a, [*p, z3.IntVal(paths.DOTDOT), c2], CAP, Z3)
    last_differs = z3.And(
        *[z3.Implies(base.depth == j + 1, base.stack[j] != c2) for j in range(CAP)]
    )
    prove(
        "sibling",
        z3.Not(paths.under(other, base, Z3)),
        _domain(p),
        c2 >= 3,
        base.ok,
        base.depth > 0,
        last_differs,
    )
    failures = list(_path_tie())
    for pref in ("/a", "/a/ab", "a", "/ab/a"):
        for tail in ("b", "x", "a"):
            if path_has_prefix(pref + tail, pref):
                failures.append(f"string-prefix sibling {pref + tail!r} is under {pref!r}")
    failures += _vectors.replay(("scope-z3-path-sibling-*", "scope-z3-path-string-sibling-*"))
    _fail(failures)


def prop_path_dotdot() -> None:
    """PROOF-SCOPE-PATH-DOTDOT."""
    q, p, a, b = _raw("q"), _raw("p"), z3.Bool("a"), z3.Bool("b")
    escaped = paths.normalize(a, q, CAP, Z3)
    other = paths.normalize(b, p, CAP, Z3)
    prove(
        "escape under nothing",
        z3.Implies(
            z3.Not(escaped.ok),
            z3.And(
                z3.Not(paths.under(escaped, other, Z3)), z3.Not(paths.under(other, escaped, Z3))
            ),
        ),
        _domain(q),
        _domain(p),
    )
    failures = list(_path_tie())
    for cand in _paths(3):
        if cand.replace("\\", "/").split("/").count("..") and paths.model_has_prefix(cand, "/"):
            continue
        if not paths.model_has_prefix(cand, cand) and (
            path_has_prefix(cand, "/") or path_has_prefix(cand, "") or path_has_prefix(cand, cand)
        ):
            failures.append(f"{cand!r} climbs above its root yet is under something")
    failures += _vectors.replay(("scope-z3-path-dotdot-*",))
    _fail(failures)


# ----------------------------------------------------------------------------- globs

GLOB_PATTERN_ALPHABET = "a.*?"
GLOB_TEXT_ALPHABET = "a.?"


@cache
def _glob_tie() -> tuple[str, ...]:
    """Real ``wildcard_matches`` against the model: every pattern of <= 4 characters over
    ``a . * ?`` and every candidate of <= 4 characters over ``a . ?``."""
    failures = []
    texts = _words(GLOB_TEXT_ALPHABET, 4)
    for pattern in _words(GLOB_PATTERN_ALPHABET, 4):
        for text in texts:
            if wildcard_matches(pattern, text) != glob.model_matches(pattern, text):
                failures.append(f"wildcard_matches({pattern!r}, {text!r}) disagrees with the model")
                if len(failures) > 5:  # enough to refute; the report shows five
                    return tuple(failures)
    return tuple(failures)


def _re(pattern: str) -> z3.ReRef:
    return glob.glob(pattern, glob.Z3_RE)


def _collapse(pattern: str) -> str:
    while "**" in pattern:
        pattern = pattern.replace("**", "*")
    return pattern


def prop_glob_equiv() -> None:
    """PROOF-SCOPE-GLOB-EQUIV."""
    t = z3.String("t")
    for pattern in _words("a.*", 4):
        r1, r2 = _re(pattern), _re(_collapse(pattern))
        prove(f"glob {pattern!r} == {_collapse(pattern)!r}", z3.InRe(t, r1) == z3.InRe(t, r2))
    failures = list(_glob_tie())
    failures += _vectors.replay(("scope-z3-glob-*",))
    _fail(failures)


def _domains() -> list[str]:
    return [d for d in _words("ab.", 3) if d and not d.startswith(".") and not d.endswith(".")]


def prop_glob_subdomain() -> None:
    """PROOF-SCOPE-GLOB-SUBDOMAIN."""
    label = z3.String("label")
    for d in _domains():
        r = _re("*." + d)
        sub = z3.Concat(label, z3.StringVal("." + d))
        prove(f"*.{d} admits every subdomain", z3.InRe(sub, r), z3.Length(label) > 0)
        prove(f"*.{d} refuses {d}", z3.Not(z3.InRe(z3.StringVal(d), r)))
    failures = list(_glob_tie())
    for d in ("example.com", "a.b", "co"):
        if not wildcard_matches("*." + d, "x." + d) or wildcard_matches("*." + d, d):
            failures.append(f"*.{d}: subdomain refused or base admitted")
    failures += _vectors.replay(("scope-z3-glob-subdomain-*", "scope-z3-glob-apex-*"))
    _fail(failures)


def prop_glob_trailing_dot() -> None:
    """PROOF-SCOPE-GLOB-TRAILDOT."""
    t = z3.String("t")
    every = z3.AllChar(z3.ReSort(z3.StringSort()))
    normalized = z3.Complement(z3.Concat(z3.Star(every), z3.Re(z3.StringVal("."))))
    for pattern in _words("a.*", 4):
        if pattern.endswith("."):
            prove(
                f"{pattern!r} matches no normalized domain",
                z3.Not(z3.InRe(t, z3.Intersect(_re(pattern), normalized))),
            )
    failures = list(_glob_tie())
    for leaf in _words("a.B/: ", 5):
        parsed = parse_domain(leaf)
        if parsed is not None and parsed.endswith("."):
            failures.append(f"parse_domain({leaf!r}) = {parsed!r} ends with a dot")
    failures += _vectors.replay(("scope-z3-glob-trailing-dot-*",))
    _fail(failures)


def prop_glob_literal() -> None:
    """PROOF-SCOPE-GLOB-LITERAL."""
    t = z3.String("t")
    for pattern in _words("a.?", 3):
        prove(f"{pattern!r} is literal", z3.Implies(z3.InRe(t, _re(pattern)), t == pattern))
    failures = list(_glob_tie())
    failures += _vectors.replay(("scope-z3-glob-literal-*",))
    _fail(failures)


# ----------------------------------------------------------------------------- ranking


def _key_vars(name: str) -> tuple[z3.ArithRef, ...]:
    return tuple(z3.Int(f"{name}{i}") for i in range(4))


def _key_domain(*keys: tuple[z3.ArithRef, ...]) -> z3.BoolRef:
    return z3.And(
        *[z3.And(k[0] >= 0, k[0] <= 1, k[1] >= 0, k[1] <= 1, k[2] >= 0, k[3] >= 0) for k in keys]
    )


SPECIFICITIES = [(s, t, c) for s in (0, 1) for t in (0, 1) for c in range(3)]


def _real_key_tie() -> list[str]:
    """Real ``_rank_key`` order against the model's, every pair of matches over the
    specificity domain {0,1} x {0,1} x {0,1,2} and indices 0..2."""
    failures = []
    grant = ToolGrant("s", "t", (Operation.INVOKE,))
    matches = [MatchedGrant(i, grant, sp) for sp in SPECIFICITIES for i in range(3)]
    for a in matches:
        for b in matches:
            ka, kb = (*a.specificity, a.index), (*b.specificity, b.index)
            if (_rank_key(a) < _rank_key(b)) != ranking.precedes(ka, kb, PY):
                failures.append(f"_rank_key orders {ka} and {kb} unlike the model")
    return failures


def _resolve_tie() -> list[str]:
    """Real ``resolve_matching_grants`` order against the model's, every scope of <= 3 grants
    with server and tool each ``*`` or exact and 0..2 holding constraints."""
    failures = []
    options = [(s, t, c) for s in ("*", "s") for t in ("*", "t") for c in range(3)]
    for n in range(4):
        for chosen in itertools.product(options, repeat=n):
            grants = tuple(
                ToolGrant(s, t, (Operation.INVOKE,), (MaxLength(100),) * c) for s, t, c in chosen
            )
            real = resolve_matching_grants(ChioScope(grants=grants), "t", "s", None)
            assert isinstance(real, tuple)
            got = [(*m.specificity, m.index) for m in real]
            keys = [(int(s == "s"), int(t == "t"), c, i) for i, (s, t, c) in enumerate(chosen)]
            if got != ranking.model_order(keys):
                failures.append(f"scope {chosen}: ranked {got}")
    return failures


def prop_rank_total() -> None:
    """PROOF-SCOPE-RANK-TOTAL."""
    a, b, c = _key_vars("a"), _key_vars("b"), _key_vars("c")

    def lt(x: ranking.Key, y: ranking.Key) -> z3.BoolRef:
        return ranking.precedes(x, y, Z3)

    dom = _key_domain(a, b, c)
    prove("irreflexive", z3.Not(lt(a, a)), dom)
    prove("asymmetric", z3.Implies(lt(a, b), z3.Not(lt(b, a))), dom)
    prove("transitive", z3.Implies(z3.And(lt(a, b), lt(b, c)), lt(a, c)), dom)
    prove("total on distinct indices", z3.Or(lt(a, b), lt(b, a)), dom, a[3] != b[3])
    failures = _real_key_tie() + _resolve_tie()
    failures += _vectors.replay(("scope-z3-rank-*",))
    _fail(failures)


def prop_rank_exact_first() -> None:
    """PROOF-SCOPE-RANK-EXACT."""
    a, b = _key_vars("a"), _key_vars("b")
    dom = _key_domain(a, b)
    exact = z3.And(a[0] == 1, a[1] == 1)
    wildcard = z3.Or(b[0] == 0, b[1] == 0)
    prove("exact ahead of wildcard", ranking.precedes(a, b, Z3), dom, exact, wildcard)
    same = z3.And(a[0] == b[0], a[1] == b[1], a[2] == b[2])
    prove("ties by index", ranking.precedes(a, b, Z3) == (a[3] < b[3]), dom, same)
    failures = _resolve_tie()
    failures += _vectors.replay(("scope-z3-rank-*",))
    _fail(failures)


# ----------------------------------------------------------------------------- all candidates


def _all_obligations() -> None:
    verdict, n = z3.Array("v", z3.IntSort(), z3.BoolSort()), z3.Int("n")
    for k in range(9):
        unrolled = allmatch.fail_closed([verdict[i] for i in range(k)], Z3)
        prove(f"quantified == unrolled, n={k}", allmatch.quantified(verdict, n) == unrolled, n == k)
    prove("empty never passes", z3.Not(allmatch.quantified(verdict, n)), n == 0)
    i = z3.Int("j")
    prove(
        "one failing candidate rejects",
        z3.Not(allmatch.quantified(verdict, n)),
        i >= 0,
        i < n,
        z3.Not(verdict[i]),
    )


PATH_POOL = ("/a", "/a/b", "/b", "/ab", "/a/../b")
DOMAIN_POOL = ("a.example.com", "example.com", "b.example.com", "evil.com")


def _facts_tie() -> list[str]:
    """The real PathPrefix / DomainGlob / DomainExact verdicts against ``fail_closed`` over
    the real per-candidate verdicts, for every list of <= 3 candidates from a small pool."""
    failures = []
    for n in range(4):
        for chosen in itertools.product(PATH_POOL, repeat=n):
            facts = ArgumentFacts({"paths": list(chosen)})
            distinct = list(dict.fromkeys(chosen))
            want = allmatch.fail_closed([path_has_prefix(c, "/a") for c in distinct], PY)
            if facts.path_prefix("/a") != want:
                failures.append(f"PathPrefix('/a') on {chosen}")
        for chosen in itertools.product(DOMAIN_POOL, repeat=n):
            facts = ArgumentFacts({"urls": list(chosen)})
            distinct = list(dict.fromkeys(chosen))
            glob_want = allmatch.fail_closed(
                [wildcard_matches("*.example.com", d) for d in distinct], PY
            )
            if facts.domain_glob("*.example.com") != glob_want:
                failures.append(f"DomainGlob on {chosen}")
            exact_want = allmatch.fail_closed([d == "example.com" for d in distinct], PY)
            if facts.domain_exact("example.com") != exact_want:
                failures.append(f"DomainExact on {chosen}")
    return failures


def prop_all_nonempty() -> None:
    """PROOF-SCOPE-ALL-NONEMPTY."""
    _all_obligations()
    failures = _facts_tie()
    empty: tuple[JSON, ...] = (None, {}, {"paths": []}, {"n": 1}, {"urls": ["no-domain"]})
    for args in empty:
        facts = ArgumentFacts(args)
        if facts.path_prefix("/") or facts.domain_glob("*") or facts.domain_exact(""):
            failures.append(f"no candidate in {args!r}, yet a constraint held")
    failures += _vectors.replay(("scope-z3-all-empty-*",))
    _fail(failures)


def prop_all_every() -> None:
    """PROOF-SCOPE-ALL-EVERY."""
    _all_obligations()
    failures = _facts_tie()
    failures += _vectors.replay(("scope-z3-all-mixed-*",))
    _fail(failures)
