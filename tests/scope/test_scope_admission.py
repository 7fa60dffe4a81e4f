"""The hosted admission loop (SCOPE-ADMIT-*): every continue/return branch, every precedence
pair, the durable filter, the exact texts, the trace, and the loop's properties.

chio.md §6.6's worked cases are re-expressed here; chio.md names no upstream unit test for the
loop itself (backbay-labs/chio ``async_evaluation_core.rs`` @ ``feedb5a7``).

Length: one file for the loop's tables, properties and the naive restatement they share helpers
with, and the upstream kernel tests re-expressed on the loop; about 580 lines.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_touchstone.scope import (
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
    admit,
    budget_hold_id,
    permits_matching_grant,
    requires_payment_for,
)
from tests.strategies.admission import (
    OPERATION_ID,
    candidate_lists,
    candidates,
    durables,
    explicit_durables,
)

CAP = "cap-1"
EXHAUSTED = "invocation budget exhausted for capability cap-1"
FALLBACK = "durable admission failed: retained budget hold does not identify a matching grant"
G, U, R, B = (
    AdmissionStage.GOVERNED,
    AdmissionStage.GUARD,
    AdmissionStage.RUNTIME,
    AdmissionStage.BUDGET,
)
ALL = (G, U, R, B)


def cand(
    index: int,
    *,
    governed: str | None = None,
    guard: str | None = None,
    runtime: RuntimeOutcome | None = None,
    budget: str = "authorized",
    message: str = "",
    released: bool = True,
    per_call: int | None = None,
    total: int | None = None,
) -> AdmissionCandidate:
    """A candidate that passes every stage unless told otherwise."""
    return AdmissionCandidate(
        index=index,
        max_cost_per_invocation=per_call,
        max_total_cost=total,
        governed=governed,
        guard=guard,
        runtime=RuntimeOutcome(True) if runtime is None else runtime,
        budget=BudgetOutcome(BudgetOutcomeKind(budget), message, released),
    )


def run(*cands: AdmissionCandidate, durable: DurableAdmission | None = None) -> AdmissionDecision:
    """Admit ``cands`` for ``cap-1`` / ``op-1``."""
    return admit(CAP, OPERATION_ID, durable, cands)


def shape(decision: AdmissionDecision) -> tuple[object, ...]:
    """The decision as a comparable tuple, trace included."""
    trace = tuple((e.index, e.ran) for e in decision.trace)
    if isinstance(decision, AdmissionDeny):
        return ("deny", decision.stage, decision.message, trace)
    kind = "select" if isinstance(decision, AdmissionSelect) else "pending"
    return (kind, decision.index, trace)


# -- one candidate: each stage's branch --------------------------------------------------------

BRANCHES = [
    ("authorized selects", cand(0), ("select", 0, ((0, ALL),))),
    ("pending returns pending", cand(0, budget="pending"), ("pending", 0, ((0, ALL),))),
    (
        "pending with a retained reservation still returns pending (seed over code)",
        cand(0, budget="pending", released=False),
        ("pending", 0, ((0, ALL),)),
    ),
    (
        "exhausted released continues, then the budget error decides",
        cand(0, budget="exhausted"),
        ("deny", B, EXHAUSTED, ((0, ALL),)),
    ),
    (
        "exhausted not released returns the exhausted text",
        cand(0, budget="exhausted", released=False),
        ("deny", B, EXHAUSTED, ((0, ALL),)),
    ),
    (
        "other budget error returns its text",
        cand(0, budget="error", message="budget store error: down"),
        ("deny", B, "budget store error: down", ((0, ALL),)),
    ),
    (
        "runtime deny with a reason",
        cand(0, runtime=RuntimeOutcome(False, "hook says no")),
        ("deny", R, "hook says no", ((0, (G, U, R)),)),
    ),
    (
        "runtime deny without a reason",
        cand(0, runtime=RuntimeOutcome(False)),
        ("deny", R, "runtime admission denied", ((0, (G, U, R)),)),
    ),
    (
        "runtime deny with an empty reason keeps it",
        cand(0, runtime=RuntimeOutcome(False, "")),
        ("deny", R, "", ((0, (G, U, R)),)),
    ),
    (
        "guard denial is the last word when nothing else was recorded",
        cand(0, guard='guard denied the request: guard "fs" denied the request'),
        ("deny", U, 'guard denied the request: guard "fs" denied the request', ((0, (G, U)),)),
    ),
    (
        "governed error is the last word when nothing else was recorded",
        cand(0, governed="governed transaction denied: no intent"),
        ("deny", G, "governed transaction denied: no intent", ((0, (G,)),)),
    ),
    (
        "a governed error stops the candidate before the guards run",
        cand(0, governed="g", guard="never read", runtime=RuntimeOutcome(False, "never read")),
        ("deny", G, "g", ((0, (G,)),)),
    ),
]


@pytest.mark.parametrize(("name", "candidate", "expected"), BRANCHES, ids=[b[0] for b in BRANCHES])
def test_single_candidate_branches(
    name: str, candidate: AdmissionCandidate, expected: object
) -> None:
    """SCOPE-ADMIT-5, SCOPE-ADMIT-6, SCOPE-ADMIT-9: each outcome continues or returns as stated."""
    assert shape(run(candidate)) == expected, name


# -- continue versus return: the next candidate is reached or not --------------------------------

CONTINUING = {
    "governed": cand(0, governed="gov"),
    "guard": cand(0, guard="grd"),
    "exhausted-released": cand(0, budget="exhausted"),
}
RETURNING = {
    "runtime": cand(0, runtime=RuntimeOutcome(False, "rt")),
    "pending": cand(0, budget="pending"),
    "error": cand(0, budget="error", message="err"),
    "exhausted-retained": cand(0, budget="exhausted", released=False),
    "authorized": cand(0),
}


@pytest.mark.parametrize("name", sorted(CONTINUING))
def test_continuing_outcomes_reach_the_next_candidate(name: str) -> None:
    """SCOPE-ADMIT-5: a continuing outcome lets a later candidate be selected."""
    decision = run(CONTINUING[name], cand(1))
    assert isinstance(decision, AdmissionSelect)
    assert decision.index == 1
    assert [e.index for e in decision.trace] == [0, 1]


@pytest.mark.parametrize("name", sorted(RETURNING))
def test_returning_outcomes_never_reach_the_next_candidate(name: str) -> None:
    """SCOPE-ADMIT-6: a returning outcome ends the loop on its candidate; the next is not listed."""
    decision = run(RETURNING[name], cand(1))
    assert [e.index for e in decision.trace] == [0]
    assert not (isinstance(decision, AdmissionSelect) and decision.index == 1)


# -- final precedence: every pair --------------------------------------------------------------

RECORDERS = {
    "budget": (cand(0, budget="exhausted"), ("deny", B, EXHAUSTED)),
    "guard": (cand(0, guard="guard-first"), ("deny", U, "guard-first")),
    "governed": (cand(0, governed="gov-first"), ("deny", G, "gov-first")),
}
RANK = ["budget", "guard", "governed"]


@pytest.mark.parametrize(
    ("first", "second"), [(a, b) for a in RANK for b in RANK if a != b], ids=str
)
def test_final_precedence_every_pair_both_orders(first: str, second: str) -> None:
    """SCOPE-ADMIT-7: budget error > guard denial > governed error, whichever recorded it."""
    a = RECORDERS[first][0]
    b = replace(RECORDERS[second][0], index=1)
    winner = min(first, second, key=RANK.index)
    assert shape(run(a, b))[:3] == RECORDERS[winner][1]


def test_first_guard_denial_wins() -> None:
    """SCOPE-ADMIT-7: two guard denials: the most specific candidate's is kept."""
    assert shape(run(cand(0, guard="g0"), cand(1, guard="g1")))[:3] == ("deny", U, "g0")


