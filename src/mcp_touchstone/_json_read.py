"""Reading JSON text exactly as ``serde_json::from_str::<Value>`` does (rules ``JSON-PARSE-*``,
``JSON-NUM-*``); :func:`from_str` is public as :func:`mcp_touchstone.serde_json.from_str`.

The ``json`` module's decoder reads the text, with serde_json's number model in its
``parse_int``, ``parse_float`` and ``parse_constant`` hooks.  What serde_json refuses and the
decoder takes (a lone surrogate escape, 128 levels of nesting, a byte-order mark, a surrogate
code point) is checked on the text, and serde_json's wording replaces Python's.
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate, islice

from mcp_touchstone._errors import JsonError
from mcp_touchstone._json_value import JSON, MAX_DEPTH, SURROGATE
from mcp_touchstone._rust import I32_MAX, I32_MIN, I64_MIN, U64_MAX

__all__ = ["JsonTextError", "from_str", "read_value"]

# --------------------------------------------------------------------------- numbers

_POW10 = tuple(float(f"1e{k}") for k in range(309))
"""serde_json's ``POW10`` table: ``10.0^k`` for every ``k`` an ``f64`` can hold."""


def _short_literal(literal: str) -> str:
    return literal if len(literal) <= 40 else f"{literal[:37]}..."


def _f64_from_parts(positive: bool, significand: int, exponent: int, literal: str) -> float:
    """Scale ``significand`` by ``10**exponent`` the way serde_json does without
    ``float_roundtrip``: one multiplication or division by a table power (JSON-NUM-3)."""
    f = float(significand)
    while True:
        k = abs(exponent)
        if k < len(_POW10):
            if exponent >= 0:
                f *= _POW10[k]
                if math.isinf(f):
                    raise JsonError(f"number out of range: {_short_literal(literal)}")
            else:
                f /= _POW10[k]
            break
        if f == 0.0:
            break
        if exponent >= 0:
            raise JsonError(f"number out of range: {_short_literal(literal)}")
        f /= 1e308
        exponent += 308
    return f if positive else -f


def _float(literal: str) -> float:
    """A number literal serde_json reads as an ``f64``: a fraction or exponent, ``-0``, or an
    integer beyond u64/i64 (JSON-NUM-2, JSON-NUM-3)."""
    positive = not literal.startswith("-")
    body = literal if positive else literal[1:]
    mantissa, e_sep, exp_text = body.replace("E", "e").partition("e")
    int_part, _, frac_part = mantissa.partition(".")
    # Accumulate digits into a u64 significand, as serde_json's parse_integer /
    # parse_long_integer / parse_decimal do: once an integer digit would overflow, it and every
    # later integer digit raise the exponent instead; fraction digits then still accumulate
    # while they fit, and from the first that would overflow on, all are ignored.  (A valid
    # literal has no leading zero, so at most 20 integer digits can fit.)
    keep = min(len(int_part), 20)
    if keep == 20 and int(int_part[:20]) > U64_MAX:
        keep = 19
    significand = int(int_part[:keep])
    exponent = len(int_part) - keep
    if significand == 0:
        digits = frac_part.lstrip("0")
        exponent -= len(frac_part) - len(digits)
    else:
        digits = frac_part
    for ch in digits:  # At most 20 turns: a significand >= 10**19 overflows on the next digit.
        nxt = significand * 10 + (ord(ch) - 48)
        if nxt > U64_MAX:
            break
        significand = nxt
        exponent -= 1
    if e_sep:
        exp_positive = not exp_text.startswith("-")
        digits = exp_text.lstrip("+-").lstrip("0")
        if len(digits) > 10 or int(digits or "0") > I32_MAX:
            # serde_json's parse_exponent_overflow: zero, or out of range.
            if significand != 0 and exp_positive:
                raise JsonError(f"number out of range: {_short_literal(literal)}")
            return 0.0 if positive else -0.0
        exp_value = int(digits or "0")
        exponent = exponent + exp_value if exp_positive else exponent - exp_value
        exponent = max(min(exponent, I32_MAX), I32_MIN)
    return _f64_from_parts(positive, significand, exponent, literal)


def _integer(literal: str) -> int | float:
    """An integer literal as serde_json reads it (JSON-NUM-1): an integer within u64
    (non-negative) or i64 (negative); ``-0`` and anything larger an ``f64``.  Twenty characters
    hold every integer in range (and ``int`` of thousands of digits would trip Python's
    ``int_max_str_digits`` guard)."""
    if len(literal) <= 20 and literal != "-0":
        value = int(literal)
        if I64_MIN <= value <= U64_MAX:
            return value
    return _float(literal)


def _constant(name: str) -> JSON:
    raise JsonError(f"expected value, found {name}")


# --------------------------------------------------------------------------- text checks


