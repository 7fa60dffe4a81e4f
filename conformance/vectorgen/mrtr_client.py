"""Vectors for ``mrtr.client``: neva's client MRTR loop against a scripted server
(``conformance/vectors/mrtr/client.json``, ``client_batch.json``).

Every expected output is stated by hand from ``neva/src/client/mrtr.rs`` at ``e6822d7``,
``shared/reference/neva.md`` §4 and the upstream tests named in each ``origin``; nothing
here imports ``mcp_touchstone``. The helpers below only spell the envelope every request
repeats (the client ``_meta`` neva's ``apply_client_meta`` writes), so each case states
its own ids, params, answers and states.

Over 400 lines on purpose: it is a table of ~100 cases, each a few lines.
"""

# Justified: the cases are a table of hand-stated rows; long literals (messages, comments)
# stay on one line and each row helper takes its columns positionally.
# ruff: noqa: E501, PLR0917

from __future__ import annotations

from typing import Any

from conformance.vectorgen._common import vector

J = Any

_SOURCE = {
    "name": "RomanEmreis/neva",
    "version": "0.5.4 (e6822d7), MCP 2026-07-28",
    "reference": "neva/src/client/mrtr.rs; shared/reference/neva.md section 4",
}

INFO = {"name": "neva", "version": "0.5.4"}
E: dict[str, J] = {"elicitation": {}}
S: dict[str, J] = {"sampling": {}}
R: dict[str, J] = {"roots": {}}
ROUNDS = "MRTR exceeded the maximum number of rounds"
STATE = "v1.0.AAECAwQFBgcICQoL.c2VhbGVk"
STATE2 = "v1.0.DA0ODxAREhMUFRYX.c2Vjb25k"


def meta(caps: dict[str, J], **extra: J) -> dict[str, J]:
    """The ``_meta`` neva's client writes: clientInfo, protocolVersion, capabilities."""
    return {
        "io.modelcontextprotocol/clientInfo": INFO,
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": caps,
        **extra,
    }


def rq(rid: J, params: J, method: str = "tools/call") -> dict[str, J]:
    """A JSON-RPC request as neva writes it."""
    out: dict[str, J] = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        out["params"] = params
    return out


def call(name: str = "greet", **extra: J) -> dict[str, J]:
    """``tools/call`` params ``{"name", "arguments": {}}`` plus ``extra``."""
    return {"name": name, "arguments": {}, **extra}


def ok(rid: J, result: J) -> dict[str, J]:
    """A success response as the client returns it."""
    return {"jsonrpc": "2.0", "id": rid, "result": result}


def err(rid: J, code: int, message: str, data: J = None) -> dict[str, J]:
    """An error response as the client returns it (``data`` always written)."""
    return {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message, "data": data}}


def loop_error(code: int, message: str, data: J = None) -> dict[str, J]:
    """The loop's own ``Err``."""
    return {"code": code, "message": message, "data": data}


FORM = {
    "method": "elicitation/create",
    "params": {
        "message": "Your name?",
        "requestedSchema": {
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "required": ["name"],
        },
    },
}
SAMPLE = {
    "method": "sampling/createMessage",
    "params": {
        "messages": [{"role": "user", "content": {"type": "text", "text": "Describe"}}],
        "maxTokens": 100,
    },
}
ROOTS = {"method": "roots/list", "params": {}}
OCTOCAT = {"action": "accept", "content": {"name": "octocat"}}
MONA = {"action": "accept", "content": {"name": "monalisa"}}
SAMPLED = {
    "role": "assistant",
    "content": {"type": "text", "text": "looks fine"},
    "model": "m",
}  # a CreateMessageResult as neva writes it: stopReason None is skipped
WORK = {"uri": "file:///work", "name": "work"}
DONE = {"content": [{"type": "text", "text": "hello octocat"}], "isError": False}
DONE_C = {**DONE, "resultType": "complete"}


def ir(requests: J = None, state: J = STATE, **extra: J) -> dict[str, J]:
    """An ``input_required`` result (``requests``/``state`` omitted when ``None``)."""
    out: dict[str, J] = {"resultType": "input_required"}
    if requests is not None:
        out["inputRequests"] = requests
    if state is not None:
        out["requestState"] = state
    out.update(extra)
    return out


def case(
    cid: str,
    comment: str,
    rules: list[str],
    flags: list[str],
    inp: dict[str, J],
    expected: dict[str, J],
    origin: str = "handwritten",
) -> dict[str, J]:
    """One vector; the operation's own rule travels with the vectors that pin its wire shape."""
    if any(r.startswith("HARNESS-MRTR-CLIENT") for r in rules):
        rules = [*rules, "MRTR-HARNESS-5"]
    return vector(cid, comment, rules, flags, inp, expected, origin)


def single(
    server: list[J],
    *,
    params: J = None,
    rid: J = 1,
    method: str = "tools/call",
    client: J = None,
    answers: J = None,
    plain: bool = False,
) -> dict[str, J]:
    """A single-request input (``params`` defaults to ``call()`` unless ``plain``)."""
    if params is None and not plain:
        params = call()
    request: dict[str, J] = {"id": rid, "method": method}
    if params is not None:
        request["params"] = params
    out: dict[str, J] = {"request": request, "server": server}
    out["client"] = {"elicitation": True} if client is None else client
    if answers is not None:
        out["answers"] = answers
    return out


ANS = {"name": {"answer": OCTOCAT}}


def _upstream() -> list[dict[str, J]]:
    return [
        case(
            "mrtr-client-two-round-elicitation",
            "ask name, retry with new id, answers and the state on the params; final result",
            ["MRTR-CLIENT-1", "MRTR-CLIENT-5", "HARNESS-MRTR-CLIENT-1"],
            ["Upstream"],
            single([{"result": ir({"name": FORM})}, {"result": DONE_C}], answers=ANS),
            {
                "sent": [
                    rq(1, call(_meta=meta(E))),
                    rq(
                        2, call(_meta=meta(E), inputResponses={"name": OCTOCAT}, requestState=STATE)
                    ),
                ],
                "response": ok(2, DONE_C),
            },
            "upstream-test:client_drives_mrtr_elicitation_end_to_end",
        ),
        case(
            "mrtr-client-complete-first-send",
            "a final result on the first send: one request, nothing fulfilled",
            ["MRTR-CLIENT-1"],
            ["Upstream"],
            single([{"result": DONE_C}]),
            {"sent": [rq(1, call(_meta=meta(E)))], "response": ok(1, DONE_C)},
        ),
        case(
            "mrtr-client-sampling-then-roots",
            "roots answered from the list, then sampling from the handler, across two rounds",
            ["MRTR-CLIENT-4", "MRTR-CLIENT-5"],
            ["Upstream", "Roots"],
            single(
                [
                    {"result": ir({"dirs": ROOTS})},
                    {"result": ir({"describe": SAMPLE}, STATE2)},
                    {"result": DONE_C},
                ],
                params=call("audit"),
                client={"sampling": True, "roots": [WORK]},
                answers={"describe": {"answer": SAMPLED}},
            ),
            {
                "sent": [
                    rq(1, call("audit", _meta=meta({**S, **R}))),
                    rq(
                        2,
                        call(
                            "audit",
                            _meta=meta({**S, **R}),
                            inputResponses={"dirs": {"roots": [WORK]}},
                            requestState=STATE,
                        ),
                    ),
                    rq(
                        3,
                        call(
                            "audit",
                            _meta=meta({**S, **R}),
                            inputResponses={"describe": SAMPLED},
                            requestState=STATE2,
                        ),
                    ),
                ],
                "response": ok(3, DONE_C),
            },
            "upstream-test:client_drives_sampling_and_roots_end_to_end",
        ),
        case(
            "mrtr-client-empty-roots-list-answers",
            "with_roots and no roots: roots declared, answered {roots: []}",
            ["MRTR-CLIENT-2", "MRTR-CLIENT-4"],
            ["Upstream", "Roots"],
            single(
                [{"result": ir({"dirs": ROOTS})}, {"result": DONE_C}],
                params=call("scan"),
                client={"roots": []},
            ),
            {
                "sent": [
                    rq(1, call("scan", _meta=meta(R))),
                    rq(
                        2,
                        call(
                            "scan",
                            _meta=meta(R),
                            inputResponses={"dirs": {"roots": []}},
                            requestState=STATE,
                        ),
                    ),
                ],
                "response": ok(2, DONE_C),
            },
            "upstream-test:a_client_with_an_empty_roots_list_still_answers",
        ),
        case(
            "mrtr-client-zero-round-budget",
            "max_rounds 0: one send, and an elicitation fails with the max-rounds error",
            ["MRTR-CLIENT-6"],
            ["Upstream", "Budget"],
            single(
                [{"result": ir({"name": FORM})}],
                client={"elicitation": True, "max_rounds": 0},
                answers=ANS,
            ),
            {"sent": [rq(1, call(_meta=meta(E)))], "error": loop_error(-32603, ROUNDS)},
            "upstream-test:configurable_max_rounds_caps_the_mrtr_loop",
        ),
        case(
            "mrtr-client-one-round-budget-suffices",
            "max_rounds 1 is enough for a one-question flow (the first send is not counted)",
            ["MRTR-CLIENT-6"],
            ["Upstream", "Budget"],
            single(
                [{"result": ir({"name": FORM})}, {"result": DONE_C}],
                client={"elicitation": True, "max_rounds": 1},
                answers=ANS,
            ),
            {
                "sent": [
                    rq(1, call(_meta=meta(E))),
                    rq(
                        2, call(_meta=meta(E), inputResponses={"name": OCTOCAT}, requestState=STATE)
                    ),
                ],
                "response": ok(2, DONE_C),
            },
            "upstream-test:one_retry_budget_completes_a_single_question_flow",
        ),
        case(
            "mrtr-client-retry-answers-on-params",
            "the retry states requestState and inputResponses on the params, never in _meta",
            ["MRTR-CLIENT-5"],
            ["Upstream"],
            single(
                [{"result": ir({"who": FORM}, "v1.0.sealed")}, {"result": DONE_C}],
                answers={"who": {"answer": {"action": "accept", "content": None}}},
            ),
            {
                "sent": [
                    rq(1, call(_meta=meta(E))),
                    rq(
                        2,
                        call(
                            _meta=meta(E),
                            inputResponses={"who": {"action": "accept", "content": None}},
                            requestState="v1.0.sealed",
                        ),
                    ),
                ],
                "response": ok(2, DONE_C),
            },
            "upstream-test:a_retry_states_its_answers_in_the_params",
        ),
        case(
            "mrtr-client-trace-context-injected",
            "a trace-context provider's traceparent/tracestate/baggage reach every _meta",
            ["MRTR-CLIENT-2"],
            ["Upstream"],
            single(
                [{"result": DONE_C}],
                client={
                    "trace_context": {"traceparent": "tp", "tracestate": "ts", "baggage": "bg"}
                },
            ),
            {
                "sent": [
                    rq(1, call(_meta=meta({}, traceparent="tp", tracestate="ts", baggage="bg")))
                ],
                "response": ok(1, DONE_C),
            },
            "upstream-test:apply_client_meta_injects_trace_context",
        ),
        case(
            "mrtr-client-no-trace-context-without-provider",
            "no provider: no trace fields; capabilities {} still written",
            ["MRTR-CLIENT-2"],
            ["Upstream"],
            single([{"result": DONE_C}], client={}),
            {"sent": [rq(1, call(_meta=meta({})))], "response": ok(1, DONE_C)},
            "upstream-test:apply_client_meta_omits_trace_context_without_provider",
        ),
    ]


