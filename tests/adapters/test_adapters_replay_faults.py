"""ReplayGuard under load and store faults, on a real MCPServer and a real redis-server
(ADAPT-REPLAY-5 to ADAPT-REPLAY-8, ADAPT-STORE-9).

Each test bounds itself (``anyio.fail_after``): a server that froze fails the test instead of
hanging it.  A heartbeat task on the server's event loop measures the longest stall of the loop.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.request_state import RequestStateSecurity
from mcp.shared.exceptions import MCPError

from mcp_touchstone.adapters.redis_store import AsyncRedisRequestStateStore
from mcp_touchstone.adapters.replay import ReplayGuard
from mcp_touchstone.mrtr._store import InMemoryRequestStateStore

FORM = types.ElicitRequest(
    params=types.ElicitRequestFormParams(
        message="Purge the bucket?",
        requested_schema={"type": "object", "properties": {"ok": {"type": "boolean"}}},
    )
)
YES: Any = {"confirm": {"action": "accept", "content": {"ok": True}}}
DEADLINE = 0.5
"""The Redis store's deadline in these tests (s)."""

Hook = Callable[[], Awaitable[None]]


class Flow:
    """The tool's runs, and what the final round does before it answers (``on_final``)."""

    def __init__(self, *, work: float = 0.2, on_final: Hook | None = None) -> None:
        self.runs = 0
        self.work = work
        self.on_final = on_final


def server_with(flow: Flow, store: Any, **guard: Any) -> MCPServer:
    """An MCPServer with an MRTR tool ``purge`` behind the guard, and an unrelated synchronous
    tool ``ping`` (the SDK runs it on a worker thread)."""
    server = MCPServer("faults", request_state_security=RequestStateSecurity(keys=[b"k" * 32]))

    @server.tool()
    async def purge(bucket: str, ctx: Context) -> Any:
        if not ctx.input_responses:
            return types.InputRequiredResult(
                input_requests={"confirm": FORM}, request_state=f"purge:{bucket}"
            )
        flow.runs += 1
        await anyio.sleep(flow.work)
        if flow.on_final is not None:
            await flow.on_final()
        return f"purged {bucket}"

    @server.tool()
    def ping() -> str:
        return "pong"

    ReplayGuard(store, **guard).install(server)
    return server


class Heartbeat:
    """The longest stall of the event loop while it runs (a 10 ms sleep that wakes late)."""

    def __init__(self) -> None:
        self.worst = 0.0

    async def run(self, stop: anyio.Event) -> None:
        while not stop.is_set():
            before = time.monotonic()
            await anyio.sleep(0.01)
            self.worst = max(self.worst, time.monotonic() - before - 0.01)


async def _mint(session: Any, bucket: str = "b1") -> str:
    first = await session.call_tool("purge", {"bucket": bucket}, allow_input_required=True)
    assert isinstance(first, types.InputRequiredResult)
    assert first.request_state is not None
    return first.request_state


async def _final(session: Any, state: str, bucket: str = "b1") -> Any:
    """The final retry's answer: the result's text, or ``(code, message, reason)``."""
    try:
        result = await session.call_tool(
            "purge",
            {"bucket": bucket},
            allow_input_required=True,
            input_responses=YES,
            request_state=state,
        )
    except MCPError as exc:
        data = exc.error.data if isinstance(exc.error.data, dict) else {}
        return (exc.code, exc.message, data.get("reason"))
    assert isinstance(result, types.CallToolResult)
    return result.content[0].text  # type: ignore[union-attr]


async def _ping(session: Any) -> float:
    """Seconds until the unrelated tool answers."""
    started = time.monotonic()
    result = await session.call_tool("ping", {})
    assert result.content[0].text == "pong"
    return time.monotonic() - started


IN_PROGRESS = (-32603, "Final round in progress", "in_progress")
UNAVAILABLE = (-32603, "Request state store unavailable", "store_unavailable")


