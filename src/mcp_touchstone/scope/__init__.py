"""Chio capability-grant scope matching, case for case (``spec/scope.md``).

The public API:

* :func:`decode_scope` turns a parsed JSON value into a :class:`ChioScope` exactly as Chio's
  serde types accept it, or raises :class:`ScopeDecodeError` naming the offending place.
* :func:`resolve_matching_grants` ranks the grants that cover a tool call, or returns a
  :class:`ConstraintError`; :func:`resolve_capability_grants` also turns "nothing" into
  :class:`OutOfScope`.
* :func:`constraint_matches` evaluates one constraint against :class:`ArgumentFacts` (the
  reusable piece for a hosted admission loop built on top).
* :func:`resolve_hosted_matching_grants` is the hosted kernel's matcher profile: 11 variants
  decided (``regex_match`` and ``memory_write_deny_patterns`` with the Rust ``regex`` crate,
  ``model_constraint`` over a :class:`ModelMetadata`), 10 passed on to later stages, 3 dropping
  the grant; it answers ranked matches or an :class:`InvalidConstraint`.
  :func:`resolve_required_hosted_matching_grants` also turns "nothing" into
  :class:`HostedOutOfScope`; :func:`hosted_constraint_matches` evaluates one constraint against
  :class:`HostedFacts`.  The regex binding is imported on first use of a pattern.
"""

from mcp_touchstone.scope._arguments import ArgumentFacts
from mcp_touchstone.scope._decode import ScopeDecodeError, decode_constraint, decode_scope
from mcp_touchstone.scope._hosted import (
    HOSTED_BEHAVIOUR,
    HOSTED_DECIDED_KINDS,
    HOSTED_DROP_KINDS,
    HOSTED_PASS_KINDS,
    HostedBehaviour,
    HostedFacts,
    HostedOutOfScope,
    InvalidConstraint,
    ModelMetadata,
    ProvenanceEvidenceClass,
    hosted_constraint_matches,
    model_constraint_matches,
    resolve_hosted_matching_grants,
    resolve_required_hosted_matching_grants,
)
from mcp_touchstone.scope._hosted_decode import decode_model_metadata
from mcp_touchstone.scope._matcher import (
    ConstraintError,
    InvalidArgumentsError,
    MatchedGrant,
    OutOfScope,
    ScopeMatchError,
    constraint_matches,
    constraint_name,
    grant_targets,
    resolve_capability_grants,
    resolve_matching_grants,
)
from mcp_touchstone.scope._types import (
    DECIDED_KINDS,
    REFUSED_KINDS,
    ChioScope,
    Constraint,
    ConstraintKind,
    ModelSafetyTier,
    MonetaryAmount,
    Operation,
    PromptGrant,
    ResourceGrant,
    ToolGrant,
)

__all__ = [
    "DECIDED_KINDS",
    "HOSTED_BEHAVIOUR",
    "HOSTED_DECIDED_KINDS",
    "HOSTED_DROP_KINDS",
    "HOSTED_PASS_KINDS",
    "REFUSED_KINDS",
    "ArgumentFacts",
    "ChioScope",
    "Constraint",
    "ConstraintError",
    "ConstraintKind",
    "HostedBehaviour",
    "HostedFacts",
    "HostedOutOfScope",
    "InvalidArgumentsError",
    "InvalidConstraint",
    "MatchedGrant",
    "ModelMetadata",
    "ModelSafetyTier",
    "MonetaryAmount",
    "Operation",
    "OutOfScope",
    "PromptGrant",
    "ProvenanceEvidenceClass",
    "ResourceGrant",
    "ScopeDecodeError",
    "ScopeMatchError",
    "ToolGrant",
    "constraint_matches",
    "constraint_name",
    "decode_constraint",
    "decode_model_metadata",
    "decode_scope",
    "grant_targets",
    "hosted_constraint_matches",
    "model_constraint_matches",
    "resolve_capability_grants",
    "resolve_hosted_matching_grants",
    "resolve_matching_grants",
    "resolve_required_hosted_matching_grants",
]
