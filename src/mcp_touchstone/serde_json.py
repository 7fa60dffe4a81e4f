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

The reader lives in :mod:`mcp_touchstone._json_read` and the value type and error in
:mod:`mcp_touchstone._json_value`; this module is their public name and holds the writer and
the validator.
"""

from __future__ import annotations

import json as _json
import math
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType

from mcp_touchstone._json_read import from_str
from mcp_touchstone._json_value import I64_MIN as _I64_MIN
from mcp_touchstone._json_value import JSON, MAX_DEPTH, JsonError
from mcp_touchstone._json_value import U64_MAX as _U64_MAX

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

_SURROGATE = re.compile("[\ud800-\udfff]")


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
    except (TypeError, ValueError, RecursionError) as exc:  # a cycle: RecursionError
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
