"""The round's bookkeeping and its small helpers walked case by case: ``MrtrCtx::resolve``
(first malformed answer wins, one pending entry per key), the seed merge (settled, unsolicited,
accepted), the binding's unbound keys, the plain-JSON fast parse at its edges and the package's
lazy wire models (neva ``app/context/effects.rs``, ``app/mrtr.rs``); expectations by hand."""

from __future__ import annotations

import base64
import hashlib

import pytest

from mcp_touchstone import mrtr
from mcp_touchstone.mrtr import RpcError
from mcp_touchstone.mrtr._binding import (
    UNBOUND_KEYS,
    input_responses_digest,
    request_binding,
    salient_params,
)
from mcp_touchstone.mrtr._context import (
    INPUT_REQUIRED,
    INVALID_REQUEST,
    Context,
    RoundState,
    input_required_error,
)
from mcp_touchstone.mrtr._requests import decode_input_request
from mcp_touchstone.mrtr._seed import merge_answers
from mcp_touchstone.serde_json import JSON

FORM: JSON = {"message": "Name?", "requestedSchema": {"type": "object", "properties": {}}}
ELICIT = decode_input_request({"method": "elicitation/create", "params": FORM})
ROOTS = decode_input_request({"method": "roots/list"})


def b64(data: bytes) -> str:
    """Unpadded base64url."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def test_sentinel_codes() -> None:
    """MRTR-CTX-3, MRTR-CTX-8: the miss sentinel and the outside-MRTR code."""
    assert (INPUT_REQUIRED, INVALID_REQUEST) == (-99997, -32600)
    error = input_required_error()
    assert (error.code, error.message, error.data) == (-99997, "input required", None)


def test_a_miss_is_pending_once_in_ask_order() -> None:
    """MRTR-CTX-2: each missed key is pending once (the first ask wins), in ask order."""
    state = RoundState()
    for key, request in (("b", ELICIT), ("a", ROOTS), ("b", ROOTS), ("a", ELICIT)):
        with pytest.raises(RpcError) as exc:
            state.resolve(key, request)
        assert (exc.value.code, exc.value.message) == (-99997, "input required")
    assert state.pending == [("b", ELICIT), ("a", ROOTS)]


def test_the_first_malformed_answer_is_kept() -> None:
    """MRTR-CTX-4: a misfit raises its reason as -32602; the first recorded one stays."""
    state = RoundState(answers={"x": {"action": "maybe"}, "y": {"roots": 5}})
    with pytest.raises(RpcError) as first:
        state.resolve("x", ELICIT)
    with pytest.raises(RpcError) as second:
        state.resolve("y", ROOTS)
    assert first.value.code == second.value.code == -32602
    assert first.value.message.startswith(
        "the answer for `x` is not a valid elicitation/create result: "
    )
    assert second.value.message.startswith("the answer for `y` is not a valid roots/list result: ")
    assert state.malformed_answer == first.value.message
    assert state.pending == []


def test_a_fitting_answer_is_returned_and_nothing_pends() -> None:
    """MRTR-CTX-1: a hit that fits returns the answer as given."""
    state = RoundState(answers={"r": {"roots": []}})
    assert state.resolve("r", ROOTS) == {"roots": []}
    assert (state.pending, state.malformed_answer) == ([], None)


@pytest.mark.parametrize(
    ("call", "word"),
    [
        (lambda c: c.elicit("k", FORM), "elicitation"),
        (lambda c: c.sample("k", {"messages": [], "maxTokens": 1}), "sampling"),
        (lambda c: c.list_roots("k"), "roots"),
    ],
)
def test_inputs_outside_mrtr_are_invalid_requests(call: object, word: str) -> None:
    """MRTR-CTX-8: without a round each input helper is -32600 naming its kind."""
    with pytest.raises(RpcError) as exc:
        call(Context(None))  # type: ignore[operator]
    assert (exc.value.code, exc.value.message) == (
        -32600,
        f"{word} is not available for this request",
    )


def test_memo_and_once_bookkeeping() -> None:
    """MRTR-CTX-5, MRTR-CTX-6: a cached memo is not computed; a seen once key does not run."""
    state = RoundState(memos={"m": None}, effects=["e"])
    ctx = Context(state)
    assert ctx.memo("m", lambda: 1) is None  # a stored null is a hit, not a miss
    assert ctx.memo("n", lambda: 2) == 2
    assert state.memos == {"m": None, "n": 2}
    ran: list[str] = []
    assert ctx.once("e", lambda: ran.append("e")) is False
    assert ctx.once("f", lambda: ran.append("f")) is True
    assert ctx.once("f", lambda: ran.append("f")) is False
    assert (ran, state.effects) == (["f"], ["e", "f"])
    state.record_effect("e")
    assert state.effects == ["e", "f"]
    assert state.cached_memo("zz") == (False, None)
    assert state.cached_memo("m") == (True, None)


def test_on_commit_registers_in_order_with_labels() -> None:
    """MRTR-CTX-7: commits are kept in registration order, label defaulting to empty."""
    state = RoundState()
    ctx = Context(state)
    first, second = (lambda: None), (lambda: None)
    ctx.on_commit(first)
    ctx.on_commit(second, "two")
    assert state.commits == [("", first), ("two", second)]


def test_context_capabilities_default_to_the_rounds() -> None:
    """MRTR-SEED-1: a context reports its round's capabilities unless given its own."""
    state = RoundState()
    assert Context(state).client_capabilities() is state.capabilities
    assert Context(state).round is state
    assert Context(None).round is None


