"""Chio's hosted admission loop over the ranked candidates (rules ``SCOPE-ADMIT-*``).

Seed 003, "Ranking and fallback": the matcher's ranked list is the candidate list; a durable
admission first drops the candidates ``permits_matching_grant`` rejects, then each remaining
candidate goes through governed-transaction validation, the guard pipeline, the runtime
admission hook and the budget, in that order.  Every stage's outcome is injected, so the loop is
a pure function: :func:`admit` decides what Chio's ``async_evaluation_core.rs`` (backbay-labs/chio
``feedb5a7``) decides, with the seed's reading where the two differ (``spec/scope.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

__all__ = [
    "DURABLE_FALLBACK_MESSAGE",
    "RUNTIME_DENIED_MESSAGE",
    "AdmissionCandidate",
    "AdmissionDecision",
    "AdmissionDeny",
    "AdmissionPending",
    "AdmissionSelect",
    "AdmissionStage",
    "BudgetOutcome",
    "BudgetOutcomeKind",
    "DurableAdmission",
    "RuntimeOutcome",
    "TraceEntry",
    "admit",
    "budget_hold_id",
    "exhausted_message",
    "permits_matching_grant",
    "requires_payment_for",
]

DURABLE_FALLBACK_MESSAGE = (
    "durable admission failed: retained budget hold does not identify a matching grant"
)
"""The deny text when the loop ends with nothing recorded (every candidate was skipped)."""

RUNTIME_DENIED_MESSAGE = "runtime admission denied"
"""The deny text of a runtime-hook denial that gave no reason."""


class AdmissionStage(Enum):
    """A stage of the loop, by its wire name; ``DURABLE`` only ever names a final deny."""

    GOVERNED = "governed"
    GUARD = "guard"
    RUNTIME = "runtime"
    BUDGET = "budget"
    DURABLE = "durable"


class BudgetOutcomeKind(Enum):
    """What ``check_and_increment_budget`` answered for one candidate."""

    AUTHORIZED = "authorized"
    PENDING = "pending"
    EXHAUSTED = "exhausted"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class RuntimeOutcome:
    """The runtime admission hook's answer: allowed, or denied with an optional reason."""

    allowed: bool
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class BudgetOutcome:
    """The budget stage's answer.

    ``message`` is the error's display text (read only for ``ERROR``); ``released`` says whether
    the runtime reservation was released (read only for ``EXHAUSTED``).
    """

    kind: BudgetOutcomeKind
    message: str = ""
    released: bool = True


@dataclass(frozen=True, slots=True)
class AdmissionCandidate:
    """One ranked candidate with its caps (in units; ``None`` = no cap) and injected outcomes.

    ``governed`` and ``guard`` are ``None`` when that stage passes, else the message it produced.
    """

    index: int
    max_cost_per_invocation: int | None
    max_total_cost: int | None
    governed: str | None
    guard: str | None
    runtime: RuntimeOutcome
    budget: BudgetOutcome


@dataclass(frozen=True, slots=True)
class DurableAdmission:
    """A durable admission: the budget hold id a resumed one recorded (``None`` when fresh),
    and whether the operation requires payment (``None`` = the kernel's own rule,
    :func:`requires_payment_for`)."""

    recorded_hold_id: str | None = None
    requires_payment: bool | None = None


@dataclass(frozen=True, slots=True)
class TraceEntry:
    """A visited candidate and the stages that ran for it, in order (empty when skipped)."""

    index: int
    ran: tuple[AdmissionStage, ...]


@dataclass(frozen=True, slots=True)
class AdmissionSelect:
    """The budget authorized this candidate: the grant is selected."""

    index: int
    trace: tuple[TraceEntry, ...]


@dataclass(frozen=True, slots=True)
class AdmissionPending:
    """The budget asked for approval on this candidate: a pending-approval outcome, not a deny."""

    index: int
    trace: tuple[TraceEntry, ...]


@dataclass(frozen=True, slots=True)
class AdmissionDeny:
    """The request is denied at ``stage`` with ``message``."""

    stage: AdmissionStage
    message: str
    trace: tuple[TraceEntry, ...]


AdmissionDecision = AdmissionSelect | AdmissionPending | AdmissionDeny
"""The three outcomes of :func:`admit`."""


def budget_hold_id(operation_id: str, grant_index: int) -> str:
    """The budget hold id a durable operation records for a grant (SCOPE-ADMIT-2)."""
    return f"admission-budget:{operation_id}:{grant_index}"


def exhausted_message(cap_id: str) -> str:
    """``KernelError::BudgetExhausted``'s display text for the capability (SCOPE-ADMIT-5)."""
    return f"invocation budget exhausted for capability {cap_id}"


