"""Where cumulative approval is refused before matching (rules ``SCOPE-CUMUL-*``).

Seed 003, "Cumulative approval before matching": ``RequireCumulativeApprovalAbove`` is on the
portable refusal list and every evaluate entry point refuses it before matching, scope-wide.  The
plain path's verifier runs with the feature off and rejects the token
(``cumulative_approval_budget was not negotiated``); the full-floor path lets a peer negotiate
the feature and then denies with ``UnsupportedCapabilityFeature`` before scope matching.  Only a
direct ``resolve_matching_grants`` call reaches the matcher's own ``ConstraintError``.
:func:`evaluate_entry` models those entry points as a pure function of (scope, path, negotiated
features, request), with the token otherwise verified and its subject bound.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass
from enum import Enum

from mcp_touchstone.scope._matcher import (
    ConstraintError,
    MatchedGrant,
    resolve_matching_grants,
)
from mcp_touchstone.scope._types import ChioScope, RequireCumulativeApprovalAbove
from mcp_touchstone.serde_json import JSON

__all__ = [
    "CUMULATIVE_APPROVAL_BUDGET",
    "CUMULATIVE_NOT_NEGOTIATED",
    "CUMULATIVE_UNAVAILABLE",
    "EntryAllowed",
    "EntryDenied",
    "EntryMatches",
    "EntryOutcome",
    "EntryPath",
    "EntryRefused",
    "RefusalKind",
    "evaluate_entry",
    "has_cumulative_approval",
]

CUMULATIVE_APPROVAL_BUDGET = "cumulative_approval_budget"
"""The negotiated-feature name of cumulative approval (``capability/features.rs``)."""

CUMULATIVE_NOT_NEGOTIATED = "cumulative_approval_budget was not negotiated"
"""The verifier's ``AttenuationViolation`` reason when the feature is off (SCOPE-CUMUL-2)."""

CUMULATIVE_UNAVAILABLE = "cumulative approval enforcement is unavailable"
"""The reason of the full-floor path's refusal when the feature is negotiated (SCOPE-CUMUL-3)."""


class EntryPath(Enum):
    """The evaluate entry points modelled, by wire name."""

    PLAIN = "plain"
    FULL_FLOOR = "full_floor"
    DIRECT = "direct"


class RefusalKind(Enum):
    """How an entry point refuses a cumulative-approval token before matching."""

    ATTENUATION_VIOLATION = "attenuation_violation"
    UNSUPPORTED_CAPABILITY_FEATURE = "unsupported_capability_feature"


@dataclass(frozen=True, slots=True)
class EntryRefused:
    """Refused before matching: the verifier's rejection or ``UnsupportedCapabilityFeature``."""

    kind: RefusalKind
    reason: str


@dataclass(frozen=True, slots=True)
class EntryAllowed:
    """Evaluate took the most specific match, ``matches.first()``."""

    matched: MatchedGrant


@dataclass(frozen=True, slots=True)
class EntryDenied:
    """Evaluate denied at matching, with its deny reason."""

    reason: str


@dataclass(frozen=True, slots=True)
class EntryMatches:
    """A direct matcher call's answer: the ranked list, or the matcher's constraint error."""

    result: tuple[MatchedGrant, ...] | ConstraintError


EntryOutcome = EntryRefused | EntryAllowed | EntryDenied | EntryMatches
"""The outcomes of :func:`evaluate_entry`."""


def has_cumulative_approval(scope: ChioScope) -> bool:
    """``ChioScope::has_cumulative_approval``: any tool grant anywhere in the scope carries a
    ``require_cumulative_approval_above`` constraint, target or not (SCOPE-CUMUL-1)."""
    return any(
        isinstance(constraint, RequireCumulativeApprovalAbove)
        for grant in scope.grants
        for constraint in grant.constraints
    )


def evaluate_entry(
    scope: ChioScope,
    path: EntryPath,
    negotiated: Set[str],
    *,
    tool_name: str,
    server_id: str,
    arguments: JSON,
) -> EntryOutcome:
    """One evaluate entry point on a token whose scope is ``scope`` (SCOPE-CUMUL-1..5).

    * ``PLAIN``: the verifier runs with cumulative approval off whatever the peer negotiated, so
      a cumulative scope is refused with ``cumulative_approval_budget was not negotiated``.
    * ``FULL_FLOOR``: without the negotiated feature the same verifier refusal; with it,
      ``UnsupportedCapabilityFeature`` (reason ``cumulative approval enforcement is
      unavailable``) before subject binding and matching.
    * ``DIRECT``: no refusal; the matcher's own answer (a target grant reaching the variant is a
      :class:`ConstraintError`).

    A scope that is not refused is matched: evaluate takes the first ranked match, or denies with
    ``constraint evaluation failed: {reason}`` / ``requested tool {tool} on server {server} is
    not in capability scope``.  Raises ``InvalidArgumentsError`` for non-JSON arguments.
    """
    if path is EntryPath.DIRECT:
        return EntryMatches(resolve_matching_grants(scope, tool_name, server_id, arguments))
    if has_cumulative_approval(scope):
        if path is EntryPath.PLAIN or CUMULATIVE_APPROVAL_BUDGET not in negotiated:
            return EntryRefused(RefusalKind.ATTENUATION_VIOLATION, CUMULATIVE_NOT_NEGOTIATED)
        return EntryRefused(RefusalKind.UNSUPPORTED_CAPABILITY_FEATURE, CUMULATIVE_UNAVAILABLE)
    result = resolve_matching_grants(scope, tool_name, server_id, arguments)
    if isinstance(result, ConstraintError):
        return EntryDenied("constraint evaluation failed: " + result.message)
    if not result:
        return EntryDenied(
            f"requested tool {tool_name} on server {server_id} is not in capability scope"
        )
    return EntryAllowed(result[0])
