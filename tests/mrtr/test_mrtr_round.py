"""neva's end-to-end MRTR tests (``neva/tests/mrtr.rs``), one server round at a time through
``mrtr.round`` (MRTR-HARNESS-4, MRTR-ROUND-*, MRTR-STORE-*, MRTR-SEED-*, MRTR-CTX-*)."""

from __future__ import annotations

from typing import Any

from tests.mrtr._round_helpers import FORM, ask, call, meta, ret, server, token_of

ALICE = {"action": "accept", "content": {"name": "octocat"}}
MONA = {"action": "accept", "content": {"name": "monalisa"}}
GREET = [ask("name"), {"op": "on_commit", "label": "greet"}, ret("hello")]


def _two_rounds(
    script: list[dict[str, Any]], answers: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    first = call(script)
    token = token_of(first)
    return token, call(script, id_=2, state=token, answers=answers)


def test_tool_elicits_then_completes_over_two_rounds() -> None:
    """Round 1 asks with a state and one request; the retry completes with resultType complete."""
    first = call(GREET, caps={"elicitation": {"form": {}}})
    result = first["response"]["result"]
    assert result["resultType"] == "input_required"
    assert list(result["inputRequests"]) == ["name"]
    assert result["inputRequests"]["name"] == {"method": "elicitation/create", "params": FORM}
    assert first["state"]["requested"] == ["name"]
    final = call(GREET, id_=2, state=token_of(first), answers={"name": ALICE})
    assert final["response"]["id"] == 2
    assert final["response"]["result"]["resultType"] == "complete"
    assert final["ran"] == ["commit:greet"]
    assert final["state"] is None


def test_a_retry_stating_its_answers_in_meta_is_still_understood() -> None:
    """The <= 0.5.2 retry (state and answers inside ``_meta``) still completes."""
    token = token_of(call(GREET))
    params = {
        "name": "greet",
        "arguments": {},
        "_meta": meta(requestState=token, inputResponses={"name": ALICE}),
    }
    final = call(GREET, id_=2, params=params)
    assert final["response"]["result"]["resultType"] == "complete"
    assert final["ran"] == ["commit:greet"]


def test_final_round_replay_is_idempotent_after_a_lost_response() -> None:
    """The identical final retry replays the cached result under the new id; no commit reruns."""
    token, final = _two_rounds(GREET, {"name": ALICE})
    replay = call(GREET, id_=3, state=token, answers={"name": ALICE}, store=final["store"])
    assert replay["ran"] == []
    assert replay["response"] == {**final["response"], "id": 3}
    assert replay["store"] == final["store"]


def test_an_ignored_answer_does_not_buy_a_second_run_of_the_final_round() -> None:
    """A replay adding an unrequested key still hits: the digest covers the seeded answers."""
    token, final = _two_rounds(GREET, {"name": ALICE})
    replay = call(
        GREET, id_=3, state=token, answers={"name": ALICE, "junk": 1}, store=final["store"]
    )
    assert replay["ran"] == []
    assert replay["response"]["id"] == 3


def test_a_round_that_failed_midway_through_its_commits_is_not_repeatable() -> None:
    """Commit 2 fails: its error is the response, commit 3 never runs, and a retry replays it."""
    script: list[dict[str, Any]] = [
        ask("card"),
        {"op": "on_commit", "label": "charge"},
        {
            "op": "on_commit",
            "label": "receipt",
            "fail": {"code": -32603, "message": "receipt service down"},
        },
        {"op": "on_commit", "label": "never"},
        ret("paid"),
    ]
    token, final = _two_rounds(script, {"card": ALICE})
    assert final["ran"] == ["commit:charge", "commit:receipt"]
    assert final["response"]["error"] == {
        "code": -32603,
        "message": "receipt service down",
        "data": None,
    }
    replay = call(script, id_=3, state=token, answers={"card": ALICE}, store=final["store"])
    assert replay["ran"] == []
    assert replay["response"]["error"]["message"] == "receipt service down"


def test_distinct_answers_to_the_same_state_do_not_collide_in_the_cache() -> None:
    """The same state with other answers misses the cache and gets its own entry."""
    token, final = _two_rounds(GREET, {"name": ALICE})
    other = call(GREET, id_=3, state=token, answers={"name": MONA}, store=final["store"])
    assert other["ran"] == ["commit:greet"]
    assert len(other["store"]) == 2


def test_effects_run_once_memo_caches_commit_fires_on_final_round() -> None:
    """Round 1 runs memo and once, not the receipt; round 2 reruns neither and commits once."""
    script: list[dict[str, Any]] = [
        {"op": "memo", "key": "quote", "value": 42},
        {"op": "once", "key": "charge"},
        {"op": "on_commit", "label": "receipt"},
        ask("name"),
        ret("hello octocat, charged at 42"),
    ]
    first = call(script)
    assert first["ran"] == ["memo:quote", "once:charge"]
    assert first["state"]["memos"] == {"quote": 42}
    assert first["state"]["effects"] == ["charge"]
    final = call(script, id_=2, state=token_of(first), answers={"name": ALICE})
    assert final["ran"] == ["commit:receipt"]


def test_oversized_request_state_is_rejected() -> None:
    """A 2048-character memo with a 256-byte cap fails the mint with requestState too large."""
    script = [{"op": "memo", "key": "big", "value": "x" * 2048}, ask("name"), ret()]
    out = call(script, srv=server(max_state_bytes=256))
    assert out["response"]["error"] == {
        "code": -32603,
        "message": "requestState too large",
        "data": None,
    }
    assert out["state"] is None


def test_oversized_inbound_request_state_is_rejected_before_decoding() -> None:
    """A 4096-byte inbound state against a 256 cap fails before decoding."""
    out = call(GREET, state="A" * 4096, srv=server(max_state_bytes=256))
    assert out["response"]["error"]["message"] == "requestState exceeds the configured maximum size"
    assert out["ran"] == []


def test_replaying_request_state_against_a_different_request_is_rejected() -> None:
    """The same state with other arguments does not match this request."""
    token = token_of(call(GREET))
    other = {"name": "greet", "arguments": {"x": 1}}
    out = call(GREET, id_=2, params=other, state=token, answers={"name": ALICE})
    assert out["response"]["error"]["message"] == "requestState does not match this request"


def test_a_request_state_minted_by_another_service_is_rejected() -> None:
    """Two services sharing a secret refuse each other's states by audience."""
    token = token_of(call(GREET, srv=server(audience="svc-a")))
    out = call(GREET, id_=2, state=token, answers={"name": ALICE}, srv=server(audience="svc-b"))
    assert out["response"]["error"]["message"] == "requestState audience mismatch"
    ok = call(GREET, id_=2, state=token, answers={"name": ALICE}, srv=server(audience="svc-a"))
    assert ok["response"]["result"]["resultType"] == "complete"


def test_eliciting_without_declared_capability_is_rejected() -> None:
    """Caps ``{}`` and an elicitation ask fail with -32021 naming the form mode."""
    out = call(GREET, caps={})
    assert out["response"]["error"] == {
        "code": -32021,
        "message": "server requested `elicitation/create` but the client did not declare support",
        "data": {"requiredCapabilities": {"elicitation": {"form": {}}}},
    }


def test_tool_samples_then_completes_over_two_rounds() -> None:
    """A sampling ask goes out as sampling/createMessage and its answer completes the call."""
    script = [ask("summary", "sampling/createMessage"), ret("summary: it is a Rust MCP SDK")]
    first = call(script, caps={"sampling": True})
    assert first["response"]["result"]["inputRequests"]["summary"]["method"] == (
        "sampling/createMessage"
    )
    answer = {"role": "assistant", "content": {"type": "text", "text": "it is"}, "model": "m"}
    final = call(
        script, id_=2, state=token_of(first), answers={"summary": answer}, caps={"sampling": True}
    )
    assert final["response"]["result"]["resultType"] == "complete"


def test_tool_lists_roots_then_completes_over_two_rounds() -> None:
    """A roots ask goes out as roots/list with params {} and its answer completes the call."""
    script = [ask("dirs", "roots/list"), ret("scanning file:///work")]
    first = call(script, caps={"roots": True})
    assert first["response"]["result"]["inputRequests"]["dirs"] == {
        "method": "roots/list",
        "params": {},
    }
    answer = {"roots": [{"uri": "file:///work", "name": "work"}]}
    final = call(
        script, id_=2, state=token_of(first), answers={"dirs": answer}, caps={"roots": True}
    )
    assert final["response"]["result"]["resultType"] == "complete"


def test_sampling_without_declared_capability_is_rejected() -> None:
    """Caps ``{"elicitation": true}`` and a sampling ask: the rejection names sampling."""
    out = call([ask("s", "sampling/createMessage"), ret()], caps={"elicitation": True})
    assert out["response"]["error"]["code"] == -32021
    assert "sampling/createMessage" in out["response"]["error"]["message"]
    assert out["response"]["error"]["data"] == {"requiredCapabilities": {"sampling": {}}}


def test_one_round_carries_every_input_the_handler_asked_for() -> None:
    """Held errors let one round ask three kinds; one retry answering all three completes."""
    caps: dict[str, Any] = {"elicitation": {}, "sampling": {}, "roots": {}}
    script = [
        ask("who", on_error="hold"),
        ask("dirs", "roots/list", on_error="hold"),
        ask("greeting", "sampling/createMessage", on_error="hold"),
        {"op": "raise"},
        ret("octocat has 1 roots"),
    ]
    first = call(script, caps=caps)
    requests = first["response"]["result"]["inputRequests"]
    assert [r["method"] for r in requests.values()] == [
        "elicitation/create",
        "roots/list",
        "sampling/createMessage",
    ]
    assert first["state"]["requested"] == ["who", "dirs", "greeting"]
    answers = {
        "who": ALICE,
        "dirs": {"roots": [{"uri": "file:///w", "name": "w"}]},
        "greeting": {"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"},
    }
    final = call(script, id_=2, state=token_of(first), answers=answers, caps=caps)
    assert final["response"]["result"]["resultType"] == "complete"


def test_an_answer_of_the_wrong_shape_is_a_protocol_error() -> None:
    """``{"who": 12345}`` with no state is a JSON-RPC -32602 naming elicitation/create."""
    out = call([ask("who"), ret()], answers={"who": 12345})
    error = out["response"]["error"]
    assert error["code"] == -32602
    assert error["message"].startswith(
        "the answer for `who` is not a valid elicitation/create result"
    )


def test_a_handler_asks_only_for_what_the_caller_declared() -> None:
    """The handler branches on the declared capabilities and asks by sampling."""
    script = [
        {
            "op": "if_declared",
            "capability": "elicitation",
            "then": [ask("who"), ret()],
            "else": [ask("who", "sampling/createMessage"), ret()],
        }
    ]
    out = call(script, caps={"sampling": {}})
    assert out["response"]["result"]["inputRequests"]["who"]["method"] == "sampling/createMessage"


def test_a_custom_method_owns_its_own_params() -> None:
    """On a custom method requestState 42 and a list inputResponses are ordinary params."""
    params = {"requestState": 42, "inputResponses": [1, 2], "_meta": meta()}
    out = call(
        [{"op": "once", "key": "k"}, {"op": "on_commit", "label": "c"}, ret("echo")],
        method="custom/echo",
        params=params,
    )
    assert out["response"]["result"]["resultType"] == "complete"
    assert out["ran"] == ["once:k"]  # on_commit is dropped outside MRTR


def test_an_identical_final_retry_after_the_first_is_served_from_the_store() -> None:
    """One round at a time (mrtr.round has no threads), the second identical retry is a hit; the
    threaded one is test_concurrent_final_round_retries_commit_exactly_once (test_mrtr_engine)."""
    token, final = _two_rounds(GREET, {"name": ALICE})
    second = call(GREET, id_=9, state=token, answers={"name": ALICE}, store=final["store"])
    assert second["ran"] == []


def test_round_comparison_relaxes_only_the_serde_tail() -> None:
    """HARNESS-CMP-5: a malformed-answer message is compared up to ` result`, no further."""
    from mcp_touchstone.conformance._compare import outputs_match

    def with_message(message: str, code: int = -32602) -> dict[str, Any]:
        error = {"code": code, "message": message, "data": None}
        return {
            "response": {"jsonrpc": "2.0", "id": 1, "error": error},
            "ran": [],
            "state": None,
            "store": [],
        }

    base = "the answer for `k` is not a valid roots/list result"
    assert outputs_match("mrtr.round", with_message(base + ": a"), with_message(base + ": b"))
    assert not outputs_match(
        "mrtr.round",
        with_message(base + ": a"),
        with_message(base.replace("roots/list", "x") + ": a"),
    )
    assert outputs_match("mrtr.round", with_message("x", -32700), with_message("y", -32700))
    assert not outputs_match(
        "mrtr.round", with_message("requestState expired"), with_message("requestState expired!")
    )


def test_input_outside_the_shapes_is_invalid_input() -> None:
    """MRTR-HARNESS-4: bad scripts, ids and configurations are invalid_input, never raised."""
    from mcp_touchstone.harness._mrtr_round import mrtr_round

    good_request = {"id": 1, "method": "tools/call", "params": {"name": "t", "_meta": meta()}}
    cases: list[Any] = [
        {"request": good_request, "server": server(), "script": [{"op": "once", "key": "k"}]},
        {"request": good_request, "server": server(), "script": [{"op": "dance"}]},
        {
            "request": good_request,
            "server": server(),
            "script": [{"op": "ask", "method": "elicitation/create", "key": "k"}],
        },
        {
            "request": good_request,
            "server": server(),
            "script": [{"op": "memo", "key": "k"}, ret()],
        },
        {
            "request": {**good_request, "id": "67e55044-10b1-426f-9247-bb680e5fe0c8"},
            "server": server(),
            "script": [ret()],
        },
        {"request": {**good_request, "id": "a/b"}, "server": server(), "script": [ret()]},
        {"request": good_request, "server": {**server(), "nonce_hex": "00"}, "script": [ret()]},
        {
            "request": good_request,
            "server": server(),
            "store": [{"tag": "t", "response": {}, "exp": 1}] * 2,
            "script": [ret()],
        },
    ]
    for case in cases:
        out: Any = mrtr_round(case)
        assert out["error"]["kind"] == "invalid_input", case
