"""Relational properties of the dispatcher: hidden means absent from lists and answered exactly
as a name that exists nowhere (VIS-PROP-1)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_touchstone.serde_json import JSON
from mcp_touchstone.visibility import (
    IDENTITY_KEY,
    Catalog,
    ComponentKind,
    Entry,
    Identity,
    Listed,
    Listing,
    Outcome,
    Profile,
    ProtocolVersion,
    Refused,
    Request,
    RequestContext,
    Visibility,
    VisibleComponent,
    dispatch,
    uri_template_matches,
)
from mcp_touchstone.visibility._dispatch import refusal
from tests.strategies.visibility import URI_POOL, catalogs, identities, policies

NOWHERE_NAME = "zz-nowhere"
NOWHERE_URI = "nowhere://zz"
versions = st.sampled_from(list(ProtocolVersion))
profiles = st.sampled_from(list(Profile))


def _meta_of(identity: Identity) -> dict[str, JSON]:
    if identity.subject is None:
        return {}
    return {IDENTITY_KEY: {"sub": identity.subject, "claims": dict(identity.claims)}}


def _every_entry(listing: Listing | None) -> list[Entry]:
    if listing is None:
        return []
    return [e for page in listing.pages for e in page.items]


def _blank(value: JSON, key: str) -> JSON:
    """``value`` with a trailing ``: <key>`` in any string replaced by ``: KEY``."""
    if isinstance(value, str):
        suffix = f": {key}"
        return value[: -len(key)] + "KEY" if value.endswith(suffix) else value
    if isinstance(value, list):
        return [_blank(v, key) for v in value]
    if isinstance(value, dict):
        return {k: _blank(v, key) for k, v in value.items()}
    return value


def handler_answer(
    catalog: Catalog, kind: ComponentKind, key: str, version: ProtocolVersion
) -> JSON:
    """What a #[server] handler answers once a call reaches it: it serves anything any page
    lists (or a template produces) and answers the nonexistent shape otherwise."""
    if kind is ComponentKind.RESOURCE:
        known = any(e.id == key for e in _every_entry(catalog.resources)) or any(
            uri_template_matches(e.id, key) for e in _every_entry(catalog.resource_templates)
        )
    else:
        known = any(e.id == key for e in _every_entry(catalog.listing(kind)))
    return "served" if known else refusal(kind, key, 1, version).response


def answer(
    outcome: Outcome, catalog: Catalog, kind: ComponentKind, key: str, version: ProtocolVersion
) -> JSON:
    """The response the client finally receives, with the addressed name blanked."""
    if isinstance(outcome, Refused):
        return _blank(outcome.response, key)
    return _blank(handler_answer(catalog, kind, key, version), key)


def _request(kind: ComponentKind, key: str, meta: dict[str, JSON]) -> Request:
    if kind is ComponentKind.TOOL:
        return Request(1, "tools/call", {"name": key, "_meta": meta})
    if kind is ComponentKind.PROMPT:
        return Request(1, "prompts/get", {"name": key, "_meta": meta})
    return Request(1, "resources/read", {"uri": key, "_meta": meta})


def _first_match(entries: list[Entry], key: str) -> Entry | None:
    return next((e for e in entries if e.id == key), None)


def _strictly_hidden(
    catalog: Catalog, policy: Visibility, kind: ComponentKind, key: str, ctx: RequestContext
) -> bool:
    """Whether the component ``key`` addresses, looked up over every page, is one the policy
    hides (computed here independently of the dispatcher)."""

    def hides(judged_kind: ComponentKind, e: Entry) -> bool:
        return not policy(VisibleComponent(judged_kind, e.id, e.meta, ctx))

    if kind is not ComponentKind.RESOURCE:
        found = _first_match(_every_entry(catalog.listing(kind)), key)
        return found is not None and hides(kind, found)
    concrete = _first_match(_every_entry(catalog.resources), key)
    if concrete is not None:
        return hides(ComponentKind.RESOURCE, concrete)
    template = next(
        (e for e in _every_entry(catalog.resource_templates) if uri_template_matches(e.id, key)),
        None,
    )
    return template is not None and hides(ComponentKind.RESOURCE_TEMPLATE, template)


def check_never_listed(
    catalog: Catalog,
    policy: Visibility,
    identity: Identity,
    version: ProtocolVersion,
    profile: Profile,
) -> None:
    """On every page of every list, exactly the visible components come back, in order
    (VIS-PROP-1, VIS-LIST-1)."""
    ctx = RequestContext(version, identity)
    meta = _meta_of(identity)
    methods = {
        ComponentKind.TOOL: "tools/list",
        ComponentKind.RESOURCE: "resources/list",
        ComponentKind.RESOURCE_TEMPLATE: "resources/templates/list",
        ComponentKind.PROMPT: "prompts/list",
    }
    for kind, method in methods.items():
        listing = catalog.listing(kind)
        assert listing is not None
        for page in listing.pages:
            params: dict[str, JSON] = {"_meta": meta}
            if page.cursor is not None:
                params["cursor"] = page.cursor
            out = dispatch(catalog, Request(1, method, params), version, policy, profile=profile)
            want = tuple(e for e in page.items if policy(VisibleComponent(kind, e.id, e.meta, ctx)))
            assert out == Listed(kind, want, page.next_cursor)


def check_strict_equal_nowhere(
    catalog: Catalog, policy: Visibility, identity: Identity, version: ProtocolVersion, bogus: bool
) -> None:
    """Strict: every hidden tool, prompt and resource URI gets the answer a name that exists
    nowhere gets, modulo the name, with or without a bogus requestState (VIS-PROP-1,
    VIS-STRICT-1, VIS-STRICT-5)."""
    meta = _meta_of(identity)
    ctx = RequestContext(version, identity)
    cases: list[tuple[ComponentKind, str, str]] = []
    for kind in (ComponentKind.TOOL, ComponentKind.PROMPT):
        entries = _every_entry(catalog.listing(kind))
        for key in {e.id for e in entries}:
            cases.append((kind, key, NOWHERE_NAME))
    for uri in URI_POOL:
        cases.append((ComponentKind.RESOURCE, uri, NOWHERE_URI))
    for kind, key, nowhere in cases:
        request = _request(kind, key, meta)
        probe = _request(kind, nowhere, meta)
        if bogus:
            assert isinstance(request.params, dict)
            assert isinstance(probe.params, dict)
            request.params["requestState"] = "bogus"
            probe.params["requestState"] = "bogus"
        if not _strictly_hidden(catalog, policy, kind, key, ctx):
            continue
        out = dispatch(catalog, request, version, policy, profile=Profile.STRICT)
        assert isinstance(out, Refused)
        reference = dispatch(catalog, probe, version, policy, profile=Profile.STRICT)
        assert answer(out, catalog, kind, key, version) == answer(
            reference, catalog, kind, nowhere, version
        )


def _first_page_hidden_uri(
    catalog: Catalog, policy: Visibility, uri: str, ctx: RequestContext
) -> bool:
    """Whether turbomcp's read check hides ``uri``: the first first-page resource with that URI
    decides; else the first first-page template matching it (computed here independently of
    the dispatcher)."""
    assert catalog.resources is not None
    assert catalog.resource_templates is not None
    concrete = _first_match(list(catalog.resources.pages[0].items), uri)
    if concrete is not None:
        return not policy(VisibleComponent(ComponentKind.RESOURCE, concrete.id, concrete.meta, ctx))
    template = next(
        (e for e in catalog.resource_templates.pages[0].items if uri_template_matches(e.id, uri)),
        None,
    )
    return template is not None and not policy(
        VisibleComponent(ComponentKind.RESOURCE_TEMPLATE, template.id, template.meta, ctx)
    )


def check_turbomcp_equal_nowhere(
    catalog: Catalog, policy: Visibility, identity: Identity, version: ProtocolVersion
) -> None:
    """turbomcp: a tool, prompt or resource URI hidden by the first page is answered as a name
    that exists nowhere is, once its handler answers (VIS-PROP-1, VIS-CALL-2, VIS-CALL-3,
    VIS-CALL-4)."""
    meta = _meta_of(identity)
    ctx = RequestContext(version, identity)
    for uri in URI_POOL:
        hidden_uri = _first_page_hidden_uri(catalog, policy, uri, ctx)
        out = dispatch(catalog, _request(ComponentKind.RESOURCE, uri, meta), version, policy)
        assert isinstance(out, Refused) == hidden_uri
        if hidden_uri:
            probe = _request(ComponentKind.RESOURCE, NOWHERE_URI, meta)
            reference = dispatch(catalog, probe, version, policy)
            assert answer(out, catalog, ComponentKind.RESOURCE, uri, version) == answer(
                reference, catalog, ComponentKind.RESOURCE, NOWHERE_URI, version
            )
    for kind in (ComponentKind.TOOL, ComponentKind.PROMPT):
        listing = catalog.listing(kind)
        assert listing is not None
        first_page = list(listing.pages[0].items)
        for key in {e.id for e in first_page}:
            found = _first_match(first_page, key)
            assert found is not None
            hidden = not policy(VisibleComponent(kind, found.id, found.meta, ctx))
            out = dispatch(catalog, _request(kind, key, meta), version, policy)
            assert isinstance(out, Refused) == hidden
            if hidden:
                reference = dispatch(catalog, _request(kind, NOWHERE_NAME, meta), version, policy)
                assert answer(out, catalog, kind, key, version) == answer(
                    reference, catalog, kind, NOWHERE_NAME, version
                )


FAST = settings(max_examples=40, deadline=None)
SLOW = settings(max_examples=600, deadline=None)
LISTED = given(catalogs(), policies(), identities(), versions, profiles)
STRICT_ARGS = given(catalogs(), policies(), identities(), versions, st.booleans())
TURBO_ARGS = given(catalogs(), policies(), identities(), versions)


@FAST
@LISTED
def test_hidden_components_are_never_listed(
    catalog: Catalog,
    policy: Visibility,
    identity: Identity,
    version: ProtocolVersion,
    profile: Profile,
) -> None:
    """Every page of every list holds exactly its visible components, in order (VIS-PROP-1,
    VIS-LIST-1)."""
    check_never_listed(catalog, policy, identity, version, profile)


@pytest.mark.slow
@SLOW
@LISTED
def test_hidden_components_are_never_listed_long(
    catalog: Catalog,
    policy: Visibility,
    identity: Identity,
    version: ProtocolVersion,
    profile: Profile,
) -> None:
    """The list property over many more examples (VIS-PROP-1)."""
    check_never_listed(catalog, policy, identity, version, profile)


@FAST
@STRICT_ARGS
def test_strict_hidden_answers_equal_nowhere_answers(
    catalog: Catalog, policy: Visibility, identity: Identity, version: ProtocolVersion, bogus: bool
) -> None:
    """Strict: hidden answers equal nowhere answers modulo the name, bogus requestState or not
    (VIS-PROP-1, VIS-STRICT-1, VIS-STRICT-5)."""
    check_strict_equal_nowhere(catalog, policy, identity, version, bogus)


@pytest.mark.slow
@SLOW
@STRICT_ARGS
def test_strict_hidden_answers_equal_nowhere_answers_long(
    catalog: Catalog, policy: Visibility, identity: Identity, version: ProtocolVersion, bogus: bool
) -> None:
    """The strict relational property over many more examples (VIS-PROP-1)."""
    check_strict_equal_nowhere(catalog, policy, identity, version, bogus)


@FAST
@TURBO_ARGS
def test_turbomcp_first_page_hidden_answers_equal_nowhere_answers(
    catalog: Catalog, policy: Visibility, identity: Identity, version: ProtocolVersion
) -> None:
    """turbomcp: first-page hidden tools, prompts and URIs answer as nowhere names do
    (VIS-PROP-1, VIS-CALL-2, VIS-CALL-3, VIS-CALL-4)."""
    check_turbomcp_equal_nowhere(catalog, policy, identity, version)


@pytest.mark.slow
@SLOW
@TURBO_ARGS
def test_turbomcp_first_page_hidden_answers_equal_nowhere_answers_long(
    catalog: Catalog, policy: Visibility, identity: Identity, version: ProtocolVersion
) -> None:
    """The turbomcp relational property over many more examples (VIS-PROP-1)."""
    check_turbomcp_equal_nowhere(catalog, policy, identity, version)