def requires_payment_for(candidates: tuple[AdmissionCandidate, ...]) -> bool:
    """The kernel's payment rule: true iff every candidate carries a cost cap, per invocation
    or in total (a zero-unit cap counts as carried) (SCOPE-ADMIT-3)."""
    return all(
        c.max_cost_per_invocation is not None or c.max_total_cost is not None for c in candidates
    )


def permits_matching_grant(
    candidate: AdmissionCandidate,
    operation_id: str,
    recorded_hold_id: str | None,
    requires_payment: bool,
) -> bool:
    """``permits_matching_grant``: the hold names this candidate (or none is recorded) and its
    caps fit the payment requirement (SCOPE-ADMIT-2, SCOPE-ADMIT-3).

    With payment required the per-invocation cap must be present with non-zero units; without,
    the grant must carry neither cap.
    """
    if recorded_hold_id is not None and recorded_hold_id != budget_hold_id(
        operation_id, candidate.index
    ):
        return False
    if requires_payment:
        return candidate.max_cost_per_invocation not in (None, 0)
    return candidate.max_cost_per_invocation is None and candidate.max_total_cost is None


def admit(
    cap_id: str,
    operation_id: str,
    durable: DurableAdmission | None,
    candidates: tuple[AdmissionCandidate, ...],
) -> AdmissionDecision:
    """Run the hosted admission loop over ``candidates`` (ranked, most specific first).

    Per candidate, in order (SCOPE-ADMIT-1 .. SCOPE-ADMIT-6):

    * a durable admission skips a candidate :func:`permits_matching_grant` rejects;
    * a governed error is recorded (first wins) and the loop continues;
    * a guard denial is recorded (first wins) and the loop continues;
    * a runtime denial returns ``deny("runtime", reason or "runtime admission denied")``;
    * the budget: authorized selects, pending returns pending, exhausted records the exhausted
      message and continues when the reservation was released (else returns it), any other
      error returns ``deny("budget", message)``.

    With no selection the precedence is budget error > guard denial > governed error > the
    retained-hold fallback (SCOPE-ADMIT-7).  The trace lists the visited candidates only.
    """
    requires_payment = False
    if durable is not None:
        requires_payment = (
            durable.requires_payment
            if durable.requires_payment is not None
            else requires_payment_for(candidates)
        )
    budget_error: str | None = None
    guard_denial: str | None = None
    governed_error: str | None = None
    trace: list[TraceEntry] = []

    def visited(candidate: AdmissionCandidate, *ran: AdmissionStage) -> tuple[TraceEntry, ...]:
        trace.append(TraceEntry(candidate.index, ran))
        return tuple(trace)

    governed, guard, runtime, budget = (
        AdmissionStage.GOVERNED,
        AdmissionStage.GUARD,
        AdmissionStage.RUNTIME,
        AdmissionStage.BUDGET,
    )
    for candidate in candidates:
        if durable is not None and not permits_matching_grant(
            candidate, operation_id, durable.recorded_hold_id, requires_payment
        ):
            visited(candidate)
            continue
        if candidate.governed is not None:
            visited(candidate, governed)
            if governed_error is None:
                governed_error = candidate.governed
            continue
        if candidate.guard is not None:
            visited(candidate, governed, guard)
            if guard_denial is None:
                guard_denial = candidate.guard
            continue
        if not candidate.runtime.allowed:
            reason = candidate.runtime.reason
            return AdmissionDeny(
                runtime,
                RUNTIME_DENIED_MESSAGE if reason is None else reason,
                visited(candidate, governed, guard, runtime),
            )
        ran = visited(candidate, governed, guard, runtime, budget)
        outcome = candidate.budget
        if outcome.kind is BudgetOutcomeKind.AUTHORIZED:
            return AdmissionSelect(candidate.index, ran)
        if outcome.kind is BudgetOutcomeKind.PENDING:
            return AdmissionPending(candidate.index, ran)
        if outcome.kind is BudgetOutcomeKind.EXHAUSTED:
            budget_error = exhausted_message(cap_id)
            if outcome.released:
                continue
            return AdmissionDeny(budget, budget_error, ran)
        return AdmissionDeny(budget, outcome.message, ran)

    final = tuple(trace)
    if budget_error is not None:
        return AdmissionDeny(budget, budget_error, final)
    if guard_denial is not None:
        return AdmissionDeny(guard, guard_denial, final)
    if governed_error is not None:
        return AdmissionDeny(governed, governed_error, final)
    return AdmissionDeny(AdmissionStage.DURABLE, DURABLE_FALLBACK_MESSAGE, final)
