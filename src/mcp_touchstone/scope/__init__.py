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

Each name is imported from its module on first use (:func:`__getattr__`), so a program that only
matches portable scopes (the harness answering ``scope.resolve_matching_grants``) never pays for
the admission, AG-UI, entry and hosted modules' start-up.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's constant, without importing typing at run time (start-up)

if TYPE_CHECKING:
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

_HOME: dict[str, str] = {
    "AG_UI_SERVER_ID": "_agui",
    "AdmissionCandidate": "_admission",
    "AdmissionDecision": "_admission",
    "AdmissionDeny": "_admission",
    "AdmissionPending": "_admission",
    "AdmissionSelect": "_admission",
    "AdmissionStage": "_admission",
    "AgUiBlock": "_agui",
    "AgUiDecision": "_agui",
    "AgUiEvent": "_agui",
    "AgUiForward": "_agui",
    "ArgumentFacts": "_arguments",
    "BudgetOutcome": "_admission",
    "BudgetOutcomeKind": "_admission",
    "ChioScope": "_types",
    "Constraint": "_types",
    "ConstraintError": "_matcher",
    "ConstraintKind": "_types",
    "DECIDED_KINDS": "_types",
    "DurableAdmission": "_admission",
    "EntryAllowed": "_entry",
    "EntryDenied": "_entry",
    "EntryMatches": "_entry",
    "EntryOutcome": "_entry",
    "EntryPath": "_entry",
    "EntryRefused": "_entry",
    "EventClassification": "_agui",
    "HOSTED_BEHAVIOUR": "_hosted",
    "HOSTED_DECIDED_KINDS": "_hosted",
    "HOSTED_DROP_KINDS": "_hosted",
    "HOSTED_PASS_KINDS": "_hosted",
    "HostedBehaviour": "_hosted",
    "HostedFacts": "_hosted",
    "HostedOutOfScope": "_hosted",
    "InvalidArgumentsError": "_matcher",
    "InvalidConstraint": "_hosted",
    "InvalidEventError": "_agui",
    "MatchedGrant": "_matcher",
    "ModelMetadata": "_hosted",
    "ModelSafetyTier": "_types",
    "MonetaryAmount": "_types",
    "Operation": "_types",
    "OutOfScope": "_matcher",
    "PromptGrant": "_types",
    "ProvenanceEvidenceClass": "_hosted",
    "REFUSED_KINDS": "_types",
    "RefusalKind": "_entry",
    "ResourceGrant": "_types",
    "RuntimeOutcome": "_admission",
    "ScopeDecodeError": "_decode",
    "ScopeMatchError": "_matcher",
    "TargetComponent": "_agui",
    "ToolGrant": "_types",
    "TraceEntry": "_admission",
    "admit": "_admission",
    "bind_event": "_agui",
    "budget_hold_id": "_admission",
    "constraint_matches": "_matcher",
    "constraint_name": "_matcher",
    "decode_constraint": "_decode",
    "decode_model_metadata": "_hosted_decode",
    "decode_scope": "_decode",
    "evaluate_entry": "_entry",
    "event_scope_arguments": "_agui",
    "grant_binds_event": "_agui",
    "grant_targets": "_matcher",
    "has_cumulative_approval": "_entry",
    "hosted_constraint_matches": "_hosted",
    "model_constraint_matches": "_hosted",
    "permits_matching_grant": "_admission",
    "requires_payment_for": "_admission",
    "resolve_capability_grants": "_matcher",
    "resolve_hosted_matching_grants": "_hosted",
    "resolve_matching_grants": "_matcher",
    "resolve_required_hosted_matching_grants": "_hosted",
}
"""Public name -> the private module defining it (imported on first use)."""


def __getattr__(name: str) -> object:
    """Import the module defining the public ``name`` on first use (PEP 562)."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # __import__ with a from-list returns the submodule itself, as importlib.import_module
    # does, without importing importlib (and warnings) at start-up.
    value = getattr(__import__(f"{__name__}.{home}", fromlist=(name,)), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names (``__all__``), loaded or not."""
    return sorted(__all__)


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
