"""protect() on a lowlevel ``Server`` whose own handlers paginate and define "unknown"
(ADAPT-VIS-1, ADAPT-VIS-2, ADAPT-VIS-3, ADAPT-API-*)."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp import types
from mcp.server.lowlevel.server import Server

from mcp_touchstone.adapters.mcp import protect
from mcp_touchstone.visibility import TAGS_KEY, Visibility
from tests.adapters._drive import memory_exchange

NAMES = ["t0", "secret1", "t2", "t3", "secret4", "t5", "t6"]
PAGE = 2


def _server(*, hide: bool, names: list[str] = NAMES) -> Server[Any]:
    async def list_tools(_ctx: Any, params: Any) -> types.ListToolsResult:
        start = int(params.cursor) if params is not None and params.cursor else 0
        tools = [
            types.Tool(
                name=n,
                input_schema={"type": "object"},
                _meta={TAGS_KEY: ["secret"]} if n.startswith("secret") else None,
            )
            for n in names[start : start + PAGE]
        ]
        more = start + PAGE < len(names)
        return types.ListToolsResult(tools=tools, next_cursor=str(start + PAGE) if more else None)

    async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in names:
            raise ValueError(f"no tool named {params.name!r} here")
        return types.CallToolResult(content=[types.TextContent(type="text", text=params.name)])

    server: Server[Any] = Server("lowlevel-demo", on_list_tools=list_tools, on_call_tool=call_tool)
    if hide:
        protect(server, visibility=Visibility(hidden_tags=frozenset({"secret"})))
    return server


def _pages(server: Server[Any]) -> list[list[str]]:
    async def walk() -> list[list[str]]:
        from mcp import Client

        pages: list[list[str]] = []
        async with Client(server, mode="2026-07-28") as client:
            cursor: str | None = None
            for _ in range(20):
                params = None if cursor is None else types.PaginatedRequestParams(cursor=cursor)
                result = await client.session.list_tools(params=params)
                pages.append([t.name for t in result.tools])
                cursor = result.next_cursor
                if cursor is None:
                    break
        return pages

    result: list[list[str]] = anyio.run(walk)
    return result


def test_filtered_before_pagination() -> None:
    """ADAPT-VIS-1: pages are full after filtering (the host's page size), never short."""
    pages = _pages(_server(hide=True))
    assert pages == [["t0", "t2"], ["t3", "t5"], ["t6"]]


def test_unprotected_pages_unchanged() -> None:
    """Without protect() the host's own pagination is what the client sees."""
    assert _pages(_server(hide=False))[0] == ["t0", "secret1"]


def test_hidden_call_is_the_hosts_own_unknown() -> None:
    """ADAPT-VIS-3: the host's own "unknown" (here a raised ``ValueError``) is what a hidden
    tool answers, with its name."""
    call = [("tools/call", {"name": "secret1", "arguments": {}})]
    hidden = anyio.run(memory_exchange, _server(hide=True), "modern", None, call)
    truth = anyio.run(
        memory_exchange,
        _server(hide=False, names=[n for n in NAMES if n != "secret1"]),
        "modern",
        None,
        call,
    )
    assert hidden == truth


def test_protect_twice_is_refused() -> None:
    """ADAPT-API-1: a server is protected once."""
    server = _server(hide=True)
    with pytest.raises(ValueError, match="already protected"):
        protect(server)


def test_protect_refuses_other_objects() -> None:
    """ADAPT-API-1: anything but an SDK server is a clear TypeError."""
    with pytest.raises(TypeError, match="lowlevel Server or an MCPServer"):
        protect(object())


def test_header_hook_removed_on_a_lowlevel_server() -> None:
    """ADAPT-VIS-5: without managers to judge by, the schema hook is dropped so the SDK falls
    back to the caller-scoped list."""
    server: Server[Any] = Server("x", get_tool_input_schema=lambda _name: {"type": "object"})
    protect(server, visibility=Visibility())
    assert server.get_tool_input_schema is None
