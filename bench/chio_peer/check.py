"""Differential check of Chio's own portable matcher (``chio-peer``) against our reference.

Run: ``.venv/bin/python bench/chio_peer/check.py [--write-baseline]`` (``make chio-peer-check``),
after ``make chio-peer``.  The peer is ``CHIO_PEER`` or ``bench/chio_peer/build/target/release/
chio-peer``.

(a) The scope batch of ``bench/bench_scope_batch.py`` (5,000 cases over every portable-kernel
    scope vector) through both ``touchstone harness`` and the peer: every answer compared as a
    JSON value, except that two ``invalid_input`` errors compare by kind only (their messages are
    serde's on Chio's side and ours on ours: SCOPE-WIRE-2).
(b) ``touchstone run --impl <peer>`` over the shipped vectors (the peer announces only the two
    portable operations, so every other vector is not applicable), first bare, then with the
    expected-failures baseline ``baseline-d2816aa0.json`` beside this file, which must pass.
(c) Five wrong answers planted as ours (:data:`PLANTED`), one per point that needs confirming:
    each must be a finding, or the check itself is too loose.

Every difference is explained by ``explain_all`` below, mechanically from the case's input and
the two answers (a candidate point counts only when the answer the seed's version gives follows
from the peer's and equals ours), or it is reported as a finding (the id, the input and both
answers) and the check exits 1.  The explanations are the four points in which Chio's snapshot
``d2816aa0`` differs from the version the seed describes (the upstream notes' ``chio.md``
§4.10), and two in which this build's Debian serde/serde_json differ from the versions in Chio's
``Cargo.lock`` (not Chio's source, not our reference).
``--write-baseline`` rewrites the baseline from (b)'s failures, each
entry with the reason ``explain_all`` gives (none is written when a failure is unexplained).
"""

from __future__ import annotations

import argparse
import copy
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # bench/, for bench_scope_batch and _common
sys.path.insert(0, str(HERE.parents[1] / "conformance" / "upstream"))

from _harness_check import (  # noqa: E402 -- the shared check, on the path above
    Explain,
    check_vectors,
    finish,
)
from _harness_check import ask as ask_texts  # noqa: E402

from bench_scope_batch import (  # noqa: E402 -- importable only once bench/ is on the path
    batch_lines,
    batch_vectors,
    harness_command,
    peer_binary,
)

BASELINE = HERE / "baseline-d2816aa0.json"

REASONS = {
    "point-1": (
        "seed differs from upstream snapshot: Chio d2816aa0"
        " (chio.md 4.10, point 1): its audience_allowlist and memory_store_allowlist"
        " are lax (non-string values are ignored; a relevant key that yields no string allows),"
        " where the seed's version is strict (4.7), so our reference answers no match"
    ),
    "point-2": (
        "seed differs from upstream snapshot: Chio d2816aa0"
        " (chio.md 4.10, point 2): Constraint has no require_cumulative_approval_above"
        " variant, so serde rejects the scope at decode (unknown variant, invalid_input); in the"
        " seed's version it decodes and the portable matcher refuses it"
    ),
    "point-3": (
        "seed differs from upstream snapshot: Chio d2816aa0"
        " (chio.md 4.10, point 3): Constraint does not deny unknown fields (neither"
        " beside type/value nor inside a struct variant's value), so the extra key is ignored;"
        " the seed's version rejects the scope (invalid_input)"
    ),
    "point-4": (
        "seed differs from upstream snapshot: Chio d2816aa0"
        " (chio.md 4.10, point 4): MonetaryAmount does not deny unknown fields, so"
        " the extra key is ignored; the seed's version rejects the scope (invalid_input)"
    ),
    "build-ryu": (
        "Debian crate version differs: this build, not Chio's source:"
        " Debian's serde_json 1.0.87 formats a float with ryu"
        " (1e16, no '+' in the exponent) where Chio's pinned serde_json 1.0.149 uses zmij"
        " (1e+16, chio.md 4.5), so max_args_size measures one byte less per such float"
    ),
    "build-serde-tag": (
        "Debian crate version differs: this build, not Chio's source:"
        " Debian's serde_derive 1.0.152 reads an adjacent tag as an"
        " identifier (a map tag: 'expected variant identifier'); Chio's pinned serde 1.0.228"
        ' reads it with deserialize_enum, which takes {"max_length": null} (SCOPE-SHAPE-4)'
    ),
}

