"""The client half of MRTR: neva's ``run_with_mrtr`` / ``run_batch_with_mrtr`` loops
(rules MRTR-CLIENT-*), as pure code.

The transport, the handlers that fulfil an input and the request-id counter are injected
callables, so nothing here does I/O. The loop sends a request; while an MRTR method's
answer is an ``input_required`` result it fulfils each input one key after another,
re-issues the *original* params under a new id with this round's answers and the
server's ``requestState`` echoed byte for byte, and gives up after ``max_rounds``
re-issues. A batch advances every pending request in lock-step, one write per round.

Mirrors ``neva/src/client/mrtr.rs`` at ``e6822d7`` (``apply_client_meta``,
``fulfil_input``, ``run_with_mrtr``, ``run_batch_with_mrtr``) and the checks of
``RequestHandler::send_batch`` (``client/handler.rs``) and ``MessageBatch::new``.

Over 400 lines on purpose: it is one upstream file (``client/mrtr.rs``) and the typed
``_meta`` write-back it depends on, kept together so the two loops read side by side.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from copy import deepcopy
from dataclasses import dataclass, field

from mcp_touchstone._rust import I64_MAX, I64_MIN
from mcp_touchstone._serde import unexpected
from mcp_touchstone.mrtr._errors import INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR, RpcError
from mcp_touchstone.mrtr._meta import (
    CLIENT_CAPABILITIES_KEY,
    META_FIELDS,
    MRTR_METHODS,
    MetaError,
    _check_client_info,  # neva's `Implementation` read, shared with clientInfo
    parse_request_meta,
)
from mcp_touchstone.mrtr._requests import (
    InputKind,
    InputRequest,
    InputRequestError,
    decode_input_request,
)
from mcp_touchstone.serde_json import JSON

__all__ = [
    "DEFAULT_MAX_MRTR_ROUNDS",
    "INVALID_REQUEST",
    "PROTOCOL_VERSION",
    "ROUNDS_EXHAUSTED",
    "BatchSender",
    "ClientOptions",
    "Fulfiller",
    "IdSource",
    "Observer",
    "Sender",
    "TraceContext",
    "apply_client_meta",
    "client_request",
    "declared_capabilities",
    "fulfil_input",
    "read_input_required",
    "read_server_info",
    "run_batch_with_mrtr",
    "run_with_mrtr",
]

DEFAULT_MAX_MRTR_ROUNDS = 8
"""neva's ``DEFAULT_MAX_MRTR_ROUNDS``: re-issues allowed after the first send."""
PROTOCOL_VERSION = "2026-07-28"
"""The ``io.modelcontextprotocol/protocolVersion`` every request states."""
ROUNDS_EXHAUSTED = "MRTR exceeded the maximum number of rounds"
"""The ``-32603`` message when the round budget runs out (MRTR-CLIENT-6)."""

_NEVA_INFO: dict[str, JSON] = {"name": "neva", "version": "0.5.4"}
_LISTEN = "subscriptions/listen"

Sender = Callable[[dict[str, JSON]], dict[str, JSON]]
"""Sends one request and returns the JSON-RPC response object matched to it; raises
:class:`RpcError` for a transport failure (neva: ``RequestHandler::send_request``)."""
BatchSender = Callable[[list[dict[str, JSON]]], list["dict[str, JSON] | RpcError"]]
"""Writes one batch and returns, per *request* in it (in order), its response object or
the :class:`RpcError` its receiver ended with; notifications get no entry."""
Fulfiller = Callable[[str, InputRequest], JSON]
"""The registered elicitation / sampling handlers: the answer for ``key``, as neva writes
the handler's typed result; may raise :class:`RpcError`."""
IdSource = Callable[[], JSON]
"""The client's request-id counter (neva: an ``AtomicI64`` starting at 1)."""
Observer = Callable[[dict[str, JSON]], None]
"""Called with every response the loop handles, where neva calls ``record_server_info``."""


@dataclass(frozen=True, slots=True)
class TraceContext:
    """W3C trace context a provider hands back for one outbound request."""

    traceparent: str
    tracestate: str | None = None
    baggage: str | None = None


@dataclass(frozen=True, slots=True)
class ClientOptions:
    """What the loop needs of neva's ``McpOptions``.

    ``elicitation`` / ``sampling``: whether a handler of that kind is registered.
    ``roots``: the configured roots (each ``{"uri", "name", "_meta"?}``), or ``None``
    when the client neither called ``with_roots`` nor added a root; an empty tuple is
    ``with_roots`` with no roots, which still declares the capability.
    """

    client_info: JSON = field(default_factory=lambda: dict(_NEVA_INFO))
    elicitation: bool = False
    sampling: bool = False
    roots: tuple[JSON, ...] | None = None
    max_rounds: int = DEFAULT_MAX_MRTR_ROUNDS
    log_level: str | None = None
    trace_context: Callable[[], TraceContext | None] | None = None


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
    ``i64::MAX`` wraps, a UUID is re-spelled canonically, a ``/`` path is re-spelled
    segment by segment."""
    if isinstance(value, int):
        return value - (1 << 64) if value > I64_MAX else value
    if isinstance(value, str):
        uuid = _canonical_uuid(value)
        if uuid is not None:
            return uuid
        if "/" in value:
            return "/".join(_segment(part) for part in value.split("/"))
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
        if value is not None:
            kept[key] = _progress_token(value) if key == "progressToken" else value
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


def _is_input_required(method: str, response: dict[str, JSON]) -> bool:
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
    return int(text) if _USIZE.fullmatch(text) and int(text) < (1 << 64) else 0


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
    ``theme`` always written), or ``None`` when absent or unreadable (MRTR-CLIENT-10)."""
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
            item["theme"] = fields.get("theme")
            written.append(item)
        out["icons"] = written
    return out


