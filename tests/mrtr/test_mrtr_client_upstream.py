"""neva's client-loop tests (``client.rs`` and the client cases of ``tests/mrtr.rs`` at
``e6822d7``), re-expressed under their upstream names against a neva-like fake server
(MRTR-CLIENT-2, MRTR-CLIENT-4, MRTR-CLIENT-5, MRTR-CLIENT-6, MRTR-CLIENT-8, MRTR-CLIENT-9)."""

from __future__ import annotations

import pytest

from mcp_touchstone.mrtr import (
    ClientOptions,
    RpcError,
    TraceContext,
    apply_client_meta,
    run_batch_with_mrtr,
    run_with_mrtr,
)
from mcp_touchstone.serde_json import JSON
from tests.mrtr._client_helpers import (
    FORM,
    OCTOCAT,
    ROOTS,
    SAMPLE,
    AskingServer,
    Handlers,
    counter,
    text_result,
)

CALL: dict[str, JSON] = {
    "id": 1,
    "method": "tools/call",
    "params": {"name": "greet", "arguments": {}},
}


def _greeting(answers: dict[str, JSON]) -> dict[str, JSON]:
    answer = answers.get("name")
    assert isinstance(answer, dict)
    content = answer.get("content")
    name = content.get("name") if isinstance(content, dict) else "stranger"
    return text_result(f"hello {name}")


def test_client_drives_mrtr_elicitation_end_to_end() -> None:
    """The loop answers the server's elicitation with the handler and returns the final result."""
    server = AskingServer([("name", FORM)], _greeting)
    handlers = Handlers()
    final = run_with_mrtr(
        CALL, ClientOptions(elicitation=True), send=server, fulfil=handlers, next_id=counter()
    )
    assert final == {"jsonrpc": "2.0", "id": 2, "result": text_result("hello octocat")}
    assert handlers.calls == ["name"]
    assert len(server.seen) == 2


def test_configurable_max_rounds_caps_the_mrtr_loop() -> None:
    """max_rounds 0 sends once and fails the moment the server elicits."""
    server = AskingServer([("name", FORM)], _greeting)
    with pytest.raises(RpcError) as info:
        run_with_mrtr(
            CALL,
            ClientOptions(elicitation=True, max_rounds=0),
            send=server,
            fulfil=Handlers(),
            next_id=counter(),
        )
    assert (info.value.code, info.value.message) == (
        -32603,
        "MRTR exceeded the maximum number of rounds",
    )
    assert "maximum number of rounds" in info.value.message
    assert len(server.seen) == 1


def test_one_retry_budget_completes_a_single_question_flow() -> None:
    """max_rounds 1 is enough for one question: the first send is not counted."""
    server = AskingServer([("name", FORM)], _greeting)
    final = run_with_mrtr(
        CALL,
        ClientOptions(elicitation=True, max_rounds=1),
        send=server,
        fulfil=Handlers(),
        next_id=counter(),
    )
    assert final["result"] == text_result("hello octocat")


def test_client_drives_sampling_and_roots_end_to_end() -> None:
    """Roots come from the configured list, sampling from its handler, over two rounds."""
    sampled: JSON = {
        "role": "assistant",
        "content": {"type": "text", "text": "looks fine"},
        "model": "m",
    }

    def audit(answers: dict[str, JSON]) -> dict[str, JSON]:
        roots, describe = answers["dirs"], answers["describe"]
        assert isinstance(roots, dict)
        assert isinstance(roots["roots"], list)
        assert isinstance(describe, dict)
        assert isinstance(describe["content"], dict)
        return text_result(f"{len(roots['roots'])} root(s): {describe['content']['text']}")

    server = AskingServer([("dirs", ROOTS), ("describe", SAMPLE)], audit)
    handlers = Handlers(sample=sampled)
    options = ClientOptions(sampling=True, roots=({"uri": "file:///work", "name": "work"},))
    final = run_with_mrtr(CALL, options, send=server, fulfil=handlers, next_id=counter())
    assert final["result"] == text_result("1 root(s): looks fine")
    assert handlers.calls == ["describe"]  # roots never reach a handler


