"""A TouchstoneMiddleware added to a real FastMCP server without ``install()`` says so on the
server's first request (ADAPT-FMCP-3)."""

from __future__ import annotations

import logging
import warnings
from typing import Any

import anyio
import pytest

from mcp_touchstone.adapters.fastmcp import HALF_INSTALLED, TouchstoneMiddleware
from tests.adapters._servers import POLICY


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
