"""The client half of MRTR: neva's ``run_with_mrtr`` / ``run_batch_with_mrtr`` loops
(rules MRTR-CLIENT-*), as pure code.

The transport, the handlers that fulfil an input and the request-id counter are injected
callables, so nothing here does I/O. The loop sends a request; while an MRTR method's
answer is an ``input_required`` result it fulfils each input one key after another,
re-issues the *original* params under a new id with this round's answers and the
server's ``requestState`` echoed byte for byte, and gives up after ``max_rounds``
re-issues. A batch advances every pending request in lock-step, one write per round.

Mirrors ``neva/src/client/mrtr.rs`` at ``e6822d7`` (``fulfil_input``, ``run_with_mrtr``,
``run_batch_with_mrtr``) and the checks of ``RequestHandler::send_batch``
(``client/handler.rs``) and ``MessageBatch::new``. The ``_meta`` neva writes is
:mod:`mcp_touchstone.mrtr._client_meta`; what it reads of a response,
:mod:`mcp_touchstone.mrtr._client_reads`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from copy import deepcopy
from dataclasses import dataclass, field

from mcp_touchstone.mrtr._client_meta import (
    PROTOCOL_VERSION,
    apply_client_meta,
    client_request,
    declared_capabilities,
)
from mcp_touchstone.mrtr._client_reads import (
    is_input_required,
    read_input_required,
    read_server_info,
)
from mcp_touchstone.mrtr._errors import INTERNAL_ERROR, INVALID_REQUEST, RpcError
from mcp_touchstone.mrtr._requests import InputKind, InputRequest
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


def fulfil_input(
    options: ClientOptions, fulfil: Fulfiller, key: str, request: InputRequest
) -> JSON:
    """neva's ``fulfil_input``: elicitation and sampling go to their handler (``-32600``
    when none is registered); roots are answered from the configured list, whatever
    was declared, without calling anything (MRTR-CLIENT-4). neva's list is a ``HashMap``'s
    values (``client/options.rs:442-444``), in no specified order; here it is the configured
    order."""
    if request.kind is InputKind.ROOTS:
        return {"roots": [_root(root) for root in options.roots or ()]}
    registered = options.elicitation if request.kind is InputKind.ELICITATION else options.sampling
    if not registered:
        kind = "elicitation" if request.kind is InputKind.ELICITATION else "sampling"
        raise RpcError(INVALID_REQUEST, f"server requested {kind} but no handler is configured")
    return fulfil(key, request)


def _root(root: JSON) -> JSON:
    """A configured root as neva's ``Root`` serializes (``types/root.rs:29-39``): ``uri``,
    ``name``, and ``_meta`` unless it is ``None``; nothing else."""
    assert isinstance(root, dict)
    out: dict[str, JSON] = {"uri": root["uri"], "name": root["name"]}
    if root.get("_meta") is not None:
        out["_meta"] = deepcopy(root["_meta"])
    return out


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
        if not is_input_required(method, response):
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
            # neva keeps the params *after* round 0's apply_client_meta as the slot's
            # original (client/mrtr.rs:266-275), so every retry re-reads that _meta.
            slots.append(_Slot(method, first.get("params"), first))
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
            if not is_input_required(slot.method, response):
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
