"""Real SDK servers for the adapter tests and the leak matrix: one catalog, several ways to hide.

Every server carries the same catalog: a visible tool ``add``, prompt ``hello``, resource
``res://public`` and template ``notes://{id}``; and, unless built ``absent=True``, a privileged
tool ``delete_user`` (with an ``x-mcp-header`` argument), prompt ``admin_prompt``, resource
``res://secret`` and template ``vault://{id}``.  The privileged components declare the scope
``admin`` (``io.turbomcp/scopes``) and carry the tag ``admin``.  Alice holds ``user``; root holds
``user admin``.  An ``absent=True`` server is the ground truth: what a nonexistent component
answers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Protocol

from pydantic import Field

from mcp_touchstone.visibility import (
    SCOPES_KEY,
    TAGS_KEY,
    ComponentKind,
    Visibility,
    VisibleComponent,
    has_scopes,
)

HIDDEN = {
    "tool": "delete_user",
    "prompt": "admin_prompt",
    "resource": "res://secret",
    "template": "vault://7",
}
"""The privileged component of each kind, as a request names it."""

PRIVILEGED_META: dict[str, Any] = {TAGS_KEY: ["admin"], SCOPES_KEY: ["admin"]}
_DECLARED = Visibility().requiring_declared_scopes()


def POLICY(component: VisibleComponent) -> bool:  # noqa: N802 - a policy value, named as one
    """The protected servers' policy: the built-in policy hiding what the caller lacks the
    declared scopes for, plus the privileged prompt by name (``MCPServer`` prompts carry no
    ``_meta``, so they cannot declare scopes)."""
    if component.kind is ComponentKind.PROMPT and component.id == HIDDEN["prompt"]:
        return has_scopes(component.request.identity, ["admin"])
    return _DECLARED(component)


TOKENS = {"alice": ["user"], "root": ["user", "admin"]}
SERVER_NAME = "touchstone-demo"


def _access_token(token: str, access_token: Callable[..., Any], *, subject: bool) -> Any:
    """The access token ``access_token`` builds for a known bearer token, or ``None``."""
    scopes = TOKENS.get(token)
    if scopes is None:
        return None
    extra = {"subject": token} if subject else {}
    return access_token(token=token, client_id="demo-client", scopes=scopes, **extra)


class Verifier:
    """A token verifier knowing two bearer tokens: ``alice`` and ``root``."""

    async def verify_token(self, token: str) -> Any:
        """The access token for ``token``, or ``None`` when it is unknown."""
        from mcp.server.auth.provider import AccessToken

        return _access_token(token, AccessToken, subject=True)


def fast_verifier(base_url: str, *, subject: bool) -> Any:
    """FastMCP's ``TokenVerifier`` knowing the same two tokens (``subject``: the token names the
    subject of its access token too)."""
    from fastmcp.server.auth import AccessToken, TokenVerifier

    class _FastVerifier(TokenVerifier):
        async def verify_token(self, token: str) -> Any:
            return _access_token(token, AccessToken, subject=subject)

    return _FastVerifier(base_url=base_url)


def auth_settings() -> Any:
    """The servers' ``AuthSettings``: every request needs the scope ``user``."""
    from mcp.server.auth.settings import AuthSettings

    return AuthSettings(
        issuer_url="https://auth.example.invalid",
        resource_server_url="http://127.0.0.1:8000/mcp",
        required_scopes=["user"],
        validate_token_resource=False,
    )


Region = Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})]


Privileged = dict[str, dict[str, Any]]
"""How a server declares its privileged components: the decorator keywords of each kind
(``tool``, ``prompt``, ``resource``, ``template``)."""

MCP_PRIVILEGED: Privileged = {
    "tool": {"meta": PRIVILEGED_META},
    "prompt": {},
    "resource": {"meta": PRIVILEGED_META},
    "template": {"meta": PRIVILEGED_META},
}
"""``MCPServer``'s privileged components: tags and scopes in ``_meta`` (its prompts carry none)."""


_Decorator = Callable[[Callable[..., Any]], Any]


class Registrar(Protocol):
    """What the catalog is registered on: an ``MCPServer`` or a ``FastMCP``."""

    def tool(self, *args: Any, **kwargs: Any) -> _Decorator: ...
    def prompt(self, *args: Any, **kwargs: Any) -> _Decorator: ...
    def resource(self, *args: Any, **kwargs: Any) -> _Decorator: ...


def register_catalog(
    server: Registrar,
    privileged: Privileged | None,
    *,
    notes: bool = True,
    tools: Callable[[Registrar], None] | None = None,
) -> None:
    """Register the one catalog on ``server`` (an ``MCPServer`` or a ``FastMCP``), in this order:
    ``add``, the extra ``tools``, ``hello``, ``res://public``, ``notes://{id}`` (unless not
    ``notes``) and, unless ``privileged`` is ``None``, the privileged components declared with its
    keywords."""

    @server.tool()
    def add(a: int, b: int) -> int:
        return a + b

    if tools is not None:
        tools(server)

    @server.prompt()
    def hello(who: str = "world") -> str:
        return f"hello {who}"

    @server.resource("res://public")
    def public() -> str:
        return "public"

    if notes:

        @server.resource("notes://{id}")
        def note(id: str) -> str:
            return f"note {id}"

    if privileged is None:
        return

    @server.tool(**privileged["tool"])
    def delete_user(name: str, region: Region = "eu") -> str:
        return f"deleted {name} in {region}"

    @server.prompt(**privileged["prompt"])
    def admin_prompt() -> str:
        return "admin"

    @server.resource("res://secret", **privileged["resource"])
    def secret() -> str:
        return "secret"

    @server.resource("vault://{id}", **privileged["template"])
    def vault(id: str) -> str:
        return f"vault {id}"


