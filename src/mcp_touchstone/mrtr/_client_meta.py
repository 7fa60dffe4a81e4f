"""The request ``_meta`` neva's client writes (MRTR-CLIENT-2, MRTR-CLIENT-5): ``apply_client_meta``
over the typed read of the caller's ``_meta`` (``RequestParamsMeta``), each kept field written
back as neva spells it.

Mirrors ``apply_client_meta`` (``client/mrtr.rs:107-179``), ``Request::meta`` and
``Request::set_meta`` (``types/request.rs:514-562``) and ``ProgressToken``'s reader and writer
(``types/progress.rs:55-116``, ``shared/memchr.rs:14-25``, ``shared/arc_slice.rs:57-68``) at
``e6822d7``.
"""

from __future__ import annotations

import re
from copy import deepcopy
from typing import TYPE_CHECKING

from mcp_touchstone._rust import I64_MAX, I64_MIN
from mcp_touchstone.mrtr._meta import (
    CLIENT_CAPABILITIES_KEY,
    META_FIELDS,
    MetaError,
    parse_request_meta,
)
from mcp_touchstone.serde_json import JSON

if TYPE_CHECKING:
    from mcp_touchstone.mrtr._client import ClientOptions

__all__ = [
    "PROTOCOL_VERSION",
    "apply_client_meta",
    "client_request",
    "declared_capabilities",
]

PROTOCOL_VERSION = "2026-07-28"
"""The ``io.modelcontextprotocol/protocolVersion`` every request states."""


def declared_capabilities(options: ClientOptions) -> dict[str, JSON]:
    """``_meta.io.modelcontextprotocol/clientCapabilities`` as neva's client writes it:
    each kind it can fulfil as ``{}``, elicitation never naming a mode (MRTR-CLIENT-2)."""
    caps: dict[str, JSON] = {}
    if options.elicitation:
        caps["elicitation"] = {}
    if options.sampling:
        caps["sampling"] = {}
    if options.roots is not None:
        caps["roots"] = {}
    return caps


_HEX = "[0-9a-fA-F]"
_HYPHENATED = f"{_HEX}{{8}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{12}}"
_UUID = re.compile(rf"{_HEX}{{32}}|{_HYPHENATED}|\{{{_HYPHENATED}\}}|urn:uuid:{_HYPHENATED}")
_I64 = re.compile(r"[+-]?[0-9]+")


def _canonical_uuid(text: str) -> str | None:
    if not _UUID.fullmatch(text):
        return None
    digits = re.sub("[^0-9a-fA-F]", "", text.removeprefix("urn:uuid:")).lower()
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"


def _segment(text: str) -> str:
    """One path segment through ``ProgressToken::from_str`` and back to text."""
    uuid = _canonical_uuid(text)
    if uuid is not None:
        return uuid
    if _I64.fullmatch(text) and I64_MIN <= int(text) <= I64_MAX:
        return str(int(text))
    return text


def _progress_token(value: JSON) -> JSON:
    """A ``progressToken`` read as neva's ``ProgressToken`` and written back: a u64 above
    ``i64::MAX`` wraps (``visit_u64``'s ``as i64``), a UUID is re-spelled canonically, a
    string holding a ``/`` is split by ``MemChr::split``, which drops empty parts
    (``shared/memchr.rs:24``), and re-joined segment by segment (``ArcSlice``'s ``Display``):
    ``"a//b"`` is ``"a/b"``, ``"/"`` is ``""``."""
    if isinstance(value, int):
        return value - (1 << 64) if value > I64_MAX else value
    if isinstance(value, str):
        uuid = _canonical_uuid(value)
        if uuid is not None:
            return uuid
        if "/" in value:
            return "/".join(_segment(part) for part in value.split("/") if part)
    return value


_KEPT = (
    "progressToken",
    "traceparent",
    "tracestate",
    "baggage",
    "io.modelcontextprotocol/logLevel",
)