def _retry() -> list[dict[str, J]]:
    three = [
        {"result": ir({"a": FORM})},
        {"result": ir({"b": FORM}, STATE2)},
        {"result": DONE_C},
    ]
    ab = {"a": {"answer": OCTOCAT}, "b": {"answer": MONA}}
    cases = [
        case(
            "mrtr-client-only-this-rounds-answers",
            "round 2 asks b: the second retry carries b only, not a (answers never accumulate)",
            ["MRTR-CLIENT-5"],
            ["Retry"],
            single(three, answers=ab),
            {
                "sent": [
                    rq(1, call(_meta=meta(E))),
                    rq(2, call(_meta=meta(E), inputResponses={"a": OCTOCAT}, requestState=STATE)),
                    rq(3, call(_meta=meta(E), inputResponses={"b": MONA}, requestState=STATE2)),
                ],
                "response": ok(3, DONE_C),
            },
        ),
        case(
            "mrtr-client-explicit-next-id",
            "retry ids come from the counter: next_id 100 gives 100, 101",
            ["MRTR-CLIENT-5", "HARNESS-MRTR-CLIENT-1"],
            ["Retry"],
            single(three, client={"elicitation": True, "next_id": 100}, answers=ab),
            {
                "sent": [
                    rq(1, call(_meta=meta(E))),
                    rq(100, call(_meta=meta(E), inputResponses={"a": OCTOCAT}, requestState=STATE)),
                    rq(101, call(_meta=meta(E), inputResponses={"b": MONA}, requestState=STATE2)),
                ],
                "response": ok(101, DONE_C),
            },
        ),
        case(
            "mrtr-client-default-next-id-follows-request-id",
            "without next_id the counter starts one past the request's own id (41 -> 42)",
            ["HARNESS-MRTR-CLIENT-1"],
            ["Retry"],
            single([{"result": ir({"name": FORM})}, {"result": DONE_C}], rid=41, answers=ANS),
            {
                "sent": [
                    rq(41, call(_meta=meta(E))),
                    rq(
                        42,
                        call(_meta=meta(E), inputResponses={"name": OCTOCAT}, requestState=STATE),
                    ),
                ],
                "response": ok(42, DONE_C),
            },
        ),
        case(
            "mrtr-client-string-id-retries-get-numbers",
            "a string request id: retries still get numeric ids from the counter (1)",
            ["MRTR-CLIENT-5", "HARNESS-MRTR-CLIENT-1"],
            ["Retry"],
            single([{"result": ir({"name": FORM})}, {"result": DONE_C}], rid="call-a", answers=ANS),
            {
                "sent": [
                    rq("call-a", call(_meta=meta(E))),
                    rq(
                        1, call(_meta=meta(E), inputResponses={"name": OCTOCAT}, requestState=STATE)
                    ),
                ],
                "response": ok(1, DONE_C),
            },
        ),
        case(
            "mrtr-client-id-counter-wraps",
            "neva's AtomicI64 counter wraps from i64::MAX to i64::MIN",
            ["HARNESS-MRTR-CLIENT-1"],
            ["Retry"],
            single(
                three,
                client={"elicitation": True, "next_id": 9223372036854775807},
                answers=ab,
            ),
            {
                "sent": [
                    rq(1, call(_meta=meta(E))),
                    rq(
                        9223372036854775807,
                        call(_meta=meta(E), inputResponses={"a": OCTOCAT}, requestState=STATE),
                    ),
                    rq(
                        -9223372036854775808,
                        call(_meta=meta(E), inputResponses={"b": MONA}, requestState=STATE2),
                    ),
                ],
                "response": ok(-9223372036854775808, DONE_C),
            },
        ),
        case(
            "mrtr-client-state-omitted-when-none-sent",
            "no requestState in the result: the retry has inputResponses and no requestState",
            ["MRTR-CLIENT-5"],
            ["Retry", "State"],
            single([{"result": ir({"name": FORM}, None)}, {"result": DONE_C}], answers=ANS),
            {
                "sent": [
                    rq(1, call(_meta=meta(E))),
                    rq(2, call(_meta=meta(E), inputResponses={"name": OCTOCAT})),
                ],
                "response": ok(2, DONE_C),
            },
        ),
        case(
            "mrtr-client-null-state-is-none",
            "requestState null reads as none: omitted, never sent as null",
            ["MRTR-CLIENT-3", "MRTR-CLIENT-5"],
            ["Retry", "State"],
            single(
                [
                    {
                        "result": {
                            "resultType": "input_required",
                            "inputRequests": {"name": FORM},
                            "requestState": None,
                        }
                    },
                    {"result": DONE_C},
                ],
                answers=ANS,
            ),
            {
                "sent": [
                    rq(1, call(_meta=meta(E))),
                    rq(2, call(_meta=meta(E), inputResponses={"name": OCTOCAT})),
                ],
                "response": ok(2, DONE_C),
            },
        ),
        case(
            "mrtr-client-state-not-carried-forward",
            "round 2 sends no state: the second retry does not reuse round 1's",
            ["MRTR-CLIENT-5"],
            ["Retry", "State"],
            single(
                [
                    {"result": ir({"a": FORM})},
                    {"result": ir({"b": FORM}, None)},
                    {"result": DONE_C},
                ],
                answers=ab,
            ),
            {
                "sent": [
                    rq(1, call(_meta=meta(E))),
                    rq(2, call(_meta=meta(E), inputResponses={"a": OCTOCAT}, requestState=STATE)),
                    rq(3, call(_meta=meta(E), inputResponses={"b": MONA})),
                ],
                "response": ok(3, DONE_C),
            },
        ),
        case(
            "mrtr-client-same-key-asked-again",
            "the same key asked in two rounds is fulfilled twice; each retry carries it once",
            ["MRTR-CLIENT-5"],
            ["Retry"],
            single(
                [
                    {"result": ir({"name": FORM})},
                    {"result": ir({"name": FORM}, STATE2)},
                    {"result": DONE_C},
                ],
                answers=ANS,
            ),
            {
                "sent": [
                    rq(1, call(_meta=meta(E))),
                    rq(
                        2, call(_meta=meta(E), inputResponses={"name": OCTOCAT}, requestState=STATE)
                    ),
                    rq(
                        3,
                        call(_meta=meta(E), inputResponses={"name": OCTOCAT}, requestState=STATE2),
                    ),
                ],
                "response": ok(3, DONE_C),
            },
        ),
    ]
    for cid, state, comment in (
        ("mrtr-client-state-echo-spaces", " v1 . odd state ", "surrounding and inner spaces"),
        ("mrtr-client-state-echo-unicode", "état·状態·\u2028", "non-ASCII and U+2028"),
        ("mrtr-client-state-echo-empty", "", 'the empty string is a state, echoed as ""'),
        ("mrtr-client-state-echo-escapes", 'a"b\\c\n\t/', "quotes, backslash, control characters"),
        (
            "mrtr-client-state-echo-long",
            "v1.0." + "A" * 9000,
            "longer than the server's cap: not the client's business",
        ),
    ):
        cases.append(
            case(
                cid,
                f"requestState echoed byte for byte: {comment}",
                ["MRTR-CLIENT-5"],
                ["State"],
                single([{"result": ir({"name": FORM}, state)}, {"result": DONE_C}], answers=ANS),
                {
                    "sent": [
                        rq(1, call(_meta=meta(E))),
                        rq(
                            2,
                            call(
                                _meta=meta(E), inputResponses={"name": OCTOCAT}, requestState=state
                            ),
                        ),
                    ],
                    "response": ok(2, DONE_C),
                },
            )
        )
    for cid, requests, comment in (
        ("mrtr-client-no-input-requests", None, "absent"),
        ("mrtr-client-null-input-requests", "null", "null"),
        ("mrtr-client-empty-input-requests", {}, "{}"),
    ):
        result = (
            ir(None)
            if requests is None
            else (ir(None, inputRequests=None) if requests == "null" else ir(requests))
        )
        cases.append(
            case(
                cid,
                f"inputRequests {comment}: nothing fulfilled, the retry sends inputResponses {{}} and the state",
                ["MRTR-CLIENT-3", "MRTR-CLIENT-5"],
                ["Empty"],
                single([{"result": result}, {"result": DONE_C}], client={}),
                {
                    "sent": [
                        rq(1, call(_meta=meta({}))),
                        rq(2, call(_meta=meta({}), inputResponses={}, requestState=STATE)),
                    ],
                    "response": ok(2, DONE_C),
                },
            )
        )
    cases.append(
        case(
            "mrtr-client-empty-requests-no-state",
            "nothing asked and no state: the retry still carries inputResponses {}",
            ["MRTR-CLIENT-5"],
            ["Empty"],
            single([{"result": ir({}, None)}, {"result": DONE_C}], client={}),
            {
                "sent": [
                    rq(1, call(_meta=meta({}))),
                    rq(2, call(_meta=meta({}), inputResponses={})),
                ],
                "response": ok(2, DONE_C),
            },
        )
    )
    return cases


