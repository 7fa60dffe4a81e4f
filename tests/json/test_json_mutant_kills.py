"""Tests added to kill surviving mutants of `make mutants` (docs/assurance.md, "Survivors")."""

from __future__ import annotations

import pytest

from mcp_touchstone._rust import (
    INTEGER_BOUNDS,
    LOG_LEVELS,
    rust_debug_str,
    rust_trim,
    split_whitespace,
)
from mcp_touchstone._serde import integer_in, unit_variant_error
from mcp_touchstone.serde_json import JSON, JsonError, from_str, validate


def test_integer_bounds_name_every_rust_integer_type() -> None:
    """INTEGER_BOUNDS is keyed by the Rust type names, u16 included (kills _rust.py:64 "u16")."""
    assert INTEGER_BOUNDS["u16"] == (0, 65535)
    assert INTEGER_BOUNDS["i16"] == (-32768, 32767)
    assert {"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64"} <= set(INTEGER_BOUNDS)


def test_unknown_variant_lists_expected_names_in_serde_one_of_wording() -> None:
    """serde's ``OneOf``: one name is `` `a` ``, two are `` `a` or `b` ``, more are ``one of `a`,
    `b`, `c` `` (kills _serde.py:182, the two-name form returning None)."""
    assert unit_variant_error("x", ("a",)) == "unknown variant `x`, expected `a`"
    assert unit_variant_error("x", ("a", "b")) == "unknown variant `x`, expected `a` or `b`"
    assert unit_variant_error({"x": None}, ("a", "b")) == (
        "unknown variant `x`, expected `a` or `b`"
    )
    assert unit_variant_error("x", ("a", "b", "c")) == (
        "unknown variant `x`, expected one of `a`, `b`, `c`"
    )
    assert unit_variant_error("b", ("a", "b")) is None


def test_integer_bounds_are_rusts_exactly() -> None:
    """Every Rust integer type's ``MIN``/``MAX``, written out (Rust's documented constants; usize
    and isize on the 64-bit targets the upstreams build for): kills any off-by-one in the
    bound expressions, e.g. _rust.py:53 ``(1 << 7) - 1`` -> ``- 2``."""
    assert dict(INTEGER_BOUNDS) == {
        "u8": (0, 255),
        "u16": (0, 65_535),
        "u32": (0, 4_294_967_295),
        "u64": (0, 18_446_744_073_709_551_615),
        "usize": (0, 18_446_744_073_709_551_615),
        "i8": (-128, 127),
        "i16": (-32_768, 32_767),
        "i32": (-2_147_483_648, 2_147_483_647),
        "i64": (-9_223_372_036_854_775_808, 9_223_372_036_854_775_807),
        "isize": (-9_223_372_036_854_775_808, 9_223_372_036_854_775_807),
    }
    assert integer_in(127, "i8")
    assert not integer_in(128, "i8")
    assert not integer_in(True, "u8")  # a bool is not an integer


# Unicode's Other_Grapheme_Extend (PropList.txt, Unicode 14 and 15, the versions Python 3.11
# and the upstreams' Rust use), written out.
_OTHER_GRAPHEME_EXTEND = [
    *(0x09BE, 0x09D7, 0x0B3E, 0x0B57, 0x0BBE, 0x0BD7, 0x0CC2, 0x0CD5, 0x0CD6, 0x0D3E, 0x0D57),
    *(0x0DCF, 0x0DDF, 0x1B35, 0x200C, 0x302E, 0x302F, 0xFF9E, 0xFF9F, 0x1133E, 0x11357),
    *(0x114B0, 0x114BD, 0x115AF, 0x11930, 0x1D165, *range(0x1D16E, 0x1D173)),
    *range(0xE0020, 0xE0080),
]


def test_rust_debug_escapes_every_other_grapheme_extender() -> None:
    """Rust's ``{:?}`` escapes grapheme extenders, printable or not: each Other_Grapheme_Extend
    code point prints as ``\\u{hex}`` (kills a dropped or shifted entry of the table, e.g.
    _rust.py:115 0x0CD6 -> 0x0CD7, _rust.py:116 0x1133E -> 0x1133F)."""
    for cp in _OTHER_GRAPHEME_EXTEND:
        assert rust_debug_str(chr(cp)) == f'"\\u{{{cp:x}}}"', hex(cp)
    assert rust_debug_str("a\u0b3e") == '"a\\u{b3e}"'


