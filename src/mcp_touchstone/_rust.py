"""Rust semantics the upstreams rely on, written once.

* integer bounds of Rust's integer types (:data:`INTEGER_BOUNDS`, ``U64_MAX``, ...);
* ``char::is_whitespace`` / the Unicode ``White_Space`` table (:data:`RUST_WHITE_SPACE`) and the
  ``str`` methods over it the upstreams call: :func:`rust_trim` (``str::trim``),
  :func:`split_whitespace` (``str::split_whitespace``), :func:`ascii_lower`
  (``str::to_ascii_lowercase``);
* ``Debug`` escaping of a ``&str`` (:func:`rust_debug_str`);
* the wire names of MCP's ``LoggingLevel`` enum both Rust SDKs derive (:data:`LOG_LEVELS`).

A leaf module (it imports nothing from the project), so the JSON layer, the serde layer and
every semantic can use it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

__all__ = [
    "I8_MAX",
    "I8_MIN",
    "I16_MAX",
    "I16_MIN",
    "I32_MAX",
    "I32_MIN",
    "I64_MAX",
    "I64_MIN",
    "INTEGER_BOUNDS",
    "LOG_LEVELS",
    "RUST_WHITE_SPACE",
    "U8_MAX",
    "U16_MAX",
    "U32_MAX",
    "U64_MAX",
    "USIZE_MAX",
    "ascii_lower",
    "rust_debug_str",
    "rust_trim",
    "split_whitespace",
]

U8_MAX: Final = (1 << 8) - 1
U16_MAX: Final = (1 << 16) - 1
U32_MAX: Final = (1 << 32) - 1
U64_MAX: Final = (1 << 64) - 1
USIZE_MAX: Final = U64_MAX
"""``usize`` on the 64-bit targets the upstreams are built for."""
I8_MIN: Final = -(1 << 7)
I8_MAX: Final = (1 << 7) - 1
I16_MIN: Final = -(1 << 15)
I16_MAX: Final = (1 << 15) - 1
I32_MIN: Final = -(1 << 31)
I32_MAX: Final = (1 << 31) - 1
I64_MIN: Final = -(1 << 63)
I64_MAX: Final = (1 << 63) - 1

INTEGER_BOUNDS: Final[Mapping[str, tuple[int, int]]] = MappingProxyType(
    {
        "u8": (0, U8_MAX),
        "u16": (0, U16_MAX),
        "u32": (0, U32_MAX),
        "u64": (0, U64_MAX),
        "usize": (0, USIZE_MAX),
        "i8": (I8_MIN, I8_MAX),
        "i16": (I16_MIN, I16_MAX),
        "i32": (I32_MIN, I32_MAX),
        "i64": (I64_MIN, I64_MAX),
        "isize": (I64_MIN, I64_MAX),
    }
)
"""Each Rust integer type's inclusive ``(min, max)``, by its serde name."""


# --------------------------------------------------------------------------- White_Space

RUST_WHITE_SPACE: Final[frozenset[str]] = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
"""Exactly the code points with the Unicode ``White_Space`` property: Rust's
``char::is_whitespace``, which ``str::trim`` strips and ``str::split_whitespace`` splits on
(VIS-ID-3, SCOPE-DOM-2).  Unlike Python's ``str.split()`` / ``str.strip()`` this set does not
contain U+001C..U+001F."""

_WHITE_SPACE_CHARS: Final = "".join(sorted(RUST_WHITE_SPACE))
_WHITE_SPACE_RUN: Final = re.compile("[" + _WHITE_SPACE_CHARS + "]+")
_ASCII_LOWER: Final = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def rust_trim(text: str) -> str:
    """Rust's ``str::trim``: strip Unicode White_Space from both ends."""
    return text.strip(_WHITE_SPACE_CHARS)


def split_whitespace(text: str) -> tuple[str, ...]:
    """Split ``text`` as Rust's ``str::split_whitespace`` does: on runs of White_Space code
    points, with no empty pieces (VIS-ID-3)."""
    return tuple(piece for piece in _WHITE_SPACE_RUN.split(text) if piece)


def ascii_lower(text: str) -> str:
    """Rust's ``to_ascii_lowercase``: only ``A``-``Z`` change (no Unicode case mapping)."""
    return text.lower() if text.isascii() else text.translate(_ASCII_LOWER)


# --------------------------------------------------------------------------- Debug

_OTHER_GRAPHEME_EXTEND = frozenset(
    (
        *(0x09BE, 0x09D7, 0x0B3E, 0x0B57, 0x0BBE, 0x0BD7, 0x0CC2, 0x0CD5, 0x0CD6, 0x0D3E),
        *(0x0D57, 0x0DCF, 0x0DDF, 0x1B35, 0x200C, 0x302E, 0x302F, 0xFF9E, 0xFF9F, 0x1133E),
        *(0x11357, 0x114B0, 0x114BD, 0x115AF, 0x11930, 0x1D165),
        *range(0x1D16E, 0x1D173),
        *range(0xE0020, 0xE0080),
        # Spacing marks made grapheme extenders after Unicode 14.
        *(0x0CC0, 0x0CC7, 0x0CC8, 0x0CCA, 0x0CCB, 0x1715, 0x1734, 0x1B3B, 0x1B3D, 0x1B43),
        *(0x1B44, 0x1BAA, 0x1BF2, 0x1BF3, 0xA953, 0xA9C0, 0x111C0, 0x11235, 0x1134D, 0x116B6),
        *(0x1193D, 0x16FF0, 0x16FF1, 0x1D166, 0x1D16D),
    )
)
"""Other_Grapheme_Extend as Rust's ``char`` tables have it (rustc 1.95, Unicode 17.0): the
PropList.txt list of Unicode 14 and the spacing marks added to it after Unicode 14."""


def _grapheme_extend(ch: str) -> bool:
    """The Grapheme_Extend property: Mn, Me, or Other_Grapheme_Extend."""
    return unicodedata.category(ch) in ("Mn", "Me") or ord(ch) in _OTHER_GRAPHEME_EXTEND


def rust_debug_str(text: str) -> str:
    """``format!("{:?}", text)`` for a Rust ``&str``.

    Escapes ``\\``, ``"``, tab, CR, LF and NUL by name; escapes as ``\\u{hex}`` the code points
    Rust deems non-printable (general categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs other than the
    space, exactly the ones ``str.isprintable`` rejects) and the grapheme extenders; keeps the
    rest. The categories are Python's ``unicodedata`` (Unicode 14.0 on Python 3.11), so a code
    point it leaves unassigned, or whose category differs in Rust's (U+1171E), may print
    otherwise in Rust (JSON-SERDE-1).
    """
    if text.isascii() and text.isprintable():  # No ASCII character is a grapheme extender.
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
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
        elif ch.isprintable() and (ch < "\x80" or not _grapheme_extend(ch)):
            out.append(ch)
        else:
            out.append(f"\\u{{{ord(ch):x}}}")
    out.append('"')
    return "".join(out)


# --------------------------------------------------------------------------- MCP enums

LOG_LEVELS: Final[frozenset[str]] = frozenset(
    ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
)
"""The wire names of MCP's ``LoggingLevel`` (RFC 5424 severities, lowercase), as turbomcp's
``LogLevel`` and neva's ``LoggingLevel`` derive them."""
