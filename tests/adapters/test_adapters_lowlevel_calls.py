"""protect()'s call check does no work the answer does not need (ADAPT-PERF-1): on a lowlevel
``Server`` nothing to judge installs the host's handler as it is, a granted call on a server
that hides nothing goes straight to the host, and a lookup stops at the first match; the
grants-first order answers every call as the lookup-first order does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp import types
from mcp.server.lowlevel.server import Server

from mcp_touchstone.adapters.mcp import protect
from mcp_touchstone.scope import ChioScope, decode_scope
from mcp_touchstone.serde_json import JSON
from mcp_touchstone.visibility import (
    ANONYMOUS,
    SCOPES_KEY,
    IdentityClaims,
    Visibility,
)
from tests.adapters._drive import memory_exchange

PAGE = 2


class _Host:
    """A lowlevel server's catalog, paged by two, counting the list pages it serves."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.pages = 0

    def server(self) -> Server[Any]:
        async def list_tools(_ctx: Any, params: Any) -> types.ListToolsResult:
            self.pages += 1
            start = int(params.cursor) if params is not None and params.cursor else 0
            tools = [
                types.Tool(name=n, input_schema={"type": "object"})
                for n in self.names[start : start + PAGE]
            ]
            more = start + PAGE < len(self.names)
            cursor = str(start + PAGE) if more else None
            return types.ListToolsResult(tools=tools, next_cursor=cursor)

        async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> Any:
            if params.name not in self.names:
                raise ValueError(f"no tool named {params.name!r} here")
            return types.CallToolResult(content=[types.TextContent(type="text", text=params.name)])

        return Server("lowlevel-calls", on_list_tools=list_tools, on_call_tool=call_tool)


def _scope(tools: list[str]) -> ChioScope:
    grants: list[JSON] = [
        {"server_id": "*", "tool_name": t, "operations": ["invoke"]} for t in tools
    ]
    return decode_scope({"grants": grants})


def _calls(names: list[str]) -> list[tuple[str, dict[str, Any]]]:
    return [("tools/call", {"name": n, "arguments": {}}) for n in names]


def _exchange(server: Server[Any], names: list[str]) -> list[Any]:
    answers: list[Any] = anyio.run(memory_exchange, server, "modern", None, _calls(names))
    return answers


def _anonymous(_ctx: Any) -> IdentityClaims:
    return ANONYMOUS


_NAMES = st.sampled_from(["a", "b", "c", "d", "e"])


@settings(max_examples=25, deadline=None)
@given(
    st.lists(_NAMES, unique=True, max_size=5),
    st.lists(_NAMES, unique=True, max_size=3),
    st.lists(_NAMES, min_size=1, max_size=4),
)
def test_grants_first_answers_as_lookup_first(
    catalog: list[str], granted: list[str], called: list[str]
) -> None:
    """A grants-only protect() (grants asked first) answers every call as the lookup-first
    order does (forced here by a custom identity with a policy that hides nothing)."""
    scope = _scope(granted)
    fast = protect(_Host(catalog).server(), grants=lambda _ctx: scope)
    general = protect(
        _Host(catalog).server(),
        grants=lambda _ctx: scope,
        visibility=Visibility(),
        identity=_anonymous,
    )
    assert _exchange(fast, called) == _exchange(general, called)


class _Context:
    protocol_version = "2026-07-28"


def _extra_pages(names: list[str], called: list[str], **protection: Any) -> int:
    """The list pages a protected host serves while its ``tools/call`` handler (called
    directly: the SDK's client lists tools itself) answers ``called``."""
    host = _Host(names)
    entry = protect(host.server(), **protection).get_request_handler("tools/call")

    async def run() -> None:
        for name in called:
            params = types.CallToolRequestParams(name=name, arguments={})
            try:
                await entry.handler(_Context(), params)
            except Exception:  # the host's unknown, or a step-up: answers, not counted here
                continue

    anyio.run(run)
    return host.pages


