"""The error texts serde / serde_json produce when request params do not deserialize.

turbomcp parses ``tools/call``, ``prompts/get`` and ``resources/read`` params with
``serde_json::from_value`` into small derive(Deserialize) structs and puts serde's message
into its ``invalid params`` error (VIS-PARSE-*).  This module reproduces those messages for
the struct shapes involved, as pure functions over JSON values.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from mcp_touchstone._serde import SerdeError, missing_field, sequence_fields
from mcp_touchstone._serde import invalid_type as serde_invalid_type
from mcp_touchstone.serde_json import JSON

__all__ = ["Field", "FieldKind", "SerdeError", "deserialize_struct", "invalid_type"]


def invalid_type(value: JSON, expected: str) -> SerdeError:
    """``invalid type: <value>, expected <expected>`` (JSON-SERDE-1's wording)."""
    return SerdeError(serde_invalid_type(value, expected))


class FieldKind(enum.Enum):
    """What a struct field deserializes into (the three shapes the params structs use)."""

    STRING = "string"
    MAP_OF_VALUES = "map_of_values"
    MAP_OF_STRINGS = "map_of_strings"


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a derive(Deserialize) struct: wire name, shape, and whether it has
    ``#[serde(default)]``."""

    name: str
    kind: FieldKind
    default: bool


def _field_value(field: Field, value: JSON) -> JSON:
    """Deserialize one field's value, raising serde's error on a type mismatch."""
    if field.kind == FieldKind.STRING:
        if not isinstance(value, str):
            raise invalid_type(value, "a string")
        return value
    if not isinstance(value, dict):
        raise invalid_type(value, "a map")
    if field.kind == FieldKind.MAP_OF_STRINGS:
        for item in value.values():
            if not isinstance(item, str):
                raise invalid_type(item, "a string")
    return value


def deserialize_struct(struct_name: str, fields: tuple[Field, ...], value: JSON) -> dict[str, JSON]:
    """``serde_json::from_value::<Struct>(value)`` for a struct of ``fields``.

    An object is read entry by entry in its own order, unknown keys ignored, then a missing
    field without a default fails with ``missing field `x```.  An array is read positionally
    (serde's derive accepts the sequence form): too short fails with ``invalid length N,
    expected struct S with K elements`` unless the missing fields have defaults, too long with
    ``invalid length N, expected fewer elements in array``.  Anything else is an ``invalid
    type`` for ``struct S``.  Returns the fields that were present (defaults are left out).
    """
    out: dict[str, JSON] = {}
    if isinstance(value, dict):
        by_name = {f.name: f for f in fields}
        for key, item in value.items():
            field = by_name.get(key)
            if field is not None:
                out[key] = _field_value(field, item)
        for field in fields:
            if field.name not in out and not field.default:
                raise SerdeError(missing_field(field.name))
        return out
    if isinstance(value, list):
        by_name = {f.name: f for f in fields}

        def element(name: str, _index: int, item: JSON) -> None:
            out[name] = _field_value(by_name[name], item)

        sequence_fields(
            value,
            struct_name,
            tuple(f.name for f in fields),
            frozenset(f.name for f in fields if f.default),
            element,
        )
        return out
    raise invalid_type(value, f"struct {struct_name}")