def _params() -> list[dict[str, J]]:
    two = [{"result": ir({"name": FORM})}, {"result": DONE_C}]
    tail = {"inputResponses": {"name": OCTOCAT}, "requestState": STATE}
    cases = []

    def add(
        cid: str,
        comment: str,
        params: J,
        first: J,
        retry: J,
        rules: list[str],
        flags: list[str],
        **kw: J,
    ) -> None:
        cases.append(
            case(
                cid,
                comment,
                rules,
                flags,
                single(two, params=params, answers=ANS, plain=params is None, **kw),
                {"sent": [rq(1, first), rq(2, retry)], "response": ok(2, DONE_C)},
            )
        )

    add(
        "mrtr-client-caller-mrtr-fields-overwritten",
        "the caller's own requestState/inputResponses: sent as given, then inputResponses replaced",
        call(requestState="caller", inputResponses={"x": 1}),
        call(requestState="caller", inputResponses={"x": 1}, _meta=meta(E)),
        call(requestState=STATE, inputResponses={"name": OCTOCAT}, _meta=meta(E)),
        ["MRTR-CLIENT-5"],
        ["Params"],
    )
    cases[-1]["comment"] += " and requestState overwritten by the server's"
    cases.append(
        case(
            "mrtr-client-caller-state-kept-without-server-state",
            "the server sends no state: the caller's own requestState stays on the retry",
            ["MRTR-CLIENT-5"],
            ["Params"],
            single(
                [{"result": ir({"name": FORM}, None)}, {"result": DONE_C}],
                params=call(requestState="caller"),
                answers=ANS,
            ),
            {
                "sent": [
                    rq(1, call(requestState="caller", _meta=meta(E))),
                    rq(
                        2,
                        call(
                            requestState="caller", _meta=meta(E), inputResponses={"name": OCTOCAT}
                        ),
                    ),
                ],
                "response": ok(2, DONE_C),
            },
        )
    )
    add(
        "mrtr-client-custom-meta-keys-kept",
        "caller _meta keys neva does not model are kept on every request",
        call(_meta={"com.example/x": [1, 2], "progressToken": 7}),
        call(_meta={"com.example/x": [1, 2], "progressToken": 7, **meta(E)}),
        call(_meta={"com.example/x": [1, 2], "progressToken": 7, **meta(E)}, **tail),
        ["MRTR-CLIENT-2", "MRTR-CLIENT-5"],
        ["Meta"],
    )
    add(
        "mrtr-client-legacy-meta-fields-kept",
        "a caller's _meta.requestState/inputResponses are merged around, not stripped",
        call(_meta={"requestState": "old", "inputResponses": {"k": 1}}),
        call(_meta={"requestState": "old", "inputResponses": {"k": 1}, **meta(E)}),
        call(_meta={"requestState": "old", "inputResponses": {"k": 1}, **meta(E)}, **tail),
        ["MRTR-CLIENT-2"],
        ["Meta"],
    )
    add(
        "mrtr-client-caller-client-fields-overwritten",
        "the caller's clientInfo, protocolVersion and clientCapabilities are overwritten",
        call(
            _meta={
                "io.modelcontextprotocol/clientInfo": {"name": "me", "version": "9"},
                "io.modelcontextprotocol/protocolVersion": "2025-06-18",
                "io.modelcontextprotocol/clientCapabilities": {"sampling": {}, "roots": {}},
            }
        ),
        call(_meta=meta(E)),
        call(_meta=meta(E), **tail),
        ["MRTR-CLIENT-2"],
        ["Meta"],
    )
    for cid, token, written, comment in (
        (
            "mrtr-client-progress-token-uuid-respelled",
            "550E8400-E29B-41D4-A716-446655440000",
            "550e8400-e29b-41d4-a716-446655440000",
            "a UUID string comes back canonical",
        ),
        (
            "mrtr-client-progress-token-simple-uuid",
            "550e8400e29b41d4a716446655440000",
            "550e8400-e29b-41d4-a716-446655440000",
            "a 32-hex UUID comes back hyphenated",
        ),
        (
            "mrtr-client-progress-token-path-respelled",
            "job/007/+5",
            "job/7/5",
            "a / path re-spells integer segments",
        ),
        (
            "mrtr-client-progress-token-u64-wraps",
            18446744073709551615,
            -1,
            "a u64 above i64::MAX wraps",
        ),
        (
            "mrtr-client-progress-token-plain-string",
            "tok-1",
            "tok-1",
            "a plain string is unchanged",
        ),
    ):
        add(
            cid,
            f"progressToken read as neva's ProgressToken and written back: {comment}",
            call(_meta={"progressToken": token}),
            call(_meta={"progressToken": written, **meta(E)}),
            call(_meta={"progressToken": written, **meta(E)}, **tail),
            ["MRTR-CLIENT-2"],
            ["Meta"],
        )
    add(
        "mrtr-client-meta-not-an-object-replaced",
        "a non-object _meta is replaced by the client's",
        call(_meta=5),
        call(_meta=meta(E)),
        call(_meta=meta(E), **tail),
        ["MRTR-CLIENT-2"],
        ["Meta"],
    )
    add(
        "mrtr-client-meta-null-replaced",
        "_meta null is replaced by the client's",
        call(_meta=None),
        call(_meta=meta(E)),
        call(_meta=meta(E), **tail),
        ["MRTR-CLIENT-2"],
        ["Meta"],
    )
    add(
        "mrtr-client-meta-failing-typed-read-merged",
        "a _meta the typed read refuses (traceparent 5) is kept as is and extended",
        call(_meta={"traceparent": 5, "com.example/y": True}),
        call(_meta={"traceparent": 5, "com.example/y": True, **meta(E)}),
        call(_meta={"traceparent": 5, "com.example/y": True, **meta(E)}, **tail),
        ["MRTR-CLIENT-2"],
        ["Meta"],
    )
    seq = ["tok", "tp", None, None, {"name": "x", "version": "1"}, None, None, "info", None, None]
    typed = {
        "progressToken": "tok",
        "traceparent": "tp",
        "io.modelcontextprotocol/logLevel": "info",
    }
    add(
        "mrtr-client-meta-sequence-form-replaced",
        "a full 10-slot _meta array (serde's sequence form) reads, and is replaced by its typed fields",
        call(_meta=seq),
        call(_meta={**typed, **meta(E)}),
        call(_meta={**typed, **meta(E)}, **tail),
        ["MRTR-CLIENT-2"],
        ["Meta"],
    )
    seq_trace = ["tok", "tp", "ts", "bg", {"name": "x", "version": "1"}, None, None, "info", None]
    typed_trace = {
        "progressToken": "tok",
        "traceparent": "tp",
        "tracestate": "ts",
        "baggage": "bg",
        "io.modelcontextprotocol/logLevel": "info",
    }
    add(
        "mrtr-client-meta-sequence-form-trace-kept",
        "a _meta array's tracestate and baggage slots (3 and 4) are typed fields neva keeps",
        call(_meta=[*seq_trace, None]),
        call(_meta={**typed_trace, **meta(E)}),
        call(_meta={**typed_trace, **meta(E)}, **tail),
        ["MRTR-CLIENT-2"],
        ["Meta"],
    )
    add(
        "mrtr-client-meta-short-sequence-replaced",
        "a 2-slot _meta array fails the typed read (Option slots are not defaulted): replaced",
        call(_meta=["tok", "tp"]),
        call(_meta=meta(E)),
        call(_meta=meta(E), **tail),
        ["MRTR-CLIENT-2"],
        ["Meta"],
    )
    add(
        "mrtr-client-absent-params-get-meta",
        "a request without params gets {_meta}; its retry {_meta, inputResponses, requestState}",
        None,
        {"_meta": meta(E)},
        {"_meta": meta(E), **tail},
        ["MRTR-CLIENT-2", "MRTR-CLIENT-5"],
        ["Params"],
    )
    add(
        "mrtr-client-array-params-untouched-then-replaced",
        "array params get no _meta; the retry replaces them with the MRTR fields alone",
        [1, 2],
        [1, 2],
        dict(tail),
        ["MRTR-CLIENT-2", "MRTR-CLIENT-5"],
        ["Params"],
    )
    add(
        "mrtr-client-string-params-untouched-then-replaced",
        "string params get no _meta; the retry replaces them with the MRTR fields alone",
        "x",
        "x",
        dict(tail),
        ["MRTR-CLIENT-2", "MRTR-CLIENT-5"],
        ["Params"],
    )
    add(
        "mrtr-client-trace-without-tracestate-keeps-callers",
        "a provider without tracestate leaves the caller's tracestate in place",
        call(_meta={"tracestate": "mine"}),
        call(_meta={"tracestate": "mine", **meta(E), "traceparent": "tp"}),
        call(_meta={"tracestate": "mine", **meta(E), "traceparent": "tp"}, **tail),
        ["MRTR-CLIENT-2"],
        ["Meta"],
        client={"elicitation": True, "trace_context": {"traceparent": "tp"}},
    )
    add(
        "mrtr-client-log-level-written",
        "a configured log level is written as io.modelcontextprotocol/logLevel",
        call(),
        call(_meta=meta(E, **{"io.modelcontextprotocol/logLevel": "warning"})),
        call(_meta=meta(E, **{"io.modelcontextprotocol/logLevel": "warning"}), **tail),
        ["MRTR-CLIENT-2"],
        ["Meta"],
        client={"elicitation": True, "log_level": "warning"},
    )
    add(
        "mrtr-client-custom-client-info",
        "the configured client_info is written as given",
        call(),
        call(
            _meta={**meta(E), "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"}}
        ),
        call(
            _meta={**meta(E), "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"}},
            **tail,
        ),
        ["MRTR-CLIENT-2"],
        ["Meta"],
        client={"elicitation": True, "client_info": {"name": "c", "version": "1"}},
    )
    add(
        "mrtr-client-all-capabilities-declared",
        "handlers for elicitation and sampling plus roots: all three declared as {}",
        call(),
        call(_meta=meta({**E, **S, **R})),
        call(_meta=meta({**E, **S, **R}), **tail),
        ["MRTR-CLIENT-2"],
        ["Meta"],
        client={"elicitation": True, "sampling": True, "roots": [WORK]},
    )
    add(
        "mrtr-client-original-params-not-retry-params",
        "prompts/get: each retry starts from the caller's params again",
        {"name": "p", "arguments": {"lang": "en"}},
        {"name": "p", "arguments": {"lang": "en"}, "_meta": meta(E)},
        {"name": "p", "arguments": {"lang": "en"}, "_meta": meta(E), **tail},
        ["MRTR-CLIENT-1", "MRTR-CLIENT-5"],
        ["Params"],
    )
    cases[-1]["input"]["request"]["method"] = "prompts/get"
    for sent in cases[-1]["expected"]["sent"]:
        sent["method"] = "prompts/get"
    return cases


