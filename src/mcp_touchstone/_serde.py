"""serde's wording for a value of the wrong type, as serde_json 1.0.149/1.0.150 prints it.

All three upstreams decode JSON with serde, and some of its error texts reach the wire (turbomcp's
``invalid params`` answers, neva's ``-32700`` messages). serde_json overrides serde's
``Unexpected`` rendering in two places: the unit value prints as ``null`` and a float prints with
the same formatter serde_json serializes with (``zmij``), e.g. ``floating point `1e+20```. A
string prints with Rust's ``Debug`` escaping (``string "a\\tb"``). One module, used by every
semantic, so the three cannot drift apart (JSON-SERDE-1).
"""

from __future__ import annotations

import unicodedata

from mcp_touchstone.serde_json import JSON, format_float

__all__ = ["invalid_type", "rust_debug_str", "unexpected"]

_OTHER_GRAPHEME_EXTEND = frozenset(
    (
        *(0x09BE, 0x09D7, 0x0B3E, 0x0B57, 0x0BBE, 0x0BD7, 0x0CC2, 0x0CD5, 0x0CD6, 0x0D3E),
        *(0x0D57, 0x0DCF, 0x0DDF, 0x1B35, 0x200C, 0x302E, 0x302F, 0xFF9E, 0xFF9F, 0x1133E),
        *(0x11357, 0x114B0, 0x114BD, 0x115AF, 0x11930, 0x1D165),
        *range(0x1D16E, 0x1D173),
        *range(0xE0020, 0xE0080),
    )
)
"""Unicode's Other_Grapheme_Extend code points (PropList.txt)."""


def _grapheme_extend(ch: str) -> bool:
    """The Grapheme_Extend property: Mn, Me, or Other_Grapheme_Extend."""
    return unicodedata.category(ch) in ("Mn", "Me") or ord(ch) in _OTHER_GRAPHEME_EXTEND


def rust_debug_str(text: str) -> str:
    """``format!("{:?}", text)`` for a Rust ``&str``.

    Escapes ``\\``, ``"``, tab, CR, LF and NUL by name; escapes as ``\\u{hex}`` the code points
    Rust deems non-printable (general categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs other than the
    space, exactly the ones ``str.isprintable`` rejects) and the grapheme extenders; keeps the
    rest. The tables are Python's Unicode version, which may trail or lead Rust's by a version.
    """
    out = ['"']
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\0":
            out.append("\\0")
        elif (ch == " " or ch.isprintable()) and not _grapheme_extend(ch):
            out.append(ch)
        else:
            out.append(f"\\u{{{ord(ch):x}}}")
    out.append('"')
    return "".join(out)


def unexpected(value: JSON) -> str:
    """How serde_json names a JSON value in an ``invalid type`` message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean `{'true' if value else 'false'}`"
    if isinstance(value, int):
        return f"integer `{value}`"
    if isinstance(value, float):
        return f"floating point `{format_float(value)}`"
    if isinstance(value, str):
        return f"string {rust_debug_str(value)}"
    if isinstance(value, list):
        return "sequence"
    return "map"


def invalid_type(value: JSON, expected: str) -> str:
    """``invalid type: <value>, expected <expected>`` as serde_json words it."""
    return f"invalid type: {unexpected(value)}, expected {expected}"