async def _storm(make_store: Callable[[], Any], retries: int) -> dict[str, Any]:
    from mcp import Client

    flow = Flow(work=0.3)
    beat = Heartbeat()
    stop = anyio.Event()
    answers: list[Any] = []
    pings: list[float] = []
    store = make_store()
    with anyio.fail_after(60):
        async with Client(server_with(flow, store), mode="2026-07-28") as client:
            session = client.session
            state = await _mint(session)

            async def one() -> None:
                answers.append(await _final(session, state))

            async def ping_later() -> None:
                await anyio.sleep(0.1)  # while the storm waits on the round in progress
                pings.append(await _ping(session))

            async with anyio.create_task_group() as tg:
                tg.start_soon(beat.run, stop)
                async with anyio.create_task_group() as storm:
                    for _ in range(retries):
                        storm.start_soon(one)
                    storm.start_soon(ping_later)
                stop.set()
    if isinstance(store, AsyncRedisRequestStateStore):
        await store.aclose()
    return {"runs": flow.runs, "answers": answers, "ping": pings[0], "stall": beat.worst}


def _memory() -> InMemoryRequestStateStore:
    return InMemoryRequestStateStore()


@pytest.mark.parametrize("backend", ["memory", "redis"])
def test_a_hundred_identical_final_retries_leave_the_server_live(
    backend: str, redis_client: Any, redis_port: int
) -> None:
    """ADAPT-REPLAY-5: 100 identical final retries at once (more than the SDK's 40 worker
    threads): the handler runs once, every retry gets the stored final, an unrelated tool
    answers while they wait, and the event loop never stalls."""
    url = f"redis://127.0.0.1:{redis_port}/0"

    def make() -> Any:
        return _memory() if backend == "memory" else AsyncRedisRequestStateStore.from_url(url)

    out = anyio.run(_storm, make, 100)
    assert out["runs"] == 1
    assert len(out["answers"]) == 100
    assert set(out["answers"]) == {"purged b1"}
    assert out["ping"] < 0.5
    assert out["stall"] < DEADLINE


def test_a_retry_past_lock_wait_is_refused_in_progress() -> None:
    """ADAPT-REPLAY-5: a retry that waits ``lock_wait`` for the identical round in progress is
    refused with the documented error; the round itself completes and runs once."""
    from mcp import Client

    async def main() -> tuple[int, list[Any]]:
        flow = Flow(work=0.6)
        server = server_with(flow, _memory(), lock_wait=0.1)
        answers: list[Any] = []
        with anyio.fail_after(30):
            async with Client(server, mode="2026-07-28") as client:
                state = await _mint(client.session)

                async def one() -> None:
                    answers.append(await _final(client.session, state))

                async with anyio.create_task_group() as tg:
                    tg.start_soon(one)
                    await anyio.sleep(0.05)
                    tg.start_soon(one)
                answers.append(await _final(client.session, state))
        return flow.runs, answers

    runs, answers = anyio.run(main)
    assert runs == 1
    assert sorted(answers, key=str) == sorted([IN_PROGRESS, "purged b1", "purged b1"], key=str)


async def _outage(redis: Any, fault: str) -> dict[str, Any]:
    """Mint a state, take Redis down (``kill`` or ``stop``), send its final retry and a ping
    together; then bring Redis back and retry."""
    from mcp import Client

    flow = Flow(work=0.05)
    beat = Heartbeat()
    stop = anyio.Event()
    out: dict[str, Any] = {}
    store = AsyncRedisRequestStateStore.from_url(redis.url, deadline=DEADLINE)
    with anyio.fail_after(60):
        async with Client(server_with(flow, store), mode="2026-07-28") as client:
            session = client.session
            state = await _mint(session)
            fresh = await _mint(session, "b2")
            if fault == "kill":
                redis.kill()
            else:
                redis.stop()

            async def final() -> None:
                started = time.monotonic()
                out["during"] = await _final(session, state)
                out["refused_in"] = time.monotonic() - started

            async def ping() -> None:
                await anyio.sleep(0.05)
                out["ping"] = await _ping(session)

            async with anyio.create_task_group() as tg:
                tg.start_soon(beat.run, stop)
                async with anyio.create_task_group() as calls:
                    calls.start_soon(final)
                    calls.start_soon(ping)
                stop.set()
            if fault == "kill":
                redis.start()
            else:
                redis.cont()
            out["after"] = await _final(session, fresh, "b2")
            out["again"] = await _final(session, fresh, "b2")
    await store.aclose()
    out["runs"] = flow.runs
    out["stall"] = beat.worst
    return out


