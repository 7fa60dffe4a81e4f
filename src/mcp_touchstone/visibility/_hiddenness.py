"""The hiddenness check (VIS-CALL-*, VIS-LIST-*): whether a component a request names is hidden
from the caller, found by reading the list handler's pages, and list filtering."""

from __future__ import annotations

from collections.abc import Callable

from mcp_touchstone._errors import (
    RpcError,
)
from mcp_touchstone.visibility._catalog import (
    Catalog,
    Entry,
    Listing,
    Page,
    Profile,
)
from mcp_touchstone.visibility._policy import (
    ComponentKind,
    RequestContext,
    Visibility,
    VisibilityPolicy,
    VisibleComponent,
)
from mcp_touchstone.visibility._template import uri_template_matches

# --------------------------------------------------------------------------- the check


def _pages(listing: Listing, every_page: bool) -> tuple[Page, ...] | RpcError:
    """The first page, or (strict) every page reachable by following ``next_cursor``."""
    first = listing.fetch(None)
    if isinstance(first, RpcError) or not every_page:
        return first if isinstance(first, RpcError) else (first,)
    pages = [first]
    seen: set[str | None] = {None}
    cursor = first.next_cursor
    while cursor is not None and cursor not in seen:
        seen.add(cursor)
        page = listing.fetch(cursor)
        if isinstance(page, RpcError):
            return page
        pages.append(page)
        cursor = page.next_cursor
    return tuple(pages)


def _find(
    catalog: Catalog, kind: ComponentKind, matches: Callable[[Entry], bool], strict: bool
) -> Entry | RpcError | None:
    """The first listed entry of ``kind`` that ``matches``; ``None`` when the capability is
    unregistered or nothing matches; the list error when listing failed."""
    listing = catalog.listing(kind)
    if listing is None:
        return None
    pages = _pages(listing, strict)
    if isinstance(pages, RpcError):
        return pages
    for page in pages:
        for entry in page.items:
            if matches(entry):
                return entry
    return None


def _find_id(
    catalog: Catalog, kind: ComponentKind, key: str, strict: bool
) -> Entry | RpcError | None:
    """:func:`_find` for ``entry.id == key``, through each page's id index (same answer: the
    first equal entry of the first page that has one)."""
    listing = catalog.listing(kind)
    if listing is None:
        return None
    pages = _pages(listing, strict)
    if isinstance(pages, RpcError):
        return pages
    for page in pages:
        found = page.first_with_id(key)
        if found is not None:
            return found
    return None


def _judge(
    policy: VisibilityPolicy, kind: ComponentKind, entry: Entry, ctx: RequestContext
) -> bool:
    """Whether ``policy`` hides ``entry``."""
    if type(policy) is Visibility:  # exact type: a subclass may override the verdict
        return not policy.admits(entry.meta, ctx)
    return not policy(VisibleComponent(kind, entry.id, entry.meta, ctx))


def is_hidden(
    catalog: Catalog,
    policy: VisibilityPolicy | None,
    kind: ComponentKind,
    key: str,
    ctx: RequestContext,
    *,
    profile: Profile = Profile.TURBOMCP,
) -> bool:
    """The call-path check: whether the component a call addresses is hidden (VIS-CALL-*).

    ``kind`` is ``TOOL`` or ``PROMPT`` (``key`` a name) or ``RESOURCE`` (``key`` a URI; the
    templates are consulted when no concrete resource has that URI).  Without a policy
    nothing is hidden.  The ``turbomcp`` profile lists the first page only and treats a
    component no list mentions, an unregistered list and a failing list as *not* hidden; the
    ``strict`` profile lists every page and treats all three as hidden (VIS-STRICT-1..3).
    """
    if policy is None:
        return False
    strict = profile is Profile.STRICT
    if kind is not ComponentKind.RESOURCE:
        found = _find_id(catalog, kind, key, strict)
        if isinstance(found, Entry):
            return _judge(policy, kind, found, ctx)
        return strict
    concrete = _find_id(catalog, ComponentKind.RESOURCE, key, strict)
    if isinstance(concrete, Entry):
        return _judge(policy, ComponentKind.RESOURCE, concrete, ctx)
    if strict and isinstance(concrete, RpcError):
        return True
    template = _find(
        catalog,
        ComponentKind.RESOURCE_TEMPLATE,
        lambda e: uri_template_matches(e.id, key),
        strict,
    )
    if isinstance(template, Entry):
        return _judge(policy, ComponentKind.RESOURCE_TEMPLATE, template, ctx)
    return strict


def filter_entries(
    policy: VisibilityPolicy | None,
    kind: ComponentKind,
    items: tuple[Entry, ...],
    ctx: RequestContext,
) -> tuple[Entry, ...]:
    """The entries ``policy`` admits, order kept; all of them without a policy (VIS-LIST-1)."""
    if policy is None:
        return items
    if type(policy) is Visibility:  # exact type: a subclass may override the verdict
        admission = policy.for_request(ctx)  # the caller's scopes read once per list
        return tuple(e for e in items if admission.admits(e.meta))
    return tuple(e for e in items if policy(VisibleComponent(kind, e.id, e.meta, ctx)))
