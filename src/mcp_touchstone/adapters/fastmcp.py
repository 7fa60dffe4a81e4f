"""``TouchstoneMiddleware``: turbomcp visibility and Chio grants as a FastMCP ``Middleware``
(``spec/adapters.md``, ADAPT-*).  Over 400 lines: the middleware and its transform are one unit.

FastMCP's list hooks see the components before pagination, and an exception raised in a call
hook is answered by FastMCP's own error path; so a hidden component is refused by asking
FastMCP for a component that does not exist and re-raising its answer with the real name, and
the answer is FastMCP's own not-found, byte for byte.  A component's FastMCP ``tags`` count as
``io.turbomcp/tags`` (merged after the ``_meta`` ones).

Install it with :meth:`TouchstoneMiddleware.install` (or ``FastMCP(middleware=[...])`` and then
``install``): that also closes the ``Mcp-Param-*`` header existence oracle, which runs before
any middleware.  Added with ``add_middleware`` alone, a middleware with a visibility policy
warns (``RuntimeWarning`` and the ``mcp_touchstone.adapters.fastmcp`` logger) on the first
request of each server it finds with that path open (ADAPT-FMCP-3).  Unlike FastMCP's
``AuthMiddleware`` it enforces on every transport, stdio included, and its step-up refusal names
no scope.
"""

from __future__ import annotations

import contextvars
import functools
import logging
import warnings
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from fastmcp.server.middleware import Middleware, MiddlewareContext
from fastmcp.server.providers.addressing import parse_hashed_backend_name
from fastmcp.server.transforms import Transform
from fastmcp.utilities.versions import version_sort_key
from mcp.shared.exceptions import MCPError

from mcp_touchstone.adapters._common import (
    INSUFFICIENT_SCOPE,
    Caller,
    Denied,
    Granted,
    GrantPlans,
    GrantsSource,
    identity_from_token,
    new_sentinel,
    revision,
    rewrite,
    sentinel_uri,
    step_up_data,
)
from mcp_touchstone.visibility import (
    TAGS_KEY,
    ComponentKind,
    IdentityClaims,
    ProtocolVersion,
    Visibility,
    VisibilityPolicy,
)

__all__ = ["TouchstoneMiddleware"]

CallNext = Callable[[MiddlewareContext[Any]], Any]
_NO_META: dict[str, Any] = {}
_LOG = logging.getLogger(__name__)
HALF_INSTALLED = (
    "TouchstoneMiddleware was added without install(server): the Mcp-Param-* header check "
    "still answers for tools the caller cannot see (an existence oracle); "
    "call TouchstoneMiddleware(...).install(server) instead of add_middleware"
)
"""The warning a middleware with a visibility policy gives, once per server, when the server's
header check still answers from FastMCP's own cache (ADAPT-FMCP-3)."""
_SCOPED: weakref.WeakSet[Callable[[str], Any]] = weakref.WeakSet()
"""The header checks ``install`` scoped to the caller (ADAPT-VIS-5)."""


class _Asker:
    """Who is asking in one request: the :class:`Caller`, built on first use and kept (a
    request that judges no component with a ``_meta`` or tags never builds it)."""

    __slots__ = ("_build", "_caller")

    def __init__(self, build: Callable[[], Caller]) -> None:
        self._build = build
        self._caller: Caller | None = None

    def get(self) -> Caller:
        """The caller (built now if this is the first use)."""
        if self._caller is None:
            self._caller = self._build()
        return self._caller


_CALLER: contextvars.ContextVar[_Asker | None] = contextvars.ContextVar(
    "touchstone_fastmcp_caller", default=None
)


def component_meta(component: Any) -> dict[str, Any]:
    """The ``_meta`` a policy judges: the component's own, with its FastMCP ``tags`` appended
    to ``io.turbomcp/tags`` (ADAPT-FMCP-2)."""
    meta = dict(getattr(component, "meta", None) or {})
    native = sorted(getattr(component, "tags", None) or ())
    if native:
        declared = meta.get(TAGS_KEY)
        ours = [t for t in declared if isinstance(t, str)] if isinstance(declared, list) else []
        meta[TAGS_KEY] = ours + [t for t in native if t not in ours]
    return meta


