"""Benchmark: visibility filtering of a 10,000-component list and the call-path check.

Workload: a catalog of 10,000 tools, every tenth tagged ``internal``, and a policy
hiding that tag.  Measured per call:

* list: ``tools/list`` filtered for the caller;
* check: the call-path visibility check for one tool (a hidden one at the end of the list,
  the worst case for the first-match scan turbomcp and we do).

The peer, measured in the same run, is FastMCP's own tag-based visibility
(``FastMCP.disable(tags={"internal"})``): ``await mcp.list_tools()`` and ``await
mcp.get_tool(name)`` (the lookup its call path makes, visibility applied).

Scaling (the same shape at 100, 1,000, 10,000 and 100,000 tools): the list filter grows with
the catalog by nature; the call-path check of a name-addressed tool looks the name up in the
page's id index (``Page.first_with_id``, built on the first call and kept with the page), so it
stays flat; a linear scan (first equal entry deciding, the same answers) is shown beside it as
the control.

Run: ``.venv/bin/python bench/bench_visibility.py`` (needs the ``bench`` extra for FastMCP).
Results are also written to ``bench/results/visibility.json``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from _common import write_results
from mcp_touchstone.visibility import (
    TAGS_KEY,
    Catalog,
    Entry,
    Listed,
    Listing,
    Page,
    ProtocolVersion,
    Refused,
    Request,
    RequestContext,
    Visibility,
    dispatch,
)

SIZE = 10_000
HIDDEN_EVERY = 10
LAST_HIDDEN = f"tool_{SIZE - HIDDEN_EVERY:06d}"
REPEATS = 5
SCALES = (100, 1_000, 10_000, 100_000)


def _name(i: int) -> str:
    return f"tool_{i:06d}"


def _hidden(i: int) -> bool:
    return i % HIDDEN_EVERY == 0


def build_catalog(size: int = SIZE) -> Catalog:
    """The ``size``-tool catalog (10,000 by default) as one page."""
    entries = []
    for i in range(size):
        meta: dict[str, Any] = {TAGS_KEY: ["internal"]} if _hidden(i) else {}
        entries.append(Entry(_name(i), meta, {"name": _name(i), "_meta": meta}))
    return Catalog(tools=Listing((Page(tuple(entries)),)))


def per_call(fn: Callable[[], object], calls: int) -> float:
    """Best-of-REPEATS mean seconds per call of ``fn``."""
    samples = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - start) / calls)
    return min(samples)


def per_call_async(make: Callable[[], Awaitable[object]], calls: int) -> float:
    """Best-of-REPEATS mean seconds per awaited call, all inside one event loop."""

    async def run() -> list[float]:
        samples = []
        for _ in range(REPEATS):
            start = time.perf_counter()
            for _ in range(calls):
                await make()
            samples.append((time.perf_counter() - start) / calls)
        return samples

    return min(asyncio.run(run()))


def ours() -> tuple[float, float]:
    """Per-call seconds for (list, check) through ``dispatch`` (turbomcp profile)."""
    catalog = build_catalog()
    policy = Visibility().hiding_tagged(["internal"])
    version = ProtocolVersion.V2026_07_28
    list_request = Request(1, "tools/list", {})
    call_request = Request(2, "tools/call", {"name": LAST_HIDDEN})
    listed = dispatch(catalog, list_request, version, policy)
    assert isinstance(listed, Listed)
    assert len(listed.items) == SIZE - SIZE // HIDDEN_EVERY
    assert isinstance(dispatch(catalog, call_request, version, policy), Refused)
    list_s = per_call(lambda: dispatch(catalog, list_request, version, policy), 20)
    check_s = per_call(lambda: dispatch(catalog, call_request, version, policy), 200)
    return list_s, check_s


def fastmcp_peer() -> tuple[float, float] | None:
    """Per-call seconds for (list, check) with FastMCP's tag visibility, or None if absent."""
    try:
        from fastmcp import FastMCP
        from fastmcp.tools.base import Tool
    except ImportError:
        return None

    def noop() -> str:
        return "ok"

    server = FastMCP("bench")
    template = Tool.from_function(noop)
    for i in range(SIZE):
        tags = {"internal"} if _hidden(i) else set()
        server.add_tool(template.model_copy(update={"name": _name(i), "tags": tags}))
    server.disable(tags={"internal"})

    async def check() -> None:
        tools = await server.list_tools()
        assert len(tools) == SIZE - SIZE // HIDDEN_EVERY
        assert await server.get_tool(LAST_HIDDEN) is None
        assert await server.get_tool(_name(1)) is not None

    asyncio.run(check())
    list_s = per_call_async(server.list_tools, 5)
    check_s = per_call_async(lambda: server.get_tool(LAST_HIDDEN), 200)
    return list_s, check_s


