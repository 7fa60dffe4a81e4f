"""Reading JSON text exactly as ``serde_json::from_str::<Value>`` does (rules ``JSON-PARSE-*``,
``JSON-NUM-*``); :func:`from_str` is public as :func:`mcp_touchstone.serde_json.from_str`.

Python's C scanner reads the text; serde_json's number model (u64/i64 integers, its own float
scaling), its strictness (lone surrogate escapes, nesting depth, no BOM) and its error wording
are laid over it.
"""

from __future__ import annotations

import json as _json
import math
import re

from mcp_touchstone._json_value import I64_MIN as _I64_MIN
from mcp_touchstone._json_value import JSON, MAX_DEPTH, JsonError
from mcp_touchstone._json_value import U64_MAX as _U64_MAX

__all__ = ["from_str"]

_POW10 = tuple(float(f"1e{k}") for k in range(309))

# --------------------------------------------------------------------------- parse


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


_I32_MAX = (1 << 31) - 1


def _parse_number(literal: str) -> int | float:
    """Turn a JSON number literal into the value serde_json's parser produces."""
    positive = not literal.startswith("-")
    body = literal if positive else literal[1:]
    mantissa, e_sep, exp_text = body.replace("E", "e").partition("e")
    int_part, dot, frac_part = mantissa.partition(".")
    # A valid literal has no leading zero, so more than 20 integer digits never fit u64 (and
    # int() of thousands of digits would trip Python's int_max_str_digits guard).
    if not dot and not e_sep and len(int_part) <= 20:
        value = int(int_part)
        if positive:
            if value <= _U64_MAX:
                return value
        elif value == 0:
            return -0.0
        elif -value >= _I64_MIN:
            return -value
    # Accumulate digits into a u64 significand (JSON-NUM-2), as serde_json's parse_integer /
    # parse_long_integer / parse_decimal do: once an integer digit would overflow, it and every
    # later integer digit raise the exponent instead; fraction digits then still accumulate
    # while they fit, and from the first that would overflow on, all are ignored.
    keep = min(len(int_part), 20)
    if keep == 20 and int(int_part[:20]) > _U64_MAX:
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
        if nxt > _U64_MAX:
            break
        significand = nxt
        exponent -= 1
    if e_sep:
        exp_positive = not exp_text.startswith("-")
        digits = exp_text.lstrip("+-").lstrip("0")
        if len(digits) > 10 or int(digits or "0") > _I32_MAX:
            # serde_json's parse_exponent_overflow: zero, or out of range.
            if significand != 0 and exp_positive:
                raise JsonError(f"number out of range: {_short_literal(literal)}")
            return 0.0 if positive else -0.0
        exp_value = int(digits or "0")
        exponent = exponent + exp_value if exp_positive else exponent - exp_value
        exponent = max(min(exponent, _I32_MAX), -_I32_MAX - 1)
    return _f64_from_parts(positive, significand, exponent, literal)


def _short_literal(literal: str) -> str:
    return literal if len(literal) <= 40 else f"{literal[:37]}..."


def _parse_int(literal: str) -> int | float:
    # Up to 18 characters always fits i64/u64; only "-0" needs serde's float rule.
    if len(literal) <= 18 and literal != "-0":
        return int(literal)
    return _parse_number(literal)


def _parse_float(literal: str) -> float:
    # Exact path: a significand of at most 15 digits (< 2^53) scaled by 10^k with |k| <= 22 is
    # one correctly rounded IEEE operation in serde_json, so Python's float() gives the same double.
    mantissa, _, exp_text = literal.replace("E", "e").partition("e")
    int_part, _, frac_part = mantissa.partition(".")
    if len(int_part) + len(frac_part) <= 15 and len(exp_text) <= 3:
        k = (int(exp_text) if exp_text else 0) - len(frac_part)
        if -22 <= k <= 22:
            return float(literal)
    value = _parse_number(literal)
    return float(value)


def _parse_constant(name: str) -> JSON:
    raise JsonError(f"expected value, found {name}")


_ESCAPE = r"\\(?:u([0-9a-fA-F]{4})|.)"
"""One escape of a JSON string (compiled on first use, by ``re``'s own cache: only a text with
a ``\\ud`` or ``\\uD`` in it is ever searched)."""