def _component_id(kind: ComponentKind, item: Any) -> str:
    if kind is ComponentKind.RESOURCE:
        return str(item.uri)
    if kind is ComponentKind.RESOURCE_TEMPLATE:
        return str(item.uri_template)
    return str(item.name)


def _rewritten(exc: BaseException, probe: str, real: str) -> BaseException:
    if isinstance(exc, MCPError):
        return MCPError(exc.code, rewrite(exc.message, probe, real), rewrite(exc.data, probe, real))
    args = rewrite(exc.args, probe, real)
    try:
        return type(exc)(*args)
    except Exception:
        return RuntimeError(*args)


class TouchstoneMiddleware(Middleware):
    """Per-caller visibility (hidden == nonexistent) and Chio grant enforcement for FastMCP.

    ``visibility`` is any :class:`~mcp_touchstone.visibility.VisibilityPolicy`; ``grants`` maps
    the :class:`MiddlewareContext` to the caller's Chio scope; ``server_id`` is the server id
    grants are matched against (default: the server's name); ``identity`` maps the context to
    the visibility caller (default: the access token).
    """

    def __init__(
        self,
        *,
        visibility: VisibilityPolicy | None = None,
        grants: GrantsSource | None = None,
        server_id: str | None = None,
        identity: Callable[[MiddlewareContext[Any]], IdentityClaims] | None = None,
    ) -> None:
        self.visibility = visibility
        self.grants = grants
        self.server_id = server_id
        self.identity = identity
        self._transform_installed = False
        self._plans = GrantPlans()
        self._checked: weakref.WeakSet[Any] = weakref.WeakSet()

    def install(self, server: Any) -> Any:
        """Add this middleware to the FastMCP ``server`` (unless already there), add a
        server-level transform that hides what the caller may not see from FastMCP's own
        lookups and lists (so FastMCP answers a hidden component exactly as an absent one, in
        one lookup), and close the header existence oracle: the SDK then validates
        ``Mcp-Param-*`` headers against the caller-scoped ``tools/list`` instead of FastMCP's
        registration-time cache (ADAPT-VIS-5, ADAPT-FMCP-1).  Returns ``server``."""
        if self not in server.middleware:
            server.add_middleware(self)
        if self.visibility is not None and not self._transform_installed:
            hiding = _HidingTransform(self)
            server.add_transform(hiding)
            self._transform_installed = True
            self._scope_header_check(server, hiding)
        return server

    def _scope_header_check(self, server: Any, hiding: _HidingTransform) -> None:
        """The ``Mcp-Param-*`` check's lookup (FastMCP's schema cache, filled by ``tools/list``)
        answers only for a tool the caller sees, judged as the tool last listed under that name
        through ``hiding`` (a name it cannot judge so answers ``None``, as a cache miss does);
        a custom ``identity`` needs the request's context, so the lookup is removed and the SDK
        reads the caller-scoped ``tools/list`` instead (ADAPT-VIS-5)."""
        low = server._mcp_server
        lookup = low.get_tool_input_schema
        if lookup is None or self.identity is not None:
            low.get_tool_input_schema = None
            return
        owner = weakref.ref(server)  # the SDK's server must not hold the FastMCP server

        def scoped(name: str) -> Any:
            host = owner()
            last = host is not None and host.transforms[-1] is hiding  # no renaming after it
            tool = hiding.listed.get(name) if last else None
            if tool is None or not self._sees(_header_asker(), ComponentKind.TOOL, tool):
                return None
            return lookup(name)

        _SCOPED.add(scoped)
        low.get_tool_input_schema = scoped

    async def on_request(self, context: MiddlewareContext[Any], call_next: CallNext) -> Any:
        """Note who is asking for the duration of the request (the transform reads it); on a
        server's first request, warn if the header oracle is open (ADAPT-FMCP-3)."""
        fctx = context.fastmcp_context
        if fctx is not None and self.visibility is not None:
            self._check_installed(fctx.fastmcp)
        reset = _CALLER.set(self._asker(context))
        try:
            return await call_next(context)
        finally:
            _CALLER.reset(reset)

    def _check_installed(self, server: Any) -> None:
        """Warn once per server whose ``Mcp-Param-*`` check reads FastMCP's cache unscoped."""
        if server in self._checked:
            return
        self._checked.add(server)
        if server._mcp_server.get_tool_input_schema not in (None, *_SCOPED):
            _LOG.warning(HALF_INSTALLED)
            warnings.warn(HALF_INSTALLED, RuntimeWarning, stacklevel=2)

    # -- who is asking ----------------------------------------------------------------
    def _caller(self, context: MiddlewareContext[Any]) -> Caller:
        if self.identity is not None:
            who = self.identity(context)
        else:
            from fastmcp.server.dependencies import get_access_token

            who = identity_from_token(get_access_token())
        fctx = context.fastmcp_context
        request = None if fctx is None else fctx.request_context
        return Caller(who, revision(getattr(request, "protocol_version", None)))

    def _asker(self, context: MiddlewareContext[Any]) -> _Asker:
        """The caller of ``context``, built on first use.  A custom ``identity`` function is
        asked at once, where it always was (it is the user's code and may raise); the default,
        the access token FastMCP itself reads on every request, is read only when a component
        needs judging."""
        asker = _Asker(functools.partial(self._caller, context))
        if self.identity is not None:
            asker.get()
        return asker

    def _sees(self, asker: _Asker, kind: ComponentKind, component: Any) -> bool:
        """Whether the caller may see ``component``.  Under the built-in policy a component
        with neither ``_meta`` nor tags is visible without building the caller, and the
        others are judged by :meth:`Caller.admits` on the ``_meta`` and the native tags (the
        verdict :func:`component_meta` would give, without building the merged ``_meta``)."""
        policy = self.visibility
        if policy is None:
            return True
        if type(policy) is Visibility:
            meta = getattr(component, "meta", None)
            tags = getattr(component, "tags", None)
            if not meta and not tags:
                return True
            return asker.get().admits(policy, meta or _NO_META, tags or ())
        ident = _component_id(kind, component)
        return asker.get().sees(policy, kind, ident, component_meta(component))

    # -- lists ------------------------------------------------------------------------
    async def _filtered(
        self, context: MiddlewareContext[Any], call_next: CallNext, kind: ComponentKind
    ) -> Sequence[Any]:
        items: Sequence[Any] = await call_next(context)
        if self.visibility is None or self._transform_installed:
            return items
        asker = self._asker(context)
        return [item for item in items if self._sees(asker, kind, item)]

    async def on_list_tools(self, context: MiddlewareContext[Any], call_next: CallNext) -> Any:
        """``tools/list`` filtered per caller, before FastMCP paginates (ADAPT-VIS-1)."""
        return await self._filtered(context, call_next, ComponentKind.TOOL)

    async def on_list_prompts(self, context: MiddlewareContext[Any], call_next: CallNext) -> Any:
        """``prompts/list`` filtered per caller (ADAPT-VIS-1)."""
        return await self._filtered(context, call_next, ComponentKind.PROMPT)

    async def on_list_resources(self, context: MiddlewareContext[Any], call_next: CallNext) -> Any:
        """``resources/list`` filtered per caller (ADAPT-VIS-1)."""
        return await self._filtered(context, call_next, ComponentKind.RESOURCE)

    async def on_list_resource_templates(
        self, context: MiddlewareContext[Any], call_next: CallNext
    ) -> Any:
        """``resources/templates/list`` filtered per caller (ADAPT-VIS-1)."""
        return await self._filtered(context, call_next, ComponentKind.RESOURCE_TEMPLATE)

    # -- calls ------------------------------------------------------------------------
    async def _absent(
        self, context: MiddlewareContext[Any], call_next: CallNext, field: str, real: str
    ) -> Any:
        """FastMCP's own answer for a component named ``real`` that does not exist."""
        sentinel = new_sentinel()
        probe = sentinel_uri(sentinel) if field == "uri" else sentinel
        message = context.message.model_copy(update={field: probe})
        try:
            result = await call_next(context.copy(message=message))
        except Exception as exc:
            raise _rewritten(exc, probe, real) from None
        return rewrite(result, probe, real)  # pragma: no cover - FastMCP raises for unknowns

    async def on_call_tool(self, context: MiddlewareContext[Any], call_next: CallNext) -> Any:
        """A hidden tool is FastMCP's unknown tool; a visible one the grants do not cover is a
        step-up refusal (ADAPT-VIS-3, ADAPT-GRANT-1).

        When FastMCP's own lookup already hides what the caller may not see (the transform is
        installed, or there is no policy), a call the grants cover goes straight on: FastMCP
        then finds the tool, or answers its own unknown tool, in its one lookup.  Only a call
        the grants refuse is looked up here, to tell a visible tool (step-up) from a hidden or
        absent one (FastMCP's not-found) -- the answers of the lookup-first order, with one
        catalog search per granted call instead of two (FastMCP's search is linear in the
        catalog).  The grants function is asked once per call; one that raises is asked again
        in the lookup-first order, so it raises only where it did there.
        """
        name = context.message.name
        fctx = context.fastmcp_context
        if self._transform_installed and self.grants is None:
            return await call_next(context)  # the transform hides; FastMCP answers unknown
        if fctx is None:
            return await call_next(context)
        # FastMCP routes a name it cannot find as a hashed backend name, `__<hash>_<local>`,
        # through `get_tool_by_hash` (an app tool's second address).  Such a call is judged
        # as the tool it reaches, under the tool's own name (ADAPT-GRANT-4), never waved on
        # by a grant that happens to cover the alias text.
        hashed = parse_hashed_backend_name(name)
        early: Granted | Denied | None = None
        if (
            self.grants is not None
            and hashed is None
            and (self._transform_installed or self.visibility is None)
        ):
            try:
                early = self._grant(context, fctx, name)
            except Exception:
                early = None  # decided below, in the lookup-first order
            if isinstance(early, Granted):
                return await call_next(context)
        tool = await fctx.fastmcp.get_tool(name)
        judged = name
        if tool is None and hashed is not None:
            tool = await fctx.fastmcp.get_tool_by_hash(*hashed)
            if tool is not None:
                judged = tool.name
        if tool is None:
            return await call_next(context)
        if not self._sees(self._asker(context), ComponentKind.TOOL, tool):
            return await self._absent(context, call_next, "name", name)
        if self.grants is not None:
            verdict = early if early is not None else self._grant(context, fctx, judged)
            if isinstance(verdict, Denied):
                raise MCPError(
                    INSUFFICIENT_SCOPE, verdict.message, step_up_data("tools/call", name)
                )
        return await call_next(context)

    def _grant(self, context: MiddlewareContext[Any], fctx: Any, name: str) -> Granted | Denied:
        assert self.grants is not None
        arguments = context.message.arguments or {}
        server_id = self.server_id or fctx.fastmcp.name
        return self._plans.decide(self.grants(context), name, server_id, arguments)

    async def on_get_prompt(self, context: MiddlewareContext[Any], call_next: CallNext) -> Any:
        """A hidden prompt is FastMCP's unknown prompt (ADAPT-VIS-3)."""
        name = context.message.name
        fctx = context.fastmcp_context
        if self._transform_installed:
            return await call_next(context)
        prompt = None if fctx is None else await fctx.fastmcp.get_prompt(name)
        if prompt is not None and not self._sees(
            self._asker(context), ComponentKind.PROMPT, prompt
        ):
            return await self._absent(context, call_next, "name", name)
        return await call_next(context)

    async def on_read_resource(self, context: MiddlewareContext[Any], call_next: CallNext) -> Any:
        """A hidden resource, or a URI served by a hidden template, is FastMCP's unknown
        resource: the concrete resource first, else the template FastMCP would use
        (ADAPT-VIS-2, ADAPT-VIS-3)."""
        uri = str(context.message.uri)
        fctx = context.fastmcp_context
        if fctx is not None and not self._transform_installed:
            caller = self._asker(context)
            resource = await fctx.fastmcp.get_resource(uri)
            if resource is not None:
                if not self._sees(caller, ComponentKind.RESOURCE, resource):
                    return await self._absent(context, call_next, "uri", uri)
            else:
                template = await fctx.fastmcp.get_resource_template(uri)
                if template is not None and not self._sees(
                    caller, ComponentKind.RESOURCE_TEMPLATE, template
                ):
                    return await self._absent(context, call_next, "uri", uri)
        return await call_next(context)


