"""The client loop's budget at its edges, the batch checks in ``send_batch``'s order, and the
typed ``_meta`` write-back tables (``client/mrtr.rs``, ``client/handler.rs``,
``types/progress.rs``); expectations written by hand from neva's code."""

from __future__ import annotations

import pytest

from mcp_touchstone.mrtr import InputRequest, RpcError
from mcp_touchstone.mrtr._client import (
    DEFAULT_MAX_MRTR_ROUNDS,
    INVALID_REQUEST,
    PROTOCOL_VERSION,
    ROUNDS_EXHAUSTED,
    ClientOptions,
    TraceContext,
    apply_client_meta,
    client_request,
    declared_capabilities,
    fulfil_input,
    read_server_info,
    run_batch_with_mrtr,
    run_with_mrtr,
)
from mcp_touchstone.mrtr._requests import decode_input_request
from mcp_touchstone.serde_json import JSON

FORM: dict[str, JSON] = {
    "method": "elicitation/create",
    "params": {"message": "Name?", "requestedSchema": {"type": "object", "properties": {}}},
}
ASK: dict[str, JSON] = {
    "jsonrpc": "2.0",
    "id": 0,
    "result": {"resultType": "input_required", "inputRequests": {"k": FORM}, "requestState": "s"},
}
DONE: dict[str, JSON] = {"jsonrpc": "2.0", "id": 0, "result": {"content": []}}
V = "io.modelcontextprotocol/protocolVersion"
C = "io.modelcontextprotocol/clientCapabilities"
I = "io.modelcontextprotocol/clientInfo"  # noqa: E741 - the key's last word, as V and C


def scripted(asks: int) -> tuple[list[dict[str, JSON]], object]:
    """A sender answering input_required ``asks`` times, then a final result."""
    sent: list[dict[str, JSON]] = []

    def send(request: dict[str, JSON]) -> dict[str, JSON]:
        sent.append(request)
        return ASK if len(sent) <= asks else DONE

    return sent, send


def answer(_key: str, _request: InputRequest) -> JSON:
    """An elicitation handler accepting with no content."""
    return {"action": "accept"}


def test_client_constants() -> None:
    """MRTR-CLIENT-6: eight re-issues by default, the budget message, the stated version."""
    assert DEFAULT_MAX_MRTR_ROUNDS == 8
    assert ClientOptions().max_rounds == 8
    assert ROUNDS_EXHAUSTED == "MRTR exceeded the maximum number of rounds"
    assert PROTOCOL_VERSION == "2026-07-28"
    assert INVALID_REQUEST == -32600


@pytest.mark.parametrize(
    ("max_rounds", "asks", "sends"),
    [(0, 0, 1), (0, 1, 1), (1, 1, 2), (1, 2, 2), (3, 3, 4), (3, 4, 4), (8, 8, 9), (8, 9, 9)],
)
def test_the_budget_at_its_edge(max_rounds: int, asks: int, sends: int) -> None:
    """MRTR-CLIENT-6: max_rounds re-issues follow the first send; one more ask exhausts it."""
    sent, send = scripted(asks)
    ids = iter(range(100, 200))
    options = ClientOptions(elicitation=True, max_rounds=max_rounds)
    request: dict[str, JSON] = {"id": 1, "method": "tools/call", "params": {"name": "t"}}
    if asks <= max_rounds:
        out = run_with_mrtr(request, options, send=send, fulfil=answer, next_id=lambda: next(ids))  # type: ignore[arg-type]
        assert out == DONE
    else:
        with pytest.raises(RpcError) as exc:
            run_with_mrtr(request, options, send=send, fulfil=answer, next_id=lambda: next(ids))  # type: ignore[arg-type]
        assert (exc.value.code, exc.value.message) == (-32603, ROUNDS_EXHAUSTED)
    assert len(sent) == sends
    assert [r["id"] for r in sent] == [1, *range(100, 100 + sends - 1)]


