"""JSON exactly as serde_json 1.0.149 (default features) reads and writes it.

Every semantic mirrored here leans on serde_json somewhere: Chio's ``MaxArgsSize``
measures the byte length of ``arguments.to_string()``, neva binds requests by
hashing canonical JSON and seals its payload as compact JSON.  This module is the
one place those behaviours live (rules ``JSON-*`` in ``spec/json.md``).

* :func:`from_str` parses JSON text strictly, with serde_json's number model.
* :func:`to_string` writes a value compactly with map keys sorted (a
  ``serde_json::Value``, whose maps are ``BTreeMap``\\ s).
* :func:`to_string_ordered` writes a value compactly with keys in insertion
  order (a Rust ``struct`` serialized in declared field order).
* :func:`canonical` is the canonical form (recursively sorted keys, compact).
* :func:`validate` checks that a Python value built by hand is a value serde_json
  could hold (the invariant every other function here assumes).

A :data:`JSON` value is ``None``, ``bool``, ``int`` (within i64 or u64), a finite
``float``, ``str`` (no lone surrogates), ``list`` or ``dict`` with ``str`` keys.
``1`` and ``1.0`` are different values, as they are in serde_json.

Length (~430 lines): the reader, the writer and the validator are one contract (what
serde_json holds and prints) and share the number rules.
"""

from __future__ import annotations

import json as _json
import math
import re
from collections.abc import Callable, Mapping
from itertools import accumulate
from types import MappingProxyType
from typing import TypeAlias

from mcp_touchstone._errors import TouchstoneError

__all__ = [
    "JSON",
    "MAX_DEPTH",
    "JsonError",
    "canonical",
    "format_float",
    "from_str",
    "frozen_object",
    "to_string",
    "to_string_ordered",
    "validate",
]

JSON: TypeAlias = bool | int | float | str | list["JSON"] | dict[str, "JSON"] | None
"""A JSON value as serde_json's ``Value`` can hold it."""

MAX_DEPTH = 128
"""serde_json's recursion budget: 127 nested arrays/objects parse, the 128th fails."""

_U64_MAX = (1 << 64) - 1
_I64_MIN = -(1 << 63)
_POW10 = tuple(float(f"1e{k}") for k in range(309))


class JsonError(TouchstoneError, ValueError):
    """JSON text or a Python value that serde_json would not accept."""


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


_LONE_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abAB]|\\u[dD][c-fC-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.DOTALL)


def _check_surrogate_escapes(text: str) -> None:
    """Reject a lone surrogate escape anywhere in (syntactically valid) JSON text, as serde_json's
    ``parse_unicode_escape`` does while it reads each string (JSON-PARSE-3).

    Checked on the text, not the parsed value: a string that a later duplicate key discards
    never reaches the value, but serde_json has already failed on it. In valid JSON a backslash
    only occurs inside a string, so scanning the text left to right finds exactly the escapes."""
    pending_end = -1  # end of a leading surrogate escape that still needs its trailing half
    for m in _ESCAPE.finditer(text):
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


_STRING_LITERAL = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_NESTING = {"[": 1, "{": 1, "]": -1, "}": -1}


def _too_deep(text: str) -> bool:
    """Whether (syntactically valid) JSON text nests arrays/objects ``MAX_DEPTH`` deep
    (JSON-PARSE-6). Measured on the text, not the parsed value: a value that a later duplicate
    key discards is gone from the result, but serde_json has already refused its depth."""
    brackets = _NOT_BRACKET.sub("", _STRING_LITERAL.sub("", text))
    return max(accumulate(map(_NESTING.__getitem__, brackets)), default=0) >= MAX_DEPTH


_NON_BRACKET_BYTES = bytes(i for i in range(256) if i not in b"[]{}")
_BYTE_NESTING = [0] * 256
for _open in b"[{":
    _BYTE_NESTING[_open] = 1
for _close in b"]}":
    _BYTE_NESTING[_close] = -1


def _too_deep_plain(raw: bytes) -> bool:
    """:func:`_too_deep` for (syntactically valid) UTF-8 text with no backslash: no string
    then holds a quote, so the text between the quotes at even positions is everything outside
    the strings, and its brackets are found at C speed."""
    brackets = b"".join(raw.split(b'"')[::2]).translate(None, _NON_BRACKET_BYTES)
    return max(accumulate(map(_BYTE_NESTING.__getitem__, brackets)), default=0) >= MAX_DEPTH


_DECODER = _json.JSONDecoder(
    parse_float=_parse_float, parse_int=_parse_int, parse_constant=_parse_constant, strict=True
)
_PLAIN_INT_DECODER = _json.JSONDecoder(
    parse_float=_parse_float, parse_constant=_parse_constant, strict=True
)
"""As :data:`_DECODER` but with the scanner's own C integer reader (no Python call per
integer): used only on text where :func:`_plain_integers` holds, where it gives the same value."""

