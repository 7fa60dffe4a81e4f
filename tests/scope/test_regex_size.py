"""Refusals at the crate's size limit answered without building the NFA (SCOPE-HOSTED-RX-6): every
refusal :func:`exceeds_size_limit` predicts is the linked crate's own, every pattern the subset
reads parses in the crate, and the count follows the Thompson compiler's copies."""

from __future__ import annotations

import subprocess
import sys

import paula
import pytest
from hypothesis import given, settings

from mcp_touchstone.scope._regex import RegexCompileError, compile_rust_regex_uncached
from mcp_touchstone.scope._regex_size import (
    MAX_NESTING,
    MAX_PATTERN_CHARS,
    REFUSED_STATES,
    SIZE_LIMIT_TEXT,
    exceeds_size_limit,
    nfa_states_lower_bound,
)
from tests.strategies.scope_hosted import counted_patterns, near_counted_patterns

VECTOR_PATTERNS = ["a{1000}{1000}", r"\d{1000}{1000}", ".{100}{100}{100}"]
"""Three of the four ``scope-hosted-rx-refuses-size-limit-*`` patterns (``\\w{100}{100}`` counts
only 10,000 certain states, so the crate decides it)."""


def _crate(pattern: str) -> str | None:
    """The crate's answer: ``None`` when ``regex::Regex::new`` compiles, else its error text."""
    try:
        paula.Regex(pattern)
    except ValueError as exc:
        return str(exc)
    return None


def _agrees_with_the_crate(pattern: str) -> None:
    states = nfa_states_lower_bound(pattern)
    if states is None:
        assert not exceeds_size_limit(pattern)
        return
    answer = _crate(pattern)
    if exceeds_size_limit(pattern):
        assert answer == SIZE_LIMIT_TEXT, (pattern, states)
    else:  # read, so it parses: the crate compiles it or refuses it at the size limit only
        assert answer in (None, SIZE_LIMIT_TEXT), (pattern, states, answer)


@pytest.mark.parametrize("pattern", VECTOR_PATTERNS)
def test_vector_patterns_are_refused_without_the_build(pattern: str) -> None:
    """SCOPE-HOSTED-RX-6: the vectors' size-limit patterns are predicted, and the crate agrees."""
    assert exceeds_size_limit(pattern)
    assert _crate(pattern) == SIZE_LIMIT_TEXT
    refused = compile_rust_regex_uncached(pattern)
    assert refused == RegexCompileError(pattern, SIZE_LIMIT_TEXT)