def test_validate_finds_a_lone_surrogate_string_inside_a_list() -> None:
    """A list holding a lone-surrogate string is no serde_json value, wherever the string
    stands (kills serde_json.py:492, the fast pre-check's list branch negated, which let such
    a list through unchecked)."""
    with pytest.raises(JsonError) as exc:
        validate(["ok", "\udc00x"])
    assert str(exc.value) == "value[1]: string holds a lone surrogate"
    with pytest.raises(JsonError):
        validate(["\ud800"])
    assert validate(["ok", "\U0001f600"]) == ["ok", "\U0001f600"]


def test_validate_counts_list_depth_one_level_at_a_time() -> None:
    """Nesting is counted one level per list (and per object): 100 lists deep is well inside
    serde_json's limit of 128, so a bad integer at the bottom is reported as such, with its
    path (kills serde_json.py:525, list depth counted two at a time)."""
    value: JSON = [1 << 70]
    for _ in range(99):
        value = [value]
    with pytest.raises(JsonError) as exc:
        validate(value)
    assert str(exc.value) == f"value{'[0]' * 100}: integer {1 << 70} is out of i64/u64 range"


def test_log_levels_are_mcps_eight() -> None:
    """MCP's ``LoggingLevel`` wire names, the RFC 5424 severities in lowercase (kills a name
    changed in _rust.py:165, e.g. ``warning``)."""
    assert sorted(LOG_LEVELS) == sorted(
        ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
    )


def test_rust_debug_escapes_enclosing_and_nonspacing_marks() -> None:
    """Rust's ``{:?}`` escapes every Grapheme_Extend character, the general categories Mn and
    Me as well as the Other_Grapheme_Extend table: U+20DD COMBINING ENCLOSING CIRCLE (Me) and
    U+0301 COMBINING ACUTE ACCENT (Mn) print as ``\\u{..}`` (kills _rust.py's ``"Me"``
    changed)."""
    assert rust_debug_str("\u20dd") == '"\\u{20dd}"'
    assert rust_debug_str("o\u20dd") == '"o\\u{20dd}"'
    assert rust_debug_str("e\u0301") == '"e\\u{301}"'


def test_rust_whitespace_is_only_the_white_space_property() -> None:
    """``str::split_whitespace`` and ``str::trim`` cut only at White_Space characters: letters,
    digits and punctuation, ``X`` and ``]`` among them, are never cut (kills _rust.py's
    whitespace-run pattern changed, which made ``X`` a space)."""
    assert split_whitespace("aX b]\u00a0c\u2003d") == ("aX", "b]", "c", "d")
    assert split_whitespace("XX") == ("XX",)
    assert rust_trim("X a X") == "X a X"
    assert rust_trim("\u3000 a\u0085") == "a"


def test_an_out_of_range_literal_is_quoted_whole_up_to_forty_characters() -> None:
    """JSON-NUM-*: a refused literal of 40 characters is quoted whole, one of 41 cut to its
    first 37 and ``...`` (kills _json_read.py's ``len(literal) <= 40`` -> ``< 40``)."""
    forty = "1" + "0" * 35 + "e999"
    with pytest.raises(JsonError) as exc:
        from_str(forty)
    assert str(exc.value) == f"number out of range: {forty}"
    longer = "1" + "0" * 36 + "e999"
    with pytest.raises(JsonError) as exc:
        from_str(longer)
    assert str(exc.value) == f"number out of range: {longer[:37]}..."


def test_a_private_use_escape_after_a_surrogate_pair_is_a_character() -> None:
    """JSON-PARSE-3: ``\\ue000`` (just past the trailing-surrogate range) is a character even
    in text that also holds a surrogate-pair escape, so the escape scan runs (kills
    _json_read.py's ``0xDC00 <= unit <= 0xDFFF`` upper bound raised by one)."""
    assert from_str('"\\ud800\\udc00\\ue000"') == "\U00010000\ue000"
    assert from_str('["\\ue000","\\udbff\\udfff"]') == ["\ue000", "\U0010ffff"]
