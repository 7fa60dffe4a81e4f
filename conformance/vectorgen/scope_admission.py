"""Vectors for ``scope.admit``: the hosted admission loop over ranked candidates.

Length: this module is long because it is a table of hand-stated vectors (the formatter puts
each field of a case on its own line); splitting it would scatter one operation's cases.

Two files:

* ``scope/admit.json``: hand-written cases. Each expected answer is stated by hand from seed 003
  ("Ranking and fallback"), ``shared/reference/chio.md`` §6 (its worked cases in §6.6) and
  backbay-labs/chio ``async_evaluation_core.rs`` @ ``feedb5a7``.
* ``scope/admit_matrix.json``: a systematic enumeration of per-candidate outcome classes (every
  pair, and every triple whose first two candidates continue). Its expected answers come from
  ``_CLASS_TABLE`` and ``_expect`` below: a table written straight from the seed's bullets (what
  each outcome does, which stages ran, the final precedence). It is independent of
  ``mcp_touchstone`` and is not imported from it. Stages the loop must not reach carry "poison"
  outcomes, which would change the answer if an implementation read them.
"""

from __future__ import annotations

from typing import Any

from conformance.vectorgen._common import envelope, vector

__all__ = ["files"]

_SOURCE = {
    "name": "Chio hosted kernel admission loop (backbay-labs/chio async_evaluation_core.rs)",
    "version": "feedb5a7d0fc0833323e045f87977f080deb5c6a (permits_matching_grant a2ff5292)",
    "reference": "seed 003_b6aa25f0d73b50e9 (Ranking and fallback); shared/reference/chio.md §6",
}
CAP = "cap-1"
OP = "op-1"
EXHAUSTED = f"invocation budget exhausted for capability {CAP}"
FALLBACK = "durable admission failed: retained budget hold does not identify a matching grant"
ALL = ["governed", "guard", "runtime", "budget"]

Json = Any


def _cand(
    index: int,
    *,
    per_call: int | None = None,
    total: int | None = None,
    governed: str | None = None,
    guard: str | None = None,
    runtime: Json = None,
    budget: Json = None,
) -> dict[str, Json]:
    return {
        "index": index,
        "max_cost_per_invocation": per_call,
        "max_total_cost": total,
        "governed": governed,
        "guard": guard,
        "runtime": {"allowed": True} if runtime is None else runtime,
        "budget": {"outcome": "authorized"} if budget is None else budget,
    }


def _input(*cands: Json, durable: Json = None, cap: str = CAP) -> dict[str, Json]:
    return {"cap_id": cap, "operation_id": OP, "durable": durable, "candidates": list(cands)}


def _select(index: int, trace: list[Json]) -> dict[str, Json]:
    return {"decision": "select", "index": index, "trace": trace}


def _pending(index: int, trace: list[Json]) -> dict[str, Json]:
    return {"decision": "pending", "index": index, "trace": trace}


def _deny(stage: str, message: str, trace: list[Json]) -> dict[str, Json]:
    return {"decision": "deny", "stage": stage, "message": message, "trace": trace}


def _t(index: int, ran: list[str]) -> dict[str, Json]:
    return {"index": index, "ran": ran}


def _invalid() -> dict[str, Json]:
    return {"error": {"kind": "invalid_input", "message": ""}}


_NOTES = {
    "branch": {
        "bugType": "BASIC",
        "description": "Each stage outcome continues or returns exactly as the seed states.",
    },
    "precedence": {
        "bugType": "EDGE_CASE",
        "description": "With no selection: budget error > guard denial > governed error > the "
        "retained-hold fallback; governed and guard records keep the first.",
    },
    "durable": {
        "bugType": "FAIL_CLOSED",
        "description": "permits_matching_grant skips candidates the recorded hold does not name or "
        "whose caps do not fit the payment requirement; skipped candidates record nothing.",
    },
    "payment": {
        "bugType": "QUIRK",
        "description": "The payment rule: payment needs a non-zero per-invocation cap, no payment "
        "needs no cap at all; derived as 'every candidate carries a cap' when not given, so a "
        "later candidate changes which earlier ones are permitted.",
    },
    "message": {
        "bugType": "KNOWN_ANSWER",
        "description": "Exact texts: the exhausted message, the runtime default, an empty reason "
        "kept, the retained-hold fallback.",
    },
    "seed": {
        "bugType": "QUIRK",
        "description": "Where the code differs from the seed (pending with a retained "
        "reservation) the seed is followed: pending returns on its candidate.",
    },
    "trace": {
        "bugType": "EDGE_CASE",
        "description": "The trace lists every visited candidate with the stages that ran, skipped "
        "ones with ran [], and nothing after the candidate that ended the loop.",
    },
    "malformed": {
        "bugType": "MALFORMED_INPUT",
        "description": "Input outside the pinned shape is invalid_input, never a decision.",
    },
}