@pytest.mark.parametrize(
    ("max_rounds", "asks", "ok"), [(0, 0, True), (0, 1, False), (2, 2, True), (2, 3, False)]
)
def test_the_batch_budget_at_its_edge(max_rounds: int, asks: int, ok: bool) -> None:
    """MRTR-CLIENT-8: a batch gets the same max_rounds + 1 writes."""
    writes: list[list[dict[str, JSON]]] = []

    def send_batch(batch: list[dict[str, JSON]]) -> list[dict[str, JSON] | RpcError]:
        writes.append(batch)
        return [ASK if len(writes) <= asks else DONE for _ in batch]

    options = ClientOptions(elicitation=True, max_rounds=max_rounds)
    items: list[dict[str, JSON]] = [{"id": 1, "method": "tools/call", "params": {"name": "t"}}]
    ids = iter(range(10, 20))
    if ok:
        out = run_batch_with_mrtr(
            items, options, send_batch=send_batch, fulfil=answer, next_id=lambda: next(ids)
        )
        assert out == [DONE]
    else:
        with pytest.raises(RpcError) as exc:
            run_batch_with_mrtr(
                items, options, send_batch=send_batch, fulfil=answer, next_id=lambda: next(ids)
            )
        assert (exc.value.code, exc.value.message) == (-32603, ROUNDS_EXHAUSTED)
    assert len(writes) == min(asks, max_rounds) + 1


DUP = "batch contains duplicate request IDs"
LISTEN = "batch contains `subscriptions/listen`; open subscriptions with `Client::listen`"
EMPTY = "batch must not be empty"


@pytest.mark.parametrize(
    ("items", "message"),
    [
        ([{"method": "notifications/x"}, {"method": "notifications/y"}], None),
        ([{"id": 1, "method": "a"}, {"id": 1, "method": "b"}], DUP),
        ([{"id": "1", "method": "a"}, {"id": "1", "method": "b"}], DUP),
        ([{"id": 1, "method": "a"}, {"id": "1", "method": "b"}], None),
        ([{"id": 1, "method": "a"}, {"id": 2, "method": "b"}], None),
        # both faults: the duplicate is found first
        ([{"id": 1, "method": "subscriptions/listen"}, {"id": 1, "method": "b"}], DUP),
        ([{"id": 1, "method": "subscriptions/listen"}], LISTEN),
        # a listen notification (no id) is no subscription
        ([{"method": "subscriptions/listen"}], None),
    ],
)
def test_batch_checks_in_order(items: list[dict[str, JSON]], message: str | None) -> None:
    """MRTR-CLIENT-9: duplicate ids (same type and value), then a listen request, then empty."""
    written: list[list[dict[str, JSON]]] = []

    def send_batch(batch: list[dict[str, JSON]]) -> list[dict[str, JSON] | RpcError]:
        written.append(batch)
        return [DONE for item in batch if "id" in item]

    def run() -> object:
        return run_batch_with_mrtr(
            items, ClientOptions(), send_batch=send_batch, fulfil=answer, next_id=lambda: 9
        )

    if message is None:
        run()
        assert len(written) == 1
    else:
        with pytest.raises(RpcError) as exc:
            run()
        assert (exc.value.code, exc.value.message) == (-32600, message)
        assert written == []


def test_an_empty_batch_is_refused() -> None:
    """MRTR-CLIENT-9: a batch with nothing in it is never written."""
    with pytest.raises(RpcError) as exc:
        run_batch_with_mrtr(
            [], ClientOptions(), send_batch=lambda b: [], fulfil=answer, next_id=lambda: 1
        )
    assert (exc.value.code, exc.value.message) == (-32600, EMPTY)


@pytest.mark.parametrize(
    ("options", "caps"),
    [
        (ClientOptions(), {}),
        (ClientOptions(elicitation=True), {"elicitation": {}}),
        (ClientOptions(sampling=True), {"sampling": {}}),
        (ClientOptions(roots=()), {"roots": {}}),
        (
            ClientOptions(
                elicitation=True, sampling=True, roots=({"uri": "file:///", "name": "r"},)
            ),
            {"elicitation": {}, "sampling": {}, "roots": {}},
        ),
    ],
)
def test_declared_capabilities_table(options: ClientOptions, caps: dict[str, JSON]) -> None:
    """MRTR-CLIENT-2: each fulfillable kind as {}, roots only when configured (even empty)."""
    assert declared_capabilities(options) == caps


