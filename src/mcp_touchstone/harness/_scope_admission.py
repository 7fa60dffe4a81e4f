"""Harness operations ``scope.admit``, ``scope.bind_event`` and ``scope.evaluate_entry``.

``scope.admit`` and ``scope.bind_event`` are pinned (harness-v1.md, second wave);
``scope.evaluate_entry`` is our addition (``spec/harness.md``).  Each reads the raw
``case.input``, checks it against the operation's shape (anything else is ``invalid_input``
naming the place), calls the pure semantic in ``mcp_touchstone.scope`` and shapes the answer.
The operations are total.
"""

from __future__ import annotations

from mcp_touchstone.harness._input import EXPECTED
from mcp_touchstone.harness._input import BadInputError as _BadInputError
from mcp_touchstone.harness._input import invalid_input as _invalid
from mcp_touchstone.harness._scope_common import _match_list
from mcp_touchstone.scope import (
    AdmissionCandidate,
    AdmissionDeny,
    AdmissionPending,
    AdmissionSelect,
    AgUiBlock,
    AgUiEvent,
    BudgetOutcome,
    BudgetOutcomeKind,
    ChioScope,
    ConstraintError,
    DurableAdmission,
    EntryAllowed,
    EntryDenied,
    EntryMatches,
    EntryPath,
    EntryRefused,
    EventClassification,
    InvalidArgumentsError,
    InvalidEventError,
    RuntimeOutcome,
    ScopeDecodeError,
    TargetComponent,
    TraceEntry,
    admit,
    bind_event,
    decode_scope,
    evaluate_entry,
)
from mcp_touchstone.serde_json import JSON

_read = EXPECTED
"""The scope adapters' wording of the harness's one set of readers (``._input``)."""
_object, _field, _str, _opt_str = _read.object, _read.field, _read.string, _read.optional_string
_bool, _unsigned, _opt_unsigned = _read.boolean, _read.unsigned, _read.optional_unsigned


def _scope(raw: dict[str, JSON]) -> ChioScope:
    try:
        return decode_scope(_field(raw, "scope", "input"), "scope")
    except ScopeDecodeError as exc:
        raise _BadInputError(str(exc)) from None


# -- scope.admit ------------------------------------------------------------------------------

_BUDGET_KINDS = {kind.value: kind for kind in BudgetOutcomeKind}


def _runtime(value: JSON, where: str) -> RuntimeOutcome:
    obj = _object(value, where)
    allowed = _bool(_field(obj, "allowed", where), f"{where}.allowed")
    return RuntimeOutcome(allowed, _opt_str(obj.get("reason"), f"{where}.reason"))


def _budget(value: JSON, where: str) -> BudgetOutcome:
    obj = _object(value, where)
    outcome = _field(obj, "outcome", where)
    kind = _BUDGET_KINDS.get(outcome) if isinstance(outcome, str) else None
    if kind is None:
        raise _BadInputError(
            f"{where}.outcome: expected one of authorized, pending, exhausted, error"
        )
    # Optional fields read as serde's ``Option<T>``: ``null`` is the same as absent
    # (SCOPE-ADMIT-8).
    if kind is BudgetOutcomeKind.ERROR:
        message = _str(_field(obj, "message", where), f"{where}.message")
    else:
        message = _opt_str(obj.get("message"), f"{where}.message") or ""
    released_raw = obj.get("released")
    released = True if released_raw is None else _bool(released_raw, f"{where}.released")
    return BudgetOutcome(kind, message, released)


def _candidate(value: JSON, where: str) -> AdmissionCandidate:
    obj = _object(value, where)
    return AdmissionCandidate(
        index=_unsigned(_field(obj, "index", where), f"{where}.index"),
        max_cost_per_invocation=_opt_unsigned(
            _field(obj, "max_cost_per_invocation", where), f"{where}.max_cost_per_invocation"
        ),
        max_total_cost=_opt_unsigned(
            _field(obj, "max_total_cost", where), f"{where}.max_total_cost"
        ),
        governed=_opt_str(_field(obj, "governed", where), f"{where}.governed"),
        guard=_opt_str(_field(obj, "guard", where), f"{where}.guard"),
        runtime=_runtime(_field(obj, "runtime", where), f"{where}.runtime"),
        budget=_budget(_field(obj, "budget", where), f"{where}.budget"),
    )


def _durable(value: JSON) -> DurableAdmission | None:
    if value is None:
        return None
    obj = _object(value, "input.durable")
    hold = _opt_str(
        _field(obj, "recorded_hold_id", "input.durable"), "input.durable.recorded_hold_id"
    )
    payment = None  # absent or null: the kernel's own rule (serde ``Option<bool>``)
    if obj.get("requires_payment") is not None:
        payment = _bool(obj["requires_payment"], "input.durable.requires_payment")
    return DurableAdmission(hold, payment)


def _trace(trace: tuple[TraceEntry, ...]) -> list[JSON]:
    return [{"index": e.index, "ran": [stage.value for stage in e.ran]} for e in trace]


