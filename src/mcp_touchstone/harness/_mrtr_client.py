"""The ``mrtr.client`` harness operation (an addition; ``spec/harness.md``
HARNESS-MRTR-CLIENT-*): neva's client loop against a scripted server and a scripted
fulfiller. Registered from ``harness/_mrtr.py``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from mcp_touchstone._errors import INTERNAL_ERROR
from mcp_touchstone._rust import I64_MAX, I64_MIN, USIZE_MAX
from mcp_touchstone.harness._input import MUST, checked
from mcp_touchstone.harness._input import BadInputError as _BadInputError
from mcp_touchstone.harness._input import invalid_input as _invalid
from mcp_touchstone.mrtr import (
    NEVA_ERROR_CODES,
    AnswerError,
    ClientOptions,
    InputRequest,
    RpcError,
    TraceContext,
    read_answer,
    read_server_info,
    run_batch_with_mrtr,
    run_with_mrtr,
)
from mcp_touchstone.serde_json import JSON

__all__ = ["mrtr_client"]

_LOG_LEVELS = frozenset(
    {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}
)
_UUID_LIKE = re.compile(
    r"(urn:uuid:|\{)?[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?"
    r"[0-9a-fA-F]{12}\}?"
)


def _is_int(value: JSON) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _obj(value: JSON, where: str) -> dict[str, JSON]:
    return MUST.object(value, f"`{where}`")


def _bool(obj: dict[str, JSON], key: str) -> bool:
    return MUST.boolean(obj.get(key, False), f"`client.{key}`")


def _error(value: JSON, where: str, *, neva_codes_only: bool) -> RpcError:
    """An ``ERR`` object; outside neva's codes it is refused (a response neva cannot read)
    or, for ``Error::new`` (a ``fail``), becomes ``-32603``. A ``fail`` carries no ``data``:
    ``Error::new`` sets none, and neither a transport failure (``client/handler.rs:227-250``,
    ``client.rs:378-400``) nor ``fulfil_input`` (``client/mrtr.rs:204-229``) adds any."""
    err = _obj(value, where)
    code, message = err.get("code"), err.get("message")
    if not _is_int(code) or not isinstance(message, str):
        raise _BadInputError(f"`{where}` needs an integer `code` and a string `message`")
    assert isinstance(code, int)
    if not neva_codes_only and "data" in err:
        raise _BadInputError(f"`{where}` carries `data`, which no failure of neva's client has")
    if code not in NEVA_ERROR_CODES:
        if neva_codes_only:
            raise _BadInputError(f"`{where}.code` {code} is not one of neva's error codes")
        code = INTERNAL_ERROR
    return RpcError(code, message, err.get("data"))


def _request(value: JSON, where: str) -> dict[str, JSON]:
    req = _obj(value, where)
    request_id, method = req.get("id"), req.get("method")
    if _is_int(request_id):
        assert isinstance(request_id, int)
        if not I64_MIN <= request_id <= I64_MAX:
            raise _BadInputError(f"`{where}.id` must be in i64 range")
    elif isinstance(request_id, str):
        if "/" in request_id or _UUID_LIKE.fullmatch(request_id):
            raise _BadInputError(f"`{where}.id` is a string neva re-spells (path or UUID)")
    else:
        raise _BadInputError(f"`{where}.id` must be an integer or a string")
    if not isinstance(method, str):
        raise _BadInputError(f"`{where}.method` must be a string")
    out: dict[str, JSON] = {"id": request_id, "method": method}
    if req.get("params") is not None:
        out["params"] = req["params"]
    return out


def _notification(value: JSON, where: str) -> dict[str, JSON]:
    note = _obj(value, where)
    if not isinstance(note.get("method"), str):
        raise _BadInputError(f"`{where}.method` must be a string")
    return {k: v for k, v in note.items() if k in ("method", "params")}


def _roots(value: JSON) -> tuple[JSON, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        raise _BadInputError("`client.roots` must be an array of roots or null")
    uris: set[str] = set()
    for root in value:
        if not (
            isinstance(root, dict)
            and isinstance(root.get("uri"), str)
            and isinstance(root.get("name"), str)
        ):
            raise _BadInputError("each root needs a string `uri` and `name`")
        uri = root["uri"]
        assert isinstance(uri, str)
        if uri in uris:
            raise _BadInputError(f"root `{uri}` is listed twice (neva keys roots by uri)")
        uris.add(uri)
    return tuple(value)


def _trace(value: JSON) -> TraceContext | None:
    if value is None:
        return None
    tc = _obj(value, "client.trace_context")
    parent, state, baggage = tc.get("traceparent"), tc.get("tracestate"), tc.get("baggage")
    if not isinstance(parent, str):
        raise _BadInputError("`client.trace_context.traceparent` must be a string")
    for name, item in (("tracestate", state), ("baggage", baggage)):
        if item is not None and not isinstance(item, str):
            raise _BadInputError(f"`client.trace_context.{name}` must be a string or null")
    assert state is None or isinstance(state, str)
    assert baggage is None or isinstance(baggage, str)
    return TraceContext(parent, state, baggage)


def _options(value: JSON) -> ClientOptions:
    client = _obj({} if value is None else value, "client")
    info = client.get("client_info", {"name": "neva", "version": "0.5.4"})
    info_obj = _obj(info, "client.client_info")
    if (
        set(info_obj) != {"name", "version"}
        or not isinstance(info_obj.get("name"), str)
        or not isinstance(info_obj.get("version"), str)
    ):
        raise _BadInputError("`client.client_info` must be exactly string `name` and `version`")
    rounds = client.get("max_rounds", 8)
    if not _is_int(rounds) or not 0 <= rounds <= USIZE_MAX:  # type: ignore[operator]
        raise _BadInputError("`client.max_rounds` must be a non-negative integer")
    assert isinstance(rounds, int)
    level = client.get("log_level")
    if level is not None and not (isinstance(level, str) and level in _LOG_LEVELS):
        raise _BadInputError("`client.log_level` must be one of neva's LoggingLevel names")
    assert level is None or isinstance(level, str)
    trace = _trace(client.get("trace_context"))
    return ClientOptions(
        client_info=info_obj,
        elicitation=_bool(client, "elicitation"),
        sampling=_bool(client, "sampling"),
        roots=_roots(client.get("roots")),
        max_rounds=rounds,
        log_level=level,
        trace_context=None if trace is None else (lambda: trace),
    )


class _Script:
    """The scripted server: one entry per request sent, in order."""

    def __init__(self, entries: JSON) -> None:
        if not isinstance(entries, list):
            raise _BadInputError("`server` must be an array of responses")
        for i, entry in enumerate(entries):
            item = _obj(entry, f"server[{i}]")
            if len(item) != 1 or next(iter(item)) not in ("result", "error", "fail"):
                raise _BadInputError(f"`server[{i}]` must be {{result}}, {{error}} or {{fail}}")
            if "error" in item:
                _error(item["error"], f"server[{i}].error", neva_codes_only=True)
            if "fail" in item:
                _error(item["fail"], f"server[{i}].fail", neva_codes_only=False)
        self._entries = entries
        self._next = 0

    def answer(self, request: dict[str, JSON]) -> dict[str, JSON] | RpcError:
        if self._next >= len(self._entries):
            raise _BadInputError("the client sent more requests than `server` scripts")
        entry = self._entries[self._next]
        self._next += 1
        assert isinstance(entry, dict)
        if "fail" in entry:
            return _error(entry["fail"], "fail", neva_codes_only=False)
        out: dict[str, JSON] = {"jsonrpc": "2.0", "id": request["id"]}
        if "result" in entry:
            out["result"] = entry["result"]
        else:
            out["error"] = _error(entry["error"], "error", neva_codes_only=True).to_json()
        return out


def _fulfiller(value: JSON) -> Callable[[str, InputRequest], JSON]:
    answers = _obj({} if value is None else value, "answers")
    for key, entry in answers.items():
        item = _obj(entry, f"answers.{key}")
        if len(item) != 1 or next(iter(item)) not in ("answer", "fail"):
            raise _BadInputError(f"`answers.{key}` must be {{answer}} or {{fail}}")
        if "fail" in item:
            _error(item["fail"], f"answers.{key}.fail", neva_codes_only=False)

    def fulfil(key: str, request: InputRequest) -> JSON:
        if key not in answers:
            raise _BadInputError(f"the server asked for `{key}`, which `answers` does not script")
        item = answers[key]
        assert isinstance(item, dict)
        if "fail" in item:
            raise _error(item["fail"], "fail", neva_codes_only=False)
        try:
            # neva's handlers return ElicitResult / CreateMessageResult, never other JSON.
            return read_answer(request.kind, item["answer"])
        except AnswerError as exc:
            kind = request.kind.value
            raise _BadInputError(
                f"`answers.{key}.answer` is not a {kind} result a neva handler returns: {exc}"
            ) from None

    return fulfil


def _ids(start: int) -> Callable[[], JSON]:
    """neva's ``AtomicI64`` counter: ``fetch_add(1)``, wrapping at ``i64::MAX``."""
    state = [start]

    def next_id() -> JSON:
        current = state[0]
        state[0] = I64_MIN if current == I64_MAX else current + 1
        return current

    return next_id


