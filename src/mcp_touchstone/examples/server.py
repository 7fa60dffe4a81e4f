"""A runnable MCP server with all three semantics in front of it
(`python -m mcp_touchstone.examples.server`; its text: `touchstone example server`).

* visibility: `purge_bucket` declares the scope `admin`; a caller without it neither sees it
  listed nor can tell it from a tool that does not exist;
* grants: each bearer token carries a Chio scope; `add` may be called only with small arguments;
* MRTR: `purge_bucket` asks for confirmation (input_required), and the final round is replayed,
  never re-run, when the client retries it (ReplayGuard on the in-memory store, or on Redis when
  REDIS_URL is set).

Tokens: `alice` (scope `user`), `root` (scopes `user admin`).  Serves streamable HTTP on
127.0.0.1:$PORT (default 8765), path /mcp.
"""

from __future__ import annotations

import os
from typing import Any

import mcp_types as types
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.request_state import RequestStateSecurity

from mcp_touchstone.adapters.mcp import protect
from mcp_touchstone.adapters.replay import ReplayGuard
from mcp_touchstone.mrtr import InMemoryRequestStateStore
from mcp_touchstone.scope import ChioScope, decode_scope
from mcp_touchstone.visibility import SCOPES_KEY, Visibility

PORT = int(os.environ.get("PORT", "8765"))
USERS: dict[str, dict[str, Any]] = {
    "alice": {
        "scopes": ["user"],
        "grants": [
            {
                "server_id": "demo",
                "tool_name": "add",
                "operations": ["invoke"],
                "constraints": [{"type": "max_args_size", "value": 32}],
            }
        ],
    },
    "root": {
        "scopes": ["user", "admin"],
        "grants": [{"server_id": "*", "tool_name": "*", "operations": ["invoke"]}],
    },
}
PURGES: list[str] = []


class Tokens:
    """Two bearer tokens, named after their holders."""

    async def verify_token(self, token: str) -> AccessToken | None:
        user = USERS.get(token)
        if user is None:
            return None
        return AccessToken(token=token, client_id="demo", scopes=user["scopes"], subject=token)


def grants(_ctx: Any) -> ChioScope | None:
    """The caller's Chio scope, from its token."""
    token = get_access_token()
    user = None if token is None else USERS.get(token.subject or "")
    return None if user is None else decode_scope({"grants": user["grants"]}, "scope")


server = MCPServer(
    "demo",
    token_verifier=Tokens(),
    auth=AuthSettings(
        issuer_url="https://auth.example.invalid",
        resource_server_url=f"http://127.0.0.1:{PORT}/mcp",
        required_scopes=["user"],
        validate_token_resource=False,
    ),
    request_state_security=RequestStateSecurity(keys=[os.environ.get("STATE_KEY", "k" * 32)]),
)


@server.tool()
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


@server.tool(meta={SCOPES_KEY: ["admin"]})
def purge_bucket(bucket: str, ctx: Context) -> Any:
    """Delete every object in a bucket, once confirmed."""
    if not ctx.input_responses:
        question = types.ElicitRequest(
            params=types.ElicitRequestFormParams(
                message=f"Really purge {bucket}?",
                requested_schema={"type": "object", "properties": {"ok": {"type": "boolean"}}},
            )
        )
        return types.InputRequiredResult(input_requests={"confirm": question}, request_state=bucket)
    PURGES.append(bucket)
    return f"purged {bucket} (purge #{len(PURGES)} on this server)"


def store() -> Any:
    """The final-response store: Redis when REDIS_URL is set, else in memory."""
    url = os.environ.get("REDIS_URL")
    if url is None:
        return InMemoryRequestStateStore()
    from mcp_touchstone.adapters.redis_store import AsyncRedisRequestStateStore

    return AsyncRedisRequestStateStore.from_url(url)


protect(server, visibility=Visibility().requiring_declared_scopes(), grants=grants)
ReplayGuard(store()).install(server)

if __name__ == "__main__":
    server.run("streamable-http", host="127.0.0.1", port=PORT)
