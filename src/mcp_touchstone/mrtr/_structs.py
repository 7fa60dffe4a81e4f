"""How a derived serde struct reads its members from JSON (MRTR-REQ-7, MRTR-RETRY-4).

A ``#[derive(Deserialize)]`` struct reads from an object by member name, or from an
array (serde's sequence form) holding its fields in declared order. In the sequence
form a field marked ``#[serde(default)]`` may be missing, every other field (an
``Option`` too) needs its slot, and more elements than fields is an error. The sequence
form and serde's wording are the shared combinators of :mod:`mcp_touchstone._serde`.

:func:`read_struct` also decodes each field as serde_derive's visitor does, in its order
(:func:`mcp_touchstone._serde.struct_fields`: an object's present keys sorted, then missing
fields in declared order; an array's slots in declared order).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from mcp_touchstone._serde import SerdeError, invalid_type, sequence_fields, struct_fields
from mcp_touchstone.serde_json import JSON

__all__ = ["read_struct", "struct_members"]


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
