"""What turbomcp's router and param parsers answer before any visibility or handler code runs.

Two families the visibility layer does not decide but which decide whether a request reaches a
handler at all (VIS-ROUTE-*):

* the router's ``-32601`` ``method not found: {method}`` for a method it does not route, and for
  routed methods absent from the request's revision (``resources/subscribe``,
  ``resources/unsubscribe`` and ``logging/setLevel`` on 2026-07-28; core Tasks outside
  2025-11-25 or without a task store), and the legacy ``resources/subscribe`` gates: no
  resources capability, then its params;
* ``parse_complete_params``: ``completion/complete`` params are deserialized into
  ``RawCompleteParams`` and its ``ref`` resolved before the completion handler runs; a failure is
  ``-32602`` through ``error_response_for`` (the same code on every revision).

Pure functions over JSON values; serde's wording comes from :mod:`mcp_touchstone._serde`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mcp_touchstone._errors import INVALID_PARAMS, METHOD_NOT_FOUND, RpcError, TouchstoneError
from mcp_touchstone._serde import invalid_type
from mcp_touchstone.serde_json import JSON
from mcp_touchstone.visibility._policy import ProtocolVersion

TASK_METHODS = frozenset(("tasks/list", "tasks/get", "tasks/cancel", "tasks/result"))
"""Core Tasks (2025-11-25); ``tasks/update`` exists only in the draft extension."""
LEGACY_ONLY = frozenset(("resources/subscribe", "resources/unsubscribe", "logging/setLevel"))
"""Routed methods the 2026-07-28 path answers with ``-32601``."""
ROUTED_METHODS = frozenset(
    (
        "server/discover",
        "ping",
        "initialize",
        "tools/list",
        "tools/call",
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "prompts/list",
        "prompts/get",
        "completion/complete",
        "subscriptions/listen",
        *LEGACY_ONLY,
        *TASK_METHODS,
    )
)
"""Every request method turbomcp's ``handle`` / ``handle_request`` has an arm for."""


RouteError = RpcError
"""A JSON-RPC error the router or a param parser answers (the shared error value)."""


def method_not_found(method: str) -> RouteError:
    """``McpError::method_not_found(method)``: ``-32601`` ``method not found: {method}``."""
    return RouteError(METHOD_NOT_FOUND, f"method not found: {method}")


def _invalid_params(message: str) -> RouteError:
    return RouteError(INVALID_PARAMS, f"invalid params: {message}")


class _SerdeError(TouchstoneError):
    """serde_json's message for params that do not deserialize."""


Reader = Callable[[JSON], object]


def _string(value: JSON) -> object:
    if not isinstance(value, str):
        raise _SerdeError(invalid_type(value, "a string"))
    return value


def _optional_string(value: JSON) -> object:
    return None if value is None else _string(value)


def _string_map(value: JSON) -> object:
    if not isinstance(value, dict):
        raise _SerdeError(invalid_type(value, "a map"))
    for item in value.values():
        _string(item)
    return value


def _struct(
    name: str, fields: tuple[tuple[str, Reader, bool], ...], value: JSON
) -> dict[str, object]:
    """``serde_json::from_value`` of a derived struct of ``fields`` (wire name, reader,
    ``#[serde(default)]``): an object read entry by entry in its order (unknown keys ignored),
    then the first missing field without a default; or serde's sequence form; else invalid type.
    """
    out: dict[str, object] = {}
    if isinstance(value, dict):
        readers = {field: reader for field, reader, _ in fields}
        for key, item in value.items():
            if key in readers:
                out[key] = readers[key](item)
        for field, _, default in fields:
            if field not in out and not default:
                raise _SerdeError(f"missing field `{field}`")
        return out
    if isinstance(value, list):
        plural = "" if len(fields) == 1 else "s"
        for index, (field, reader, default) in enumerate(fields):
            if index < len(value):
                out[field] = reader(value[index])
            elif not default:
                raise _SerdeError(
                    f"invalid length {index}, expected struct {name} with {len(fields)} "
                    f"element{plural}"
                )
        if len(value) > len(fields):
            raise _SerdeError(f"invalid length {len(value)}, expected fewer elements in array")
        return out
    raise _SerdeError(invalid_type(value, f"struct {name}"))


