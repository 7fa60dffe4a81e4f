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
from collections.abc import AsyncIterator, Mapping
from typing import Any

import mcp_types as types
from fastmcp import Context as FastContext
from mcp.server.mcpserver import Context, MCPServer

from mcp_touchstone.visibility import SCOPES_KEY
from tests.adapters._servers import (
    POLICY,
    PRIVILEGED_META,
    Region,
    Verifier,
    _auth_settings,
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
        auth=_auth_settings(),
        request_state_security=RequestStateSecurity(keys=[key], ttl=ttl),
    )
    runs: list[str] = []

    @server.tool()
    def add(a: int, b: int) -> int:
        return a + b

    @server.tool()
    def purge(bucket: str, ctx: Context) -> Any:
        if not ctx.input_responses:
            return types.InputRequiredResult(
                input_requests={"confirm": _form()}, request_state=bucket
            )
        runs.append(bucket)
        return f"purged {bucket} run #{len(runs)}"

    @server.tool()
    def archive(bucket: str, ctx: Context) -> Any:
        if not ctx.input_responses:
            return types.InputRequiredResult(
                input_requests={"confirm": _form()}, request_state=bucket
            )
        runs.append(bucket)
        return f"archived {bucket} run #{len(runs)}"

    @server.prompt()
    def hello(who: str = "world") -> str:
        return f"hello {who}"

    @server.resource("res://public")
    def public() -> str:
        return "public"

    @server.resource("notes://{id}")
    def note(id: str) -> str:
        return f"note {id}"

    @server.tool(meta=PRIVILEGED_META)
    def delete_user(name: str, region: Region = "eu") -> str:
        return f"deleted {name} in {region}"

    @server.prompt()
    def admin_prompt() -> str:
        return "admin"

    @server.resource("res://secret", meta=PRIVILEGED_META)
    def secret() -> str:
        return "secret"

    @server.resource("vault://{id}", meta=PRIVILEGED_META)
    def vault(id: str) -> str:
        return f"vault {id}"

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
    from fastmcp.server.auth import TokenVerifier, require_scopes
    from mcp.server.request_state import RequestStateSecurity

    from tests.adapters._servers import TOKENS

    class _FastVerifier(TokenVerifier):
        async def verify_token(self, token: str) -> Any:
            from fastmcp.server.auth import AccessToken

            scopes = TOKENS.get(token)
            if scopes is None:
                return None
            return AccessToken(token=token, client_id="demo-client", scopes=scopes, subject=token)

    server = FastMCP(
        name,
        auth=_FastVerifier(base_url=BASE),
        request_state_security=RequestStateSecurity(keys=[key]),
    )
    runs: list[str] = []

    @server.tool()
    def add(a: int, b: int) -> int:
        return a + b

    @server.tool()
    def purge(bucket: str, ctx: FastContext) -> Any:
        if not ctx.input_responses:
            return types.InputRequiredResult(
                input_requests={"confirm": _form()}, request_state=bucket
            )
        runs.append(bucket)
        return f"purged {bucket} run #{len(runs)}"

    @server.prompt()
    def hello(who: str = "world") -> str:
        return f"hello {who}"

    @server.resource("res://public")
    def public() -> str:
        return "public"

    @server.tool(tags={"admin"}, meta={SCOPES_KEY: ["admin"]}, auth=require_scopes("admin"))
    def delete_user(name: str, region: Region = "eu") -> str:
        return f"deleted {name} in {region}"

    @server.prompt(auth=require_scopes("admin"))
    def admin_prompt() -> str:
        return "admin"

    @server.resource("res://secret", auth=require_scopes("admin"))
    def secret() -> str:
        return "secret"

    @server.resource("vault://{id}", auth=require_scopes("admin"))
    def vault(id: str) -> str:
        return f"vault {id}"

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
