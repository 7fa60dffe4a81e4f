"""What every adapter shares, SDK-free: the caller, the verdicts, the grant decision, and the
probe that makes a hidden component answer with the host's own not-found (ADAPT-* rules of
``spec/adapters.md``)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from mcp_touchstone import serde_json
from mcp_touchstone.scope import (
    ChioScope,
    ConstraintError,
    InvalidArgumentsError,
    OutOfScope,
    ToolGrant,
    grant_targets,
    resolve_capability_grants,
)
from mcp_touchstone.serde_json import JSON
from mcp_touchstone.visibility import (
    ANONYMOUS,
    Admission,
    ComponentKind,
    Identity,
    IdentityClaims,
    ProtocolVersion,
    RequestContext,
    Visibility,
    VisibilityPolicy,
    VisibleComponent,
)

INSUFFICIENT_SCOPE = -32001
"""The JSON-RPC code of a step-up refusal: a visible tool the caller's grants do not cover
(ADAPT-GRANT-2).  Not an MCP-assigned code: the spec has none for a per-tool step-up."""


class AccessTokenLike(Protocol):
    """The fields of the SDKs' ``AccessToken`` that the default caller mapping reads."""

    @property
    def client_id(self) -> str: ...
    @property
    def scopes(self) -> list[str]: ...
    @property
    def subject(self) -> str | None: ...
    @property
    def claims(self) -> dict[str, Any] | None: ...


def identity_from_token(token: AccessTokenLike | None) -> IdentityClaims:
    """The visibility caller for an SDK access token (ADAPT-ID-1).

    No token is :data:`~mcp_touchstone.visibility.ANONYMOUS`.  A token is a bearer whose subject
    is the token's ``subject`` (else its ``client_id``) and whose ``scope`` claim is the
    token's verified ``scopes`` joined by spaces; the token's other claims are kept, except
    ``scope`` and ``scp``, which only the verified list may speak for.
    """
    if token is None:
        return ANONYMOUS
    claims: dict[str, JSON] = {
        k: v for k, v in (token.claims or {}).items() if k not in ("scope", "scp")
    }
    claims["scope"] = " ".join(token.scopes)
    subject = token.subject if token.subject is not None else token.client_id
    return Identity.bearer(subject, claims)


_REVISIONS: dict[str, ProtocolVersion] = {known.value: known for known in ProtocolVersion}


def revision(protocol_version: str | None) -> ProtocolVersion:
    """The policy model's revision for a negotiated protocol version (ADAPT-ID-2).

    The model speaks 2025-06-18, 2025-11-25 and 2026-07-28; an older handshake revision is
    presented as 2025-06-18, an unknown newer one as 2026-07-28.
    """
    known = _REVISIONS.get(protocol_version) if isinstance(protocol_version, str) else None
    if known is not None:
        return known
    if protocol_version is not None and protocol_version > ProtocolVersion.V2026_07_28.value:
        return ProtocolVersion.V2026_07_28
    return ProtocolVersion.V2025_06_18


_NO_META: Mapping[str, Any] = {}


def shown_to_all(policy: VisibilityPolicy | None, meta: Mapping[str, Any] | None) -> bool:
    """Whether the component is visible whoever asks, decided without building the caller:
    no policy, or the built-in policy and a component with an empty ``_meta`` (no tag, no
    declared scope).  ``False`` means "ask :meth:`Caller.sees`", not "hidden"."""
    return policy is None or (type(policy) is Visibility and not meta)