class JsonTextError(JsonError):
    """A refusal of JSON text at a place in it: the ``reason`` and the ``index`` (into the text)
    of the character it concerns, for a reader that reports serde_json's line and column."""

    def __init__(self, reason: str, index: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.index = index


_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.DOTALL)
"""One escape of a JSON string."""


def _lone_surrogate_escape(text: str) -> tuple[int, JsonTextError] | None:
    """The first lone surrogate escape in (syntactically valid) JSON text, or in a prefix of
    it, as serde_json's ``parse_unicode_escape`` refuses it while it reads each string
    (JSON-PARSE-3): the index where that escape starts, and the refusal at serde_json's place.

    * A trailing surrogate first (``\\udc00``): *lone leading surrogate*, at its last hex digit.
    * A leading one with no escape after it: *unexpected end of hex escape*, at the character
      after it, or after the backslash that follows it when another escape does.
    * A leading one whose next escape is no trailing surrogate: *lone leading surrogate*, at
      that escape's last hex digit.

    Checked on the text, not the parsed value: a string that a later duplicate key discards
    never reaches the value, but serde_json has already failed on it. In valid JSON a backslash
    only occurs inside a string, so scanning the text left to right finds exactly the escapes."""
    leading = None  # the escape of a leading surrogate that still needs its trailing half
    for m in _ESCAPE.finditer(text):
        hexits = m.group(1)
        unit = int(hexits, 16) if hexits is not None else -1
        if leading is not None:
            if m.start() != leading.end() or unit < 0:
                at = leading.end() + (m.start() == leading.end())
                return leading.start(), JsonTextError("unexpected end of hex escape", at)
            if not 0xDC00 <= unit <= 0xDFFF:
                reason = "lone leading surrogate in hex escape"
                return leading.start(), JsonTextError(reason, m.end() - 1)
            leading = None
        elif 0xDC00 <= unit <= 0xDFFF:
            return m.start(), JsonTextError("lone leading surrogate in hex escape", m.end() - 1)
        elif 0xD800 <= unit <= 0xDBFF:
            leading = m
    # A prefix cut after the backslash of the next escape ends in that escape's own fault.
    if leading is not None and text[leading.end() :] != "\\":
        return leading.start(), JsonTextError("unexpected end of hex escape", leading.end())
    return None


STRING_LITERAL = r'"[^"\\]*(?:\\.[^"\\]*)*"'
"""The pattern of a whole string literal in valid JSON text (escapes skipped as pairs)."""

_STRING_OR_BRACKET = re.compile(STRING_LITERAL + r"|[\[\]{}]", re.DOTALL)
"""A whole string literal, or one bracket outside strings."""

_NOT_QUOTE_OR_BRACKET = bytes(b for b in range(256) if b not in b'"[]{}')
"""The bytes that neither delimit a string nor open or close a container."""

_DEPTH_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
"""How a bracket moves the nesting depth."""


def _brackets_outside_strings(text: str) -> bytes:
    """The brackets of (syntactically valid) JSON text that are outside strings, in order.

    In valid JSON a backslash only occurs in a string, as the first of an escape's two
    characters, and a run of backslashes pairs from the left.  So removing each ``\\\\``
    (left to right) leaves every other backslash the start of an escape, removing each ``\\"``
    then removes exactly the escaped quotes, and every quote left delimits a string: between
    them, kept to quotes and brackets, the parts outside strings are the even ones.  UTF-8 puts
    no other character on these ASCII bytes."""
    data = text.encode("utf-8", "surrogatepass").replace(b"\\\\", b"").replace(b'\\"', b"")
    return b"".join(data.translate(None, _NOT_QUOTE_OR_BRACKET).split(b'"')[::2])


def _too_deep_at(text: str, budget: int) -> int | None:
    """Where (syntactically valid) JSON text nests arrays and objects ``budget`` deep: the index
    of the bracket that reaches it, or ``None`` (JSON-PARSE-6).  The running count of brackets
    outside strings, as serde_json counts while it reads.  Measured on the text, not the parsed
    value: a value that a later duplicate key discards is gone from the result, but serde_json
    has already refused its depth."""
    depths = list(accumulate(map(_DEPTH_STEP.__getitem__, _brackets_outside_strings(text))))
    if budget not in depths:
        return None
    # The bracket that reaches the budget is the n-th bracket outside strings; find it in the text.
    n = depths.index(budget)
    outside = (t for t in _STRING_OR_BRACKET.finditer(text) if not t.group().startswith('"'))
    return next(islice(outside, n, None)).start()