def _first_id(client: JSON, requests: list[dict[str, JSON]]) -> int:
    given = client.get("next_id") if isinstance(client, dict) else None
    if given is not None:
        if not _is_int(given) or not I64_MIN <= given <= I64_MAX:  # type: ignore[operator]
            raise _BadInputError("`client.next_id` must be an integer in i64 range")
        assert isinstance(given, int)
        return given
    ints = [r["id"] for r in requests if _is_int(r["id"])]
    top = max((i for i in ints if isinstance(i, int)), default=0)
    return I64_MIN if top == I64_MAX else top + 1


def _mrtr_client(raw: JSON) -> dict[str, JSON]:
    try:
        obj = _obj(raw, "input")
        if ("request" in obj) == ("batch" in obj):
            raise _BadInputError("exactly one of `request` and `batch` is required")
        options = _options(obj.get("client"))
        script = _Script(obj.get("server"))
        fulfil = _fulfiller(obj.get("answers"))
        sent: list[JSON] = []
        recorded: list[JSON] = []

        def observe(response: dict[str, JSON]) -> None:
            # record_server_info: the first readable serverInfo is kept, later ones ignored.
            if not recorded or recorded[0] is None:
                recorded[:] = [read_server_info(response)]

        def done(outcome: dict[str, JSON]) -> dict[str, JSON]:
            return {"sent": sent, **outcome, "server_info": recorded[0] if recorded else None}

        if "request" in obj:
            request = _request(obj["request"], "request")
            next_id = _ids(_first_id(obj.get("client"), [request]))

            def send(req: dict[str, JSON]) -> dict[str, JSON]:
                sent.append(req)
                answer = script.answer(req)
                if isinstance(answer, RpcError):
                    raise answer
                return answer

            try:
                response = run_with_mrtr(
                    request, options, send=send, fulfil=fulfil, next_id=next_id, observe=observe
                )
            except RpcError as exc:
                return done({"error": exc.to_json()})
            return done({"response": response})
        batch = obj["batch"]
        if not isinstance(batch, list):
            raise _BadInputError("`batch` must be an array")
        items = [
            _request(item, f"batch[{i}]")
            if isinstance(item, dict) and "id" in item
            else _notification(item, f"batch[{i}]")
            for i, item in enumerate(batch)
        ]
        next_id = _ids(_first_id(obj.get("client"), [i for i in items if "id" in i]))

        def send_batch(envelopes: list[dict[str, JSON]]) -> list[dict[str, JSON] | RpcError]:
            sent.append(list[JSON](envelopes))
            return [script.answer(env) for env in envelopes if "id" in env]

        try:
            responses = run_batch_with_mrtr(
                items,
                options,
                send_batch=send_batch,
                fulfil=fulfil,
                next_id=next_id,
                observe=observe,
            )
        except RpcError as exc:
            return done({"error": exc.to_json()})
        return done({"responses": list[JSON](responses)})
    except _BadInputError as exc:
        return _invalid(str(exc))


mrtr_client = checked(_mrtr_client)
"""``mrtr.client``: every write the client made and the call's outcome
(HARNESS-MRTR-CLIENT-1..3)."""
