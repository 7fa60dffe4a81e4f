"""How a derived serde struct reads its members from JSON (MRTR-REQ-7, MRTR-RETRY-4).

A ``#[derive(Deserialize)]`` struct reads from an object by member name, or from an
array (serde's sequence form) holding its fields in declared order. In the sequence
form a field marked ``#[serde(default)]`` may be missing, every other field (an
``Option`` too) needs its slot, and more elements than fields is an error. The sequence
form and serde's wording are the shared combinators of :mod:`mcp_touchstone._serde`.
"""

from __future__ import annotations

from collections.abc import Collection

from mcp_touchstone._serde import SerdeError, invalid_type, sequence_fields
from mcp_touchstone.serde_json import JSON

__all__ = ["struct_members"]


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
