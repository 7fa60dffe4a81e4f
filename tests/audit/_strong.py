"""The strong servers of the audit tests, on the real SDKs: the official ``mcp`` SDK's
``MCPServer`` (its AES-GCM ``RequestStateBoundary``), FastMCP (the same boundary under its own
dispatch) and ``MCPServer`` behind the project's adapters (``protect()`` + ``ReplayGuard``).

Each lists ``add``, an MRTR tool ``purge`` (asks to confirm, then runs and counts its runs),
a second MRTR tool ``archive``, a prompt, a resource, a template, and privileged components
(tool ``delete_user`` with a header-bound argument, prompt ``admin_prompt``, resource
``res://secret``, template ``vault://{id}``) hidden from alice where the server hides anything.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

import mcp_types as types
from fastmcp import Context as FastContext
from mcp.server.mcpserver import Context, MCPServer

from mcp_touchstone.visibility import SCOPES_KEY
from tests.adapters._servers import (
    MCP_PRIVILEGED,
    POLICY,
    Privileged,
    Registrar,
    Verifier,
    auth_settings,
    fast_verifier,
    register_catalog,
)

BASE = "http://127.0.0.1:8000"
URL = BASE + "/mcp"
PEER = "http://127.0.0.1:8001/mcp"


def _form() -> Any:
    return types.ElicitRequest(
        params=types.ElicitRequestFormParams(
            message="Confirm?",
            requested_schema={"type": "object", "properties": {"ok": {"type": "boolean"}}},
        )
    )


def _mrtr_tools(context: type, *names: str) -> Callable[[Registrar], None]:
    """Registers the MRTR tools ``names`` (``purge``, ``archive``): each asks to confirm, then
    runs, counting the runs of them all; ``context`` is the SDK's ``Context`` type, which the
    SDK injects as the handler's ``ctx``."""

    def register(server: Registrar) -> None:
        runs: list[str] = []

        def tool(name: str) -> Callable[..., Any]:
            def handler(bucket: str, ctx: Any) -> Any:
                if not ctx.input_responses:
                    return types.InputRequiredResult(
                        input_requests={"confirm": _form()}, request_state=bucket
                    )
                runs.append(bucket)
                return f"{name}d {bucket} run #{len(runs)}"

            handler.__annotations__["ctx"] = context
            handler.__name__ = handler.__qualname__ = name
            return handler

        for name in names:
            server.tool()(tool(name))

    return register


def build_mcp(
    *,
    name: str = "touchstone-demo",
    key: bytes = b"k" * 32,
    ttl: float = 600.0,
    mode: str = "plain",
) -> Any:
    """An ``MCPServer``: ``plain`` (the SDK alone) or ``protected`` (``protect`` hiding the
    admin tool from alice, and ``ReplayGuard`` on the in-memory store)."""
    from mcp.server.request_state import RequestStateSecurity

    server = MCPServer(
        name,
        token_verifier=Verifier(),
        auth=auth_settings(),
        request_state_security=RequestStateSecurity(keys=[key], ttl=ttl),
    )
    register_catalog(server, MCP_PRIVILEGED, tools=_mrtr_tools(Context, "purge", "archive"))
    if mode == "protected":
        from mcp_touchstone.adapters.mcp import protect
        from mcp_touchstone.adapters.replay import ReplayGuard
        from mcp_touchstone.mrtr._store import InMemoryRequestStateStore

        protect(server, visibility=POLICY)
        ReplayGuard(InMemoryRequestStateStore()).install(server)
    return server


def build_fastmcp(*, name: str = "touchstone-demo", key: bytes = b"k" * 32) -> Any:
    """A FastMCP server hiding its admin tool from alice with component ``auth=require_scopes``
    (FastMCP's own per-caller hiding; the tool keeps its header-bound argument)."""
    from fastmcp import FastMCP
    from fastmcp.server.auth import require_scopes
    from mcp.server.request_state import RequestStateSecurity

    server = FastMCP(
        name,
        auth=fast_verifier(BASE, subject=True),
        request_state_security=RequestStateSecurity(keys=[key]),
    )
    kinds = ("tool", "prompt", "resource", "template")
    privileged: Privileged = {kind: {"auth": require_scopes("admin")} for kind in kinds}
    privileged["tool"] |= {"tags": {"admin"}, "meta": {SCOPES_KEY: ["admin"]}}
    register_catalog(server, privileged, notes=False, tools=_mrtr_tools(FastContext, "purge"))
    return server