def _which() -> list[dict[str, J]]:
    cases = []
    for method in ("tools/list", "custom/echo", "completion/complete"):
        cases.append(
            case(
                f"mrtr-client-non-mrtr-method-{method.replace('/', '-')}",
                f"{method} is not an MRTR method: an input_required result is final at once",
                ["MRTR-CLIENT-1"],
                ["Which"],
                single(
                    [{"result": ir({"name": FORM})}], params={"x": 1}, method=method, answers=ANS
                ),
                {
                    "sent": [rq(1, {"x": 1, "_meta": meta(E)}, method)],
                    "response": ok(1, ir({"name": FORM})),
                },
            )
        )
    cases.append(
        case(
            "mrtr-client-resources-read-loops",
            "resources/read is an MRTR method and loops",
            ["MRTR-CLIENT-1"],
            ["Which"],
            single(
                [{"result": ir({"name": FORM})}, {"result": {"contents": []}}],
                params={"uri": "file:///a"},
                method="resources/read",
                answers=ANS,
            ),
            {
                "sent": [
                    rq(1, {"uri": "file:///a", "_meta": meta(E)}, "resources/read"),
                    rq(
                        2,
                        {
                            "uri": "file:///a",
                            "_meta": meta(E),
                            "inputResponses": {"name": OCTOCAT},
                            "requestState": STATE,
                        },
                        "resources/read",
                    ),
                ],
                "response": ok(2, {"contents": []}),
            },
        )
    )
    for cid, result, comment in (
        (
            "mrtr-client-result-type-absent-is-final",
            {"content": []},
            "no resultType reads as complete",
        ),
        (
            "mrtr-client-result-type-task-is-final",
            {"resultType": "task", "inputRequests": {"name": FORM}},
            "task (no tasks feature) is final",
        ),
        (
            "mrtr-client-result-type-case-sensitive",
            {"resultType": "INPUT_REQUIRED", "inputRequests": {"name": FORM}},
            "INPUT_REQUIRED is not input_required",
        ),
        (
            "mrtr-client-result-type-not-a-string",
            {"resultType": 1, "inputRequests": {"name": FORM}},
            "a non-string resultType is final",
        ),
        ("mrtr-client-result-array-is-final", ["input_required"], "a non-object result is final"),
        ("mrtr-client-result-null-is-final", None, "a null result is final"),
    ):
        cases.append(
            case(
                cid,
                comment,
                ["MRTR-CLIENT-1"],
                ["Which"],
                single([{"result": result}], answers=ANS),
                {"sent": [rq(1, call(_meta=meta(E)))], "response": ok(1, result)},
            )
        )
    cases.append(
        case(
            "mrtr-client-missing-capability-error-is-final",
            "a -32021 error response is returned, never retried",
            ["MRTR-CLIENT-7"],
            ["Errors"],
            single(
                [
                    {
                        "error": {
                            "code": -32021,
                            "message": "server requested `elicitation/create` but the client did not declare support",
                            "data": {"requiredCapabilities": {"elicitation": {"form": {}}}},
                        }
                    }
                ],
                client={},
            ),
            {
                "sent": [rq(1, call(_meta=meta({})))],
                "response": err(
                    1,
                    -32021,
                    "server requested `elicitation/create` but the client did not declare support",
                    {"requiredCapabilities": {"elicitation": {"form": {}}}},
                ),
            },
            "upstream-test:eliciting_without_declared_capability_is_rejected",
        )
    )
    cases.append(
        case(
            "mrtr-client-error-after-a-round-is-final",
            "an error response to the retry ends the call with that response (data null)",
            ["MRTR-CLIENT-7"],
            ["Errors"],
            single(
                [
                    {"result": ir({"name": FORM})},
                    {"error": {"code": -32602, "message": "requestState expired"}},
                ],
                answers=ANS,
            ),
            {
                "sent": [
                    rq(1, call(_meta=meta(E))),
                    rq(
                        2, call(_meta=meta(E), inputResponses={"name": OCTOCAT}, requestState=STATE)
                    ),
                ],
                "response": err(2, -32602, "requestState expired"),
            },
        )
    )
    cases.append(
        case(
            "mrtr-client-deprecated-code-kept",
            "a -32002 error response is returned with its code as sent",
            ["MRTR-CLIENT-7"],
            ["Errors"],
            single([{"error": {"code": -32002, "message": "gone", "data": None}}]),
            {"sent": [rq(1, call(_meta=meta(E)))], "response": err(1, -32002, "gone")},
        )
    )
    return cases


def _budget() -> list[dict[str, J]]:
    def asks(n: int) -> list[J]:
        return [{"result": ir({"name": FORM}, f"s{i}")} for i in range(n)]

    def retries(n: int) -> list[J]:
        out = [rq(1, call(_meta=meta(E)))]
        for i in range(n):
            out.append(
                rq(
                    i + 2,
                    call(_meta=meta(E), inputResponses={"name": OCTOCAT}, requestState=f"s{i}"),
                )
            )
        return out

    return [
        case(
            "mrtr-client-default-budget-exhausted",
            "default 8: nine sends (1 + 8 re-issues), then the max-rounds error",
            ["MRTR-CLIENT-6"],
            ["Budget"],
            single(asks(9), answers=ANS),
            {"sent": retries(8), "error": loop_error(-32603, ROUNDS)},
        ),
        case(
            "mrtr-client-default-budget-last-retry-completes",
            "default 8: eight asks and a final on the ninth send completes",
            ["MRTR-CLIENT-6"],
            ["Budget"],
            single([*asks(8), {"result": DONE_C}], answers=ANS),
            {"sent": retries(8), "response": ok(9, DONE_C)},
        ),
        case(
            "mrtr-client-budget-two-exhausted",
            "max_rounds 2: three sends, then the error",
            ["MRTR-CLIENT-6"],
            ["Budget"],
            single(asks(3), client={"elicitation": True, "max_rounds": 2}, answers=ANS),
            {"sent": retries(2), "error": loop_error(-32603, ROUNDS)},
        ),
        case(
            "mrtr-client-zero-budget-final-completes",
            "max_rounds 0 and a final first answer: completes",
            ["MRTR-CLIENT-6"],
            ["Budget"],
            single([{"result": DONE_C}], client={"elicitation": True, "max_rounds": 0}),
            {"sent": [rq(1, call(_meta=meta(E)))], "response": ok(1, DONE_C)},
        ),
        case(
            "mrtr-client-last-round-fulfil-failure-beats-budget",
            "the last round's inputs are still fulfilled: a failure there wins over max-rounds",
            ["MRTR-CLIENT-6", "MRTR-CLIENT-4"],
            ["Budget"],
            single(
                asks(1),
                client={"elicitation": True, "max_rounds": 0},
                answers={"name": {"fail": {"code": -32603, "message": "user went away"}}},
            ),
            {"sent": [rq(1, call(_meta=meta(E)))], "error": loop_error(-32603, "user went away")},
        ),
        case(
            "mrtr-client-last-round-missing-handler-beats-budget",
            "no handler on the last round: -32600, not the max-rounds error",
            ["MRTR-CLIENT-6", "MRTR-CLIENT-4"],
            ["Budget"],
            single(asks(1), client={"max_rounds": 0}),
            {
                "sent": [rq(1, call(_meta=meta({})))],
                "error": loop_error(
                    -32600, "server requested elicitation but no handler is configured"
                ),
            },
        ),
        case(
            "mrtr-client-last-round-malformed-beats-budget",
            "an unreadable result on the last round: -32700, not the max-rounds error",
            ["MRTR-CLIENT-6", "MRTR-CLIENT-3"],
            ["Budget", "Malformed"],
            single(
                [{"result": ir({"k": {"method": "sorcery/summon"}})}],
                client={"elicitation": True, "max_rounds": 0},
            ),
            {
                "sent": [rq(1, call(_meta=meta(E)))],
                "error": loop_error(-32700, "unknown MRTR input request method `sorcery/summon`"),
            },
        ),
    ]


