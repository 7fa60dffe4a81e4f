# ruff: noqa: PLR0917 - CrossHair builds every symbolic input as a positional argument.
"""Contracts on the functions that answer requests (PEP 316 ``pre:``/``post:`` docstrings).

The scope and visibility wrappers are checked by CrossHair over small symbolic domains it
exhausts ("Confirmed over all paths"): strings of bounded length (any characters), and integers
and booleans that choose among the cases of a stated table (grant shapes, constraint kinds).
The MRTR wrappers run the real AEAD, which CrossHair cannot trace: :data:`DOMAIN` gives the
finite set each is enumerated over concretely (``proofs.enumerate``), a bounded check.
"""

from __future__ import annotations

from mcp_touchstone.mrtr import CheckContext, Keyring, StateError, StatePayload, seal, verify
from mcp_touchstone.mrtr._binding import request_binding
from mcp_touchstone.scope import (
    ChioScope,
    ConstraintError,
    Operation,
    ToolGrant,
    resolve_matching_grants,
)
from mcp_touchstone.scope._types import (
    AudienceAllowlist,
    Custom,
    DomainExact,
    DomainGlob,
    MaxArgsSize,
    MaxLength,
    MemoryStoreAllowlist,
    PathPrefix,
    RegexMatch,
)
from mcp_touchstone.serde_json import JSON, to_string
from mcp_touchstone.visibility import (
    Catalog,
    ComponentKind,
    Entry,
    Identity,
    Listing,
    Page,
    Profile,
    ProtocolVersion,
    Request,
    Visibility,
    dispatch,
    has_scopes,
)

# ----------------------------------------------------------------------------- scope


def _target_spec(server: str, tool: str, invoke: bool, req_server: str, req_tool: str) -> bool:
    """SCOPE-RES-1 restated: ``*`` or the exact name, for both, and ``invoke`` granted."""
    # Tuples, not sets: hashing a symbolic string would make CrossHair realize it.
    return server in ("*", req_server) and tool in ("*", req_tool) and invoke


def _text(value: str) -> bool:
    """A string serde_json can hold: no lone surrogate."""
    return all(not ("\ud800" <= c <= "\udfff") for c in value)


def _ops(invoke: bool) -> tuple[Operation, ...]:
    return (Operation.INVOKE,) if invoke else (Operation.READ, Operation.DELEGATE)


def grant_matches_iff_target(
    server: str, tool: str, invoke: bool, req_server: str, req_tool: str
) -> bool:
    """PROOF-SCOPE-TARGETS: a grant without constraints is matched exactly when it targets the
    call, and a match carries index 0 and the specificity (server exact, tool exact, 0).

    pre: len(server) <= 2 and len(tool) <= 2 and len(req_server) <= 1 and len(req_tool) <= 1
    post: __return__
    """
    grant = ToolGrant(server, tool, _ops(invoke))
    result = resolve_matching_grants(ChioScope(grants=(grant,)), req_tool, req_server, None)
    if isinstance(result, ConstraintError):
        return False
    if not _target_spec(server, tool, invoke, req_server, req_tool):
        return result == ()
    return (
        len(result) == 1
        and result[0].index == 0
        and result[0].specificity == (int(server == req_server), int(tool == req_tool), 0)
    )


CONSTRAINTS = (
    PathPrefix("/a"),
    DomainExact("a.b"),
    DomainGlob("*.b"),
    MaxLength(1),
    MaxArgsSize(9),
    Custom("k", "v"),
    AudienceAllowlist(("v",)),
    MemoryStoreAllowlist(("v",)),
    RegexMatch("v"),
)
"""One of each decided variant, and one refused (the last)."""
KEYS = ("path", "to", "store", "k", "url")
"""Argument keys that each decided variant reads (or ignores)."""
N_CONSTRAINTS, N_KEYS = len(CONSTRAINTS), len(KEYS)


def constraint_never_widens(which: int, key: int, value: str, targets: bool) -> bool:
    """PROOF-SCOPE-NARROW: adding a constraint to a grant never adds a match: with it the call
    is matched only if it is matched without it (or the call is refused), for a grant that
    targets the call and one that does not.

    pre: 0 <= which < N_CONSTRAINTS and 0 <= key < N_KEYS
    pre: len(value) <= 2 and _text(value)
    post: __return__
    """
    arguments: JSON = {KEYS[key]: value}
    server = "*" if targets else "x"
    bare = ToolGrant(server, "t", (Operation.INVOKE,))
    narrowed = ToolGrant(server, "t", (Operation.INVOKE,), (CONSTRAINTS[which],))
    without = resolve_matching_grants(ChioScope(grants=(bare,)), "t", "s", arguments)
    with_it = resolve_matching_grants(ChioScope(grants=(narrowed,)), "t", "s", arguments)
    if isinstance(with_it, ConstraintError):
        return True
    return not isinstance(without, ConstraintError) and len(with_it) <= len(without)


