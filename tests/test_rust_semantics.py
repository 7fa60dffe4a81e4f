"""Rust semantics written once (mcp_touchstone._rust): the White_Space table and its users."""

from __future__ import annotations

from mcp_touchstone import scope, visibility
from mcp_touchstone._rust import RUST_WHITE_SPACE, rust_trim, split_whitespace
from mcp_touchstone.scope import _arguments


def test_white_space_is_python_isspace_without_the_separators() -> None:
    """White_Space is Python's isspace set minus U+001C..U+001F, which Rust does not trim."""
    python_space = {chr(c) for c in range(0x110000) if chr(c).isspace()}
    assert python_space - RUST_WHITE_SPACE == set("\x1c\x1d\x1e\x1f")
    assert python_space >= RUST_WHITE_SPACE


def test_semantics_share_the_one_table() -> None:
    """scope's trim and visibility's split are the shared functions, not copies."""
    assert _arguments.rust_trim is rust_trim
    assert visibility.split_whitespace is split_whitespace
    assert visibility.RUST_WHITE_SPACE is RUST_WHITE_SPACE
    assert scope is not None
    assert rust_trim("\x1c a\u3000") == "\x1c a"
    assert split_whitespace("a\u2028b  c") == ("a", "b", "c")


def test_split_and_trim_cut_only_at_white_space() -> None:
    """VIS-ID-3: ``str::split_whitespace`` and ``str::trim`` cut only at White_Space characters,
    never at letters, digits or punctuation such as ``X`` and ``]``."""
    assert split_whitespace("aX b]\u00a0c\u2003d") == ("aX", "b]", "c", "d")
    assert split_whitespace("XX") == ("XX",)
    assert rust_trim("X a X") == "X a X"
    assert rust_trim("\u3000 a\u0085") == "a"


def test_log_levels_are_mcps_eight() -> None:
    """VIS-ROUTE-1: the ``logging/setLevel`` gate knows MCP's eight ``LoggingLevel`` names, the
    RFC 5424 severities in lowercase."""
    from mcp_touchstone._rust import LOG_LEVELS

    assert sorted(LOG_LEVELS) == sorted(
        ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
    )