@pytest.mark.parametrize(
    ("options", "envelope", "message"),
    [
        (ClientOptions(), FORM, "server requested elicitation but no handler is configured"),
        (
            ClientOptions(elicitation=True),
            {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 1}},
            "server requested sampling but no handler is configured",
        ),
        (
            ClientOptions(sampling=True),
            FORM,
            "server requested elicitation but no handler is configured",
        ),
    ],
)
def test_fulfil_input_without_a_handler(
    options: ClientOptions, envelope: JSON, message: str
) -> None:
    """MRTR-CLIENT-4: a kind with no registered handler is -32600 naming the kind."""
    with pytest.raises(RpcError) as exc:
        fulfil_input(options, answer, "k", decode_input_request(envelope))
    assert (exc.value.code, exc.value.message) == (-32600, message)


def test_roots_are_answered_from_the_configuration() -> None:
    """MRTR-CLIENT-4: roots need no handler: the configured list, or none."""
    roots = decode_input_request({"method": "roots/list"})
    root: JSON = {"uri": "file:///a", "name": "a"}
    assert fulfil_input(ClientOptions(roots=(root,)), answer, "k", roots) == {"roots": [root]}
    assert fulfil_input(ClientOptions(), answer, "k", roots) == {"roots": []}


@pytest.mark.parametrize(
    ("token", "written"),
    [
        (2**63 - 1, 2**63 - 1),
        (2**63, -(2**63)),
        (2**64 - 1, -1),
        (-(2**63), -(2**63)),
        (0, 0),
        ("A0B1C2D3E4F5A6B7C8D9E0F1A2B3C4D5", "a0b1c2d3-e4f5-a6b7-c8d9-e0f1a2b3c4d5"),
        ("{A0B1C2D3-E4F5-A6B7-C8D9-E0F1A2B3C4D5}", "a0b1c2d3-e4f5-a6b7-c8d9-e0f1a2b3c4d5"),
        ("urn:uuid:A0B1C2D3-E4F5-A6B7-C8D9-E0F1A2B3C4D5", "a0b1c2d3-e4f5-a6b7-c8d9-e0f1a2b3c4d5"),
        ("a0b1c2d3-e4f5-a6b7-c8d9-e0f1a2b3c4d", "a0b1c2d3-e4f5-a6b7-c8d9-e0f1a2b3c4d"),
        ("job/+7/007/-0/x", "job/7/7/0/x"),
        ("a/9223372036854775807/9223372036854775808", "a/9223372036854775807/9223372036854775808"),
        (
            "a/-9223372036854775808/-9223372036854775809",
            "a/-9223372036854775808/-9223372036854775809",
        ),
        ("p/A0B1C2D3E4F5A6B7C8D9E0F1A2B3C4D5", "p/a0b1c2d3-e4f5-a6b7-c8d9-e0f1a2b3c4d5"),
        # The i64 range at both ends, spelled with leading zeros (re-spelled, so the edge shows)
        (
            "a/-09223372036854775808/+09223372036854775807",
            "a/-9223372036854775808/9223372036854775807",
        ),
        (
            "a/-09223372036854775809/+09223372036854775808",
            "a/-09223372036854775809/+09223372036854775808",
        ),
        ("plain", "plain"),
        ("12", "12"),
    ],
)
def test_progress_token_write_back(token: JSON, written: JSON) -> None:
    """MRTR-CLIENT-2: a progressToken as neva's ProgressToken reads and writes it."""
    params: JSON = {"_meta": {"progressToken": token}}
    out = apply_client_meta(params, ClientOptions())
    assert isinstance(out, dict)
    meta = out["_meta"]
    assert isinstance(meta, dict)
    assert meta["progressToken"] == written