_DIGIT_MASK = bytes(0x30 if 0x30 <= i <= 0x39 else 0x20 for i in range(256))
"""A ``bytes.translate`` table: every ASCII digit to ``0``, every other byte to a space."""
_DIGIT_RUN = b"0" * 19


def _plain_integers(raw: bytes) -> bool:
    """Whether Python's ``int`` reads every integer literal of ``raw`` as :func:`_parse_int`
    does: true when ``raw`` holds no ``-0`` and no run of 19 digits anywhere (strings and
    floats included, so the test is conservative). An integer literal of at most 18 digits
    fits i64 and is an ``int`` either way; ``-0`` (a float in serde_json) and longer literals
    are left to :data:`_DECODER`."""
    return b"-0" not in raw and _DIGIT_RUN not in raw.translate(_DIGIT_MASK)


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
    if isinstance(text, bytes | bytearray):
        raw = text if type(text) is bytes else bytes(text)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonError(f"invalid UTF-8 at byte {exc.start}") from None
        has_surrogate = False  # Strict UTF-8 decoding never yields one.
    else:
        try:  # Strict UTF-8 encoding fails exactly on a surrogate code point.
            raw = text.encode("utf-8")
            has_surrogate = False
        except UnicodeEncodeError:
            raw = text.encode("utf-8", "surrogatepass")
            has_surrogate = True
    if text.startswith("\ufeff"):
        raise JsonError("expected value at line 1 column 1")
    decoder = _PLAIN_INT_DECODER if _plain_integers(raw) else _DECODER
    try:
        value: JSON = _decode(decoder, text)
    except JsonError:
        raise
    except _json.JSONDecodeError as exc:
        message = _SERDE_WORDING.get(exc.msg, exc.msg)
        raise JsonError(f"{message} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise JsonError("recursion limit exceeded") from None
    if (text.count("[") + text.count("{")) >= MAX_DEPTH and (
        _too_deep(text) if b"\\" in raw else _too_deep_plain(raw)
    ):
        raise JsonError("recursion limit exceeded")
    if has_surrogate:
        raise JsonError("invalid unicode code point")  # Not text that UTF-8 can carry.
    if "\\" in text and _LONE_SURROGATE_ESCAPE.search(text):  # No backslash, no escape.
        _check_surrogate_escapes(text)
    return value


# --------------------------------------------------------------------------- write


def format_float(x: float) -> str:
    """Write a finite float as serde_json does: shortest round-trip digits, positional
    when the decimal exponent is in [-5, 16), else ``d[.ddd]e±X`` unpadded (JSON-FLOAT-*)."""
    if not math.isfinite(x):
        raise JsonError(f"non-finite float {x!r} is not a JSON value")
    r = repr(x)
    if "e" not in r:
        return r  # Python and serde_json agree on positional forms for E in [-4, 16).
    sign = "-" if r.startswith("-") else ""
    mant, _, exp_s = r.lstrip("-").partition("e")
    exp = int(exp_s)
    digits = mant.replace(".", "")
    if -5 <= exp < 16:
        # Only E == -5 reaches here (Python switches to scientific one step earlier).
        return f"{sign}0.{'0' * (-exp - 1)}{digits}"
    tail = f".{digits[1:]}" if len(digits) > 1 else ""
    return f"{sign}{digits[0]}{tail}e{'+' if exp > 0 else '-'}{abs(exp)}"


_encode_str = _json.encoder.encode_basestring  # The ensure_ascii=False escaper (C-accelerated).


def _write(value: JSON, out: list[str], sort_keys: bool) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(_encode_str(value))
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        out.append(format_float(value))
    elif isinstance(value, list):
        out.append("[")
        first = True
        for item in value:
            if not first:
                out.append(",")
            first = False
            _write(item, out, sort_keys)
        out.append("]")
    elif isinstance(value, dict):
        out.append("{")
        first = True
        items = sorted(value.items()) if sort_keys else value.items()
        for key, item in items:
            if not first:
                out.append(",")
            first = False
            out.append(_encode_str(key))
            out.append(":")
            _write(item, out, sort_keys)
        out.append("}")
    else:
        raise JsonError(f"{type(value).__name__} is not a JSON value")


def _not_json(value: object) -> JSON:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


_C_ENCODER: Callable[..., Callable[[JSON, int], list[str]]] | None = getattr(
    _json.encoder, "c_make_encoder", None
)
# markers=None: no per-call id table (a JSON value has no cycles; one would end in RecursionError
# rather than ValueError), so one encoder object serves every call and every thread.
_C_SORTED = (
    None
    if _C_ENCODER is None
    else _C_ENCODER(None, _not_json, _encode_str, None, ":", ",", True, False, False)
)
_C_ORDERED = (
    None
    if _C_ENCODER is None
    else _C_ENCODER(None, _not_json, _encode_str, None, ":", ",", False, False, False)
)
"""The C encoders ``json.dumps`` would build for each call, built once."""


def _stdlib_dumps(value: JSON, sort_keys: bool) -> str:
    return _json.dumps(
        value, ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys, allow_nan=False
    )


def _dump(value: JSON, sort_keys: bool) -> str:
    encoder = _C_SORTED if sort_keys else _C_ORDERED
    try:
        if encoder is None:  # pragma: no cover - CPython always has the C accelerator
            fast = _stdlib_dumps(value, sort_keys)
        else:
            try:
                fast = "".join(encoder(value, 0))
            except TypeError:
                # A leaf the prebuilt C encoder does not know as a JSON type: ``json.dumps``
                # decides (it refuses non-JSON values the same way, and honours the int/str
                # look-alikes a symbolic executor such as CrossHair substitutes).
                fast = _stdlib_dumps(value, sort_keys)
    except (TypeError, ValueError) as exc:
        raise JsonError(str(exc)) from None
    # Python's float layout differs from serde_json's only for decimal exponents
    # -5..-9, which Python writes as "e-05".."e-09"; anything else is already exact.
    if "e-0" not in fast:
        return fast
    out: list[str] = []
    _write(value, out, sort_keys)
    return "".join(out)


def frozen_object(value: Mapping[str, JSON]) -> Mapping[str, JSON]:
    """A read-only view of a JSON object, for a frozen value's field (a copy of ``value``'s
    top level; an already read-only view is returned as is)."""
    if type(value) is MappingProxyType:
        return value
    return MappingProxyType(dict(value))


def to_string(value: JSON) -> str:
    """Compact text of a ``serde_json::Value``: no whitespace, map keys sorted (JSON-WRITE-1)."""
    return _dump(value, sort_keys=True)


def to_string_ordered(value: JSON) -> str:
    """Compact text with object keys in insertion order, as a Rust struct serializes
    its fields in declared order (JSON-WRITE-2)."""
    return _dump(value, sort_keys=False)


def canonical(value: JSON) -> str:
    """Canonical JSON: every object's keys sorted by code point (= UTF-8 bytes),
    arrays in order, compact (JSON-CANON-1).  The same text as :func:`to_string`
    (serde_json's ``Value`` keeps its map sorted), under the name the digest rules use."""
    return _dump(value, sort_keys=True)


# --------------------------------------------------------------------------- validate


def validate(value: object, *, where: str = "value") -> JSON:
    """Return ``value`` if serde_json could hold it, else raise :class:`JsonError` naming
    the first offending place (e.g. ``value.args[2]: integer out of i64/u64 range``)."""
    if not _plausible(value, 0):
        _validate(value, where, 0)  # The exact verdict, and the message naming the place.
    return value  # type: ignore[return-value]  # checked structurally above


def _clean(text: str) -> bool:
    return text.isascii() or _SURROGATE.search(text) is None


_DEPTH_LIMIT = MAX_DEPTH - 1


def _plausible(value: object, depth: int) -> bool:
    """A quick allocation-free pass of the checks in :func:`_validate`; ``False`` only sends the
    value to the slow path, which gives the verdict. Strings in containers (most nodes) are
    checked inline rather than through a call."""
    if isinstance(value, str):
        return _clean(value)
    if isinstance(value, dict):
        if depth >= _DEPTH_LIMIT:
            return False
        for key, item in value.items():
            if not (isinstance(key, str) and _clean(key)):
                return False
            if isinstance(item, str):
                if not _clean(item):
                    return False
            elif not _plausible(item, depth + 1):
                return False
        return True
    if isinstance(value, list):
        if depth >= _DEPTH_LIMIT:
            return False
        for item in value:
            if isinstance(item, str):
                if not _clean(item):
                    return False
            elif not _plausible(item, depth + 1):
                return False
        return True
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, int):
        return _I64_MIN <= value <= _U64_MAX
    if isinstance(value, float):
        return math.isfinite(value)
    return False


def _validate(value: object, where: str, depth: int) -> None:
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int):
        if not _I64_MIN <= value <= _U64_MAX:
            raise JsonError(f"{where}: integer {value} is out of i64/u64 range")
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise JsonError(f"{where}: non-finite float {value!r}")
        return
    if isinstance(value, str):
        if _SURROGATE.search(value):
            raise JsonError(f"{where}: string holds a lone surrogate")
        return
    if depth >= MAX_DEPTH - 1:
        raise JsonError(f"{where}: nested {MAX_DEPTH} deep (serde_json's recursion limit)")
    if isinstance(value, list):
        for i, item in enumerate(value):
            _validate(item, f"{where}[{i}]", depth + 1)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise JsonError(f"{where}: object key {key!r} is not a string")
            _validate(key, f"{where} key", depth + 1)
            _validate(item, f"{where}.{key}", depth + 1)
        return
    raise JsonError(f"{where}: {type(value).__name__} is not a JSON value")
