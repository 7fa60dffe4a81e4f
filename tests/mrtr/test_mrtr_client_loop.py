"""Table tests for each branch of neva's client loop (MRTR-CLIENT-1..10).

Over 400 lines on purpose: one parametrized table per loop branch, kept in one file.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from mcp_touchstone.mrtr import (
    ClientOptions,
    RpcError,
    apply_client_meta,
    declared_capabilities,
    read_input_required,
    read_server_info,
    run_batch_with_mrtr,
    run_with_mrtr,
)
from mcp_touchstone.serde_json import JSON
from tests.mrtr._client_helpers import FORM, ROOTS, SAMPLE, Handlers, counter, text_result

CALL: dict[str, JSON] = {"id": 1, "method": "tools/call", "params": {"name": "t"}}
DONE = text_result("done")


def _ask(requests: JSON = None, state: JSON = "s", **extra: JSON) -> dict[str, JSON]:
    out: dict[str, JSON] = {"resultType": "input_required", **extra}
    if requests is not None:
        out["inputRequests"] = requests
    if state is not None:
        out["requestState"] = state
    return out


def _scripted(
    results: list[JSON | RpcError],
) -> tuple[list[dict[str, JSON]], Callable[..., dict[str, JSON]]]:
    sent: list[dict[str, JSON]] = []

    def send(request: dict[str, JSON]) -> dict[str, JSON]:
        sent.append(request)
        item = results[len(sent) - 1]
        if isinstance(item, RpcError):
            raise item
        return {"jsonrpc": "2.0", "id": request["id"], "result": item}

    return sent, send


def _run(
    results: list[JSON | RpcError],
    options: ClientOptions | None = None,
    request: dict[str, JSON] = CALL,
    handlers: Handlers | None = None,
) -> tuple[list[dict[str, JSON]], dict[str, JSON] | RpcError]:
    sent, send = _scripted(results)
    try:
        out: dict[str, JSON] | RpcError = run_with_mrtr(
            request,
            options or ClientOptions(elicitation=True, sampling=True),
            send=send,
            fulfil=handlers or Handlers(sample={"role": "assistant"}),
            next_id=counter(),
        )
    except RpcError as exc:
        out = exc
    return sent, out


@pytest.mark.parametrize(
    ("method", "loops"),
    [
        ("tools/call", True),
        ("prompts/get", True),
        ("resources/read", True),
        ("tools/list", False),
        ("custom/echo", False),
        ("Tools/Call", False),
    ],
)
def test_only_mrtr_methods_loop(method: str, loops: bool) -> None:
    """MRTR-CLIENT-1: only the three MRTR methods re-issue on input_required."""
    sent, out = _run([_ask({"k": FORM}), DONE], request={"id": 1, "method": method, "params": {}})
    assert len(sent) == (2 if loops else 1)
    assert isinstance(out, dict)


@pytest.mark.parametrize(
    "result",
    [
        {"content": []},
        {"resultType": "complete", "inputRequests": {"k": FORM}},
        {"resultType": "task"},
        {"resultType": "Input_Required"},
        {"resultType": ["input_required"]},
        ["input_required"],
        "input_required",
        None,
        7,
    ],
)
def test_results_that_are_not_input_required_are_final(result: JSON) -> None:
    """MRTR-CLIENT-1: anything but resultType == "input_required" on an object is final."""
    sent, out = _run([result])
    assert len(sent) == 1
    assert out == {"jsonrpc": "2.0", "id": 1, "result": result}


def test_an_error_response_is_final() -> None:
    """MRTR-CLIENT-7: an error response is returned as received, never retried."""
    sent: list[dict[str, JSON]] = []

    def send(request: dict[str, JSON]) -> dict[str, JSON]:
        sent.append(request)
        return {
            "jsonrpc": "2.0",
            "id": request["id"],
            "error": {"code": -32021, "message": "m", "data": None},
        }

    out = run_with_mrtr(CALL, ClientOptions(), send=send, fulfil=Handlers(), next_id=counter())
    assert out["error"] == {"code": -32021, "message": "m", "data": None}
    assert len(sent) == 1


def test_a_transport_failure_ends_the_call() -> None:
    """MRTR-CLIENT-7: a send that fails ends the call with its error."""
    sent, out = _run([_ask({"k": FORM}), RpcError(-99998, "Request timed out")])
    assert len(sent) == 2
    assert out == RpcError(-99998, "Request timed out")


@pytest.mark.parametrize(
    ("result", "message"),
    [
        (_ask(5), "invalid type: integer `5`, expected a map"),
        (_ask("x"), 'invalid type: string "x", expected a map'),
        (_ask({"k": {"method": "nope"}}), "unknown MRTR input request method `nope`"),
        (_ask({"k": {"method": "elicitation/create"}}), "missing field `message`"),
        (_ask({"k": FORM}, 3), "invalid type: integer `3`, expected a string"),
        (_ask({"k": FORM}, True), "invalid type: boolean `true`, expected a string"),
        # Sorted-key visiting: "a" fails before "b", whatever the wire order.
        (
            _ask({"b": {"method": "b/b"}, "a": {"method": "a/a"}}),
            "unknown MRTR input request method `a/a`",
        ),
        # inputRequests is visited before requestState.
        (_ask({"k": {"method": "x/x"}}, 3), "unknown MRTR input request method `x/x`"),
    ],
)
def test_an_unreadable_input_required_is_a_parse_error(result: JSON, message: str) -> None:
    """MRTR-CLIENT-3: -32700 with serde's text, before anything is fulfilled or re-sent."""
    handlers = Handlers()
    sent, out = _run([result], handlers=handlers)
    assert out == RpcError(-32700, message)
    assert len(sent) == 1
    assert handlers.calls == []