def asgi(server: Any) -> tuple[Any, Any]:
    """A server's streamable HTTP app (JSON responses) and its lifespan context."""
    if type(server).__module__.startswith("fastmcp"):
        app = server.http_app(path="/mcp", json_response=True)
        return app, app.router.lifespan_context(app)
    if hasattr(server, "streamable_http_app"):
        return server.streamable_http_app(json_response=True), server.session_manager.run()
    return server, contextlib.nullcontext()


@contextlib.asynccontextmanager
async def serving(apps: Mapping[str, Any]) -> AsyncIterator[dict[str, Any]]:
    """Every server of ``apps`` (URL -> server) running, as httpx2 transports per URL."""
    import httpx2

    async with contextlib.AsyncExitStack() as stack:
        transports: dict[str, Any] = {}
        for url, server in apps.items():
            app, lifespan = asgi(server)
            lifespan_cm: Any = lifespan
            if isinstance(lifespan_cm, contextlib.AbstractAsyncContextManager):
                await stack.enter_async_context(lifespan_cm)
            transports[url] = httpx2.ASGITransport(app=app)
        yield transports


def build_fastmcp_middleware(
    *, name: str = "touchstone-demo", key: bytes = b"k" * 32, mode: str = "protected"
) -> Any:
    """A FastMCP server hiding its privileged components from alice through
    ``TouchstoneMiddleware`` (added as a middleware, no ``install``), with an app backend tool
    ``settle`` (model-visible, so listed with its hashed alias's identity) hidden from alice
    too.  ``protected``: the middleware as it is; ``names-only``: the middleware judging a call
    by the name it was sent under, as it did before ADAPT-GRANT-4 (an alias of a hidden tool
    then reaches the tool: the audit's AUDIT-EXIST-6 must find it)."""
    from fastmcp import FastMCP
    from fastmcp.apps.app import FastMCPApp
    from mcp.server.request_state import RequestStateSecurity

    from mcp_touchstone.adapters.fastmcp import TouchstoneMiddleware
    from mcp_touchstone.visibility import ComponentKind, VisibleComponent, granted_scopes

    server = FastMCP(
        name,
        auth=fast_verifier(BASE, subject=True),
        request_state_security=RequestStateSecurity(keys=[key]),
    )
    meta = {"meta": {SCOPES_KEY: ["admin"]}}
    privileged: Privileged = {kind: dict(meta) for kind in ("tool", "prompt", "resource")}
    privileged["template"] = dict(meta)
    register_catalog(server, privileged, notes=False, tools=_mrtr_tools(FastContext, "purge"))
    app = FastMCPApp("billing")

    @app.tool(model=True)
    def settle(account: str) -> str:
        return "settled " + account

    server.add_provider(app)

    def policy(component: VisibleComponent) -> bool:
        if component.id == "settle":
            return "admin" in granted_scopes(component.request.identity)
        return POLICY(component)

    class NamesOnly(TouchstoneMiddleware):
        """``on_call_tool`` before ADAPT-GRANT-4: the name looked up as sent, nothing else."""

        async def on_call_tool(self, context: Any, call_next: Any) -> Any:
            called = context.message.name
            tool = await context.fastmcp_context.fastmcp.get_tool(called)
            if tool is not None and not self._sees(self._asker(context), ComponentKind.TOOL, tool):
                return await self._absent(context, call_next, "name", called)
            return await call_next(context)

    chosen = NamesOnly if mode == "names-only" else TouchstoneMiddleware
    server.add_middleware(chosen(visibility=policy))
    return server