@pytest.mark.parametrize("token", [2**64, -(2**63) - 1])
def test_a_progress_token_outside_integers_drops_the_typed_meta(token: int) -> None:
    """MRTR-CLIENT-2: serde reads it as f64, ProgressToken refuses it, nothing is kept."""
    out = apply_client_meta(
        {"_meta": {"progressToken": token, "traceparent": "t"}}, ClientOptions()
    )
    assert isinstance(out, dict)
    assert out["_meta"] == {
        "progressToken": token,
        "traceparent": "t",
        I: {"name": "neva", "version": "0.5.4"},
        V: "2026-07-28",
        C: {},
    }


def test_typed_meta_keeps_its_fields_and_the_client_writes_its_own() -> None:
    """MRTR-CLIENT-2: kept typed fields, then clientInfo, version, caps, trace and log level;
    a field the provider leaves unset leaves the existing entry alone (`set_meta` extends)."""
    raw: JSON = {
        "_meta": {
            "progressToken": 5,
            "traceparent": "old",
            "tracestate": "ts",
            "baggage": "b",
            "io.modelcontextprotocol/logLevel": "info",
            V: "1999",
            "other": 1,
        },
        "name": "t",
    }
    options = ClientOptions(
        sampling=True,
        log_level="debug",
        trace_context=lambda: TraceContext("tp", None, "bg"),
    )
    out = client_request(7, "tools/call", raw, options)
    assert out == {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {
            "name": "t",
            "_meta": {
                "progressToken": 5,
                "traceparent": "tp",
                "tracestate": "ts",
                "baggage": "bg",
                "io.modelcontextprotocol/logLevel": "debug",
                V: "2026-07-28",
                "other": 1,
                I: {"name": "neva", "version": "0.5.4"},
                C: {"sampling": {}},
            },
        },
    }


@pytest.mark.parametrize(
    ("params", "written"),
    [
        (None, {"_meta": {I: {"name": "neva", "version": "0.5.4"}, V: "2026-07-28", C: {}}}),
        ([1], [1]),
        ("s", "s"),
        (
            {"_meta": 5},
            {"_meta": {I: {"name": "neva", "version": "0.5.4"}, V: "2026-07-28", C: {}}},
        ),
    ],
)
def test_params_shapes_on_the_first_send(params: JSON, written: JSON) -> None:
    """MRTR-CLIENT-2: absent params become {_meta}; non-objects get nothing; a non-object
    _meta is replaced."""
    assert apply_client_meta(params, ClientOptions()) == written


def test_a_retry_onto_non_object_params_is_a_fresh_object() -> None:
    """MRTR-CLIENT-5: a retry of non-object params carries only the answers and the state."""
    out = apply_client_meta([1], ClientOptions(), input_responses={"k": 1}, request_state="s")
    assert out == {"inputResponses": {"k": 1}, "requestState": "s"}
    only_state = apply_client_meta(None, ClientOptions(), request_state="s")
    assert isinstance(only_state, dict)
    assert (only_state["requestState"], "inputResponses" in only_state) == ("s", False)
    only_answers = apply_client_meta(None, ClientOptions(), input_responses={})
    assert isinstance(only_answers, dict)
    assert (only_answers["inputResponses"], "requestState" in only_answers) == ({}, False)


def _server_info_response(info: JSON) -> dict[str, JSON]:
    """A success response carrying ``info`` as its ``_meta`` serverInfo."""
    return {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {"_meta": {"io.modelcontextprotocol/serverInfo": info}},
    }


@pytest.mark.parametrize(
    ("size", "written"),
    [
        ("any", "any"),
        ("ANY", "0x0"),
        ("16x16", "16x16"),
        ("16", "16x0"),
        ("x16", "0x16"),
        ("16x", "16x0"),
        ("+16x+8", "16x8"),
        ("-1x2", "0x2"),
        ("007x08", "7x8"),
        ("1 x2", "0x2"),
        ("", "0x0"),
        ("18446744073709551615x1", "18446744073709551615x1"),
        ("18446744073709551616x1", "0x1"),
        ("3x18446744073709551616", "3x0"),
    ],
)
def test_icon_sizes_as_neva_respells_them(size: str, written: str) -> None:
    """MRTR-CLIENT-10: `IconSize::from(&str)`: "any", else `{w}x{h}` of usize parses, 0 for junk."""
    info: JSON = {"name": "n", "version": "1", "icons": [{"src": "s", "sizes": [size]}]}
    assert read_server_info(_server_info_response(info)) == {
        "name": "n",
        "version": "1",
        "icons": [{"sizes": [written], "src": "s", "theme": None}],
    }


