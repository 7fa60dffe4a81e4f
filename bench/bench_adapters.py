"""Benchmark: the adapters' overhead against the same server unprotected, in the same run.

Workload: a catalog of 1,000 tools, every tenth declaring the scope ``admin``; the
caller (alice) lacks it; the policy hides what the caller lacks the scopes for.  Measured per
request, protected against unprotected:

* ``tools/list`` and ``tools/call`` (a visible tool) through the SDK's in-memory client, for
  ``protect()`` on an ``MCPServer`` and for ``TouchstoneMiddleware`` on FastMCP;
* ``tools/call`` again with Chio grants enforced as well (``call+grants``: a wildcard grant,
  decoded once; the grant is matched on every call);
* the same requests at the handler layer (the lowlevel handler entries called directly, no
  transport), the adapter's cost with nothing else around it (MCPServer only), with controls
  sampled in the same rounds: ``list (A/A)`` and ``call (A/A)`` (the plain server against a
  second plain one: what the ratios read when nothing differs) and ``call+grants (general)``
  (the grant decided by :func:`decide_grant` on every call instead of the per-scope plans, where
  the adapter has plans);
* the Redis final-response store: a ``reserve`` / ``get`` / ``put`` round trip on a
  redis-server started on a loopback port.

The machine is shared, so each pair is measured in alternation: every round takes one sample
of the plain server and one of the protected one (a sample: enough requests for ~50 ms, at
least three; the garbage collector paused, as ``timeit`` does; the order rotated each round),
and ``ROUNDS`` rounds are taken.  Reported per pair: each side's best sample, the ratio of the
bests, and the spread of the per-round ratios (median and interquartile range: a round's two
samples are taken back to back, so load falls on both alike).  Both wall-clock and process
CPU time are recorded; CPU time excludes waiting for a core.  Each pair also reports the Python
function calls per request on each side (cProfile's count: independent of the load, blind to
C-level work such as pydantic's).  Goal: under 1.10.  Results go to
``bench/results/adapters.json`` with the load average at the start and the end.

Run: ``.venv/bin/python bench/bench_adapters.py`` (``make bench``); ``--rounds N`` to change
the number of rounds.
"""

from __future__ import annotations

import argparse
import functools
import gc
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _common import load_average, write_results  # noqa: E402
from mcp_touchstone.scope import ChioScope, decode_scope  # noqa: E402
from mcp_touchstone.visibility import SCOPES_KEY, Visibility  # noqa: E402

SIZE = 1_000
ROUNDS = 15
SAMPLE_SECONDS = 0.05
MIN_REQUESTS = 3
POLICY = Visibility().requiring_declared_scopes()
SCOPE: ChioScope = decode_scope(
    {"grants": [{"server_id": "*", "tool_name": "*", "operations": ["invoke"]}]}, "scope"
)
Request = Callable[[], Awaitable[Any]]


def _meta(i: int) -> dict[str, Any] | None:
    return {SCOPES_KEY: ["admin"]} if i % 10 == 0 else None


def _tool(i: int) -> Callable[[], Awaitable[int]]:
    """An async tool (no worker-thread hop, whose jitter would swamp what is measured)."""

    async def tool() -> int:
        return i

    return tool


def _grants(_context: Any) -> ChioScope:
    return SCOPE


def mcp_server(mode: str) -> Any:
    """An MCPServer with 1,000 tools (every tenth privileged): ``plain``, ``protected``
    (visibility) or ``grants`` (visibility and grants)."""
    from mcp.server.mcpserver import MCPServer

    from mcp_touchstone.adapters.mcp import protect

    server = MCPServer("bench")
    for i in range(SIZE):
        server.add_tool(_tool(i), name=f"tool_{i:04d}", meta=_meta(i))
    if mode == "plain":
        return server
    return protect(server, visibility=POLICY, grants=_grants if mode == "grants" else None)


def fastmcp_server(mode: str) -> Any:
    """A FastMCP server with the same catalog."""
    from fastmcp import FastMCP
    from fastmcp.tools import Tool

    from mcp_touchstone.adapters.fastmcp import TouchstoneMiddleware

    server = FastMCP("bench")
    for i in range(SIZE):
        server.add_tool(Tool.from_function(_tool(i), name=f"tool_{i:04d}", meta=_meta(i)))
    if mode != "plain":
        grants = _grants if mode == "grants" else None
        TouchstoneMiddleware(visibility=POLICY, grants=grants).install(server)
    return server


async def _sample(fn: Request, number: int) -> tuple[float, float]:
    """Wall-clock and process CPU seconds per request over ``number`` requests, the cyclic
    garbage collector run before and paused during the sample (as ``timeit`` does: a full
    collection of a heap of 1,000-tool listings otherwise lands on whichever side triggers it)."""
    gc.collect()
    gc.disable()
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(number):
            await fn()
        return (time.perf_counter() - wall) / number, (time.process_time() - cpu) / number
    finally:
        gc.enable()