def build_mcp(mode: str, *, absent: bool = False) -> Any:
    """An ``MCPServer``: ``mode`` is ``plain`` (no hiding), ``naive`` (a hand-written
    ``ServerMiddleware`` that filters lists and refuses hidden calls, the usual DIY fix) or
    ``protected`` (``mcp_touchstone.adapters.mcp.protect``)."""
    from mcp.server.mcpserver import MCPServer

    server = MCPServer(SERVER_NAME, token_verifier=Verifier(), auth=auth_settings())
    register_catalog(server, None if absent else MCP_PRIVILEGED)
    if mode == "protected":
        from mcp_touchstone.adapters.mcp import protect

        protect(server, visibility=POLICY)
    elif mode == "naive":
        server._lowlevel_server.middleware.append(_naive_middleware())
    return server


def _naive_middleware() -> Callable[..., Any]:
    """What a user writes without the adapter: filter the lists in a ``ServerMiddleware`` and
    refuse a hidden call there with the spec's unknown-tool error."""
    from mcp.server.auth.middleware.auth_context import get_access_token
    from mcp.shared.exceptions import MCPError

    hidden = set(HIDDEN.values())

    async def middleware(ctx: Any, call_next: Any) -> Any:
        token = get_access_token()
        if token is not None and "admin" in token.scopes:
            return await call_next(ctx)
        params = ctx.params or {}
        target = params.get("name") or params.get("uri")
        if ctx.method in ("tools/call", "prompts/get", "resources/read") and target in hidden:
            raise MCPError(-32602, f"Unknown tool: {target}")
        result = await call_next(ctx)
        for key in ("tools", "prompts", "resources", "resourceTemplates"):
            if isinstance(result, dict) and isinstance(result.get(key), list):
                result[key] = [
                    item
                    for item in result[key]
                    if item.get("name") not in hidden
                    and item.get("uri") not in hidden
                    and item.get("uriTemplate") != "vault://{id}"
                ]
        return result

    return middleware


def build_fastmcp(mode: str, *, absent: bool = False) -> Any:
    """A ``FastMCP`` server: ``mode`` is ``plain``, ``disable`` (``server.disable(tags=...)``),
    ``authmw`` (the global ``AuthMiddleware(restrict_tag("admin", scopes=["admin"]))``) or
    ``protected`` (``TouchstoneMiddleware(...).install(server)``), ``middleware`` (the same
    middleware added without ``install``); ``plain`` hides nothing."""
    from fastmcp import FastMCP

    server = FastMCP(SERVER_NAME, auth=fast_verifier("http://127.0.0.1:8000", subject=False))
    kinds = ("tool", "prompt", "resource", "template")
    admin: Privileged = {
        kind: {"tags": {"admin"}, "meta": {SCOPES_KEY: ["admin"]}} for kind in kinds
    }
    register_catalog(server, None if absent else admin)
    if mode == "protected":
        from mcp_touchstone.adapters.fastmcp import TouchstoneMiddleware

        TouchstoneMiddleware(visibility=POLICY).install(server)
    elif mode == "middleware":
        from mcp_touchstone.adapters.fastmcp import TouchstoneMiddleware

        server.add_middleware(TouchstoneMiddleware(visibility=POLICY))  # without install()
    elif mode == "disable":
        server.disable(tags={"admin"})
    elif mode == "authmw":
        from fastmcp.server.auth import restrict_tag
        from fastmcp.server.middleware import AuthMiddleware

        server.add_middleware(AuthMiddleware(auth=restrict_tag("admin", scopes=["admin"])))
    return server


@dataclass(frozen=True)
class Subject:
    """A row of the leak matrix: an SDK and a way of hiding its privileged components."""

    sdk: str
    mode: str
    label: str
    build: Callable[..., Any]

    def server(self) -> Any:
        """A fresh server of this row, privileged components included."""
        return self.build(self.mode)

    def ground_truth(self) -> Any:
        """What a nonexistent component answers on this SDK: the plain server without the
        privileged components (no hiding, no adapter)."""
        return self.build("plain", absent=True)


SUBJECTS = (
    Subject("mcp 2.3", "plain", "MCPServer, no hiding", build_mcp),
    Subject("mcp 2.3", "naive", "MCPServer + hand-written ServerMiddleware", build_mcp),
    Subject("mcp 2.3", "protected", "MCPServer + touchstone protect()", build_mcp),
    Subject("fastmcp 4.2", "disable", "FastMCP disable(tags=)", build_fastmcp),
    Subject("fastmcp 4.2", "authmw", "FastMCP AuthMiddleware(restrict_tag)", build_fastmcp),
    Subject("fastmcp 4.2", "protected", "FastMCP + TouchstoneMiddleware", build_fastmcp),
    Subject(
        "fastmcp 4.2",
        "middleware",
        "FastMCP + TouchstoneMiddleware, added without install()",
        build_fastmcp,
    ),
)