def test_a_client_with_an_empty_roots_list_still_answers() -> None:
    """with_roots and no roots: roots are declared and answered with an empty list."""

    def scan(answers: dict[str, JSON]) -> dict[str, JSON]:
        roots = answers["dirs"]
        assert isinstance(roots, dict)
        assert isinstance(roots["roots"], list)
        return text_result(f"{len(roots['roots'])} root(s)")

    server = AskingServer([("dirs", ROOTS)], scan)
    final = run_with_mrtr(
        CALL, ClientOptions(roots=()), send=server, fulfil=Handlers(), next_id=counter()
    )
    assert final["result"] == text_result("0 root(s)")
    first = server.seen[0]["params"]
    assert isinstance(first, dict)
    assert isinstance(first["_meta"], dict)
    assert first["_meta"]["io.modelcontextprotocol/clientCapabilities"] == {"roots": {}}


def _batch_server(fail_tool: str | None = None) -> tuple[list[list[dict[str, JSON]]], object]:
    """A batch transport: each greet/boom slot elicits once, then answers."""
    writes: list[list[dict[str, JSON]]] = []

    def send_batch(envelopes: list[dict[str, JSON]]) -> list[dict[str, JSON] | RpcError]:
        writes.append(envelopes)
        out: list[dict[str, JSON] | RpcError] = []
        for env in envelopes:
            if "id" not in env:
                continue
            params = env.get("params")
            assert isinstance(params, dict)
            if env["method"] == "tools/list":
                out.append(
                    {"jsonrpc": "2.0", "id": env["id"], "result": {"tools": [{"name": "greet"}]}}
                )
            elif "inputResponses" not in params:
                asks: dict[str, JSON] = {
                    "resultType": "input_required",
                    "inputRequests": {"name": FORM},
                    "requestState": "s",
                }
                out.append({"jsonrpc": "2.0", "id": env["id"], "result": asks})
            elif params["name"] == fail_tool:
                out.append(
                    {
                        "jsonrpc": "2.0",
                        "id": env["id"],
                        "result": text_result("boom failed after elicitation", is_error=True),
                    }
                )
            else:
                out.append(
                    {"jsonrpc": "2.0", "id": env["id"], "result": text_result("hello octocat")}
                )
        return out

    return writes, send_batch


def _greet(rid: int, name: str = "greet") -> dict[str, JSON]:
    return {"id": rid, "method": "tools/call", "params": {"name": name}}


def test_client_drives_mrtr_across_a_batch_end_to_end() -> None:
    """[tools/list, greet, notification, greet]: three slots in order, both greets final."""
    writes, send_batch = _batch_server()
    items: list[dict[str, JSON]] = [
        {"id": 1, "method": "tools/list"},
        _greet(2),
        {"method": "notifications/progress"},
        _greet(3),
    ]
    out = run_batch_with_mrtr(
        items,
        ClientOptions(elicitation=True),
        send_batch=send_batch,  # type: ignore[arg-type]
        fulfil=Handlers(),
        next_id=counter(4),
    )
    assert len(out) == 3
    assert out[0]["result"] == {"tools": [{"name": "greet"}]}
    assert out[1]["result"] == out[2]["result"] == text_result("hello octocat")
    assert len(writes) == 2
    assert writes[0][0] == {"jsonrpc": "2.0", "method": "notifications/progress"}
    assert all("id" in env for env in writes[1])


def test_batch_isolates_a_single_slot_failure_after_elicitation() -> None:
    """[greet, boom, greet]: boom's isError result fills its slot, the others complete."""
    _writes, send_batch = _batch_server(fail_tool="boom")
    out = run_batch_with_mrtr(
        [_greet(1), _greet(2, "boom"), _greet(3)],
        ClientOptions(elicitation=True),
        send_batch=send_batch,  # type: ignore[arg-type]
        fulfil=Handlers(),
        next_id=counter(4),
    )
    assert [r["result"]["isError"] for r in out] == [False, True, False]  # type: ignore[index,call-overload]


