"""Visibility policies: the component a policy judges and the built-in ``Visibility``.

Rules VIS-POL-* of ``spec/visibility.md``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from mcp_touchstone.serde_json import JSON, frozen_object
from mcp_touchstone.visibility._identity import ANONYMOUS, IdentityClaims, granted_scopes
from mcp_touchstone.visibility._meta import declared_scopes_of, tags_of


class ComponentKind(enum.Enum):
    """Which kind of listable component is being judged."""

    TOOL = "tool"
    RESOURCE = "resource"
    RESOURCE_TEMPLATE = "resource_template"
    PROMPT = "prompt"


class ProtocolVersion(enum.Enum):
    """The MCP protocol revisions the dispatcher model speaks."""

    V2025_06_18 = "2025-06-18"
    V2025_11_25 = "2025-11-25"
    V2026_07_28 = "2026-07-28"

    @property
    def is_draft(self) -> bool:
        """Whether this is the 2026-07-28 revision (MRTR, renumbered resource-not-found)."""
        return self is ProtocolVersion.V2026_07_28


@dataclass(frozen=True, slots=True)
class RequestContext:
    """The request being served, as a policy sees it: revision, caller and propagated ``_meta``.

    Like turbomcp's context it has no session id: a policy keys on the identity or on
    client-supplied ``propagated_meta``.
    """

    protocol_version: ProtocolVersion = ProtocolVersion.V2025_11_25
    identity: IdentityClaims = ANONYMOUS
    propagated_meta: Mapping[str, JSON] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "propagated_meta", frozen_object(self.propagated_meta))


@dataclass(frozen=True, slots=True)
class VisibleComponent:
    """One component as a policy sees it (VIS-POL-6).

    ``id`` is a tool or prompt name, a resource URI, or a template's *URI template string*
    (never the concrete URI being read); ``meta`` is the component's own ``_meta``.
    """

    kind: ComponentKind
    id: str
    meta: Mapping[str, JSON]
    request: RequestContext

    def tags(self) -> tuple[str, ...]:
        """The component's tags (VIS-META-2)."""
        return tags_of(self.meta)

    def declared_scopes(self) -> tuple[str, ...]:
        """The scopes the component declares it requires; empty when it declares none."""
        return declared_scopes_of(self.meta)


class VisibilityPolicy(Protocol):
    """Anything callable as ``policy(component) -> bool`` is a policy (VIS-POL-5).

    ``False`` hides the component from its list and makes it unreachable.
    """

    def __call__(self, component: VisibleComponent, /) -> bool:
        """Whether ``component`` is visible to the request it carries."""
        ...


@dataclass(frozen=True, slots=True)
class Visibility:
    """The built-in policy: hide by tag and/or hide what the caller lacks the scopes for.

    ``Visibility()`` hides nothing (VIS-POL-1).  Both checks may be on; a component must
    pass both (VIS-POL-4).
    """

    hidden_tags: frozenset[str] = frozenset()
    declared_scopes: bool = False

    def hiding_tagged(self, tags: Iterable[str]) -> Visibility:
        """A copy that also hides components carrying any of ``tags`` (accumulates; VIS-POL-2)."""
        return Visibility(self.hidden_tags | frozenset(tags), self.declared_scopes)

    def requiring_declared_scopes(self) -> Visibility:
        """A copy that also hides components whose declared scopes the caller lacks (VIS-POL-3)."""
        return Visibility(self.hidden_tags, True)

    def is_visible(self, component: VisibleComponent) -> bool:
        """The verdict, checks in upstream order: hidden tag first, then declared scopes."""
        return self.admits(component.meta, component.request)

    def admits(self, meta: Mapping[str, JSON], request: RequestContext) -> bool:
        """The verdict for a component with ``meta`` asked about by ``request``: the built-in
        policy reads nothing else, so this is :meth:`is_visible` without building the
        component."""
        return self.for_request(request).admits(meta)

    def for_request(self, request: RequestContext) -> Admission:
        """This policy applied to one request: the caller's granted scopes are read at most
        once (VIS-ID-2), for every component the request judges (a list, a call)."""
        return Admission(self, request.identity)

    def __call__(self, component: VisibleComponent, /) -> bool:
        """Same as :meth:`is_visible`, so a ``Visibility`` is a :class:`VisibilityPolicy`."""
        return self.is_visible(component)


class Admission:
    """The built-in policy applied to one request (:meth:`Visibility.for_request`).  Judges each
    component of the request by its ``_meta`` alone; the caller's granted scopes are read when
    the first component that declares scopes is judged, and kept for the rest."""

    __slots__ = ("_granted", "declared_scopes", "hidden_tags", "identity")

    def __init__(self, policy: Visibility, identity: IdentityClaims) -> None:
        self.hidden_tags = policy.hidden_tags
        self.declared_scopes = policy.declared_scopes
        self.identity = identity
        self._granted: frozenset[str] | None = None

    def granted(self) -> frozenset[str]:
        """The scopes the caller holds (VIS-ID-2), read on first use."""
        if self._granted is None:
            self._granted = frozenset(granted_scopes(self.identity))
        return self._granted

    def admits(self, meta: Mapping[str, JSON], native_tags: Iterable[object] = ()) -> bool:
        """Whether the component with ``meta`` is visible, checks in upstream order (VIS-POL-4):
        a hidden tag among its tags hides it; then every scope it declares must be granted
        (VIS-ID-4).  ``native_tags`` are tags a host keeps outside ``_meta`` (FastMCP's),
        judged as if appended to ``io.turbomcp/tags``."""
        hidden = self.hidden_tags
        if hidden:
            if not hidden.isdisjoint(tags_of(meta)):
                return False
            if native_tags and not hidden.isdisjoint(
                [t for t in native_tags if isinstance(t, str)]
            ):
                return False
        if self.declared_scopes:
            required = declared_scopes_of(meta)
            if required and not self.granted().issuperset(required):
                return False
        return True
