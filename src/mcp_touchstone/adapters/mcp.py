"""``protect(server, ...)``: turbomcp visibility and Chio grants in front of an official ``mcp``
SDK server (``spec/adapters.md``, ADAPT-*).

It works at the SDK's handler layer, through the public ``get_request_handler`` /
``add_request_handler`` seam: a refusal returned there is validated, sieved, cache-hinted and
stamped by the SDK's runner exactly like a native answer, which is what makes a hidden
component's answer byte-identical to a nonexistent one's (a ``ServerMiddleware`` short-circuit
is not stamped).  What it does:

* the four list methods are filtered per caller before pagination (every page of the host's
  list is read, filtered, and paged again at the host's page size), and their ``cacheScope``
  is forced to ``"private"``;
* ``tools/call``, ``prompts/get`` and ``resources/read`` of a hidden component answer with the
  host's own not-found: the host is asked for a name no component has, and its answer is
  returned with that name replaced by the real one;
* a visible tool the caller's Chio grants do not cover is refused with a step-up error;
* ``get_tool_input_schema`` (``Mcp-Param-*`` header validation, which runs before any
  middleware) no longer answers for hidden tools, closing that existence oracle.

Length (~500 lines): the one class holding what ``protect`` installs (lists, calls, the lookup
both share, the two call orders of ADAPT-PERF-1 and the inlined MCPServer call check); splitting
it would pass its state around.
"""

from __future__ import annotations

import base64
import functools
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import aclosing
from typing import Any

from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.lowlevel.server import Server
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel

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
    shown_to_all,
    step_up_data,
)
from mcp_touchstone.visibility import (
    ComponentKind,
    IdentityClaims,
    ProtocolVersion,
    Visibility,
    VisibilityPolicy,
    match_uri_template,
)

__all__ = ["protect"]

Handler = Callable[[Any, Any], Awaitable[Any]]
Found = tuple[ComponentKind, str, Any] | None
"""A component the host would serve: its kind, its id (name, URI or URI template), its _meta."""

_LISTS: dict[str, tuple[str, ComponentKind]] = {
    "tools/list": ("tools", ComponentKind.TOOL),
    "prompts/list": ("prompts", ComponentKind.PROMPT),
    "resources/list": ("resources", ComponentKind.RESOURCE),
    "resources/templates/list": ("resource_templates", ComponentKind.RESOURCE_TEMPLATE),
}
_CURSOR_PREFIX = "touchstone:"


def _component_id(kind: ComponentKind, item: Any) -> str:
    if kind is ComponentKind.RESOURCE:
        return str(item.uri)
    if kind is ComponentKind.RESOURCE_TEMPLATE:
        return str(item.uri_template)
    return str(item.name)


def _encode_cursor(offset: int) -> str:
    return _CURSOR_PREFIX + base64.urlsafe_b64encode(str(offset).encode()).decode()


def _decode_cursor(cursor: str | None) -> int | None:
    """Our page offset, or ``None`` for a cursor that is not ours (the host's, or garbage)."""
    if cursor is None or not cursor.startswith(_CURSOR_PREFIX):
        return None
    try:
        text = base64.urlsafe_b64decode(cursor[len(_CURSOR_PREFIX) :].encode()).decode()
        offset = int(text)
    except ValueError:
        return None
    return offset if offset >= 0 and text == str(offset) else None


def visible_items(
    policy: VisibilityPolicy | None, caller: Caller, kind: ComponentKind, items: Any
) -> list[Any]:
    """The items of a host list (SDK models with a ``meta``) that ``caller`` may see, in
    order (ADAPT-VIS-1): the verdict of :meth:`Caller.sees` on each.  Under the built-in
    policy a component with no ``_meta`` is kept without a call, and the others are judged
    by :meth:`Caller.admits` (the caller's scopes read once per list)."""
    if policy is None:
        return list(items)
    if type(policy) is Visibility:
        if not policy.hidden_tags and not policy.declared_scopes:
            return list(items)
        admits = caller.admits
        return [item for item in items if not (meta := item.meta) or admits(policy, meta)]
    return [
        item for item in items if caller.sees(policy, kind, _component_id(kind, item), item.meta)
    ]


