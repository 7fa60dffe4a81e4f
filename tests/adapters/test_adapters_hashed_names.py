"""FastMCP's second tool address, ``__<hash>_<local>``, is judged as the tool it reaches
(ADAPT-GRANT-4): grants and visibility hold however a tool is addressed."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from mcp_touchstone.adapters._common import INSUFFICIENT_SCOPE
from mcp_touchstone.scope import decode_scope
from mcp_touchstone.visibility import VisibleComponent

pytest.importorskip("fastmcp")

ADD_ONLY = {"grants": [{"server_id": "*", "tool_name": "add", "operations": ["invoke"]}]}
SAVE_TOO = {"grants": [{"server_id": "*", "tool_name": "save", "operations": ["invoke"]}]}


def _server(scope: dict[str, Any] | None, *, hide_save: bool, install: bool) -> Any:
    """A FastMCP server with ``add`` and an app backend tool ``save`` (model-visible too)."""
    from fastmcp import FastMCP
    from fastmcp.apps.app import FastMCPApp

    from mcp_touchstone.adapters.fastmcp import TouchstoneMiddleware

    server = FastMCP("touchstone-demo")

    @server.tool
    def add(a: int, b: int) -> int:
        return a + b

    app = FastMCPApp("billing")

    @app.tool(model=True)
    def save(name: str) -> str:
        return "saved " + name

    server.add_provider(app)

    def policy(component: VisibleComponent) -> bool:
        return not (hide_save and component.id == "save")

    grants = None if scope is None else decode_scope(scope, "scope")
    middleware = TouchstoneMiddleware(
        visibility=policy if hide_save else None,
        grants=None if grants is None else (lambda _context: grants),
    )
    if install:
        middleware.install(server)
    else:
        server.add_middleware(middleware)
    return server


def _alias() -> str:
    from fastmcp.server.providers.addressing import hashed_backend_name

    return hashed_backend_name("billing", "save")


def _call(server: Any, name: str) -> tuple[str, Any]:
    """``("ok", text)``, ``("tool-error", text)`` or ``("rpc-error", (code, message))``."""
    from fastmcp import Client
    from mcp.shared.exceptions import MCPError

    async def go() -> tuple[str, Any]:
        async with Client(server) as client:
            try:
                result = await client.call_tool(name, {"name": "x"}, raise_on_error=False)
            except MCPError as exc:
                return "rpc-error", (exc.error.code, exc.error.message)
            kind = "tool-error" if result.is_error else "ok"
            return kind, result.content[0].text

    return anyio.run(go)


@pytest.mark.parametrize("install", [True, False])
def test_alias_of_an_ungranted_tool_is_the_same_step_up(install: bool) -> None:
    """A grant covering only ``add`` refuses ``save`` by its alias exactly as by its name."""
    server = _server(ADD_ONLY, hide_save=False, install=install)
    by_name = _call(server, "save")
    by_alias = _call(server, _alias())
    assert by_name[0] == "rpc-error"
    assert by_name[1][0] == INSUFFICIENT_SCOPE
    assert by_alias == by_name


@pytest.mark.parametrize("install", [True, False])
def test_alias_of_a_granted_tool_runs(install: bool) -> None:
    """A grant covering ``save`` covers it however it is addressed."""
    server = _server(SAVE_TOO, hide_save=False, install=install)
    assert _call(server, _alias()) == ("ok", "saved x")


def test_a_grant_naming_the_alias_text_is_not_a_grant_for_the_tool() -> None:
    """The alias is judged under the tool's own name: a grant spelling the alias does not cover
    ``save``."""
    scope = {"grants": [{"server_id": "*", "tool_name": _alias(), "operations": ["invoke"]}]}
    kind, (code, _message) = _call(_server(scope, hide_save=False, install=True), _alias())
    assert (kind, code) == ("rpc-error", INSUFFICIENT_SCOPE)


@pytest.mark.parametrize("install", [True, False])
def test_alias_of_a_hidden_tool_is_unknown_like_an_absent_alias(install: bool) -> None:
    """A hidden tool's alias answers FastMCP's unknown tool, as an alias of no tool does."""
    server = _server(SAVE_TOO, hide_save=True, install=install)
    alias = _alias()
    absent = "__000000000000_save"
    kind, text = _call(server, alias)
    absent_kind, absent_text = _call(server, absent)
    assert kind == absent_kind
    assert text.replace(alias, absent) == absent_text
    assert "saved" not in text
