"""Chio's hosted matcher profile (rules ``SCOPE-HOSTED-*`` in ``spec/scope.md``).

Mirrors bb-connor/arc ``crates/kernel/chio-kernel/src/request_matching.rs`` @ ``08876737``,
the version whose split is seed 003's: of the 24 variants, 11 are decided at the matcher,
10 return ``Ok(true)`` there (enforced later, by governed validation, data guards, result
shaping or the cumulative budget path), and 3 return ``Ok(false)`` without reading their value.
The loop is the portable one (target test, in-order short-circuit walk, first error aborts,
specificity tuple and sort) and reuses its pieces; only the per-variant verdict differs.

Outcomes are values: a ranked tuple of :class:`MatchedGrant`, or :class:`InvalidConstraint`
(``KernelError::InvalidConstraint``, a pattern the Rust ``regex`` crate does not compile), and,
from :func:`resolve_required_hosted_matching_grants` only, :class:`HostedOutOfScope`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Final

from mcp_touchstone.scope._arguments import ArgumentFacts
from mcp_touchstone.scope._matcher import (
    MatchedGrant,
    check_arguments,
    constraint_matches,
    grant_targets,
    rank,
    specificity,
)
from mcp_touchstone.scope._regex import RegexCompileError, compile_rust_regex
from mcp_touchstone.scope._types import (
    DECIDED_KINDS,
    ChioScope,
    Constraint,
    ConstraintKind,
    MemoryWriteDenyPatterns,
    ModelConstraint,
    ModelSafetyTier,
    RegexMatch,
)
from mcp_touchstone.serde_json import JSON

__all__ = [
    "HOSTED_BEHAVIOUR",
    "HOSTED_DECIDED_KINDS",
    "HOSTED_DROP_KINDS",
    "HOSTED_PASS_KINDS",
    "INVALID_CONSTRAINT_PREFIX",
    "HostedBehaviour",
    "HostedFacts",
    "HostedOutOfScope",
    "InvalidConstraint",
    "ModelMetadata",
    "ProvenanceEvidenceClass",
    "hosted_constraint_matches",
    "model_constraint_matches",
    "resolve_hosted_matching_grants",
    "resolve_required_hosted_matching_grants",
]

INVALID_CONSTRAINT_PREFIX: Final = "invalid capability constraint: "
"""``KernelError::InvalidConstraint``'s display prefix."""


class ProvenanceEvidenceClass(Enum):
    """How Chio learned a model's identity; rides on :class:`ModelMetadata`, never matched."""

    ASSERTED = "asserted"
    OBSERVED = "observed"
    VERIFIED = "verified"


@dataclass(frozen=True, slots=True)
class ModelMetadata:
    """The calling model, carried on a hosted tool-call request (Chio's ``ModelMetadata``).

    Only ``model_constraint`` reads it, and only ``model_id`` and ``safety_tier``
    (SCOPE-HOSTED-MODEL-1); ``provider`` and ``provenance_class`` are carried for audit.
    """

    model_id: str
    safety_tier: ModelSafetyTier | None = None
    provider: str | None = None
    provenance_class: ProvenanceEvidenceClass = ProvenanceEvidenceClass.ASSERTED


@dataclass(frozen=True, slots=True)
class InvalidConstraint:
    """A target grant's constraint could not be evaluated; ``message`` is the kernel error's
    full display, ``invalid capability constraint: <detail>`` (SCOPE-HOSTED-RX-3)."""

    message: str


@dataclass(frozen=True, slots=True)
class HostedOutOfScope:
    """No grant covers the call (``KernelError::OutOfScope``); only the required form gives it."""

    tool: str
    server: str

    @property
    def message(self) -> str:
        """The kernel error's display text."""
        return f"requested tool {self.tool} on server {self.server} is not in capability scope"


class HostedBehaviour(Enum):
    """What the hosted matcher does with a variant (seed 003, "Constraint behavior by runtime")."""

    DECIDED = "decided"
    """Decided here from the arguments or the model metadata."""
    ENFORCED_LATER = "ok_true"
    """``Ok(true)`` here; enforced by a later stage."""
    DROPPED = "ok_false"
    """``Ok(false)`` here without reading the value: the grant drops."""


