"""Chio's portable scope matcher (rules ``SCOPE-RES-*``, ``SCOPE-RANK-*``, ``SCOPE-CON-*``).

Mirrors bb-connor/arc ``crates/chio-kernel-core/src/scope.rs``: :func:`resolve_matching_grants`
walks the grants through :func:`grant_covers`, which runs the target test and then
:func:`constraints_match`, which asks :func:`constraint_matches` of each constraint in order.

Outcomes are returned, never raised: a ranked tuple of :class:`MatchedGrant`, or one of the
two :data:`ScopeMatchError` values.  Raising is reserved for misuse of the API (arguments that
are not a JSON value), which is :class:`InvalidArgumentsError`.
"""

from __future__ import annotations

from dataclasses import dataclass

from mcp_touchstone import serde_json
from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone.scope._arguments import ArgumentFacts
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

__all__ = [
    "ConstraintError",
    "InvalidArgumentsError",
    "MatchedGrant",
    "OutOfScope",
    "ScopeMatchError",
    "check_arguments",
    "constraint_matches",
    "constraint_name",
    "constraints_match",
    "grant_covers",
    "grant_targets",
    "rank",
    "resolve_capability_grants",
    "resolve_matching_grants",
    "specificity",
]

REFUSAL_PREFIX = "portable kernel cannot safely evaluate "


@dataclass(frozen=True, slots=True)
class MatchedGrant:
    """A grant that covers the call: its position in ``scope.grants``, the grant, its rank.

    ``specificity`` is ``(server_id == request, tool_name == request, len(constraints))``
    with the booleans as 0/1 (SCOPE-RANK-1).
    """

    index: int
    grant: ToolGrant
    specificity: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class OutOfScope:
    """No grant covers the call; only :func:`resolve_capability_grants` returns it."""


@dataclass(frozen=True, slots=True)
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


def constraint_matches(constraint: Constraint, facts: ArgumentFacts) -> bool | ConstraintError:
    """Evaluate one constraint against the call's arguments (upstream ``constraint_matches``).

    The 8 portable variants give a verdict; the 16 others give the refusal
    ``ConstraintError("portable kernel cannot safely evaluate <tag>")`` whatever the
    arguments (SCOPE-CON-1, SCOPE-CON-2).
    """
    match constraint:
        case PathPrefix(prefix):
            return facts.path_prefix(prefix)
        case DomainExact(expected):
            return facts.domain_exact(expected)
        case DomainGlob(pattern):
            return facts.domain_glob(pattern)
        case MaxLength(limit):
            return facts.max_length(limit)
        case MaxArgsSize(limit):
            return facts.max_args_size(limit)
        case Custom(key, expected):
            return facts.custom(key, expected)
        case AudienceAllowlist(allowed):
            return facts.audience_allowlist(allowed)
        case MemoryStoreAllowlist(allowed):
            return facts.memory_store_allowlist(allowed)
        case _:
            return ConstraintError(REFUSAL_PREFIX + constraint_name(constraint))


def constraints_match(
    constraints: tuple[Constraint, ...], facts: ArgumentFacts
) -> bool | ConstraintError:
    """Every constraint holds, checked in order: the first false one ends the walk with false,
    the first refusal with its error (SCOPE-RES-2, SCOPE-RES-3)."""
    for constraint in constraints:
        matched = constraint_matches(constraint, facts)
        if isinstance(matched, ConstraintError):
            return matched
        if not matched:
            return False
    return True


def grant_targets(grant: ToolGrant, tool_name: str, server_id: str) -> bool:
    """The target test: ``"*"`` or exact server and tool, and ``invoke`` among the
    operations (SCOPE-RES-1)."""
    return (
        grant.server_id in ("*", server_id)
        and grant.tool_name in ("*", tool_name)
        and Operation.INVOKE in grant.operations
    )


def grant_covers(
    grant: ToolGrant, tool_name: str, server_id: str, facts: ArgumentFacts
) -> bool | ConstraintError:
    """A grant covers the call when it targets it and its constraints all hold; a grant that
    does not target the call never has its constraints read (SCOPE-RES-1, SCOPE-RES-4)."""
    if not grant_targets(grant, tool_name, server_id):
        return False
    return constraints_match(grant.constraints, facts)


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
    return tuple(sorted(matches, key=_rank_key))


def check_arguments(arguments: JSON) -> None:
    """Raise :class:`InvalidArgumentsError` unless serde_json could hold ``arguments``."""
    try:
        serde_json.validate(arguments, where="arguments")
    except serde_json.JsonError as exc:
        raise InvalidArgumentsError(str(exc)) from None


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
    facts = ArgumentFacts(arguments)
    matches: list[MatchedGrant] = []
    for index, grant in enumerate(scope.grants):
        covered = grant_covers(grant, tool_name, server_id, facts)
        if isinstance(covered, ConstraintError):
            return covered
        if not covered:
            continue
        matches.append(MatchedGrant(index, grant, specificity(grant, tool_name, server_id)))
    return rank(matches)


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