def fulfil_input(
    options: ClientOptions, fulfil: Fulfiller, key: str, request: InputRequest
) -> JSON:
    """neva's ``fulfil_input``: elicitation and sampling go to their handler (``-32600``
    when none is registered); roots are answered from the configured list, whatever
    was declared, without calling anything (MRTR-CLIENT-4)."""
    if request.kind is InputKind.ROOTS:
        return {"roots": deepcopy(list(options.roots or ()))}
    registered = options.elicitation if request.kind is InputKind.ELICITATION else options.sampling
    if not registered:
        kind = "elicitation" if request.kind is InputKind.ELICITATION else "sampling"
        raise RpcError(INVALID_REQUEST, f"server requested {kind} but no handler is configured")
    return fulfil(key, request)


def _answers(
    options: ClientOptions, fulfil: Fulfiller, requests: Sequence[tuple[str, InputRequest]]
) -> dict[str, JSON]:
    """This round's answers, fulfilled one key after another; the first failure aborts."""
    return {key: fulfil_input(options, fulfil, key, request) for key, request in requests}


def _request_parts(request: dict[str, JSON]) -> tuple[JSON, str, JSON]:
    method = request["method"]
    if not isinstance(method, str):
        raise TypeError("a request's method is a string")
    return request["id"], method, request.get("params")


def run_with_mrtr(
    request: dict[str, JSON],
    options: ClientOptions,
    *,
    send: Sender,
    fulfil: Fulfiller,
    next_id: IdSource,
    observe: Observer | None = None,
) -> dict[str, JSON]:
    """Drive one request (``{"id", "method", "params"?}``) through neva's MRTR loop and
    return its final response; raise :class:`RpcError` for the loop's own failures
    (MRTR-CLIENT-1..7)."""
    request_id, method, original = _request_parts(request)
    outgoing = client_request(request_id, method, original, options)
    for _ in range(options.max_rounds + 1):
        response = send(outgoing)
        if observe is not None:
            observe(response)
        if not _is_input_required(method, response):
            return response
        requests, state = read_input_required(response["result"])
        answers = _answers(options, fulfil, requests)
        outgoing = client_request(
            next_id(), method, original, options, input_responses=answers, request_state=state
        )
    raise RpcError(INTERNAL_ERROR, ROUNDS_EXHAUSTED)


@dataclass(slots=True)
class _Slot:
    method: str
    original: JSON
    pending: dict[str, JSON] | None
    done: dict[str, JSON] | None = None


def _check_batch(envelopes: list[dict[str, JSON]]) -> None:
    """``send_batch``'s checks, in its order (MRTR-CLIENT-9)."""
    seen: list[JSON] = []
    for item in envelopes:
        if "id" in item:
            if any(_same_id(item["id"], other) for other in seen):
                raise RpcError(INVALID_REQUEST, "batch contains duplicate request IDs")
            seen.append(item["id"])
    if any("id" in item and item.get("method") == _LISTEN for item in envelopes):
        raise RpcError(
            INVALID_REQUEST,
            "batch contains `subscriptions/listen`; open subscriptions with `Client::listen`",
        )
    if not envelopes:
        raise RpcError(INVALID_REQUEST, "batch must not be empty")


def _same_id(a: JSON, b: JSON) -> bool:
    return type(a) is type(b) and a == b


def _notification(item: dict[str, JSON]) -> dict[str, JSON]:
    out: dict[str, JSON] = {"jsonrpc": "2.0", "method": item["method"]}
    if item.get("params") is not None:
        out["params"] = deepcopy(item["params"])
    return out


def run_batch_with_mrtr(
    items: Sequence[dict[str, JSON]],
    options: ClientOptions,
    *,
    send_batch: BatchSender,
    fulfil: Fulfiller,
    next_id: IdSource,
    observe: Observer | None = None,
) -> list[dict[str, JSON]]:
    """Drive a batch through neva's lock-step MRTR loop and return one final response
    per request, in order. Items with an ``id`` are requests, the rest notifications
    (sent once, in the first write, ahead of the requests; no slot). Raise
    :class:`RpcError` when the batch as a whole fails (MRTR-CLIENT-8, MRTR-CLIENT-9)."""
    slots: list[_Slot] = []
    extras: list[dict[str, JSON]] = []
    for item in items:
        if "id" in item:
            request_id, method, original = _request_parts(item)
            first = client_request(request_id, method, original, options)
            slots.append(_Slot(method, original, first))
        else:
            extras.append(_notification(item))
    if not slots:
        _check_batch(extras)
        send_batch(extras)
        return []
    for round_no in range(options.max_rounds + 1):
        envelopes = list(extras) if round_no == 0 else []
        round_slots = [i for i, slot in enumerate(slots) if slot.pending is not None]
        if not round_slots:
            break
        for i in round_slots:
            pending = slots[i].pending
            assert pending is not None
            envelopes.append(pending)
            slots[i].pending = None
        _check_batch(envelopes)
        responses = send_batch(envelopes)
        for i, response in zip(round_slots, responses, strict=False):
            if isinstance(response, RpcError):
                raise response
            if observe is not None:
                observe(response)
            slot = slots[i]
            if not _is_input_required(slot.method, response):
                slot.done = response
                continue
            requests, state = read_input_required(response["result"])
            answers = _answers(options, fulfil, requests)
            slot.pending = client_request(
                next_id(),
                slot.method,
                slot.original,
                options,
                input_responses=answers,
                request_state=state,
            )
    out: list[dict[str, JSON]] = []
    for slot in slots:
        if slot.done is None:
            raise RpcError(INTERNAL_ERROR, ROUNDS_EXHAUSTED)
        out.append(slot.done)
    return out