def test_icons_in_the_sequence_form_and_without_sizes() -> None:
    """MRTR-CLIENT-10: an icon read from serde's sequence form; absent members are not written
    except `theme`, which is always written."""
    info: JSON = ["n", "1", [["image/png", None, "s", "light"], {"src": "t", "mimeType": None}]]
    assert read_server_info(_server_info_response(info)) == {
        "name": "n",
        "version": "1",
        "icons": [
            {"mimeType": "image/png", "src": "s", "theme": "light"},
            {"src": "t", "theme": None},
        ],
    }


def test_icon_sizes_in_the_sequence_form_are_read_and_respelled() -> None:
    """MRTR-CLIENT-10: an icon's second slot in serde's sequence form is its `sizes`, read and
    re-spelled as in the map form."""
    info: JSON = ["n", "1", [["image/png", ["48X48", "16x16", "any"], "s", None]]]
    assert read_server_info(_server_info_response(info)) == {
        "name": "n",
        "version": "1",
        "icons": [
            {"mimeType": "image/png", "sizes": ["0x0", "16x16", "any"], "src": "s", "theme": None}
        ],
    }


def test_notifications_go_once_in_the_first_write_without_client_meta() -> None:
    """MRTR-CLIENT-8: notifications lead the first write only, params kept as given (a null
    params dropped), and get no slot."""
    writes: list[list[dict[str, JSON]]] = []

    def send_batch(batch: list[dict[str, JSON]]) -> list[dict[str, JSON] | RpcError]:
        writes.append(batch)
        return [ASK if len(writes) == 1 else DONE for item in batch if "id" in item]

    items: list[dict[str, JSON]] = [
        {"id": 1, "method": "tools/call", "params": {"name": "t"}},
        {"method": "notifications/a", "params": None},
        {"method": "notifications/b", "params": {"x": 1}},
    ]
    out = run_batch_with_mrtr(
        items,
        ClientOptions(elicitation=True),
        send_batch=send_batch,
        fulfil=answer,
        next_id=lambda: 2,
    )
    assert out == [DONE]
    first, second = writes
    assert first[:2] == [
        {"jsonrpc": "2.0", "method": "notifications/a"},
        {"jsonrpc": "2.0", "method": "notifications/b", "params": {"x": 1}},
    ]
    assert [e.get("id") for e in first] == [None, None, 1]
    assert [e["id"] for e in second] == [2]


def test_a_trace_provider_answering_none_writes_nothing() -> None:
    """MRTR-CLIENT-2: a provider with no context for this request leaves the trace fields."""
    raw: JSON = {"_meta": {"traceparent": "keep"}}
    out = apply_client_meta(raw, ClientOptions(trace_context=lambda: None))
    assert isinstance(out, dict)
    meta = out["_meta"]
    assert isinstance(meta, dict)
    assert meta["traceparent"] == "keep"
    full = apply_client_meta(
        {}, ClientOptions(trace_context=lambda: TraceContext("tp", "ts", None))
    )
    assert isinstance(full, dict)
    written = full["_meta"]
    assert isinstance(written, dict)
    assert (written["traceparent"], written["tracestate"], "baggage" in written) == (
        "tp",
        "ts",
        False,
    )


@pytest.mark.parametrize("token", [-(2**63), 2**63 - 1, 0])
def test_a_progress_token_at_the_i64_edges_keeps_the_typed_meta(token: int) -> None:
    """MRTR-CLIENT-2: an integer progressToken inside i64 reads as ProgressToken, so the
    sequence form's typed fields are kept (the sequence form keeps nothing else)."""
    out = apply_client_meta({"_meta": [token, "t", *([None] * 8)]}, ClientOptions())
    assert isinstance(out, dict)
    assert out["_meta"] == {
        "progressToken": token,
        "traceparent": "t",
        I: {"name": "neva", "version": "0.5.4"},
        V: "2026-07-28",
        C: {},
    }
