"""The MRTR methods' typed params read before the handler runs (rule MRTR-ROUND-3).

neva extracts ``CallToolRequestParams``, ``GetPromptRequestParams`` or
``ReadResourceRequestParams`` with ``serde_json::from_value`` (absent params read as ``{}``); a
failure is ``-32602`` with serde's message and the handler does not run. The three structs read
``_meta`` as ``RequestParamsMeta`` again, so a ``_meta`` the capability read could not type ends an
MRTR round here. serde visits a ``Value`` object's members in sorted key order (neva's
``serde_json`` has no ``preserve_order``), so the first mistyped member in that order is the one
reported, and a missing required field only after every present member read; a sequence form
decodes each slot before its length is judged (:func:`~mcp_touchstone.mrtr._structs.read_struct`).
"""

from __future__ import annotations

from functools import partial

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone._serde import unexpected
from mcp_touchstone.mrtr._errors import INVALID_PARAMS, RpcError
from mcp_touchstone.mrtr._meta import MetaError, MetaReading, parse_request_meta
from mcp_touchstone.mrtr._structs import read_struct
from mcp_touchstone.serde_json import JSON

__all__ = ["method_params_error"]

# (struct name, fields in declared order, fields with #[serde(default)], required string field)
_STRUCTS: dict[str, tuple[str, tuple[str, ...], frozenset[str], str]] = {
    "tools/call": (
        "CallToolRequestParams",
        ("name", "arguments", "_meta"),
        frozenset({"arguments"}),
        "name",
    ),
    "prompts/get": ("GetPromptRequestParams", ("name", "arguments", "_meta"), frozenset(), "name"),
    "resources/read": ("ReadResourceRequestParams", ("uri", "_meta"), frozenset(), "uri"),
}


class _ParamsError(TouchstoneError, ValueError):
    pass


def _member(name: str, required: str, reading: MetaReading | None, value: JSON) -> None:
    if name == required:
        if not isinstance(value, str):
            raise _ParamsError(f"invalid type: {unexpected(value)}, expected a string")
    elif name == "arguments":
        if value is not None and not isinstance(value, dict):
            raise _ParamsError(f"invalid type: {unexpected(value)}, expected a map")
    elif name == "_meta" and value is not None:
        if reading is not None and reading.source is value:  # already read: its verdict
            if reading.error is not None:
                raise _ParamsError(str(reading.error))
            return
        try:
            parse_request_meta(value)
        except MetaError as exc:
            raise _ParamsError(str(exc)) from None


def method_params_error(
    method: str, params: JSON, reading: MetaReading | None = None
) -> RpcError | None:
    """The ``-32602`` error reading ``params`` as ``method``'s params type, or ``None``.
    ``reading`` is ``read_request_meta(params)`` when the caller has it: a ``_meta`` member
    that is the value it read is not parsed again."""
    spec = _STRUCTS.get(method)
    if spec is None:
        return None
    struct, fields, defaulted, required = spec
    value: JSON = {} if params is None else params
    try:
        read_struct(
            value,
            struct,
            {f: partial(_member, f, required, reading) for f in fields},
            _ParamsError,
            optional=frozenset(fields).difference({required}),
            defaulted=defaulted,
        )
    except _ParamsError as exc:
        return RpcError(INVALID_PARAMS, str(exc))
    return None
