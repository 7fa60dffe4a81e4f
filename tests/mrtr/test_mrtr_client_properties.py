"""Hypothesis properties of neva's client loop (MRTR-CLIENT-5, MRTR-CLIENT-6, MRTR-CLIENT-8)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.mrtr import ClientOptions, RpcError, run_batch_with_mrtr, run_with_mrtr
from mcp_touchstone.serde_json import JSON
from tests.mrtr._client_helpers import FORM, ROOTS, Handlers, counter, text_result

_KEY = st.text(alphabet="abcdefgh_", min_size=1, max_size=4)
_STATE = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=40)
_ROUND = st.dictionaries(_KEY, st.sampled_from([FORM, ROOTS]), max_size=4)
_ROUNDS = st.lists(st.tuples(_ROUND, st.none() | _STATE), max_size=6)


def _server(
    rounds: list[tuple[dict[str, JSON], str | None]],
) -> tuple[list[dict[str, JSON]], Callable[[dict[str, JSON]], dict[str, JSON]]]:
    sent: list[dict[str, JSON]] = []

    def send(request: dict[str, JSON]) -> dict[str, JSON]:
        sent.append(request)
        i = len(sent) - 1
        if i < len(rounds):
            requests, state = rounds[i]
            result: dict[str, JSON] = {
                "resultType": "input_required",
                "inputRequests": dict(requests),
            }
            if state is not None:
                result["requestState"] = state
        else:
            result = text_result("done")
        return {"jsonrpc": "2.0", "id": request["id"], "result": result}

    return sent, send


def _drive(
    rounds: list[tuple[dict[str, JSON], str | None]], max_rounds: int = 8, params: JSON = None
) -> tuple[list[dict[str, JSON]], JSON | RpcError]:
    sent, send = _server(rounds)
    request: dict[str, JSON] = {
        "id": 0,
        "method": "tools/call",
        "params": params if params is not None else {"name": "t"},
    }
    try:
        out: JSON | RpcError = run_with_mrtr(
            request,
            ClientOptions(elicitation=True, max_rounds=max_rounds),
            send=send,
            fulfil=Handlers(),
            next_id=counter(1),
        )
    except RpcError as exc:
        out = exc
    return sent, out


@given(_ROUNDS)
def test_state_is_echoed_byte_for_byte(rounds: list[tuple[dict[str, JSON], str | None]]) -> None:
    """MRTR-CLIENT-5: each retry's requestState is exactly the previous response's, or absent."""
    sent, _ = _drive(rounds)
    for i, retry in enumerate(sent[1:]):
        params = retry["params"]
        assert isinstance(params, dict)
        state = rounds[i][1]
        if state is None:
            assert "requestState" not in params
        else:
            assert params["requestState"] == state
            assert isinstance(params["requestState"], str)
            assert params["requestState"].encode() == state.encode()


@given(_ROUNDS)
def test_each_retry_carries_only_the_keys_just_asked(
    rounds: list[tuple[dict[str, JSON], str | None]],
) -> None:
    """MRTR-CLIENT-5: inputResponses holds exactly the previous response's keys ({} included)."""
    sent, _ = _drive(rounds)
    assert len(sent) == len(rounds) + 1
    for i, retry in enumerate(sent[1:]):
        params = retry["params"]
        assert isinstance(params, dict)
        answers = params["inputResponses"]
        assert isinstance(answers, dict)
        assert list(answers) == list(rounds[i][0])


@given(_ROUNDS, st.dictionaries(_KEY, st.integers(), max_size=3))
def test_every_retry_starts_from_the_original_params(
    rounds: list[tuple[dict[str, JSON], str | None]], extra: dict[str, JSON]
) -> None:
    """MRTR-CLIENT-5: a retry is the original params plus _meta and the two MRTR fields, new id."""
    original: dict[str, JSON] = {"name": "t", "arguments": dict(extra)}
    sent, _ = _drive(rounds, params=original)
    first = sent[0]["params"]
    assert isinstance(first, dict)
    for retry in sent[1:]:
        params = retry["params"]
        assert isinstance(params, dict)
        assert {
            k: v for k, v in params.items() if k not in ("inputResponses", "requestState")
        } == first
    ids = [r["id"] for r in sent]
    assert len(set(ids)) == len(ids)


@given(st.integers(min_value=0, max_value=12), st.integers(min_value=0, max_value=15))
def test_never_more_than_budget_plus_one_sends(max_rounds: int, asks: int) -> None:
    """MRTR-CLIENT-6: the loop sends min(asks, max_rounds) + 1 requests, never more."""
    sent, out = _drive([({"k": FORM}, "s")] * asks, max_rounds=max_rounds)
    assert len(sent) <= max_rounds + 1
    assert len(sent) == min(asks, max_rounds) + 1
    assert isinstance(out, RpcError) == (asks > max_rounds)


@given(
    st.integers(min_value=0, max_value=6),
    st.lists(st.integers(min_value=0, max_value=8), min_size=1, max_size=4),
)
def test_batch_never_more_than_budget_plus_one_writes(max_rounds: int, asks: list[int]) -> None:
    """MRTR-CLIENT-8: at most max_rounds + 1 writes; the batch fails iff a slot outlasts it."""
    writes: list[list[dict[str, JSON]]] = []
    seen: dict[int, int] = {}

    def send_batch(envelopes: list[dict[str, JSON]]) -> list[dict[str, JSON] | RpcError]:
        writes.append(envelopes)
        out: list[dict[str, JSON] | RpcError] = []
        for env in envelopes:
            params = env["params"]
            assert isinstance(params, dict)
            assert isinstance(params["name"], str)
            slot = int(params["name"])  # retries keep the original params, so the slot's name
            seen[slot] = seen.get(slot, 0) + 1
            result: JSON = (
                {
                    "resultType": "input_required",
                    "inputRequests": {"k": FORM},
                    "requestState": f"{slot}",
                }
                if seen[slot] <= asks[slot]
                else text_result("done")
            )
            out.append({"jsonrpc": "2.0", "id": env["id"], "result": result})
        return out

    items: list[dict[str, JSON]] = [
        {"id": i, "method": "tools/call", "params": {"name": str(i)}} for i in range(len(asks))
    ]
    options = ClientOptions(elicitation=True, max_rounds=max_rounds)
    if max(asks) > max_rounds:
        with pytest.raises(RpcError, match="MRTR exceeded the maximum number of rounds"):
            run_batch_with_mrtr(
                items, options, send_batch=send_batch, fulfil=Handlers(), next_id=counter(9)
            )
    else:
        out = run_batch_with_mrtr(
            items, options, send_batch=send_batch, fulfil=Handlers(), next_id=counter(9)
        )
        assert len(out) == len(asks)
    assert len(writes) <= max_rounds + 1
    assert len(writes) == min(max(asks), max_rounds) + 1
    for round_no, write in enumerate(writes):
        # Lock-step: a write holds exactly the slots still asking at that round.
        assert len(write) == sum(1 for a in asks if a >= round_no)
