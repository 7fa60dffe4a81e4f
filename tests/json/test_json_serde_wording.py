"""serde_json's naming of unexpected values, shared by every semantic (JSON-SERDE-1)."""

from __future__ import annotations

import pytest

from mcp_touchstone._rust import rust_debug_str
from mcp_touchstone._serde import invalid_type, unexpected
from mcp_touchstone.serde_json import JSON


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, "null"),
        (True, "boolean `true`"),
        (False, "boolean `false`"),
        (5, "integer `5`"),
        (-9223372036854775808, "integer `-9223372036854775808`"),
        (1.5, "floating point `1.5`"),
        (5.0, "floating point `5.0`"),
        (1e20, "floating point `1e+20`"),
        (1.8446744073709552e19, "floating point `1.8446744073709552e+19`"),
        (1e-7, "floating point `1e-7`"),
        (-0.0, "floating point `-0.0`"),
        ("x", 'string "x"'),
        ([1], "sequence"),
        ({}, "map"),
    ],
)
def test_unexpected_names(value: JSON, expected: str) -> None:
    """JSON-SERDE-1: each JSON type is named as serde_json names it (zmij floats, not ryu)."""
    assert unexpected(value) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plain", '"plain"'),
        ('a"b\\c', '"a\\"b\\\\c"'),
        ("\t\r\n\0", '"\\t\\r\\n\\0"'),
        ("\x07\x7f", '"\\u{7}\\u{7f}"'),
        ("é ü", '"é ü"'),
        ("\u2028\u00a0", '"\\u{2028}\\u{a0}"'),
        ("e\u0301", '"e\\u{301}"'),
        ("\U0001f600", '"\U0001f600"'),
    ],
)
def test_rust_debug_escaping(text: str, expected: str) -> None:
    """JSON-SERDE-1: strings print with Rust's Debug escaping."""
    assert rust_debug_str(text) == expected


def test_invalid_type_message() -> None:
    """JSON-SERDE-1: the full invalid-type sentence."""
    assert (
        invalid_type(1e20, "a string") == "invalid type: floating point `1e+20`, expected a string"
    )


def test_unknown_variant_lists_expected_names_in_serde_one_of_wording() -> None:
    """JSON-SERDE-1: serde's ``OneOf`` names one expected variant as `` `a` ``, two as `` `a` or
    `b` `` and more as ``one of `a`, `b`, `c` ``."""
    from mcp_touchstone._serde import unit_variant_error

    assert unit_variant_error("x", ("a",)) == "unknown variant `x`, expected `a`"
    assert unit_variant_error("x", ("a", "b")) == "unknown variant `x`, expected `a` or `b`"
    assert unit_variant_error({"x": None}, ("a", "b")) == (
        "unknown variant `x`, expected `a` or `b`"
    )
    assert unit_variant_error("x", ("a", "b", "c")) == (
        "unknown variant `x`, expected one of `a`, `b`, `c`"
    )
    assert unit_variant_error("b", ("a", "b")) is None


# Other_Grapheme_Extend as rustc 1.95 (Unicode 17.0) has it, written out: PropList.txt's list
# in Unicode 14, then the spacing marks added to it after Unicode 14.
_OTHER_GRAPHEME_EXTEND = [
    *(0x09BE, 0x09D7, 0x0B3E, 0x0B57, 0x0BBE, 0x0BD7, 0x0CC2, 0x0CD5, 0x0CD6, 0x0D3E, 0x0D57),
    *(0x0DCF, 0x0DDF, 0x1B35, 0x200C, 0x302E, 0x302F, 0xFF9E, 0xFF9F, 0x1133E, 0x11357),
    *(0x114B0, 0x114BD, 0x115AF, 0x11930, 0x1D165, *range(0x1D16E, 0x1D173)),
    *range(0xE0020, 0xE0080),
    *(0x0CC0, 0x0CC7, 0x0CC8, 0x0CCA, 0x0CCB, 0x1715, 0x1734, 0x1B3B, 0x1B3D, 0x1B43, 0x1B44),
    *(0x1BAA, 0x1BF2, 0x1BF3, 0xA953, 0xA9C0, 0x111C0, 0x11235, 0x1134D, 0x116B6, 0x1193D),
    *(0x16FF0, 0x16FF1, 0x1D166, 0x1D16D),
]


def test_rust_debug_escapes_every_other_grapheme_extender() -> None:
    """JSON-SERDE-1: Rust's ``{:?}`` prints each Other_Grapheme_Extend code point, printable or
    not, as ``\\u{hex}``."""
    from mcp_touchstone._rust import rust_debug_str

    for cp in _OTHER_GRAPHEME_EXTEND:
        assert rust_debug_str(chr(cp)) == f'"\\u{{{cp:x}}}"', hex(cp)
    assert rust_debug_str("a\u0b3e") == '"a\\u{b3e}"'


def test_rust_debug_escapes_enclosing_and_nonspacing_marks() -> None:
    """JSON-SERDE-1: Rust's ``{:?}`` escapes the general categories Mn and Me too, e.g. U+20DD
    COMBINING ENCLOSING CIRCLE and U+0301 COMBINING ACUTE ACCENT."""
    from mcp_touchstone._rust import rust_debug_str

    assert rust_debug_str("\u20dd") == '"\\u{20dd}"'
    assert rust_debug_str("o\u20dd") == '"o\\u{20dd}"'
    assert rust_debug_str("e\u0301") == '"e\\u{301}"'


def test_integer_bounds_are_rusts_exactly() -> None:
    """JSON-SERDE-1: every Rust integer type's ``MIN``/``MAX`` (usize and isize on 64-bit
    targets), written out, bounds serde's integer reads."""
    from mcp_touchstone._rust import INTEGER_BOUNDS
    from mcp_touchstone._serde import integer_in

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
