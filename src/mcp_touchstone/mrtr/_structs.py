"""How a derived serde struct reads its members from JSON (MRTR-REQ-7, MRTR-RETRY-4).

A ``#[derive(Deserialize)]`` struct reads from an object by member name, or from an
array (serde's sequence form) holding its fields in declared order. In the sequence
form a field marked ``#[serde(default)]`` may be missing, every other field (an
``Option`` too) needs its slot, and more elements than fields is an error. The sequence
form and serde's wording are the shared combinators of :mod:`mcp_touchstone._serde`.

:func:`read_struct` also decodes each field as serde_derive's visitor does, in its order
(:func:`mcp_touchstone._serde.struct_fields`: an object's present keys sorted, then missing
fields in declared order; an array's slots in declared order). The field readers below
(``string``, ``option``, ``seq``, ``string_map``, ``unit_enum``) read one value as its Rust type
from a ``serde_json::Value`` and raise :class:`~mcp_touchstone._serde.SerdeError` with serde's
words, which :func:`read_struct` re-raises as its caller's error type.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from mcp_touchstone._serde import (
    SerdeError,
    invalid_type,
    sequence_fields,
    struct_fields,
    unit_variant_error,
)
from mcp_touchstone.serde_json import JSON

__all__ = [
    "Reader",
    "option",
    "read_struct",
    "seq",
    "string",
    "string_map",
    "struct_members",
    "unit_enum",
]

Reader = Callable[[JSON], object]
"""Reads one field's value as its Rust type, raising :class:`SerdeError` (or its own error)."""


def string(value: JSON) -> None:
    """``String`` (or a newtype around one, such as neva's ``Uri``)."""
    if not isinstance(value, str):
        raise SerdeError(invalid_type(value, "a string"))


def string_map(value: JSON) -> None:
    """``HashMap<String, serde_json::Value>``: any object."""
    if not isinstance(value, dict):
        raise SerdeError(invalid_type(value, "a map"))


def option(read: Reader) -> Reader:
    """``Option<T>``: ``null`` is ``None``, anything else is read as ``T``."""

    def read_option(value: JSON) -> None:
        if value is not None:
            read(value)

    return read_option


def seq(read: Reader) -> Reader:
    """``Vec<T>``: an array whose elements are read in order, the first bad one failing."""

    def read_seq(value: JSON) -> None:
        if not isinstance(value, list):
            raise SerdeError(invalid_type(value, "a sequence"))
        for item in value:
            read(item)

    return read_seq


def unit_enum(variants: tuple[str, ...]) -> Reader:
    """A derived unit-only enum with JSON names ``variants`` (declared order): a name or the
    map form ``{"<name>": null}`` (:func:`~mcp_touchstone._serde.unit_variant_error`)."""

    def read_enum(value: JSON) -> None:
        refused = unit_variant_error(value, variants)
        if refused is not None:
            raise SerdeError(refused)

    return read_enum


def struct_members(
    value: JSON,
    name: str,
    fields: tuple[str, ...],
    error: type[ValueError],
    defaulted: Collection[str] = frozenset(),
) -> dict[str, JSON]:
    """The members of struct ``name`` read from ``value`` by field name, or ``error``
    when ``value`` is neither an object nor a sequence form serde would take."""
    if isinstance(value, dict):
        return value
    if not isinstance(value, list):
        raise error(invalid_type(value, f"struct {name}"))
    try:
        return sequence_fields(value, name, fields, defaulted)
    except SerdeError as exc:
        raise error(exc.message) from None


def read_struct(
    value: JSON,
    name: str,
    readers: Mapping[str, Callable[[JSON], object]],
    error: type[ValueError],
    *,
    optional: Collection[str] = frozenset(),
    defaulted: Collection[str] = frozenset(),
) -> dict[str, JSON]:
    """Struct ``name`` read from ``value`` field by field in serde_derive's order: ``readers``
    maps each JSON key, in declared order, to the reader of its value (which raises ``error``
    itself); ``optional`` fields (``Option`` or ``#[serde(default)]``) are never missing,
    ``defaulted`` ones may be left off a sequence form. The struct's own failures (missing
    field, wrong length, not a struct) raise ``error`` with serde's message."""
    try:
        return struct_fields(
            value,
            name,
            tuple(readers),
            lambda f, v: readers[f](v),
            optional=optional,
            defaulted=defaulted,
        )
    except SerdeError as exc:
        raise error(exc.message) from None
