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

from mcp_touchstone.scope._arguments import (
    ArgumentFacts,
    parse_domain,
    path_has_prefix,
    wildcard_matches,
)
from mcp_touchstone.serde_json import JSON
from proofs import _vectors
from proofs._ops import PY, Z3, prove
from proofs.models import allmatch, glob, paths

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