class _Protection:
    """The state ``protect`` installs: the policy, the grants source and the host's handlers."""

    def __init__(
        self,
        low: Server[Any],
        high: Any | None,
        *,
        visibility: VisibilityPolicy | None,
        grants: GrantsSource | None,
        server_id: str,
        identity: Callable[[Any], IdentityClaims] | None,
    ) -> None:
        self.low = low
        self.high = high
        self.visibility = visibility
        self.grants = grants
        self.server_id = server_id
        self.identity = identity
        self.original: dict[str, Handler] = {}
        self.plans = GrantPlans()

    # -- who is asking ------------------------------------------------------------------
    def caller(self, ctx: Any) -> Caller:
        """The caller of ``ctx``: the ``identity`` function's answer, else the access token's."""
        who = (
            self.identity(ctx)
            if self.identity is not None
            else identity_from_token(get_access_token())
        )
        return Caller(who, revision(getattr(ctx, "protocol_version", None)))

    # -- what the host would serve ----------------------------------------------------
    async def _pages(self, ctx: Any, method: str) -> AsyncGenerator[tuple[Any, list[Any]], None]:
        """The host's list ``method`` page by page (each page and its items), read only as far
        as the consumer goes; a cursor seen before ends it."""
        attr = _LISTS[method][0]
        entry = self.low.get_request_handler(method)
        assert entry is not None
        cursor: str | None = None
        seen: set[str] = set()
        while True:
            params = entry.params_type.model_validate({} if cursor is None else {"cursor": cursor})
            page = await self.original[method](ctx, params)
            yield page, getattr(page, attr)
            cursor = getattr(page, "next_cursor", None)
            if cursor is None or cursor in seen:
                return
            seen.add(cursor)

    async def _all(self, ctx: Any, method: str) -> tuple[list[Any], int, Any]:
        """Every item of the host's list ``method`` (all pages), its first page's size, and
        its first page."""
        items: list[Any] = []
        first: Any = None
        size = 0
        async for page, page_items in self._pages(ctx, method):
            if first is None:
                first, size = page, len(page_items)
            items.extend(page_items)
        return items, size, first

    async def find(self, ctx: Any, kind: ComponentKind, ident: str) -> Found:
        """The component a call on ``ident`` would reach, or ``None`` when the host has none:
        the first equal name; for a URI, the first equal concrete resource, else the first
        template matching it (ADAPT-VIS-2).  On a lowlevel server the host's lists are read
        page by page and only until the component is found (the answer is the same: the
        first match in the host's order)."""
        if self.high is not None:
            return self._find_managed(kind, ident)
        if kind is ComponentKind.RESOURCE:
            if "resources/list" in self.original:
                async with aclosing(self._pages(ctx, "resources/list")) as pages:
                    async for _, resources in pages:
                        for res in resources:
                            if str(res.uri) == ident:
                                return ComponentKind.RESOURCE, ident, res.meta
            if "resources/templates/list" in self.original:
                async with aclosing(self._pages(ctx, "resources/templates/list")) as pages:
                    async for _, templates in pages:
                        for tpl in templates:
                            if match_uri_template(str(tpl.uri_template), ident):
                                template = str(tpl.uri_template)
                                return ComponentKind.RESOURCE_TEMPLATE, template, tpl.meta
            return None
        method = "tools/list" if kind is ComponentKind.TOOL else "prompts/list"
        if method not in self.original:
            return None
        async with aclosing(self._pages(ctx, method)) as pages:
            async for _, items in pages:
                for item in items:
                    if item.name == ident:
                        return kind, ident, getattr(item, "meta", None)
        return None

    def _find_managed(self, kind: ComponentKind, ident: str) -> Found:
        """:meth:`find` for an ``MCPServer``, through its managers (no list per call)."""
        high: Any = self.high
        if kind is ComponentKind.TOOL:
            tool = high._tool_manager.get_tool(ident)
            return None if tool is None else (kind, ident, tool.meta)
        if kind is ComponentKind.PROMPT:
            prompt = high._prompt_manager.get_prompt(ident)
            return None if prompt is None else (kind, ident, getattr(prompt, "meta", None))
        manager = high._resource_manager
        resource = manager._resources.get(ident)
        if resource is not None:
            return ComponentKind.RESOURCE, ident, resource.meta
        for template in manager._templates.values():
            try:
                matched = template.matches(ident)
            except Exception:  # the host answers a security-refused match as unknown
                return None
            if matched is not None:
                return ComponentKind.RESOURCE_TEMPLATE, template.uri_template, template.meta
        return None

    # -- lists ------------------------------------------------------------------------
    def wrap_list(self, method: str) -> Handler:
        attr, kind = _LISTS[method]
        original = self.original[method]

        async def handler(ctx: Any, params: Any) -> Any:
            caller = self.caller(ctx)
            cursor = getattr(params, "cursor", None) if params is not None else None
            offset = _decode_cursor(cursor)
            if offset is None:
                page = await original(ctx, params)
                if cursor is not None or getattr(page, "next_cursor", None) is None:
                    # One host page (or a host cursor): filter it in place.
                    kept = self._visible(caller, kind, getattr(page, attr))
                    return page.model_copy(update={attr: kept, "cache_scope": "private"})
                offset = 0
            items, size, page = await self._all(ctx, method)
            kept = self._visible(caller, kind, items)
            end = offset + size
            return page.model_copy(
                update={
                    attr: kept[offset:end],
                    "next_cursor": _encode_cursor(end) if end < len(kept) else None,
                    "cache_scope": "private",
                }
            )

        return handler

    def _visible(self, caller: Caller, kind: ComponentKind, items: Any) -> list[Any]:
        return visible_items(self.visibility, caller, kind, items)

    # -- calls ------------------------------------------------------------------------
    async def _not_found(self, ctx: Any, method: str, params: Any, field: str, real: str) -> Any:
        """The host's own answer for a component that does not exist, named ``real``."""
        sentinel = new_sentinel()
        probe = sentinel_uri(sentinel) if field == "uri" else sentinel
        absent = params.model_copy(update={field: probe})
        try:
            result = await self.original[method](ctx, absent)
        except MCPError as exc:
            raise MCPError(
                exc.code, rewrite(exc.message, probe, real), rewrite(exc.data, probe, real)
            ) from None
        except Exception as exc:
            args = rewrite(exc.args, probe, real)
            try:
                replacement = type(exc)(*args)
            except Exception:
                replacement = RuntimeError(*args)
            raise replacement from None
        if isinstance(result, BaseModel):
            dumped = result.model_dump(by_alias=True, exclude_unset=True)
            return type(result).model_validate(rewrite(dumped, probe, real))
        return rewrite(result, probe, real)

    def hides_nothing(self) -> bool:
        """Whether no caller can be refused any component: no policy, or the built-in one
        hiding no tag and requiring no declared scope, with the default identity (a custom
        ``identity`` is still asked where the lookup-first order asks it)."""
        policy = self.visibility
        if policy is None:
            return True
        return (
            type(policy) is Visibility
            and not policy.hidden_tags
            and not policy.declared_scopes
            and self.identity is None
        )

    def _grant(self, ctx: Any, ident: str, params: Any) -> Granted | Denied:
        assert self.grants is not None
        return self.plans.decide(self.grants(ctx), ident, self.server_id, params.arguments or {})

    def wrap_call(self, method: str, kind: ComponentKind, field: str) -> Handler:
        original = self.original[method]
        judged = kind is ComponentKind.TOOL and self.grants is not None
        if self.hides_nothing():
            if not judged:
                return original  # nothing to judge: every call is the host's (ADAPT-PERF-1)
            return self._grants_first(method, original)
        if kind is ComponentKind.TOOL and self.high is not None:
            return self._managed_tool_call(method, original)
        return self.lookup_first(method, kind, field)

    def lookup_first(self, method: str, kind: ComponentKind, field: str) -> Handler:
        """The general call check: look the component up, refuse a hidden one with the host's
        not-found, then (a tool, with grants) refuse an ungranted one with a step-up."""
        original = self.original[method]
        judged = kind is ComponentKind.TOOL and self.grants is not None

        async def handler(ctx: Any, params: Any) -> Any:
            ident = str(getattr(params, field))
            found = await self.find(ctx, kind, ident)
            if found is None:
                return await original(ctx, params)  # nonexistent: the host's own answer
            if not shown_to_all(self.visibility, found[2]) and not self.caller(ctx).sees(
                self.visibility, *found
            ):
                return await self._not_found(ctx, method, params, field, ident)
            if judged:
                assert self.grants is not None
                arguments = params.arguments or {}
                verdict = self.plans.decide(self.grants(ctx), ident, self.server_id, arguments)
                if isinstance(verdict, Denied):
                    raise MCPError(INSUFFICIENT_SCOPE, verdict.message, step_up_data(method, ident))
            return await original(ctx, params)

        return handler

    def _managed_tool_call(self, method: str, original: Handler) -> Handler:
        """:meth:`lookup_first` for ``tools/call`` on an ``MCPServer``, its steps inlined
        (ADAPT-PERF-1): the tool manager asked directly, :func:`shown_to_all`, the verdict test
        and :meth:`GrantPlans.covers` written out; the same checks in the same order (a
        differential test compares the two).  The handler is a plain function returning the
        host's awaitable (the SDK awaits what a handler returns, at once): no coroutine of its
        own around the host's; a refusal is raised when it is called, or awaited from
        :meth:`_not_found`."""
        high: Any = self.high
        policy = self.visibility
        builtin = type(policy) is Visibility
        grants = self.grants
        plans = self.plans
        server_id = self.server_id
        tool_kind = ComponentKind.TOOL

        def handler(ctx: Any, params: Any) -> Awaitable[Any]:
            ident = params.name
            if ident.__class__ is not str:
                ident = str(ident)
            tool = high._tool_manager.get_tool(ident)
            if tool is None:
                return original(ctx, params)  # nonexistent: the host's own answer
            meta = tool.meta
            if not (policy is None or (builtin and not meta)) and not self.caller(ctx).sees(
                policy, tool_kind, ident, meta
            ):
                return self._not_found(ctx, method, params, "name", ident)
            if grants is not None:
                scope = grants(ctx)
                arguments = params.arguments
                if not (  # GrantPlans.covers, written out
                    scope is plans.covered_scope
                    and ident in plans.covered_tools
                    and server_id == plans.covered_server
                    and (arguments is None or (arguments.__class__ is dict and not arguments))
                ):
                    verdict = plans.decide(scope, ident, server_id, arguments or {})
                    if verdict.__class__ is Denied:
                        assert isinstance(verdict, Denied)
                        data = step_up_data(method, ident)
                        raise MCPError(INSUFFICIENT_SCOPE, verdict.message, data)
            return original(ctx, params)

        return handler

    def _grants_first(self, method: str, original: Handler) -> Handler:
        """``tools/call`` when nothing is hidden (ADAPT-PERF-1): a call the grants cover goes
        straight to the host, which runs the tool or answers its own unknown, as it would after
        the lookup; only a refused call is looked up, to tell an existing tool (step-up) from an
        absent one (the host's answer).  On a lowlevel server the lookup reads the host's list,
        so a granted call no longer lists the catalog.  The grants function is also asked for
        calls on absent tools; one that raises is asked again after the lookup, so it fails only
        the calls it failed in the lookup-first order."""

        async def handler(ctx: Any, params: Any) -> Any:
            ident = str(params.name)
            try:
                early: Granted | Denied | None = self._grant(ctx, ident, params)
            except Exception:
                early = None  # decided below, in the lookup-first order
            if isinstance(early, Granted):
                return await original(ctx, params)
            if await self.find(ctx, ComponentKind.TOOL, ident) is None:
                return await original(ctx, params)  # nonexistent: the host's own answer
            verdict = early if early is not None else self._grant(ctx, ident, params)
            if isinstance(verdict, Denied):
                raise MCPError(INSUFFICIENT_SCOPE, verdict.message, step_up_data(method, ident))
            return await original(ctx, params)

        return handler

    # -- the header oracle ------------------------------------------------------------
    def wrap_schema_lookup(self) -> None:
        """Make ``get_tool_input_schema`` answer ``None`` for a tool the caller cannot see
        (ADAPT-VIS-5).  Without an ``MCPServer``'s managers, or with a custom ``identity``
        (which needs the request context the hook is not given), the hook is removed, so the
        SDK falls back to the caller-scoped (filtered) ``tools/list``."""
        lookup = self.low.get_tool_input_schema
        if lookup is None or self.visibility is None:
            return
        if self.high is None or self.identity is not None:
            self.low.get_tool_input_schema = None
            return

        @functools.wraps(lookup)
        def scoped(name: str) -> Any:
            found = self._find_managed(ComponentKind.TOOL, name)
            if found is None:
                return lookup(name)
            caller = Caller(identity_from_token(get_access_token()), ProtocolVersion.V2026_07_28)
            if not caller.sees(self.visibility, *found):
                return None
            return lookup(name)

        self.low.get_tool_input_schema = scoped


