"""The round engine's tables and branches, walked one by one against ``protocol/mrtr-round.md``
(neva ``app/dispatch.rs``, ``app/mrtr.rs``, ``error_code.rs``): the code maps, the required
``_meta`` messages in their order, stamping, the commit test, the store tag, and for each kind
of round result whether it is stored, minted, replayed or final; expectations by hand."""

from __future__ import annotations

import base64
import contextlib
import hashlib
from collections.abc import Callable

import pytest

from mcp_touchstone.mrtr import Context, Keyring, RpcError, StatePayload
from mcp_touchstone.mrtr._engine import (
    DEFAULT_SERVER_INFO,
    LATEST_PROTOCOL_VERSION,
    RoundResult,
    ServerConfig,
    Wrapper,
    dispatch,
    neva_code,
    should_commit,
    stamp,
    state_tag,
    wire_code,
)
from mcp_touchstone.mrtr._state import seal
from mcp_touchstone.mrtr._store import InMemoryRequestStateStore, StoredResponse
from mcp_touchstone.serde_json import JSON

V = "io.modelcontextprotocol/protocolVersion"
C = "io.modelcontextprotocol/clientCapabilities"
S = "io.modelcontextprotocol/serverInfo"
RING = Keyring("0", {"0": b"engine-secret"})
NOW = 500
NONCE = bytes(12)
FORM: JSON = {"message": "Name?", "requestedSchema": {"type": "object", "properties": {}}}
INFO: dict[str, JSON] = {"name": "neva", "version": "0.5.4"}


def b64(data: bytes) -> str:
    """Unpadded base64url."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def meta(caps: JSON = None) -> dict[str, JSON]:
    """A 2026-07-28 ``_meta`` declaring elicitation unless told."""
    return {V: "2026-07-28", C: {"elicitation": {}} if caps is None else caps}


def request(method: str = "tools/call", id_: JSON = 1, **params: JSON) -> dict[str, JSON]:
    """A request for the tool ``t`` with a valid ``_meta``, extra params added."""
    p: dict[str, JSON] = {"name": "t", "_meta": meta()}
    if method == "resources/read":
        p = {"uri": "file:///x", "_meta": meta()}
    p.update(params)
    return {"jsonrpc": "2.0", "id": id_, "method": method, "params": p}


class Nonces:
    """A nonce source that counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> bytes:
        self.calls += 1
        return NONCE


def run(
    req: dict[str, JSON],
    handler: Callable[[Context, JSON], JSON],
    *,
    store: InMemoryRequestStateStore | None = None,
    config: ServerConfig | None = None,
    now: int = NOW,
    wrapper: Wrapper | None = None,
    principal: str | None = None,
) -> tuple[RoundResult, InMemoryRequestStateStore, int]:
    """One dispatch: its result, the store after it and how many nonces it drew."""
    store = store if store is not None else InMemoryRequestStateStore()
    nonces = Nonces()
    out = dispatch(
        req,
        handler,
        config or ServerConfig(RING),
        now=now,
        nonce=nonces,
        store=store,
        principal=principal,
        wrapper=wrapper,
    )
    return out, store, nonces.calls


def ok(text: str = "done") -> Callable[[Context, JSON], JSON]:
    """A handler returning a tool result."""
    return lambda _ctx, _params: {"content": [{"type": "text", "text": text}]}


def failing(code: int, message: str = "boom", data: JSON = None) -> Callable[[Context, JSON], JSON]:
    """A handler returning ``Err``."""

    def handler(_ctx: Context, _params: JSON) -> JSON:
        raise RpcError(code, message, data)

    return handler


# ------------------------------------------------------------------ code maps

NEVA_CODES = [
    -32700,
    -32600,
    -32601,
    -32602,
    -32603,
    -32002,
    -32042,
    -32020,
    -32021,
    -32022,
    -99999,
    -99998,
    -99997,
]


