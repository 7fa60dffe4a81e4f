"""RedisRequestStateStore against a real redis-server (ADAPT-STORE-*)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_touchstone.adapters.redis_store import RedisRequestStateStore, ReservationTimeoutError
from mcp_touchstone.mrtr._engine import dispatch
from mcp_touchstone.mrtr._store import InMemoryRequestStateStore, RequestStateStore, StoredResponse
from tests.adapters import _redis_worker as worker

ROOT = Path(__file__).resolve().parents[2]
NOW = 1_000_000


def _response(n: int) -> StoredResponse:
    return StoredResponse.of({"jsonrpc": "2.0", "id": n, "result": {"n": n}})


def test_implements_the_store_protocol(redis_client: Any) -> None:
    """ADAPT-STORE-1: the round engine's RequestStateStore protocol, checked at runtime."""
    assert isinstance(RedisRequestStateStore(redis_client), RequestStateStore)


def test_get_answers_strictly_before_exp(redis_client: Any) -> None:
    """ADAPT-STORE-2: an entry answers while ``exp > now``, never at ``exp``, and an expired one
    found by ``get`` is deleted (neva's ``get``)."""
    store = RedisRequestStateStore(redis_client)
    far = int(time.time()) + 3600
    store.put("k", _response(1), far)
    assert store.get("k", far - 1) == _response(1)
    assert store.get("k", far) is None
    assert store.get("k", far - 1) is None  # the expired sighting deleted it


def test_entries_expire_in_redis_at_the_state_exp(redis_client: Any) -> None:
    """ADAPT-STORE-3: the Redis key itself expires at ``exp`` (nothing outlives the state)."""
    store = RedisRequestStateStore(redis_client, prefix="p:")
    exp = int(time.time()) + 100
    store.put("k", _response(1), exp)
    assert redis_client.expiretime("p:r:k") == exp
    store.put("gone", _response(2), int(time.time()) - 5)
    assert redis_client.get("p:r:gone") is None


def test_replay_is_the_stored_response_with_the_new_id(redis_client: Any) -> None:
    """ADAPT-STORE-2: what comes back is the stored text itself; the replay replaces the id."""
    store = RedisRequestStateStore(redis_client)
    store.put("k", _response(1), int(time.time()) + 60)
    found = store.get("k", NOW)
    assert found is not None
    assert found.with_id(77) == {"jsonrpc": "2.0", "id": 77, "result": {"n": 1}}


def test_reservation_excludes_a_second_holder(redis_client: Any) -> None:
    """ADAPT-STORE-4: a reservation blocks another reservation of the same key until released."""
    store = RedisRequestStateStore(redis_client)
    order: list[str] = []
    entered = threading.Event()

    def second() -> None:
        entered.wait()
        with store.reserve("k"):
            order.append("second")

    thread = threading.Thread(target=second)
    thread.start()
    with store.reserve("k"):
        entered.set()
        time.sleep(0.2)
        order.append("first")
    thread.join()
    assert order == ["first", "second"]


def test_reservations_of_other_keys_do_not_block(redis_client: Any) -> None:
    """ADAPT-STORE-4: the lock is per key."""
    store = RedisRequestStateStore(redis_client, lock_wait=0)
    with store.reserve("a"), store.reserve("b"):
        pass


def test_reservation_wait_is_bounded(redis_client: Any) -> None:
    """ADAPT-STORE-4: a key held past ``lock_wait`` raises ReservationTimeoutError naming it."""
    store = RedisRequestStateStore(redis_client, lock_wait=0.05)
    with store.reserve("k"), pytest.raises(ReservationTimeoutError, match="touchstone:mrtr:l:k"):
        store.reserve("k").__enter__()


def test_a_dead_holders_lock_expires(redis_client: Any) -> None:
    """ADAPT-STORE-5: a holder that never releases (a crashed process) blocks only ``lock_ttl``."""
    store = RedisRequestStateStore(redis_client, lock_ttl=0.1, lock_wait=2)
    store.reserve("k").__enter__()  # never exited
    started = time.monotonic()
    with store.reserve("k"):
        waited = time.monotonic() - started
    assert 0.0 < waited < 2


