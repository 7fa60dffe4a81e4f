"""ReplayGuard on a real MCPServer's MRTR rounds (ADAPT-REPLAY-*)."""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
import pytest
from fastmcp import Context as FastContext
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.request_state import RequestStateSecurity

from mcp_touchstone.adapters.redis_store import (
    AsyncRedisRequestStateStore,
    RedisRequestStateStore,
)
from mcp_touchstone.adapters.replay import ReplayGuard
from mcp_touchstone.mrtr._store import InMemoryRequestStateStore

FORM = types.ElicitRequest(
    params=types.ElicitRequestFormParams(
        message="Purge the bucket?",
        requested_schema={"type": "object", "properties": {"ok": {"type": "boolean"}}},
    )
)


def _server(store: Any, runs: list[str], **guard: Any) -> MCPServer:
    server = MCPServer("replay-demo", request_state_security=RequestStateSecurity(keys=[b"k" * 32]))

    @server.tool()
    def purge(bucket: str, ctx: Context) -> Any:
        answers = ctx.input_responses
        if not answers:
            return types.InputRequiredResult(
                input_requests={"confirm": FORM}, request_state=f"purge:{bucket}"
            )
        runs.append(bucket)
        return f"purged {bucket} run {len(runs)}"

    if store is not None:
        ReplayGuard(store, **guard).install(server)
    return server


async def _rounds(server: Any, retries: list[dict[str, Any]]) -> list[Any]:
    """Round one, then each retry's answers with round one's state; each answer as JSON."""
    from mcp import Client
    from mcp.shared.exceptions import MCPError

    out: list[Any] = []
    if type(server).__module__.startswith("fastmcp"):
        from fastmcp import Client as FastClient

        client: Any = FastClient(server, mode="2026-07-28")
    else:
        client = Client(server, mode="2026-07-28")
    async with client:
        session = client.session
        first = await session.call_tool("purge", {"bucket": "b1"}, allow_input_required=True)
        assert isinstance(first, types.InputRequiredResult)
        state = first.request_state
        for answers in retries:
            try:
                result = await session.call_tool(
                    "purge",
                    {"bucket": "b1"},
                    allow_input_required=True,
                    input_responses=answers,
                    request_state=state,
                )
            except MCPError as exc:
                out.append({"error": [exc.code, exc.message]})
                continue
            out.append(result.model_dump(by_alias=True, exclude_none=True))
    return out


YES: Any = {"confirm": {"action": "accept", "content": {"ok": True}}}
NO: Any = {"confirm": {"action": "accept", "content": {"ok": False}}}


def test_the_sdk_alone_runs_a_replayed_final_round_twice() -> None:
    """The gap: without the guard the same final retry runs the tool again."""
    runs: list[str] = []
    answers = anyio.run(_rounds, _server(None, runs), [YES, YES])
    assert runs == ["b1", "b1"]
    assert answers[0] != answers[1]


def test_identical_final_retry_is_replayed_not_rerun() -> None:
    """ADAPT-REPLAY-1: the second identical final retry gets the first's response; the tool ran
    once."""
    runs: list[str] = []
    server = _server(InMemoryRequestStateStore(), runs)
    first, second = anyio.run(_rounds, server, [YES, YES])
    assert runs == ["b1"]
    assert first == second
    assert "purged b1 run 1" in str(first)


def test_other_answers_run_again_in_neva_mode() -> None:
    """ADAPT-REPLAY-2: as in neva, a retry with other answers is another key: it runs."""
    runs: list[str] = []
    anyio.run(_rounds, _server(InMemoryRequestStateStore(), runs), [YES, NO])
    assert runs == ["b1", "b1"]


def test_single_use_refuses_a_committed_state() -> None:
    """ADAPT-REPLAY-3: with ``single_use`` a committed state refuses any other request, with the
    boundary's own frozen answer, and still replays the identical retry."""
    runs: list[str] = []
    server = _server(InMemoryRequestStateStore(), runs, single_use=True)
    first, other, same = anyio.run(_rounds, server, [YES, NO, YES])
    assert runs == ["b1"]
    assert other == {"error": [-32602, "Invalid or expired requestState"]}
    assert same == first