@pytest.mark.parametrize("code", NEVA_CODES)
def test_neva_code_keeps_every_error_code(code: int) -> None:
    """MRTR-ROUND-7: Error::new keeps each code of neva's ErrorCode."""
    assert neva_code(code) == code


@pytest.mark.parametrize(
    "code",
    [
        0,
        1,
        -1,
        -32000,
        -32001,
        -32003,
        -32604,
        -32701,
        -32023,
        -32019,
        -32041,
        -32043,
        -99996,
        -100000,
        32602,
    ],
)
def test_neva_code_turns_every_other_code_internal(code: int) -> None:
    """MRTR-ROUND-7: a code outside ErrorCode becomes -32603 (error.rs:69-75)."""
    assert neva_code(code) == -32603


@pytest.mark.parametrize(
    ("code", "wire"),
    [
        (-32002, -32602),
        (-99999, -32603),
        (-99998, -32603),
        (-99997, -32603),
        (-32700, -32700),
        (-32600, -32600),
        (-32601, -32601),
        (-32602, -32602),
        (-32603, -32603),
        (-32042, -32042),
        (-32020, -32020),
        (-32021, -32021),
        (-32022, -32022),
        (-32000, -32603),
    ],
)
def test_wire_code_table(code: int, wire: int) -> None:
    """MRTR-ROUND-7: wire_code writes -32002 as -32602 and the three internal codes as -32603."""
    assert wire_code(code) == wire


def test_defaults_are_nevas() -> None:
    """MRTR-ROUND-10: the served version, the stamped Implementation and the config defaults."""
    assert LATEST_PROTOCOL_VERSION == "2026-07-28"
    assert dict(DEFAULT_SERVER_INFO) == INFO
    config = ServerConfig(RING)
    assert (config.ttl, config.max_state_bytes, config.audience) == (300, 8192, None)
    assert dict(config.server_info) == INFO
    assert [w.value for w in Wrapper] == ["tool", "pass"]


# ------------------------------------------------------------------ step 1: required _meta

VERSION_MSG = (
    "request `_meta` is missing the required `io.modelcontextprotocol/protocolVersion` string"
)
CAPS_MSG = (
    "request `_meta` is missing the required `io.modelcontextprotocol/clientCapabilities` object"
)


@pytest.mark.parametrize(
    ("params", "error"),
    [
        (None, (-32602, VERSION_MSG, None)),
        ([], (-32602, VERSION_MSG, None)),
        ({}, (-32602, VERSION_MSG, None)),
        ({"_meta": []}, (-32602, VERSION_MSG, None)),
        ({"_meta": {V: 2026}}, (-32602, VERSION_MSG, None)),
        ({"_meta": {C: {}}}, (-32602, VERSION_MSG, None)),
        ({"_meta": {V: "2026-07-28"}}, (-32602, CAPS_MSG, None)),
        ({"_meta": {V: "2026-07-28", C: []}}, (-32602, CAPS_MSG, None)),
        ({"_meta": {V: "2026-07-28", C: None}}, (-32602, CAPS_MSG, None)),
        # the capabilities before the version's value
        ({"_meta": {V: "2025-06-18"}}, (-32602, CAPS_MSG, None)),
        (
            {"_meta": {V: "2025-06-18", C: {}}},
            (
                -32022,
                "Unsupported MCP protocol version: 2025-06-18",
                {"supported": ["2026-07-28"], "requested": "2025-06-18"},
            ),
        ),
        (
            {"_meta": {V: "", C: {}}},
            (
                -32022,
                "Unsupported MCP protocol version: ",
                {"supported": ["2026-07-28"], "requested": ""},
            ),
        ),
    ],
)
@pytest.mark.parametrize("method", ["tools/call", "custom/x"])
def test_required_meta_in_order(method: str, params: JSON, error: tuple[int, str, JSON]) -> None:
    """MRTR-ROUND-1: version string, then capabilities object, then the version's value."""
    req: dict[str, JSON] = {"id": 3, "method": method, "params": params}
    out, store, nonces = run(req, ok())
    code, message, data = error
    assert out.response == {
        "jsonrpc": "2.0",
        "id": 3,
        "error": {"code": code, "message": message, "data": data},
    }
    assert (out.minted, out.replayed, out.final, len(store), nonces) == (None, False, False, 0, 0)


