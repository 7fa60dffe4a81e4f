"""Differential tests tying the proof models to the real code (and the two backends together).

Each model in ``proofs/models`` is one definition with two backends; these tests hold the real
function equal to the model's Python backend on real strings drawn from structured
strategies (string-prefix names such as ``a``/``ab`` included, which ``st.text()`` rarely
produces), and the Python backend equal to the very Z3 terms the proofs reason about.
"""

from __future__ import annotations

import itertools

import z3
from hypothesis import given
from hypothesis import strategies as st
from proofs._ops import PY, Z3, ground
from proofs.models import codec, glob, paths, ranking, template

from mcp_touchstone.scope import ChioScope, Operation, ToolGrant, resolve_matching_grants
from mcp_touchstone.scope._arguments import path_has_prefix, wildcard_matches
from mcp_touchstone.scope._types import MaxLength
from mcp_touchstone.visibility import uri_template_matches

SEGMENT = st.sampled_from(["", ".", "..", "a", "ab", "b", "a.b", "a\\b", "x y"])
PATH = st.builds(
    lambda lead, segs: lead + "/".join(segs),
    st.sampled_from(["", "/", "\\"]),
    st.lists(SEGMENT, max_size=6),
)
GLOB = st.text(alphabet="ab.*?", max_size=7)
HOSTISH = st.text(alphabet="ab.?*", max_size=9)
TEMPLATE = st.lists(st.sampled_from(["a", "/", "ab", "{v}", "{+w}", "."]), max_size=5).map("".join)
URI = st.text(alphabet="ab/.\n", max_size=8)


@given(PATH, PATH)
def test_path_has_prefix_matches_model(candidate: str, prefix: str) -> None:
    """The real segment-wise prefix test agrees with the segment model on real strings."""
    assert path_has_prefix(candidate, prefix) == paths.model_has_prefix(candidate, prefix)


@given(PATH, PATH)
def test_path_model_backends_agree(candidate: str, prefix: str) -> None:
    """The path model's Python backend agrees with its Z3 terms, evaluated."""
    assert paths.model_has_prefix(candidate, prefix, PY) == paths.model_has_prefix(
        candidate, prefix, Z3
    )


@given(GLOB, HOSTISH)
def test_wildcard_matches_model(pattern: str, text: str) -> None:
    """The backtracking matcher agrees with the glob's regular language (Python backend)."""
    assert wildcard_matches(pattern, text) == glob.model_matches(pattern, text)


@given(GLOB, HOSTISH)
def test_glob_model_backends_agree(pattern: str, text: str) -> None:
    """The glob model's Python regex agrees with the Z3 regex the proofs use."""
    assert glob.model_matches(pattern, text) == glob.z3_matches(pattern, text)


@given(st.text(max_size=5), st.text(max_size=8))
def test_wildcard_matches_model_full_unicode(pattern: str, text: str) -> None:
    """The glob model agrees with the matcher on arbitrary Unicode too."""
    assert wildcard_matches(pattern, text) == glob.model_matches(pattern, text)


@given(TEMPLATE, URI)
def test_uri_template_matches_model(tpl: str, uri: str) -> None:
    """The position-set sweep agrees with the template's anchored regex (where modelled)."""
    want = template.model_matches(tpl, uri)
    if want is not None:
        assert uri_template_matches(tpl, uri) == want


@given(TEMPLATE, URI)
def test_template_model_backends_agree(tpl: str, uri: str) -> None:
    """The template model's Python regex agrees with its Z3 regex."""
    want = template.model_matches(tpl, uri)
    if want is not None:
        assert ground(z3.InRe(z3.StringVal(uri), template.z3_regex(tpl))) == want


KEY = st.tuples(st.integers(0, 1), st.integers(0, 1), st.integers(0, 3), st.integers(0, 5))


@given(KEY, KEY)
def test_ranking_backends_agree(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> None:
    """The ranking order's Python and Z3 backends agree."""
    za = tuple(z3.IntVal(x) for x in a)
    zb = tuple(z3.IntVal(x) for x in b)
    assert ranking.precedes(a, b, PY) == ground(ranking.precedes(za, zb, Z3))


GRANT = st.tuples(st.sampled_from(["*", "s"]), st.sampled_from(["*", "t"]), st.integers(0, 3))


@given(st.lists(GRANT, max_size=6))
def test_resolve_ranks_as_model(specs: list[tuple[str, str, int]]) -> None:
    """The real ranked list equals the lexicographic model's order, for up to 6 grants."""
    grants = tuple(ToolGrant(s, t, (Operation.INVOKE,), (MaxLength(9),) * c) for s, t, c in specs)
    real = resolve_matching_grants(ChioScope(grants=grants), "t", "s", None)
    assert isinstance(real, tuple)
    keys = [(int(s == "s"), int(t == "t"), c, i) for i, (s, t, c) in enumerate(specs)]
    assert [(*m.specificity, m.index) for m in real] == ranking.model_order(keys)


def test_check_chain_backends_agree() -> None:
    """The check-order model's two backends agree on every failure combination of 6 checks
    (the rest passing)."""
    n = len(codec.CHECKS)
    for flags in itertools.product((False, True), repeat=6):
        full = list(flags) + [False] * (n - 6)
        z = codec.first_failure([z3.BoolVal(f) for f in full], Z3)
        assert codec.first_failure(full, PY) == z3.simplify(z).as_long()