@pytest.mark.parametrize(
    ("result", "requests", "state"),
    [
        (_ask(None, None), [], None),
        (_ask(None, None, inputRequests=None, requestState=None), [], None),
        (_ask({}, ""), [], ""),
        (_ask({"r": ROOTS}, "x"), ["r"], "x"),
        (_ask({"r": {"method": "roots/list", "params": None}}, None), ["r"], None),
    ],
)
def test_read_input_required_accepts(result: JSON, requests: list[str], state: str | None) -> None:
    """MRTR-CLIENT-3: absent or null members read as none; keys keep their wire order."""
    got_requests, got_state = read_input_required(result)
    assert [k for k, _ in got_requests] == requests
    assert got_state == state


@pytest.mark.parametrize(
    ("asks", "options", "error"),
    [
        (
            {"k": FORM},
            ClientOptions(),
            (-32600, "server requested elicitation but no handler is configured"),
        ),
        (
            {"k": SAMPLE},
            ClientOptions(elicitation=True),
            (-32600, "server requested sampling but no handler is configured"),
        ),
        (
            {"ok": FORM, "k": SAMPLE},
            ClientOptions(elicitation=True),
            (-32600, "server requested sampling but no handler is configured"),
        ),
    ],
)
def test_a_missing_handler_aborts(
    asks: JSON, options: ClientOptions, error: tuple[int, str]
) -> None:
    """MRTR-CLIENT-4: an input with no registered handler ends the call with -32600."""
    sent, out = _run([_ask(asks)], options=options)
    assert out == RpcError(*error)
    assert len(sent) == 1


def test_fulfilment_is_one_key_after_another_and_stops_at_a_failure() -> None:
    """MRTR-CLIENT-4: keys are fulfilled in order; the first failure stops the rest."""
    handlers = Handlers(fail_on="b")
    sent, out = _run([_ask({"a": FORM, "b": FORM, "c": FORM})], handlers=handlers)
    assert handlers.calls == ["a", "b"]
    assert out == RpcError(-32603, "b failed")
    assert len(sent) == 1


@pytest.mark.parametrize("roots", [None, (), ({"uri": "file:///x", "name": "x"},)])
def test_roots_are_answered_from_the_list_without_a_handler(roots: tuple[JSON, ...] | None) -> None:
    """MRTR-CLIENT-4: roots are answered from the list whatever was declared."""
    handlers = Handlers()
    sent, _out = _run(
        [_ask({"r": ROOTS}), DONE], options=ClientOptions(roots=roots), handlers=handlers
    )
    retry = sent[1]["params"]
    assert isinstance(retry, dict)
    assert retry["inputResponses"] == {"r": {"roots": list(roots or ())}}
    assert handlers.calls == []


@pytest.mark.parametrize(
    ("max_rounds", "asks", "sends", "completes"),
    [
        (0, 0, 1, True),
        (0, 1, 1, False),
        (1, 1, 2, True),
        (1, 2, 2, False),
        (8, 8, 9, True),
        (8, 9, 9, False),
        (3, 2, 3, True),
    ],
)
def test_the_budget_counts_reissues(
    max_rounds: int, asks: int, sends: int, completes: bool
) -> None:
    """MRTR-CLIENT-6: at most max_rounds + 1 sends; then -32603."""
    results: list[JSON | RpcError] = [_ask({"k": FORM}, f"s{i}") for i in range(asks)]
    results.append(DONE)
    sent, out = _run(results, options=ClientOptions(elicitation=True, max_rounds=max_rounds))
    assert len(sent) == sends
    if completes:
        assert isinstance(out, dict)
        assert out["result"] == DONE
    else:
        assert out == RpcError(-32603, "MRTR exceeded the maximum number of rounds")