# ------------------------------------------------------------------ stamping and commit test


@pytest.mark.parametrize(
    ("response", "stamped"),
    [
        (
            {"id": 1, "result": {}},
            {"id": 1, "result": {"resultType": "complete", "_meta": {S: INFO}}},
        ),
        (
            {"id": 1, "result": {"resultType": "x"}},
            {"id": 1, "result": {"resultType": "x", "_meta": {S: INFO}}},
        ),
        (
            {"id": 1, "result": {"_meta": {"a": 1}}},
            {"id": 1, "result": {"_meta": {"a": 1, S: INFO}, "resultType": "complete"}},
        ),
        (
            {"id": 1, "result": {"_meta": {S: "mine"}}},
            {"id": 1, "result": {"_meta": {S: "mine"}, "resultType": "complete"}},
        ),
        (
            {"id": 1, "result": {"_meta": [1]}},
            {"id": 1, "result": {"_meta": [1], "resultType": "complete"}},
        ),
        (
            {"id": 1, "result": {"_meta": None}},
            {"id": 1, "result": {"_meta": None, "resultType": "complete"}},
        ),
        ({"id": 1, "result": [1]}, {"id": 1, "result": [1]}),
        ({"id": 1, "result": "s"}, {"id": 1, "result": "s"}),
        ({"id": 1, "error": {"code": 1}}, {"id": 1, "error": {"code": 1}}),
    ],
)
def test_stamp_table(response: dict[str, JSON], stamped: dict[str, JSON]) -> None:
    """MRTR-ROUND-10: resultType unless present; serverInfo into an object _meta lacking it."""
    before = repr(response)
    assert stamp(response, INFO) == stamped
    assert repr(response) == before  # the input is never mutated


@pytest.mark.parametrize(
    ("response", "commits"),
    [
        ({"result": {}}, True),
        ({"result": {"isError": False}}, True),
        ({"result": {"isError": "true"}}, True),
        ({"result": {"isError": 1}}, True),
        ({"result": {"isError": None}}, True),
        ({"result": [{"isError": True}]}, True),
        ({"result": None}, True),
        ({"result": {"isError": True}}, False),
        ({"error": {"code": -32603}}, False),
        ({"error": None, "result": {}}, False),
    ],
)
def test_should_commit_table(response: dict[str, JSON], commits: bool) -> None:
    """MRTR-ROUND-4: a success whose result.isError is not `true` commits; nothing else does."""
    assert should_commit(response) is commits


def test_state_tag_is_the_last_segment_and_the_answers_digest() -> None:
    """MRTR-STORE-1: `{after the last .}.{b64url(sha256(canonical answers))}`."""
    digest_empty = b64(hashlib.sha256(b"{}").digest())
    digest_ab = b64(hashlib.sha256(b'{"a":{"x":1,"y":2},"b":1}').digest())
    assert state_tag("v1.0.nonce.TAIL", {}) == f"TAIL.{digest_empty}"
    assert state_tag("v1.0.nonce.TAIL", {"b": 1, "a": {"y": 2, "x": 1}}) == f"TAIL.{digest_ab}"
    assert state_tag("nodots", {}) == f"nodots.{digest_empty}"


# ------------------------------------------------------------------ results by kind


def asking(ctx: Context, _params: JSON) -> JSON:
    """Elicit `name`, then answer with it."""
    ctx.elicit("name", FORM)
    return {"content": []}


