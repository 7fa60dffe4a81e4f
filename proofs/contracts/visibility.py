"""CrossHair contracts on the visibility core (PEP 316 ``pre:``/``post:`` docstrings).

The dispatcher properties range over Enums and bools only, so CrossHair can exhaust them.
"""

from __future__ import annotations

from mcp_touchstone.serde_json import JSON
from mcp_touchstone.visibility import (
    Catalog,
    ComponentKind,
    Entry,
    Identity,
    Listed,
    Listing,
    Page,
    Profile,
    ProtocolVersion,
    Request,
    RequestContext,
    Visibility,
    VisibleComponent,
    dispatch,
    has_scopes,
)
from mcp_touchstone.visibility._dispatch import refusal

SECRET = Entry("x", {"io.turbomcp/tags": ["secret"]}, {"name": "x"})
PUBLIC = Entry("y", {}, {"name": "y"})
POLICY = Visibility(frozenset({"secret"}))
LIST_METHOD = {
    ComponentKind.TOOL: "tools/list",
    ComponentKind.RESOURCE: "resources/list",
    ComponentKind.RESOURCE_TEMPLATE: "resources/templates/list",
    ComponentKind.PROMPT: "prompts/list",
}
CALLS = (
    ("tools/call", ComponentKind.TOOL, "name"),
    ("prompts/get", ComponentKind.PROMPT, "name"),
    ("resources/read", ComponentKind.RESOURCE, "uri"),
)


def _catalog(kind: ComponentKind, items: tuple[Entry, ...]) -> Catalog:
    listing = Listing((Page(items),))
    return Catalog(
        tools=listing if kind is ComponentKind.TOOL else Listing(),
        resources=listing if kind is ComponentKind.RESOURCE else Listing(),
        resource_templates=listing if kind is ComponentKind.RESOURCE_TEMPLATE else Listing(),
        prompts=listing if kind is ComponentKind.PROMPT else Listing(),
    )


def hidden_absent_from_lists(
    kind: ComponentKind, version: ProtocolVersion, strict: bool, hidden_first: bool
) -> bool:
    """PROOF-VIS-LIST-ABSENT: a hidden component is absent from its list, for every list
    method, revision and profile; the visible one stays, order kept.

    post: __return__
    """
    items = (SECRET, PUBLIC) if hidden_first else (PUBLIC, SECRET)
    profile = Profile.STRICT if strict else Profile.TURBOMCP
    request = Request(1, LIST_METHOD[kind], {})
    out = dispatch(_catalog(kind, items), request, version, POLICY, profile=profile)
    return isinstance(out, Listed) and out.items == (PUBLIC,)


def hidden_refused_as_nonexistent(
    which: int, version: ProtocolVersion, strict: bool, string_id: bool
) -> bool:
    """PROOF-VIS-CALL-REFUSAL: calling a hidden component answers exactly the refusal of a
    nonexistent one, for every call method, revision, profile and id type; in the strict
    profile a nonexistent component gets that same answer.

    pre: 0 <= which <= 2
    post: __return__
    """
    method, kind, field = CALLS[which]
    profile = Profile.STRICT if strict else Profile.TURBOMCP
    request_id: int | str = "r-1" if string_id else 7
    request = Request(request_id, method, {field: "x"})
    hidden = dispatch(_catalog(kind, (SECRET, PUBLIC)), request, version, POLICY, profile=profile)
    expected = refusal(kind, "x", request_id, version)
    if hidden != expected:
        return False
    if strict:
        missing = dispatch(_catalog(kind, (PUBLIC,)), request, version, POLICY, profile=profile)
        return missing == expected
    return True


def bare_policy_hides_nothing(
    kind: ComponentKind, tags: list[str], scopes: list[str], subject: str | None
) -> bool:
    """PROOF-VIS-BARE: ``Visibility()`` admits every component, whatever it declares.

    pre: len(tags) <= 2 and len(scopes) <= 2
    pre: all(len(x) <= 1 for x in tags + scopes) and (subject is None or len(subject) <= 1)
    post: __return__
    """
    meta: dict[str, JSON] = {
        "io.turbomcp/tags": list[JSON](tags),
        "io.turbomcp/scopes": list[JSON](scopes),
    }
    ctx = RequestContext(identity=Identity(subject, {}))
    return Visibility().is_visible(VisibleComponent(kind, "x", meta, ctx))


def empty_scope_requirement_met(kind: ComponentKind, subject: str | None, claim: str) -> bool:
    """PROOF-VIS-EMPTY-SCOPES: an empty scope requirement is met by every caller, anonymous
    included, and never hides a component.

    post: __return__
    """
    identity = Identity(subject, {"scope": claim})
    policy = Visibility().requiring_declared_scopes()
    ctx = RequestContext(identity=identity)
    component = VisibleComponent(kind, "x", {"io.turbomcp/scopes": []}, ctx)
    return has_scopes(identity, ()) and policy.is_visible(component)
