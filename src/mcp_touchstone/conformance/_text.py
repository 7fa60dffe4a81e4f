"""Implementation-supplied text made safe for the human-readable report (VEC-REPORT-3)."""

from __future__ import annotations

_MESSAGE_LIMIT = 2000
"""The longest implementation-supplied text the human-readable report prints (VEC-REPORT-3)."""


def clean(text: str, limit: int = _MESSAGE_LIMIT) -> str:
    """``text`` safe to print in the report (VEC-REPORT-3): control characters (C0, DEL, C1),
    line and paragraph separators and bidirectional overrides escaped as ``\\uXXXX``, so an
    implementation can neither start a line of its own nor drive the terminal; cut at
    ``limit`` characters with a note (the JSON report keeps the whole text)."""
    cut = text[:limit]
    out = "".join(f"\\u{ord(ch):04x}" if unsafe(ch) else ch for ch in cut)
    if len(text) > limit:
        out += f" [... {len(text) - limit} more characters truncated; see the JSON report]"
    return out


def unsafe(ch: str) -> bool:
    code = ord(ch)
    return (
        code < 0x20
        or 0x7F <= code <= 0x9F
        or code in (0x2028, 0x2029, 0x061C, 0x200E, 0x200F)
        or 0x202A <= code <= 0x202E
        or 0x2066 <= code <= 0x2069
    )
