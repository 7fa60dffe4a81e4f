"""The scope claim's whitespace table: exactly Rust's White_Space set splits (VIS-ID-3)."""

from __future__ import annotations

import sys

import pytest

from mcp_touchstone.visibility import (
    RUST_WHITE_SPACE,
    Identity,
    granted_scopes,
    split_whitespace,
)

RUST_TABLE = [
    *(0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680),
    *range(0x2000, 0x200B),
    *(0x2028, 0x2029, 0x202F, 0x205F, 0x3000),
]
"""The White_Space property list (Unicode PropList.txt), which char::is_whitespace follows."""

PYTHON_ONLY = [0x1C, 0x1D, 0x1E, 0x1F]
"""Code points Python's str.split() treats as whitespace but Rust does not."""


def test_table_has_the_twenty_five_code_points() -> None:
    """RUST_WHITE_SPACE is exactly the 25 White_Space code points (VIS-ID-3)."""
    assert sorted(ord(ch) for ch in RUST_WHITE_SPACE) == RUST_TABLE


def test_table_is_python_isspace_minus_the_information_separators() -> None:
    """Across all of Unicode, isspace() minus U+001C..U+001F is the Rust set (VIS-ID-3)."""
    python_space = {cp for cp in range(sys.maxunicode + 1) if chr(cp).isspace()}
    assert python_space - set(PYTHON_ONLY) == set(RUST_TABLE)


@pytest.mark.parametrize("cp", RUST_TABLE, ids=[f"U+{cp:04X}" for cp in RUST_TABLE])
def test_every_white_space_code_point_splits(cp: int) -> None:
    """Each White_Space code point separates scope tokens (VIS-ID-3)."""
    who = Identity.bearer("a", {"scope": f"read{chr(cp)}admin{chr(cp)}{chr(cp)}"})
    assert granted_scopes(who) == ("read", "admin")


@pytest.mark.parametrize(
    "cp", [*PYTHON_ONLY, 0x180E, 0x200B, 0x2060, 0xFEFF, 0x00], ids=lambda cp: f"U+{cp:04X}"
)
def test_non_white_space_code_points_do_not_split(cp: int) -> None:
    """U+001C..U+001F and other look-alikes stay inside a token (VIS-ID-3)."""
    token = f"read{chr(cp)}admin"
    assert split_whitespace(token) == (token,)
    assert token.split() != [token] or cp not in PYTHON_ONLY


def test_no_empty_tokens() -> None:
    """Leading, trailing and repeated separators never yield empty tokens (VIS-ID-3)."""
    assert split_whitespace("") == ()
    assert split_whitespace(" \u3000\t ") == ()
    assert split_whitespace("  a \u2003\u2003 b  ") == ("a", "b")