def test_release_is_token_checked(redis_client: Any) -> None:
    """ADAPT-STORE-5: a holder whose lock expired cannot release the next holder's lock."""
    store = RedisRequestStateStore(redis_client, lock_ttl=0.05, lock_wait=1)
    first = store.reserve("k")
    first.__enter__()
    time.sleep(0.1)  # first's lock expires
    with store.reserve("k"):
        first.__exit__(None, None, None)  # late release: must not delete the second's lock
        assert redis_client.get("touchstone:mrtr:l:k") is not None


def test_bad_settings_are_refused(redis_client: Any) -> None:
    """ADAPT-API-2: a non-positive lock_ttl is a clear ValueError."""
    with pytest.raises(ValueError, match="lock_ttl"):
        RedisRequestStateStore(redis_client, lock_ttl=0)


def _mint(now: int) -> dict[str, Any]:
    """Round one (no state yet, so no store is consulted): the retry's params."""
    request: dict[str, Any] = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "purge", "arguments": {}, "_meta": _meta()},
    }
    first = dispatch(
        request,
        worker.handler_for(_NullRedis()),
        worker.config(),
        now=now,
        nonce=lambda: bytes(12),
        store=InMemoryRequestStateStore(),
    )
    token = first.response["result"]["requestState"]  # type: ignore[index,call-overload]
    return {
        "name": "purge",
        "arguments": {},
        "_meta": _meta(),
        "requestState": token,
        "inputResponses": {"confirm": {"action": "accept", "content": {}}},
    }


def _meta() -> dict[str, Any]:
    return {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
    }


class _NullRedis:
    """Round one asks before it counts, so its counter calls are never reached."""

    def incr(self, _key: str) -> None:  # pragma: no cover - not reached in round one
        raise AssertionError("round one must not run past its question")