class Caller:
    """Who is asking, on which revision: the :class:`RequestContext` a policy judges with.

    The built-in policy is applied to the request once (:meth:`Visibility.for_request`, the
    caller's granted scopes read once) and that :class:`Admission` judges every component of
    the request.
    """

    __slots__ = ("_admission", "request")

    def __init__(self, identity: IdentityClaims, protocol_version: ProtocolVersion) -> None:
        self.request = RequestContext(protocol_version, identity)
        self._admission: tuple[Visibility, Admission] | None = None

    @property
    def identity(self) -> IdentityClaims:
        """The caller's identity."""
        return self.request.identity

    def admission(self, policy: Visibility) -> Admission:
        """``policy`` applied to this caller's request (made on first use, then kept)."""
        kept = self._admission
        if kept is None or kept[0] is not policy:
            kept = self._admission = (policy, policy.for_request(self.request))
        return kept[1]

    def admits(
        self, policy: Visibility, meta: Mapping[str, Any], native_tags: Iterable[Any] = ()
    ) -> bool:
        """:meth:`Admission.admits` of ``policy`` for this caller.  ``native_tags`` are tags the
        host keeps outside ``_meta`` (FastMCP's), judged as if appended to ``io.turbomcp/tags``
        (:func:`~mcp_touchstone.adapters.fastmcp.component_meta` builds that merged ``_meta``;
        the verdict is the same without building it)."""
        return self.admission(policy).admits(meta, native_tags)

    def sees(
        self,
        policy: VisibilityPolicy | None,
        kind: ComponentKind,
        ident: str,
        meta: Mapping[str, Any] | None,
    ) -> bool:
        """Whether ``policy`` lets this caller see the component (no policy hides nothing).

        The built-in :class:`Visibility` reads only the ``_meta`` and the request, so it is
        asked through :meth:`admits`, without building the component (the same verdict, as
        its ``admits`` documents); any other policy gets the full :class:`VisibleComponent`.
        """
        if shown_to_all(policy, meta):
            return True
        assert policy is not None
        if type(policy) is Visibility:
            return self.admits(policy, meta or _NO_META)
        return bool(policy(VisibleComponent(kind, ident, meta or _NO_META, self.request)))


@dataclass(frozen=True, slots=True)
class Granted:
    """The caller's scope covers the call."""


@dataclass(frozen=True, slots=True)
class Denied:
    """The caller may see the tool but not call it: a step-up refusal (ADAPT-GRANT-2)."""

    message: str
    reason: str


GrantsSource = Callable[[Any], ChioScope | None]
"""A function from the host's request context to the caller's Chio scope (``None``: none)."""


def decide_grant(
    scope: ChioScope | None, tool: str, server_id: str, arguments: JSON
) -> Granted | Denied:
    """Chio's portable matcher on a ``tools/call`` (ADAPT-GRANT-1): granted when at least one
    grant covers the call; otherwise denied, fail closed -- no scope, no covering grant, a
    constraint the portable kernel refuses, or arguments it cannot read."""
    if scope is None:
        return _denied(tool, "no capability scope")
    try:
        result = resolve_capability_grants(scope, tool, server_id, arguments)
    except InvalidArgumentsError as exc:
        return _denied(tool, str(exc))
    if isinstance(result, OutOfScope):
        return _denied(tool, "out of scope")
    if isinstance(result, ConstraintError):
        return _denied(tool, result.message)
    return _GRANTED


_GRANTED = Granted()

_NO_TARGET = 0
_UNCONSTRAINED = 1
_CONSTRAINED = 2


def _plan(scope: ChioScope, tool: str, server_id: str) -> int:
    """What the matcher's walk of ``scope`` for ``tool`` on ``server_id`` can be, whatever the
    arguments: no grant targets the call (``_NO_TARGET``: out of scope); at least one does and
    none of those carries a constraint (``_UNCONSTRAINED``: covered, no constraint is ever
    reached); else ``_CONSTRAINED`` (the arguments decide: the general path).  A scope whose
    parts are not the immutable tuples the decoder builds is always ``_CONSTRAINED``."""
    grants = scope.grants
    if type(grants) is not tuple:
        return _CONSTRAINED
    plan = _NO_TARGET
    for grant in grants:
        if not (
            type(grant) is ToolGrant
            and type(grant.operations) is tuple
            and type(grant.constraints) is tuple
        ):
            return _CONSTRAINED
        if grant_targets(grant, tool, server_id):
            if grant.constraints:
                return _CONSTRAINED
            plan = _UNCONSTRAINED
    return plan


