"""How a derived serde struct reads its members from JSON (MRTR-REQ-7, MRTR-RETRY-4).

A ``#[derive(Deserialize)]`` struct reads from an object by member name, or from an
array (serde's sequence form) holding its fields in declared order. In the sequence
form a field marked ``#[serde(default)]`` may be missing from the end, every other
field (an ``Option`` too) needs its slot, and more elements than fields is an error.
"""

from __future__ import annotations

from mcp_touchstone._serde import unexpected
from mcp_touchstone.serde_json import JSON

__all__ = ["struct_members"]


def struct_members(
    value: JSON,
    name: str,
    fields: tuple[str, ...],
    error: type[ValueError],
    defaulted: frozenset[str] = frozenset(),
) -> dict[str, JSON]:
    """The members of struct ``name`` read from ``value`` by field name, or ``error``
    when ``value`` is neither an object nor a sequence form serde would take."""
    if isinstance(value, dict):
        return value
    if not isinstance(value, list):
        raise error(f"invalid type: {unexpected(value)}, expected struct {name}")
    if len(value) > len(fields):
        raise error(f"invalid length {len(value)}, expected fewer elements in array")
    for missing in fields[len(value) :]:
        if missing not in defaulted:
            raise error(
                f"invalid length {len(value)}, expected struct {name} with {len(fields)} elements"
            )
    return dict(zip(fields, value, strict=False))