async def _python_calls(fn: Request, number: int = 3) -> float:
    """Python function calls per request (cProfile's count, C-level work not included): a
    figure that does not depend on the machine's load."""
    import cProfile
    import pstats

    profile = cProfile.Profile()
    profile.enable()
    for _ in range(number):
        await fn()
    profile.disable()
    stats: Any = pstats.Stats(profile)
    return float(stats.total_calls) / number


async def _alternate(
    plain: Request, sides: dict[str, Request], rounds: int
) -> dict[str, dict[str, Any]]:
    """``rounds`` rounds, each one sample of ``plain`` and one of every side (back to back, so
    load falls on all alike; the order rotated by one each round, so no side is always sampled
    first or last); for each side against ``plain``: the bests, their ratio, and the spread of
    the per-round ratios, on both clocks."""
    await plain()
    for side in sides.values():
        await side()
    start = time.perf_counter()
    await plain()
    number = max(MIN_REQUESTS, round(SAMPLE_SECONDS / max(time.perf_counter() - start, 1e-9)))
    plains: list[tuple[float, float]] = []
    taken: dict[str, list[tuple[float, float]]] = {name: [] for name in sides}
    order: list[tuple[str | None, Request]] = [(None, plain), *sides.items()]
    for index in range(rounds):
        turn = index % len(order)  # each round starts one later: no side always comes first
        for name, fn in order[turn:] + order[:turn]:
            sample = await _sample(fn, number)
            (plains if name is None else taken[name]).append(sample)
    plain_calls = await _python_calls(plain)
    out: dict[str, dict[str, Any]] = {}
    for name, side in sides.items():
        figures: dict[str, Any] = {
            "requests_per_sample": number,
            "rounds": rounds,
            "python_calls_per_request": {
                "plain": plain_calls,
                "protected": await _python_calls(side),
            },
        }
        for index, clock in enumerate(("wall", "cpu")):
            p_times = [p[index] for p in plains]
            q_times = [q[index] for q in taken[name]]
            ratios = sorted(q / p for p, q in zip(p_times, q_times, strict=True) if p > 0)
            quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
            figures[clock] = {
                "plain_s": min(p_times),
                "protected_s": min(q_times),
                "ratio_of_bests": min(q_times) / min(p_times),
                "ratio_median": statistics.median(ratios),
                "ratio_q1": quartiles[0],
                "ratio_q3": quartiles[-1],
            }
        out[name] = figures
    return out


async def _pair(plain: Request, protected: Request, rounds: int) -> dict[str, Any]:
    """:func:`_alternate` with one side."""
    return (await _alternate(plain, {"protected": protected}, rounds))["protected"]


async def through_client(build: Callable[[str], Any], fast: bool, rounds: int) -> dict[str, Any]:
    """List, call and granted call, unprotected and protected, over the in-memory client."""
    from contextlib import AsyncExitStack

    from tests.adapters._drive import as_caller

    out: dict[str, Any] = {}
    with as_caller("alice"):
        async with AsyncExitStack() as stack:
            lists: dict[str, Request] = {}
            calls: dict[str, Request] = {}
            for mode in ("plain", "protected", "grants"):
                server = build(mode)
                if fast:
                    from fastmcp import Client as FastClient

                    client: Any = await stack.enter_async_context(
                        FastClient(server, mode="2026-07-28")
                    )
                    lists[mode] = client.list_tools_mcp
                    calls[mode] = functools.partial(client.call_tool_mcp, "tool_0001", {})
                else:
                    from mcp import Client

                    client = await stack.enter_async_context(Client(server, mode="2026-07-28"))
                    lists[mode] = client.session.list_tools
                    calls[mode] = functools.partial(client.session.call_tool, "tool_0001", {})
            out["list"] = await _pair(lists["plain"], lists["protected"], rounds)
            out["call"] = await _pair(calls["plain"], calls["protected"], rounds)
            out["call+grants"] = await _pair(calls["plain"], calls["grants"], rounds)
    return out