def test_first_governed_error_wins() -> None:
    """SCOPE-ADMIT-7: two governed errors: the first is kept (chio.md §6.6)."""
    assert shape(run(cand(0, governed="e1"), cand(1, governed="e2")))[:3] == ("deny", G, "e1")


def test_fallback_only_when_every_candidate_was_skipped() -> None:
    """SCOPE-ADMIT-7: nothing recorded means every candidate was skipped: the retained-hold text."""
    durable = DurableAdmission("admission-budget:op-1:9")
    decision = run(cand(0), cand(1), durable=durable)
    assert shape(decision) == ("deny", AdmissionStage.DURABLE, FALLBACK, ((0, ()), (1, ())))


# -- chio.md §6.6 worked cases -----------------------------------------------------------------


def test_worked_guard_beats_governed() -> None:
    """SCOPE-ADMIT-7: A guard deny, B and C governed errors: deny with A's guard text."""
    d = run(cand(0, guard="gA"), cand(1, governed="e"), cand(2, governed="e"))
    assert shape(d)[:3] == ("deny", U, "gA")


def test_worked_budget_beats_guard() -> None:
    """SCOPE-ADMIT-7: A guard deny, B exhausted released: the exhausted text wins."""
    assert shape(run(cand(0, guard="gA"), cand(1, budget="exhausted")))[:3] == (
        "deny",
        B,
        EXHAUSTED,
    )


