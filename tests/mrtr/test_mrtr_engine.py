# Over 400 lines on purpose: one section per upstream test module it mirrors (app/mrtr.rs,
# app/context/effects.rs, types/request.rs, app/mrtr_store.rs) plus the threaded engine tests.
"""neva's MRTR unit tests re-expressed: ``app/mrtr.rs``, ``app/context/effects.rs``,
``app/mrtr_store.rs``, ``types/request.rs`` (MRTR-SEED, MRTR-CTX, MRTR-STORE, MRTR-ROUND rules)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from mcp_touchstone.mrtr._binding import request_binding
from mcp_touchstone.mrtr._context import INPUT_REQUIRED, Context, RoundState
from mcp_touchstone.mrtr._engine import ServerConfig, dispatch, neva_code, should_commit, wire_code
from mcp_touchstone.mrtr._errors import RpcError
from mcp_touchstone.mrtr._meta import input_responses, malformed_mrtr_error, request_state
from mcp_touchstone.mrtr._payload import StatePayload
from mcp_touchstone.mrtr._requests import decode_input_request
from mcp_touchstone.mrtr._seed import seed_round
from mcp_touchstone.mrtr._state import CheckContext, Keyring, seal
from mcp_touchstone.mrtr._store import InMemoryRequestStateStore, StoredResponse
from mcp_touchstone.serde_json import JSON
from tests.mrtr._round_helpers import meta

SECRET = b"unit-secret"
RING = Keyring.single(SECRET)
METHOD = "tools/call"
SALIENT: dict[str, JSON] = {"name": "greet", "arguments": {}}
NOW = 1_000_000
NONCE = bytes(12)
ELICIT = decode_input_request(
    {
        "method": "elicitation/create",
        "params": {"message": "m", "requestedSchema": {"properties": {}}},
    }
)


def _answer(tag: str) -> dict[str, JSON]:
    return {"action": "accept", "content": {"tag": tag}}


def _state(
    answers: dict[str, JSON] | None = None,
    requested: tuple[str, ...] = (),
    *,
    exp: int = NOW + 300,
    principal: str | None = None,
    aud: str | None = None,
) -> str:
    payload = StatePayload(
        answers=answers or {},
        exp=exp,
        req=request_binding(METHOD, SALIENT),
        requested=requested,
        principal=principal,
        aud=aud,
    )
    return seal(payload, RING, NONCE)


def _params(state: str | None = None, responses: dict[str, JSON] | None = None) -> dict[str, JSON]:
    m: dict[str, JSON] = {"io.modelcontextprotocol/clientCapabilities": {"elicitation": True}}
    if responses is not None:
        m["inputResponses"] = responses
    if state is not None:
        m["requestState"] = state
    return {**SALIENT, "_meta": m}


def _seed(
    params: dict[str, JSON], principal: str | None = None, audience: str | None = None
) -> RoundState:
    check = CheckContext(METHOD, params, NOW, principal=principal, audience=audience)
    return seed_round(METHOD, params, RING, check).round


def _tag(ctx: RoundState, key: str) -> Any:
    value: Any = ctx.answers.get(key)
    return value["content"]["tag"] if isinstance(value, dict) else None


# ---------------------------------------------------------------- app/mrtr.rs
def test_mrtr_should_commit_excludes_errors() -> None:
    """Successes (isError false or absent) commit; isError true and error responses do not."""
    assert should_commit({"result": {"content": [], "isError": False}})
    assert should_commit({"result": {"ok": True}})
    assert not should_commit({"result": {"content": [], "isError": True}})
    assert not should_commit({"error": {"code": -32603, "message": "boom", "data": None}})


def test_expired_request_state_is_rejected() -> None:
    """exp = now - 1 is -32602 requestState expired."""
    with pytest.raises(RpcError) as err:
        _seed(_params(_state(exp=NOW - 1)))
    assert (err.value.code, err.value.message) == (-32602, "requestState expired")


def test_principal_mismatch_is_rejected() -> None:
    """A state minted for alice used by bob is a principal mismatch."""
    with pytest.raises(RpcError, match="principal mismatch"):
        _seed(_params(_state(principal="alice")), principal="bob")


def test_a_state_minted_for_another_service_is_rejected() -> None:
    """A state bound to another audience is refused."""
    with pytest.raises(RpcError, match="audience mismatch"):
        _seed(
            _params(_state(aud="https://billing.example.com/mcp")),
            audience="https://weather.example.com/mcp",
        )


def test_a_state_minted_for_this_service_is_accepted() -> None:
    """A state bound to this audience seeds."""
    aud = "https://weather.example.com/mcp"
    assert _seed(_params(_state(aud=aud)), audience=aud).answers == {}


def test_an_unbound_state_is_refused_where_an_audience_is_demanded() -> None:
    """An unbound state on a server with an audience is refused."""
    with pytest.raises(RpcError, match="audience mismatch"):
        _seed(_params(_state()), audience="svc")


def test_a_bound_state_is_refused_where_no_audience_is_configured() -> None:
    """A bound state on a server without an audience is refused."""
    with pytest.raises(RpcError, match="audience mismatch"):
        _seed(_params(_state(aud="svc")))


def test_answers_offered_without_a_request_state_are_available_to_the_handler() -> None:
    """With no state every offered answer is accepted."""
    ctx = _seed(_params(None, {"ask_name": _answer("offered")}))
    assert _tag(ctx, "ask_name") == "offered"
    assert ctx.requested is None


def test_an_unsolicited_key_is_dropped_once_a_state_says_what_was_asked() -> None:
    """An answer for a key the state did not request is dropped without error."""
    state = _state(requested=("ask_name",))
    ctx = _seed(_params(state, {"ask_name": _answer("solicited"), "ask_age": _answer("x")}))
    assert _tag(ctx, "ask_name") == "solicited"
    assert "ask_age" not in ctx.answers


def test_a_settled_answer_is_not_overwritten_by_a_later_one() -> None:
    """A sealed answer wins over a new answer for the same key."""
    state = _state({"ask_name": _answer("settled")}, ("ask_name",))
    ctx = _seed(_params(state, {"ask_name": _answer("overwrite")}))
    assert _tag(ctx, "ask_name") == "settled"


def test_solicited_input_response_is_accepted() -> None:
    """The happy path: the requested key is answered."""
    ctx = _seed(_params(_state(requested=("ask_name",)), {"ask_name": _answer("answered")}))
    assert _tag(ctx, "ask_name") == "answered"


def test_an_empty_requested_list_drops_every_answer() -> None:
    """A state with ``requested: []`` (the old schema) drops every offered answer."""
    ctx = _seed(_params(_state(), {"k": _answer("x")}))
    assert ctx.answers == {}


# ---------------------------------------------------------------- app/context/effects.rs
def _mrtr(answers: dict[str, JSON]) -> RoundState:
    return RoundState(answers=answers)


def test_resolve_replays_cached_answer_and_records_pending_on_miss() -> None:
    """A hit returns the answer; a miss raises the -99997 sentinel and adds one pending."""
    ctx = _mrtr({"known": {"action": "accept", "content": {"x": 1}}})
    assert ctx.resolve("known", ELICIT) == {"action": "accept", "content": {"x": 1}}
    with pytest.raises(RpcError) as err:
        ctx.resolve("unknown", ELICIT)
    assert (err.value.code, err.value.message) == (INPUT_REQUIRED, "input required")
    assert len(ctx.pending) == 1
    with pytest.raises(RpcError):
        ctx.resolve("unknown", ELICIT)
    assert len(ctx.pending) == 1  # the same key twice in a round counts once


def test_resolve_replays_each_input_kind_as_its_own_result_type() -> None:
    """Sampling and roots answers read as their own result types."""
    sampled: JSON = {"role": "assistant", "content": {"type": "text", "text": ""}, "model": "m"}
    ctx = _mrtr({"poem": sampled, "dirs": {"roots": [{"uri": "file:///work", "name": "work"}]}})
    sampling = decode_input_request(
        {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 1}}
    )
    roots = decode_input_request({"method": "roots/list"})
    assert ctx.resolve("poem", sampling) == sampled
    assert ctx.resolve("dirs", roots) == {"roots": [{"uri": "file:///work", "name": "work"}]}
    with pytest.raises(RpcError, match="roots/list"):
        _mrtr({"dirs": {"roots": [{"uri": "file:///work"}]}}).resolve("dirs", roots)


def test_resolve_rejects_a_mismatched_answer_instead_of_re_asking() -> None:
    """A misfit is -32602 naming elicitation/create, recorded first-wins, and never pending."""
    ctx = _mrtr({"k": {"not": "an elicit"}, "j": 5})
    with pytest.raises(RpcError) as err:
        ctx.resolve("k", ELICIT)
    assert err.value.code == -32602
    assert "elicitation/create" in err.value.message
    assert ctx.pending == []
    first = ctx.malformed_answer
    with pytest.raises(RpcError):
        ctx.resolve("j", ELICIT)
    assert ctx.malformed_answer == first


def test_effect_seen_and_record() -> None:
    """A recorded once key is seen."""
    m = RoundState()
    assert not m.effect_seen("charge")
    m.record_effect("charge")
    assert m.effect_seen("charge")


def test_cached_memo_store_and_fetch() -> None:
    """A stored memo is fetched back."""
    m = RoundState()
    assert m.cached_memo("quote") == (False, None)
    m.store_memo("quote", {"price": 42})
    assert m.cached_memo("quote") == (True, {"price": 42})


def test_push_commit_accumulates() -> None:
    """Two registered commits are both kept, in order."""
    m = RoundState()
    m.push_commit("a", lambda: None)
    m.push_commit("b", lambda: None)
    assert [label for label, _ in m.commits] == ["a", "b"]


def test_once_and_memo_are_not_recorded_on_failure() -> None:
    """A failing once effect or memo compute records nothing, so the next round retries."""
    ctx = Context(RoundState())

    def boom() -> None:
        raise RpcError(-32603, "down")

    with pytest.raises(RpcError):
        ctx.once("charge", boom)
    with pytest.raises(RpcError):
        ctx.memo("quote", lambda: (_ for _ in ()).throw(RpcError(-32603, "down")))
    assert ctx.round is not None
    assert ctx.round.effects == []
    assert ctx.round.memos == {}
    assert ctx.once("charge", lambda: None) is True
    assert ctx.once("charge", boom) is False


def test_helpers_outside_mrtr() -> None:
    """Outside MRTR the inputs are -32600, once runs, memo computes, on_commit is dropped."""
    ctx = Context(None)
    calls: list[tuple[Callable[[], JSON], str]] = [
        (
            lambda: ctx.elicit("k", {"message": "m", "requestedSchema": {"properties": {}}}),
            "elicitation",
        ),
        (lambda: ctx.sample("k", {"messages": [], "maxTokens": 1}), "sampling"),
        (lambda: ctx.list_roots("k"), "roots"),
    ]
    for call, word in calls:
        with pytest.raises(RpcError) as err:
            call()
        assert (err.value.code, err.value.message) == (
            -32600,
            f"{word} is not available for this request",
        )
    runs: list[str] = []
    assert ctx.once("k", lambda: runs.append("once")) is True
    assert ctx.once("k", lambda: runs.append("once")) is True

    def compute() -> JSON:
        runs.append("memo")
        return 1

    assert ctx.memo("m", compute) == 1
    ctx.on_commit(lambda: runs.append("commit"))
    assert runs == ["once", "once", "memo"]


def test_error_codes_follow_neva() -> None:
    """Codes outside neva's set become -32603; the internal codes are rewritten on the wire."""
    assert neva_code(-32000) == -32603
    assert wire_code(-32002) == -32602
    assert [wire_code(c) for c in (-99999, -99998, -99997)] == [-32603] * 3
    assert wire_code(-32021) == -32021