async def at_handler_layer(rounds: int) -> dict[str, Any]:
    """The lowlevel handler entries themselves (no transport).  Controls ride along:
    ``list (A/A)`` and ``call (A/A)``, the plain server against a second plain one (what the
    ratios read when nothing differs), and ``call+grants (general)``, the grant-enforced call
    with the grant decided by :func:`decide_grant` on every call instead of the per-scope plans
    (ADAPT-GRANT-5), sampled in the same rounds; left out where the adapter keeps no plans."""
    import mcp_types as types
    from tests.adapters._drive import as_caller

    from mcp_touchstone.adapters import mcp as adapter
    from mcp_touchstone.adapters._common import decide_grant

    class Ctx:
        protocol_version = "2026-07-28"

    class GeneralPlans:
        """The general path in the place of the per-scope plans (nothing kept as covered)."""

        covered_scope = None
        covered_server = None
        covered_tools: frozenset[str] = frozenset()

        def decide(self, scope: Any, tool: str, server_id: str, arguments: Any) -> Any:
            return decide_grant(scope, tool, server_id, arguments)

    params = types.CallToolRequestParams(name="tool_0001", arguments={})
    modes = ("plain", "plain-again", "protected", "grants")
    lows = {mode: mcp_server(mode.split("-")[0])._lowlevel_server for mode in modes}
    names = vars(adapter)  # the name protect() builds its plans with, for this server only
    plans = names.get("GrantPlans")
    if plans is not None:
        names["GrantPlans"] = GeneralPlans
        try:
            lows["grants-general"] = mcp_server("grants")._lowlevel_server
        finally:
            names["GrantPlans"] = plans
    lists: dict[str, Request] = {}
    calls: dict[str, Request] = {}
    for mode, low in lows.items():
        list_handler = low.get_request_handler("tools/list").handler
        call_handler = low.get_request_handler("tools/call").handler
        lists[mode] = functools.partial(list_handler, Ctx(), None)
        calls[mode] = functools.partial(call_handler, Ctx(), params)
    out: dict[str, Any] = {}
    with as_caller("alice"):
        listed = await _alternate(
            lists["plain"], {"list": lists["protected"], "list (A/A)": lists["plain-again"]}, rounds
        )
        out.update(listed)
        called = await _alternate(
            calls["plain"],
            {
                "call": calls["protected"],
                "call+grants": calls["grants"],
                **({"call+grants (general)": calls["grants-general"]} if plans is not None else {}),
                "call (A/A)": calls["plain-again"],
            },
            rounds,
        )
        out.update(called)
    return out


def redis_round_trip(rounds: int) -> dict[str, float]:
    """Seconds per reserve + get + put on a loopback redis-server: best and median round."""
    import redis
    from tests.adapters._redis import redis_server

    from mcp_touchstone.adapters.redis_store import RedisRequestStateStore
    from mcp_touchstone.mrtr._store import StoredResponse

    response = StoredResponse.of({"jsonrpc": "2.0", "id": 1, "result": {"content": []}})
    with redis_server() as port:
        store = RedisRequestStateStore(redis.Redis(host="127.0.0.1", port=port))
        exp = int(time.time()) + 600
        per_round = []
        for r in range(rounds):
            start = time.perf_counter()
            for i in range(200):
                key = f"k{r}-{i}"
                with store.reserve(key):
                    store.get(key, exp - 600)
                    store.put(key, response, exp)
            per_round.append((time.perf_counter() - start) / 200)
    return {"best_s": min(per_round), "median_s": statistics.median(per_round)}


def _line(group: str, op: str, figures: dict[str, Any]) -> str:
    wall, cpu = figures["wall"], figures["cpu"]
    calls = figures["python_calls_per_request"]
    return (
        f"{group:15s} {op:21s} plain {wall['plain_s'] * 1e6:9.1f} us  "
        f"protected {wall['protected_s'] * 1e6:9.1f} us  best/best {wall['ratio_of_bests']:.3f}  "
        f"median {wall['ratio_median']:.3f} [{wall['ratio_q1']:.3f}-{wall['ratio_q3']:.3f}]  "
        f"cpu best/best {cpu['ratio_of_bests']:.3f} median {cpu['ratio_median']:.3f}  "
        f"py calls {calls['plain']:.0f} -> {calls['protected']:.0f}"
    )


def main(argv: list[str] | None = None) -> int:
    """Measure, print the ratios, write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    rounds = parser.parse_args(argv).rounds
    load_start = load_average()
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    results: dict[str, Any] = {
        "catalog": SIZE,
        "mcp/client": anyio.run(through_client, mcp_server, False, rounds),
        "fastmcp/client": anyio.run(through_client, fastmcp_server, True, rounds),
        "mcp/handler": anyio.run(at_handler_layer, rounds),
        "redis/round_trip": redis_round_trip(rounds),
    }
    results["started_utc"] = started
    results["load_average_start"] = load_start
    results["load_average_end"] = load_average()
    print(f"catalog: {SIZE} tools, every tenth hidden from the caller; {rounds} rounds")
    for group in ("mcp/client", "fastmcp/client", "mcp/handler"):
        for op in results[group]:
            print(_line(group, op, results[group][op]))
    trip = results["redis/round_trip"]
    print(
        f"redis store: reserve + get + put {trip['best_s'] * 1e6:.0f} us best, "
        f"{trip['median_s'] * 1e6:.0f} us median round"
    )
    print(f"load average: start {load_start}, end {results['load_average_end']}")
    write_results("adapters", results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