def test_worked_later_runtime_deny_beats_earlier_guard() -> None:
    """SCOPE-ADMIT-6: A guard deny, B runtime deny x: deny x, returned on B."""
    d = run(cand(0, guard="gA"), cand(1, runtime=RuntimeOutcome(False, "x")), cand(2))
    assert shape(d) == ("deny", R, "x", ((0, (G, U)), (1, (G, U, R))))


def test_worked_guard_on_best_then_select_next() -> None:
    """SCOPE-ADMIT-5: A guard deny, B authorized: select B."""
    assert shape(run(cand(0, guard="gA"), cand(1)))[:2] == ("select", 1)


def test_worked_exhausted_then_guard_then_governed() -> None:
    """SCOPE-ADMIT-7: A exhausted released, B guard deny, C governed err: the exhausted text."""
    d = run(cand(0, budget="exhausted"), cand(1, guard="g"), cand(2, governed="e"))
    assert shape(d)[:3] == ("deny", B, EXHAUSTED)
    assert len(d.trace) == 3


def test_worked_exhausted_not_released_stops_the_loop() -> None:
    """SCOPE-ADMIT-6: A exhausted without a confirmed release: deny; B is never tried."""
    d = run(cand(0, budget="exhausted", released=False), cand(1))
    assert shape(d) == ("deny", B, EXHAUSTED, ((0, ALL),))


def test_worked_governed_then_guard() -> None:
    """SCOPE-ADMIT-7: A governed err, B guard deny gB: deny gB."""
    assert shape(run(cand(0, governed="e1"), cand(1, guard="gB")))[:3] == ("deny", U, "gB")


def test_worked_hold_names_only_index_two() -> None:
    """SCOPE-ADMIT-2: the hold names index 2 of candidates 0, 1, 2: only 2 is evaluated."""
    durable = DurableAdmission(budget_hold_id(OPERATION_ID, 2), requires_payment=False)
    d = run(cand(0), cand(1), cand(2), durable=durable)
    assert shape(d) == ("select", 2, ((0, ()), (1, ()), (2, ALL)))


def test_exhausted_text_names_the_capability() -> None:
    """SCOPE-ADMIT-5: the exhausted text is KernelError::BudgetExhausted's display for cap_id."""
    d = admit("cap-xyz", OPERATION_ID, None, (cand(0, budget="exhausted"),))
    assert isinstance(d, AdmissionDeny)
    assert d.message == "invocation budget exhausted for capability cap-xyz"


# -- the durable filter ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("per_call", "total", "requires", "permitted"),
    [
        (None, None, False, True),
        (5, None, False, False),
        (None, 5, False, False),
        (0, None, False, False),
        (5, None, True, True),
        (5, 7, True, True),
        (0, None, True, False),
        (None, 5, True, False),
        (None, None, True, False),
    ],
)
def test_payment_rule(
    per_call: int | None, total: int | None, requires: bool, permitted: bool
) -> None:
    """SCOPE-ADMIT-3: payment needs a non-zero per-call cap; no payment needs no cap at all."""
    c = cand(0, per_call=per_call, total=total)
    assert permits_matching_grant(c, OPERATION_ID, None, requires) is permitted


def test_hold_check() -> None:
    """SCOPE-ADMIT-2: a recorded hold permits only the index it names, for this operation."""
    c = cand(3)
    assert permits_matching_grant(c, "op-1", "admission-budget:op-1:3", False)
    assert not permits_matching_grant(c, "op-1", "admission-budget:op-1:4", False)
    assert not permits_matching_grant(c, "op-1", "admission-budget:op-2:3", False)
    assert not permits_matching_grant(c, "op-1", "admission-budget:op-1:03", False)
    assert permits_matching_grant(c, "op-1", None, False)


def test_derived_payment_requirement() -> None:
    """SCOPE-ADMIT-3: derived payment: required iff every candidate carries a cap (zero counts)."""
    assert requires_payment_for((cand(0, per_call=1), cand(1, total=0)))
    assert not requires_payment_for((cand(0, per_call=1), cand(1)))