HOSTED_DECIDED_KINDS: Final[frozenset[ConstraintKind]] = DECIDED_KINDS | {
    ConstraintKind.REGEX_MATCH,
    ConstraintKind.MODEL_CONSTRAINT,
    ConstraintKind.MEMORY_WRITE_DENY_PATTERNS,
}
"""The 11 variants the hosted matcher decides (SCOPE-HOSTED-CON-1)."""

HOSTED_DROP_KINDS: Final[frozenset[ConstraintKind]] = frozenset(
    {
        ConstraintKind.CONTENT_REVIEW_TIER,
        ConstraintKind.MAX_TRANSACTION_AMOUNT_USD,
        ConstraintKind.REQUIRE_DUAL_APPROVAL,
    }
)
"""The 3 variants that are ``Ok(false)`` whatever their value (SCOPE-HOSTED-CON-3)."""

HOSTED_PASS_KINDS: Final[frozenset[ConstraintKind]] = (
    frozenset(ConstraintKind) - HOSTED_DECIDED_KINDS - HOSTED_DROP_KINDS
)
"""The 10 variants that are ``Ok(true)`` here and enforced later (SCOPE-HOSTED-CON-2)."""

HOSTED_BEHAVIOUR: Final[Mapping[ConstraintKind, HostedBehaviour]] = MappingProxyType(
    {
        kind: (
            HostedBehaviour.DECIDED
            if kind in HOSTED_DECIDED_KINDS
            else HostedBehaviour.DROPPED
            if kind in HOSTED_DROP_KINDS
            else HostedBehaviour.ENFORCED_LATER
        )
        for kind in ConstraintKind
    }
)
"""Every one of the 24 variants, with its hosted behaviour (SCOPE-HOSTED-CON-4)."""

_TIER_RANK: Final = {tier: rank for rank, tier in enumerate(ModelSafetyTier)}
"""``low < standard < high < restricted``: the declaration order, as Chio's derived ``Ord``."""


def model_constraint_matches(constraint: ModelConstraint, metadata: ModelMetadata | None) -> bool:
    """``model_constraint`` over the request's model metadata, in Chio's order
    (SCOPE-HOSTED-MODEL-1):

    1. no allowlist and no tier floor: true, with or without metadata;
    2. otherwise no metadata: false;
    3. a non-empty allowlist without the model id (exact, case-sensitive): false;
    4. a tier floor with the request's tier absent or below it: false;
    5. otherwise true.
    """
    allowed, floor = constraint.allowed_model_ids, constraint.min_safety_tier
    if not allowed and floor is None:
        return True
    if metadata is None:
        return False
    if allowed and metadata.model_id not in allowed:
        return False
    if floor is not None:
        tier = metadata.safety_tier
        if tier is None or _TIER_RANK[tier] < _TIER_RANK[floor]:
            return False
    return True


class HostedFacts:
    """What the hosted variants read from one request: the portable :class:`ArgumentFacts`,
    the model metadata, and each regex's verdict over the string leaves.

    A pattern's compile result and its "matches some leaf" verdict are kept for the rest of the
    resolution.  Upstream compiles again on every evaluation; compiling is deterministic, so the
    answers and the point at which an error surfaces are the same (SCOPE-HOSTED-RX-2).
    """

    __slots__ = ("_hits", "_values", "facts", "model_metadata")

    def __init__(self, arguments: JSON, model_metadata: ModelMetadata | None = None) -> None:
        self.facts = ArgumentFacts(arguments)
        self.model_metadata = model_metadata
        self._values: tuple[str, ...] | None = None
        self._hits: dict[str, bool | RegexCompileError] = {}

    def _leaf_values(self) -> tuple[str, ...]:
        if self._values is None:
            self._values = tuple(dict.fromkeys(leaf.value for leaf in self.facts.string_leaves))
        return self._values

    def pattern_hits(self, pattern: str) -> bool | RegexCompileError:
        """Compile ``pattern`` (first), then whether it matches anywhere in some string leaf."""
        hit = self._hits.get(pattern)
        if hit is None:
            compiled = compile_rust_regex(pattern)
            if isinstance(compiled, RegexCompileError):
                hit = compiled
            else:
                hit = any(compiled.is_match(value) for value in self._leaf_values())
            self._hits[pattern] = hit
        return hit

    def regex_match(self, pattern: str) -> bool | InvalidConstraint:
        """``regex_match``: compiled before any leaf is read, so a bad pattern is an error
        even without leaves; then true iff some string leaf matches (SCOPE-HOSTED-RX-4)."""
        hit = self.pattern_hits(pattern)
        if isinstance(hit, RegexCompileError):
            return InvalidConstraint(
                f'{INVALID_CONSTRAINT_PREFIX}regex "{pattern}" failed to compile: {hit.detail}'
            )
        return hit

    def memory_write_deny(self, patterns: tuple[str, ...]) -> bool | InvalidConstraint:
        """``memory_write_deny_patterns``: each pattern in list order is compiled, then tried on
        every leaf; the first that matches gives false and later patterns are never compiled;
        a compile failure before that is the error; none matching gives true
        (SCOPE-HOSTED-DENY-1, SCOPE-HOSTED-DENY-2)."""
        for pattern in patterns:
            hit = self.pattern_hits(pattern)
            if isinstance(hit, RegexCompileError):
                return InvalidConstraint(
                    f'{INVALID_CONSTRAINT_PREFIX}memory write deny pattern "{pattern}" '
                    f"failed to compile: {hit.detail}"
                )
            if hit:
                return False
        return True


