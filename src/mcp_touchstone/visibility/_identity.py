"""Who is asking: the identity lifted from request ``_meta`` and its granted scopes (VIS-ID-*)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from mcp_touchstone._rust import split_whitespace
from mcp_touchstone.serde_json import JSON, frozen_object

IDENTITY_KEY = "io.turbomcp.internal/identity"
"""The request ``_meta`` key a transport writes the authenticated principal under."""


class IdentityClaims(Protocol):
    """What the scope rules read from a caller: its subject and its claims by key.

    :class:`Identity` is one; any other object with these two members is treated like
    turbomcp's ``Identity::Custom``, whose scopes come from delegating ``claim("scope")`` and
    ``claim("scp")`` to it (VIS-ID-2).
    """

    @property
    def subject(self) -> str | None:
        """The subject, or ``None`` for an anonymous caller."""
        ...

    def claim(self, key: str, /) -> JSON | None:
        """The claim ``key``, or ``None`` when the caller has none."""
        ...


@dataclass(frozen=True, slots=True)
class Identity:
    """A caller: anonymous (``subject is None``) or a bearer with a subject and claims.

    Build one with :data:`ANONYMOUS` or :meth:`Identity.bearer`.  An anonymous identity
    answers no claims, whatever ``claims`` holds.
    """

    subject: str | None
    claims: Mapping[str, JSON] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "claims", frozen_object(self.claims))

    @staticmethod
    def bearer(subject: str, claims: Mapping[str, JSON] | None = None) -> Identity:
        """A bearer identity with ``subject`` and ``claims`` (empty when omitted)."""
        return Identity(subject, dict(claims) if claims is not None else {})

    @property
    def is_authenticated(self) -> bool:
        """Whether this is a bearer identity (even one holding no claims at all)."""
        return self.subject is not None

    def claim(self, key: str) -> JSON | None:
        """The claim ``key``, or ``None`` when absent or when the caller is anonymous.

        A claim whose JSON value is ``null`` also answers ``None``; no rule here tells the
        two apart.
        """
        if self.subject is None:
            return None
        return self.claims.get(key)


ANONYMOUS = Identity(None, {})
"""The identity of a request that carries no (well-formed) principal."""


def identity_from_meta(meta: JSON) -> Identity:
    """Lift the caller from a request's ``params._meta`` value (VIS-ID-1).

    ``meta[IDENTITY_KEY]`` must be an object with a string ``sub``; otherwise the caller is
    anonymous.  ``claims`` is taken when it is an object and is empty otherwise (still a
    bearer).  ``sub`` may be the empty string.
    """
    if not isinstance(meta, dict):
        return ANONYMOUS
    principal = meta.get(IDENTITY_KEY)
    if not isinstance(principal, dict):
        return ANONYMOUS
    sub = principal.get("sub")
    if not isinstance(sub, str):
        return ANONYMOUS
    claims = principal.get("claims")
    return Identity.bearer(sub, claims if isinstance(claims, dict) else {})


def granted_scopes(identity: IdentityClaims) -> tuple[str, ...]:
    """The scopes ``identity`` holds (VIS-ID-2): the ``scope`` claim, when a string, split on
    White_Space, followed by the string entries of the ``scp`` claim, when an array, verbatim.
    Duplicates are kept; anonymous holds none."""
    out: list[str] = []
    scope = identity.claim("scope")
    if isinstance(scope, str):
        out.extend(split_whitespace(scope))
    scp = identity.claim("scp")
    if isinstance(scp, list):
        out.extend(item for item in scp if isinstance(item, str))
    return tuple(out)


def has_scopes(identity: IdentityClaims, required: Iterable[str]) -> bool:
    """Whether ``identity`` holds every scope in ``required`` (VIS-ID-4).

    Exact, case-sensitive string equality; an empty requirement is met by everyone,
    anonymous included.
    """
    needed = tuple(required)
    if not needed:
        return True
    granted = frozenset(granted_scopes(identity))
    return all(scope in granted for scope in needed)