ALLOWLISTS = {"audience_allowlist", "memory_store_allowlist"}
STRUCT_FIELDS = {
    "require_approval_above": {"threshold_units"},
    "model_constraint": {"allowed_model_ids", "min_safety_tier"},
}
MONEY_FIELDS = {"units", "currency"}
RELEVANT_KEYS = {
    "audience_allowlist": {"recipient", "recipients", "audience", "to", "channel", "channels"},
    "memory_store_allowlist": {"store", "memory_store", "collection", "namespace"},
}


def _strings_strict(value: Any) -> tuple[bool, int]:
    """The seed's strict collector (chio.md 4.7): (valid, strings collected)."""
    if isinstance(value, str):
        return True, 1
    if isinstance(value, list):
        results = [_strings_strict(v) for v in value]
        return all(ok for ok, _ in results), sum(n for _, n in results)
    return False, 0


def _strictly_invalid(arguments: Any, keys: set[str]) -> bool:
    """Whether a relevant key of ``arguments`` holds what only the strict allowlist refuses
    (a non-string, an empty array, an object, a mixed array: chio.md 4.7 against 4.10)."""
    if isinstance(arguments, dict):
        for key, value in arguments.items():
            if key.lower() in keys:
                ok, count = _strings_strict(value)
                if not ok or count == 0:
                    return True
            elif _strictly_invalid(value, keys):
                return True
    if isinstance(arguments, list):
        return any(_strictly_invalid(v, keys) for v in arguments)
    return False


def _scope_grants(scope: Any) -> list[Any]:
    """A scope's ``grants`` array as written (empty when it is not one)."""
    grants = scope.get("grants") if isinstance(scope, dict) else None
    return grants if isinstance(grants, list) else []


def _grant_constraints(grant: Any) -> list[dict[str, Any]]:
    """The map-form constraints of one grant, the objects themselves (a rewrite edits them)."""
    listed = grant.get("constraints") if isinstance(grant, dict) else None
    return [c for c in listed if isinstance(c, dict)] if isinstance(listed, list) else []


def _constraints(scope: Any) -> list[dict[str, Any]]:
    return [c for grant in _scope_grants(scope) for c in _grant_constraints(grant)]


def _exponent_count(value: Any) -> int:
    """How many numbers of ``value`` serde_json writes in exponent form with a positive exponent
    (a float of magnitude >= 1e16, or an integer outside i64/u64, which becomes one): each is
    one byte shorter in this build's text (``1e16``) than in Chio's pinned one (``1e+16``)."""
    if isinstance(value, float):
        return int(abs(value) >= 1e16)
    if isinstance(value, int) and not isinstance(value, bool):
        return int(not -(2**63) <= value <= 2**64 - 1)
    if isinstance(value, list):
        return sum(_exponent_count(v) for v in value)
    if isinstance(value, dict):
        return sum(_exponent_count(v) for v in value.values())
    return 0


def _kind(answer: Any) -> str | None:
    error = answer.get("error") if isinstance(answer, dict) else None
    return error.get("kind") if isinstance(error, dict) else None


def same(ours: Any, peer: Any) -> bool:
    """Equal as JSON values; two invalid_input errors compare by kind only (SCOPE-WIRE-2)."""
    return ours == peer or (_kind(ours) == "invalid_input" and _kind(peer) == "invalid_input")


