"""serde's wording for a value of the wrong type, as serde_json 1.0.149/1.0.150 prints it.

All three upstreams decode JSON with serde, and some of its error texts reach the wire (turbomcp's
``invalid params`` answers, neva's ``-32700`` messages). serde_json overrides serde's
``Unexpected`` rendering in two places: the unit value prints as ``null`` and a float prints with
the same formatter serde_json serializes with (``zmij``), e.g. ``floating point `1e+20```. A
string prints with Rust's ``Debug`` escaping (``string "a\\tb"``, written in
:mod:`mcp_touchstone._rust`). One module, used by every semantic, so the three cannot drift
apart (JSON-SERDE-1).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone._rust import INTEGER_BOUNDS, rust_debug_str
from mcp_touchstone.serde_json import JSON, format_float

__all__ = [
    "SerdeError",
    "expecting_struct",
    "fewer_elements",
    "integer_in",
    "invalid_length",
    "invalid_type",
    "invalid_value",
    "missing_field",
    "sequence_fields",
    "struct_fields",
    "unexpected",
    "unknown_field",
]


def integer_in(value: JSON, rust_type: str) -> bool:
    """Whether ``value`` is a JSON integer (not a boolean) that fits Rust's ``rust_type``."""
    low, high = INTEGER_BOUNDS[rust_type]
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


# --------------------------------------------------------------------------- serde's wording


class SerdeError(TouchstoneError):
    """A deserialization failure carrying serde's message text (``message``)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def invalid_length(length: int, expected: str) -> str:
    """``invalid length N, expected <expected>`` (``serde::de::Error::invalid_length``)."""
    return f"invalid length {length}, expected {expected}"


def fewer_elements(length: int) -> str:
    """serde's error for a sequence form with ``length`` elements, more than the struct has."""
    return invalid_length(length, "fewer elements in array")


def expecting_struct(name: str, count: int) -> str:
    """serde_derive's sequence-form ``expecting`` text: ``struct X with N element(s)``,
    singular for one field."""
    return f"struct {name} with {count} element{'' if count == 1 else 's'}"


def missing_field(name: str) -> str:
    """``missing field `name``` (``serde::de::Error::missing_field``)."""
    return f"missing field `{name}`"


def unknown_field(name: str, expected: Sequence[str]) -> str:
    """``unknown field `x`, expected `a` or `b``` as serde words it for a denied field."""
    if not expected:
        return f"unknown field `{name}`, there are no fields"
    if len(expected) == 1:
        return f"unknown field `{name}`, expected `{expected[0]}`"
    names = ", ".join(f"`{n}`" for n in expected[:-1])
    if len(expected) == 2:
        return f"unknown field `{name}`, expected `{expected[0]}` or `{expected[1]}`"
    return f"unknown field `{name}`, expected one of {names}, `{expected[-1]}`"


def invalid_value(value: JSON, expected: str) -> str:
    """``invalid value: <value>, expected <expected>`` as serde_json words it."""
    return f"invalid value: {unexpected(value)}, expected {expected}"


# --------------------------------------------------------------------------- struct forms


def sequence_fields(
    value: list[JSON],
    name: str,
    fields: Sequence[str],
    defaulted: Collection[str] = (),
    decode: Callable[[str, int, JSON], object] | None = None,
) -> dict[str, JSON]:
    """A derived struct read from serde's sequence form: its fields in declared order.

    With ``decode``, each present element is decoded (``decode(field, index, element)``, which
    may raise) before the next slot is looked at, as serde_derive's visitor does. A missing
    field marked ``#[serde(default)]`` (in ``defaulted``) is left out of the result; any other
    missing field fails with ``invalid length <its index>, expected struct X with N
    element(s)`` (serde_derive counts the slot it could not fill); more elements than fields
    fail with ``invalid length N, expected fewer elements in array``. Raises
    :class:`SerdeError`.
    """
    out: dict[str, JSON] = {}
    for index, field in enumerate(fields):
        if index < len(value):
            if decode is not None:
                decode(field, index, value[index])
            out[field] = value[index]
        elif field not in defaulted:
            raise SerdeError(invalid_length(index, expecting_struct(name, len(fields))))
    if len(value) > len(fields):
        raise SerdeError(fewer_elements(len(value)))
    return out


def struct_fields(
    value: JSON,
    name: str,
    fields: Sequence[str],
    decode: Callable[[str, JSON], object],
    *,
    optional: Collection[str] = (),
    defaulted: Collection[str] = (),
) -> dict[str, JSON]:
    """A derived struct (no ``deny_unknown_fields``) read from a ``serde_json::Value`` the way
    serde_derive's visitor reads it, each present field's value passed to ``decode(field,
    value)`` (which may raise) in the visitor's order; returns the members read.

    ``fields`` are the JSON key names (after ``rename``) in declared order. From an object (a
    ``BTreeMap`` when serde_json is built without ``preserve_order``) the present keys are
    visited in sorted order (code point order, which is UTF-8 byte order), so the first bad
    present field in that order fails; unknown keys are ignored; only then is the first
    missing field in declared order reported (``missing field `x```), where a field in
    ``optional`` (an ``Option`` or a ``#[serde(default)]`` field) is never missing. A
    ``null`` reaches ``decode``: it is ``None`` for an ``Option`` and a type error for other
    fields, which ``decode`` decides. From an array: :func:`sequence_fields` (declared
    order, ``defaulted`` fields may be left off). Anything else is ``invalid type: ...,
    expected struct X``. Raises :class:`SerdeError` for the struct's own errors.
    """
    if isinstance(value, list):
        return sequence_fields(value, name, fields, defaulted, lambda f, _i, v: decode(f, v))
    if not isinstance(value, dict):
        raise SerdeError(invalid_type(value, f"struct {name}"))
    known = frozenset(fields)
    for key in sorted(value):
        if key in known:
            decode(key, value[key])
    for field in fields:
        if field not in value and field not in optional and field not in defaulted:
            raise SerdeError(missing_field(field))
    return value


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


def _variants(names: tuple[str, ...]) -> str:
    """serde's list of expected variants: `a`, `a` or `b`, one of `a`, `b`, `c`."""
    quoted = [f"`{n}`" for n in names]
    if len(quoted) == 1:
        return quoted[0]
    if len(quoted) == 2:
        return f"{quoted[0]} or {quoted[1]}"
    return "one of " + ", ".join(quoted)


def unit_variant_error(value: JSON, names: tuple[str, ...]) -> str | None:
    """Why serde's derived ``Deserialize`` of a unit-only enum with variants ``names`` refuses
    ``value``, or ``None`` when it accepts it: a variant name, or serde's map form of a unit
    variant (``{"<name>": null}``).  Any JSON value may arrive here: a list or object is never
    used as a set member (JSON-SERDE-1).

    A map form's payload is read by serde_json's ``VariantAccess::unit_variant`` as ``()``
    (``Deserialize::deserialize(value)``), so a non-null payload fails ``()``'s own visitor,
    whose ``expecting`` is ``unit``: ``invalid type: integer `1`, expected unit``."""
    if isinstance(value, str):
        return None if value in names else f"unknown variant `{value}`, expected {_variants(names)}"
    if not isinstance(value, dict):
        return f"invalid type: {unexpected(value)}, expected string or map"
    if len(value) != 1:
        return "invalid value: map, expected map with a single key"
    ((name, payload),) = value.items()
    if name not in names:
        return f"unknown variant `{name}`, expected {_variants(names)}"
    if payload is not None:
        return f"invalid type: {unexpected(payload)}, expected unit"
    return None