def _vec(  # noqa: PLR0917 (a vector is one row of six fields; keywords would bloat every table)
    vid: str,
    comment: str,
    rules: list[str],
    flags: list[str],
    inp: Json,
    expected: Json,
    origin: str = "seed",
) -> dict[str, Json]:
    return vector(f"scope-admit-{vid}", comment, rules, flags, inp, expected, origin)


def _worked() -> list[dict[str, Json]]:
    """chio.md §6.6, case by case (A, B, C = indices 4, 1, 7, most specific first)."""
    a, b, c = 4, 1, 7
    ga = 'guard denied the request: guard "fs" denied the request'
    gb = 'guard denied the request: guard "net" error (fail-closed): timeout'
    gov = "governed transaction denied: intent missing"
    origin = "upstream-test:chio.md-6.6"
    rows = [
        (
            "worked-guard-beats-governed",
            "A guard deny, B and C governed errors: the guard denial decides.",
            [_cand(a, guard=ga), _cand(b, governed=gov), _cand(c, governed=gov + " 2")],
            _deny("guard", ga, [_t(a, ALL[:2]), _t(b, ALL[:1]), _t(c, ALL[:1])]),
        ),
        (
            "worked-budget-beats-guard",
            "A guard deny, B exhausted with the reservation released: the budget error decides.",
            [_cand(a, guard=ga), _cand(b, budget={"outcome": "exhausted", "released": True})],
            _deny("budget", EXHAUSTED, [_t(a, ALL[:2]), _t(b, ALL)]),
        ),
        (
            "worked-later-runtime-deny",
            "A guard deny, B runtime deny x: deny x, returned on B; C is never visited.",
            [
                _cand(a, guard=ga),
                _cand(b, runtime={"allowed": False, "reason": "x"}),
                _cand(c),
            ],
            _deny("runtime", "x", [_t(a, ALL[:2]), _t(b, ALL[:3])]),
        ),
        (
            "worked-guard-then-select",
            "A guard deny, B authorized: B is selected.",
            [_cand(a, guard=ga), _cand(b), _cand(c, budget={"outcome": "error", "message": "p"})],
            _select(b, [_t(a, ALL[:2]), _t(b, ALL)]),
        ),
        (
            "worked-exhausted-guard-governed",
            "A exhausted released, B guard deny, C governed err: the exhausted message.",
            [
                _cand(a, budget={"outcome": "exhausted"}),
                _cand(b, guard=gb),
                _cand(c, governed=gov),
            ],
            _deny("budget", EXHAUSTED, [_t(a, ALL), _t(b, ALL[:2]), _t(c, ALL[:1])]),
        ),
        (
            "worked-exhausted-retained",
            "A exhausted without a confirmed release: deny with the exhausted text; "
            "B is never tried.",
            [_cand(a, budget={"outcome": "exhausted", "released": False}), _cand(b)],
            _deny("budget", EXHAUSTED, [_t(a, ALL)]),
        ),
        (
            "worked-governed-then-guard",
            "A governed err, B guard deny: the guard denial outranks the governed error.",
            [_cand(a, governed=gov), _cand(b, guard=gb)],
            _deny("guard", gb, [_t(a, ALL[:1]), _t(b, ALL[:2])]),
        ),
        (
            "worked-governed-first-wins",
            "A governed err e1, B governed err e2: e1 is kept.",
            [_cand(a, governed="e1"), _cand(b, governed="e2")],
            _deny("governed", "e1", [_t(a, ALL[:1]), _t(b, ALL[:1])]),
        ),
        (
            "worked-pending",
            "A pending: a pending-approval outcome on A, not a deny.",
            [_cand(a, budget={"outcome": "pending"}), _cand(b)],
            _pending(a, [_t(a, ALL)]),
        ),
        (
            "worked-runtime-no-reason",
            "A runtime deny without a reason: runtime admission denied.",
            [_cand(a, runtime={"allowed": False}), _cand(b)],
            _deny("runtime", "runtime admission denied", [_t(a, ALL[:3])]),
        ),
        (
            "worked-budget-store-error",
            "A budget store error s: deny s, returned on A.",
            [_cand(a, budget={"outcome": "error", "message": "budget store error: s"}), _cand(b)],
            _deny("budget", "budget store error: s", [_t(a, ALL)]),
        ),
    ]
    out = [
        _vec(
            vid,
            comment,
            ["SCOPE-ADMIT-5", "SCOPE-ADMIT-6", "SCOPE-ADMIT-7"],
            ["branch", "precedence"],
            _input(*cands),
            exp,
            origin,
        )
        for vid, comment, cands, exp in rows
    ]
    out.append(
        _vec(
            "worked-all-rejected",
            "Every candidate rejected by permits_matching_grant: the retained-hold fallback.",
            ["SCOPE-ADMIT-2", "SCOPE-ADMIT-7"],
            ["durable", "message"],
            _input(_cand(a), _cand(b), durable={"recorded_hold_id": f"admission-budget:{OP}:9"}),
            _deny("durable", FALLBACK, [_t(a, []), _t(b, [])]),
            origin,
        )
    )
    out.append(
        _vec(
            "worked-hold-names-two",
            "The hold names index 2 and candidates are 0, 1, 2: only candidate 2 is evaluated.",
            ["SCOPE-ADMIT-2"],
            ["durable", "trace"],
            _input(
                _cand(0, budget={"outcome": "error", "message": "p0"}),
                _cand(1, governed="p1"),
                _cand(2),
                durable={"recorded_hold_id": f"admission-budget:{OP}:2", "requires_payment": False},
            ),
            _select(2, [_t(0, []), _t(1, []), _t(2, ALL)]),
            origin,
        )
    )
    return out