def _first_fault(text: str, depth: int) -> JsonTextError | None:
    """The first fault, in text order, that serde_json finds while it reads and the ``json``
    module does not, in the text of one value nested inside ``depth`` containers (or in the part
    of it before a syntax error): the bracket that reaches the nesting budget, a surrogate code
    point (text UTF-8 cannot carry), a lone surrogate escape.  serde_json reads left to right
    and stops at the first fault it meets, so the earliest of these is the refusal, its index
    into ``text``."""
    faults: list[tuple[int, JsonTextError]] = []
    budget = MAX_DEPTH - depth
    # Fewer opening brackets than the budget cannot reach it.
    if text.count("[") + text.count("{") >= budget:
        at = _too_deep_at(text, budget)
        if at is not None:
            faults.append((at, JsonTextError("recursion limit exceeded", at)))
    if not text.isascii():
        point = SURROGATE.search(text)
        if point is not None:
            at = point.start()
            faults.append((at, JsonTextError("invalid unicode code point", at)))
    # A surrogate escape starts \ud or \uD (the check itself tells a surrogate from, say,
    # \ud7ff or an escaped backslash before "ud").
    if "\\ud" in text or "\\uD" in text:
        escape = _lone_surrogate_escape(text)
        if escape is not None:
            faults.append(escape)
    return min(faults, key=lambda fault: fault[0])[1] if faults else None


# --------------------------------------------------------------------------- from_str


_DECODER = json.JSONDecoder(parse_float=_float, parse_int=_integer, parse_constant=_constant)
"""``strict`` (the default): a control character inside a string is refused, as in serde_json."""

_SERDE_WORDING = {
    # Python's json says "Invalid control character at", which read "... at at line 1 ...".
    "Invalid control character at": (
        "control character (\\u0000-\\u001F) found while parsing a string"
    ),
    # "Unterminated string starting at" would read "... at at line 1 ...".
    "Unterminated string starting at": "Unterminated string starting",
}
"""Python ``json`` messages reworded as serde_json words the same error."""


def from_str(text: str | bytes) -> JSON:
    """Parse JSON text as ``serde_json::from_str::<Value>`` does, or raise :class:`JsonError`.

    Integers within u64 (non-negative) or i64 (negative) stay ``int``; ``-0`` and
    larger integers become ``float`` through serde_json's own (not always correctly
    rounded) scaling; NaN, Infinity, out-of-range numbers, lone surrogate escapes,
    invalid UTF-8 and 128 levels of nesting are errors; duplicate keys: last wins.
    """
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonError(f"invalid UTF-8 at byte {exc.start}") from None
    try:
        value: JSON = _DECODER.decode(text)
    except JsonError:
        raise
    except json.JSONDecodeError as exc:
        # A leading BOM never scans as a value, so it is refused here, before any other error.
        if text.startswith("\ufeff"):
            raise JsonError("expected value at line 1 column 1") from None
        # serde_json stops at the first fault it meets, so one before the syntax error wins.
        fault = _first_fault(text[: exc.pos], 0)
        if fault is not None:
            raise JsonError(fault.reason) from None
        message = _SERDE_WORDING.get(exc.msg, exc.msg)
        raise JsonError(f"{message} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        # The decoder's stack ends far deeper than the budget, in text it reads as valid JSON:
        # the bracket that reaches the budget, or a fault before it, is the refusal.
        fault = _first_fault(text, 0)
        raise JsonError("recursion limit exceeded" if fault is None else fault.reason) from None
    fault = _first_fault(text, 0)
    if fault is not None:
        raise JsonError(fault.reason)
    return value


_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)(?![.eE0-9])")
"""An integer literal that is a whole number (no fraction, exponent or further digit follows):
the number model reads it as the decoder would hand it over, and there is nothing in it for
the text checks to refuse."""


def read_value(text: str, start: int, depth: int) -> tuple[JSON, int]:
    """The value whose text begins at ``text[start]``, nested inside ``depth`` containers, read
    as :func:`from_str` reads a whole text, and the index just past it: serde_json's ``Value``
    read from inside a larger document (a struct's field).  A refusal is a
    :class:`JsonTextError` naming the index it concerns."""
    integer = _INTEGER.match(text, start)
    if integer is not None:
        try:
            return _integer(integer.group()), integer.end()
        except JsonError as exc:
            raise JsonTextError(str(exc), start) from None
    try:
        value, end = _DECODER.raw_decode(text, start)
    except JsonError as exc:  # the number model's refusal, from a hook: placed at the value
        raise JsonTextError(str(exc), start) from None
    except json.JSONDecodeError as exc:
        # serde_json stops at the first fault it meets, so one before the syntax error wins.
        fault = _first_fault(text[start : exc.pos], depth)
        if fault is not None:
            raise JsonTextError(fault.reason, start + fault.index) from None
        raise JsonTextError(_SERDE_WORDING.get(exc.msg, exc.msg), exc.pos) from None
    except RecursionError:
        # The decoder's stack ends far deeper than the budget, inside text it reads as valid
        # JSON, so the bracket that reaches the budget, or a fault before it, lies in that text.
        fault = _first_fault(text[start:], depth)
        if fault is None:
            raise JsonTextError("recursion limit exceeded", start) from None
        raise JsonTextError(fault.reason, start + fault.index) from None
    fault = _first_fault(text[start:end], depth)
    if fault is not None:
        raise JsonTextError(fault.reason, start + fault.index)
    return value, end