def _typed_meta(params: JSON) -> dict[str, JSON]:
    """``req.meta().unwrap_or_default()`` written back: the fields neva's typed
    ``RequestParamsMeta`` keeps from the request's ``_meta`` (none when it fails to read)."""
    if not isinstance(params, dict) or "_meta" not in params:
        return {}
    raw = params["_meta"]
    try:
        parse_request_meta(raw)
    except MetaError:
        return {}
    # The object form is read by name; the sequence form that parsed, by field order.
    if isinstance(raw, dict):
        members = raw
    elif isinstance(raw, list):
        members = dict(zip(META_FIELDS, raw, strict=False))
    else:
        return {}
    token = members.get("progressToken")
    if isinstance(token, int) and not I64_MIN <= token < (1 << 64):
        # serde_json reads such an integer as f64, which ProgressToken refuses.
        return {}
    kept: dict[str, JSON] = {}
    for key in _KEPT:
        value = members.get(key)
        if value is None:
            continue
        if key == "progressToken":
            value = _progress_token(value)
        elif isinstance(value, dict):
            # A LoggingLevel read from serde's map form `{"<name>": null}` is written as its
            # name (`#[serde(rename_all = "lowercase")]`, types/notification/log_message.rs:19).
            (value,) = value
        kept[key] = value
    return kept


def apply_client_meta(
    params: JSON,
    options: ClientOptions,
    *,
    input_responses: dict[str, JSON] | None = None,
    request_state: str | None = None,
) -> JSON:
    """neva's ``apply_client_meta`` on a copy of ``params`` (``None``: absent).

    The typed ``_meta`` read back gets ``clientInfo``, ``protocolVersion``,
    ``clientCapabilities``, trace context from the provider and the log level, and is
    merged into an object ``_meta`` (other keys kept) or replaces any other ``_meta``;
    non-object params get nothing; absent params become ``{"_meta": ...}``. Then, on a
    retry, ``inputResponses`` and ``requestState`` are written on the params
    (MRTR-CLIENT-2, MRTR-CLIENT-5).
    """
    params = deepcopy(params)
    fields = _typed_meta(params)
    fields["io.modelcontextprotocol/clientInfo"] = deepcopy(options.client_info)
    fields["io.modelcontextprotocol/protocolVersion"] = PROTOCOL_VERSION
    fields[CLIENT_CAPABILITIES_KEY] = declared_capabilities(options)
    trace = options.trace_context() if options.trace_context is not None else None
    if trace is not None:
        fields["traceparent"] = trace.traceparent
        for key, value in (("tracestate", trace.tracestate), ("baggage", trace.baggage)):
            if value is None:
                fields.pop(key, None)
            else:
                fields[key] = value
    if options.log_level is not None:
        fields["io.modelcontextprotocol/logLevel"] = options.log_level
    if params is None:
        params = {"_meta": fields}
    elif isinstance(params, dict):
        existing = params.get("_meta")
        params["_meta"] = {**existing, **fields} if isinstance(existing, dict) else fields
    if input_responses is None and request_state is None:
        return params
    retry: dict[str, JSON] = params if isinstance(params, dict) else {}
    if input_responses is not None:
        retry["inputResponses"] = deepcopy(input_responses)
    if request_state is not None:
        retry["requestState"] = request_state
    return retry


def client_request(
    request_id: JSON,
    method: str,
    params: JSON,
    options: ClientOptions,
    *,
    input_responses: dict[str, JSON] | None = None,
    request_state: str | None = None,
) -> dict[str, JSON]:
    """The JSON-RPC request neva writes: ``Request::new`` plus :func:`apply_client_meta`
    (``params`` omitted only when absent)."""
    out: dict[str, JSON] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    written = apply_client_meta(
        params, options, input_responses=input_responses, request_state=request_state
    )
    if written is not None:
        out["params"] = written
    return out