def _header_asker() -> _Asker:
    """The caller of the ``Mcp-Param-*`` check (2026-07-28 HTTP only), before any middleware."""
    from fastmcp.server.dependencies import get_access_token

    return _Asker(
        lambda: Caller(identity_from_token(get_access_token()), ProtocolVersion.V2026_07_28)
    )


class _HidingTransform(Transform):
    """The policy as a FastMCP server-level transform: a component the caller may not see is
    left out of every list and every lookup, so FastMCP itself finds nothing (ADAPT-FMCP-1).
    ``listed`` keeps, per name, the tool FastMCP last listed through it (the highest version),
    for the ``Mcp-Param-*`` check, which FastMCP answers from its listings."""

    def __init__(self, middleware: TouchstoneMiddleware) -> None:
        self._middleware = middleware
        self.listed: dict[str, Any] = {}

    def _asker(self) -> _Asker:
        asker = _CALLER.get()
        if asker is not None:
            return asker
        # Outside a request the middleware saw (FastMCP's own in-process calls): the token.
        from fastmcp.server.dependencies import get_access_token

        return _Asker(lambda: Caller(identity_from_token(get_access_token()), revision(None)))

    def _keep(self, kind: ComponentKind, items: Sequence[Any]) -> Sequence[Any]:
        asker = self._asker()
        sees = self._middleware._sees
        return [item for item in items if sees(asker, kind, item)]

    def _one(self, kind: ComponentKind, item: Any) -> Any:
        if item is None or self._middleware._sees(self._asker(), kind, item):
            return item
        return None

    async def list_tools(self, tools: Sequence[Any]) -> Sequence[Any]:
        latest: dict[str, Any] = {}
        for tool in tools:
            seen = latest.get(tool.name)
            if seen is None or version_sort_key(seen) <= version_sort_key(tool):
                latest[tool.name] = tool
        self.listed.update(latest)
        return self._keep(ComponentKind.TOOL, tools)

    async def get_tool(self, name: str, call_next: Any, *, version: Any = None) -> Any:
        return self._one(ComponentKind.TOOL, await call_next(name, version=version))

    async def list_prompts(self, prompts: Sequence[Any]) -> Sequence[Any]:
        return self._keep(ComponentKind.PROMPT, prompts)

    async def get_prompt(self, name: str, call_next: Any, *, version: Any = None) -> Any:
        return self._one(ComponentKind.PROMPT, await call_next(name, version=version))

    async def list_resources(self, resources: Sequence[Any]) -> Sequence[Any]:
        return self._keep(ComponentKind.RESOURCE, resources)

    async def get_resource(self, uri: str, call_next: Any, *, version: Any = None) -> Any:
        return self._one(ComponentKind.RESOURCE, await call_next(uri, version=version))

    async def list_resource_templates(self, templates: Sequence[Any]) -> Sequence[Any]:
        return self._keep(ComponentKind.RESOURCE_TEMPLATE, templates)

    async def get_resource_template(self, uri: str, call_next: Any, *, version: Any = None) -> Any:
        found = await call_next(uri, version=version)
        return self._one(ComponentKind.RESOURCE_TEMPLATE, found)