@pytest.mark.parametrize("fault", ["kill", "stop"])
def test_an_unreachable_store_is_refused_quickly_and_the_loop_serves_on(
    own_redis: Any, fault: str
) -> None:
    """ADAPT-REPLAY-6: with Redis killed (connection refused) or SIGSTOPped (no answer), a final
    retry is refused with ``-32603 Request state store unavailable`` within the store's deadline,
    the tool does not run, an unrelated tool answers meanwhile and the loop does not stall; once
    Redis is back, a final round runs once and its retry is replayed."""
    out = anyio.run(_outage, own_redis, fault)
    assert out["during"] == UNAVAILABLE
    assert out["refused_in"] < DEADLINE + 0.4
    assert out["ping"] < 0.3
    assert out["stall"] < DEADLINE
    assert out["after"] == "purged b2"
    assert out["again"] == "purged b2"
    assert out["runs"] == 1


def test_a_store_failure_after_the_run_fails_closed(own_redis: Any) -> None:
    """ADAPT-REPLAY-7: Redis dies after the tool ran and before its final is stored: the caller
    is refused (never a success the store does not hold), and once Redis is back (its claim
    durable) an identical retry is refused too -- the tool never runs a second time."""
    from mcp import Client

    async def die() -> None:
        own_redis.kill()

    async def main() -> tuple[int, Any, Any]:
        flow = Flow(work=0.01, on_final=die)
        store = AsyncRedisRequestStateStore.from_url(own_redis.url, deadline=DEADLINE)
        with anyio.fail_after(60):
            async with Client(server_with(flow, store, lock_wait=0.5), mode="2026-07-28") as c:
                state = await _mint(c.session)
                first = await _final(c.session, state)
                flow.on_final = None
                own_redis.start()
                second = await _final(c.session, state)
        await store.aclose()
        return flow.runs, first, second

    runs, first, second = anyio.run(main)
    assert first == UNAVAILABLE
    assert second == IN_PROGRESS
    assert runs == 1


def test_a_committed_final_survives_a_crash_of_durable_redis(own_redis: Any) -> None:
    """ADAPT-STORE-9: with ``appendfsync always`` a final Redis acknowledged survives a SIGKILL
    of Redis: after the restart the identical retry is replayed, not run."""
    from mcp import Client

    async def main() -> tuple[int, Any, Any]:
        flow = Flow(work=0.01)
        store = AsyncRedisRequestStateStore.from_url(own_redis.url, deadline=DEADLINE)
        with anyio.fail_after(60):
            async with Client(server_with(flow, store), mode="2026-07-28") as c:
                state = await _mint(c.session)
                first = await _final(c.session, state)
                own_redis.restart()
                second = await _final(c.session, state)
        await store.aclose()
        return flow.runs, first, second

    runs, first, second = anyio.run(main)
    assert first == second == "purged b1"
    assert runs == 1


def test_a_final_this_process_stored_is_replayed_without_a_round_trip(own_redis: Any) -> None:
    """ADAPT-REPLAY-9: the identical retry of a final this process stored is answered from the
    in-process cache: with Redis stopped it still gets the final, at once, and the tool does not
    run again."""
    from mcp import Client

    async def main() -> tuple[int, Any, Any, float]:
        flow = Flow(work=0.01)
        store = AsyncRedisRequestStateStore.from_url(own_redis.url, deadline=DEADLINE)
        with anyio.fail_after(60):
            async with Client(server_with(flow, store), mode="2026-07-28") as c:
                state = await _mint(c.session)
                first = await _final(c.session, state)
                own_redis.stop()
                try:
                    started = time.monotonic()
                    second = await _final(c.session, state)
                    took = time.monotonic() - started
                finally:
                    own_redis.cont()
        await store.aclose()
        return flow.runs, first, second, took

    runs, first, second, took = anyio.run(main)
    assert first == second == "purged b1"
    assert runs == 1
    assert took < DEADLINE
