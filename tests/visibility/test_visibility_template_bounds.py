"""The template matcher's memory and work stay bounded by its input (VIS-TPL-6, VIS-TPL-7).

The bit-set matcher is checked against a naive position-list sweep (``_naive_template``) on the
same answers; its work is counted in interpreter calls (never timed), and its memo is bounded by
template size.
"""

from __future__ import annotations

import sys
import time
from types import FrameType

from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.visibility._template import (
    CACHED_TEMPLATE_CHARS,
    _tokens,
    compile_uri_template,
    match_uri_template,
    uri_template_matches,
)
from tests.strategies.visibility import template_texts, uri_texts
from tests.visibility._naive_template import naive_uri_template_matches

_long_templates = st.lists(
    st.sampled_from(("a", "/", "\n", "ab", "{x}", "{+y}", "{x}{x}", "{+y}{+y}{x}")), max_size=12
).map("".join)
_long_uris = st.text(alphabet="ab/\n", max_size=40)


@given(template_texts, uri_texts)
def test_bitset_matcher_agrees_with_the_naive_sweep(template: str, uri: str) -> None:
    """VIS-TPL-7: the bit-set matcher answers as the naive sweep does (small alphabet)."""
    assert uri_template_matches(template, uri) == naive_uri_template_matches(template, uri)


@given(_long_templates, _long_uris)
def test_bitset_matcher_agrees_on_runs_of_variables(template: str, uri: str) -> None:
    """VIS-TPL-7: runs of like and unlike variables between literals answer as the sweep does."""
    assert uri_template_matches(template, uri) == naive_uri_template_matches(template, uri)


def _calls(template: str, uri: str) -> int:
    """How many Python and builtin calls one match makes (a deterministic measure of work)."""
    count = 0

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal count
        del frame, arg
        if event in ("call", "c_call"):
            count += 1

    _tokens(template)  # Tokenizing is linear in the template; count the matching alone.
    sys.setprofile(profile)
    try:
        uri_template_matches(template, uri)
    finally:
        sys.setprofile(None)
    return count


def test_work_does_not_grow_with_template_times_uri() -> None:
    """VIS-TPL-7: for the probe's shape ({a} x k against "x" x m + "/"), doubling both k and m
    does not quadruple the work (a sweep making calls per reachable position per token would)."""
    small = _calls("{a}" * 100, "x" * 2500 + "/")
    large = _calls("{a}" * 200, "x" * 5000 + "/")
    assert large < 2 * small + 50
    assert not uri_template_matches("{a}" * 2000, "x" * 50000 + "/")
    assert uri_template_matches("{a}" * 2000, "x" * 50000)


def test_literal_runs_cost_linear_work() -> None:
    """VIS-TPL-7: alternating literals and variables cost calls linear in the template plus the
    URI (one scan of the URI per literal character kind), never their product."""
    short = _calls("{a}x" * 50, "x" * 1000)
    long_uri = _calls("{a}x" * 50, "x" * 8000)
    long_both = _calls("{a}x" * 100, "x" * 8000)
    assert long_uri <= short + 2 * 7000
    assert long_both < long_uri + 1000


def test_large_templates_are_not_memoized() -> None:
    """VIS-TPL-6: templates beyond the memo's size bound are computed, never kept."""
    before_tokens = _tokens.cache_info().currsize  # type: ignore[attr-defined]
    before_compiled = compile_uri_template.cache_info().currsize  # type: ignore[attr-defined]
    for i in range(20):
        big = f"mem://{i}/" + "{a}" * (CACHED_TEMPLATE_CHARS // 3 + 1)
        uri_template_matches(big, "mem://x")
        compile_uri_template(big)
    assert _tokens.cache_info().currsize == before_tokens  # type: ignore[attr-defined]
    assert compile_uri_template.cache_info().currsize == before_compiled  # type: ignore[attr-defined]
    small = "mem://{a}/small-template-for-the-memo"
    uri_template_matches(small, "mem://x/small-template-for-the-memo")
    assert _tokens.cache_info().currsize <= before_tokens + 1  # type: ignore[attr-defined]


def test_template_memos_keep_exactly_1024_entries_of_up_to_1024_chars() -> None:
    """VIS-TPL-6: each memo holds at most 1,024 templates, and a template of exactly 1,024
    characters is memoized while one of 1,025 is not."""
    for i in range(1100):
        template = f"mem://kill-{i}/{{a}}"
        uri_template_matches(template, f"mem://kill-{i}/x")
        compile_uri_template(template)
    assert _tokens.cache_info().currsize == 1024  # type: ignore[attr-defined]
    assert compile_uri_template.cache_info().currsize == 1024  # type: ignore[attr-defined]
    edge = "mem://edge/{a}/" + "x" * (1024 - len("mem://edge/{a}/"))
    assert len(edge) == 1024
    hits = compile_uri_template.cache_info().hits  # type: ignore[attr-defined]
    compile_uri_template(edge)
    compile_uri_template(edge)  # memoized: the second call is a hit
    assert compile_uri_template.cache_info().hits == hits + 1  # type: ignore[attr-defined]
    compile_uri_template(edge + "y")
    compile_uri_template(edge + "y")  # over the bound: computed afresh, never a hit
    assert compile_uri_template.cache_info().hits == hits + 1  # type: ignore[attr-defined]


def _run_steps(template: str, uri: str) -> int:
    """How many times one match calls the run step ``_steps`` (a deterministic count)."""
    count = 0

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal count
        del arg
        if event == "call" and frame.f_code.co_name == "_steps":
            count += 1

    sys.setprofile(profile)
    try:
        uri_template_matches(template, uri)
    finally:
        sys.setprofile(None)
    return count


def test_a_run_of_like_variables_is_one_step() -> None:
    """VIS-TPL-7: a run of adjacent like variables is one ``_steps`` call, and an unlike
    neighbour starts a new run."""
    uri = "x" * 600
    assert _run_steps("{a}" * 300, uri) == 1
    assert _run_steps("{+a}" * 300, uri) == 1
    assert _run_steps("{a}{+b}{c}", uri) == 3
    assert _run_steps("{a}{b}/{c}", "xy/z") == 2


def test_an_800_kb_template_is_read_and_matched_in_linear_time() -> None:
    """VIS-TPL-7: an 800 KB template (hundreds of thousands of expressions) is tokenized,
    matched and refused in time linear in its size: well under 2 s of CPU, where a scan that
    re-slices the rest of the template after each expression takes seconds. CPU time, not wall
    time, so that other processes on a busy machine do not count."""
    template = "a{x}/" * 160_000
    assert len(template) == 800_000
    started = time.process_time()
    assert not uri_template_matches(template, "a1/a2/a3/")
    assert match_uri_template(template, "a1/" * 1000) is None
    assert match_uri_template("{+p}" + template[:50], "/x" + "a1/" * 10) == (
        ("p", "/x"),
        *(("x", "1"),) * 10,
    )
    assert time.process_time() - started < 2.0