def _texts() -> list[dict[str, Json]]:
    """The exact texts (SCOPE-ADMIT-5, SCOPE-ADMIT-6)."""
    rt = ["SCOPE-ADMIT-6"]
    rows: list[tuple[str, str, list[str], list[str], Json, Json]] = [
        (
            "runtime-reason-absent",
            "A runtime deny with no reason key reads runtime admission denied.",
            rt,
            ["message"],
            _input(_cand(0, runtime={"allowed": False})),
            _deny("runtime", "runtime admission denied", [_t(0, ALL[:3])]),
        ),
        (
            "runtime-reason-null",
            "A null reason is no reason: runtime admission denied.",
            rt,
            ["message"],
            _input(_cand(0, runtime={"allowed": False, "reason": None})),
            _deny("runtime", "runtime admission denied", [_t(0, ALL[:3])]),
        ),
        (
            "runtime-reason-empty-kept",
            "An empty reason is a reason: the deny message is the empty string.",
            rt,
            ["message"],
            _input(_cand(0, runtime={"allowed": False, "reason": ""})),
            _deny("runtime", "", [_t(0, ALL[:3])]),
        ),
        (
            "runtime-reason-text",
            "The hook's reason is the deny message verbatim.",
            rt,
            ["message"],
            _input(_cand(0, runtime={"allowed": False, "reason": "tenant quota: no slots"})),
            _deny("runtime", "tenant quota: no slots", [_t(0, ALL[:3])]),
        ),
        (
            "runtime-allowed-reason-ignored",
            "An allowed runtime answer's reason is not read; the budget then selects.",
            rt,
            ["branch"],
            _input(_cand(0, runtime={"allowed": True, "reason": "note"})),
            _select(0, [_t(0, ALL)]),
        ),
        (
            "exhausted-names-cap",
            "The exhausted message names the capability id given.",
            ["SCOPE-ADMIT-5"],
            ["message"],
            _input(_cand(3, budget={"outcome": "exhausted"}), cap="cap-Zz 9"),
            _deny("budget", "invocation budget exhausted for capability cap-Zz 9", [_t(3, ALL)]),
        ),
        (
            "exhausted-empty-cap",
            "An empty capability id leaves a trailing space in the exhausted message.",
            ["SCOPE-ADMIT-5"],
            ["message"],
            _input(_cand(0, budget={"outcome": "exhausted", "released": False}), cap=""),
            _deny("budget", "invocation budget exhausted for capability ", [_t(0, ALL)]),
        ),
        (
            "exhausted-message-ignored",
            "An exhausted outcome's message field is not the deny text; the exhausted text is.",
            ["SCOPE-ADMIT-5"],
            ["message"],
            _input(_cand(0, budget={"outcome": "exhausted", "message": "other"})),
            _deny("budget", EXHAUSTED, [_t(0, ALL)]),
        ),
        (
            "exhausted-twice",
            "Two exhausted candidates: the same exhausted text, both visited.",
            ["SCOPE-ADMIT-5", "SCOPE-ADMIT-7"],
            ["precedence"],
            _input(
                _cand(0, budget={"outcome": "exhausted"}), _cand(1, budget={"outcome": "exhausted"})
            ),
            _deny("budget", EXHAUSTED, [_t(0, ALL), _t(1, ALL)]),
        ),
        (
            "error-empty-message",
            "A budget error with an empty message returns the empty message.",
            rt,
            ["message"],
            _input(_cand(0, budget={"outcome": "error", "message": ""}), _cand(1)),
            _deny("budget", "", [_t(0, ALL)]),
        ),
        (
            "error-cumulative-text",
            "A cumulative budget error returns on its candidate, whatever follows.",
            rt,
            ["branch"],
            _input(
                _cand(
                    0,
                    budget={
                        "outcome": "error",
                        "message": "governed transaction denied: "
                        "cumulative approval budgets were not negotiated",
                    },
                ),
                _cand(1),
            ),
            _deny(
                "budget",
                "governed transaction denied: cumulative approval budgets were not negotiated",
                [_t(0, ALL)],
            ),
        ),
        (
            "pending-retained-seed",
            "Pending with an unconfirmed release: the seed returns pending (the code would deny).",
            ["SCOPE-ADMIT-6", "SCOPE-ADMIT-9"],
            ["seed"],
            _input(_cand(5, budget={"outcome": "pending", "released": False}), _cand(1)),
            _pending(5, [_t(5, ALL)]),
        ),
        (
            "pending-after-guard",
            "A guard denial then a pending candidate: pending on the second.",
            ["SCOPE-ADMIT-6"],
            ["branch"],
            _input(_cand(0, guard="g"), _cand(1, budget={"outcome": "pending"})),
            _pending(1, [_t(0, ALL[:2]), _t(1, ALL)]),
        ),
        (
            "guard-empty-message",
            "An empty guard message is still a denial and is kept as the deny text.",
            ["SCOPE-ADMIT-5", "SCOPE-ADMIT-7"],
            ["message"],
            _input(_cand(0, guard="")),
            _deny("guard", "", [_t(0, ALL[:2])]),
        ),
        (
            "governed-empty-message",
            "An empty governed message is still an error and is kept as the deny text.",
            ["SCOPE-ADMIT-5", "SCOPE-ADMIT-7"],
            ["message"],
            _input(_cand(0, governed=""), _cand(1, governed="later")),
            _deny("governed", "", [_t(0, ALL[:1]), _t(1, ALL[:1])]),
        ),
        (
            "guard-empty-first-wins",
            "A first empty guard denial still wins over a later one.",
            ["SCOPE-ADMIT-7"],
            ["precedence"],
            _input(_cand(0, guard=""), _cand(1, guard="second")),
            _deny("guard", "", [_t(0, ALL[:2]), _t(1, ALL[:2])]),
        ),
        (
            "duplicate-index",
            "Candidates are taken as given; a repeated index is visited twice.",
            ["SCOPE-ADMIT-8"],
            ["trace"],
            _input(_cand(2, governed="g"), _cand(2)),
            _select(2, [_t(2, ALL[:1]), _t(2, ALL)]),
        ),
    ]
    return [_vec(*row) for row in rows]


