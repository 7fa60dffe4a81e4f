"""Chio's portable scope matcher (rules ``SCOPE-RES-*``, ``SCOPE-RANK-*``, ``SCOPE-CON-*``).

Outcomes are returned, never raised: a ranked tuple of :class:`MatchedGrant`, or one of the
two :data:`ScopeMatchError` values.  Raising is reserved for misuse of the API (arguments that
are not a JSON value), which is :class:`InvalidArgumentsError`.
"""

from __future__ import annotations

from collections.abc import Callable

from mcp_touchstone import serde_json
from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone.scope._arguments import ArgumentFacts
from mcp_touchstone.scope._record import draft, record
from mcp_touchstone.scope._types import (
    AudienceAllowlist,
    ChioScope,
    Constraint,
    Custom,
    DomainExact,
    DomainGlob,
    MaxArgsSize,
    MaxLength,
    MemoryStoreAllowlist,
    Operation,
    PathPrefix,
    ToolGrant,
)
from mcp_touchstone.serde_json import JSON

TYPE_CHECKING = False  # typing's constant, without importing typing at run time (start-up)
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "ConstraintError",
    "InvalidArgumentsError",
    "MatchedGrant",
    "OutOfScope",
    "ScopeMatchError",
    "check_arguments",
    "constraint_matches",
    "constraint_name",
    "grant_targets",
    "rank",
    "resolve_capability_grants",
    "resolve_matching_grants",
    "resolve_parsed",
    "specificity",
]

REFUSAL_PREFIX = "portable kernel cannot safely evaluate "


@record
class MatchedGrant:
    """A grant that covers the call: its position in ``scope.grants``, the grant, its rank.

    ``specificity`` is ``(server_id == request, tool_name == request, len(constraints))``
    with the booleans as 0/1 (SCOPE-RANK-1).
    """

    index: int
    grant: ToolGrant
    specificity: tuple[int, int, int]


_MatchDraft = draft(MatchedGrant)
"""A mutable stand-in with the slots of :class:`MatchedGrant`: the resolution makes each match
as a draft with its three fields stored, then given its class (:func:`._record.draft`), which
is what ``MatchedGrant(index, grant, specificity)`` makes, without the call."""


@record
class OutOfScope:
    """No grant covers the call; only :func:`resolve_capability_grants` returns it."""


@record
class ConstraintError:
    """A target grant carries a constraint the portable kernel refuses to evaluate."""

    message: str


ScopeMatchError = OutOfScope | ConstraintError
"""The two error outcomes of the matcher (SCOPE-RES-5)."""


class InvalidArgumentsError(TouchstoneError, ValueError):
    """``arguments`` is not a JSON value serde_json could hold (API misuse, not an outcome)."""


def constraint_name(constraint: Constraint) -> str:
    """The snake_case serde tag of ``constraint``'s variant (SCOPE-CON-2)."""
    return type(constraint).KIND.value


_DECIDERS: dict[type, Callable[[Any, ArgumentFacts], bool]] = {
    PathPrefix: lambda c, facts: facts.path_prefix(c.prefix),
    DomainExact: lambda c, facts: facts.domain_exact(c.domain),
    DomainGlob: lambda c, facts: facts.domain_glob(c.pattern),
    MaxLength: lambda c, facts: facts.max_length(c.limit),
    MaxArgsSize: lambda c, facts: facts.max_args_size(c.limit),
    Custom: lambda c, facts: facts.custom(c.key, c.expected),
    AudienceAllowlist: lambda c, facts: facts.audience_allowlist(c.allowed),
    MemoryStoreAllowlist: lambda c, facts: facts.memory_store_allowlist(c.allowed),
}
"""How each of the 8 decided variants reads the facts; every other variant is refused."""


def constraint_matches(constraint: Constraint, facts: ArgumentFacts) -> bool | ConstraintError:
    """Evaluate one constraint against the call's argument facts.

    The 8 portable variants give a verdict; the 16 others give the refusal
    ``ConstraintError("portable kernel cannot safely evaluate <tag>")`` whatever the
    arguments (SCOPE-CON-1, SCOPE-CON-2).
    """
    decide = _DECIDERS.get(type(constraint))
    if decide is None:
        return ConstraintError(REFUSAL_PREFIX + constraint_name(constraint))
    return decide(constraint, facts)


def grant_targets(grant: ToolGrant, tool_name: str, server_id: str) -> bool:
    """The target test: ``"*"`` or exact server and tool, and ``invoke`` among the
    operations (SCOPE-RES-1)."""
    return (
        grant.server_id in ("*", server_id)
        and grant.tool_name in ("*", tool_name)
        and Operation.INVOKE in grant.operations
    )