def protect(
    server: Any,
    *,
    visibility: VisibilityPolicy | None = None,
    grants: GrantsSource | None = None,
    server_id: str | None = None,
    identity: Callable[[Any], IdentityClaims] | None = None,
) -> Any:
    """Install visibility and grant enforcement on ``server`` (a lowlevel ``Server`` or an
    ``MCPServer``) and return it.

    ``visibility`` is any :class:`~mcp_touchstone.visibility.VisibilityPolicy` (the built-in
    :class:`~mcp_touchstone.visibility.Visibility` included); ``grants`` maps the request
    context to the caller's :class:`~mcp_touchstone.scope.ChioScope` (``None``: the caller
    holds none, and every ``tools/call`` is refused); ``server_id`` is the server id grants
    are matched against (default: the server's name); ``identity`` maps the request context
    to the visibility caller (default: the access token, :func:`identity_from_token`).
    Calling it twice on one server raises ``ValueError``.
    """
    high: Any | None = None
    if isinstance(server, Server):
        low: Server[Any] = server
    else:
        inner = getattr(server, "_lowlevel_server", None)  # MCPServer (FastMCP reads it too)
        if not isinstance(inner, Server):
            raise TypeError("protect() takes an mcp lowlevel Server or an MCPServer")
        low, high = inner, server
    if getattr(low, "_touchstone_protected", False):
        raise ValueError("this server is already protected")
    guard = _Protection(
        low,
        high,
        visibility=visibility,
        grants=grants,
        server_id=server_id or low.name,
        identity=identity,
    )
    for method in (*_LISTS, "tools/call", "prompts/get", "resources/read"):
        entry = low.get_request_handler(method)
        if entry is not None:
            guard.original[method] = entry.handler
    for method in _LISTS:
        if method in guard.original:
            entry = low.get_request_handler(method)
            assert entry is not None
            low.add_request_handler(method, entry.params_type, guard.wrap_list(method))
    calls = (
        ("tools/call", ComponentKind.TOOL, "name"),
        ("prompts/get", ComponentKind.PROMPT, "name"),
        ("resources/read", ComponentKind.RESOURCE, "uri"),
    )
    for method, kind, field in calls:
        entry = low.get_request_handler(method)
        if entry is not None:
            low.add_request_handler(method, entry.params_type, guard.wrap_call(method, kind, field))
    guard.wrap_schema_lookup()
    low._touchstone_protected = guard  # type: ignore[attr-defined]  # a marker, not an API
    return server