def _fulfil() -> list[dict[str, J]]:
    def one(
        cid: str,
        comment: str,
        result: J,
        client: J,
        answers: J,
        error: J,
        rules: list[str],
        flags: list[str],
    ) -> J:
        return case(
            cid,
            comment,
            rules,
            flags,
            single([{"result": result}], client=client, answers=answers),
            {"sent": [rq(1, call(_meta=meta(_caps(client))))], "error": error},
        )

    return [
        one(
            "mrtr-client-no-elicitation-handler",
            "elicitation asked with no handler: -32600, nothing re-sent",
            ir({"name": FORM}),
            {},
            None,
            loop_error(-32600, "server requested elicitation but no handler is configured"),
            ["MRTR-CLIENT-4"],
            ["Fulfil"],
        ),
        one(
            "mrtr-client-no-sampling-handler",
            "sampling asked with only an elicitation handler: -32600 naming sampling",
            ir({"describe": SAMPLE}),
            {"elicitation": True},
            None,
            loop_error(-32600, "server requested sampling but no handler is configured"),
            ["MRTR-CLIENT-4"],
            ["Fulfil"],
        ),
        one(
            "mrtr-client-fulfil-failure-aborts",
            "a failing handler aborts the call with its error",
            ir({"name": FORM}),
            {"elicitation": True},
            {"name": {"fail": {"code": -32602, "message": "bad form"}}},
            loop_error(-32602, "bad form"),
            ["MRTR-CLIENT-4"],
            ["Fulfil"],
        ),
        one(
            "mrtr-client-fulfil-failure-code-mapped",
            "a failure code outside neva's ErrorCode becomes -32603 (Error::new)",
            ir({"name": FORM}),
            {"elicitation": True},
            {"name": {"fail": {"code": -32000, "message": "custom"}}},
            loop_error(-32603, "custom"),
            ["MRTR-CLIENT-4", "HARNESS-MRTR-CLIENT-1"],
            ["Fulfil"],
        ),
        one(
            "mrtr-client-one-of-two-fails",
            "two keys, one failing: the call fails whichever is fulfilled first",
            ir({"a": FORM, "b": FORM}),
            {"elicitation": True},
            {"a": {"answer": OCTOCAT}, "b": {"fail": {"code": -32603, "message": "b failed"}}},
            loop_error(-32603, "b failed"),
            ["MRTR-CLIENT-4"],
            ["Fulfil"],
        ),
        one(
            "mrtr-client-missing-handler-among-several",
            "elicitation answered, sampling without a handler: the whole call fails",
            ir({"name": FORM, "describe": SAMPLE}),
            {"elicitation": True},
            ANS,
            loop_error(-32600, "server requested sampling but no handler is configured"),
            ["MRTR-CLIENT-4"],
            ["Fulfil"],
        ),
        case(
            "mrtr-client-roots-answered-without-capability",
            "roots asked of a client that declared none: answered {roots: []} anyway",
            ["MRTR-CLIENT-4"],
            ["Roots"],
            single([{"result": ir({"dirs": ROOTS})}, {"result": DONE_C}], client={}),
            {
                "sent": [
                    rq(1, call(_meta=meta({}))),
                    rq(
                        2,
                        call(
                            _meta=meta({}),
                            inputResponses={"dirs": {"roots": []}},
                            requestState=STATE,
                        ),
                    ),
                ],
                "response": ok(2, DONE_C),
            },
        ),
        case(
            "mrtr-client-roots-with-meta-answered-as-configured",
            "a configured root with _meta answered as neva's Root writes it (one root: neva lists several in HashMap order)",
            ["MRTR-CLIENT-4"],
            ["Roots"],
            single(
                [{"result": ir({"dirs": {"method": "roots/list"}})}, {"result": DONE_C}],
                client={"roots": [{"uri": "file:///b", "name": "b", "_meta": {"k": 1}}]},
            ),
            {
                "sent": [
                    rq(1, call(_meta=meta(R))),
                    rq(
                        2,
                        call(
                            _meta=meta(R),
                            inputResponses={
                                "dirs": {
                                    "roots": [{"uri": "file:///b", "name": "b", "_meta": {"k": 1}}]
                                }
                            },
                            requestState=STATE,
                        ),
                    ),
                ],
                "response": ok(2, DONE_C),
            },
        ),
        case(
            "mrtr-client-three-kinds-one-round",
            "one result asking all three kinds: one retry answering all three",
            ["MRTR-CLIENT-4", "MRTR-CLIENT-5"],
            ["Fulfil"],
            single(
                [
                    {"result": ir({"who": FORM, "dirs": ROOTS, "greeting": SAMPLE})},
                    {"result": DONE_C},
                ],
                client={"elicitation": True, "sampling": True, "roots": [WORK]},
                answers={"who": {"answer": OCTOCAT}, "greeting": {"answer": SAMPLED}},
            ),
            {
                "sent": [
                    rq(1, call(_meta=meta({**E, **S, **R}))),
                    rq(
                        2,
                        call(
                            _meta=meta({**E, **S, **R}),
                            inputResponses={
                                "who": OCTOCAT,
                                "dirs": {"roots": [WORK]},
                                "greeting": SAMPLED,
                            },
                            requestState=STATE,
                        ),
                    ),
                ],
                "response": ok(2, DONE_C),
            },
            "upstream-test:one_round_carries_every_input_the_handler_asked_for",
        ),
        case(
            "mrtr-client-answer-sent-verbatim",
            "the handler's answer is sent as given (here a decline with content null)",
            ["MRTR-CLIENT-5"],
            ["Fulfil"],
            single(
                [{"result": ir({"name": FORM})}, {"result": DONE_C}],
                answers={"name": {"answer": {"action": "decline", "content": None}}},
            ),
            {
                "sent": [
                    rq(1, call(_meta=meta(E))),
                    rq(
                        2,
                        call(
                            _meta=meta(E),
                            inputResponses={"name": {"action": "decline", "content": None}},
                            requestState=STATE,
                        ),
                    ),
                ],
                "response": ok(2, DONE_C),
            },
        ),
        case(
            "mrtr-client-url-elicitation-fulfilled",
            "a url-mode elicitation goes to the same handler (no modes are declared)",
            ["MRTR-CLIENT-2", "MRTR-CLIENT-4"],
            ["Fulfil"],
            single(
                [
                    {
                        "result": ir(
                            {
                                "login": {
                                    "method": "elicitation/create",
                                    "params": {
                                        "mode": "url",
                                        "message": "m",
                                        "url": "https://e.io",
                                    },
                                }
                            }
                        )
                    },
                    {"result": DONE_C},
                ],
                answers={"login": {"answer": {"action": "accept", "content": None}}},
            ),
            {
                "sent": [
                    rq(1, call(_meta=meta(E))),
                    rq(
                        2,
                        call(
                            _meta=meta(E),
                            inputResponses={"login": {"action": "accept", "content": None}},
                            requestState=STATE,
                        ),
                    ),
                ],
                "response": ok(2, DONE_C),
            },
        ),
    ]


def _caps(client: J) -> dict[str, J]:
    out: dict[str, J] = {}
    if client.get("elicitation"):
        out["elicitation"] = {}
    if client.get("sampling"):
        out["sampling"] = {}
    if client.get("roots") is not None:
        out["roots"] = {}
    return out