# ---------------------------------------------------------------- types/request.rs
def test_mrtr_fields_are_read_from_params_first() -> None:
    """params beat _meta; _meta is the fallback; an empty params object still shadows it."""
    both: JSON = {
        "requestState": "p",
        "inputResponses": {},
        "_meta": {"requestState": "m", "inputResponses": {"k": 1}},
    }
    assert request_state(both) == "p"
    assert input_responses(both) == {}
    only_meta: Any = {"_meta": {"requestState": "m", "inputResponses": {"k": 1}}}
    assert request_state(only_meta) == "m"
    assert input_responses(only_meta) == {"k": 1}


@pytest.mark.parametrize("bad", [1, {"a": 1}, "s", [1], None])
def test_a_mrtr_field_of_the_wrong_type_is_rejected(bad: JSON) -> None:
    """Ill-typed fields (null included) in either location are -32602, params first."""
    for field_name, good, message in (
        ("requestState", "tok", "`requestState` must be a string"),
        ("inputResponses", {}, "`inputResponses` must be an object"),
    ):
        if (field_name == "requestState" and isinstance(bad, str)) or (
            field_name == "inputResponses" and isinstance(bad, dict)
        ):
            continue
        params: Any
        for params in (
            {field_name: bad},
            {"_meta": {field_name: bad}},
            {field_name: bad, "_meta": {field_name: good}},
        ):
            error = malformed_mrtr_error("tools/call", params)
            assert error is not None
            assert error.message == message
        assert malformed_mrtr_error("custom/echo", {field_name: bad}) is None