@pytest.mark.parametrize(
    ("settled", "requested", "offered", "merged"),
    [
        ({}, None, None, {}),
        ({}, None, {"a": 1}, {"a": 1}),
        ({"a": 1}, None, {"a": 2, "b": 3}, {"a": 1, "b": 3}),
        ({}, (), {"a": 1}, {}),
        ({}, ("a",), {"a": 1, "b": 2}, {"a": 1}),
        ({"a": 1}, ("a",), {"a": 9}, {"a": 1}),
        ({"s": 0}, ("a", "b"), {"b": 2, "a": 1, "c": 3}, {"s": 0, "b": 2, "a": 1}),
    ],
)
def test_merge_answers_table(
    settled: dict[str, JSON],
    requested: tuple[str, ...] | None,
    offered: dict[str, JSON] | None,
    merged: dict[str, JSON],
) -> None:
    """MRTR-SEED-2..4: settled keys stay, unsolicited keys drop once a state says what was asked."""
    before = dict(settled)
    assert merge_answers(settled, requested, offered) == merged
    assert settled == before  # the state's answers are not mutated


def test_binding_tables() -> None:
    """MRTR-BIND-1, MRTR-BIND-2, MRTR-DIGEST-1: the unbound keys, the salient params, the hashes."""
    assert frozenset({"_meta", "inputResponses", "requestState"}) == UNBOUND_KEYS
    assert salient_params({"a": 1, "_meta": {}, "inputResponses": {}, "requestState": "s"}) == {
        "a": 1
    }
    assert salient_params({"arguments": {"_meta": 1}}) == {"arguments": {"_meta": 1}}
    assert salient_params([1]) == [1]
    assert salient_params(None) is None
    empty = b64(hashlib.sha256(b"{}").digest())
    assert request_binding("m", {"_meta": {"x": 1}}) == f"m:{empty}"
    assert request_binding("m", {}) == f"m:{empty}"
    assert request_binding("m", None) == "m:" + b64(hashlib.sha256(b"null").digest())
    assert request_binding("m", {"b": 1, "a": [2]}) == "m:" + b64(
        hashlib.sha256(b'{"a":[2],"b":1}').digest()
    )
    assert input_responses_digest({}) == empty
    assert input_responses_digest({"k": {"y": 1, "x": 2}}) == b64(
        hashlib.sha256(b'{"k":{"x":2,"y":1}}').digest()
    )


def test_wire_models_are_their_own_module_and_unknown_names_fail() -> None:
    """MRTR-WIRE-1: the wire models come from ``mcp_touchstone.mrtr.wire``, not the package;
    any name the package does not define is an AttributeError."""
    from mcp_touchstone.mrtr import wire

    for name in ("ElicitResult", "InputRequiredResult", "ListRootsResult", "CreateMessageResult"):
        assert getattr(wire, name).__name__ == name
        assert name not in mrtr.__all__
    with pytest.raises(AttributeError) as exc:
        _ = mrtr.NoSuchThing  # type: ignore[attr-defined]
    assert str(exc.value) == "module 'mcp_touchstone.mrtr' has no attribute 'NoSuchThing'"


def test_seed_round_reads_the_state_and_the_capabilities() -> None:
    """MRTR-SEED-1..4: the verified state seeds answers, memos, effects and requested; the
    capabilities are the ones given, else the typed `_meta`'s."""
    from mcp_touchstone.mrtr import ClientMrtrCapabilities, Keyring, StatePayload
    from mcp_touchstone.mrtr._seed import seed_round
    from mcp_touchstone.mrtr._state import CheckContext, seal

    ring = Keyring("0", {"0": b"seed"})
    meta: JSON = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"sampling": {}},
    }
    params: dict[str, JSON] = {"name": "t", "_meta": meta}
    payload = StatePayload(
        answers={"s": 1},
        exp=10,
        req=request_binding("tools/call", {"name": "t"}),
        requested=("a",),
        memos={"m": 2},
        effects=("e",),
    )
    token = seal(payload, ring, bytes(12))
    retry: dict[str, JSON] = {
        **params,
        "requestState": token,
        "inputResponses": {"a": 3, "b": 4, "s": 5},
    }
    check = CheckContext(method="tools/call", params=retry, now=10)
    seeded = seed_round("tools/call", retry, ring, check)
    assert seeded.token == token
    state = seeded.round
    assert (state.answers, state.memos, state.effects, state.requested) == (
        {"s": 1, "a": 3},
        {"m": 2},
        ["e"],
        ("a",),
    )
    assert (state.capabilities.sampling, state.capabilities.elicitation) == (True, None)
    given = ClientMrtrCapabilities(roots=True)
    assert seed_round("tools/call", retry, ring, check, given).round.capabilities is given
    fresh = seed_round("tools/call", params, ring, CheckContext("tools/call", params, 10))
    assert (fresh.token, fresh.round.requested, fresh.round.answers) == (None, None, {})