def _durable() -> list[dict[str, Json]]:
    """permits_matching_grant and the payment rule (SCOPE-ADMIT-2, SCOPE-ADMIT-3)."""
    hold = f"admission-budget:{OP}:"
    rows: list[tuple[str, str, list[str], list[str], Json, Json]] = []

    def add(  # noqa: PLR0917 (one table row per call, as _vec)
        vid: str, comment: str, rules: list[str], flags: list[str], inp: Json, exp: Json
    ) -> None:
        rows.append((vid, comment, rules, flags, inp, exp))

    d2, d3 = ["SCOPE-ADMIT-2"], ["SCOPE-ADMIT-3"]
    add(
        "hold-foreign-operation",
        "A hold for another operation names no candidate: all skipped.",
        d2,
        ["durable"],
        _input(
            _cand(0),
            durable={"recorded_hold_id": "admission-budget:op-2:0", "requires_payment": False},
        ),
        _deny("durable", FALLBACK, [_t(0, [])]),
    )
    add(
        "hold-padded-index",
        "The hold id is compared as a string: index 01 is not index 1.",
        d2,
        ["durable"],
        _input(_cand(1), durable={"recorded_hold_id": hold + "01", "requires_payment": False}),
        _deny("durable", FALLBACK, [_t(1, [])]),
    )
    add(
        "hold-case-sensitive",
        "The hold id is compared exactly, case included.",
        d2,
        ["durable"],
        _input(
            _cand(0),
            durable={"recorded_hold_id": "Admission-budget:op-1:0", "requires_payment": False},
        ),
        _deny("durable", FALLBACK, [_t(0, [])]),
    )
    add(
        "hold-empty-string",
        "An empty recorded hold id is a recorded hold naming nothing.",
        d2,
        ["durable"],
        _input(_cand(0), durable={"recorded_hold_id": "", "requires_payment": False}),
        _deny("durable", FALLBACK, [_t(0, [])]),
    )
    add(
        "hold-names-later",
        "The hold names the second candidate: the first is skipped unread.",
        d2,
        ["durable", "trace"],
        _input(
            _cand(3, runtime={"allowed": False, "reason": "poison"}),
            _cand(8),
            durable={"recorded_hold_id": hold + "8", "requires_payment": False},
        ),
        _select(8, [_t(3, []), _t(8, ALL)]),
    )
    add(
        "hold-then-governed",
        "The named candidate fails governed: the governed error, not the fallback.",
        d2,
        ["durable", "precedence"],
        _input(
            _cand(0),
            _cand(1, governed="gov"),
            durable={"recorded_hold_id": hold + "1", "requires_payment": False},
        ),
        _deny("governed", "gov", [_t(0, []), _t(1, ALL[:1])]),
    )
    add(
        "fresh-durable-filters-payment",
        "A fresh durable admission (no hold) still applies the payment rule.",
        d2 + d3,
        ["durable", "payment"],
        _input(
            _cand(0, per_call=5),
            _cand(1),
            durable={"recorded_hold_id": None, "requires_payment": False},
        ),
        _select(1, [_t(0, []), _t(1, ALL)]),
    )
    add(
        "no-durable-no-filter",
        "Without a durable admission capped and uncapped grants are both candidates.",
        d2,
        ["durable"],
        _input(_cand(0, per_call=0, total=9), _cand(1)),
        _select(0, [_t(0, ALL)]),
    )
    add(
        "pay-required-per-call",
        "Payment required and a non-zero per-invocation cap: permitted.",
        d3,
        ["payment"],
        _input(_cand(0, per_call=1), durable={"recorded_hold_id": None, "requires_payment": True}),
        _select(0, [_t(0, ALL)]),
    )
    add(
        "pay-required-zero-units",
        "Payment required and a zero-unit per-invocation cap: skipped.",
        d3,
        ["payment"],
        _input(
            _cand(0, per_call=0, total=50),
            durable={"recorded_hold_id": None, "requires_payment": True},
        ),
        _deny("durable", FALLBACK, [_t(0, [])]),
    )
    add(
        "pay-required-total-only",
        "Payment required and only a total cap: skipped.",
        d3,
        ["payment"],
        _input(_cand(0, total=50), durable={"recorded_hold_id": None, "requires_payment": True}),
        _deny("durable", FALLBACK, [_t(0, [])]),
    )
    add(
        "pay-required-uncapped",
        "Payment required and no cap at all: skipped.",
        d3,
        ["payment"],
        _input(_cand(0), durable={"recorded_hold_id": None, "requires_payment": True}),
        _deny("durable", FALLBACK, [_t(0, [])]),
    )
    add(
        "pay-required-both-caps",
        "Payment required, both caps present: permitted.",
        d3,
        ["payment"],
        _input(
            _cand(0, per_call=2, total=4),
            durable={"recorded_hold_id": None, "requires_payment": True},
        ),
        _select(0, [_t(0, ALL)]),
    )
    add(
        "no-pay-total-cap",
        "No payment and a total cap: skipped.",
        d3,
        ["payment"],
        _input(_cand(0, total=1), durable={"recorded_hold_id": None, "requires_payment": False}),
        _deny("durable", FALLBACK, [_t(0, [])]),
    )
    add(
        "no-pay-zero-per-call",
        "No payment and a zero-unit per-invocation cap: still a cap, skipped.",
        d3,
        ["payment"],
        _input(_cand(0, per_call=0), durable={"recorded_hold_id": None, "requires_payment": False}),
        _deny("durable", FALLBACK, [_t(0, [])]),
    )
    add(
        "derived-all-capped",
        "Derived: every candidate capped, payment required; the total-only one is skipped.",
        d3,
        ["payment"],
        _input(_cand(0, total=9), _cand(1, per_call=2), durable={"recorded_hold_id": None}),
        _select(1, [_t(0, []), _t(1, ALL)]),
    )
    add(
        "derived-zero-counts-as-cap",
        "Derived: a zero-unit cap counts as carried, so payment is required and it is skipped.",
        d3,
        ["payment"],
        _input(_cand(0, per_call=0), _cand(1, per_call=3), durable={"recorded_hold_id": None}),
        _select(1, [_t(0, []), _t(1, ALL)]),
    )
    add(
        "derived-one-free",
        "Derived: one uncapped candidate, payment not required; capped ones are skipped.",
        d3,
        ["payment"],
        _input(_cand(0, per_call=2), _cand(1), durable={"recorded_hold_id": None}),
        _select(1, [_t(0, []), _t(1, ALL)]),
    )
    add(
        "derived-all-free",
        "Derived: no candidate capped, payment not required, all permitted.",
        d3,
        ["payment"],
        _input(_cand(0), _cand(1), durable={"recorded_hold_id": None}),
        _select(0, [_t(0, ALL)]),
    )
    add(
        "derived-single-capped",
        "Derived: a lone per-call capped candidate requires payment and is permitted.",
        d3,
        ["payment"],
        _input(_cand(0, per_call=2), durable={"recorded_hold_id": None}),
        _select(0, [_t(0, ALL)]),
    )
    add(
        "derived-later-candidate-changes-first",
        "Derived: an uncapped candidate after a capped one turns payment off, "
        "so the capped one is skipped.",
        d3,
        ["payment", "trace"],
        _input(
            _cand(0, per_call=2),
            _cand(1, budget={"outcome": "error", "message": "late"}),
            durable={"recorded_hold_id": None},
        ),
        _deny("budget", "late", [_t(0, []), _t(1, ALL)]),
    )
    add(
        "derived-with-hold",
        "Derived payment and a hold: both checks apply.",
        d2 + d3,
        ["durable", "payment"],
        _input(
            _cand(0, per_call=2),
            _cand(1, total=3),
            _cand(2, per_call=4),
            durable={"recorded_hold_id": hold + "1"},
        ),
        _deny("durable", FALLBACK, [_t(0, []), _t(1, []), _t(2, [])]),
    )
    add(
        "explicit-overrides-derivation",
        "An explicit requires_payment false wins over the derived true.",
        d3,
        ["payment"],
        _input(_cand(0, per_call=2), durable={"recorded_hold_id": None, "requires_payment": False}),
        _deny("durable", FALLBACK, [_t(0, [])]),
    )
    return [_vec(*row) for row in rows]