def test_the_last_round_is_still_fulfilled() -> None:
    """MRTR-CLIENT-6: the exhausted round's inputs are fulfilled before the budget error."""
    handlers = Handlers()
    _sent, out = _run(
        [_ask({"k": FORM})],
        options=ClientOptions(elicitation=True, max_rounds=0),
        handlers=handlers,
    )
    assert handlers.calls == ["k"]
    assert isinstance(out, RpcError)
    assert out.code == -32603


@pytest.mark.parametrize(
    ("params", "first", "retry"),
    [
        (None, {"_meta": "M"}, {"_meta": "M", "inputResponses": {}, "requestState": "s"}),
        ([1], [1], {"inputResponses": {}, "requestState": "s"}),
        (3, 3, {"inputResponses": {}, "requestState": "s"}),
        ({"_meta": 1}, {"_meta": "M"}, {"_meta": "M", "inputResponses": {}, "requestState": "s"}),
        (
            {"_meta": {"x": 1}},
            {"_meta": {"x": 1, "+": "M"}},
            {"_meta": {"x": 1, "+": "M"}, "inputResponses": {}, "requestState": "s"},
        ),
    ],
)
def test_params_shapes(params: JSON, first: JSON, retry: JSON) -> None:
    """MRTR-CLIENT-2/5: how each params shape is written first and on the retry."""
    meta: dict[str, JSON] = {
        "io.modelcontextprotocol/clientInfo": {"name": "neva", "version": "0.5.4"},
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }

    def expand(value: JSON) -> JSON:
        if value == "M":
            return meta
        if isinstance(value, dict):
            if "+" in value:
                rest = {k: v for k, v in value.items() if k != "+"}
                return {**rest, **meta}
            return {k: expand(v) for k, v in value.items()}
        return value

    request: dict[str, JSON] = {"id": 1, "method": "tools/call"}
    if params is not None:
        request["params"] = params
    sent, _ = _run([_ask({}), DONE], options=ClientOptions(), request=request)
    assert sent[0].get("params") == expand(first)
    assert sent[1]["params"] == expand(retry)


@pytest.mark.parametrize(
    ("token", "written"),
    [
        (7, 7),
        (-3, -3),
        ((1 << 63) - 1, (1 << 63) - 1),
        (1 << 63, -(1 << 63)),
        ("abc", "abc"),
        ("{550E8400-E29B-41D4-A716-446655440000}", "550e8400-e29b-41d4-a716-446655440000"),
        ("urn:uuid:550e8400-e29b-41d4-a716-446655440000", "550e8400-e29b-41d4-a716-446655440000"),
        ("550e8400-e29b41d4-a716-446655440000", "550e8400-e29b41d4-a716-446655440000"),
        ("a/-0/x", "a/0/x"),
        ("a//99999999999999999999", "a/99999999999999999999"),
        ("u/550E8400E29B41D4A716446655440000", "u/550e8400-e29b-41d4-a716-446655440000"),
    ],
)
def test_progress_token_written_back_as_neva_spells_it(token: JSON, written: JSON) -> None:
    """MRTR-CLIENT-2: a kept progressToken goes through neva's ProgressToken and back."""
    params = apply_client_meta({"_meta": {"progressToken": token}}, ClientOptions())
    assert isinstance(params, dict)
    assert isinstance(params["_meta"], dict)
    assert params["_meta"]["progressToken"] == written


def test_declared_capabilities() -> None:
    """MRTR-CLIENT-2: each kind the client can fulfil is declared as {}, no modes named."""
    assert declared_capabilities(ClientOptions()) == {}
    assert declared_capabilities(ClientOptions(elicitation=True, sampling=True, roots=())) == {
        "elicitation": {},
        "sampling": {},
        "roots": {},
    }


def test_apply_client_meta_does_not_mutate_its_input() -> None:
    """apply_client_meta works on a copy: the caller's params are left as they were."""
    params: JSON = {"name": "t", "_meta": {"k": [1]}}
    apply_client_meta(params, ClientOptions(), input_responses={"a": {"b": 1}}, request_state="s")
    assert params == {"name": "t", "_meta": {"k": [1]}}