def test_derived_payment_skips_total_only_grant() -> None:
    """SCOPE-ADMIT-3: every candidate capped, so payment is required and a total-only cap is
    skipped."""
    d = run(cand(0, total=9), cand(1, per_call=2), durable=DurableAdmission())
    assert shape(d) == ("select", 1, ((0, ()), (1, ALL)))


def test_derived_payment_skips_capped_grants_when_one_is_free() -> None:
    """SCOPE-ADMIT-3: one uncapped candidate turns payment off, so capped ones are skipped."""
    d = run(cand(0, per_call=2), cand(1), durable=DurableAdmission())
    assert shape(d) == ("select", 1, ((0, ()), (1, ALL)))


def test_no_durable_admission_no_filter() -> None:
    """SCOPE-ADMIT-2: without a durable admission no candidate is skipped, caps or not."""
    assert shape(run(cand(0, per_call=0, total=3)))[:2] == ("select", 0)


def test_skipped_candidates_record_nothing() -> None:
    """SCOPE-ADMIT-2: a skipped candidate's outcomes are never consulted."""
    durable = DurableAdmission(requires_payment=True)
    d = run(
        cand(0, budget="error", message="never"), cand(1, per_call=1, guard="g1"), durable=durable
    )
    assert shape(d) == ("deny", U, "g1", ((0, ()), (1, (G, U))))


def test_derived_payment_depends_on_later_candidates() -> None:
    """SCOPE-ADMIT-3: appending an uncapped candidate turns payment off and changes an earlier
    selection."""
    capped = (cand(0, per_call=2),)
    assert shape(run(*capped, durable=DurableAdmission()))[:2] == ("select", 0)
    d = run(*capped, cand(1, budget="error", message="late"), durable=DurableAdmission())
    assert shape(d) == ("deny", B, "late", ((0, ()), (1, ALL)))


# -- properties --------------------------------------------------------------------------------


def _permitted(
    c: AdmissionCandidate, durable: DurableAdmission | None, all_c: list[AdmissionCandidate]
) -> bool:
    if durable is None:
        return True
    requires = (
        durable.requires_payment
        if durable.requires_payment is not None
        else requires_payment_for(tuple(all_c))
    )
    return permits_matching_grant(c, OPERATION_ID, durable.recorded_hold_id, requires)


@given(candidate_lists(), durables())
def test_never_selects_a_refused_candidate(
    cands: list[AdmissionCandidate], durable: DurableAdmission | None
) -> None:
    """SCOPE-ADMIT-4: a selected or pending candidate passed the filter, governed, guard and
    runtime."""
    d = admit(CAP, OPERATION_ID, durable, tuple(cands))
    if isinstance(d, (AdmissionSelect, AdmissionPending)):
        chosen = cands[len(d.trace) - 1]
        assert chosen.index == d.index
        assert _permitted(chosen, durable, cands)
        assert chosen.governed is None
        assert chosen.guard is None
        assert chosen.runtime.allowed
        expected = (
            BudgetOutcomeKind.AUTHORIZED
            if isinstance(d, AdmissionSelect)
            else BudgetOutcomeKind.PENDING
        )
        assert chosen.budget.kind is expected


@given(candidate_lists(), explicit_durables(), candidate_lists(min_size=0))
def test_decision_ignores_candidates_after_the_one_that_ended_the_loop(
    cands: list[AdmissionCandidate],
    durable: DurableAdmission | None,
    other: list[AdmissionCandidate],
) -> None:
    """SCOPE-ADMIT-6: replacing the candidates after the one that ended the loop changes nothing."""
    d = admit(CAP, OPERATION_ID, durable, tuple(cands))
    k = len(d.trace)
    assert k <= len(cands)
    if k < len(cands):
        assert shape(admit(CAP, OPERATION_ID, durable, (*cands[:k], *other))) == shape(d)


@given(candidate_lists(), explicit_durables(), candidates())
def test_appending_a_failing_candidate_never_changes_a_selection(
    cands: list[AdmissionCandidate], durable: DurableAdmission | None, extra: AdmissionCandidate
) -> None:
    """SCOPE-ADMIT-5: a selection is never changed by a candidate added at the end."""
    d = admit(CAP, OPERATION_ID, durable, tuple(cands))
    if isinstance(d, AdmissionSelect):
        failing = replace(extra, governed="late failure")
        for added in (extra, failing):
            assert shape(admit(CAP, OPERATION_ID, durable, (*cands, added))) == shape(d)


