"""Z3 obligations about the URI-template model, and the tie to ``uri_template_matches``."""

from __future__ import annotations

import itertools
from functools import cache

import z3

from mcp_touchstone.visibility import match_uri_template, uri_template_matches
from proofs import _vectors
from proofs._ops import prove
from proofs.checks_scope import _fail, _words
from proofs.models import template

LITERALS = _words("a/", 2)
VARS = ("{v}", "{+v}")


def _templates() -> list[str]:
    """The bound: ``L1 V1 L2`` and ``L1 V1 L2 V2`` for literals of <= 2 characters over
    ``a /`` and variables ``{v}`` / ``{+v}`` (adjacent variables included)."""
    out = [l1 + v + l2 for l1, v, l2 in itertools.product(LITERALS, VARS, LITERALS)]
    out += [
        l1 + v1 + l2 + v2.replace("v", "w")
        for l1, v1, l2, v2 in itertools.product(LITERALS, VARS, LITERALS[:3], VARS)
    ]
    return out


@cache
def _tie() -> tuple[str, ...]:
    """Real ``uri_template_matches`` and ``match_uri_template`` against the model, every
    template of the bound and every URI of <= 4 characters over ``a / \\n``."""
    failures = []
    uris = _words("a/\n", 4)
    for tpl in _templates():
        for uri in uris:
            want = template.model_matches(tpl, uri)
            if uri_template_matches(tpl, uri) != want or (
                (match_uri_template(tpl, uri) is not None) != want
            ):
                failures.append(f"template {tpl!r} on {uri!r}: real disagrees with the model")
                if len(failures) > 5:  # enough to refute; the report shows five
                    return tuple(failures)
    return tuple(failures)


EVERY = z3.AllChar(z3.ReSort(z3.StringSort()))


def _lit(text: str) -> z3.ReRef:
    return z3.Re(z3.StringVal(text))


def prop_template_segment() -> None:
    """PROOF-VIS-TPL-SEGMENT."""
    u = z3.String("u")
    for l1, l2 in itertools.product(LITERALS, LITERALS):
        spans_slash = z3.Concat(_lit(l1), z3.Star(EVERY), _lit("/"), z3.Star(EVERY), _lit(l2))
        prove(
            f"{l1}{{v}}{l2} never spans '/'",
            z3.Not(z3.InRe(u, z3.Intersect(template.z3_regex(l1 + "{v}" + l2), spans_slash))),
        )
    failures = list(_tie())
    failures += _vectors.replay(("vis-tpl-segment-stops-at-slash", "vis-tpl-z3-segment-*"))
    _fail(failures)


def prop_template_anchored() -> None:
    """PROOF-VIS-TPL-ANCHORED."""
    u = z3.String("u")
    for tpl in _templates():
        toks = template.tokens(tpl)
        assert toks is not None
        head = toks[0][1] if toks[0][0] == "lit" else ""
        tail = toks[-1][1] if toks[-1][0] == "lit" else ""
        framed = z3.Concat(_lit(head), z3.Star(EVERY), _lit(tail))
        prove(
            f"{tpl!r} is anchored at both ends",
            z3.Not(z3.InRe(u, z3.Intersect(template.z3_regex(tpl), z3.Complement(framed)))),
        )
    failures = list(_tie())
    for tpl, uri in (("a{v}", "xa1"), ("{v}a", "1ax"), ("a", "aa"), ("a{+v}", "a1\n")):
        if uri_template_matches(tpl, uri):
            failures.append(f"{tpl!r} matched {uri!r}, which extends past an anchor")
    failures += _vectors.replay(
        ("vis-tpl-anchored-start", "vis-tpl-anchored-end", "vis-tpl-z3-anchored-*")
    )
    _fail(failures)