def candidate(case_input: Any, ours: Any, peer: Any) -> str | None:
    """The REASONS key of the one point that could explain why the peer answers ``peer`` where
    our reference answers ``ours`` for ``case_input``, or None.  A candidate is only a claim:
    :func:`explain_all` confirms it (the two points about extra keys are confirmed by the input
    alone: the seed's version rejects such a scope, and invalid_input messages are not
    compared)."""
    scope = case_input.get("scope") if isinstance(case_input, dict) else None
    constraints = _constraints(scope)
    tags: set[str] = {c["type"] for c in constraints if isinstance(c.get("type"), str)}
    peer_message = str((peer.get("error") or {}).get("message", "")) if _kind(peer) else ""
    if (
        _kind(peer) == "invalid_input"
        and "unknown variant `require_cumulative_approval_above`" in peer_message
        and "require_cumulative_approval_above" in tags
    ):
        return "point-2"
    if (
        peer.get("matches")
        and (isinstance(ours.get("matches"), list) or _kind(ours) == "out_of_scope")
        and any(
            _strictly_invalid(case_input.get("arguments"), RELEVANT_KEYS[tag])
            for tag in tags & ALLOWLISTS
        )
    ):
        return "point-1"
    if _kind(ours) == "invalid_input" and _kind(peer) != "invalid_input":
        for grant in _scope_grants(scope):
            for key in ("max_cost_per_invocation", "max_total_cost"):
                money = grant.get(key) if isinstance(grant, dict) else None
                if isinstance(money, dict) and set(money) - MONEY_FIELDS:
                    return "point-4"
        for constraint in constraints:
            if set(constraint) - {"type", "value"}:
                return "point-3"
            fields = STRUCT_FIELDS.get(str(constraint.get("type")))
            value = constraint.get("value")
            if fields is not None and isinstance(value, dict) and set(value) - fields:
                return "point-3"
    if "max_args_size" in tags and _exponent_count(case_input.get("arguments")):
        return "build-ryu"
    if (
        _kind(peer) == "invalid_input"
        and "expected variant identifier" in peer_message
        and any(isinstance(c.get("type"), dict) for c in constraints)
    ):
        return "build-serde-tag"
    return None


def _grants(case_input: Any) -> list[Any]:
    return _scope_grants(case_input.get("scope") if isinstance(case_input, dict) else None)


def _strict_point_1(operation: str, case_input: Any, peer: Any) -> Any:
    """What the seed's version answers where the lax peer answers ``peer`` (matches): the
    peer's matches less each grant with an allowlist constraint the strict collector refuses
    for these arguments (strict only ever refuses more), ``out_of_scope`` for the capability
    operation when none is left."""
    grants = _grants(case_input)
    arguments = case_input.get("arguments")
    kept = []
    for match in peer["matches"]:
        refused = any(
            c.get("type") in ALLOWLISTS and _strictly_invalid(arguments, RELEVANT_KEYS[c["type"]])
            for c in _grant_constraints(grants[match["index"]])
        )
        if not refused:
            kept.append(match)
    if not kept and operation == "scope.resolve_capability_grants":
        return {"error": {"kind": "out_of_scope"}}
    return {"matches": kept}


def _counterfactual(reason: str, case_input: Any) -> Any:
    """The input on which this peer answers what Chio's pinned version answers on
    ``case_input``, for the points whose difference one rewrite undoes."""
    rewritten = copy.deepcopy(case_input)
    shorter = _exponent_count(case_input.get("arguments"))
    for grant in _grants(rewritten):
        for c in _grant_constraints(grant):
            if reason == "point-2" and c.get("type") == "require_cumulative_approval_above":
                # d2816aa0's portable kernel refuses this variant too (scope.rs), by its name.
                c.clear()
                c["type"] = "governed_intent_required"
            elif reason == "build-ryu" and c.get("type") == "max_args_size":
                if isinstance(c.get("value"), int):
                    c["value"] -= shorter  # the peer writes each such float one byte shorter
            elif reason == "build-serde-tag" and isinstance(c.get("type"), dict):
                tag = c["type"]
                if len(tag) == 1 and None in tag.values():
                    c["type"] = next(iter(tag))
    return rewritten


def _restored(reason: str, answer: Any) -> Any:
    """The counterfactual answer with point 2's stand-in variant named back."""
    if reason == "point-2" and _kind(answer) == "constraint_error":
        message = answer["error"]["message"].replace(
            "governed_intent_required", "require_cumulative_approval_above"
        )
        return {"error": {"kind": "constraint_error", "message": message}}
    return answer