def specificity(grant: ToolGrant, tool_name: str, server_id: str) -> tuple[int, int, int]:
    """The rank of a covering grant: ``(server_id == request, tool_name == request,
    len(constraints))`` with the booleans as 0/1 (SCOPE-RANK-1).  Shared with the hosted
    matcher, which counts constraints it does not check at this stage (SCOPE-HOSTED-RANK-1)."""
    return (
        int(grant.server_id == server_id),
        int(grant.tool_name == tool_name),
        len(grant.constraints),
    )


def _rank_key(match: MatchedGrant) -> tuple[int, int, int, int]:
    server_exact, tool_exact, constraint_count = match.specificity
    return (-server_exact, -tool_exact, -constraint_count, match.index)


def rank(matches: list[MatchedGrant]) -> tuple[MatchedGrant, ...]:
    """Sort by specificity, descending, then by ascending index (SCOPE-RANK-2)."""
    if len(matches) > 1:  # Fewer than two are in order already.
        matches.sort(key=_rank_key)
    return tuple(matches)


def check_arguments(arguments: JSON) -> None:
    """Raise :class:`InvalidArgumentsError` unless serde_json could hold ``arguments``."""
    try:
        serde_json.validate(arguments, where="arguments")
    except serde_json.JsonError as exc:
        raise InvalidArgumentsError(str(exc)) from None


def resolve_parsed(
    scope: ChioScope, tool_name: str, server_id: str, arguments: JSON
) -> tuple[MatchedGrant, ...] | ConstraintError:
    """:func:`resolve_matching_grants` for ``arguments`` that ``serde_json.from_str`` produced:
    such a value always passes :func:`check_arguments`, so the check is left out (the harness
    server's parsed-input operations, ``harness/_parsed.py``); the resolution itself, which
    :func:`resolve_matching_grants` runs after the check."""
    facts: ArgumentFacts | None = None  # made at the first constraint to decide
    deciders = _DECIDERS
    matches: list[MatchedGrant] = []
    for index, grant in enumerate(scope.grants):
        if not grant_targets(grant, tool_name, server_id):
            continue
        covered = True
        for constraint in grant.constraints:
            if facts is None:
                facts = ArgumentFacts(arguments)
            decide = deciders.get(type(constraint))
            if decide is None:
                return ConstraintError(REFUSAL_PREFIX + constraint_name(constraint))
            if not decide(constraint, facts):
                covered = False
                break
        if covered:
            match = _MatchDraft()  # MatchedGrant(index, grant, ...) without the call
            match.index = index
            match.grant = grant
            match.specificity = specificity(grant, tool_name, server_id)
            match.__class__ = MatchedGrant
            matches.append(match)
    return rank(matches) if len(matches) > 1 else tuple(matches)  # fewer than two: in order


def resolve_matching_grants(
    scope: ChioScope, tool_name: str, server_id: str, arguments: JSON
) -> tuple[MatchedGrant, ...] | ConstraintError:
    """The grants of ``scope`` that cover calling ``tool_name`` on ``server_id``, ranked.

    Walks ``scope.grants`` in order; a grant is a target when its server and tool patterns
    are ``"*"`` or equal to the request and it allows ``invoke``; a target's constraints are
    evaluated in order and the first false one drops it.  The first refused constraint
    reached aborts the whole call with its :class:`ConstraintError`, discarding matches
    already found.  The survivors are sorted by specificity, descending, then index.
    An empty tuple means nothing covers the call (never :class:`OutOfScope` here).

    Raises :class:`InvalidArgumentsError` if ``arguments`` is not a serde_json-representable value.
    """
    check_arguments(arguments)
    return resolve_parsed(scope, tool_name, server_id, arguments)


def resolve_capability_grants(
    scope: ChioScope, tool_name: str, server_id: str, arguments: JSON
) -> tuple[MatchedGrant, ...] | ScopeMatchError:
    """:func:`resolve_matching_grants` on a capability's scope, with an empty result turned
    into :class:`OutOfScope` (a constraint error is passed through unchanged).

    Upstream takes the whole capability token but reads only its ``scope``; this takes the
    scope (SCOPE-RES-6).
    """
    result = resolve_matching_grants(scope, tool_name, server_id, arguments)
    if isinstance(result, ConstraintError):
        return result
    if not result:
        return OutOfScope()
    return result
