"""One server round of neva's MRTR dispatch (``app/dispatch.rs`` ``handle_request``), as a pure
function of the request, the handler, the configuration and the injected clock, nonce source and
store (rules MRTR-ROUND-*, MRTR-STORE-*).

The order is neva's: required ``_meta`` and protocol version (every method), the MRTR field
types (MRTR methods), capabilities, seeding (full verify, then the answer merge), the store lookup
under a per-tag reservation, the method's params read, the handler through its wrapper, then the
post-handler precedence (malformed answer > pending inputs > commit), minting, stamping and the
store put. ``protocol/mrtr-round.md`` pins every step with neva file:line references.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum

from mcp_touchstone.mrtr._binding import input_responses_digest, request_binding
from mcp_touchstone.mrtr._capabilities import ClientMrtrCapabilities, missing_capability_error
from mcp_touchstone.mrtr._context import (
    INPUT_REQUIRED,
    REQUEST_CANCELLED,
    TIMEOUT,
    Context,
    RoundState,
)
from mcp_touchstone.mrtr._errors import (
    HEADER_MISMATCH,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    PARSE_ERROR,
    RESOURCE_NOT_FOUND,
    UNSUPPORTED_PROTOCOL_VERSION,
    URL_ELICITATION_REQUIRED,
    RpcError,
)
from mcp_touchstone.mrtr._meta import (
    MRTR_METHODS,
    MetaReading,
    client_capabilities,
    malformed_mrtr_error,
    read_request_meta,
)
from mcp_touchstone.mrtr._params import method_params_error
from mcp_touchstone.mrtr._payload import StatePayload
from mcp_touchstone.mrtr._seed import seed_round
from mcp_touchstone.mrtr._state import (
    DEFAULT_MAX_STATE_BYTES,
    DEFAULT_TTL_SECS,
    CheckContext,
    Keyring,
    seal,
)
from mcp_touchstone.mrtr._store import RequestStateStore, StoredResponse
from mcp_touchstone.serde_json import JSON

__all__ = [
    "DEFAULT_SERVER_INFO",
    "LATEST_PROTOCOL_VERSION",
    "NEVA_ERROR_CODES",
    "Handler",
    "RoundResult",
    "ServerConfig",
    "Wrapper",
    "dispatch",
    "neva_code",
    "should_commit",
    "stamp",
    "state_tag",
    "wire_code",
]

LATEST_PROTOCOL_VERSION = "2026-07-28"
"""The only protocol version neva's default build serves."""
DEFAULT_SERVER_INFO: Mapping[str, JSON] = {"name": "neva", "version": "0.5.4"}
"""The ``Implementation`` stamped into results when none is configured."""

_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
_SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
NEVA_ERROR_CODES: frozenset[int] = frozenset(
    {
        PARSE_ERROR,
        INVALID_REQUEST,
        METHOD_NOT_FOUND,
        INVALID_PARAMS,
        INTERNAL_ERROR,
        RESOURCE_NOT_FOUND,
        URL_ELICITATION_REQUIRED,
        HEADER_MISMATCH,
        MISSING_REQUIRED_CLIENT_CAPABILITY,
        UNSUPPORTED_PROTOCOL_VERSION,
        REQUEST_CANCELLED,
        TIMEOUT,
        INPUT_REQUIRED,
    }
)
"""neva's ``ErrorCode`` variants (``error/error_code.rs``): what an error response may carry
and ``Error::new`` keeps (:func:`neva_code`)."""

Handler = Callable[[Context, JSON], JSON]
"""A handler: the context and the request params in, the result out; an :class:`RpcError`
raised is the handler's ``Err``."""


class Wrapper(Enum):
    """How a method's wrapper delivers a handler ``Err`` (MRTR-ROUND-7)."""

    TOOL = "tool"
    """``tools/call``: folded into ``{"content": [text], "isError": true}``."""
    PASS = "pass"
    """Prompts, resources and custom methods: a JSON-RPC error response."""


def neva_code(code: int) -> int:
    """``Error::new``'s code: any code outside neva's ``ErrorCode`` set becomes ``-32603``."""
    return code if code in NEVA_ERROR_CODES else INTERNAL_ERROR