def _batch_send(
    results: list[JSON | RpcError],
) -> tuple[list[list[dict[str, JSON]]], Callable[..., list[dict[str, JSON] | RpcError]]]:
    writes: list[list[dict[str, JSON]]] = []
    queue = list(results)

    def send_batch(envelopes: list[dict[str, JSON]]) -> list[dict[str, JSON] | RpcError]:
        writes.append(envelopes)
        out: list[dict[str, JSON] | RpcError] = []
        for env in envelopes:
            if "id" in env:
                item = queue.pop(0)
                out.append(
                    item
                    if isinstance(item, RpcError)
                    else {"jsonrpc": "2.0", "id": env["id"], "result": item}
                )
        return out

    return writes, send_batch


@pytest.mark.parametrize(
    ("items", "message"),
    [
        (
            [{"id": 1, "method": "a"}, {"id": 1, "method": "b"}],
            "batch contains duplicate request IDs",
        ),
        (
            [{"id": 1, "method": "subscriptions/listen"}],
            "batch contains `subscriptions/listen`; open subscriptions with `Client::listen`",
        ),
        # The duplicate check runs first.
        (
            [{"id": 1, "method": "subscriptions/listen"}, {"id": 1, "method": "a"}],
            "batch contains duplicate request IDs",
        ),
        ([], "batch must not be empty"),
    ],
)
def test_batch_checks(items: list[dict[str, JSON]], message: str) -> None:
    """MRTR-CLIENT-9: send_batch's checks, in order, before anything is written."""
    writes, send_batch = _batch_send([])
    with pytest.raises(RpcError) as info:
        run_batch_with_mrtr(
            items, ClientOptions(), send_batch=send_batch, fulfil=Handlers(), next_id=counter()
        )
    assert (info.value.code, info.value.message) == (-32600, message)
    assert writes == []


def test_batch_of_notifications_only() -> None:
    """MRTR-CLIENT-9: notifications alone are written once and give no slots."""
    writes, send_batch = _batch_send([])
    out = run_batch_with_mrtr(
        [{"method": "n/a"}],
        ClientOptions(),
        send_batch=send_batch,
        fulfil=Handlers(),
        next_id=counter(),
    )
    assert out == []
    assert writes == [[{"jsonrpc": "2.0", "method": "n/a"}]]


def test_batch_lock_step_and_whole_batch_budget() -> None:
    """MRTR-CLIENT-8: only pending slots are re-sent; a slot pending at the end fails all."""
    writes, send_batch = _batch_send([DONE, _ask({"k": FORM}), _ask({"k": FORM}, "t")])
    with pytest.raises(RpcError) as info:
        run_batch_with_mrtr(
            [{"id": 1, "method": "tools/call"}, {"id": 2, "method": "tools/call"}],
            ClientOptions(elicitation=True, max_rounds=1),
            send_batch=send_batch,
            fulfil=Handlers(),
            next_id=counter(3),
        )
    assert info.value.message == "MRTR exceeded the maximum number of rounds"
    assert [[e["id"] for e in w] for w in writes] == [[1, 2], [3]]


def test_batch_slot_failure_fails_the_batch() -> None:
    """MRTR-CLIENT-8: a per-slot transport failure fails the whole batch."""
    _writes, send_batch = _batch_send([DONE, RpcError(-99998, "Batch request timed out")])
    with pytest.raises(RpcError) as info:
        run_batch_with_mrtr(
            [{"id": 1, "method": "tools/call"}, {"id": 2, "method": "tools/call"}],
            ClientOptions(),
            send_batch=send_batch,
            fulfil=Handlers(),
            next_id=counter(3),
        )
    assert info.value.code == -99998


def test_batch_mixed_slots() -> None:
    """MRTR-CLIENT-8: isError, error and final slots stay isolated beside a re-issued one."""
    writes: list[list[dict[str, JSON]]] = []

    def send_batch(envelopes: list[dict[str, JSON]]) -> list[dict[str, JSON] | RpcError]:
        writes.append(envelopes)
        out: list[dict[str, JSON] | RpcError] = []
        for env in envelopes:
            rid = env["id"]
            if rid == 1:
                out.append({"jsonrpc": "2.0", "id": rid, "result": text_result("x", is_error=True)})
            elif rid == 2:
                out.append(
                    {
                        "jsonrpc": "2.0",
                        "id": rid,
                        "error": {"code": -32602, "message": "m", "data": None},
                    }
                )
            elif rid == 3:
                out.append({"jsonrpc": "2.0", "id": rid, "result": _ask({"k": FORM})})
            else:
                out.append({"jsonrpc": "2.0", "id": rid, "result": DONE})
        return out

    out = run_batch_with_mrtr(
        [{"id": i, "method": "tools/call"} for i in (1, 2, 3)],
        ClientOptions(elicitation=True),
        send_batch=send_batch,
        fulfil=Handlers(),
        next_id=counter(4),
    )
    assert [r["id"] for r in out] == [1, 2, 4]
    assert "error" in out[1]
    assert [[e["id"] for e in w] for w in writes] == [[1, 2, 3], [4]]