def explain_all(peer: str, cases: list[tuple[str, Any, Any, Any]]) -> list[str | None]:
    """For each ``(operation, input, ours, peer's answer)`` that differ, the REASONS key that
    explains the difference, or None (a finding).  A candidate point is confirmed only when the
    answer the seed's version gives follows from the peer's and equals ours: point 1 by removing
    the grants the strict allowlist refuses; points 2, build-ryu and build-serde-tag by asking the
    peer again on the rewritten input (one process for all of them); points 3 and 4 by the
    input (:func:`candidate`)."""
    out: list[str | None] = [None] * len(cases)
    again: list[tuple[int, str]] = []
    for k, (operation, case_input, ours, answer) in enumerate(cases):
        reason = candidate(case_input, ours, answer)
        if reason in ("point-3", "point-4"):
            out[k] = reason
        elif reason == "point-1":
            out[k] = reason if same(ours, _strict_point_1(operation, case_input, answer)) else None
        elif reason is not None:
            again.append((k, reason))
    if again:
        asked = ask(peer, [(cases[k][0], _counterfactual(r, cases[k][1])) for k, r in again])
        for (k, reason), answer in zip(again, asked, strict=True):
            out[k] = reason if same(cases[k][2], _restored(reason, answer)) else None
    return out


def ask(command: str, cases: list[tuple[str, Any]]) -> list[Any]:
    """The ``output`` (or the whole answer line, when it has none) of each case, from one
    process of ``command``."""
    texts = [(operation, json.dumps(value, ensure_ascii=False)) for operation, value in cases]
    return ask_texts([command], texts)


def _output(line: Any) -> Any:
    """A response line's ``output``; an ``errored`` or ``skipped`` line is kept whole, so it
    differs from any answer and is reported as a finding."""
    return line["output"] if isinstance(line, dict) and "output" in line else line


def answers(command: list[str], batch: Path) -> list[Any]:
    """The ``output`` of every run line of ``batch``, in order."""
    with batch.open("rb") as source:
        out = subprocess.run(command, stdin=source, capture_output=True, check=True).stdout
    lines = [json.loads(line) for line in out.splitlines()][1:]  # after the start response
    assert [line.get("seq") for line in lines] == list(range(len(lines))), "answers out of order"
    return [_output(line) for line in lines]


def check_batch(peer: str) -> list[str]:
    """Part (a); returns the findings."""
    vectors = batch_vectors()
    with tempfile.TemporaryDirectory() as tmp:
        batch = Path(tmp) / "batch.ndjson"
        batch.write_text("\n".join(batch_lines()) + "\n", encoding="utf-8")
        ours, theirs = answers(harness_command(), batch), answers([peer], batch)
    assert len(ours) == len(theirs), (len(ours), len(theirs))
    reasons: Counter[str] = Counter()
    distinct: dict[str, set[str]] = {}
    findings = []
    differ = [
        (vectors[seq % len(vectors)], mine, peers)
        for seq, (mine, peers) in enumerate(zip(ours, theirs, strict=True))
        if not same(mine, peers)
    ]
    explained = explain_all(peer, [(v.operation, v.input, m, p) for v, m, p in differ])
    for (vector, mine, peers), reason in zip(differ, explained, strict=True):
        if reason is None:
            findings.append(f"{vector.id}: ours {json.dumps(mine)}; peer {json.dumps(peers)}")
            continue
        reasons[reason] += 1
        distinct.setdefault(reason, set()).add(vector.id)
    differing = sum(reasons.values()) + len(findings)
    print(
        f"(a) batch: {len(ours)} cases over {len(vectors)} vectors;"
        f" {len(ours) - differing} equal, {differing} differ"
    )
    for reason, count in sorted(reasons.items()):
        print(f"    {reason}: {count} cases, {len(distinct[reason])} distinct vectors")
    return sorted(set(findings))


def explain_vectors(peer: str) -> Explain:
    """Part (b)'s explainer: each failing vector's reason key, from its input and the two
    answers (:func:`explain_all`), or None (a finding)."""
    inputs = {v.id: v for v in batch_vectors()}

    def explain(failed: list[dict[str, Any]]) -> list[str | None]:
        known = [r for r in failed if r["verdict"] == "fail" and r["id"] in inputs]
        cases = [
            (inputs[r["id"]].operation, inputs[r["id"]].input, r["expected"], r["actual"])
            for r in known
        ]
        keys = dict(zip((r["id"] for r in known), explain_all(peer, cases), strict=True))
        return [keys.get(r["id"]) for r in failed]

    return explain