def first_round() -> tuple[str, StatePayload]:
    """The state a first round of `asking` mints."""
    out, _, _ = run(request(), asking)
    assert out.minted is not None
    token = out.response["result"]["requestState"]  # type: ignore[call-overload,index]
    assert isinstance(token, str)
    return token, out.minted


ANSWER: JSON = {"action": "accept", "content": {"n": "x"}}


def test_a_mint_is_not_final_nor_stored_and_draws_one_nonce() -> None:
    """MRTR-ROUND-5, MRTR-ROUND-6: input_required mints once, exp = now + ttl, nothing stored."""
    out, store, nonces = run(request(), asking, config=ServerConfig(RING, ttl=7))
    assert (out.final, out.replayed, len(store), nonces) == (False, False, 0, 1)
    assert out.minted is not None
    assert out.minted.exp == NOW + 7
    assert out.minted.requested == ("name",)
    result = out.response["result"]
    assert isinstance(result, dict)
    assert result["resultType"] == "input_required"
    assert result["inputRequests"] == {"name": {"method": "elicitation/create", "params": FORM}}
    assert result["requestState"] == seal(out.minted, RING, NONCE)
    assert result["_meta"] == {S: INFO}


def test_a_final_round_with_a_state_is_stored_until_now_plus_ttl() -> None:
    """MRTR-ROUND-4, MRTR-STORE-3: a committed final round under a state is put at now + ttl."""
    token, _ = first_round()
    req = request(requestState=token, inputResponses={"name": ANSWER})
    out, store, nonces = run(req, asking, config=ServerConfig(RING, ttl=9), now=NOW + 1)
    assert (out.final, out.replayed, out.minted, nonces) == (True, False, None, 0)
    digest = b64(hashlib.sha256(b'{"name":{"action":"accept","content":{"n":"x"}}}').digest())
    tag = token.rsplit(".", 1)[1] + "." + digest
    assert [(k, e) for k, _, e in store.items()] == [(tag, NOW + 10)]
    assert store.get(tag, 0) == StoredResponse.of(out.response)
    assert out.response == {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {"content": [], "resultType": "complete", "_meta": {S: INFO}},
    }


def test_a_final_round_without_a_state_is_not_stored() -> None:
    """MRTR-STORE-3: only a request that carried a state is stored."""
    out, store, _ = run(request(inputResponses={"name": ANSWER}), asking)
    assert (out.final, len(store), store.lock_count()) == (True, 0, 0)  # nothing reserved


def test_a_round_with_a_state_reserves_its_tag() -> None:
    """MRTR-STORE-4: a round carrying a state holds the tag's lock (idle after, until a put)."""
    token, _ = first_round()
    _, store, _ = run(request(requestState=token), asking)
    assert (len(store), store.lock_count()) == (0, 1)
    _, first_store, _ = run(request(), asking)
    assert first_store.lock_count() == 0


@pytest.mark.parametrize(
    ("handler", "final"),
    [
        (failing(-32603), False),  # an error response (prompts/get passes Err through)
        (lambda _c, _p: {"content": [], "isError": True}, False),
        (lambda _c, _p: {"content": [], "isError": False}, True),
    ],
)
def test_only_a_committing_result_is_final_and_stored(
    handler: Callable[[Context, JSON], JSON], final: bool
) -> None:
    """MRTR-ROUND-4: an error or isError: true is neither final nor stored."""
    token, _ = first_round()
    calls: list[str] = []

    def wrapped(ctx: Context, params: JSON) -> JSON:
        ctx.elicit("name", FORM)
        ctx.on_commit(lambda: calls.append("c"), "c")
        return handler(ctx, params)

    req = request("tools/call", requestState=token, inputResponses={"name": ANSWER})
    out, store, _ = run(req, wrapped, wrapper=Wrapper.PASS)
    assert out.final is final
    assert len(store) == (1 if final else 0)
    assert calls == (["c"] if final else [])