@given(candidate_lists(), durables())
def test_trace_is_a_prefix_with_the_stages_that_ran(
    cands: list[AdmissionCandidate], durable: DurableAdmission | None
) -> None:
    """SCOPE-ADMIT-8: the trace lists a prefix of the candidates, each with an in-order stage
    prefix."""
    d = admit(CAP, OPERATION_ID, durable, tuple(cands))
    for entry, c in zip(d.trace, cands, strict=False):
        assert entry.index == c.index
        assert entry.ran == ALL[: len(entry.ran)]
        assert (entry.ran == ()) == (not _permitted(c, durable, cands))


@given(st.lists(candidates(), min_size=1, max_size=4))
def test_without_durable_the_fallback_never_appears(cands: list[AdmissionCandidate]) -> None:
    """SCOPE-ADMIT-7: without a durable admission something is always recorded, so no fallback."""
    d = admit(CAP, OPERATION_ID, None, tuple(cands))
    assert not (isinstance(d, AdmissionDeny) and d.stage is AdmissionStage.DURABLE)


def _naive(cands: list[AdmissionCandidate], durable: DurableAdmission | None) -> tuple[object, ...]:
    """The seed's bullets restated over precomputed per-candidate verdicts (independent shape)."""
    verdicts: list[tuple[str, str]] = []
    for c in cands:
        if not _permitted(c, durable, cands):
            verdicts.append(("skip", ""))
        elif c.governed is not None:
            verdicts.append(("governed", c.governed))
        elif c.guard is not None:
            verdicts.append(("guard", c.guard))
        elif not c.runtime.allowed:
            reason = c.runtime.reason
            verdicts.append(
                ("return-runtime", "runtime admission denied" if reason is None else reason)
            )
        else:
            kind = c.budget.kind.value
            if kind == "exhausted":
                verdicts.append(("exhausted" if c.budget.released else "return-budget", EXHAUSTED))
            elif kind == "error":
                verdicts.append(("return-budget", c.budget.message))
            else:
                verdicts.append((kind, ""))
    stops = [
        i
        for i, (v, _) in enumerate(verdicts)
        if v.startswith("return") or v in ("authorized", "pending")
    ]
    end = stops[0] + 1 if stops else len(cands)
    ran = {
        "skip": (),
        "governed": (G,),
        "guard": (G, U),
        "return-runtime": (G, U, R),
    }
    trace = tuple(
        (c.index, ran.get(v, ALL)) for c, (v, _) in zip(cands[:end], verdicts[:end], strict=True)
    )
    if stops:
        verdict, message = verdicts[stops[0]]
        index = cands[stops[0]].index
        if verdict == "authorized":
            return ("select", index, trace)
        if verdict == "pending":
            return ("pending", index, trace)
        return ("deny", R if verdict == "return-runtime" else B, message, trace)
    seen = [v for v, _ in verdicts]
    first = dict(reversed(verdicts))
    if "exhausted" in seen:
        return ("deny", B, EXHAUSTED, trace)
    if "guard" in seen:
        return ("deny", U, first["guard"], trace)
    if "governed" in seen:
        return ("deny", G, first["governed"], trace)
    return ("deny", AdmissionStage.DURABLE, FALLBACK, trace)


@given(candidate_lists(max_size=6), durables())
def test_loop_agrees_with_a_naive_restatement(
    cands: list[AdmissionCandidate], durable: DurableAdmission | None
) -> None:
    """SCOPE-ADMIT-4, SCOPE-ADMIT-7: admit equals the seed's bullets restated per candidate."""
    assert shape(admit(CAP, OPERATION_ID, durable, tuple(cands))) == _naive(cands, durable)


@pytest.mark.slow
@settings(max_examples=1000)
@given(candidate_lists(max_size=7), durables())
def test_loop_agrees_with_a_naive_restatement_long(
    cands: list[AdmissionCandidate], durable: DurableAdmission | None
) -> None:
    """SCOPE-ADMIT-7: the naive restatement agrees on a longer run (make slow)."""
    assert shape(admit(CAP, OPERATION_ID, durable, tuple(cands))) == _naive(cands, durable)


# -- backbay-labs/chio kernel tests re-expressed on the loop (tests/guard_pipeline.rs, budget.rs)
# Each upstream test drives the whole kernel; what is re-expressed is the admission-loop part.