def test_a_predicted_refusal_never_loads_the_engine() -> None:
    """SCOPE-HOSTED-RX-6: a predicted refusal is answered without importing the binding at all."""
    probe = (
        "import sys\n"
        "from mcp_touchstone.scope._regex import compile_rust_regex_uncached as c\n"
        "print(c('a{1000}{1000}').detail, 'paula' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout == f"{SIZE_LIMIT_TEXT} False\n"


def test_the_threshold_is_the_limit_over_24_bytes() -> None:
    """SCOPE-HOSTED-RX-6: more than 10 MiB / 24 bytes states is a refusal; one state fewer is not
    predicted (the crate refuses it too, its states being 32 bytes: the bound is conservative)."""
    assert REFUSED_STATES == 436_907
    assert exceeds_size_limit("a{436907}")
    assert nfa_states_lower_bound("a{436906}") == 436_906
    assert not exceeds_size_limit("a{436906}")
    assert _crate("a{436906}") == SIZE_LIMIT_TEXT


@pytest.mark.parametrize(
    ("pattern", "states"),
    [
        ("a", 1),
        ("ab_7", 4),
        ("aXb", 3),
        ("a{3,3}", 3),
        (".", 1),
        (r"\d\D\w\W\s\S", 6),
        ("a{0}", 0),
        ("a{0}b", 1),
        ("a{3}", 3),
        ("a{3,}", 3),
        ("a{0,}", 1),
        ("a{1,}", 1),
        ("a{2,5}", 5),
        ("a{0,1}", 1),
        ("a{3}?", 3),
        ("a{2}{3}", 6),
        ("a{2}?{3}", 6),
        ("a*", 1),
        ("a+", 1),
        ("a?", 1),
        ("a*?", 1),
        ("a??", 1),
        ("(ab){3}", 6),
        ("(?:ab){3}c", 7),
        ("(?:(?:a{2}){3}b){4}", 28),
        ("(?:a{0}){1000000}", 0),
        ("a{999999999}", 999_999_999),
    ],
)
def test_counts_follow_the_compilers_copies(pattern: str, states: int) -> None:
    """SCOPE-HOSTED-RX-6: ``{n}`` is n copies, ``{n,m}`` m, ``{n,}`` max(n, 1), the rest one."""
    assert nfa_states_lower_bound(pattern) == states


@pytest.mark.parametrize(
    "pattern",
    [
        "",
        "()",
        "(?:)",
        "a|b",
        "^a",
        "a$",
        "(?i)a",
        "(?P<n>a)",
        r"\ba",
        r"\x61",
        "[a]",
        "a b",
        "ß",
        "-",
        "a**",
        "a*{2}",
        "a?{2}",
        "a???",
        "a{,3}",
        "a{ 3 }",
        "a{03}",
        "a{3,2}",
        "a{1000000000}",
        "a{3",
        "a{3,",
        "a{3,4",
        "a{x}",
        "a{X}",
        r"\X",
        "(a",
        "a)",
        "\\",
        r"\q",
        "a" * 4097,
        "(?:" * 51 + "a" + ")" * 51,
        "(" * 2000 + "a" + ")" * 2000,
        "(?:" * 25 + "a" + ")" * 25,
        "(a)" * 51,
        "(?:a",
        "((a)",
        "a" + "{1}" * 50,
    ],
)
def test_outside_the_subset_is_left_to_the_crate(pattern: str) -> None:
    """SCOPE-HOSTED-RX-6: alternation, anchors, flags, other escapes, malformed counts, stacked
    ``*``/``+``/``?``, long or deep patterns are not read (the crate decides)."""
    assert nfa_states_lower_bound(pattern) is None
    assert not exceeds_size_limit(pattern)


@pytest.mark.parametrize(
    "pattern",
    [
        "a{300000}",
        "a{300000}?",
        "a{300000,}",
        "a{0,100000}",
        "a{2}{150000}",
        "(?:ab){150000}",
        "(a){100000}",
        ".{1000}",
        "a+b{300000}",
    ],
)
def test_what_the_crate_compiles_is_never_predicted(pattern: str) -> None:
    """SCOPE-HOSTED-RX-6: patterns of 300,000 states, which the crate compiles (9.6 MB at its
    32 bytes a state), are read and not predicted, under every quantifier form."""
    states = nfa_states_lower_bound(pattern)
    assert states is not None
    assert states < REFUSED_STATES
    assert not exceeds_size_limit(pattern)
    assert _crate(pattern) is None


def test_the_subsets_bounds_are_just_inside() -> None:
    """SCOPE-HOSTED-RX-6: the longest and the deepest patterns read are read."""
    assert (MAX_PATTERN_CHARS, MAX_NESTING) == (4096, 50)
    assert nfa_states_lower_bound("a" * 4096) == 4096
    assert nfa_states_lower_bound("a" + "{1}" * 49) == 1
    assert nfa_states_lower_bound("(?:" * 24 + "a{1}" + ")" * 24) == 1  # 50 levels
    # 50 levels around a plain literal (a concatenation of one piece is its own level).
    assert nfa_states_lower_bound("(" * 24 + "a" + ")" * 24 + "*") == 1
    assert nfa_states_lower_bound("(" * 25 + "a" + ")" * 25) is None  # 51
    assert nfa_states_lower_bound("(a)" * 50) == 50


@settings(max_examples=25, deadline=None)
@given(counted_patterns | near_counted_patterns)
def test_every_prediction_is_the_crates_answer(pattern: str) -> None:
    """SCOPE-HOSTED-RX-6: differential against the linked crate: a predicted refusal is its
    refusal, and a pattern read is one it parses."""
    _agrees_with_the_crate(pattern)


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(counted_patterns | near_counted_patterns)
def test_every_prediction_is_the_crates_answer_slow(pattern: str) -> None:
    """SCOPE-HOSTED-RX-6: the differential above, at 600 examples (``make slow``)."""
    _agrees_with_the_crate(pattern)