def _malformed() -> list[dict[str, Json]]:
    """Inputs outside the pinned shape (SCOPE-ADMIT-8)."""
    ok = _cand(0)
    cases: list[tuple[str, Json]] = [
        ("not-object", [ok]),
        ("null", None),
        ("missing-cap-id", {"operation_id": OP, "durable": None, "candidates": [ok]}),
        ("missing-operation-id", {"cap_id": CAP, "durable": None, "candidates": [ok]}),
        ("missing-durable", {"cap_id": CAP, "operation_id": OP, "candidates": [ok]}),
        ("missing-candidates", {"cap_id": CAP, "operation_id": OP, "durable": None}),
        ("cap-id-number", {**_input(ok), "cap_id": 1}),
        ("candidates-empty", _input()),
        ("candidates-object", {**_input(ok), "candidates": ok}),
        ("candidate-null", _input(None)),
        ("index-negative", _input({**ok, "index": -1})),
        ("index-bool", _input({**ok, "index": True})),
        ("index-float", _input({**ok, "index": 1.0})),
        ("index-string", _input({**ok, "index": "0"})),
        ("cost-negative", _input({**ok, "max_cost_per_invocation": -5})),
        ("cost-float", _input({**ok, "max_total_cost": 2.5})),
        ("cost-object", _input({**ok, "max_cost_per_invocation": {"units": 5, "currency": "USD"}})),
        ("missing-max-total-cost", _input({k: v for k, v in ok.items() if k != "max_total_cost"})),
        ("missing-governed", _input({k: v for k, v in ok.items() if k != "governed"})),
        ("missing-guard", _input({k: v for k, v in ok.items() if k != "guard"})),
        ("governed-number", _input({**ok, "governed": 3})),
        ("guard-bool", _input({**ok, "guard": False})),
        ("missing-runtime", _input({k: v for k, v in ok.items() if k != "runtime"})),
        ("runtime-missing-allowed", _input({**ok, "runtime": {"reason": "x"}})),
        ("runtime-allowed-string", _input({**ok, "runtime": {"allowed": "false"}})),
        ("runtime-reason-number", _input({**ok, "runtime": {"allowed": False, "reason": 7}})),
        ("missing-budget", _input({k: v for k, v in ok.items() if k != "budget"})),
        ("budget-unknown-outcome", _input({**ok, "budget": {"outcome": "denied"}})),
        ("budget-outcome-case", _input({**ok, "budget": {"outcome": "Authorized"}})),
        ("budget-error-no-message", _input({**ok, "budget": {"outcome": "error"}})),
        ("budget-message-number", _input({**ok, "budget": {"outcome": "error", "message": 5}})),
        (
            "budget-released-string",
            _input({**ok, "budget": {"outcome": "exhausted", "released": "no"}}),
        ),
        ("durable-string", _input(ok, durable="resume")),
        ("durable-missing-hold", _input(ok, durable={"requires_payment": True})),
        ("durable-hold-number", _input(ok, durable={"recorded_hold_id": 0})),
        (
            "durable-payment-string",
            _input(ok, durable={"recorded_hold_id": None, "requires_payment": "yes"}),
        ),
        ("second-candidate-bad", _input(ok, {**ok, "index": -2})),
    ]
    return [
        _vec(
            f"bad-{vid}",
            f"Malformed input ({vid.replace('-', ' ')}) is invalid_input.",
            ["SCOPE-ADMIT-8"],
            ["malformed"],
            inp,
            _invalid(),
            "handwritten",
        )
        for vid, inp in cases
    ] + _null_is_absent()


