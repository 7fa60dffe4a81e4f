"""What neva's client reads of a response (MRTR-CLIENT-1, MRTR-CLIENT-3, MRTR-CLIENT-10): the
``input_required`` test, the typed ``InputRequiredResult`` and the ``serverInfo`` record.

Mirrors ``Response::result_type`` (``types/response.rs:305-315``), ``InputRequiredResult``
(``types/mrtr.rs:84-102``, its envelopes decoded by :mod:`mcp_touchstone.mrtr._requests`) and
``record_server_info`` (``client/mrtr.rs:19-33``) at ``e6822d7``.
"""

from __future__ import annotations

import re

from mcp_touchstone._rust import USIZE_MAX
from mcp_touchstone._serde import unexpected
from mcp_touchstone.mrtr._errors import PARSE_ERROR, RpcError
from mcp_touchstone.mrtr._meta import (
    MRTR_METHODS,
    MetaError,
    _check_client_info,  # neva's `Implementation` read, shared with clientInfo
)
from mcp_touchstone.mrtr._requests import InputRequest, InputRequestError, decode_input_request
from mcp_touchstone.serde_json import JSON

__all__ = ["is_input_required", "read_input_required", "read_server_info"]


def is_input_required(method: str, response: dict[str, JSON]) -> bool:
    """A success result of an MRTR method whose ``resultType`` is ``"input_required"``."""
    if method not in MRTR_METHODS or "result" not in response:
        return False
    result = response["result"]
    return isinstance(result, dict) and result.get("resultType") == "input_required"


def read_input_required(result: JSON) -> tuple[list[tuple[str, InputRequest]], str | None]:
    """Read an ``input_required`` result as neva's ``InputRequiredResult`` (members in
    serde_json's sorted-key visiting order): the input requests in wire order and the
    state; a failure is ``-32700`` with serde's text (MRTR-CLIENT-3)."""
    if not isinstance(result, dict):
        raise RpcError(PARSE_ERROR, f"invalid type: {unexpected(result)}, expected a map")
    requests: list[tuple[str, InputRequest]] = []
    raw_requests = result.get("inputRequests")
    if raw_requests is not None:
        if not isinstance(raw_requests, dict):
            message = f"invalid type: {unexpected(raw_requests)}, expected a map"
            raise RpcError(PARSE_ERROR, message)
        for key in sorted(raw_requests):
            try:
                decode_input_request(raw_requests[key])
            except InputRequestError as exc:
                raise RpcError(PARSE_ERROR, str(exc)) from None
        requests = [(key, decode_input_request(env)) for key, env in raw_requests.items()]
    state = result.get("requestState")
    if state is not None and not isinstance(state, str):
        raise RpcError(PARSE_ERROR, f"invalid type: {unexpected(state)}, expected a string")
    return requests, state


_SERVER_INFO = "io.modelcontextprotocol/serverInfo"
_USIZE = re.compile(r"\+?[0-9]+")


def _usize(text: str) -> int:
    return int(text) if _USIZE.fullmatch(text) and int(text) <= USIZE_MAX else 0


def _icon_size(text: JSON) -> JSON:
    """An ``IconSize`` read from text and written back (``any``, else ``{w}x{h}``, 0 for junk)."""
    assert isinstance(text, str)
    if text == "any":
        return "any"
    parts = text.split("x")
    height = _usize(parts[1]) if len(parts) > 1 else 0
    return f"{_usize(parts[0])}x{height}"


def _members(value: JSON, fields: tuple[str, ...]) -> dict[str, JSON]:
    if isinstance(value, dict):
        return value
    assert isinstance(value, list)
    return dict(zip(fields, value, strict=False))


def read_server_info(response: dict[str, JSON]) -> JSON:
    """``record_server_info``: a success result's ``_meta`` serverInfo read as neva's
    ``Implementation`` and written back (unknown members dropped, icon sizes re-spelled,
    ``theme`` always written, by name), or ``None`` when absent or unreadable (MRTR-CLIENT-10)."""
    result = response.get("result") if "result" in response else None
    meta = result.get("_meta") if isinstance(result, dict) else None
    if not isinstance(meta, dict) or _SERVER_INFO not in meta:
        return None
    raw = meta[_SERVER_INFO]
    try:
        _check_client_info(raw)
    except MetaError:
        return None
    info = _members(raw, ("name", "version", "icons"))
    out: dict[str, JSON] = {"name": info["name"], "version": info["version"]}
    icons = info.get("icons")
    if isinstance(icons, list):
        written: list[JSON] = []
        for icon in icons:
            fields = _members(icon, ("mimeType", "sizes", "src", "theme"))
            item: dict[str, JSON] = {}
            if fields.get("mimeType") is not None:
                item["mimeType"] = fields["mimeType"]
            sizes = fields.get("sizes")
            if isinstance(sizes, list):
                item["sizes"] = [_icon_size(size) for size in sizes]
            item["src"] = fields["src"]
            theme = fields.get("theme")
            # An IconTheme read from serde's map form `{"dark": null}` is written as its name
            # (`#[serde(rename_all = "lowercase")]`, types/icon.rs:44-52).
            item["theme"] = next(iter(theme)) if isinstance(theme, dict) else theme
            written.append(item)
        out["icons"] = written
    return out