def test_call_batch_requires_connected_client() -> None:
    """An empty batch is an error (neva's connected client: MessageBatch refuses it)."""
    with pytest.raises(RpcError) as info:
        run_batch_with_mrtr(
            [], ClientOptions(), send_batch=lambda _e: [], fulfil=Handlers(), next_id=counter()
        )
    assert (info.value.code, info.value.message) == (-32600, "batch must not be empty")


def test_batch_injects_rc_client_meta_per_request() -> None:
    """Batched requests get clientInfo, protocolVersion, elicitation {}; notifications nothing."""
    writes: list[list[dict[str, JSON]]] = []

    def send_batch(envelopes: list[dict[str, JSON]]) -> list[dict[str, JSON] | RpcError]:
        writes.append(envelopes)
        return [{"jsonrpc": "2.0", "id": e["id"], "result": {}} for e in envelopes if "id" in e]

    run_batch_with_mrtr(
        [
            {"id": 1, "method": "tools/call", "params": {"name": "greet", "arguments": {}}},
            {"method": "notifications/progress"},
        ],
        ClientOptions(elicitation=True),
        send_batch=send_batch,
        fulfil=Handlers(),
        next_id=counter(),
    )
    request = next(e for e in writes[0] if "id" in e)
    params = request["params"]
    assert isinstance(params, dict)
    assert isinstance(params["_meta"], dict)
    meta = params["_meta"]
    assert meta["io.modelcontextprotocol/clientCapabilities"] == {"elicitation": {}}
    assert isinstance(meta["io.modelcontextprotocol/clientInfo"], dict)
    assert meta["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"
    notification = next(e for e in writes[0] if "id" not in e)
    assert "params" not in notification


def test_a_retry_states_its_answers_in_the_params() -> None:
    """requestState and inputResponses go on the params; _meta carries neither."""
    params = apply_client_meta(
        {"name": "greet", "arguments": {}},
        ClientOptions(),
        input_responses={"who": {"action": "accept"}},
        request_state="v1.0.sealed",
    )
    assert isinstance(params, dict)
    assert params["requestState"] == "v1.0.sealed"
    assert params["inputResponses"] == {"who": {"action": "accept"}}
    assert params["name"] == "greet"
    meta = params["_meta"]
    assert isinstance(meta, dict)
    assert isinstance(meta["io.modelcontextprotocol/clientInfo"], dict)
    assert "inputResponses" not in meta
    assert "requestState" not in meta


def test_apply_client_meta_injects_trace_context() -> None:
    """A trace-context provider's traceparent and tracestate reach _meta beside clientInfo."""
    options = ClientOptions(trace_context=lambda: TraceContext("tp", "ts", "bg"))
    params = apply_client_meta({"name": "greet", "arguments": {}}, options)
    assert isinstance(params, dict)
    assert isinstance(params["_meta"], dict)
    assert params["_meta"]["traceparent"] == "tp"
    assert params["_meta"]["tracestate"] == "ts"
    assert isinstance(params["_meta"]["io.modelcontextprotocol/clientInfo"], dict)


def test_apply_client_meta_omits_trace_context_without_provider() -> None:
    """With no provider, no trace fields are written."""
    params = apply_client_meta({"name": "greet", "arguments": {}}, ClientOptions())
    assert isinstance(params, dict)
    assert isinstance(params["_meta"], dict)
    assert "traceparent" not in params["_meta"]
    assert "tracestate" not in params["_meta"]


def test_retry_carries_octocat_answer_and_state() -> None:
    """tool_elicits_then_completes_over_two_rounds, client side: the retry carries the state."""
    server = AskingServer([("name", FORM)], _greeting)
    run_with_mrtr(
        CALL, ClientOptions(elicitation=True), send=server, fulfil=Handlers(), next_id=counter()
    )
    retry = server.seen[1]["params"]
    assert isinstance(retry, dict)
    assert retry["inputResponses"] == {"name": OCTOCAT}
    assert retry["requestState"] == "state-0"
    assert server.seen[1]["id"] == 2 != server.seen[0]["id"]