def test_a_tampered_state_never_reaches_the_store() -> None:
    """ADAPT-REPLAY-4: the boundary refuses a bad state before the guard looks anything up."""

    class Spy(InMemoryRequestStateStore):
        looked: int = 0

        def get(self, key: str, now: int) -> Any:
            Spy.looked += 1
            return super().get(key, now)

    async def tampered() -> Any:
        from mcp import Client
        from mcp.shared.exceptions import MCPError

        async with Client(_server(Spy(), []), mode="2026-07-28") as client:
            first = await client.session.call_tool(
                "purge", {"bucket": "b1"}, allow_input_required=True
            )
            assert isinstance(first, types.InputRequiredResult)
            assert first.request_state is not None
            bad = first.request_state[:-2] + ("A" if first.request_state[-2] != "A" else "B") + "x"
            with pytest.raises(MCPError) as info:
                await client.session.call_tool(
                    "purge",
                    {"bucket": "b1"},
                    allow_input_required=True,
                    input_responses=YES,
                    request_state=bad,
                )
            return info.value.code

    assert anyio.run(tampered) == -32602
    assert Spy.looked == 0


def test_the_guard_works_on_the_redis_store(redis_client: Any, redis_port: int) -> None:
    """ADAPT-REPLAY-1 with the shared store: the replay comes from Redis."""
    runs: list[str] = []

    async def main() -> list[Any]:
        store = AsyncRedisRequestStateStore.from_url(f"redis://127.0.0.1:{redis_port}/0")
        try:
            return await _rounds(_server(store, runs), [YES, YES])
        finally:
            await store.aclose()

    first, second = anyio.run(main)
    assert runs == ["b1"]
    assert first == second
    assert redis_client.keys("touchstone:mrtr:c:*") == []  # the claim gave way to the final


def test_the_guard_refuses_a_store_that_blocks_the_loop(redis_client: Any) -> None:
    """ADAPT-REPLAY-8: the synchronous Redis store (and any store but the two the guard knows)
    is refused at set-up, in one line naming the store to use."""
    with pytest.raises(TypeError, match="AsyncRedisRequestStateStore"):
        ReplayGuard(RedisRequestStateStore(redis_client))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not dict"):
        ReplayGuard({})  # type: ignore[arg-type]


def test_the_guard_works_on_fastmcp() -> None:
    """ADAPT-REPLAY-1 on a FastMCP server: its boundary is found and guarded the same way."""
    from fastmcp import FastMCP

    runs: list[str] = []
    server = FastMCP("replay-fast", request_state_security=RequestStateSecurity(keys=[b"k" * 32]))

    @server.tool()
    async def purge(bucket: str, ctx: FastContext) -> Any:
        if not ctx.input_responses:
            return types.InputRequiredResult(
                input_requests={"confirm": FORM}, request_state=f"purge:{bucket}"
            )
        runs.append(bucket)
        return f"purged {bucket} run {len(runs)}"

    ReplayGuard(InMemoryRequestStateStore()).install(server)
    first, second = anyio.run(_rounds, server, [YES, YES])
    assert runs == ["b1"]
    assert first == second


def test_install_needs_a_boundary() -> None:
    """ADAPT-API-3: a server without a RequestStateBoundary is a clear ValueError."""
    from mcp.server.lowlevel.server import Server

    with pytest.raises(ValueError, match="RequestStateBoundary"):
        ReplayGuard(InMemoryRequestStateStore()).install(Server("bare"))


def test_no_wait_still_takes_a_free_key() -> None:
    """ADAPT-REPLAY-5: with ``lock_wait=0`` a retry never waits, but a key nobody holds is still
    taken: the round runs and its retry is replayed."""
    runs: list[str] = []
    first, second = anyio.run(
        _rounds, _server(InMemoryRequestStateStore(), runs, lock_wait=0), [YES, YES]
    )
    assert runs == ["b1"]
    assert first == second


def test_the_near_cache_keeps_1024_finals_least_recently_used_dropped_each_until_its_exp() -> None:
    """ADAPT-REPLAY-9: the in-process cache of finals this process stored holds 1,024, drops the
    least recently used, and answers each only while ``exp > now``."""
    from mcp_touchstone.adapters.replay import NEAR_CAPACITY, _NearFinals
    from mcp_touchstone.mrtr import StoredResponse

    assert NEAR_CAPACITY == 1024
    near = _NearFinals(3)
    finals = {k: StoredResponse.of({"result": {"k": k}}) for k in "abcd"}
    for k in "abc":
        near.put(k, finals[k], exp=100)
    assert near.get("a", 99) is finals["a"]  # a is now the most recently used
    near.put("d", finals["d"], exp=100)
    assert near.get("b", 99) is None  # b was the least recently used
    assert [near.get(k, 99) for k in "acd"] == [finals["a"], finals["c"], finals["d"]]
    assert near.get("a", 100) is None  # expired at exp == now
    assert near.get("a", 0) is None  # and dropped, not only hidden