def hosted_constraint_matches(
    constraint: Constraint, facts: HostedFacts
) -> bool | InvalidConstraint:
    """One constraint under the hosted profile.

    The 8 portable variants give the portable verdict (SCOPE-HOSTED-CON-1); ``regex_match``,
    ``model_constraint`` and ``memory_write_deny_patterns`` are decided here; the 10
    enforced-later variants are ``True`` and the 3 dropped ones ``False`` without their value
    being read (SCOPE-HOSTED-CON-2, SCOPE-HOSTED-CON-3).
    """
    kind = type(constraint).KIND
    if kind in DECIDED_KINDS:
        verdict = constraint_matches(constraint, facts.facts)
        assert isinstance(verdict, bool)  # a portable-decided variant never refuses
        return verdict
    if isinstance(constraint, RegexMatch):
        return facts.regex_match(constraint.pattern)
    if isinstance(constraint, ModelConstraint):
        return model_constraint_matches(constraint, facts.model_metadata)
    if isinstance(constraint, MemoryWriteDenyPatterns):
        return facts.memory_write_deny(constraint.patterns)
    return kind not in HOSTED_DROP_KINDS


def resolve_hosted_matching_grants(
    scope: ChioScope,
    tool_name: str,
    server_id: str,
    arguments: JSON,
    model_metadata: ModelMetadata | None = None,
) -> tuple[MatchedGrant, ...] | InvalidConstraint:
    """The grants of ``scope`` that the hosted kernel lets cover the call, ranked.

    The portable loop (SCOPE-HOSTED-RES-1): target grants only; their constraints in order,
    the first false one dropping the grant; the first :class:`InvalidConstraint` aborting the
    whole call; survivors ranked by the portable specificity tuple, which counts every
    constraint, checked here or not (SCOPE-HOSTED-RANK-1).  Empty means nothing covers it.

    Raises :class:`InvalidArgumentsError` if ``arguments`` is not a serde_json-representable value.
    """
    check_arguments(arguments)
    facts = HostedFacts(arguments, model_metadata)
    matches: list[MatchedGrant] = []
    for index, grant in enumerate(scope.grants):
        if not grant_targets(grant, tool_name, server_id):
            continue
        covered = True
        for constraint in grant.constraints:
            verdict = hosted_constraint_matches(constraint, facts)
            if isinstance(verdict, InvalidConstraint):
                return verdict
            if not verdict:
                covered = False
                break
        if covered:
            matches.append(MatchedGrant(index, grant, specificity(grant, tool_name, server_id)))
    return rank(matches)


def resolve_required_hosted_matching_grants(
    scope: ChioScope,
    tool_name: str,
    server_id: str,
    arguments: JSON,
    model_metadata: ModelMetadata | None = None,
) -> tuple[MatchedGrant, ...] | InvalidConstraint | HostedOutOfScope:
    """:func:`resolve_hosted_matching_grants` with an empty result turned into
    :class:`HostedOutOfScope` (Chio's ``resolve_required_matching_grants``; SCOPE-HOSTED-RES-2)."""
    found = resolve_hosted_matching_grants(scope, tool_name, server_id, arguments, model_metadata)
    if isinstance(found, InvalidConstraint) or found:
        return found
    return HostedOutOfScope(tool=tool_name, server=server_id)
