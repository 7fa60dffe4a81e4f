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

"""

from __future__ import annotations

import base64
import functools
from collections.abc import Callable
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
from mcp_touchstone.adapters._mcp_catalog import LISTS, Handler, HostCatalog
from mcp_touchstone.visibility import (
    ComponentKind,
    IdentityClaims,
    ProtocolVersion,
    Visibility,
    VisibilityPolicy,
)

__all__ = ["protect"]

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
    by the policy's :class:`~mcp_touchstone.visibility.Admission` for the caller (its scopes
    read once per list)."""
    if policy is None:
        return list(items)
    if type(policy) is Visibility:
        if not policy.hidden_tags and not policy.declared_scopes:
            return list(items)
        admits = caller.admission(policy).admits
        return [item for item in items if not (meta := item.meta) or admits(meta)]
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
        self.catalog = HostCatalog(low, high, self.original)
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

    # -- lists ------------------------------------------------------------------------
    def wrap_list(self, method: str) -> Handler:
        attr, kind = LISTS[method]
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
            items, size, page = await self.catalog.all(ctx, method)
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
        """The call check of ``method`` (``tools/call``, ``prompts/get``, ``resources/read``):
        look the component up, answer a hidden one with the host's not-found (ADAPT-VIS-3),
        then refuse a visible tool the grants do not cover with a step-up (ADAPT-GRANT-2).

        Where no caller can be refused anything (:meth:`hides_nothing`) the lookup only tells
        a step-up from the host's unknown, so the grants are asked first and a covered call
        goes straight to the host (ADAPT-PERF-1); a grants function that raises there is asked
        again after the lookup, so it fails only the calls it fails in the lookup-first order.
        With nothing to judge at all the host's handler is left as it is."""
        original = self.original[method]
        judged = kind is ComponentKind.TOOL and self.grants is not None
        grants_first = self.hides_nothing()
        if grants_first and not judged:
            return original  # nothing to judge: every call is the host's (ADAPT-PERF-1)

        async def handler(ctx: Any, params: Any) -> Any:
            ident = str(getattr(params, field))
            verdict: Granted | Denied | None = None
            if grants_first:
                try:
                    verdict = self._grant(ctx, ident, params)
                except Exception:
                    verdict = None  # decided below, in the lookup-first order
                if isinstance(verdict, Granted):
                    return await original(ctx, params)
            found = await self.catalog.find(ctx, kind, ident)
            if found is None:
                return await original(ctx, params)  # nonexistent: the host's own answer
            if not shown_to_all(self.visibility, found[2]) and not self.caller(ctx).sees(
                self.visibility, *found
            ):
                return await self._not_found(ctx, method, params, field, ident)
            if judged:
                if verdict is None:
                    verdict = self._grant(ctx, ident, params)
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
            found = self.catalog.find_managed(ComponentKind.TOOL, name)
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
    for method in (*LISTS, "tools/call", "prompts/get", "resources/read"):
        entry = low.get_request_handler(method)
        if entry is not None:
            guard.original[method] = entry.handler
    for method in LISTS:
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