def test_a_failed_commit_is_final_stored_and_stops_the_rest() -> None:
    """MRTR-ROUND-4: commits run in order to the first failure, which is the stored response."""
    token, _ = first_round()
    ran: list[str] = []

    def fail_second() -> None:
        ran.append("b")
        raise RpcError(-32000, "receipt down", {"k": 1})

    def handler(ctx: Context, _params: JSON) -> JSON:
        ctx.elicit("name", FORM)
        ctx.on_commit(lambda: ran.append("a"), "a")
        ctx.on_commit(fail_second, "b")
        ctx.on_commit(lambda: ran.append("c"), "c")
        return {"content": []}

    req = request(requestState=token, inputResponses={"name": ANSWER})
    out, store, _ = run(req, handler)
    assert ran == ["a", "b"]
    assert out.final is True
    assert out.response == {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {"code": -32603, "message": "receipt down", "data": {"k": 1}},
    }
    assert [StoredResponse.of(out.response)] == [r for _, r, _ in store.items()]


@pytest.mark.parametrize(("offset", "hit"), [(1, True), (0, False), (-1, False)])
def test_a_stored_entry_replays_only_while_live(offset: int, hit: bool) -> None:
    """MRTR-STORE-2, MRTR-STORE-5: exp == now + 1 replays with the new id; exp <= now re-runs."""
    token, _ = first_round()
    req = request(id_=2, requestState=token, inputResponses={"name": ANSWER})
    _, store, _ = run(req, asking)
    ((tag, stored, _),) = store.items()
    store.load(
        tag, StoredResponse('{"id":2,"jsonrpc":"2.0","result":{"cached":true}}'), NOW + offset
    )
    calls: list[int] = []

    def counting(ctx: Context, params: JSON) -> JSON:
        calls.append(1)
        return asking(ctx, params)

    out, store, nonces = run(
        request(id_="r", requestState=token, inputResponses={"name": ANSWER}), counting, store=store
    )
    if hit:
        assert out.response == {"id": "r", "jsonrpc": "2.0", "result": {"cached": True}}
        assert (out.replayed, out.final, calls, nonces) == (True, False, [], 0)
        assert [e for _, _, e in store.items()] == [NOW + offset]
    else:
        assert (out.replayed, out.final, calls) == (False, True, [1])
        assert [(t, e) for t, _, e in store.items()] == [(tag, NOW + 300)]
        assert store.get(tag, 0) == StoredResponse.of(out.response)  # the re-run's own
        assert stored.with_id("r") == out.response


def test_a_custom_method_never_seeds_stores_or_commits() -> None:
    """MRTR-CTX-8: outside the MRTR methods memo computes, once runs, on_commit is dropped."""
    ran: list[str] = []

    def handler(ctx: Context, _params: JSON) -> JSON:
        assert ctx.round is None
        ctx.memo("m", lambda: ran.append("memo") or 1)  # type: ignore[func-returns-value]
        ctx.memo("m", lambda: ran.append("memo") or 1)  # type: ignore[func-returns-value]
        assert ctx.once("o", lambda: ran.append("once")) is True
        assert ctx.once("o", lambda: ran.append("once")) is True
        ctx.on_commit(lambda: ran.append("commit"))
        return {"ok": True}

    out, store, nonces = run(request("custom/x", requestState=42, inputResponses=[1]), handler)
    assert ran == ["memo", "memo", "once", "once"]
    assert out.response == {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {"ok": True, "resultType": "complete", "_meta": {S: INFO}},
    }
    assert (out.minted, out.final, len(store), nonces) == (None, False, 0, 0)