SHAPES = (("*", "*"), ("s", "*"), ("*", "t"), ("s", "t"), ("x", "t"), ("s", "x"))
"""Grant targets: wildcard, exact or another name, for server and tool."""
N_SHAPES = len(SHAPES)


def _grant(shape: int, invoke: bool, limited: bool) -> ToolGrant:
    server, tool = SHAPES[shape]
    constraints = (MaxLength(0),) if limited else ()
    return ToolGrant(server, tool, _ops(invoke), constraints)


def added_grant_keeps_matches(
    base: int, base_limited: bool, extra: int, extra_invoke: bool, extra_limited: bool, first: bool
) -> bool:
    """PROOF-SCOPE-MONOTONE: adding a grant, before or after, never removes a match: every grant
    matched before is matched after, with the same specificity.

    pre: 0 <= base < N_SHAPES and 0 <= extra < N_SHAPES
    post: __return__
    """
    arguments: JSON = {"k": "v"}
    kept = _grant(base, True, base_limited)
    added = _grant(extra, extra_invoke, extra_limited)
    grants = (added, kept) if first else (kept, added)
    before = resolve_matching_grants(ChioScope(grants=(kept,)), "t", "s", arguments)
    after = resolve_matching_grants(ChioScope(grants=grants), "t", "s", arguments)
    if isinstance(before, ConstraintError) or isinstance(after, ConstraintError):
        return False
    shift = 1 if first else 0
    found = {(m.index - shift, m.specificity) for m in after}
    return all((m.index, m.specificity) in found for m in before)


def out_of_scope_is_empty(
    s0: int, i0: bool, c0: int, s1: int, i1: bool, c1: int, key: int, value: str
) -> bool:
    """PROOF-SCOPE-OUT-OF-SCOPE: when no grant targets the call, the answer is empty, whatever
    constraints the grants carry (refused ones included) and whatever the arguments.

    pre: 0 <= s0 < N_SHAPES and 0 <= s1 < N_SHAPES
    pre: 0 <= c0 < N_CONSTRAINTS and 0 <= c1 < N_CONSTRAINTS and 0 <= key < N_KEYS
    pre: len(value) <= 1 and _text(value)
    pre: not _target_spec(*SHAPES[s0], i0, "s", "t") and not _target_spec(*SHAPES[s1], i1, "s", "t")
    post: __return__
    """
    grants = (
        ToolGrant(*SHAPES[s0], _ops(i0), (CONSTRAINTS[c0],)),
        ToolGrant(*SHAPES[s1], _ops(i1), (CONSTRAINTS[c1],)),
    )
    arguments: JSON = {KEYS[key]: value}
    return resolve_matching_grants(ChioScope(grants=grants), "t", "s", arguments) == ()


# ----------------------------------------------------------------------------- visibility

TAGS = ("secret", "Secret", "other")
N_TAGS = len(TAGS)


def bare_policy_admits(kind: ComponentKind, t0: int, t1: int, n: int, subject: bool) -> bool:
    """PROOF-VIS-BARE-ANY: a bare ``Visibility()`` admits every component, whatever tags and
    scopes it declares and whoever asks.

    pre: 0 <= t0 < N_TAGS and 0 <= t1 < N_TAGS and 0 <= n <= 2
    post: __return__
    """
    declared: list[JSON] = list[JSON]((TAGS[t0], TAGS[t1]))[:n]
    meta: dict[str, JSON] = {"io.turbomcp/tags": declared, "io.turbomcp/scopes": declared}
    identity = Identity("alice" if subject else None, {"scope": "other"})
    from mcp_touchstone.visibility import RequestContext, VisibleComponent

    ctx = RequestContext(identity=identity)
    return Visibility().is_visible(VisibleComponent(kind, "x", meta, ctx))


SCOPES = ("read", "write", "Read")
N_SCOPES = len(SCOPES)


def all_of_scopes(g0: int, g1: int, ng: int, r0: int, r1: int, nr: int) -> bool:
    """PROOF-VIS-ALL-OF: ``has_scopes`` holds iff every required scope is granted, compared
    exactly (case-sensitive), whatever the order and duplicates.

    pre: 0 <= g0 < N_SCOPES and 0 <= g1 < N_SCOPES and 0 <= ng <= 2
    pre: 0 <= r0 < N_SCOPES and 0 <= r1 < N_SCOPES and 0 <= nr <= 2
    post: __return__
    """
    granted = [SCOPES[g0], SCOPES[g1]][:ng]
    required = [SCOPES[r0], SCOPES[r1]][:nr]
    identity = Identity("alice", {"scope": " ".join(granted)})
    return has_scopes(identity, required) == all(r in granted for r in required)