def _linear_hidden(catalog: Catalog, name: str, policy: Visibility) -> bool:
    """The call-path check as a front-to-back scan of the page (the control beside the index)."""
    assert catalog.tools is not None
    for entry in catalog.tools.pages[0].items:
        if entry.id == name:
            return not policy.admits(entry.meta, CTX)
    return False


CTX = RequestContext(ProtocolVersion.V2026_07_28)


def scaling() -> list[dict[str, float]]:
    """Per-call seconds of list, indexed check and linear check at each catalog size."""
    policy = Visibility().hiding_tagged(["internal"])
    version = ProtocolVersion.V2026_07_28
    rows = []
    for size in SCALES:
        catalog = build_catalog(size)
        last_hidden = _name(size - HIDDEN_EVERY)
        list_request = Request(1, "tools/list", {})
        call_request = Request(2, "tools/call", {"name": last_hidden})
        assert isinstance(dispatch(catalog, call_request, version, policy), Refused)
        assert _linear_hidden(catalog, last_hidden, policy)
        list_calls = max(1, 200_000 // size)
        linear_calls = max(2, 2_000_000 // size)
        rows.append(
            {
                "tools": size,
                "list_s": per_call(
                    lambda c=catalog, r=list_request: dispatch(c, r, version, policy), list_calls
                ),
                "check_indexed_s": per_call(
                    lambda c=catalog, r=call_request: dispatch(c, r, version, policy), 2000
                ),
                "check_linear_s": per_call(
                    lambda c=catalog, n=last_hidden: _linear_hidden(c, n, policy), linear_calls
                ),
            }
        )
    return rows


def main() -> None:
    """Measure both and print the table with the ratios; then the scaling table."""
    our_list, our_check = ours()
    peer = fastmcp_peer()
    rows = [("list 10k (filter)", our_list), ("call-path check", our_check)]
    print(f"visibility benchmark: {SIZE} tools, 1 in {HIDDEN_EVERY} tagged internal")
    print(f"{'workload':<20} {'touchstone':>14} {'fastmcp':>14} {'fastmcp/ours':>13}")
    for index, (label, mine) in enumerate(rows):
        if peer is None:
            print(f"{label:<20} {mine * 1e3:>11.3f} ms {'n/a':>14} {'n/a':>13}")
            continue
        theirs = peer[index]
        print(
            f"{label:<20} {mine * 1e3:>11.3f} ms {theirs * 1e3:>11.3f} ms {theirs / mine:>12.2f}x"
        )
    if peer is None:
        print("fastmcp not installed: pip install -e '.[bench]' to measure the peer")
    table = scaling()
    print()
    print("scaling (per call): list filter, call-path check (indexed), linear scan (control)")
    print(f"| {'tools':>8} | {'list':>10} | {'check, indexed':>14} | {'check, linear':>13} |")
    for row in table:
        print(
            f"| {row['tools']:>8,.0f} | {row['list_s'] * 1e3:>7.3f} ms | "
            f"{row['check_indexed_s'] * 1e6:>11.2f} us | {row['check_linear_s'] * 1e6:>10.1f} us |"
        )
    write_results(
        "visibility",
        {
            "tools": SIZE,
            "ours": {"list_s": our_list, "check_s": our_check},
            "fastmcp": None if peer is None else {"list_s": peer[0], "check_s": peer[1]},
            "fastmcp_over_ours": None
            if peer is None
            else {"list": peer[0] / our_list, "check": peer[1] / our_check},
            "scaling": table,
        },
    )


if __name__ == "__main__":
    main()
