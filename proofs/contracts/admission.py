# ruff: noqa: PLR0917 - CrossHair builds every symbolic input as a positional argument.
"""CrossHair contracts on the hosted admission loop ``scope.admit`` (PEP 316 docstrings).

Candidates are drawn from finite option tables by integer choices, so CrossHair ranges over
every combination of stage outcomes for up to three candidates.
"""

from __future__ import annotations

import itertools

from mcp_touchstone.scope._admission import (
    AdmissionCandidate,
    AdmissionDeny,
    AdmissionPending,
    AdmissionSelect,
    AdmissionStage,
    BudgetOutcome,
    BudgetOutcomeKind,
    DurableAdmission,
    RuntimeOutcome,
    admit,
    budget_hold_id,
    exhausted_message,
    permits_matching_grant,
    requires_payment_for,
)

OUTCOMES: tuple[tuple[str | None, str | None, bool, BudgetOutcomeKind, bool], ...] = tuple(
    itertools.product(
        (None, "governed says no"),
        (None, "guard says no"),
        (True, False),
        tuple(BudgetOutcomeKind),
        (True, False),
    )
)
"""Every combination of (governed, guard, runtime allowed, budget kind, released): 64."""
CAPS: tuple[tuple[int | None, int | None], ...] = ((None, None), (5, None), (0, None), (None, 9))
"""Per-invocation and total cost caps, in units."""
N_OUTCOMES, N_CAPS = len(OUTCOMES), len(CAPS)


def _candidate(index: int, outcome: int, caps: int) -> AdmissionCandidate:
    governed, guard, allowed, kind, released = OUTCOMES[outcome]
    per, total = CAPS[caps]
    message = f"budget error {index}"
    return AdmissionCandidate(
        index,
        per,
        total,
        governed,
        guard,
        RuntimeOutcome(allowed),
        BudgetOutcome(kind, message, released),
    )


def _durable(choice: int) -> DurableAdmission | None:
    if choice == 0:
        return None
    if choice == 1:
        return DurableAdmission()
    return DurableAdmission(budget_hold_id("op", choice - 2), None)


def never_selects_a_refused_candidate(
    n: int, o0: int, o1: int, o2: int, c0: int, c1: int, c2: int, durable: int
) -> bool:
    """PROOF-SCOPE-ADMIT-NEVER-REFUSED: a selected (or pending) candidate passed every stage:
    the durable filter, governed, guard and runtime, and its budget authorized (or asked).

    pre: 0 <= n <= 3
    pre: 0 <= o0 < N_OUTCOMES and 0 <= o1 < N_OUTCOMES and 0 <= o2 < N_OUTCOMES
    pre: 0 <= c0 < N_CAPS and 0 <= c1 < N_CAPS and 0 <= c2 < N_CAPS
    pre: 0 <= durable <= 4
    post: __return__
    """
    picks = zip(range(n), (o0, o1, o2)[:n], (c0, c1, c2)[:n], strict=True)
    cands = tuple(_candidate(i, o, c) for i, o, c in picks)
    held = _durable(durable)
    result = admit("cap-1", "op", held, cands)
    if isinstance(result, AdmissionDeny):
        return True
    chosen = cands[result.index]
    wanted = (
        BudgetOutcomeKind.AUTHORIZED
        if isinstance(result, AdmissionSelect)
        else (BudgetOutcomeKind.PENDING)
    )
    payment = False
    if held is not None:
        payment = (
            held.requires_payment
            if held.requires_payment is not None
            else (requires_payment_for(cands))
        )
    return (
        isinstance(result, AdmissionSelect | AdmissionPending)
        and (held is None or permits_matching_grant(chosen, "op", held.recorded_hold_id, payment))
        and chosen.governed is None
        and chosen.guard is None
        and chosen.runtime.allowed
        and chosen.budget.kind is wanted
    )


def _precedence_spec(kinds: tuple[int, ...]) -> tuple[AdmissionStage, str]:
    """SCOPE-ADMIT-7 restated: budget error > guard denial > governed error > durable fallback,
    each the first one recorded."""
    if 2 in kinds:
        return AdmissionStage.BUDGET, exhausted_message("cap-1")
    if 1 in kinds:
        return AdmissionStage.GUARD, "guard says no"
    if 0 in kinds:
        return AdmissionStage.GOVERNED, "governed says no"
    return AdmissionStage.DURABLE, ""


def final_precedence(n: int, k0: int, k1: int, k2: int) -> bool:
    """PROOF-SCOPE-ADMIT-PRECEDENCE: when every candidate is passed over (a governed error, a
    guard denial, or a released exhausted budget), the deny is the budget error if any, else
    the guard denial, else the governed error.

    pre: 1 <= n <= 3
    pre: 0 <= k0 <= 2 and 0 <= k1 <= 2 and 0 <= k2 <= 2
    post: __return__
    """
    kinds = (k0, k1, k2)[:n]
    exhausted = BudgetOutcome(BudgetOutcomeKind.EXHAUSTED, "", True)
    authorized = BudgetOutcome(BudgetOutcomeKind.AUTHORIZED)
    cands = tuple(
        AdmissionCandidate(
            i,
            None,
            None,
            "governed says no" if k == 0 else None,
            "guard says no" if k == 1 else None,
            RuntimeOutcome(True),
            exhausted if k == 2 else authorized,
        )
        for i, k in enumerate(kinds)
    )
    result = admit("cap-1", "op", None, cands)
    stage, message = _precedence_spec(kinds)
    return isinstance(result, AdmissionDeny) and result.stage is stage and result.message == message
