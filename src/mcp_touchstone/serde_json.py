"""JSON exactly as serde_json 1.0.149 (default features) reads and writes it.

Every semantic mirrored here leans on serde_json somewhere: Chio's ``MaxArgsSize``
measures the byte length of ``arguments.to_string()``, neva binds requests by
hashing canonical JSON and seals its payload as compact JSON.  This module is the
one place those behaviours live (rules ``JSON-*`` in ``spec/json.md``).

* :func:`from_str` parses JSON text strictly, with serde_json's number model;
  :func:`read_value` reads one value from inside a larger text under the same rules.
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

The reader lives in :mod:`mcp_touchstone._json_read`, the value type and limits in
:mod:`mcp_touchstone._json_value` and the error in :mod:`mcp_touchstone._errors`; this module is
their public name and holds the writer and the validator.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from types import MappingProxyType

from mcp_touchstone._errors import JsonError, TouchstoneError
from mcp_touchstone._json_read import STRING_LITERAL, JsonTextError, from_str, read_value
from mcp_touchstone._json_value import JSON, MAX_DEPTH, SURROGATE
from mcp_touchstone._rust import I64_MIN, U64_MAX

__all__ = [
    "JSON",
    "MAX_DEPTH",
    "JsonError",
    "JsonTextError",
    "canonical",
    "format_float",
    "from_str",
    "frozen_object",
    "read_value",
    "to_string",
    "to_string_ordered",
    "validate",
]


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


def _encoder(sort_keys: bool) -> json.JSONEncoder:
    # No cycle check: a value that contains itself ends in RecursionError, a JsonError here.
    return json.JSONEncoder(
        ensure_ascii=False,
        check_circular=False,
        allow_nan=False,
        sort_keys=sort_keys,
        separators=(",", ":"),
    )


_SORTED = _encoder(sort_keys=True)
_ORDERED = _encoder(sort_keys=False)

_STRING_LITERAL = re.compile(f"({STRING_LITERAL})")
"""A whole string literal of the ``json`` module's compact output, kept by ``split``."""

_SMALL_FLOAT = re.compile(r"-?\d(?:\.\d+)?e-0\d")
"""A float in Python's layout for a decimal exponent of -5..-9, the one float layout that
differs from serde_json's (``1e-05`` where serde_json writes ``0.00001``)."""


def _serde_float(match: re.Match[str]) -> str:
    return format_float(float(match.group()))


def _dump(value: JSON, encoder: json.JSONEncoder) -> str:
    """The ``json`` module's compact text of ``value`` with serde_json's float layout."""
    try:
        text = encoder.encode(value)
    except (TypeError, ValueError, RecursionError) as exc:
        raise JsonError(str(exc)) from None
    if "e-0" not in text:
        return text
    # Only the text between string literals holds numbers: split at the literals (kept at the
    # odd indexes) and rewrite the small floats of the even parts that have one.
    parts = _STRING_LITERAL.split(text)
    parts[::2] = [_SMALL_FLOAT.sub(_serde_float, p) if "e-0" in p else p for p in parts[::2]]
    return "".join(parts)


def frozen_object(value: Mapping[str, JSON]) -> Mapping[str, JSON]:
    """A read-only view of a JSON object, for a frozen value's field (a copy of ``value``'s
    top level; an already read-only view is returned as is)."""
    if type(value) is MappingProxyType:
        return value
    return MappingProxyType(dict(value))


def to_string(value: JSON) -> str:
    """Compact text of a ``serde_json::Value``: no whitespace, map keys sorted (JSON-WRITE-1)."""
    return _dump(value, _SORTED)


def to_string_ordered(value: JSON) -> str:
    """Compact text with object keys in insertion order, as a Rust struct serializes
    its fields in declared order (JSON-WRITE-2)."""
    return _dump(value, _ORDERED)


def canonical(value: JSON) -> str:
    """Canonical JSON: every object's keys sorted by code point (= UTF-8 bytes),
    arrays in order, compact (JSON-CANON-1).  The same text as :func:`to_string`
    (serde_json's ``Value`` keeps its map sorted), under the name the digest rules use."""
    return _dump(value, _SORTED)


# --------------------------------------------------------------------------- validate


def validate(value: object, *, where: str = "value") -> JSON:
    """Return ``value`` if serde_json could hold it, else raise :class:`JsonError` naming
    the first offending place (e.g. ``value.args[2]: integer out of i64/u64 range``)."""
    try:
        _check(value, 0)
    except _Refused as refused:
        place = "".join(reversed(refused.place))
        raise JsonError(f"{where}{place}: {refused.problem}") from None
    return value  # type: ignore[return-value]  # checked structurally above


class _Refused(TouchstoneError):  # noqa: N818 - carried to validate, which raises the JsonError
    """What :func:`_check` refuses, and where: ``place`` gathers the path from the offending
    node outwards as the walk unwinds (so no path is built for a value that passes)."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.place: list[str] = []


def _check_text(text: str) -> None:
    """Raise :class:`_Refused` if ``text`` holds a surrogate code point, which no UTF-8 text
    (and so no serde_json string, value or key) can carry."""
    if not text.isascii() and SURROGATE.search(text):
        raise _Refused("string holds a lone surrogate")


def _check(value: object, depth: int) -> None:
    """Raise :class:`_Refused` at the first part of ``value`` serde_json could not hold, in
    document order; ``depth`` counts the containers around ``value``.  Strings are tested for
    first, the most frequent node; an object's keys, strings too, are checked as text."""
    if isinstance(value, str):
        _check_text(value)
        return
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int):
        if not I64_MIN <= value <= U64_MAX:
            raise _Refused(f"integer {value} is out of i64/u64 range")
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _Refused(f"non-finite float {value!r}")
        return
    if depth >= MAX_DEPTH - 1:
        raise _Refused(f"nested {MAX_DEPTH} deep (serde_json's recursion limit)")
    if isinstance(value, list):
        for i, item in enumerate(value):
            try:
                _check(item, depth + 1)
            except _Refused as refused:
                refused.place.append(f"[{i}]")
                raise
        return
    if not isinstance(value, dict):
        raise _Refused(f"{type(value).__name__} is not a JSON value")
    for key, item in value.items():
        if not isinstance(key, str):
            raise _Refused(f"object key {key!r} is not a string")
        try:
            _check_text(key)
        except _Refused as refused:
            refused.place.append(" key")
            raise
        try:
            _check(item, depth + 1)
        except _Refused as refused:
            refused.place.append(f".{key}")
            raise