def wire_code(code: int) -> int:
    """``ErrorCode::wire_code``: ``-32002`` -> ``-32602``; ``-99999/-99998/-99997`` ->
    ``-32603``; every other code unchanged (after :func:`neva_code`)."""
    code = neva_code(code)
    if code == RESOURCE_NOT_FOUND:
        return INVALID_PARAMS
    if code in (REQUEST_CANCELLED, TIMEOUT, INPUT_REQUIRED):
        return INTERNAL_ERROR
    return code


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """The server's MRTR configuration (neva's ``App`` options)."""

    keyring: Keyring
    ttl: int = DEFAULT_TTL_SECS
    max_state_bytes: int = DEFAULT_MAX_STATE_BYTES
    audience: str | None = None
    server_info: Mapping[str, JSON] = field(default_factory=lambda: dict(DEFAULT_SERVER_INFO))


@dataclass(frozen=True, slots=True)
class RoundResult:
    """What a round produced: the JSON-RPC response the client receives, the payload of the
    state it minted (``None`` unless the response is ``input_required``), whether it was replayed
    from the store, and whether it was a committing final round."""

    response: dict[str, JSON]
    minted: StatePayload | None = None
    replayed: bool = False
    final: bool = False


def _error_response(request_id: JSON, error: RpcError) -> dict[str, JSON]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "error": {"code": wire_code(error.code), "message": error.message, "data": error.data},
    }


def _success(request_id: JSON, result: JSON) -> dict[str, JSON]:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def _required_meta_error(params: JSON) -> RpcError | None:
    """``Request::required_meta_error`` then ``unsupported_version_error`` (MRTR-ROUND-1)."""
    meta = params.get("_meta") if isinstance(params, dict) else None
    version = meta.get(_VERSION_KEY) if isinstance(meta, dict) else None
    if not isinstance(version, str):
        return RpcError(
            INVALID_PARAMS, f"request `_meta` is missing the required `{_VERSION_KEY}` string"
        )
    assert isinstance(meta, dict)
    if not isinstance(meta.get(_CAPABILITIES_KEY), dict):
        return RpcError(
            INVALID_PARAMS, f"request `_meta` is missing the required `{_CAPABILITIES_KEY}` object"
        )
    if version != LATEST_PROTOCOL_VERSION:
        return RpcError(
            UNSUPPORTED_PROTOCOL_VERSION,
            f"Unsupported MCP protocol version: {version}",
            {"supported": [LATEST_PROTOCOL_VERSION], "requested": version},
        )
    return None


def stamp(response: dict[str, JSON], server_info: Mapping[str, JSON]) -> dict[str, JSON]:
    """``with_result_type`` then ``with_server_info`` on a success whose result is an object
    (MRTR-ROUND-10); error responses and non-object results are left alone."""
    result = response.get("result")
    if "error" in response or not isinstance(result, dict):
        return response
    result = dict(result)
    result.setdefault("resultType", "complete")
    meta = result.setdefault("_meta", {})
    if isinstance(meta, dict) and _SERVER_INFO_KEY not in meta:
        result["_meta"] = {**meta, _SERVER_INFO_KEY: dict(server_info)}
    return {**response, "result": result}


def state_tag(token: str, answers: Mapping[str, JSON]) -> str:
    """The store key: everything after the token's last ``.``, ``.``, the seeded answers'
    digest (MRTR-STORE-1)."""
    return token.rsplit(".", 1)[-1] + "." + input_responses_digest(answers)


def _run_handler(
    handler: Handler, context: Context, params: JSON, wrapper: Wrapper, request_id: JSON
) -> dict[str, JSON]:
    try:
        result = handler(context, params)
    except RpcError as error:
        if wrapper is Wrapper.TOOL:
            folded: dict[str, JSON] = {
                "content": [{"type": "text", "text": error.message}],
                "isError": True,
            }
            return _success(request_id, folded)
        return _error_response(request_id, error)
    return _success(request_id, result)


def should_commit(response: dict[str, JSON]) -> bool:
    """``mrtr_should_commit``: a success whose ``result.isError`` is not ``true``
    (MRTR-ROUND-4)."""
    if "error" in response:
        return False
    result = response.get("result")
    return not (isinstance(result, dict) and result.get("isError") is True)


def _mint(
    round_state: RoundState,
    method: str,
    params: JSON,
    config: ServerConfig,
    *,
    principal: str | None,
    now: int,
    nonce: Callable[[], bytes],
) -> tuple[dict[str, JSON], StatePayload]:
    """``build_input_required``: the capability gate, then the sealed state (MRTR-ROUND-5/6)."""
    pending = list(round_state.pending)
    gate = missing_capability_error(round_state.capabilities, [r for _, r in pending])
    if gate is not None:
        raise gate
    payload = StatePayload(
        answers=dict(round_state.answers),
        exp=now + config.ttl,
        req=request_binding(method, params),
        requested=tuple(key for key, _ in pending),
        memos=dict(round_state.memos),
        effects=tuple(sorted(round_state.effects)),
        principal=principal,
        aud=config.audience,
    )
    token = seal(payload, config.keyring, nonce(), max_state_bytes=config.max_state_bytes)
    result: dict[str, JSON] = {
        "resultType": "input_required",
        "inputRequests": {key: request.to_json() for key, request in pending},
        "requestState": token,
    }
    return result, payload