@pytest.mark.parametrize(
    ("info", "recorded"),
    [
        ({"name": "n", "version": "1"}, {"name": "n", "version": "1"}),
        ({"name": "n", "version": "1", "title": "t"}, {"name": "n", "version": "1"}),
        ({"name": "n"}, None),
        ({"name": "n", "version": 1}, None),
        (["n", "1", None], {"name": "n", "version": "1"}),
        (["n", "1"], None),
        (
            {
                "name": "n",
                "version": "1",
                "icons": [
                    {"src": "s", "mimeType": "m", "sizes": ["x", "7", "1x2x3"], "theme": "dark"}
                ],
            },
            {
                "name": "n",
                "version": "1",
                "icons": [
                    {"mimeType": "m", "sizes": ["0x0", "7x0", "1x2"], "src": "s", "theme": "dark"}
                ],
            },
        ),
        ({"name": "n", "version": "1", "icons": [{"theme": "dark"}]}, None),
        ("neva", None),
    ],
)
def test_read_server_info(info: JSON, recorded: JSON) -> None:
    """MRTR-CLIENT-10: serverInfo read as neva's Implementation and written back, or None."""
    response: dict[str, JSON] = {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {"_meta": {"io.modelcontextprotocol/serverInfo": info}},
    }
    assert read_server_info(response) == recorded


def test_read_server_info_ignores_errors_and_bare_results() -> None:
    """MRTR-CLIENT-10: error responses and results without _meta record nothing."""
    assert (
        read_server_info(
            {"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": "m", "data": None}}
        )
        is None
    )
    assert read_server_info({"jsonrpc": "2.0", "id": 1, "result": {"_meta": []}}) is None
    assert read_server_info({"jsonrpc": "2.0", "id": 1, "result": 5}) is None


def test_observe_sees_every_handled_response() -> None:
    """MRTR-CLIENT-10: the observer is called once per response the single loop handles."""
    seen: list[JSON] = []
    _sent, send = _scripted([_ask({}), _ask({}), DONE])
    run_with_mrtr(
        CALL, ClientOptions(), send=send, fulfil=Handlers(), next_id=counter(), observe=seen.append
    )
    assert [r["id"] for r in seen if isinstance(r, dict)] == [1, 2, 3]


@pytest.mark.parametrize("token", [-(1 << 63) - 1, 1 << 64])
def test_progress_token_serde_reads_as_float_fails_the_typed_read(token: int) -> None:
    """MRTR-CLIENT-2: an integer serde_json holds as f64 fails the typed read: nothing kept."""
    params = apply_client_meta(
        {"_meta": [token, None, None, None, None, None, None, None, None, None]}, ClientOptions()
    )
    assert isinstance(params, dict)
    meta = params["_meta"]
    assert isinstance(meta, dict)
    assert "progressToken" not in meta


def test_nothing_leaks_into_the_next_call() -> None:
    """MRTR-CLIENT-5: each call starts from its own params; no state or answers carry over."""
    _sent, send = _scripted([_ask({"k": FORM}, "s1"), DONE])
    options = ClientOptions(elicitation=True)
    run_with_mrtr(CALL, options, send=send, fulfil=Handlers(), next_id=counter())
    sent2, send2 = _scripted([DONE])
    run_with_mrtr(CALL, options, send=send2, fulfil=Handlers(), next_id=counter())
    params = sent2[0]["params"]
    assert isinstance(params, dict)
    assert "inputResponses" not in params
    assert "requestState" not in params


def test_run_with_mrtr_refuses_a_non_string_method_by_name() -> None:
    """MRTR-CLIENT-1: a request whose ``method`` is not a string is API misuse, a ``TypeError``
    saying so before anything is sent."""
    from mcp_touchstone.mrtr import ClientOptions, run_with_mrtr

    sent: list[JSON] = []

    def send(message: dict[str, JSON]) -> dict[str, JSON]:
        sent.append(message)
        return {"jsonrpc": "2.0", "id": 1, "result": {}}

    with pytest.raises(TypeError) as exc:
        run_with_mrtr(
            {"id": 1, "method": 5},
            ClientOptions(),
            send=send,
            fulfil=lambda *_: None,
            next_id=lambda: 2,
        )
    assert str(exc.value) == "a request's method is a string"
    assert sent == []