def _grant(tool: str, constraints: list[Any] | None = None) -> dict[str, Any]:
    grant: dict[str, Any] = {"server_id": "s", "tool_name": tool, "operations": ["invoke"]}
    return {**grant, "constraints": constraints} if constraints else grant


_CUMULATIVE = {
    "type": "require_cumulative_approval_above",
    "value": {
        "threshold": {"units": 1000, "currency": "USD"},
        "approval_budget_id": "b",
        "approval_budget_epoch": 1,
        "cumulative_approval_root_binding": None,
    },
}
_MATCH_0 = {"matches": [{"index": 0, "specificity": [1, 1, 1]}]}
PLANTED: list[tuple[str, dict[str, Any], Any]] = [
    # point 1: the allowlist grant does not even target the call; a wrong [] from us
    (
        "point-1",
        {
            "scope": {
                "grants": [
                    _grant("other", [{"type": "audience_allowlist", "value": ["a"]}]),
                    _grant("t"),
                ]
            },
            "tool_name": "t",
            "server_id": "s",
            "arguments": {"to": 5},
        },
        {"matches": []},
    ),
    # point 2: a match where the seed's version refuses the target grant's constraint
    (
        "point-2",
        {
            "scope": {"grants": [_grant("t", [_CUMULATIVE])]},
            "tool_name": "t",
            "server_id": "s",
            "arguments": {},
        },
        _MATCH_0,
    ),
    # point 2: a refusal where the refused constraint sits on a grant that does not target
    (
        "point-2",
        {
            "scope": {"grants": [_grant("other", [_CUMULATIVE]), _grant("t")]},
            "tool_name": "t",
            "server_id": "s",
            "arguments": {},
        },
        {
            "error": {
                "kind": "constraint_error",
                "message": "portable kernel cannot safely evaluate "
                "require_cumulative_approval_above",
            }
        },
    ),
    # build-ryu: a limit far from the one-byte boundary; a wrong [] from us
    (
        "build-ryu",
        {
            "scope": {"grants": [_grant("t", [{"type": "max_args_size", "value": 1000}])]},
            "tool_name": "t",
            "server_id": "s",
            "arguments": {"x": 1e20},
        },
        {"matches": []},
    ),
    # build-serde-tag: a match where the map-form tag's max_length refuses the argument
    (
        "build-serde-tag",
        {
            "scope": {"grants": [_grant("t", [{"type": {"max_length": None}, "value": 3}])]},
            "tool_name": "t",
            "server_id": "s",
            "arguments": {"v": "abcdef"},
        },
        _MATCH_0,
    ),
]
"""Wrong answers planted as ours, each on an input that reaches one point's candidate test:
:func:`explain_all` must excuse none of them."""


def check_planted(peer: str) -> list[str]:
    """Part (c): the explanations' own power; returns the findings."""
    operation = "scope.resolve_matching_grants"
    theirs = ask(peer, [(operation, case_input) for _, case_input, _ in PLANTED])
    cases = [(operation, i, wrong, p) for (_, i, wrong), p in zip(PLANTED, theirs, strict=True)]
    reached = [candidate(i, wrong, p) for _, i, wrong, p in cases]
    excused = explain_all(peer, cases)
    print(f"(c) {len(PLANTED)} planted wrong answers: candidates {reached}; excused {excused}")
    findings = []
    for (point, _, _), got, why in zip(PLANTED, reached, excused, strict=True):
        if got != point:
            findings.append(f"planted {point}: reached {got}, not the point it is for")
        if why is not None:
            findings.append(f"planted {point}: a wrong answer was excused as {why}")
    return findings


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--write-baseline", action="store_true", help=f"rewrite {BASELINE.name}")
    args = parser.parse_args()
    peer = peer_binary()
    if peer is None:
        print("chio-peer is not built: make chio-peer (or set CHIO_PEER)", file=sys.stderr)
        return 2
    findings = check_batch(str(peer))
    print("(b)", end=" ")
    findings += check_vectors(
        "chio-peer", str(peer), BASELINE, REASONS, explain_vectors(str(peer)), args.write_baseline
    )
    findings += check_planted(str(peer))
    return finish("differential", findings)


if __name__ == "__main__":
    sys.exit(main())