def test_memo_once_and_effects_are_sealed_sorted() -> None:
    """MRTR-CTX-5, MRTR-CTX-6: a mint seals computed memos and run once keys, effects sorted."""
    ran: list[str] = []

    def handler(ctx: Context, _params: JSON) -> JSON:
        ctx.memo("q", lambda: 42)
        ctx.once("zeta", lambda: ran.append("zeta"))
        ctx.once("alpha", lambda: ran.append("alpha"))
        ctx.elicit("name", FORM)
        return {"content": []}

    out, _, _ = run(request(), handler)
    assert out.minted is not None
    assert dict(out.minted.memos) == {"q": 42}
    assert out.minted.effects == ("alpha", "zeta")
    assert ran == ["zeta", "alpha"]
    token = out.response["result"]["requestState"]  # type: ignore[call-overload,index]
    # The next round reads both back: the memo is not computed, the effects do not run.
    again, _, _ = run(request(requestState=token), handler)
    assert ran == ["zeta", "alpha"]
    assert again.minted is not None
    assert (dict(again.minted.memos), again.minted.effects) == ({"q": 42}, ("alpha", "zeta"))


@pytest.mark.parametrize(
    ("method", "wrapper", "folded"),
    [
        ("tools/call", None, True),
        ("prompts/get", None, False),
        ("resources/read", None, False),
        ("custom/x", None, False),
        ("tools/call", Wrapper.PASS, False),
        ("prompts/get", Wrapper.TOOL, True),
    ],
)
def test_wrappers_fold_or_pass_a_handler_err(
    method: str, wrapper: Wrapper | None, folded: bool
) -> None:
    """MRTR-ROUND-7: only the tool wrapper folds Err into isError content; others pass it."""
    out, _, _ = run(
        request(method, id_=4), failing(-32002, "no such thing", {"d": 1}), wrapper=wrapper
    )
    if folded:
        assert out.response == {
            "jsonrpc": "2.0",
            "id": 4,
            "result": {
                "content": [{"type": "text", "text": "no such thing"}],
                "isError": True,
                "resultType": "complete",
                "_meta": {S: INFO},
            },
        }
    else:
        assert out.response == {
            "jsonrpc": "2.0",
            "id": 4,
            "error": {"code": -32602, "message": "no such thing", "data": {"d": 1}},
        }
    assert out.final is False  # an error or isError: true never commits


def test_a_malformed_answer_wins_over_pending_and_success() -> None:
    """MRTR-ROUND-6: a recorded malformed answer is the response even if swallowed."""

    def handler(ctx: Context, _params: JSON) -> JSON:
        with contextlib.suppress(RpcError):
            ctx.elicit("bad", FORM)
        with contextlib.suppress(RpcError):
            ctx.elicit("missing", FORM)
        return {"content": []}

    out, store, nonces = run(request(inputResponses={"bad": {"action": "nope"}}), handler)
    error = out.response["error"]
    assert isinstance(error, dict)
    assert error["code"] == -32602
    assert str(error["message"]).startswith(
        "the answer for `bad` is not a valid elicitation/create result: "
    )
    assert (out.minted, out.final, len(store), nonces) == (None, False, 0, 0)


def test_pending_inputs_win_over_a_handler_err() -> None:
    """MRTR-ROUND-6: a pending input mints whatever the handler returned."""

    def handler(ctx: Context, _params: JSON) -> JSON:
        with contextlib.suppress(RpcError):
            ctx.elicit("k", FORM)
        raise RpcError(-32603, "later")

    out, _, nonces = run(request("prompts/get", name="p"), handler)
    assert out.minted is not None
    assert nonces == 1
    assert out.minted.requested == ("k",)


def test_an_undeclared_capability_fails_the_mint() -> None:
    """MRTR-ROUND-5: the first pending input the client cannot take is -32021, no nonce drawn."""
    req = request()
    params = req["params"]
    assert isinstance(params, dict)
    params["_meta"] = meta({})
    out, _, nonces = run(req, asking)
    error = out.response["error"]
    assert isinstance(error, dict)
    assert (error["code"], error["message"]) == (
        -32021,
        "server requested `elicitation/create` but the client did not declare support",
    )
    assert (out.minted, nonces) == (None, 0)