def test_two_processes_retrying_one_final_round_run_the_handler_once(
    redis_client: Any, redis_port: int
) -> None:
    """ADAPT-STORE-6: two server processes sharing one Redis receive the same final retry at
    once; the handler and its commit run once, and both answer the same response up to the id."""
    now = int(time.time())  # the Redis keys expire on the server's wall clock
    params = json.dumps(_mint(now))
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.adapters._redis_worker",
                str(redis_port),
                str(i),
                str(now),
                params,
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        for i in (10, 11)
    ]
    time.sleep(0.3)  # both processes are up and polling
    redis_client.set("go", 1)
    outs = [json.loads(p.communicate(timeout=60)[0]) for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    assert int(redis_client.get("runs")) == 1
    assert int(redis_client.get("commits")) == 1
    assert sorted(o["replayed"] for o in outs) == [False, True]
    first, second = (o["response"] for o in outs)
    assert {first["id"], second["id"]} == {10, 11}
    assert {**first, "id": 0} == {**second, "id": 0}
    assert first["result"]["content"][0]["text"] == "done"


# ----------------------------------------------------------------------- the asyncio store


def _async_store(port: int, **kwargs: Any) -> Any:
    from mcp_touchstone.adapters.redis_store import AsyncRedisRequestStateStore

    return AsyncRedisRequestStateStore.from_url(f"redis://127.0.0.1:{port}/0", **kwargs)


def test_begin_claims_once_and_commit_replaces_the_claim(
    redis_client: Any, redis_port: int
) -> None:
    """ADAPT-STORE-7: ``begin`` claims a free round (``SET NX EXAT exp``) and answers ``busy``
    to a second caller; ``commit`` replaces the claim by the final in one script, after which
    ``begin`` answers the final's text."""

    async def main() -> list[Any]:
        store = _async_store(redis_port)
        exp = int(time.time()) + 60
        first = await store.begin("k", claim="k", committed=None, now=NOW, exp=exp)
        second = await store.begin("k", claim="k", committed=None, now=NOW, exp=exp)
        assert first.token is not None
        await store.commit("k", _response(1), exp, claim="k", token=first.token, committed=None)
        third = await store.begin("k", claim="k", committed=None, now=NOW, exp=exp)
        await store.aclose()
        return [first.outcome, second.outcome, third.outcome, third.text, exp]

    *answers, exp = anyio.run(main)
    assert answers == ["claimed", "busy", "final", _response(1).text]
    assert redis_client.expiretime("touchstone:mrtr:r:k") == exp
    assert redis_client.exists("touchstone:mrtr:c:k") == 0


def test_a_final_is_live_strictly_before_exp(redis_client: Any, redis_port: int) -> None:
    """ADAPT-STORE-7: as ``get``, ``begin`` answers a final only while ``exp > now`` and deletes
    one it finds expired (then claims the round)."""

    async def main() -> list[str]:
        store = _async_store(redis_port)
        exp = int(time.time()) + 60
        begun = await store.begin("k", claim="k", committed=None, now=NOW, exp=exp)
        assert begun.token is not None
        await store.commit("k", _response(1), exp, claim="k", token=begun.token, committed=None)
        late = await store.begin("k", claim="k", committed=None, now=exp, exp=exp + 60)
        await store.aclose()
        return [late.outcome]

    assert anyio.run(main) == ["claimed"]


def test_abandon_frees_the_claim_and_a_lost_claim_stores_nothing(
    redis_client: Any, redis_port: int
) -> None:
    """ADAPT-STORE-7: ``abandon`` deletes the caller's own claim only; a ``commit`` whose claim
    is gone stores nothing and raises StoreUnavailableError."""
    from mcp_touchstone.adapters.redis_store import StoreUnavailableError

    async def main() -> None:
        store = _async_store(redis_port)
        exp = int(time.time()) + 60
        mine = await store.begin("k", claim="k", committed=None, now=NOW, exp=exp)
        assert mine.token is not None
        await store.abandon("k", "not-the-token")
        assert redis_client.exists("touchstone:mrtr:c:k") == 1
        await store.abandon("k", mine.token)
        assert redis_client.exists("touchstone:mrtr:c:k") == 0
        with pytest.raises(StoreUnavailableError, match="lost the claim"):
            await store.commit("k", _response(1), exp, claim="k", token=mine.token, committed=None)
        assert redis_client.exists("touchstone:mrtr:r:k") == 0
        await store.aclose()

    anyio.run(main)


def test_single_use_marks_the_state_committed(redis_client: Any, redis_port: int) -> None:
    """ADAPT-STORE-7: with a ``committed`` key, ``commit`` marks the state, and ``begin`` of
    another key of that state answers ``committed``."""

    async def main() -> str:
        store = _async_store(redis_port)
        exp = int(time.time()) + 60
        one = await store.begin("s.a", claim="s", committed="s.committed", now=NOW, exp=exp)
        assert one.token is not None
        await store.commit(
            "s.a", _response(1), exp, claim="s", token=one.token, committed="s.committed"
        )
        other = await store.begin("s.b", claim="s", committed="s.committed", now=NOW, exp=exp)
        await store.aclose()
        return str(other.outcome)

    assert anyio.run(main) == "committed"


def test_every_call_has_a_deadline(own_redis: Any) -> None:
    """ADAPT-STORE-8: a stopped Redis is StoreUnavailableError within the deadline, a killed
    one at once; a deadline that is not positive is a clear ValueError."""
    from mcp_touchstone.adapters.redis_store import StoreUnavailableError

    async def attempt() -> tuple[str, float]:
        store = _async_store(own_redis.port, deadline=0.3)
        started = time.monotonic()
        try:
            await store.begin("k", claim="k", committed=None, now=NOW, exp=NOW + 60)
        except StoreUnavailableError as exc:
            return str(exc), time.monotonic() - started
        finally:
            await store.aclose()
        raise AssertionError("the call did not fail")

    own_redis.stop()
    try:
        message, took = anyio.run(attempt)
    finally:
        own_redis.cont()
    assert message == "the Redis store did not answer begin within 0.3 s"
    assert took < 0.6
    own_redis.kill()
    message, took = anyio.run(attempt)
    assert message == "the Redis store failed begin: ConnectionError"
    assert took < 0.3
    with pytest.raises(ValueError, match="deadline"):
        _async_store(own_redis.port, deadline=0)


def test_more_calls_than_connections_wait_for_one(redis_client: Any, redis_port: int) -> None:
    """ADAPT-STORE-8: ``from_url`` bounds the open connections; 300 calls at once on 8
    connections all succeed, each awaiting a free connection within the deadline."""

    async def main() -> list[str]:
        store = _async_store(redis_port, max_connections=8)
        exp = int(time.time()) + 60

        async def one(i: int) -> str:
            begun = await store.begin(f"k{i}", claim=f"k{i}", committed=None, now=NOW, exp=exp)
            return str(begun.outcome)

        try:
            async with anyio.create_task_group() as tg:
                outcomes: list[str] = []

                async def run(i: int) -> None:
                    outcomes.append(await one(i))

                for i in range(300):
                    tg.start_soon(run, i)
        finally:
            await store.aclose()
        return outcomes

    assert anyio.run(main) == ["claimed"] * 300
    assert len(redis_client.keys("touchstone:mrtr:c:*")) == 300


def _connections_received(redis_client: Any) -> int:
    return int(redis_client.info("stats")["total_connections_received"])


def test_calls_made_in_one_turn_go_as_one_pipeline(redis_client: Any, redis_port: int) -> None:
    """ADAPT-STORE-10: 300 calls made in one turn of the event loop reach Redis as one pipeline,
    on one connection, each answered its own reply."""

    async def main() -> list[str]:
        store = _async_store(redis_port, max_connections=64)
        exp = int(time.time()) + 60
        try:
            calls = [
                store.begin(f"k{i % 150}", claim=f"k{i % 150}", committed=None, now=NOW, exp=exp)
                for i in range(300)
            ]
            return [str(begun.outcome) for begun in await asyncio.gather(*calls)]
        finally:
            await store.aclose()

    before = _connections_received(redis_client)
    assert anyio.run(main) == ["claimed"] * 150 + ["busy"] * 150
    assert _connections_received(redis_client) - before == 1
    assert len(redis_client.keys("touchstone:mrtr:c:*")) == 150


def test_a_failing_call_fails_alone_in_its_pipeline(redis_client: Any, redis_port: int) -> None:
    """ADAPT-STORE-10: a call Redis answers with an error fails with StoreUnavailableError; the
    other calls of its pipeline are answered."""
    from mcp_touchstone.adapters.redis_store import StoreUnavailableError

    redis_client.hset("touchstone:mrtr:r:bad", "not", "a string")

    async def main() -> tuple[Any, Any]:
        store = _async_store(redis_port)
        exp = int(time.time()) + 60
        try:
            return await asyncio.gather(
                store.begin("good", claim="good", committed=None, now=NOW, exp=exp),
                store.begin("bad", claim="bad", committed=None, now=NOW, exp=exp),
                return_exceptions=True,
            )
        finally:
            await store.aclose()

    good, bad = anyio.run(main)
    assert good.outcome == "claimed"
    assert isinstance(bad, StoreUnavailableError)
    assert str(bad) == "the Redis store failed begin: ResponseError"


def test_a_call_given_up_before_its_turn_is_not_sent(redis_client: Any, redis_port: int) -> None:
    """ADAPT-STORE-10: a call whose caller stopped waiting before the pipeline left writes
    nothing (no claim that no round would run under)."""

    async def main() -> None:
        store = _async_store(redis_port)
        exp = int(time.time()) + 60
        try:
            begin = store.begin("k", claim="k", committed=None, now=NOW, exp=exp)
            task = asyncio.get_running_loop().create_task(begin)
            await asyncio.sleep(0)  # the call is queued for this turn's pipeline
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            await asyncio.sleep(0.2)
        finally:
            await store.aclose()

    anyio.run(main)
    assert redis_client.exists("touchstone:mrtr:c:k") == 0
