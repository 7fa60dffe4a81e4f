"""The JSON layer's parse (:func:`mcp_touchstone.serde_json.from_str`) on the plainest texts, at
the C scanner's speed: the payload decoder's first step (MRTR-PAYLOAD-8).

``from_str`` decides every text; its cost over the stdlib's C scanner is the checks that only
some texts need (escapes and lone surrogates, long or ``-0`` integer literals, floats read
serde's way, the nesting limit, whitespace around the value). :func:`parse_plain` takes a text
only where none of them can apply, and answers ``None`` for everything else, so that the
caller asks ``from_str``:

* UTF-8 bytes with no backslash (no escape, so no surrogate) that begin with ``{`` and end
  where the value ends (no byte-order mark, no whitespace around it);
* fewer than ``MAX_DEPTH`` opening brackets in all (the nesting limit cannot be reached);
* every number an integer literal of at most 18 characters other than ``-0`` (what
  ``from_str`` reads with ``int`` as well); a float, a longer integer, ``-0``, ``NaN`` or
  ``Infinity`` defers.

Where it answers, the value is ``from_str``'s, type for type (tests/mrtr/test_mrtr_fastpaths.py
holds the differential, malformed texts included).
"""

from __future__ import annotations

import json
from json.scanner import make_scanner
from typing import Any, NoReturn, cast

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone.serde_json import JSON, MAX_DEPTH

__all__ = ["parse_plain"]


class _Defer(TouchstoneError):  # noqa: N818 - a control-flow signal, not an error anyone sees
    """A literal :func:`parse_plain` leaves to ``from_str`` (never escapes :func:`parse_plain`)."""


def _defer(_literal: str) -> NoReturn:
    raise _Defer


def _short_int(literal: str) -> int:
    # Up to 18 characters always fits i64/u64 (serde reads it as an integer); "-0" is a float.
    if len(literal) <= 18 and literal != "-0":
        return int(literal)
    raise _Defer


_scan = make_scanner(
    # The decoder is the scanner's context (its parse_* hooks and strictness); typeshed types
    # the argument as the scanner class itself, hence the cast.
    cast("Any", json.JSONDecoder(parse_float=_defer, parse_int=_short_int, parse_constant=_defer))
)
"""The C scanner (``strict``: control characters in strings refused, as serde_json does)."""


def parse_plain(data: bytes) -> JSON | None:
    """``from_str(data)`` for a plain object text (see the module), else ``None``: never an
    error, since a text it cannot take is simply left to ``from_str``."""
    if not data.startswith(b"{") or b"\\" in data:
        return None
    if data.count(b"{") + data.count(b"[") >= MAX_DEPTH:
        return None
    try:
        text = data.decode("utf-8")
        value, end = _scan(text, 0)
    except (_Defer, ValueError, StopIteration, RecursionError):
        # ValueError: invalid UTF-8 or JSON (json.JSONDecodeError is one); StopIteration: no
        # value where one must start.
        return None
    if end != len(text):
        return None
    return cast("JSON", value)