def test_mrtr_meta_fields_are_never_written() -> None:
    """A minted round writes its state on the result, never into any _meta."""
    out = _dispatch(
        lambda ctx, p: ctx.elicit("k", {"message": "m", "requestedSchema": {"properties": {}}})
    )
    result = out.response["result"]
    assert isinstance(result, dict)
    assert "requestState" in result
    assert set(result["_meta"]) == {"io.modelcontextprotocol/serverInfo"}


# ---------------------------------------------------------------- app/mrtr_store.rs
def _resp(id_: int) -> StoredResponse:
    return StoredResponse.of({"jsonrpc": "2.0", "id": id_, "result": {"ok": True}})


def test_put_then_get_returns_the_cached_response() -> None:
    """A put entry is returned by get."""
    store = InMemoryRequestStateStore()
    assert store.get("tag", NOW) is None
    store.put("tag", _resp(1), NOW + 300)
    got = store.get("tag", NOW)
    assert got is not None
    assert got.with_id(7) == {"jsonrpc": "2.0", "id": 7, "result": {"ok": True}}


def test_expired_entries_are_not_returned() -> None:
    """An entry with exp <= now is not returned (strictly exp > now), and is removed."""
    store = InMemoryRequestStateStore()
    store.put("tag", _resp(1), NOW)
    assert store.get("tag", NOW) is None
    assert "tag" not in store