def _malformed() -> list[dict[str, J]]:
    cases = []
    for cid, result, message in (
        (
            "mrtr-client-malformed-requests-number",
            ir(5),
            "invalid type: integer `5`, expected a map",
        ),
        (
            "mrtr-client-malformed-requests-array",
            ir([FORM]),
            "invalid type: sequence, expected a map",
        ),
        (
            "mrtr-client-malformed-unknown-method",
            ir({"k": {"method": "sorcery/summon", "params": {}}}),
            "unknown MRTR input request method `sorcery/summon`",
        ),
        (
            "mrtr-client-malformed-elicit-no-params",
            ir({"k": {"method": "elicitation/create"}}),
            "missing field `message`",
        ),
        (
            "mrtr-client-malformed-sampling-no-max-tokens",
            ir({"k": {"method": "sampling/createMessage", "params": {"messages": []}}}),
            "missing field `maxTokens`",
        ),
        (
            "mrtr-client-malformed-mode-number",
            ir({"k": {"method": "elicitation/create", "params": {"mode": 1, "message": "m"}}}),
            "`mode` must be a string",
        ),
        (
            "mrtr-client-malformed-envelope-string",
            ir({"k": "elicitation/create"}),
            'invalid type: string "elicitation/create", expected struct Envelope',
        ),
        (
            "mrtr-client-malformed-state-number",
            ir({"name": FORM}, 5),
            "invalid type: integer `5`, expected a string",
        ),
        (
            "mrtr-client-malformed-state-object",
            ir({"name": FORM}, {"v": 1}),
            "invalid type: map, expected a string",
        ),
        (
            "mrtr-client-malformed-one-good-one-bad",
            ir({"a": FORM, "b": {"method": "x/y"}}),
            "unknown MRTR input request method `x/y`",
        ),
    ):
        cases.append(
            case(
                cid,
                f"an input_required result neva cannot read: -32700 before anything is fulfilled ({message})",
                ["MRTR-CLIENT-3", "HARNESS-MRTR-CLIENT-3"],
                ["Malformed"],
                single(
                    [{"result": result}],
                    answers={"name": {"answer": OCTOCAT}, "a": {"answer": OCTOCAT}},
                ),
                {"sent": [rq(1, call(_meta=meta(E)))], "error": loop_error(-32700, message)},
            )
        )
    cases.append(
        case(
            "mrtr-client-malformed-on-non-mrtr-method-is-final",
            "on a custom method the unreadable result is simply final",
            ["MRTR-CLIENT-1", "MRTR-CLIENT-3"],
            ["Malformed", "Which"],
            single([{"result": ir(5)}], params={}, method="custom/x"),
            {"sent": [rq(1, {"_meta": meta(E)}, "custom/x")], "response": ok(1, ir(5))},
        )
    )
    cases.append(
        case(
            "mrtr-client-malformed-after-a-round",
            "the second result is unreadable: the call fails after two sends",
            ["MRTR-CLIENT-3"],
            ["Malformed"],
            single(
                [{"result": ir({"name": FORM})}, {"result": ir({"name": FORM}, 7)}], answers=ANS
            ),
            {
                "sent": [
                    rq(1, call(_meta=meta(E))),
                    rq(
                        2, call(_meta=meta(E), inputResponses={"name": OCTOCAT}, requestState=STATE)
                    ),
                ],
                "error": loop_error(-32700, "invalid type: integer `7`, expected a string"),
            },
        )
    )
    return cases


def _transport() -> list[dict[str, J]]:
    return [
        case(
            "mrtr-client-transport-timeout-first-send",
            "the first send times out: the call fails with the transport's error",
            ["MRTR-CLIENT-7"],
            ["Transport"],
            single([{"fail": {"code": -99998, "message": "Request timed out"}}]),
            {
                "sent": [rq(1, call(_meta=meta(E)))],
                "error": loop_error(-99998, "Request timed out"),
            },
        ),
        case(
            "mrtr-client-transport-failure-on-retry",
            "the retry's send fails: the call fails, nothing more is sent",
            ["MRTR-CLIENT-7"],
            ["Transport"],
            single(
                [
                    {"result": ir({"name": FORM})},
                    {"fail": {"code": -32603, "message": "Connection closed"}},
                ],
                answers=ANS,
            ),
            {
                "sent": [
                    rq(1, call(_meta=meta(E))),
                    rq(
                        2, call(_meta=meta(E), inputResponses={"name": OCTOCAT}, requestState=STATE)
                    ),
                ],
                "error": loop_error(-32603, "Connection closed"),
            },
        ),
        case(
            "mrtr-client-transport-failure-code-mapped",
            "a transport failure code outside neva's set becomes -32603",
            ["MRTR-CLIENT-7", "HARNESS-MRTR-CLIENT-1"],
            ["Transport"],
            single([{"fail": {"code": 7, "message": "odd"}}]),
            {"sent": [rq(1, call(_meta=meta(E)))], "error": loop_error(-32603, "odd")},
        ),
    ]


def _invalid() -> list[dict[str, J]]:
    bad = {"error": {"kind": "invalid_input", "message": ""}}
    rows = [
        ("mrtr-client-invalid-no-request", {"server": []}, "neither request nor batch"),
        (
            "mrtr-client-invalid-both",
            {"request": {"id": 1, "method": "m"}, "batch": [], "server": []},
            "both request and batch",
        ),
        (
            "mrtr-client-invalid-script-exhausted",
            single([]),
            "the client sends more than the script answers",
        ),
        (
            "mrtr-client-invalid-unscripted-key",
            single([{"result": ir({"name": FORM})}]),
            "the server asks a key answers does not script",
        ),
        (
            "mrtr-client-invalid-error-code",
            single([{"error": {"code": -32000, "message": "x"}}]),
            "an error code neva cannot read",
        ),
        (
            "mrtr-client-invalid-uuid-id",
            single([{"result": DONE_C}], rid="550e8400-e29b-41d4-a716-446655440000"),
            "a UUID string id neva re-spells",
        ),
        (
            "mrtr-client-invalid-max-rounds",
            single([{"result": DONE_C}], client={"max_rounds": -1}),
            "a negative max_rounds",
        ),
        (
            "mrtr-client-invalid-log-level",
            single([{"result": DONE_C}], client={"log_level": "loud"}),
            "an unknown log level",
        ),
    ]
    return [
        case(cid, f"invalid input: {comment}", ["HARNESS-MRTR-CLIENT-1"], ["Invalid"], inp, bad)
        for cid, inp, comment in rows
    ]


def _b(items: list[J], server: list[J], client: J = None, answers: J = None) -> dict[str, J]:
    out: dict[str, J] = {"batch": items, "server": server}
    out["client"] = {"elicitation": True} if client is None else client
    if answers is not None:
        out["answers"] = answers
    return out


def _greet(rid: J, name: str = "greet") -> dict[str, J]:
    return {"id": rid, "method": "tools/call", "params": {"name": name}}


def _g(rid: J, name: str = "greet", caps: J = None, **tail: J) -> dict[str, J]:
    return rq(rid, {"name": name, "_meta": meta(E if caps is None else caps), **tail})


BOOM = {
    "content": [{"type": "text", "text": "boom failed after elicitation"}],
    "isError": True,
    "resultType": "complete",
}
TAIL = {"inputResponses": {"name": OCTOCAT}, "requestState": STATE}