def test_a_granted_call_lists_nothing() -> None:
    """With grants and no policy, a granted call reads no list page; a refused one looks the
    tool up (a step-up for an existing tool, the host's unknown for an absent one)."""
    names = ["a", "b", "c", "d", "e"]
    server = protect(_Host(names).server(), grants=lambda _ctx: _scope(["a"]))
    granted, refused, absent = _exchange(server, ["a", "b", "zz"])
    assert granted["result"]["content"][0]["text"] == "a"
    assert refused["error"]["code"] == -32001
    assert absent == _exchange(_Host(["a"]).server(), ["zz"])[0]
    assert _extra_pages(names, ["a", "a", "a"], grants=lambda _ctx: _scope(["a"])) == 0


def test_nothing_to_judge_installs_the_hosts_handler() -> None:
    """No grants and a policy that hides nothing: calls are the host's, no list is read."""
    plain = _exchange(_Host(["a", "b"]).server(), ["a", "zz"])
    guarded = protect(_Host(["a", "b"]).server(), visibility=Visibility())
    assert _exchange(guarded, ["a", "zz"]) == plain
    assert _extra_pages(["a", "b"], ["a", "zz"], visibility=Visibility()) == 0


def test_a_lookup_stops_at_the_first_match() -> None:
    """A lookup reads the host's pages only as far as the tool's: the first page for a tool
    on it, every page for an absent one."""
    names = ["a", "b", "c", "d", "e"]
    policy = Visibility(hidden_tags=frozenset({"x"}))
    assert _extra_pages(names, ["a"], visibility=policy) == 1
    assert _extra_pages(names, ["e"], visibility=policy) == 3
    assert _extra_pages(names, ["zz"], visibility=policy) == 3


def test_a_raising_grants_source_fails_only_existing_tools() -> None:
    """A grants function that raises leaves an absent tool's answer the host's (the
    lookup-first order never asked it) and still fails a call on an existing one."""

    def broken(_ctx: Any) -> ChioScope:
        raise RuntimeError("no scope today")

    server = protect(_Host(["a"]).server(), grants=broken)
    absent, existing = _exchange(server, ["zz", "a"])
    assert absent == _exchange(_Host(["a"]).server(), ["zz"])[0]
    assert "error" in existing or existing["result"].get("isError") is True


def _mcpserver(names: list[str]) -> Any:
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("managed")
    for name in names:

        async def tool(name: str = name) -> str:
            return f"ran {name}"

        server.add_tool(tool, name=name, meta={SCOPES_KEY: ["user"]})
    return server


def _always(scope: ChioScope) -> Callable[[Any], ChioScope]:
    return lambda _ctx: scope


def test_covered_tools_are_granted_as_the_plans_grant_them() -> None:
    """ADAPT-GRANT-6: on an MCPServer under a policy that can hide, a covered tool called with
    no arguments or ``{}`` on the last scope is kept as covered and granted; arguments, an
    uncovered tool or another scope are decided by the plans; every answer is the one a fresh
    server gives the call alone."""
    policy = Visibility().requiring_declared_scopes()
    one, two = _scope(["t0"]), _scope(["t0"])
    scopes = iter([one, one, one, one, two])
    server = protect(_mcpserver(["t0", "t1"]), visibility=policy, grants=lambda _ctx: next(scopes))
    guard = server._lowlevel_server._touchstone_protected
    calls: list[tuple[str, dict[str, Any]]] = [
        ("tools/call", {"name": "t0"}),
        ("tools/call", {"name": "t0", "arguments": {}}),
        ("tools/call", {"name": "t0", "arguments": {"i": 2**70}}),
        ("tools/call", {"name": "t1", "arguments": {}}),
        ("tools/call", {"name": "t0", "arguments": {}}),
    ]
    answers = anyio.run(memory_exchange, server, "modern", "root", calls)
    assert guard.plans.covered_scope is two
    assert guard.plans.covered_tools == {"t0"}
    for call, answer, scope in zip(calls, answers, [one, one, one, one, two], strict=True):
        alone = protect(_mcpserver(["t0", "t1"]), visibility=policy, grants=_always(scope))
        assert anyio.run(memory_exchange, alone, "modern", "root", [call]) == [answer]
    assert answers[0]["result"]["content"][0]["text"] == "ran t0"
    assert answers[2]["error"]["code"] == -32001  # unreadable arguments: denied
    assert answers[3]["error"]["code"] == -32001  # not granted
