"""serde's derived decoder forms, as combinators over parsed JSON (rules ``SCOPE-SHAPE-*``).

The building blocks :mod:`._decode` assembles Chio's types from: primitives (strings, booleans,
unsigned integers by Rust type), ``Option``, sequences, unit-only enums (a variant name or a
single-key map with a null value), structs read from a map by field name or from an array by
position, and struct variants of an adjacently tagged enum.  Every failure raises
:class:`ScopeDecodeError` naming the offending place in serde's wording
(:mod:`mcp_touchstone._serde`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any, Final, TypeAlias, TypeVar

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone._rust import INTEGER_BOUNDS
from mcp_touchstone._serde import (
    SerdeError,
    fewer_elements,
    invalid_type,
    invalid_value,
    missing_field,
    sequence_fields,
    unknown_field,
)
from mcp_touchstone.serde_json import JSON

E = TypeVar("E", bound=Enum)
R = TypeVar("R")

__all__ = [
    "OPTIONAL",
    "REQUIRED",
    "Decoder",
    "ScopeDecodeError",
    "Where",
    "bool_",
    "invalid_type_error",
    "option",
    "place_text",
    "record",
    "seq",
    "string",
    "struct_variant",
    "u32",
    "u64",
    "unit_enum",
    "usize",
]


Where = str | tuple["Where", str | int]
"""A place in the decoded value: its text (``scope.grants[0]``), or ``(parent, step)`` with
``step`` a ``.field`` suffix or an element index.  The decoders pass places down as pairs and
only an error writes one out (:func:`place_text`): a value that decodes never formats a place."""


def place_text(where: Where) -> str:
    """The text of a place: ``(("scope", ".grants"), 0)`` is ``scope.grants[0]``."""
    steps: list[str] = []
    while isinstance(where, tuple):
        where, step = where
        steps.append(f"[{step}]" if isinstance(step, int) else step)
    steps.append(where)
    steps.reverse()
    return "".join(steps)


class ScopeDecodeError(TouchstoneError, ValueError):
    """A JSON value that Chio's serde decoder would reject; ``where`` names the place."""

    def __init__(self, where: Where, problem: str) -> None:
        text = place_text(where)
        super().__init__(f"{text}: {problem}")
        self.where = text
        self.problem = problem


def invalid_type_error(where: Where, value: JSON, expected: str) -> ScopeDecodeError:
    return ScopeDecodeError(where, invalid_type(value, expected))


# --------------------------------------------------------------------------- primitives

Decoder: TypeAlias = "Callable[[JSON, Where], Any]"


def string(value: JSON, where: Where) -> str:
    if isinstance(value, str):
        return value
    raise invalid_type_error(where, value, "a string")


def bool_(value: JSON, where: Where) -> bool:
    if isinstance(value, bool):
        return value
    raise invalid_type_error(where, value, "a boolean")


def _unsigned(name: str) -> Decoder:
    low, high = INTEGER_BOUNDS[name]

    def decode(value: JSON, where: Where) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise invalid_type_error(where, value, name)
        if not low <= value <= high:  # integer_in(value, name), its type already checked
            raise ScopeDecodeError(where, invalid_value(value, name))
        return value

    return decode


u32 = _unsigned("u32")
u64 = _unsigned("u64")
usize = _unsigned("usize")


def option(inner: Decoder) -> Decoder:
    def decode(value: JSON, where: Where) -> Any:
        return None if value is None else inner(value, where)

    return decode


def seq(inner: Decoder) -> Decoder:
    def decode(value: JSON, where: Where) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise invalid_type_error(where, value, "a sequence")
        return tuple(inner(item, (where, i)) for i, item in enumerate(value))

    return decode


def unit_enum(cls: type[E], type_name: str) -> Decoder:
    """A serde unit-only enum: a variant name, or a single-key map whose value is null."""
    by_name = {member.value: member for member in cls}
    expected = ", ".join(f"`{name}`" for name in by_name)

    def decode(value: JSON, where: Where) -> E:
        if isinstance(value, str):
            name = value
        elif isinstance(value, dict):
            if len(value) != 1:
                raise ScopeDecodeError(where, "invalid value: map, expected map with a single key")
            ((name, content),) = value.items()
        else:
            raise invalid_type_error(where, value, f"string or map ({type_name})")
        member = by_name.get(name)
        if member is None:
            raise ScopeDecodeError(where, f"unknown variant `{name}`, expected one of {expected}")
        if isinstance(value, dict) and content is not None:
            raise invalid_type_error((where, f".{name}"), content, "unit")
        return member

    return decode


# --------------------------------------------------------------------------- structs

REQUIRED: Final = object()
"""Field marker: missing in map form is ``missing field``; missing in array form too."""
OPTIONAL: Final = object()
"""Field marker: an ``Option`` without ``#[serde(default)]``: None when the map lacks it,
but still required positionally."""


def _struct(
    name: str,
    fields: Sequence[tuple[str, Decoder, object]],
    *,
    deny_unknown: bool,
) -> Callable[[JSON, Where], dict[str, Any]]:
    """A serde-derived struct decoder: a map by field name, or an array by position."""
    names = tuple(f for f, _, _ in fields)
    known = frozenset(names)
    decoders = {f: dec for f, dec, _ in fields}
    defaulted = frozenset(f for f, _, d in fields if d is not REQUIRED and d is not OPTIONAL)
    # Each field with its place step, made once: ``(where, step)`` is the field's place.
    plan = tuple((f, dec, default, f".{f}") for f, dec, default in fields)

    def decode(value: JSON, where: Where) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if isinstance(value, dict):
            if deny_unknown and not known.issuperset(value):  # the first unknown key is named
                for key in value:
                    if key not in known:
                        raise ScopeDecodeError(where, unknown_field(key, names))
            for fname, dec, default, step in plan:
                if fname in value:
                    out[fname] = dec(value[fname], (where, step))
                elif default is REQUIRED:
                    raise ScopeDecodeError(where, missing_field(fname))
                elif default is OPTIONAL:
                    out[fname] = None
                else:
                    out[fname] = default
            return out
        if isinstance(value, list):
            if len(value) > len(fields):
                # Checked before the elements, as this decoder always has; serde reads the
                # elements first (an element's error would win). Unverified against Chio.
                raise ScopeDecodeError(where, fewer_elements(len(value)))

            def element(fname: str, i: int, item: JSON) -> None:
                out[fname] = decoders[fname](item, (where, i))

            try:
                sequence_fields(value, name, names, defaulted, element)
            except SerdeError as exc:
                raise ScopeDecodeError(where, exc.message) from None
            for fname, _, default in fields:
                if fname not in out:
                    out[fname] = default
            return out
        raise invalid_type_error(where, value, f"struct {name}")

    return decode


def record(
    cls: type[R],
    fields: Sequence[tuple[str, Decoder, object]],
    *,
    deny_unknown: bool,
) -> Callable[[JSON, Where], R]:
    """A serde-derived struct decoder that builds ``cls`` from the decoded fields."""
    as_struct = _struct(cls.__name__, fields, deny_unknown=deny_unknown)

    def decode(value: JSON, where: Where) -> R:
        return cls(**as_struct(value, where))

    return decode


def struct_variant(
    variant: str, fields: Sequence[tuple[str, Decoder, object]]
) -> Callable[[JSON, Where], dict[str, Any]]:
    """A struct variant inside an adjacently tagged enum: a map only, unknown keys denied."""
    as_struct = _struct(variant, fields, deny_unknown=True)

    def decode(value: JSON, where: Where) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise invalid_type_error(where, value, f"struct variant {variant}")
        return as_struct(value, where)

    return decode
