"""The bounded compile cache in front of the Rust regex crate (SCOPE-HOSTED-RX-5): a cached compile
answers exactly as a fresh ``regex::Regex::new`` (refusals and their ``Display`` text included),
and the bound and the least-recently-used eviction hold."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.scope._regex import (
    CACHE_MAX_ENTRIES,
    CACHE_MAX_PATTERN_CHARS,
    RegexCache,
    RegexCompileError,
    RustRegex,
    compile_rust_regex,
    compile_rust_regex_uncached,
)

# Regex-ish text: metacharacters, classes, flags and repetition, so that about half the drawn
# patterns are refused (unclosed groups, bad repetitions, lookaround) and the rest compile.
_PIECES = st.sampled_from(
    ["a", "b", "ß", "K", ".", "*", "+", "?", "|", "(", ")", "[", "]", "^", "$", "{2}", "{,3}",
     "\\w", "\\d", "\\s", "\\b", "\\1", "\\p{Greek}", "(?i)", "(?=", "(?<n>", "\\z", "\\Z", "-"]
)  # fmt: skip
_PATTERNS = st.lists(_PIECES, max_size=8).map("".join) | st.text(max_size=6)
_HAYSTACKS = st.lists(st.text(alphabet="abßkK \n1\u03b1\u03b2", max_size=8), max_size=4)


def _same(left: RustRegex | RegexCompileError, right: RustRegex | RegexCompileError) -> None:
    assert type(left) is type(right)
    assert left.pattern == right.pattern
    if isinstance(left, RegexCompileError):
        assert isinstance(right, RegexCompileError)
        assert left.detail == right.detail


@given(_PATTERNS, _HAYSTACKS)
def test_a_cached_compile_agrees_with_a_fresh_one(pattern: str, haystacks: list[str]) -> None:
    """Differential: the cache's answer, on a miss and again on a hit, is the uncached compile's:
    the same refusal with the same Display text, or a regex matching the same haystacks."""
    cache = RegexCache(max_entries=2)
    fresh = compile_rust_regex_uncached(pattern)
    missed = cache.compile(pattern)
    hit = cache.compile(pattern)
    assert hit is missed
    for answer in (missed, compile_rust_regex(pattern)):
        _same(answer, fresh)
        if isinstance(answer, RustRegex):
            assert isinstance(fresh, RustRegex)
            assert [answer.is_match(h) for h in haystacks] == [fresh.is_match(h) for h in haystacks]


@given(st.lists(st.sampled_from("abcdefgh("), min_size=1, max_size=30))
def test_the_bound_holds_and_the_least_recently_used_goes_first(order: list[str]) -> None:
    """The cache never holds more than its bound, and what it holds is the most recently used
    distinct patterns (a model LRU list), whatever the order of compiles."""
    cache = RegexCache(max_entries=3)
    model: list[str] = []
    for pattern in order:
        _same(cache.compile(pattern), compile_rust_regex_uncached(pattern))
        if pattern in model:
            model.remove(pattern)
        model.append(pattern)
        del model[:-3]
        assert len(cache) <= 3
        assert all(p in cache for p in model)
        assert len(cache) == len(model)


def test_refusals_are_cached_too() -> None:
    """A refusal at the crate's size limit is a cached value: the second compile is the same
    object, with the crate's Display text."""
    cache = RegexCache()
    first = cache.compile("a{1000}{1000}")
    assert isinstance(first, RegexCompileError)
    assert first.detail == "Compiled regex exceeds size limit of 10485760 bytes."
    assert cache.compile("a{1000}{1000}") is first
    assert "a{1000}{1000}" in cache


def test_long_patterns_and_misuse_are_never_held() -> None:
    """A pattern over the length bound is compiled (same answer) but not held; a lone surrogate
    raises and leaves nothing behind; clear() forgets everything."""
    cache = RegexCache(max_entries=4, max_pattern_chars=8)
    long = "a" * 9
    answer = cache.compile(long)
    assert isinstance(answer, RustRegex)
    assert answer.is_match("x" + long)
    assert long not in cache
    assert len(cache) == 0
    with pytest.raises(ValueError, match="lone surrogate"):
        cache.compile("a\ud800")
    assert len(cache) == 0
    cache.compile("(")
    cache.clear()
    assert len(cache) == 0
    with pytest.raises(ValueError, match="at least one"):
        RegexCache(max_entries=0)


def test_the_process_wide_cache_is_bounded_as_documented() -> None:
    """compile_rust_regex goes through one process-wide cache of 256 patterns of at most 4,096
    characters."""
    assert (CACHE_MAX_ENTRIES, CACHE_MAX_PATTERN_CHARS) == (256, 4096)
    assert compile_rust_regex("cache-probe-(") is compile_rust_regex("cache-probe-(")


def test_regex_cache_bounds_accept_zero_pattern_chars() -> None:
    """SCOPE-HOSTED-RX-5: a cache whose pattern bound is 0 holds only the empty pattern, and a
    negative bound or no entries is refused."""
    cache = RegexCache(max_entries=1, max_pattern_chars=0)
    assert cache.max_pattern_chars == 0
    assert cache.compile("") is cache.compile("")  # held
    assert cache.compile("a") is not cache.compile("a")  # longer than the bound: never held
    for entries, chars in ((1, -1), (0, 0)):
        with pytest.raises(ValueError, match=r"^a regex cache holds at least one pattern$"):
            RegexCache(max_entries=entries, max_pattern_chars=chars)