def test_a_too_large_mint_is_internal() -> None:
    """MRTR-SEAL-4: a minted token over max_state_bytes is -32603 `requestState too large`."""

    def handler(ctx: Context, _params: JSON) -> JSON:
        ctx.memo("big", lambda: "x" * 400)
        ctx.elicit("k", FORM)
        return {}

    out, _, _ = run(request(), handler, config=ServerConfig(RING, max_state_bytes=256))
    assert out.response["error"] == {
        "code": -32603,
        "message": "requestState too large",
        "data": None,
    }
    assert out.minted is None


def test_a_verify_failure_is_the_response_and_nothing_runs() -> None:
    """MRTR-SEED-1: a state failing verify answers -32602 before the handler or the store."""
    token, _ = first_round()
    calls: list[int] = []

    def handler(_ctx: Context, _params: JSON) -> JSON:
        calls.append(1)
        return {}

    out, store, _ = run(request(requestState=token), handler, principal="eve")
    assert out.response["error"] == {
        "code": -32602,
        "message": "requestState principal mismatch",
        "data": None,
    }
    assert (calls, len(store)) == ([], 0)


def test_the_mint_binds_principal_and_audience() -> None:
    """MRTR-ROUND-6: the minted payload carries the round's principal and the audience (v2)."""
    out, _, _ = run(request(), asking, principal="al", config=ServerConfig(RING, audience="svc"))
    assert out.minted is not None
    assert (out.minted.principal, out.minted.aud) == ("al", "svc")
    token = out.response["result"]["requestState"]  # type: ignore[call-overload,index]
    assert str(token).startswith("v2.0.")


def test_a_custom_method_sees_the_declared_capabilities() -> None:
    """MRTR-CTX-8, MRTR-SEED-1: outside MRTR the context still reports what `_meta` declared."""
    seen: list[tuple[bool, bool, bool]] = []

    def handler(ctx: Context, _params: JSON) -> JSON:
        caps = ctx.client_capabilities()
        seen.append((caps.elicitation is not None, caps.sampling, caps.roots))
        return {}

    req = request("custom/x")
    params = req["params"]
    assert isinstance(params, dict)
    params["_meta"] = meta({"sampling": {}, "roots": {}})
    run(req, handler)
    assert seen == [(False, True, True)]


def test_the_configured_cap_applies_to_an_inbound_state() -> None:
    """MRTR-OPEN-1: the round checks an inbound state against the server's max_state_bytes."""
    token, _ = first_round()
    small = ServerConfig(RING, max_state_bytes=len(token) - 1)
    out, _, _ = run(request(requestState=token), asking, config=small)
    assert out.response["error"] == {
        "code": -32602,
        "message": "requestState exceeds the configured maximum size",
        "data": None,
    }
    exact = ServerConfig(RING, max_state_bytes=len(token))
    out, _, _ = run(request(requestState=token), asking, config=exact)
    assert out.minted is not None


def test_the_configured_server_info_is_stamped() -> None:
    """MRTR-ROUND-10: the configured Implementation is written, on MRTR and custom methods."""
    mine: dict[str, JSON] = {"name": "mine", "version": "9"}
    config = ServerConfig(RING, server_info=mine)
    for method in ("tools/call", "custom/x"):
        out, _, _ = run(request(method), ok(), config=config)
        result = out.response["result"]
        assert isinstance(result, dict)
        assert result["_meta"] == {S: mine}


def test_a_params_read_failure_skips_the_handler() -> None:
    """MRTR-ROUND-5: MRTR params that fail their type are -32602; the handler never runs."""
    calls: list[int] = []

    def handler(_ctx: Context, _params: JSON) -> JSON:
        calls.append(1)
        return {}

    req: dict[str, JSON] = {"id": 1, "method": "tools/call", "params": {"_meta": meta()}}
    out, store, nonces = run(req, handler)
    error = out.response["error"]
    assert isinstance(error, dict)
    assert error["code"] == -32602
    assert (calls, out.final, len(store), nonces) == ([], False, 0, 0)