def test_guard_denies_request() -> None:
    """SCOPE-ADMIT-7: a lone candidate whose guard denies is denied with the guard's text."""
    msg = 'guard denied the request: guard "deny-all" denied the request'
    d = run(cand(0, guard=msg))
    assert isinstance(d, AdmissionDeny)
    assert "deny-all" in d.message


def test_guard_error_treated_as_deny() -> None:
    """SCOPE-ADMIT-5: a guard error is a guard denial (fail-closed), not a pass."""
    msg = 'guard denied the request: guard "broken" error (fail-closed): guard crashed'
    d = run(cand(0, guard=msg))
    assert isinstance(d, AdmissionDeny)
    assert "fail-closed" in d.message


def test_unlimited_grant_guard_denial_does_not_reverse_budget_store() -> None:
    """SCOPE-ADMIT-4: guards run before the budget, so a guard denial never reaches the budget."""
    d = run(cand(0, guard="deny-all", budget="error", message="never reached"))
    assert [e.ran for e in d.trace] == [(G, U)]


def test_monetary_guard_denial_releases_budget_and_records_attempted_cost() -> None:
    """SCOPE-ADMIT-4: a guard denial on a capped grant moves no money: no budget stage ran."""
    d = run(cand(0, per_call=100, total=100, guard="deny-once", budget="authorized"))
    assert isinstance(d, AdmissionDeny)
    assert d.stage is AdmissionStage.GUARD
    assert B not in d.trace[0].ran


def test_matched_grant_index_populated_in_guard_context() -> None:
    """SCOPE-ADMIT-1: the stages run per candidate with its own grant index (here index 1)."""
    d = run(cand(1))
    assert isinstance(d, AdmissionSelect)
    assert d.trace[0].index == d.index == 1


def test_budget_exhaustion() -> None:
    """SCOPE-ADMIT-5: an exhausted budget denies with a reason naming the budget."""
    d = run(cand(0, budget="exhausted"))
    assert isinstance(d, AdmissionDeny)
    assert "budget" in d.message


def _json_candidate(index: int, budget: dict[str, object], **caps: object) -> dict[str, object]:
    return {
        "index": index,
        "max_cost_per_invocation": caps.get("per_call"),
        "max_total_cost": caps.get("total"),
        "governed": None,
        "guard": None,
        "runtime": {"allowed": True},
        "budget": budget,
    }


def _admit_json(*candidates: object, durable: object = None) -> dict[str, object]:
    from typing import cast

    from mcp_touchstone.harness._scope_admission import op_admit
    from mcp_touchstone.serde_json import JSON

    raw = {
        "cap_id": "cap-1",
        "operation_id": "op-1",
        "durable": durable,
        "candidates": list(candidates),
    }
    return dict(op_admit(cast("JSON", raw)))


def test_admit_null_released_is_the_default_true() -> None:
    """SCOPE-ADMIT-8: ``released: null`` on an exhausted budget is released, so the loop
    continues."""
    out = _admit_json(
        _json_candidate(0, {"outcome": "exhausted", "released": None}),
        _json_candidate(1, {"outcome": "authorized"}),
    )
    assert out["decision"] == "select"
    assert out["index"] == 1


def test_admit_null_requires_payment_uses_the_kernel_rule() -> None:
    """SCOPE-ADMIT-8: ``requires_payment: null`` derives the requirement from every candidate's
    caps."""
    out = _admit_json(
        _json_candidate(0, {"outcome": "authorized"}, total=10),
        _json_candidate(1, {"outcome": "authorized"}, per_call=5),
        durable={"recorded_hold_id": None, "requires_payment": None},
    )
    assert out == {
        "decision": "select",
        "index": 1,
        "trace": [
            {"index": 0, "ran": []},
            {"index": 1, "ran": ["governed", "guard", "runtime", "budget"]},
        ],
    }


def test_admit_null_message_is_none() -> None:
    """SCOPE-ADMIT-8: ``message: null`` is no message: fine for an authorized outcome, an
    ``invalid_input`` error for an error outcome."""
    assert (
        _admit_json(_json_candidate(0, {"outcome": "authorized", "message": None}))["decision"]
        == "select"
    )
    err = _admit_json(_json_candidate(0, {"outcome": "error", "message": None}))
    assert isinstance(err["error"], dict)
    assert err["error"]["kind"] == "invalid_input"