def test_put_evicts_expired_entries() -> None:
    """A put sweeps every expired entry."""
    store = InMemoryRequestStateStore()
    store.get("probe", NOW)
    store.put("old", _resp(1), NOW - 1)
    store.put("new", _resp(2), NOW + 300)
    assert [k for k, _, _ in store.items()] == ["new"]


def test_reserve_serialises_concurrent_final_rounds() -> None:
    """Two threads each reserve -> get -> (run) -> put: the side effect runs once."""
    store = InMemoryRequestStateStore()
    runs: list[int] = []
    barrier = threading.Barrier(2)

    def round_() -> None:
        barrier.wait()
        with store.reserve("tag"):
            if store.get("tag", NOW) is None:
                runs.append(1)
                time.sleep(0.05)
                store.put("tag", _resp(1), NOW + 300)

    threads = [threading.Thread(target=round_) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert runs == [1]
    assert store.get("tag", NOW) is not None


def test_put_sweeps_released_reservation_locks() -> None:
    """A released reservation's lock is dropped by the next put."""
    store = InMemoryRequestStateStore()
    with store.reserve("tag"):
        assert store.lock_count() == 1
    store.put("other", _resp(1), NOW + 300)
    assert store.lock_count() == 0


def test_the_store_is_bounded_with_lru_eviction() -> None:
    """MRTR-STORE-6 (Deviation): at capacity a put evicts the least recently used entry."""
    store = InMemoryRequestStateStore(capacity=2)
    store.put("a", _resp(1), NOW + 300)
    store.put("b", _resp(2), NOW + 300)
    assert store.get("a", NOW) is not None  # a is now the most recently used
    store.put("c", _resp(3), NOW + 300)
    assert sorted(k for k, _, _ in store.items()) == ["a", "c"]
    assert len(store) == 2


# ---------------------------------------------------------------- the engine, concurrently
def _dispatch(
    handler: Any,
    params: dict[str, JSON] | None = None,
    store: InMemoryRequestStateStore | None = None,
    id_: int = 1,
) -> Any:
    request: Any = {"id": id_, "method": METHOD, "params": params or {**SALIENT, "_meta": meta()}}
    return dispatch(
        request,
        handler,
        ServerConfig(RING),
        now=NOW,
        nonce=lambda: NONCE,
        store=store if store is not None else InMemoryRequestStateStore(),
    )


def test_concurrent_final_round_retries_commit_exactly_once() -> None:
    """Two threads retry the same final round at once: the handler and its commit run once, and
    both get the same response up to the id (neva's tests/mrtr.rs 6, for real)."""
    runs: list[str] = []

    def handler(ctx: Context, params: JSON) -> JSON:
        ctx.elicit("name", {"message": "m", "requestedSchema": {"properties": {}}})
        runs.append("handler")
        ctx.on_commit(lambda: runs.append("commit"))
        time.sleep(0.1)
        return {"content": [], "isError": False}

    store = InMemoryRequestStateStore()
    first = _dispatch(handler, store=store)
    token = first.response["result"]["requestState"]
    retry = {
        **SALIENT,
        "requestState": token,
        "inputResponses": {"name": {"action": "accept"}},
        "_meta": meta(),
    }
    results: dict[int, Any] = {}
    barrier = threading.Barrier(2)

    def go(i: int) -> None:
        barrier.wait()
        results[i] = _dispatch(handler, params=retry, store=store, id_=10 + i)

    threads = [threading.Thread(target=go, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert runs == ["handler", "commit"]
    assert sorted(r.replayed for r in results.values()) == [False, True]
    a, b = results[0].response, results[1].response
    assert {**a, "id": 0} == {**b, "id": 0}


def test_the_in_memory_store_satisfies_the_protocol() -> None:
    """MRTR-STORE-6: the default store is a RequestStateStore; reservations are context managers."""
    from mcp_touchstone.mrtr import RequestStateStore, Reservation

    store = InMemoryRequestStateStore()
    assert isinstance(store, RequestStateStore)
    assert isinstance(store.reserve("k"), Reservation)


def test_a_reservation_blocks_the_same_key_only() -> None:
    """While one reservation on a key is held, a second on that key waits; other keys do not."""
    store = InMemoryRequestStateStore()
    order: list[str] = []
    held = threading.Event()
    release = threading.Event()

    def holder() -> None:
        with store.reserve("k"):
            held.set()
            release.wait(5)
            order.append("holder-out")

    def same_key() -> None:
        with store.reserve("k"):
            order.append("same-in")

    t1 = threading.Thread(target=holder)
    t1.start()
    held.wait(5)
    with store.reserve("other"):
        order.append("other-in")  # a different key is not blocked
    t2 = threading.Thread(target=same_key)
    t2.start()
    t2.join(0.2)
    assert t2.is_alive()  # still waiting on "k"
    release.set()
    t1.join(5)
    t2.join(5)
    assert order == ["other-in", "holder-out", "same-in"]


def test_a_replay_is_the_first_final_except_the_id() -> None:
    """MRTR-STORE-5: a stored response replays byte for byte, only ``id`` replaced."""
    response: JSON = {"jsonrpc": "2.0", "id": 1, "result": {"b": [1, 2.5, None], "a": "é"}}
    stored = StoredResponse.of(response)
    assert stored.with_id("x") == {**response, "id": "x"}  # type: ignore[dict-item]
    assert stored.to_json() == response


def test_memo_returns_the_value_it_computes_in_a_round() -> None:
    """MRTR-CTX-5: inside an MRTR round ``ctx.memo`` returns what ``compute`` returned the first
    time, and the cached value afterwards."""
    seen: list[JSON] = []

    def handler(ctx: Context, params: JSON) -> JSON:
        seen.append(ctx.memo("m", lambda: {"price": 42}))
        seen.append(ctx.memo("m", lambda: "not called"))
        return {"content": []}

    request: dict[str, JSON] = {
        "id": 1,
        "method": "tools/call",
        "params": {"name": "t", "arguments": {}, "_meta": meta()},
    }
    config = ServerConfig(Keyring("0", {"0": b"s0"}), ttl=300)
    store = InMemoryRequestStateStore()
    dispatch(request, handler, config, now=1_000, nonce=lambda: bytes(12), store=store)
    assert seen == [{"price": 42}, {"price": 42}]