def _check_surrogate_escapes(text: str) -> None:
    """Reject a lone surrogate escape anywhere in (syntactically valid) JSON text, as serde_json's
    ``parse_unicode_escape`` does while it reads each string (JSON-PARSE-3).

    Checked on the text, not the parsed value: a string that a later duplicate key discards
    never reaches the value, but serde_json has already failed on it. In valid JSON a backslash
    only occurs inside a string, so scanning the text left to right finds exactly the escapes."""
    pending_end = -1  # end of a leading surrogate escape that still needs its trailing half
    for m in re.finditer(_ESCAPE, text, re.DOTALL):
        hexits = m.group(1)
        unit = int(hexits, 16) if hexits is not None else -1
        if pending_end >= 0:
            if m.start() != pending_end or unit < 0:
                raise JsonError("unexpected end of hex escape")
            if not 0xDC00 <= unit <= 0xDFFF:
                raise JsonError("lone leading surrogate in hex escape")
            pending_end = -1
            continue
        if 0xDC00 <= unit <= 0xDFFF:
            raise JsonError("lone leading surrogate in hex escape")
        if 0xD800 <= unit <= 0xDBFF:
            pending_end = m.end()
    if pending_end >= 0:
        raise JsonError("unexpected end of hex escape")


_NON_BRACKET_BYTES = bytes(i for i in range(256) if i not in b"[]{}")
_PAREN = bytes.maketrans(b"[{]}", b"(())")


def _too_deep_bytes(raw: bytes) -> bool:
    """Whether (syntactically valid) JSON text nests arrays/objects ``MAX_DEPTH`` deep
    (JSON-PARSE-6), at C speed throughout. Measured on the text, not the parsed value: a value
    that a later duplicate key discards is gone from the result, but serde_json has already
    refused its depth (``tests/json/test_json_depth_bytes.py`` pins it equal to the running
    bracket count outside strings).

    In valid JSON a backslash occurs only inside a string and starts a two-character escape, so
    removing the ``\\\\`` pairs left to right and then every ``\\"`` leaves exactly the strings'
    delimiting quotes, and the text between the quotes at even positions is everything outside
    the strings. Its brackets nest properly, so one ``replace`` of ``()`` removes every
    innermost pair and lowers the greatest depth by exactly one: the depth reaches
    ``MAX_DEPTH`` iff ``MAX_DEPTH - 1`` passes leave a bracket."""
    unescaped = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    brackets = b"".join(unescaped.split(b'"')[::2]).translate(_PAREN, _NON_BRACKET_BYTES)
    for _ in range(MAX_DEPTH - 1):
        if not brackets:
            return False
        brackets = brackets.replace(b"()", b"")
    return bool(brackets)


_DECODER = _json.JSONDecoder(
    parse_float=_parse_float, parse_int=_parse_int, parse_constant=_parse_constant, strict=True
)
_PLAIN_INT_DECODER = _json.JSONDecoder(
    parse_float=_parse_float, parse_constant=_parse_constant, strict=True
)
"""As :data:`_DECODER` but with the scanner's own C integer reader (no Python call per
integer): used only on text where :func:`_plain_integers` holds, where it gives the same value."""

_MASK = bytes(0x30 if 0x30 <= i <= 0x39 else 0x28 if i in b"[{" else 0x20 for i in range(256))
"""A ``bytes.translate`` table: every ASCII digit to ``0``, ``[`` and ``{`` to ``(``, every
other byte to a space.  One pass over the line serves both the integer test
(:func:`_plain_integers`) and the depth test's count (:func:`from_str`): in UTF-8 a byte below
0x80 is always that character, never part of a longer one."""
_DIGIT_RUN = b"0" * 19


def _plain_integers(text: str, masked: bytes) -> bool:
    """Whether Python's ``int`` reads every integer literal of ``text`` as :func:`_parse_int`
    does: true when ``text`` holds no ``-0`` and ``masked`` (its UTF-8 bytes translated by
    :data:`_MASK`) no run of 19 digits anywhere (strings and floats included, so the test is
    conservative). An integer literal of at most 18 digits fits i64 and is an ``int`` either
    way; ``-0`` (a float in serde_json) and longer literals are left to :data:`_DECODER`."""
    # "-" first: a one-character ``in`` is a memchr, the two-character search a full scan.
    # ``partition`` finds the run as ``find`` does (an empty middle: not found) with less
    # argument parsing; ``in`` on bytes first tries its operand as an integer and formats a
    # TypeError for a bytes one, which costs more than the search.
    return ("-" not in text or "-0" not in text) and not masked.partition(_DIGIT_RUN)[1]