def dispatch(
    request: Mapping[str, JSON],
    handler: Handler,
    config: ServerConfig,
    *,
    now: int,
    nonce: Callable[[], bytes],
    store: RequestStateStore,
    principal: str | None = None,
    wrapper: Wrapper | None = None,
) -> RoundResult:
    """Run one round of ``request`` (``{"id", "method", "params"?}``) against ``handler``.

    ``now`` is the round's clock (every check and every ``exp`` written), ``nonce`` is called
    once if and only if the round mints, ``store`` is the final-response store, ``principal``
    the authenticated subject. ``wrapper`` defaults to :attr:`Wrapper.TOOL` for ``tools/call``
    and :attr:`Wrapper.PASS` otherwise.
    """
    request_id = request.get("id")
    method = request.get("method")
    assert isinstance(method, str)
    params = request.get("params")
    if wrapper is None:
        wrapper = Wrapper.TOOL if method == "tools/call" else Wrapper.PASS
    mrtr = method in MRTR_METHODS

    early = _required_meta_error(params) or (malformed_mrtr_error(method, params) if mrtr else None)
    if early is not None:
        return RoundResult(_error_response(request_id, early))

    reading = read_request_meta(params)  # the typed _meta, read once for the whole round
    capabilities: ClientMrtrCapabilities = client_capabilities(params, reading)
    if not mrtr:
        context = Context(None, capabilities)
        response = _run_handler(handler, context, params, wrapper, request_id)
        return RoundResult(stamp(response, config.server_info))

    check = CheckContext(
        method=method,
        params=params,
        now=now,
        principal=principal,
        audience=config.audience,
        max_state_bytes=config.max_state_bytes,
    )
    try:
        seeded = seed_round(method, params, config.keyring, check, capabilities, reading=reading)
    except RpcError as error:
        return RoundResult(_error_response(request_id, error))
    round_state = seeded.round
    tag = None if seeded.token is None else state_tag(seeded.token, round_state.answers)
    reservation = store.reserve(tag) if tag is not None else contextlib.nullcontext()
    with reservation:
        if tag is not None:
            cached = store.get(tag, now)
            if cached is not None:
                replay = cached.with_id(request_id)
                assert isinstance(replay, dict)
                return RoundResult(replay, replayed=True)
        result = _round(
            round_state,
            handler,
            request_id,
            method,
            params,
            wrapper,
            config,
            now=now,
            nonce=nonce,
            principal=principal,
            reading=reading,
        )
        result = RoundResult(
            stamp(result.response, config.server_info), result.minted, final=result.final
        )
        if result.final and tag is not None:
            store.put(tag, StoredResponse.of(result.response), now + config.ttl)
        return result


def _round(  # noqa: PLR0917 -- the round's seven inputs, each a different thing
    round_state: RoundState,
    handler: Handler,
    request_id: JSON,
    method: str,
    params: JSON,
    wrapper: Wrapper,
    config: ServerConfig,
    *,
    now: int,
    nonce: Callable[[], bytes],
    principal: str | None,
    reading: MetaReading | None = None,
) -> RoundResult:
    """Steps 5-7 of a round (the params read, the handler and what follows it), before
    stamping."""
    method_error = method_params_error(method, params, reading)
    if method_error is not None:
        response = _error_response(request_id, method_error)
    else:
        response = _run_handler(handler, Context(round_state), params, wrapper, request_id)
    if round_state.malformed_answer is not None:
        malformed = RpcError(INVALID_PARAMS, round_state.malformed_answer)
        return RoundResult(_error_response(request_id, malformed))
    if round_state.pending:
        try:
            result, payload = _mint(
                round_state, method, params, config, principal=principal, now=now, nonce=nonce
            )
        except RpcError as error:
            return RoundResult(_error_response(request_id, error))
        return RoundResult(_success(request_id, result), payload)
    if should_commit(response):
        for _label, commit in round_state.commits:
            try:
                commit()
            except RpcError as error:
                response = _error_response(request_id, error)
                break
        return RoundResult(response, final=True)
    return RoundResult(response)