def op_admit(raw: JSON) -> dict[str, JSON]:
    """``scope.admit``: the hosted admission loop over injected stage outcomes (SCOPE-ADMIT-8)."""
    try:
        obj = _object(raw, "input")
        cap_id = _str(_field(obj, "cap_id", "input"), "input.cap_id")
        operation_id = _str(_field(obj, "operation_id", "input"), "input.operation_id")
        durable = _durable(_field(obj, "durable", "input"))
        listed = _field(obj, "candidates", "input")
        if not isinstance(listed, list) or not listed:
            raise _BadInputError("input.candidates: expected a non-empty array")
        candidates = tuple(
            _candidate(item, f"input.candidates[{i}]") for i, item in enumerate(listed)
        )
    except _BadInputError as exc:
        return _invalid(str(exc))
    decision = admit(cap_id, operation_id, durable, candidates)
    trace = _trace(decision.trace)
    if isinstance(decision, AdmissionSelect):
        return {"decision": "select", "index": decision.index, "trace": trace}
    if isinstance(decision, AdmissionPending):
        return {"decision": "pending", "index": decision.index, "trace": trace}
    assert isinstance(decision, AdmissionDeny)
    return {
        "decision": "deny",
        "stage": decision.stage.value,
        "message": decision.message,
        "trace": trace,
    }


# -- scope.bind_event -------------------------------------------------------------------------

_CLASSIFICATIONS = {c.value: c for c in EventClassification}


def _target(value: JSON) -> TargetComponent:
    obj = _object(value, "input.event.target")
    kind = _str(
        _field(obj, "component_type", "input.event.target"), "input.event.target.component_type"
    )
    component_id = None  # absent or null, as chio's `#[serde(default)] Option<String>`
    if obj.get("component_id") is not None:
        component_id = _str(obj["component_id"], "input.event.target.component_id")
    return TargetComponent(kind, component_id)


def _event(value: JSON) -> AgUiEvent:
    where = "input.event"
    obj = _object(value, where)
    classification = _field(obj, "classification", where)
    found = _CLASSIFICATIONS.get(classification) if isinstance(classification, str) else None
    if found is None:
        raise _BadInputError(
            f"{where}.classification: expected one of {', '.join(_CLASSIFICATIONS)}"
        )
    # `session_id` and `target` are `#[serde(default)] Option<_>` on chio's `AgUiEvent`:
    # `null` reads as absent (SCOPE-AGUI-7).
    session_id = None
    if obj.get("session_id") is not None:
        session_id = _str(obj["session_id"], f"{where}.session_id")
    return AgUiEvent(
        event_id=_str(_field(obj, "event_id", where), f"{where}.event_id"),
        agent_id=_str(_field(obj, "agent_id", where), f"{where}.agent_id"),
        classification=found,
        payload=_field(obj, "payload", where),
        session_id=session_id,
        target=_target(obj["target"]) if obj.get("target") is not None else None,
    )


def op_bind_event(raw: JSON) -> dict[str, JSON]:
    """``scope.bind_event``: the AG-UI proxy's capability-bound decision (SCOPE-AGUI-7)."""
    try:
        obj = _object(raw, "input")
        scope = _scope(obj)
        event = _event(_field(obj, "event", "input"))
        decision = bind_event(scope, event)
    except (_BadInputError, InvalidEventError, InvalidArgumentsError) as exc:
        return _invalid(str(exc))
    if isinstance(decision, AgUiBlock):
        return {"decision": "block", "reason": decision.reason}
    return {
        "decision": "forward",
        "matches": _match_list(decision.matches),
        "binding": list(decision.binding),
    }


# -- scope.evaluate_entry (addition) ----------------------------------------------------------

_PATHS = {p.value: p for p in EntryPath}


def op_evaluate_entry(raw: JSON) -> dict[str, JSON]:
    """``scope.evaluate_entry``: an evaluate entry point's answer on a scope (SCOPE-CUMUL-6)."""
    try:
        obj = _object(raw, "input")
        scope = _scope(obj)
        path_name = _field(obj, "path", "input")
        path = _PATHS.get(path_name) if isinstance(path_name, str) else None
        if path is None:
            raise _BadInputError("input.path: expected one of plain, full_floor, direct")
        features = _field(obj, "negotiated", "input")
        if not isinstance(features, list):
            raise _BadInputError("input.negotiated: expected an array of strings")
        negotiated = frozenset(_str(f, f"input.negotiated[{i}]") for i, f in enumerate(features))
        tool_name = _str(_field(obj, "tool_name", "input"), "input.tool_name")
        server_id = _str(_field(obj, "server_id", "input"), "input.server_id")
        arguments = _field(obj, "arguments", "input")
        outcome = evaluate_entry(
            scope,
            path,
            negotiated,
            tool_name=tool_name,
            server_id=server_id,
            arguments=arguments,
        )
    except (_BadInputError, InvalidArgumentsError) as exc:
        return _invalid(str(exc))
    if isinstance(outcome, EntryRefused):
        return {"decision": "refused", "kind": outcome.kind.value, "reason": outcome.reason}
    if isinstance(outcome, EntryDenied):
        return {"decision": "denied", "reason": outcome.reason}
    if isinstance(outcome, EntryAllowed):
        m = outcome.matched
        return {"decision": "allowed", "index": m.index, "specificity": list(m.specificity)}
    assert isinstance(outcome, EntryMatches)
    if isinstance(outcome.result, ConstraintError):
        return {"decision": "constraint_error", "message": outcome.result.message}
    return {"decision": "matches", "matches": _match_list(outcome.result)}


OPERATIONS = {
    "scope.admit": op_admit,
    "scope.bind_event": op_bind_event,
    "scope.evaluate_entry": op_evaluate_entry,
}
"""The operations this module serves (the registry names this module for each)."""