def _batches() -> list[dict[str, J]]:
    note = {"method": "notifications/progress"}
    return [
        case(
            "mrtr-client-batch-end-to-end",
            "[tools/list, greet, notification, greet]: 3 slots; the notification goes first, once",
            ["MRTR-CLIENT-8", "HARNESS-MRTR-CLIENT-2"],
            ["Batch", "Upstream"],
            _b(
                [{"id": 1, "method": "tools/list"}, _greet(2), note, _greet(3)],
                [
                    {"result": {"tools": []}},
                    {"result": ir({"name": FORM})},
                    {"result": ir({"name": FORM})},
                    {"result": DONE_C},
                    {"result": DONE_C},
                ],
                answers=ANS,
            ),
            {
                "sent": [
                    [
                        {"jsonrpc": "2.0", "method": "notifications/progress"},
                        rq(1, {"_meta": meta(E)}, "tools/list"),
                        _g(2),
                        _g(3),
                    ],
                    [_g(4, **TAIL), _g(5, **TAIL)],
                ],
                "responses": [ok(1, {"tools": []}), ok(4, DONE_C), ok(5, DONE_C)],
            },
            "upstream-test:client_drives_mrtr_across_a_batch_end_to_end",
        ),
        case(
            "mrtr-client-batch-isolates-is-error-slot",
            "[greet, boom, greet]: boom's isError result fills its slot; neighbours complete",
            ["MRTR-CLIENT-8"],
            ["Batch", "Upstream"],
            _b(
                [_greet(1), _greet(2, "boom"), _greet(3)],
                [{"result": ir({"name": FORM})}] * 3
                + [{"result": DONE_C}, {"result": BOOM}, {"result": DONE_C}],
                answers=ANS,
            ),
            {
                "sent": [
                    [_g(1), _g(2, "boom"), _g(3)],
                    [_g(4, **TAIL), _g(5, "boom", **TAIL), _g(6, **TAIL)],
                ],
                "responses": [ok(4, DONE_C), ok(5, BOOM), ok(6, DONE_C)],
            },
            "upstream-test:batch_isolates_a_single_slot_failure_after_elicitation",
        ),
        case(
            "mrtr-client-batch-error-response-slot",
            "an error response is a final slot; the other slot continues",
            ["MRTR-CLIENT-8", "MRTR-CLIENT-7"],
            ["Batch"],
            _b(
                [_greet(1), _greet(2)],
                [
                    {"error": {"code": -32602, "message": "nope"}},
                    {"result": ir({"name": FORM})},
                    {"result": DONE_C},
                ],
                answers=ANS,
            ),
            {
                "sent": [[_g(1), _g(2)], [_g(3, **TAIL)]],
                "responses": [err(1, -32602, "nope"), ok(3, DONE_C)],
            },
        ),
        case(
            "mrtr-client-batch-only-pending-resent",
            "a slot final in round 0 is not re-sent; the other runs two more rounds alone",
            ["MRTR-CLIENT-8"],
            ["Batch"],
            _b(
                [_greet(1), _greet(2)],
                [
                    {"result": DONE_C},
                    {"result": ir({"name": FORM})},
                    {"result": ir({"name": FORM}, STATE2)},
                    {"result": DONE_C},
                ],
                answers=ANS,
            ),
            {
                "sent": [
                    [_g(1), _g(2)],
                    [_g(3, **TAIL)],
                    [_g(4, inputResponses={"name": OCTOCAT}, requestState=STATE2)],
                ],
                "responses": [ok(1, DONE_C), ok(4, DONE_C)],
            },
        ),
        case(
            "mrtr-client-batch-per-slot-state",
            "each slot echoes its own state and answers",
            ["MRTR-CLIENT-8", "MRTR-CLIENT-5"],
            ["Batch"],
            _b(
                [_greet(1), _greet(2)],
                [
                    {"result": ir({"a": FORM}, "sa")},
                    {"result": ir({"b": FORM}, "sb")},
                    {"result": DONE_C},
                    {"result": DONE_C},
                ],
                answers={"a": {"answer": OCTOCAT}, "b": {"answer": MONA}},
            ),
            {
                "sent": [
                    [_g(1), _g(2)],
                    [
                        _g(3, inputResponses={"a": OCTOCAT}, requestState="sa"),
                        _g(4, inputResponses={"b": MONA}, requestState="sb"),
                    ],
                ],
                "responses": [ok(3, DONE_C), ok(4, DONE_C)],
            },
        ),
        case(
            "mrtr-client-batch-only-notifications",
            "a batch of notifications only: sent once, no slots",
            ["MRTR-CLIENT-9"],
            ["Batch"],
            _b([note, {"method": "notifications/x", "params": {"a": 1}}], []),
            {
                "sent": [
                    [
                        {"jsonrpc": "2.0", "method": "notifications/progress"},
                        {"jsonrpc": "2.0", "method": "notifications/x", "params": {"a": 1}},
                    ]
                ],
                "responses": [],
            },
        ),
        case(
            "mrtr-client-batch-empty",
            "an empty batch is refused before anything is sent (upstream: on a disconnected client; connected, MessageBatch::new refuses it)",
            ["MRTR-CLIENT-9"],
            ["Batch"],
            _b([], []),
            {"sent": [], "error": loop_error(-32600, "batch must not be empty")},
            "upstream-test:call_batch_requires_connected_client",
        ),
        case(
            "mrtr-client-batch-duplicate-ids",
            "two requests with id 1: refused before anything is sent",
            ["MRTR-CLIENT-9"],
            ["Batch"],
            _b([_greet(1), _greet(1)], []),
            {"sent": [], "error": loop_error(-32600, "batch contains duplicate request IDs")},
        ),
        case(
            "mrtr-client-batch-number-and-string-ids-differ",
            'ids 1 and "1" are different ids',
            ["MRTR-CLIENT-9"],
            ["Batch"],
            _b([_greet(1), _greet("1")], [{"result": DONE_C}, {"result": DONE_C}]),
            {"sent": [[_g(1), _g("1")]], "responses": [ok(1, DONE_C), ok("1", DONE_C)]},
        ),
        case(
            "mrtr-client-batch-listen-refused",
            "subscriptions/listen in a batch is refused",
            ["MRTR-CLIENT-9"],
            ["Batch"],
            _b([_greet(1), {"id": 2, "method": "subscriptions/listen", "params": {}}], []),
            {
                "sent": [],
                "error": loop_error(
                    -32600,
                    "batch contains `subscriptions/listen`; open subscriptions with `Client::listen`",
                ),
            },
        ),
        case(
            "mrtr-client-batch-budget-exhausted",
            "max_rounds 1 and a slot asking twice: the whole batch fails after two writes",
            ["MRTR-CLIENT-8", "MRTR-CLIENT-6"],
            ["Batch", "Budget"],
            _b(
                [_greet(1), _greet(2)],
                [
                    {"result": ir({"name": FORM})},
                    {"result": DONE_C},
                    {"result": ir({"name": FORM}, STATE2)},
                ],
                client={"elicitation": True, "max_rounds": 1},
                answers=ANS,
            ),
            {"sent": [[_g(1), _g(2)], [_g(3, **TAIL)]], "error": loop_error(-32603, ROUNDS)},
        ),
        case(
            "mrtr-client-batch-zero-budget-one-elicits",
            "max_rounds 0: one slot elicits, the batch fails although the other completed",
            ["MRTR-CLIENT-8", "MRTR-CLIENT-6"],
            ["Batch", "Budget"],
            _b(
                [_greet(1), _greet(2)],
                [{"result": DONE_C}, {"result": ir({"name": FORM})}],
                client={"elicitation": True, "max_rounds": 0},
                answers=ANS,
            ),
            {"sent": [[_g(1), _g(2)]], "error": loop_error(-32603, ROUNDS)},
        ),
        case(
            "mrtr-client-batch-slot-transport-failure",
            "one slot's receiver times out: the whole batch fails",
            ["MRTR-CLIENT-8"],
            ["Batch", "Transport"],
            _b(
                [_greet(1), _greet(2)],
                [
                    {"result": DONE_C},
                    {"fail": {"code": -99998, "message": "Batch request timed out"}},
                ],
            ),
            {"sent": [[_g(1), _g(2)]], "error": loop_error(-99998, "Batch request timed out")},
        ),
        case(
            "mrtr-client-batch-earlier-slot-failure-first",
            "slots are handled in order: slot 0's fulfilment failure wins over slot 1's timeout",
            ["MRTR-CLIENT-8"],
            ["Batch"],
            _b(
                [_greet(1), _greet(2)],
                [
                    {"result": ir({"name": FORM})},
                    {"fail": {"code": -99998, "message": "Batch request timed out"}},
                ],
                client={},
            ),
            {
                "sent": [[_g(1, caps={}), _g(2, caps={})]],
                "error": loop_error(
                    -32600, "server requested elicitation but no handler is configured"
                ),
            },
        ),
        case(
            "mrtr-client-batch-malformed-slot",
            "an unreadable input_required in one slot fails the whole batch",
            ["MRTR-CLIENT-8", "MRTR-CLIENT-3"],
            ["Batch", "Malformed"],
            _b(
                [_greet(1), _greet(2)],
                [{"result": DONE_C}, {"result": ir({"k": {"method": "nope/x"}})}],
            ),
            {
                "sent": [[_g(1), _g(2)]],
                "error": loop_error(-32700, "unknown MRTR input request method `nope/x`"),
            },
        ),
        case(
            "mrtr-client-batch-non-mrtr-slot-final",
            "a tools/list slot answering input_required is final as it stands",
            ["MRTR-CLIENT-8", "MRTR-CLIENT-1"],
            ["Batch", "Which"],
            _b(
                [{"id": 1, "method": "tools/list"}, _greet(2)],
                [{"result": ir({"name": FORM})}, {"result": DONE_C}],
            ),
            {
                "sent": [[rq(1, {"_meta": meta(E)}, "tools/list"), _g(2)]],
                "responses": [ok(1, ir({"name": FORM})), ok(2, DONE_C)],
            },
        ),
        case(
            "mrtr-client-batch-retry-ids-in-slot-order",
            "retry ids are drawn in slot order within a round (next_id 10: slot 0 -> 10, slot 2 -> 11)",
            ["MRTR-CLIENT-8", "HARNESS-MRTR-CLIENT-1"],
            ["Batch"],
            _b(
                [_greet(1), _greet(2), _greet(3)],
                [
                    {"result": ir({"name": FORM})},
                    {"result": DONE_C},
                    {"result": ir({"name": FORM})},
                    {"result": DONE_C},
                    {"result": DONE_C},
                ],
                client={"elicitation": True, "next_id": 10},
                answers=ANS,
            ),
            {
                "sent": [[_g(1), _g(2), _g(3)], [_g(10, **TAIL), _g(11, **TAIL)]],
                "responses": [ok(10, DONE_C), ok(2, DONE_C), ok(11, DONE_C)],
            },
        ),
        case(
            "mrtr-client-batch-default-next-id",
            "without next_id the counter starts past the largest integer id (7 -> 8)",
            ["HARNESS-MRTR-CLIENT-1"],
            ["Batch"],
            _b(
                [_greet(7), _greet("s")],
                [{"result": ir({"name": FORM})}, {"result": DONE_C}, {"result": DONE_C}],
                answers=ANS,
            ),
            {
                "sent": [[_g(7), _g("s")], [_g(8, **TAIL)]],
                "responses": [ok(8, DONE_C), ok("s", DONE_C)],
            },
        ),
        case(
            "mrtr-client-batch-notification-params-untouched",
            "a notification keeps its params and gets no _meta",
            ["MRTR-CLIENT-8"],
            ["Batch"],
            _b(
                [{"method": "notifications/progress", "params": {"progress": 1}}, _greet(1)],
                [{"result": DONE_C}],
            ),
            {
                "sent": [
                    [
                        {
                            "jsonrpc": "2.0",
                            "method": "notifications/progress",
                            "params": {"progress": 1},
                        },
                        _g(1),
                    ]
                ],
                "responses": [ok(1, DONE_C)],
            },
            "upstream-test:batch_injects_rc_client_meta_per_request",
        ),
    ]


def _si(**info: J) -> dict[str, J]:
    return {"_meta": {"io.modelcontextprotocol/serverInfo": info}}


