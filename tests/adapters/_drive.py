"""Drive a real SDK server the way a client would, and record what comes back.

Two transports: the SDK's own in-memory client (results as the client parses them, errors as
``code``/``message``/``data``), and streamable HTTP through an ASGI transport (the raw HTTP
status and response body bytes).  Two eras: ``legacy`` (the 2025-11-25 handshake) and
``modern`` (2026-07-28, no handshake, the per-request envelope).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Sequence
from typing import Any

ERAS = {"legacy": "2025-11-25", "modern": "2026-07-28"}
BASE = "http://127.0.0.1:8000"
_ENVELOPE_META = {
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "touchstone-probe", "version": "1"},
}
_NAME_KEYS = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}

Call = tuple[str, dict[str, Any]]
"""A request: its method and params."""


def call_for(kind: str, target: str) -> Call:
    """The request that reaches a component of ``kind`` named ``target``."""
    if kind == "tool":
        return "tools/call", {"name": target, "arguments": {"name": "x"}}
    if kind == "prompt":
        return "prompts/get", {"name": target}
    return "resources/read", {"uri": target}


LIST_OF = {
    "tool": ("tools/list", "tools", "name"),
    "prompt": ("prompts/list", "prompts", "name"),
    "resource": ("resources/list", "resources", "uri"),
    "template": ("resources/templates/list", "resourceTemplates", "uriTemplate"),
}


def _is_fastmcp(server: Any) -> bool:
    return type(server).__module__.startswith("fastmcp")


@contextlib.asynccontextmanager
async def http_client(server: Any) -> AsyncIterator[Any]:
    """An HTTP client wired to ``server``'s streamable HTTP app (JSON responses), its
    lifespan running."""
    import httpx2

    if _is_fastmcp(server):
        app = server.http_app(path="/mcp", json_response=True)
        lifespan = app.router.lifespan_context(app)
    else:
        app = server.streamable_http_app(json_response=True)
        lifespan = server.session_manager.run()
    async with (
        lifespan,
        httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url=BASE) as client,
    ):
        yield client


def _headers(token: str | None, era: str) -> dict[str, str]:
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": ERAS[era],
    }
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return headers


async def http_exchange(
    server: Any,
    era: str,
    token: str | None,
    calls: Sequence[Call],
    extra_headers: Sequence[dict[str, str]] | None = None,
) -> list[tuple[int, bytes]]:
    """Send ``calls`` to ``server`` over streamable HTTP as ``token``; return each answer's
    status and body bytes."""
    async with http_client(server) as client:
        return await exchange_on(client, "/mcp", era, token, calls, extra_headers)


async def exchange_on(  # noqa: PLR0917 - http_exchange's arguments, plus the client and URL
    client: Any,
    url: str,
    era: str,
    token: str | None,
    calls: Sequence[Call],
    extra_headers: Sequence[dict[str, str]] | None = None,
    *,
    initialized_note: bool = True,
) -> list[tuple[int, bytes]]:
    """The exchange of :func:`http_exchange` over an open HTTP ``client``, posting to ``url``:
    in the legacy era the handshake first (``initialize``, then ``notifications/initialized``
    unless ``initialized_note`` is off), in the modern era the per-request envelope."""
    out: list[tuple[int, bytes]] = []
    headers = _headers(token, era)
    if era == "legacy":
        init = {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": ERAS[era],
                "capabilities": {},
                "clientInfo": {"name": "touchstone-probe", "version": "1"},
            },
        }
        answer = await client.post(url, json=init, headers=headers)
        session = answer.headers.get("mcp-session-id")
        if session is not None:
            headers["Mcp-Session-Id"] = session
        if initialized_note:
            note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
            await client.post(url, json=note, headers=headers)
    for index, (method, params) in enumerate(calls, start=1):
        body_params = dict(params)
        request_headers = dict(headers)
        if era == "modern":
            body_params["_meta"] = {
                "io.modelcontextprotocol/protocolVersion": ERAS[era],
                **_ENVELOPE_META,
            }
            request_headers["Mcp-Method"] = method
            if method in _NAME_KEYS:
                request_headers["Mcp-Name"] = str(params[_NAME_KEYS[method]])
        if extra_headers is not None:
            request_headers.update(extra_headers[index - 1])
        body = {"jsonrpc": "2.0", "id": index, "method": method, "params": body_params}
        answer = await client.post(url, json=body, headers=request_headers)
        out.append((answer.status_code, answer.content))
    return out


@contextlib.contextmanager
def as_caller(token: str | None) -> Any:
    """Run in-process as the bearer of ``token`` (the SDK's auth context variable)."""
    from mcp.server.auth.middleware.auth_context import auth_context_var
    from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
    from mcp.server.auth.provider import AccessToken

    from tests.adapters._servers import TOKENS

    if token is None:
        yield
        return
    access = AccessToken(token=token, client_id="demo-client", scopes=TOKENS[token], subject=token)
    reset = auth_context_var.set(AuthenticatedUser(access))
    try:
        yield
    finally:
        auth_context_var.reset(reset)


async def memory_exchange(
    server: Any, era: str, token: str | None, calls: Sequence[Call]
) -> list[Any]:
    """Send ``calls`` through the SDK's in-memory client; return each answer as JSON:
    ``{"result": ...}`` or ``{"error": {"code", "message", "data"}}``."""
    from mcp.shared.exceptions import MCPError

    mode = "legacy" if era == "legacy" else ERAS[era]
    out: list[Any] = []
    if _is_fastmcp(server):
        from fastmcp import Client as FastClient

        client: Any = FastClient(server, mode=mode)
        call: Any = _fastmcp_call
    else:
        from mcp import Client

        client = Client(server, mode=mode)
        call = _memory_call
    with as_caller(token):
        async with client:
            session = client if _is_fastmcp(server) else client.session
            for method, params in calls:
                try:
                    result = await call(session, method, params)
                except MCPError as exc:
                    out.append(
                        {"error": {"code": exc.code, "message": exc.message, "data": exc.data}}
                    )
                    continue
                out.append({"result": json.loads(result.model_dump_json(by_alias=True))})
    return out


async def _memory_call(session: Any, method: str, params: dict[str, Any]) -> Any:
    if method == "tools/call":
        return await session.call_tool(params["name"], params.get("arguments"))
    if method == "prompts/get":
        return await session.get_prompt(params["name"], params.get("arguments"))
    if method == "resources/read":
        return await session.read_resource(params["uri"])
    if method == "tools/list":
        return await session.list_tools()
    if method == "prompts/list":
        return await session.list_prompts()
    if method == "resources/list":
        return await session.list_resources()
    if method == "resources/templates/list":
        return await session.list_resource_templates()
    raise ValueError(f"no in-memory driver for {method}")


async def _fastmcp_call(client: Any, method: str, params: dict[str, Any]) -> Any:
    if method == "tools/call":
        return await client.call_tool_mcp(params["name"], params.get("arguments") or {})
    if method == "prompts/get":
        return await client.get_prompt_mcp(params["name"], params.get("arguments"))
    if method == "resources/read":
        return await client.read_resource_mcp(params["uri"])
    lists = {
        "tools/list": client.list_tools_mcp,
        "prompts/list": client.list_prompts_mcp,
        "resources/list": client.list_resources_mcp,
        "resources/templates/list": client.list_resource_templates_mcp,
    }
    return await lists[method]()


def listed(answer: Any, kind: str) -> list[str]:
    """The ids a list answer names (from an in-memory answer or HTTP body bytes)."""
    _method, key, field = LIST_OF[kind]
    if isinstance(answer, tuple):
        answer = json.loads(answer[1])
    result = answer.get("result") or {}
    return [str(item.get(field)) for item in result.get(key, [])]