def _ref(value: JSON) -> object:
    fields = (("type", _string, False), ("name", _optional_string, True))
    return _struct("RawCompletionRef", (*fields, ("uri", _optional_string, True)), value)


def _argument(value: JSON) -> object:
    fields = (("name", _string, False), ("value", _string, False))
    return _struct("RawCompletionArgument", fields, value)


def _context(value: JSON) -> object:
    if value is None:
        return None
    return _struct("RawCompletionContext", (("arguments", _string_map, True),), value)


_COMPLETE_FIELDS: tuple[tuple[str, Reader, bool], ...] = (
    ("ref", _ref, False),
    ("argument", _argument, False),
    ("context", _context, True),
)


@dataclass(frozen=True, slots=True)
class CompletionTarget:
    """What a well-formed completion names: ``ref/prompt`` by ``name`` or ``ref/resource`` by
    ``uri``."""

    prompt: bool
    key: str


def parse_complete_params(params: JSON) -> CompletionTarget | RouteError:
    """turbomcp's ``parse_complete_params`` (VIS-ROUTE-2): params required (``None`` stands for
    absent or ``null``), deserialized whole into ``RawCompleteParams`` — ``ref`` {``type``,
    ``name``?, ``uri``?}, ``argument`` {``name``, ``value``}, ``context``? {``arguments``?: a
    string map} — then the ``ref`` type resolved: ``ref/prompt`` needs ``name``,
    ``ref/resource`` needs ``uri``, any other type is refused by name."""
    if params is None:
        return _invalid_params("completion/complete requires params")
    try:
        raw = _struct("RawCompleteParams", _COMPLETE_FIELDS, params)
    except _SerdeError as exc:
        return _invalid_params(f"invalid completion/complete params: {exc}")
    ref = raw["ref"]
    assert isinstance(ref, dict)
    kind, name, uri = ref["type"], ref.get("name"), ref.get("uri")
    if kind == "ref/prompt":
        if not isinstance(name, str):
            return _invalid_params("ref/prompt completion requires `name`")
        return CompletionTarget(prompt=True, key=name)
    if kind == "ref/resource":
        if not isinstance(uri, str):
            return _invalid_params("ref/resource completion requires `uri`")
        return CompletionTarget(prompt=False, key=uri)
    return _invalid_params(f"unknown completion ref type: {kind}")


def parse_uri_param(params: JSON, method: str) -> str | RouteError:
    """turbomcp's ``parse_uri_param`` for a legacy ``resources/subscribe`` or ``unsubscribe``:
    params required, deserialized into ``RawReadResourceParams`` {``uri``}."""
    if params is None:
        return _invalid_params(f"{method} requires params")
    try:
        raw = _struct("RawReadResourceParams", (("uri", _string, False),), params)
    except _SerdeError as exc:
        return _invalid_params(f"invalid {method} params: {exc}")
    uri = raw["uri"]
    assert isinstance(uri, str)
    return uri


def route_refusal(
    method: str,
    params: JSON,
    version: ProtocolVersion,
    *,
    has_resources: bool,
    tasks_enabled: bool,
) -> RouteError | None:
    """The router's own refusal of a request, before any capability code (VIS-ROUTE-1), or
    ``None`` when it routes the request on. ``has_resources`` is whether a ``resources/list``
    handler is registered; ``tasks_enabled`` whether a task store is."""
    if method not in ROUTED_METHODS:
        return method_not_found(method)
    if version.is_draft and method in LEGACY_ONLY:
        return method_not_found(method)
    if method in TASK_METHODS and (version is not ProtocolVersion.V2025_11_25 or not tasks_enabled):
        return method_not_found(method)
    if method in ("resources/subscribe", "resources/unsubscribe"):
        if not has_resources:
            return method_not_found(method)
        uri = parse_uri_param(params, method)
        if isinstance(uri, RouteError):
            return uri
    return None
