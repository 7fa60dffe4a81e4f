"""The error texts serde / serde_json produce when request params do not deserialize.

turbomcp parses ``tools/call``, ``prompts/get`` and ``resources/read`` params with
``serde_json::from_value`` into small derive(Deserialize) structs and puts serde's message
into its ``invalid params`` error (VIS-PARSE-*).  This module reproduces those messages for
the struct shapes involved, as pure functions over JSON values.
"""

from __future__ import annotations

import enum
import unicodedata
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


_OTHER_GRAPHEME_EXTEND = frozenset(
    (
        *(0x09BE, 0x09D7, 0x0B3E, 0x0B57, 0x0BBE, 0x0BD7, 0x0CC2, 0x0CD5, 0x0CD6, 0x0D3E),
        *(0x0D57, 0x0DCF, 0x0DDF, 0x1B35, 0x200C, 0x302E, 0x302F, 0xFF9E, 0xFF9F, 0x1133E),
        *(0x11357, 0x114B0, 0x114BD, 0x115AF, 0x11930, 0x1D165),
        *range(0x1D16E, 0x1D173),
        *range(0xE0020, 0xE0080),
    )
)
"""Unicode's Other_Grapheme_Extend code points (PropList.txt)."""


def _grapheme_extend(ch: str) -> bool:
    """The Grapheme_Extend property: Mn, Me, or Other_Grapheme_Extend."""
    return unicodedata.category(ch) in ("Mn", "Me") or ord(ch) in _OTHER_GRAPHEME_EXTEND


def _rust_debug_str(text: str) -> str:
    """``format!("{:?}", text)`` for a Rust ``&str``.

    Escapes ``\\``, ``"``, tab, CR, LF and NUL by name; escapes as ``\\u{hex}`` the code
    points Rust deems non-printable (general categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs
    other than the space, which are exactly the ones ``str.isprintable`` rejects) and the
    grapheme extenders; keeps the rest.  The tables are Python's Unicode version, which may
    trail or lead Rust's by a version (VIS-PARSE-2).
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
        elif (ch == " " or ch.isprintable()) and not _grapheme_extend(ch):
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