_JSON_SPACE = " \t\n\r"


def _decode(decoder: _json.JSONDecoder, text: str) -> JSON:
    """``decoder.decode(text)`` without its two whitespace regex matches when ``text`` starts
    with a value and ends with it (a request line): the scanner reads the value directly.
    Anything else, a failed scan and trailing text included, goes through ``decoder.decode``,
    so every error is the one it raises."""
    if text[:1] in _JSON_SPACE:  # Leading whitespace, or empty text ("" is in any string).
        return decoder.decode(text)  # type: ignore[no-any-return]  # JSON by construction
    try:
        # scan_once is set by JSONDecoder.__init__ (the C scanner); typeshed does not list it.
        value, end = decoder.scan_once(text, 0)  # type: ignore[attr-defined]
    except StopIteration:
        return decoder.decode(text)  # type: ignore[no-any-return]  # raises "Expecting value"
    if end != len(text) and text[end:].lstrip(_JSON_SPACE):
        return decoder.decode(text)  # type: ignore[no-any-return]  # raises "Extra data"
    return value  # type: ignore[no-any-return]  # JSON by construction


_SERDE_WORDING = {
    # Python's json says "Invalid control character at", which read "... at at line 1 ...".
    "Invalid control character at": (
        "control character (\\u0000-\\u001F) found while parsing a string"
    ),
}
"""Python ``json`` messages reworded as serde_json words the same error."""


def from_str(text: str | bytes) -> JSON:
    """Parse JSON text as ``serde_json::from_str::<Value>`` does, or raise :class:`JsonError`.

    Integers within u64 (non-negative) or i64 (negative) stay ``int``; ``-0`` and
    larger integers become ``float`` through serde_json's own (not always correctly
    rounded) scaling; NaN, Infinity, out-of-range numbers, lone surrogate escapes,
    invalid UTF-8 and 128 levels of nesting are errors; duplicate keys: last wins.
    """
    has_surrogate = False  # Strict UTF-8 decoding never yields one.
    if type(text) is bytes or isinstance(text, bytes | bytearray):  # ``type``: the common line
        raw = text if type(text) is bytes else bytes(text)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonError(f"invalid UTF-8 at byte {exc.start}") from None
    else:
        try:  # Strict UTF-8 encoding fails exactly on a surrogate code point.
            raw = text.encode("utf-8")
        except UnicodeEncodeError:
            raw = text.encode("utf-8", "surrogatepass")
            has_surrogate = True
    masked = raw.translate(_MASK)
    decoder = _PLAIN_INT_DECODER if _plain_integers(text, masked) else _DECODER
    try:
        value: JSON = _decode(decoder, text)
    except JsonError:
        raise
    except _json.JSONDecodeError as exc:
        # A leading BOM never scans as a value, so it is refused here, before any other error.
        if text.startswith("\ufeff"):
            raise JsonError("expected value at line 1 column 1") from None
        message = _SERDE_WORDING.get(exc.msg, exc.msg)
        raise JsonError(f"{message} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise JsonError("recursion limit exceeded") from None
    # ``masked`` holds a ``(`` for each ``[`` and ``{`` of the text (see _MASK); the length
    # ``replace`` removes is their count, in fewer instructions than ``count`` takes.
    if len(masked) - len(masked.replace(b"(", b"")) >= MAX_DEPTH and _too_deep_bytes(raw):
        raise JsonError("recursion limit exceeded")
    if has_surrogate:
        raise JsonError("invalid unicode code point")  # Not text that UTF-8 can carry.
    # No backslash, no escape; a surrogate escape starts \ud or \uD (a superset: the check
    # itself tells a surrogate from, say, \ud7ff or an escaped backslash before "ud").
    if "\\" in text and ("\\ud" in text or "\\uD" in text):
        _check_surrogate_escapes(text)
    return value
