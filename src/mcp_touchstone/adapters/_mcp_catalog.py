"""What an ``mcp`` SDK server would serve, read through its own handlers and managers: the
pages of its lists and the component a call on a name or URI would reach (ADAPT-VIS-2).
``adapters/mcp.py`` filters the lists and checks the calls with it."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import aclosing
from typing import Any

from mcp.server.lowlevel.server import Server

from mcp_touchstone.visibility import ComponentKind, match_uri_template

Handler = Callable[[Any, Any], Awaitable[Any]]
"""A host's request handler: ``(request context, params)`` to the result."""

Found = tuple[ComponentKind, str, Any] | None
"""A component the host would serve: its kind, its id (name, URI or URI template), its _meta."""

LISTS: dict[str, tuple[str, ComponentKind]] = {
    "tools/list": ("tools", ComponentKind.TOOL),
    "prompts/list": ("prompts", ComponentKind.PROMPT),
    "resources/list": ("resources", ComponentKind.RESOURCE),
    "resources/templates/list": ("resource_templates", ComponentKind.RESOURCE_TEMPLATE),
}
"""The list methods: the result's item field and the kind of its items."""


class HostCatalog:
    """The host's components: ``low`` (the lowlevel ``Server``), ``high`` (its ``MCPServer``,
    when there is one) and ``original`` (the host's own handlers, by method)."""

    def __init__(self, low: Server[Any], high: Any | None, original: dict[str, Handler]) -> None:
        self.low = low
        self.high = high
        self.original = original

    async def pages(self, ctx: Any, method: str) -> AsyncGenerator[tuple[Any, list[Any]], None]:
        """The host's list ``method`` page by page (each page and its items), read only as far
        as the consumer goes; a cursor seen before ends it."""
        attr = LISTS[method][0]
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

    async def all(self, ctx: Any, method: str) -> tuple[list[Any], int, Any]:
        """Every item of the host's list ``method`` (all pages), its first page's size, and
        its first page."""
        items: list[Any] = []
        first: Any = None
        size = 0
        async for page, page_items in self.pages(ctx, method):
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
            return self.find_managed(kind, ident)
        if kind is ComponentKind.RESOURCE:
            if "resources/list" in self.original:
                async with aclosing(self.pages(ctx, "resources/list")) as pages:
                    async for _, resources in pages:
                        for res in resources:
                            if str(res.uri) == ident:
                                return ComponentKind.RESOURCE, ident, res.meta
            if "resources/templates/list" in self.original:
                async with aclosing(self.pages(ctx, "resources/templates/list")) as pages:
                    async for _, templates in pages:
                        for tpl in templates:
                            if match_uri_template(str(tpl.uri_template), ident):
                                template = str(tpl.uri_template)
                                return ComponentKind.RESOURCE_TEMPLATE, template, tpl.meta
            return None
        method = "tools/list" if kind is ComponentKind.TOOL else "prompts/list"
        if method not in self.original:
            return None
        async with aclosing(self.pages(ctx, method)) as pages:
            async for _, items in pages:
                for item in items:
                    if item.name == ident:
                        return kind, ident, getattr(item, "meta", None)
        return None

    def find_managed(self, kind: ComponentKind, ident: str) -> Found:
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
