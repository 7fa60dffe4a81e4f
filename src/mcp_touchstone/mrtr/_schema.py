"""neva's elicitation property ``Schema``, read from a ``serde_json::Value`` with neva's own
refusals (MRTR-REQ-4).

``Schema`` has a hand-written reader (``types/schema.rs:430-495`` at ``e6822d7``): the value
must be an object (else ``Expected object``); it dispatches on ``type`` as a string and then on
which members are present, and reads the chosen struct alone with ``serde_json::from_value``,
passing serde's message through unchanged. ``array`` needs an object ``items`` (else ``Array
schema missing items``) holding ``anyOf`` or ``enum`` (else ``Unknown array schema type``); any
other ``type`` is ``Unknown or missing type field: {:?}`` of the ``Option<&str>`` it found.

Every chosen struct (``types/schema.rs:47-428``) has a ``#[serde(flatten)] extra`` map, so serde
reads it as a map only (no sequence form): its present members in sorted key order (serde_json's
``Map`` is a ``BTreeMap`` in neva's build), the first bad one failing, members it does not name
kept in ``extra`` unread, then the first missing required field in declared order.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from mcp_touchstone._rust import rust_debug_str
from mcp_touchstone._serde import (
    SerdeError,
    integer_in,
    invalid_type,
    invalid_value,
)
from mcp_touchstone.mrtr._input import InputRequestError
from mcp_touchstone.mrtr._structs import option, read_struct, seq, string, unit_enum
from mcp_touchstone.serde_json import JSON

__all__ = ["read_schema"]

PROPERTY_TYPES = ("none", "array", "string", "number", "integer", "boolean", "object")
"""neva's ``PropertyType`` (``types/helpers.rs:63-98``), each variant renamed by hand."""
_STRING_FORMATS = ("email", "uri", "date", "date-time")  # StringFormat, types/schema.rs:87-104


def _usize(value: JSON) -> None:
    """``usize`` from a ``Value``: a negative integer is an invalid value, not a type error."""
    if integer_in(value, "usize"):
        return
    if isinstance(value, int) and not isinstance(value, bool):
        raise SerdeError(invalid_value(value, "usize"))
    raise SerdeError(invalid_type(value, "usize"))


def _f64(value: JSON) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SerdeError(invalid_type(value, "f64"))


def _boolean(value: JSON) -> None:
    if not isinstance(value, bool):
        raise SerdeError(invalid_type(value, "a boolean"))


def _flattened(
    name: str,
    readers: Mapping[str, Callable[[JSON], object]],
    *,
    optional: Collection[str],
    defaulted: Collection[str] = frozenset(),
) -> Callable[[JSON], None]:
    """A derived struct with a ``#[serde(flatten)]`` member: ``deserialize_map`` only."""

    def read(value: JSON) -> None:
        if not isinstance(value, dict):
            raise InputRequestError(invalid_type(value, f"struct {name}"))
        read_struct(value, name, readers, InputRequestError, optional=optional, defaulted=defaulted)

    return read


_STRINGS = seq(string)
_TYPE = unit_enum(PROPERTY_TYPES)  # `#[serde(rename = "type", default)] PropertyType`
_COMMON: dict[str, Callable[[JSON], object]] = {
    "type": _TYPE,
    "title": option(string),
    "description": option(string),
}
_COMMON_OPTIONAL = frozenset(_COMMON)

_ENUM_OPTION = _flattened(
    "EnumOption", {"const": string, "title": string}, optional=frozenset()
)  # types/schema.rs:413-428
_ENUM_ITEMS = _flattened(
    "EnumItems",
    {"type": _TYPE, "enum": _STRINGS},
    optional=frozenset({"type"}),
    defaulted=frozenset({"type"}),
)  # types/schema.rs:375-391
_ENUM_OPTIONS = _flattened(
    "EnumOptions", {"anyOf": seq(_ENUM_OPTION)}, optional=frozenset()
)  # types/schema.rs:396-408


def _schema_struct(
    name: str, fields: Mapping[str, Callable[[JSON], object]], required: Collection[str] = ()
) -> Callable[[JSON], None]:
    readers = {**_COMMON, **fields}
    return _flattened(
        name,
        readers,
        optional=frozenset(readers).difference(required),
        defaulted=frozenset({"type"}),
    )


_STRING = _schema_struct(
    "StringSchema",
    {
        "minLength": option(_usize),
        "maxLength": option(_usize),
        "format": option(unit_enum(_STRING_FORMATS)),
    },
)
_NUMBER = _schema_struct("NumberSchema", {"minimum": option(_f64), "maximum": option(_f64)})
_BOOLEAN = _schema_struct("BooleanSchema", {"default": option(_boolean)})
_LEGACY_ENUM = _schema_struct(
    "LegacyTitledEnumSchema", {"enum": _STRINGS, "enumNames": option(_STRINGS)}, ("enum",)
)
_SINGLE_UNTITLED = _schema_struct(
    "UntitledSingleSelectEnumSchema", {"enum": _STRINGS, "default": option(string)}, ("enum",)
)
_SINGLE_TITLED = _schema_struct(
    "TitledSingleSelectEnumSchema",
    {"oneOf": seq(_ENUM_OPTION), "default": option(string)},
    ("oneOf",),
)
_MULTI_FIELDS: dict[str, Callable[[JSON], object]] = {
    "maxItems": option(_usize),
    "minItems": option(_usize),
    "default": option(_STRINGS),
}
_MULTI_UNTITLED = _schema_struct(
    "UntitledMultiSelectEnumSchema", {"items": _ENUM_ITEMS, **_MULTI_FIELDS}, ("items",)
)
_MULTI_TITLED = _schema_struct(
    "TitledMultiSelectEnumSchema", {"items": _ENUM_OPTIONS, **_MULTI_FIELDS}, ("items",)
)


def _chosen(value: dict[str, JSON]) -> Callable[[JSON], None]:
    """The struct ``Schema::deserialize`` reads ``value`` as, or its own refusal."""
    kind = value.get("type")
    type_field = kind if isinstance(kind, str) else None
    if type_field == "string":
        if "enum" in value:
            return _LEGACY_ENUM if "enumNames" in value else _SINGLE_UNTITLED
        return _SINGLE_TITLED if "oneOf" in value else _STRING
    if type_field == "array":
        items = value.get("items")
        if not isinstance(items, dict):
            raise InputRequestError("Array schema missing items")
        if "anyOf" in items:
            return _MULTI_TITLED
        if "enum" in items:
            return _MULTI_UNTITLED
        raise InputRequestError("Unknown array schema type")
    if type_field in ("number", "integer"):
        return _NUMBER
    if type_field == "boolean":
        return _BOOLEAN
    shown = "None" if type_field is None else f"Some({rust_debug_str(type_field)})"
    raise InputRequestError(f"Unknown or missing type field: {shown}")


def read_schema(value: JSON) -> None:
    """Read one property schema as neva's ``Schema``, or raise :class:`InputRequestError` with
    neva's message."""
    if not isinstance(value, dict):
        raise InputRequestError("Expected object")
    _chosen(value)(value)
