"""A TouchstoneMiddleware added to a real FastMCP server without ``install()`` says so on the
server's first request (ADAPT-FMCP-3); with it, the ``Mcp-Param-*`` check is scoped to the caller
(ADAPT-VIS-5)."""

from __future__ import annotations

import logging
import warnings
from typing import Any

import anyio
import pytest

from mcp_touchstone.adapters.fastmcp import HALF_INSTALLED, TouchstoneMiddleware
from mcp_touchstone.visibility import ANONYMOUS
from tests.adapters._drive import http_exchange
from tests.adapters._servers import HIDDEN, POLICY, build_fastmcp


def _server() -> Any:
    from fastmcp import FastMCP

    server = FastMCP("install-check")

    @server.tool()
    def add(a: int, b: int) -> int:
        return a + b

    return server


def _list_twice(server: Any) -> list[str]:
    from fastmcp import Client

    async def main() -> list[str]:
        async with Client(server) as client:
            first = await client.list_tools()
            second = await client.list_tools()
        return [t.name for t in first + second]

    return anyio.run(main)


def _ours(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if str(w.message) == HALF_INSTALLED]


def test_add_middleware_without_install_warns_once(caplog: pytest.LogCaptureFixture) -> None:
    """ADAPT-FMCP-3: ``add_middleware`` alone leaves the ``Mcp-Param-*`` check open; the first
    request warns (RuntimeWarning and the log), once per server, and the server still serves."""
    server = _server()
    server.add_middleware(TouchstoneMiddleware(visibility=POLICY))
    with (
        caplog.at_level(logging.WARNING, "mcp_touchstone.adapters.fastmcp"),
        warnings.catch_warnings(record=True) as caught,
    ):
        warnings.simplefilter("always")
        assert _list_twice(server) == ["add", "add"]
    assert _ours(caught) == [HALF_INSTALLED]
    assert [r.getMessage() for r in caplog.records] == [HALF_INSTALLED]
    assert "install(server)" in HALF_INSTALLED


@pytest.mark.parametrize("how", ["install", "constructor-then-install", "grants-only"])
def test_an_installed_middleware_is_silent(how: str) -> None:
    """ADAPT-FMCP-3: ``install`` (after ``FastMCP(middleware=[...])`` too) closes the path and
    nothing is said; a middleware without a visibility policy has no path to close."""
    from fastmcp import FastMCP

    if how == "install":
        server = _server()
        TouchstoneMiddleware(visibility=POLICY).install(server)
    elif how == "constructor-then-install":
        middleware = TouchstoneMiddleware(visibility=POLICY)
        server = FastMCP("install-check", middleware=[middleware])
        middleware.install(server)
    else:
        server = _server()
        server.add_middleware(TouchstoneMiddleware(grants=lambda _ctx: None))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _list_twice(server)
    assert _ours(caught) == []


_PRIVILEGED_CALL = (
    "tools/call",
    {"name": HIDDEN["tool"], "arguments": {"name": "x", "region": "eu"}},
)


async def _listed_then_called(server: Any) -> tuple[tuple[int, bytes], tuple[int, bytes]]:
    """root lists the tools (filling FastMCP's schema cache with the privileged tool), then
    alice and root call the privileged tool without its ``Mcp-Param-Region`` header."""
    await http_exchange(server, "modern", "root", [("tools/list", {})])
    [alice] = await http_exchange(server, "modern", "alice", [_PRIVILEGED_CALL])
    [root] = await http_exchange(server, "modern", "root", [_PRIVILEGED_CALL])
    return alice, root


def test_the_header_check_judges_the_caller_after_a_privileged_listing() -> None:
    """ADAPT-VIS-5: once a privileged caller's ``tools/list`` put the hidden tool's schema in
    FastMCP's cache, a caller who cannot see it still gets a nonexistent tool's answer to a
    call without its ``Mcp-Param-*`` header, and the caller who can see it gets the header
    error (HTTP 400): the check reads the cache, scoped to the caller."""
    alice, root = anyio.run(_listed_then_called, build_fastmcp("protected"))
    absent, _ = anyio.run(_listed_then_called, build_fastmcp("protected", absent=True))
    assert alice == absent
    assert root[0] == 400


def test_an_installed_header_check_lists_nothing_per_call() -> None:
    """ADAPT-VIS-5: with ``install`` the ``Mcp-Param-*`` check of a ``tools/call`` with
    arguments answers from FastMCP's cache: no ``tools/list`` runs for it."""
    from fastmcp.server.middleware import Middleware

    class Lists(Middleware):
        count = 0

        async def on_list_tools(self, context: Any, call_next: Any) -> Any:
            Lists.count += 1
            return await call_next(context)

    server = build_fastmcp("protected")
    server.add_middleware(Lists())
    call = ("tools/call", {"name": "add", "arguments": {"a": 2, "b": 3}})
    answers = anyio.run(http_exchange, server, "modern", "alice", [call, call, call])
    assert [status for status, _ in answers] == [200, 200, 200]
    assert Lists.count == 0


def test_a_custom_identity_removes_the_header_lookup() -> None:
    """ADAPT-VIS-5: a custom ``identity`` needs the request's context, which the check is not
    given: the lookup is removed, and the SDK validates against the caller-scoped list."""
    server = _server()
    TouchstoneMiddleware(visibility=POLICY, identity=lambda _ctx: ANONYMOUS).install(server)
    assert server._mcp_server.get_tool_input_schema is None