CALLS = (
    ("tools/call", ComponentKind.TOOL, "name"),
    ("prompts/get", ComponentKind.PROMPT, "name"),
    ("resources/read", ComponentKind.RESOURCE, "uri"),
)
HIDDEN: dict[str, JSON] = {"io.turbomcp/tags": ["secret"]}


def _one_kind(kind: ComponentKind, pages: tuple[Page, ...]) -> Catalog:
    listing = Listing(pages)
    return Catalog(
        tools=listing if kind is ComponentKind.TOOL else Listing(),
        resources=listing if kind is ComponentKind.RESOURCE else Listing(),
        resource_templates=Listing(),
        prompts=listing if kind is ComponentKind.PROMPT else Listing(),
    )


def hidden_same_bytes_as_missing(
    which: int, version: ProtocolVersion, name: str, on_second_page: bool, string_id: bool
) -> bool:
    """PROOF-VIS-WIRE: in the strict profile a call to a hidden component answers, byte for
    byte on the wire, what the same call answers when the component does not exist, for any
    name, call method, revision, request id type and page the component is listed on.

    pre: 0 <= which <= 2
    pre: len(name) <= 1 and _text(name)
    post: __return__
    """
    method, kind, field = CALLS[which]
    request_id: int | str = "r" if string_id else 7
    request = Request(request_id, method, {field: name})
    visible = Entry("y", {}, {"name": "y"})
    hidden = Entry(name, HIDDEN, {"name": name})
    pages: tuple[Page, ...]
    missing: tuple[Page, ...]
    if on_second_page:
        pages = (Page((visible,), None, "p2"), Page((hidden,), "p2"))
        missing = (Page((visible,), None, "p2"), Page((), "p2"))
    else:
        pages, missing = (Page((hidden, visible)),), (Page((visible,)),)
    policy = Visibility(frozenset({"secret"}))
    strict = Profile.STRICT
    got = dispatch(_one_kind(kind, pages), request, version, policy, profile=strict)
    want = dispatch(_one_kind(kind, missing), request, version, policy, profile=strict)
    if name == "y":
        return True
    return to_string(_wire(got)) == to_string(_wire(want))


def _wire(outcome: object) -> JSON:
    response = getattr(outcome, "response", None)
    return response if response is not None else repr(outcome)


# ----------------------------------------------------------------------------- mrtr

RING = Keyring.single(b"k1")
NOW = 1000
PARAMS: tuple[JSON, ...] = (None, {"name": "t"}, {"name": "u"}, {"name": "t", "_meta": {}})
N_PARAMS = len(PARAMS)
NONCE = bytes(12)


def _opens(token: str, ring: Keyring, check: CheckContext) -> StatePayload | None:
    try:
        return verify(token, ring, check)
    except StateError:
        return None


def state_for_one_request_only(minted: int, presented: int, other_method: bool) -> bool:
    """PROOF-MRTR-OTHER-REQUEST: a state minted for request A never opens for a request B with
    other salient params or another method; it opens for A (``_meta`` aside).

    pre: 0 <= minted < N_PARAMS and 0 <= presented < N_PARAMS
    post: __return__
    """
    token = seal(StatePayload({}, NOW, request_binding("tools/call", PARAMS[minted])), RING, NONCE)
    method = "prompts/get" if other_method else "tools/call"
    opened = _opens(token, RING, CheckContext(method, PARAMS[presented], NOW)) is not None
    same = {minted, presented} <= {1, 3} or minted == presented
    return opened == (same and not other_method)


SECRETS = (b"k1", b"k2", b"", b"k1 ")
N_SECRETS = len(SECRETS)


def wrong_key_never_opens(sealed_with: int, opened_with: int, kid: bool) -> bool:
    """PROOF-MRTR-WRONG-KEY: a state opens only under the secret it was sealed with, whatever
    key id the opening ring files that other secret under.

    pre: 0 <= sealed_with < N_SECRETS and 0 <= opened_with < N_SECRETS
    post: __return__
    """
    req = request_binding("tools/call", None)
    token = seal(StatePayload({}, NOW, req), Keyring.single(SECRETS[sealed_with]), NONCE)
    ring = Keyring("0" if kid else "1", {"0": SECRETS[opened_with], "1": b"unused"})
    opened = _opens(token, ring, CheckContext("tools/call", None, NOW)) is not None
    return opened == (sealed_with == opened_with)


DOMAIN: dict[str, dict[str, tuple[object, ...]]] = {
    "state_for_one_request_only": {
        "minted": tuple(range(N_PARAMS)),
        "presented": tuple(range(N_PARAMS)),
        "other_method": (False, True),
    },
    "wrong_key_never_opens": {
        "sealed_with": tuple(range(N_SECRETS)),
        "opened_with": tuple(range(N_SECRETS)),
        "kid": (False, True),
    },
}
"""The finite set each enumerated wrapper is checked over (every combination)."""
