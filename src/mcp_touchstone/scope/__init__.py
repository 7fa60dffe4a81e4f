"""Chio capability-grant scope matching, case for case (``spec/scope.md``).

The public API:

* :func:`decode_scope` turns a parsed JSON value into a :class:`ChioScope` exactly as Chio's
  serde types accept it, or raises :class:`ScopeDecodeError` naming the offending place.
* :func:`resolve_matching_grants` ranks the grants that cover a tool call, or returns a
  :class:`ConstraintError`; :func:`resolve_capability_grants` also turns "nothing" into
  :class:`OutOfScope`.
* :func:`constraint_matches` evaluates one constraint against :class:`ArgumentFacts` (the
  reusable piece for a hosted admission loop built on top).
* :func:`admit` runs the hosted admission loop over ranked candidates with injected stage
  outcomes (``permits_matching_grant``, governed, guard, runtime hook, budget, precedence).
* :func:`evaluate_entry` models where each evaluate entry point refuses cumulative approval
  (:func:`has_cumulative_approval`) before matching.
* :func:`bind_event` is the AG-UI proxy's capability-bound decision, with
  :func:`grant_binds_event` re-reading ``Custom`` constraints against trusted event fields.
* :func:`resolve_hosted_matching_grants` is the hosted kernel's matcher profile: 11 variants
  decided (``regex_match`` and ``memory_write_deny_patterns`` with the Rust ``regex`` crate,
  ``model_constraint`` over a :class:`ModelMetadata`), 10 passed on to later stages, 3 dropping
  the grant; it answers ranked matches or an :class:`InvalidConstraint`.
  :func:`resolve_required_hosted_matching_grants` also turns "nothing" into
  :class:`HostedOutOfScope`; :func:`hosted_constraint_matches` evaluates one constraint against
  :class:`HostedFacts`.  The regex binding is imported on first use of a pattern.
"""

from __future__ import annotations

from mcp_touchstone.scope._admission import (
    AdmissionCandidate,
    AdmissionDecision,
    AdmissionDeny,
    AdmissionPending,
    AdmissionSelect,
    AdmissionStage,
    BudgetOutcome,
    BudgetOutcomeKind,
    DurableAdmission,
    RuntimeOutcome,
    TraceEntry,
    admit,
    budget_hold_id,
    permits_matching_grant,
    requires_payment_for,
)
from mcp_touchstone.scope._agui import (
    AG_UI_SERVER_ID,
    AgUiBlock,
    AgUiDecision,
    AgUiEvent,
    AgUiForward,
    EventClassification,
    InvalidEventError,
    TargetComponent,
    bind_event,
    event_scope_arguments,
    grant_binds_event,
)
from mcp_touchstone.scope._arguments import ArgumentFacts
from mcp_touchstone.scope._decode import ScopeDecodeError, decode_constraint, decode_scope
from mcp_touchstone.scope._entry import (
    EntryAllowed,
    EntryDenied,
    EntryMatches,
    EntryOutcome,
    EntryPath,
    EntryRefused,
    RefusalKind,
    evaluate_entry,
    has_cumulative_approval,
)
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
    "AG_UI_SERVER_ID",
    "DECIDED_KINDS",
    "HOSTED_BEHAVIOUR",
    "HOSTED_DECIDED_KINDS",
    "HOSTED_DROP_KINDS",
    "HOSTED_PASS_KINDS",
    "REFUSED_KINDS",
    "AdmissionCandidate",
    "AdmissionDecision",
    "AdmissionDeny",
    "AdmissionPending",
    "AdmissionSelect",
    "AdmissionStage",
    "AgUiBlock",
    "AgUiDecision",
    "AgUiEvent",
    "AgUiForward",
    "ArgumentFacts",
    "BudgetOutcome",
    "BudgetOutcomeKind",
    "ChioScope",
    "Constraint",
    "ConstraintError",
    "ConstraintKind",
    "DurableAdmission",
    "EntryAllowed",
    "EntryDenied",
    "EntryMatches",
    "EntryOutcome",
    "EntryPath",
    "EntryRefused",
    "EventClassification",
    "HostedBehaviour",
    "HostedFacts",
    "HostedOutOfScope",
    "InvalidArgumentsError",
    "InvalidConstraint",
    "InvalidEventError",
    "MatchedGrant",
    "ModelMetadata",
    "ModelSafetyTier",
    "MonetaryAmount",
    "Operation",
    "OutOfScope",
    "PromptGrant",
    "ProvenanceEvidenceClass",
    "RefusalKind",
    "ResourceGrant",
    "RuntimeOutcome",
    "ScopeDecodeError",
    "ScopeMatchError",
    "TargetComponent",
    "ToolGrant",
    "TraceEntry",
    "admit",
    "bind_event",
    "budget_hold_id",
    "constraint_matches",
    "constraint_name",
    "decode_constraint",
    "decode_model_metadata",
    "decode_scope",
    "evaluate_entry",
    "event_scope_arguments",
    "grant_binds_event",
    "grant_targets",
    "has_cumulative_approval",
    "hosted_constraint_matches",
    "model_constraint_matches",
    "permits_matching_grant",
    "requires_payment_for",
    "resolve_capability_grants",
    "resolve_hosted_matching_grants",
    "resolve_matching_grants",
    "resolve_required_hosted_matching_grants",
]
