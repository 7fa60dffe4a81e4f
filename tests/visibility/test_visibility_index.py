"""The call-path id index (``Page.first_with_id``) gives the linear scan's answers, first equal
entry deciding, so the indexed check is the same check (VIS-CALL-1, VIS-CALL-2)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone._errors import RpcError
from mcp_touchstone.visibility import (
    TAGS_KEY,
    Catalog,
    ComponentKind,
    Entry,
    Identity,
    Listing,
    Page,
    Profile,
    ProtocolVersion,
    RequestContext,
    Visibility,
    is_hidden,
)
from mcp_touchstone.visibility._hiddenness import _judge, _pages
from mcp_touchstone.visibility._template import uri_template_matches
from tests.strategies.visibility import (
    NAME_POOL,
    URI_POOL,
    catalogs,
    entries,
    identities,
    policies,
)

_KEYS = st.sampled_from((*NAME_POOL, *URI_POOL, "absent"))


def _linear_find(
    catalog: Catalog, kind: ComponentKind, matches: Callable[[Entry], bool], strict: bool
) -> Entry | RpcError | None:
    """The scan the index replaces: every entry of every page, front to back."""
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


def _linear_is_hidden(
    catalog: Catalog,
    policy: Visibility,
    kind: ComponentKind,
    key: str,
    ctx: RequestContext,
    *,
    profile: Profile,
) -> bool:
    """The call-path check with linear scans only (the reference for the indexed one)."""
    strict = profile is Profile.STRICT
    if kind is not ComponentKind.RESOURCE:
        found = _linear_find(catalog, kind, lambda e: e.id == key, strict)
        return _judge(policy, kind, found, ctx) if isinstance(found, Entry) else strict
    concrete = _linear_find(catalog, ComponentKind.RESOURCE, lambda e: e.id == key, strict)
    if isinstance(concrete, Entry):
        return _judge(policy, ComponentKind.RESOURCE, concrete, ctx)
    if strict and isinstance(concrete, RpcError):
        return True
    template = _linear_find(
        catalog,
        ComponentKind.RESOURCE_TEMPLATE,
        lambda e: uri_template_matches(e.id, key),
        strict,
    )
    if isinstance(template, Entry):
        return _judge(policy, ComponentKind.RESOURCE_TEMPLATE, template, ctx)
    return strict


@given(st.lists(entries(st.sampled_from(NAME_POOL)), max_size=12), _KEYS)
def test_first_with_id_is_the_first_equal_entry(items: list[Entry], key: str) -> None:
    """The index answers the very entry object a front-to-back scan finds first (or None),
    asked once or many times."""
    page = Page(tuple(items))
    expected = next((e for e in items if e.id == key), None)
    for _ in range(2):
        assert page.first_with_id(key) is expected


@given(
    catalog=catalogs(),
    policy=policies(),
    identity=identities(),
    kind=st.sampled_from((ComponentKind.TOOL, ComponentKind.PROMPT, ComponentKind.RESOURCE)),
    key=_KEYS,
    profile=st.sampled_from(Profile),
)
def test_is_hidden_matches_the_linear_scan(
    *,
    catalog: Catalog,
    policy: Visibility,
    identity: Identity,
    kind: ComponentKind,
    key: str,
    profile: Profile,
) -> None:
    """The indexed call-path check equals the linear-scan check on every catalog, policy,
    caller, kind, key and profile, asked twice (the index built, then reused)."""
    ctx = RequestContext(ProtocolVersion.V2025_11_25, identity)
    expected = _linear_is_hidden(catalog, policy, kind, key, ctx, profile=profile)
    for _ in range(2):
        assert is_hidden(catalog, policy, kind, key, ctx, profile=profile) is expected


def test_page_equality_ignores_the_index() -> None:
    """Two pages with the same items are equal whether or not one was indexed."""
    items = (Entry("a"), Entry("b"), Entry("a", {"x": 1}))
    looked_up, fresh = Page(items), Page(items)
    assert looked_up.first_with_id("a") is items[0]
    assert looked_up == fresh
    assert "_by_id" not in repr(looked_up)


def test_a_pages_repr_shows_its_value_not_its_lookup_cache() -> None:
    """VIS-CALL-2: a ``Page``'s repr and equality show its three value fields only, before and
    after a lookup has built its id index, and the first equal entry decides a lookup."""
    assert repr(Page()) == "Page(items=(), cursor=None, next_cursor=None)"
    page = Page((Entry("a"), Entry("a", {"n": 2})), cursor="c")
    shown = (
        "Page(items=(Entry(id='a', meta=mappingproxy({}), wire=mappingproxy({})), "
        "Entry(id='a', meta=mappingproxy({'n': 2}), wire=mappingproxy({}))), "
        "cursor='c', next_cursor=None)"
    )
    assert repr(page) == shown
    found = page.first_with_id("a")
    assert found is page.items[0]
    assert repr(page) == shown
    assert page == Page((Entry("a"), Entry("a", {"n": 2})), cursor="c")


def test_a_pages_lookup_index_cannot_be_passed_in() -> None:
    """VIS-CALL-2: a ``Page`` is built from its items and cursors only, so no caller can hand it
    an id index that disagrees with its items."""
    import pytest

    entry = Entry("a")
    assert Page.__match_args__ == ("items", "cursor", "next_cursor")
    with pytest.raises(TypeError):
        Page((), None, None, {"a": entry})  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Page(_by_id={"a": entry})  # type: ignore[call-arg]
    assert Page().first_with_id("a") is None
    assert Page((entry,)).first_with_id("a") is entry


def test_vis_call_1_is_hidden_takes_its_inputs_by_position_or_name_and_the_profile_by_name() -> (
    None
):
    """VIS-CALL-1, VIS-CALL-2 through the public signature ``is_hidden(catalog, policy, kind,
    key, ctx, *, profile=...)``: every input may be named, the profile only by name."""
    catalog = Catalog(tools=Listing((Page((Entry("secret", {TAGS_KEY: ["internal"]}, {}),)),)))
    policy = Visibility().hiding_tagged(["internal"])
    ctx = RequestContext()
    assert is_hidden(catalog=catalog, policy=policy, kind=ComponentKind.TOOL, key="secret", ctx=ctx)
    assert not is_hidden(
        catalog=catalog, policy=None, kind=ComponentKind.TOOL, key="secret", ctx=ctx
    )
    with pytest.raises(TypeError):
        is_hidden(catalog, policy, ComponentKind.TOOL, "secret", ctx, Profile.STRICT)  # type: ignore[call-arg]
