"""The error texts serde / serde_json produce when request params do not deserialize.

turbomcp parses ``tools/call``, ``prompts/get`` and ``resources/read`` params with
``serde_json::from_value`` into small derive(Deserialize) structs and puts serde's message
into its ``invalid params`` error (VIS-PARSE-*).  This module reproduces those messages for
the struct shapes involved, as pure functions over JSON values.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from mcp_touchstone.serde_json import JSON, format_float


class SerdeError(Exception):
    """A deserialization failure carrying serde_json's message text."""

    def __init__(self, message: str) -> None:
        """Record ``message``, the text ``serde_json::Error`` displays."""
        super().__init__(message)
        self.message = message


def _ryu(value: float) -> str:
    """A finite f64 as the ``ryu`` crate writes it (exponent without a ``+`` sign)."""
    return format_float(value).replace("e+", "e")


def _rust_debug_str(text: str) -> str:
    """``format!("{:?}", text)`` for a Rust ``&str``.

    Escapes ``\\``, ``"``, tab, CR, LF and NUL by name and other non-printable code points as
    ``\\u{hex}``; printable code points are kept.  Printability follows Python's
    ``str.isprintable``, which matches Rust's table for ASCII and the common planes (see the
    spec's note on VIS-PARSE-2).
    """
    out = ['"']
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\0":
            out.append("\\0")
        elif ch == " " or ch.isprintable():
            out.append(ch)
        else:
            out.append(f"\\u{{{ord(ch):x}}}")
    out.append('"')
    return "".join(out)


def unexpected(value: JSON) -> str:
    """How serde_json names a JSON value in an ``invalid type`` message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean `{'true' if value else 'false'}`"
    if isinstance(value, int):
        return f"integer `{value}`"
    if isinstance(value, float):
        return f"floating point `{_ryu(value)}`"
    if isinstance(value, str):
        return f"string {_rust_debug_str(value)}"
    if isinstance(value, list):
        return "sequence"
    return "map"


def invalid_type(value: JSON, expected: str) -> SerdeError:
    """``invalid type: <value>, expected <expected>``."""
    return SerdeError(f"invalid type: {unexpected(value)}, expected {expected}")


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
                raise SerdeError(f"missing field `{field.name}`")
        return out
    if isinstance(value, list):
        expecting = f"struct {struct_name} with {len(fields)} element" + (
            "" if len(fields) == 1 else "s"
        )
        for index, field in enumerate(fields):
            if index < len(value):
                out[field.name] = _field_value(field, value[index])
            elif not field.default:
                raise SerdeError(f"invalid length {index}, expected {expecting}")
        if len(value) > len(fields):
            raise SerdeError(f"invalid length {len(value)}, expected fewer elements in array")
        return out
    raise invalid_type(value, f"struct {struct_name}")
