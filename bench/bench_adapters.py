"""Benchmark: the adapters' overhead against the same server unprotected, in the same run.

Workload (issue 12): a catalog of 1,000 tools, every tenth declaring the scope ``admin``; the
caller (alice) lacks it; the policy hides what the caller lacks the scopes for.  Measured per
call, protected against unprotected:

* ``tools/list`` and ``tools/call`` (a visible tool) through the SDK's in-memory client, for
  ``protect()`` on an ``MCPServer`` and for ``TouchstoneMiddleware`` on FastMCP;
* the same two requests at the handler layer (the lowlevel handler entries called directly,
  no transport), the adapter's cost with nothing else around it (MCPServer only);
* the Redis final-response store: a ``reserve`` / ``get`` / ``put`` round trip on a
  redis-server started on a loopback port.

Each figure is the best of several repeats (the machine is shared); the ratio is protected over
unprotected.  Goal: under 1.10.  Results are also written to ``bench/results/adapters.json``.

Run: ``.venv/bin/python bench/bench_adapters.py`` (``make bench``).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mcp_touchstone.visibility import SCOPES_KEY, Visibility  # noqa: E402

SIZE = 1_000
REPEATS = 7
POLICY = Visibility().requiring_declared_scopes()


def _meta(i: int) -> dict[str, Any] | None:
    return {SCOPES_KEY: ["admin"]} if i % 10 == 0 else None


def _tool(i: int) -> Callable[[], Awaitable[int]]:
    """An async tool (no worker-thread hop, whose jitter would swamp what is measured)."""

    async def tool() -> int:
        return i

    return tool


def mcp_server(protected: bool) -> Any:
    """An MCPServer with 1,000 tools (every tenth privileged), protected or not."""
    from mcp.server.mcpserver import MCPServer

    from mcp_touchstone.adapters.mcp import protect

    server = MCPServer("bench")
    for i in range(SIZE):
        server.add_tool(_tool(i), name=f"tool_{i:04d}", meta=_meta(i))
    return protect(server, visibility=POLICY) if protected else server


def fastmcp_server(protected: bool) -> Any:
    """A FastMCP server with the same catalog."""
    from fastmcp import FastMCP
    from fastmcp.tools import Tool

    from mcp_touchstone.adapters.fastmcp import TouchstoneMiddleware

    server = FastMCP("bench")
    for i in range(SIZE):
        server.add_tool(Tool.from_function(_tool(i), name=f"tool_{i:04d}", meta=_meta(i)))
    if protected:
        TouchstoneMiddleware(visibility=POLICY).install(server)
    return server


async def _once(fn: Callable[[], Awaitable[Any]], number: int) -> float:
    start = time.perf_counter()
    for _ in range(number):
        await fn()
    return (time.perf_counter() - start) / number


async def _pair(
    plain: Callable[[], Awaitable[Any]], protected: Callable[[], Awaitable[Any]], number: int
) -> tuple[float, float]:
    """Best per-call seconds of each, the two measured in alternation (a loaded machine slows
    both alike)."""
    best = [float("inf"), float("inf")]
    for _ in range(REPEATS):
        for slot, fn in enumerate((plain, protected)):
            best[slot] = min(best[slot], await _once(fn, number))
    return best[0], best[1]


async def through_client(build: Callable[[bool], Any], fast: bool) -> dict[str, float]:
    """Per-call seconds of list and call, unprotected and protected, over the in-memory client."""
    from contextlib import AsyncExitStack

    from tests.adapters._drive import as_caller

    out: dict[str, float] = {}
    with as_caller("alice"):
        async with AsyncExitStack() as stack:
            lists, calls = [], []
            for protected in (False, True):
                server = build(protected)
                if fast:
                    from fastmcp import Client as FastClient

                    client: Any = await stack.enter_async_context(
                        FastClient(server, mode="2026-07-28")
                    )
                    lists.append(client.list_tools_mcp)
                    calls.append(lambda c=client: c.call_tool_mcp("tool_0001", {}))
                else:
                    from mcp import Client

                    client = await stack.enter_async_context(Client(server, mode="2026-07-28"))
                    lists.append(client.session.list_tools)
                    calls.append(lambda s=client.session: s.call_tool("tool_0001", {}))
            out["list/plain"], out["list/protected"] = await _pair(lists[0], lists[1], 10)
            out["call/plain"], out["call/protected"] = await _pair(calls[0], calls[1], 200)
    return out


async def at_handler_layer() -> dict[str, float]:
    """Per-call seconds of the lowlevel handler entries themselves (no transport)."""
    import mcp_types as types
    from tests.adapters._drive import as_caller

    class Ctx:
        protocol_version = "2026-07-28"

    params = types.CallToolRequestParams(name="tool_0001", arguments={})
    lows = [mcp_server(protected)._lowlevel_server for protected in (False, True)]
    list_handlers = [low.get_request_handler("tools/list").handler for low in lows]
    call_handlers = [low.get_request_handler("tools/call").handler for low in lows]
    lists = [lambda h=h: h(Ctx(), None) for h in list_handlers]
    calls = [lambda h=h: h(Ctx(), params) for h in call_handlers]
    out: dict[str, float] = {}
    with as_caller("alice"):
        out["list/plain"], out["list/protected"] = await _pair(lists[0], lists[1], 10)
        out["call/plain"], out["call/protected"] = await _pair(calls[0], calls[1], 1000)
    return out


def redis_round_trip() -> float:
    """Seconds per reserve + get + put on a loopback redis-server."""
    import redis
    from tests.adapters._redis import redis_server

    from mcp_touchstone.adapters.redis_store import RedisRequestStateStore
    from mcp_touchstone.mrtr._store import StoredResponse

    response = StoredResponse.of({"jsonrpc": "2.0", "id": 1, "result": {"content": []}})
    with redis_server() as port:
        store = RedisRequestStateStore(redis.Redis(host="127.0.0.1", port=port))
        exp = int(time.time()) + 600
        best = float("inf")
        for _ in range(REPEATS):
            start = time.perf_counter()
            for i in range(500):
                with store.reserve(f"k{i}"):
                    store.get(f"k{i}", exp - 600)
                    store.put(f"k{i}", response, exp)
            best = min(best, (time.perf_counter() - start) / 500)
    return best


def main() -> int:
    """Measure, print the ratios, write the JSON."""
    results: dict[str, Any] = {
        "catalog": SIZE,
        "mcp/client": anyio.run(through_client, mcp_server, False),
        "fastmcp/client": anyio.run(through_client, fastmcp_server, True),
        "mcp/handler": anyio.run(at_handler_layer),
        "redis/round_trip_s": redis_round_trip(),
    }
    print(f"catalog: {SIZE} tools, every tenth hidden from the caller")
    for group in ("mcp/client", "fastmcp/client", "mcp/handler"):
        figures = results[group]
        for op in ("list", "call"):
            plain, prot = figures[f"{op}/plain"], figures[f"{op}/protected"]
            ratio = prot / plain
            results[group][f"{op}/ratio"] = ratio
            print(
                f"{group:15s} {op:4s}  plain {plain * 1e6:9.1f} us  "
                f"protected {prot * 1e6:9.1f} us  ratio {ratio:.3f}"
            )
    print(f"redis store: reserve + get + put {results['redis/round_trip_s'] * 1e6:.0f} us")
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "adapters.json").write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
