"""serde_json's naming of unexpected values, shared by every semantic (JSON-SERDE-1)."""

from __future__ import annotations

import pytest

from mcp_touchstone._serde import invalid_type, rust_debug_str, unexpected
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
