"""Implementation-supplied text made safe for the human-readable report (VEC-REPORT-3)."""

from __future__ import annotations

from mcp_touchstone import serde_json

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


def short(value: object, limit: int = 200) -> str:
    """``value`` as compact JSON (bytes as UTF-8 text), cut to ``limit`` characters and made
    safe to print with :func:`clean`: for a report line or a one-line protocol error."""
    if isinstance(value, bytes):
        text = value.decode("utf-8", "replace")
    else:
        try:
            text = serde_json.to_string(value)  # type: ignore[arg-type]  # best-effort rendering
        except (serde_json.JsonError, TypeError, ValueError, RecursionError):
            text = repr(value)
    text = text if len(text) <= limit else text[: limit - 3] + "..."
    return clean(text, limit)