def _null_is_absent() -> list[dict[str, Json]]:
    """Optional (`?`) fields read as serde's `Option<T>`: `null` is the same as absent
    (SCOPE-ADMIT-8); replaces the retired `bad-budget-released-null` and
    `bad-durable-payment-null`."""
    rows: list[tuple[str, str, Json, Json]] = [
        (
            "null-released-defaults-true",
            "released: null is absent, so the default true: exhausted continues to the next "
            "candidate, which is selected.",
            _input(_cand(0, budget={"outcome": "exhausted", "released": None}), _cand(1)),
            _select(1, [_t(0, ALL), _t(1, ALL)]),
        ),
        (
            "null-requires-payment-derives",
            "requires_payment: null is absent, so the kernel's rule derives it: every candidate "
            "carries a cap, payment is required, the total-only candidate 0 is skipped.",
            _input(
                _cand(0, total=10),
                _cand(1, per_call=5),
                durable={"recorded_hold_id": None, "requires_payment": None},
            ),
            _select(1, [_t(0, []), _t(1, ALL)]),
        ),
        (
            "null-budget-message-ok",
            "message: null on a non-error outcome is absent.",
            _input(_cand(0, budget={"outcome": "authorized", "message": None})),
            _select(0, [_t(0, ALL)]),
        ),
        (
            "null-budget-message-error-invalid",
            "An error outcome needs its message: null is none.",
            _input(_cand(0, budget={"outcome": "error", "message": None})),
            _invalid(),
        ),
    ]
    return [
        _vec(vid, comment, ["SCOPE-ADMIT-8"], ["malformed"], inp, exp, "handwritten")
        for vid, comment, inp, exp in rows
    ]


