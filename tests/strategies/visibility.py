"""Hypothesis strategies for the visibility semantic: metadata, callers, policies, catalogs."""

from __future__ import annotations

from hypothesis import strategies as st

from mcp_touchstone.serde_json import JSON
from mcp_touchstone.visibility import (
    ANONYMOUS,
    SCOPES_KEY,
    TAGS_KEY,
    Catalog,
    Entry,
    Identity,
    Listing,
    Page,
    Visibility,
)

TAG_POOL = ("internal", "beta", "experimental", "admin", "", "Internal")
SCOPE_POOL = ("read", "write", "admin", "", "read write")
NAME_POOL = ("read", "wipe", "rotate_keys", "a", "b", "c", "summarize", "x.y")

tags = st.sampled_from(TAG_POOL)
"""A small pool of tag strings, so policies and components collide often."""

scopes = st.sampled_from(SCOPE_POOL)
"""A small pool of scope strings, empty and space-holding ones included."""

_junk: st.SearchStrategy[JSON] = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=3)
)


def _as_json_list(items: list[str] | list[JSON]) -> JSON:
    """Widen a drawn list to a JSON array value."""
    return list(items)


def string_list_value(pool: st.SearchStrategy[str]) -> st.SearchStrategy[JSON]:
    """A ``_meta`` value at a tags/scopes key: usually an array of strings, sometimes mixed or
    malformed (which reads as empty)."""
    clean: st.SearchStrategy[JSON] = st.lists(pool, max_size=3).map(_as_json_list)
    mixed: st.SearchStrategy[JSON] = st.lists(st.one_of(pool, _junk), max_size=4).map(_as_json_list)
    return st.one_of(clean, clean, mixed, _junk)


@st.composite
def metas(draw: st.DrawFn) -> dict[str, JSON]:
    """A component ``_meta`` that may carry tags, declared scopes and an unrelated key."""
    meta: dict[str, JSON] = {}
    if draw(st.booleans()):
        meta[TAGS_KEY] = draw(string_list_value(tags))
    if draw(st.booleans()):
        meta[SCOPES_KEY] = draw(string_list_value(scopes))
    if draw(st.booleans()):
        meta["other"] = draw(_junk)
    return meta


@st.composite
def identities(draw: st.DrawFn) -> Identity:
    """Anonymous, or a bearer whose scope/scp claims draw from the scope pool."""
    if draw(st.booleans()):
        return ANONYMOUS
    claims: dict[str, JSON] = {}
    if draw(st.booleans()):
        claims["scope"] = " ".join(draw(st.lists(scopes, max_size=3)))
    if draw(st.booleans()):
        claims["scp"] = list(draw(st.lists(scopes, max_size=2)))
    return Identity.bearer(draw(st.sampled_from(("alice", "bob", ""))), claims)


@st.composite
def policies(draw: st.DrawFn) -> Visibility:
    """A built-in policy with a random hidden-tag set and scope flag."""
    policy = Visibility().hiding_tagged(draw(st.lists(tags, max_size=3)))
    return policy.requiring_declared_scopes() if draw(st.booleans()) else policy


def entries(ids: st.SearchStrategy[str]) -> st.SearchStrategy[Entry]:
    """A listed component with an id from ``ids`` and random metadata."""
    return st.builds(lambda i, m: Entry(i, m, {"id": i}), ids, metas())


@st.composite
def listings(draw: st.DrawFn, ids: st.SearchStrategy[str]) -> Listing:
    """A registered list of one to three pages chained by cursors ``p1``, ``p2``."""
    count = draw(st.integers(1, 3))
    pages = []
    for index in range(count):
        cursor = None if index == 0 else f"p{index}"
        following = f"p{index + 1}" if index + 1 < count else None
        items = tuple(draw(st.lists(entries(ids), max_size=4)))
        pages.append(Page(items, cursor, following))
    return Listing(tuple(pages))


URI_POOL = ("mem://a", "mem://b", "mem://dir/x", "mem://dir/y/z")
TEMPLATE_POOL = ("mem://{name}", "mem://dir/{+rest}", "mem://{?q}", "mem://dir/{leaf}")


@st.composite
def catalogs(draw: st.DrawFn) -> Catalog:
    """A catalog of paged tools, resources, templates and prompts drawn from small pools."""
    names = st.sampled_from(NAME_POOL)
    return Catalog(
        tools=draw(listings(names)),
        resources=draw(listings(st.sampled_from(URI_POOL))),
        resource_templates=draw(listings(st.sampled_from(TEMPLATE_POOL))),
        prompts=draw(listings(names)),
    )


template_texts = st.lists(
    st.sampled_from(("a", "/", ".", "\n", "}", "{x}", "{+y}", "{?q}", "{", "{_1}", "b/")),
    max_size=6,
).map("".join)
"""Templates over a small alphabet: literals, both supported expressions and malformed ones."""

uri_texts = st.text(alphabet="ab/.\n}{", max_size=10)
"""URIs over the characters the template alphabet cares about."""