class GrantPlans:
    """:func:`decide_grant` with the scope's walk done once per caller scope (ADAPT-GRANT-5).

    A caller's :class:`ChioScope` is an immutable value, so which of its grants target a tool
    on a server does not change between calls.  The plan of :func:`_plan` is kept per
    ``(scope, tool, server_id)``, the scope held by identity (the entry keeps the scope, so its
    id is not reused while the entry lives), at most ``limit`` entries (the oldest dropped
    first): out of scope, or covered by an unconstrained grant, is then answered without the
    walk; a call where a targeting grant has constraints takes the general path,
    :func:`decide_grant`.  The arguments are still checked as serde_json values first (as the
    matcher does: unreadable arguments deny before any grant is read), except ``{}``, which
    always is one.  The answers are :func:`decide_grant`'s (a differential test checks it);
    only the adapters hold this state, the scope core holds none.

    Beside the plans, the tools found covered for the most recent scope and server are kept
    (``covered_scope``, ``covered_server``, ``covered_tools``): a call on that scope (the same
    object, held here), that server and one of those tools, with the arguments ``{}``, is
    granted (:meth:`covers`, the first step of :meth:`decide`; ADAPT-GRANT-6, a differential
    test).  A call with another scope or server replaces them; at most ``limit`` tools are kept.
    """

    __slots__ = ("_limit", "_plans", "covered_scope", "covered_server", "covered_tools")

    def __init__(self, *, limit: int = 4096) -> None:
        self._plans: dict[tuple[int, str, str], tuple[ChioScope, int]] = {}
        self._limit = limit
        self.covered_scope: ChioScope | None = None
        self.covered_server: str | None = None
        self.covered_tools: set[str] = set()

    def covers(self, scope: ChioScope | None, tool: str, server_id: str, arguments: Any) -> bool:
        """Whether the kept covered tools already answer the call as granted (``arguments``
        ``None`` stands for ``{}``, as a ``tools/call`` without arguments)."""
        return (
            scope is self.covered_scope
            and tool in self.covered_tools
            and server_id == self.covered_server
            and (arguments is None or (type(arguments) is dict and not arguments))
        )

    def decide(
        self, scope: ChioScope | None, tool: str, server_id: str, arguments: JSON
    ) -> Granted | Denied:
        """:func:`decide_grant`'s answer for the call."""
        if scope is None:
            return decide_grant(scope, tool, server_id, arguments)
        if self.covers(scope, tool, server_id, arguments):
            return _GRANTED
        key = (id(scope), tool, server_id)
        entry = self._plans.get(key)
        if entry is None or entry[0] is not scope:
            entry = self._remember(key, scope, _plan(scope, tool, server_id))
        plan = entry[1]
        if plan == _CONSTRAINED:
            return decide_grant(scope, tool, server_id, arguments)
        if not (type(arguments) is dict and not arguments):
            try:
                serde_json.validate(arguments, where="arguments")  # the matcher's own check
            except serde_json.JsonError:
                return decide_grant(scope, tool, server_id, arguments)  # its denial
        if plan != _UNCONSTRAINED:
            return _denied(tool, "out of scope")
        tools = self.covered_tools
        if scope is not self.covered_scope or server_id != self.covered_server:
            self.covered_scope, self.covered_server, self.covered_tools = scope, server_id, {tool}
        elif tool not in tools:
            if len(tools) >= self._limit:
                tools.clear()  # bounded, as the plans are
            tools.add(tool)
        return _GRANTED

    def _remember(
        self, key: tuple[int, str, str], scope: ChioScope, plan: int
    ) -> tuple[ChioScope, int]:
        plans = self._plans
        if key not in plans and len(plans) >= self._limit:
            del plans[next(iter(plans))]  # the oldest
        entry = (scope, plan)
        plans[key] = entry
        return entry


def _denied(tool: str, reason: str) -> Denied:
    message = f"insufficient_scope: the caller's capability grants do not authorize tool {tool}"
    return Denied(message, reason)


def step_up_data(method: str, name: str) -> dict[str, JSON]:
    """The ``data`` of a step-up refusal: what to re-authorize for, never why it failed."""
    return {"error": "insufficient_scope", "method": method, "name": name}


def new_sentinel() -> str:
    """A name no real component has: the not-found probe asks the host for it (ADAPT-VIS-3)."""
    return f"touchstone-absent-{secrets.token_hex(12)}"


def sentinel_uri(sentinel: str) -> str:
    """A URI no resource or template of a real server answers to."""
    return f"{sentinel}:absent"


def rewrite(value: Any, sentinel: str, real: str) -> Any:
    """``value`` with every occurrence of ``sentinel`` in its strings replaced by ``real``.

    ``repr`` forms are replaced first, so a host that quotes names with ``repr`` answers the
    real name quoted as it would quote it.
    """
    if isinstance(value, str):
        return value.replace(repr(sentinel), repr(real)).replace(sentinel, real)
    if isinstance(value, dict):
        return {rewrite(k, sentinel, real): rewrite(v, sentinel, real) for k, v in value.items()}
    if isinstance(value, list):
        return [rewrite(v, sentinel, real) for v in value]
    if isinstance(value, tuple):
        return tuple(rewrite(v, sentinel, real) for v in value)
    return value