# -- the enumerated matrix ------------------------------------------------------------------

_POISON_GUARD = "poison: the guard stage must not be consulted"
_POISON_RUNTIME = {"allowed": False, "reason": "poison: the runtime stage must not be consulted"}
_POISON_BUDGET = {"outcome": "error", "message": "poison: the budget stage must not be consulted"}

# class -> (candidate fields, stages that ran, what the seed says the outcome does)
# Outcome kinds: "skip" (durable filter), "cont" (record and continue), "ret" (return a decision).
_CLASS_TABLE: dict[str, tuple[dict[str, Json], list[str], str]] = {
    "skip": (
        {
            "per_call": 5,
            "governed": "poison",
            "guard": _POISON_GUARD,
            "runtime": _POISON_RUNTIME,
            "budget": _POISON_BUDGET,
        },
        [],
        "skip",
    ),
    "gov": (
        {"guard": _POISON_GUARD, "runtime": _POISON_RUNTIME, "budget": _POISON_BUDGET},
        ALL[:1],
        "cont",
    ),
    "guard": ({"runtime": _POISON_RUNTIME, "budget": _POISON_BUDGET}, ALL[:2], "cont"),
    "runtime": ({"budget": _POISON_BUDGET}, ALL[:3], "ret"),
    "select": ({"budget": {"outcome": "authorized"}}, ALL, "ret"),
    "pending": ({"budget": {"outcome": "pending"}}, ALL, "ret"),
    "pendret": ({"budget": {"outcome": "pending", "released": False}}, ALL, "ret"),
    "exh": ({"budget": {"outcome": "exhausted", "released": True}}, ALL, "cont"),
    "exhret": ({"budget": {"outcome": "exhausted", "released": False}}, ALL, "ret"),
    "err": ({}, ALL, "ret"),
}
_CONTINUING = ["skip", "gov", "guard", "exh"]