def _server_info() -> list[dict[str, J]]:
    neva = {"name": "neva", "version": "0.5.4"}
    two = [rq(1, call(_meta=meta(E))), rq(2, call(_meta=meta(E), **TAIL))]

    def two_rounds(first: J, final: J) -> J:
        return single([{"result": first}, {"result": final}], answers=ANS)

    return [
        case(
            "mrtr-client-server-info-from-first-result",
            "the input_required result carries serverInfo: recorded; the final's differs and is ignored",
            ["MRTR-CLIENT-10", "HARNESS-MRTR-CLIENT-2"],
            ["ServerInfo"],
            two_rounds(
                ir({"name": FORM}, **_si(**neva)), {**DONE_C, **_si(name="other", version="2")}
            ),
            {
                "sent": two,
                "response": ok(2, {**DONE_C, **_si(name="other", version="2")}),
                "server_info": neva,
            },
        ),
        case(
            "mrtr-client-server-info-from-final-result",
            "only the final result carries serverInfo: it is recorded",
            ["MRTR-CLIENT-10"],
            ["ServerInfo"],
            two_rounds(ir({"name": FORM}), {**DONE_C, **_si(**neva)}),
            {"sent": two, "response": ok(2, {**DONE_C, **_si(**neva)}), "server_info": neva},
        ),
        case(
            "mrtr-client-server-info-unreadable-then-readable",
            "a serverInfo without version does not read; the next readable one is recorded",
            ["MRTR-CLIENT-10"],
            ["ServerInfo"],
            two_rounds(ir({"name": FORM}, **_si(name="x")), {**DONE_C, **_si(**neva)}),
            {"sent": two, "response": ok(2, {**DONE_C, **_si(**neva)}), "server_info": neva},
        ),
        case(
            "mrtr-client-server-info-written-back-typed",
            "read as Implementation: unknown members dropped, icon sizes re-spelled, theme written as null",
            ["MRTR-CLIENT-10"],
            ["ServerInfo"],
            single(
                [
                    {
                        "result": {
                            **DONE_C,
                            **_si(
                                name="s",
                                version="1",
                                title="T",
                                icons=[
                                    {
                                        "src": "https://i/x.png",
                                        "sizes": ["48x48", "any", "junk", "+16x-2"],
                                        "extra": 1,
                                    }
                                ],
                            ),
                        }
                    }
                ]
            ),
            {
                "sent": [rq(1, call(_meta=meta(E)))],
                "response": ok(
                    1,
                    {
                        **DONE_C,
                        **_si(
                            name="s",
                            version="1",
                            title="T",
                            icons=[
                                {
                                    "src": "https://i/x.png",
                                    "sizes": ["48x48", "any", "junk", "+16x-2"],
                                    "extra": 1,
                                }
                            ],
                        ),
                    },
                ),
                "server_info": {
                    "name": "s",
                    "version": "1",
                    "icons": [
                        {
                            "sizes": ["48x48", "any", "0x0", "16x0"],
                            "src": "https://i/x.png",
                            "theme": None,
                        }
                    ],
                },
            },
        ),
        case(
            "mrtr-client-server-info-bad-theme-unreadable",
            "an icon theme other than dark/light makes the serverInfo unreadable: nothing recorded",
            ["MRTR-CLIENT-10"],
            ["ServerInfo"],
            single(
                [
                    {
                        "result": {
                            **DONE_C,
                            **_si(name="s", version="1", icons=[{"src": "u", "theme": "blue"}]),
                        }
                    }
                ]
            ),
            {
                "sent": [rq(1, call(_meta=meta(E)))],
                "response": ok(
                    1,
                    {**DONE_C, **_si(name="s", version="1", icons=[{"src": "u", "theme": "blue"}])},
                ),
                "server_info": None,
            },
        ),
        case(
            "mrtr-client-server-info-sequence-form",
            "serverInfo as serde's sequence form [name, version, icons] reads",
            ["MRTR-CLIENT-10"],
            ["ServerInfo"],
            single(
                [
                    {
                        "result": {
                            **DONE_C,
                            "_meta": {"io.modelcontextprotocol/serverInfo": ["s", "1", None]},
                        }
                    }
                ]
            ),
            {
                "sent": [rq(1, call(_meta=meta(E)))],
                "response": ok(
                    1, {**DONE_C, "_meta": {"io.modelcontextprotocol/serverInfo": ["s", "1", None]}}
                ),
                "server_info": {"name": "s", "version": "1"},
            },
        ),
        case(
            "mrtr-client-server-info-on-non-mrtr-method",
            "recorded from any method's success result",
            ["MRTR-CLIENT-10"],
            ["ServerInfo"],
            single([{"result": {"tools": [], **_si(**neva)}}], params={}, method="tools/list"),
            {
                "sent": [rq(1, {"_meta": meta(E)}, "tools/list")],
                "response": ok(1, {"tools": [], **_si(**neva)}),
                "server_info": neva,
            },
        ),
    ]


def _batch_server_info() -> list[dict[str, J]]:
    a = {"name": "a", "version": "1"}
    b = {"name": "b", "version": "1"}
    return [
        case(
            "mrtr-client-batch-server-info-slot-order",
            "in a batch the first slot's serverInfo is recorded, in slot order",
            ["MRTR-CLIENT-10", "MRTR-CLIENT-8"],
            ["ServerInfo", "Batch"],
            _b(
                [_greet(1), _greet(2)],
                [{"result": {**DONE_C, **_si(**a)}}, {"result": {**DONE_C, **_si(**b)}}],
            ),
            {
                "sent": [[_g(1), _g(2)]],
                "responses": [ok(1, {**DONE_C, **_si(**a)}), ok(2, {**DONE_C, **_si(**b)})],
                "server_info": a,
            },
        ),
        case(
            "mrtr-client-batch-server-info-not-after-failure",
            "slot 0 fails (no handler) before slot 1 is handled: slot 1's serverInfo is not recorded",
            ["MRTR-CLIENT-10", "MRTR-CLIENT-8"],
            ["ServerInfo", "Batch"],
            _b(
                [_greet(1), _greet(2)],
                [{"result": ir({"name": FORM})}, {"result": {**DONE_C, **_si(**b)}}],
                client={},
            ),
            {
                "sent": [[_g(1, caps={}), _g(2, caps={})]],
                "error": loop_error(
                    -32600, "server requested elicitation but no handler is configured"
                ),
                "server_info": None,
            },
        ),
    ]


_NOTES = {
    "Upstream": {
        "bugType": "BASIC",
        "description": "A neva test re-expressed against a scripted server.",
    },
    "Retry": {
        "bugType": "QUIRK",
        "description": "Reusing the id, or accumulating earlier rounds' answers.",
    },
    "State": {
        "bugType": "QUIRK",
        "description": "Modifying requestState, or sending requestState: null when the server sent none.",
    },
    "Empty": {
        "bugType": "QUIRK",
        "description": "Not sending inputResponses: {} when nothing was asked.",
    },
    "Params": {
        "bugType": "QUIRK",
        "description": "Retrying the previous retry's params instead of the caller's original params.",
    },
    "Meta": {
        "bugType": "QUIRK",
        "description": "The client _meta: merged, typed fields re-written, the rest kept.",
    },
    "Which": {
        "bugType": "QUIRK",
        "description": "Looping on non-MRTR methods or on results that are not exactly input_required.",
    },
    "Errors": {
        "bugType": "BASIC",
        "description": "An error response is final; the client never retries on it.",
    },
    "Budget": {
        "bugType": "QUIRK",
        "description": "Counting the initial send against max_rounds (default 8 means up to 9 sends).",
    },
    "Fulfil": {
        "bugType": "FAIL_CLOSED",
        "description": "A fulfilment failure aborts the whole call; one key after another.",
    },
    "Roots": {
        "bugType": "QUIRK",
        "description": "Roots are answered from the configured list whatever was declared.",
    },
    "Malformed": {
        "bugType": "MALFORMED_INPUT",
        "description": "An input_required result neva cannot read is -32700 with serde's or neva's own text.",
    },
    "Transport": {
        "bugType": "FAIL_CLOSED",
        "description": "A transport failure ends the call with its error.",
    },
    "Batch": {
        "bugType": "QUIRK",
        "description": "Lock-step rounds, isolated slots, whole-batch failures.",
    },
    "ServerInfo": {
        "bugType": "EDGE_CASE",
        "description": "record_server_info: the first readable serverInfo, typed.",
    },
    "Invalid": {
        "bugType": "MALFORMED_INPUT",
        "description": "Input outside mrtr.client's shape (message not compared).",
    },
}


def _carries_server_info(inp: dict[str, J]) -> bool:
    for entry in inp.get("server", []):
        result = entry.get("result") if isinstance(entry, dict) else None
        meta = result.get("_meta") if isinstance(result, dict) else None
        if isinstance(meta, dict) and "io.modelcontextprotocol/serverInfo" in meta:
            return True
    return False


def _with_server_info(test: dict[str, J]) -> dict[str, J]:
    """A case whose script carries no serverInfo records none; one that does states it."""
    expected = test["expected"]
    if "sent" in expected and "server_info" not in expected:
        assert not _carries_server_info(test["input"]), test["id"]
        expected["server_info"] = None
    return test


def _file(title: str, tests: list[dict[str, J]]) -> dict[str, J]:
    tests = [_with_server_info(t) for t in tests]
    used = {f for t in tests for f in t["flags"]}
    return {
        "schema": "touchstone-vectors/1",
        "semantic": "mrtr",
        "operation": "mrtr.client",
        "title": title,
        "header": [
            "Generated by conformance/vectorgen/mrtr_client.py; expected outputs stated by hand.",
            "sent: every write in order (a request object; for a batch, an array).",
        ],
        "source": _SOURCE,
        "notes": {k: v for k, v in _NOTES.items() if k in used},
        "tests": tests,
    }


def files() -> dict[str, dict[str, J]]:
    """The two ``mrtr.client`` vector files."""
    single_cases = (
        _upstream()
        + _retry()
        + _params()
        + _which()
        + _budget()
        + _fulfil()
        + _malformed()
        + _transport()
        + _server_info()
        + _invalid()
    )
    return {
        "mrtr/client.json": _file(
            "neva run_with_mrtr: the client loop for one request", single_cases
        ),
        "mrtr/client_batch.json": _file(
            "neva run_batch_with_mrtr: the client loop for a batch",
            _batches() + _batch_server_info(),
        ),
    }