def _matrix_candidate(cls: str, pos: int, index: int) -> dict[str, Json]:
    fields = dict(_CLASS_TABLE[cls][0])
    if cls == "gov":
        fields["governed"] = f"governed transaction denied: c{pos}"
    if cls == "guard":
        fields["guard"] = f'guard denied the request: guard "g{pos}" denied the request'
    if cls == "runtime":
        fields["runtime"] = {"allowed": False, "reason": f"runtime hook refused c{pos}"}
    if cls == "err":
        fields["budget"] = {"outcome": "error", "message": f"budget store error: c{pos}"}
    return _cand(index, **fields)


def _expect(classes: list[str], indices: list[int], cands: list[dict[str, Json]]) -> Json:
    """The seed's loop, read off the table: which stages ran, continue or return, precedence."""
    budget_err = guard_den = gov_err = None
    trace: list[Json] = []
    for cls, index, cand in zip(classes, indices, cands, strict=True):
        ran, kind = _CLASS_TABLE[cls][1], _CLASS_TABLE[cls][2]
        trace.append(_t(index, ran))
        if kind == "skip":
            continue
        if cls == "gov":
            gov_err = gov_err if gov_err is not None else cand["governed"]
        elif cls == "guard":
            guard_den = guard_den if guard_den is not None else cand["guard"]
        elif cls == "exh":
            budget_err = EXHAUSTED
        elif cls == "runtime":
            return _deny("runtime", cand["runtime"]["reason"], trace)
        elif cls == "select":
            return _select(index, trace)
        elif cls in ("pending", "pendret"):
            return _pending(index, trace)
        elif cls == "exhret":
            return _deny("budget", EXHAUSTED, trace)
        elif cls == "err":
            return _deny("budget", cand["budget"]["message"], trace)
    if budget_err is not None:
        return _deny("budget", budget_err, trace)
    if guard_den is not None:
        return _deny("guard", guard_den, trace)
    if gov_err is not None:
        return _deny("governed", gov_err, trace)
    return _deny("durable", FALLBACK, trace)


_MATRIX_NOTES = {
    "matrix": {
        "bugType": "ORACLE",
        "description": "Every pair of per-candidate outcome classes, and every triple whose first "
        "two continue; expected answers from the generator's seed table, not the reference.",
    },
    "poison": {
        "bugType": "FAIL_CLOSED",
        "description": "Stages the loop must not reach carry outcomes that would change the answer "
        "if read (a skipped candidate's, or those after a governed error or guard denial).",
    },
}


def _matrix() -> list[dict[str, Json]]:
    combos = [[a, b] for a in _CLASS_TABLE for b in _CLASS_TABLE]
    combos += [[a, b, c] for a in _CONTINUING for b in _CONTINUING for c in _CLASS_TABLE]
    out = []
    for classes in combos:
        indices = [1, 0] if len(classes) == 2 else [2, 0, 1]
        cands = [
            _matrix_candidate(cls, pos, i)
            for pos, (cls, i) in enumerate(zip(classes, indices, strict=True))
        ]
        durable = (
            {"recorded_hold_id": None, "requires_payment": False} if "skip" in classes else None
        )
        expected = _expect(classes, indices, cands)
        out.append(
            {
                "id": "scope-admit-mx-" + "-".join(classes),
                "comment": "Candidates in ranked order: " + ", ".join(classes) + ".",
                "rules": [
                    "SCOPE-ADMIT-1",
                    "SCOPE-ADMIT-4",
                    "SCOPE-ADMIT-5",
                    "SCOPE-ADMIT-6",
                    "SCOPE-ADMIT-7",
                ]
                + (["SCOPE-ADMIT-2"] if durable else []),
                "flags": ["matrix", "poison"],
                "origin": "seed",
                "input": _input(*cands, durable=durable),
                "expected": expected,
            }
        )
    return out


def files() -> dict[str, dict[str, Json]]:
    """The two generated files."""
    header = [
        "Generated by conformance/vectorgen/scope_admission.py (make vectors); "
        "do not edit by hand.",
    ]
    return {
        "scope/admit.json": envelope(
            semantic="scope",
            operation="scope.admit",
            title="The hosted admission loop: branches, precedence, durable filter, texts",
            header=[*header, "Expected answers stated by hand from seed 003 and chio.md §6."],
            source=_SOURCE,
            notes=_NOTES,
            tests=_worked() + _texts() + _durable() + _malformed(),
        ),
        "scope/admit_matrix.json": envelope(
            semantic="scope",
            operation="scope.admit",
            title="The hosted admission loop: enumerated stage-outcome combinations",
            header=[
                *header,
                "Expected answers from the generator's own table written from seed 003 (Ranking "
                "and fallback), independent of mcp_touchstone.",
            ],
            source=_SOURCE,
            notes=_MATRIX_NOTES,
            tests=_matrix(),
        ),
    }
