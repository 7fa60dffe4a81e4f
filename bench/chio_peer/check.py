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

Every difference is explained by ``explain`` below, mechanically from the case's input and the
two answers, or it is reported as a finding (the id, the input and both answers) and the check
exits 1.  The explanations are the four points in which Chio's snapshot ``d2816aa0`` differs from
the version the seed describes (``/work/shared/reference/chio.md`` §4.10), and two in which this
build's Debian serde/serde_json differ from the versions in Chio's ``Cargo.lock`` (not Chio's
source, not our reference).  ``--write-baseline`` rewrites the baseline from (b)'s failures, each
entry with the reason ``explain`` gives (none is written when a failure is unexplained).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # bench/, for bench_scope_batch and _common

from bench_scope_batch import (  # noqa: E402 -- importable only once bench/ is on the path
    batch_lines,
    batch_vectors,
    harness_command,
    peer_binary,
)

BASELINE = HERE / "baseline-d2816aa0.json"
COLUMNS = ("pass", "fail", "expected", "error", "skip", "n/a")

REASONS = {
    "point-1": (
        "Chio d2816aa0 (chio.md 4.10, point 1): its audience_allowlist and memory_store_allowlist"
        " are lax (non-string values are ignored; a relevant key that yields no string allows),"
        " where the seed's version is strict (4.7), so our reference answers no match"
    ),
    "point-2": (
        "Chio d2816aa0 (chio.md 4.10, point 2): Constraint has no require_cumulative_approval_above"
        " variant, so serde rejects the scope at decode (unknown variant, invalid_input); in the"
        " seed's version it decodes and the portable matcher refuses it"
    ),
    "point-3": (
        "Chio d2816aa0 (chio.md 4.10, point 3): Constraint does not deny unknown fields (neither"
        " beside type/value nor inside a struct variant's value), so the extra key is ignored;"
        " the seed's version rejects the scope (invalid_input)"
    ),
    "point-4": (
        "Chio d2816aa0 (chio.md 4.10, point 4): MonetaryAmount does not deny unknown fields, so"
        " the extra key is ignored; the seed's version rejects the scope (invalid_input)"
    ),
    "build-ryu": (
        "this build, not Chio's source: Debian's serde_json 1.0.87 formats a float with ryu"
        " (1e16, no '+' in the exponent) where Chio's pinned serde_json 1.0.149 uses zmij"
        " (1e+16, chio.md 4.5), so max_args_size measures one byte less per such float"
    ),
    "build-serde-tag": (
        "this build, not Chio's source: Debian's serde_derive 1.0.152 reads an adjacent tag as an"
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


def _constraints(scope: Any) -> list[dict[str, Any]]:
    grants = scope.get("grants") if isinstance(scope, dict) else None
    found = []
    for grant in grants if isinstance(grants, list) else []:
        listed = grant.get("constraints") if isinstance(grant, dict) else None
        found += [c for c in listed if isinstance(c, dict)] if isinstance(listed, list) else []
    return found


def _exponent_floats(value: Any) -> bool:
    """Whether ``value`` holds a number serde_json writes in exponent form with a positive
    exponent (a float of magnitude >= 1e16, or an integer outside i64/u64 that becomes one)."""
    if isinstance(value, float):
        return abs(value) >= 1e16
    if isinstance(value, int) and not isinstance(value, bool):
        return not -(2**63) <= value <= 2**64 - 1
    if isinstance(value, list):
        return any(_exponent_floats(v) for v in value)
    if isinstance(value, dict):
        return any(_exponent_floats(v) for v in value.values())
    return False


def _kind(answer: Any) -> str | None:
    error = answer.get("error") if isinstance(answer, dict) else None
    return error.get("kind") if isinstance(error, dict) else None


def same(ours: Any, peer: Any) -> bool:
    """Equal as JSON values; two invalid_input errors compare by kind only (SCOPE-WIRE-2)."""
    return ours == peer or (_kind(ours) == "invalid_input" and _kind(peer) == "invalid_input")


def explain(case_input: Any, ours: Any, peer: Any) -> str | None:
    """The REASONS key explaining why the peer answers ``peer`` where our reference answers
    ``ours`` for ``case_input``, or None (a finding)."""
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
        ours == {"matches": []}
        and peer.get("matches")
        and any(
            _strictly_invalid(case_input.get("arguments"), RELEVANT_KEYS[tag])
            for tag in tags & ALLOWLISTS
        )
    ):
        return "point-1"
    if _kind(ours) == "invalid_input" and _kind(peer) != "invalid_input":
        grants = scope.get("grants") if isinstance(scope, dict) else []
        for grant in grants if isinstance(grants, list) else []:
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
    if (
        "max_args_size" in tags
        and _exponent_floats(case_input.get("arguments"))
        and ours == {"matches": []}
        and peer.get("matches")
    ):
        return "build-ryu"
    if (
        _kind(peer) == "invalid_input"
        and "expected variant identifier" in peer_message
        and any(isinstance(c.get("type"), dict) for c in constraints)
    ):
        return "build-serde-tag"
    return None


def answers(command: list[str], batch: Path) -> list[Any]:
    """The ``output`` of every run line of ``batch``, in order."""
    with batch.open("rb") as source:
        out = subprocess.run(command, stdin=source, capture_output=True, check=True).stdout
    lines = [json.loads(line) for line in out.splitlines()][1:]  # after the start response
    assert [line.get("seq") for line in lines] == list(range(len(lines))), "answers out of order"
    return [line["output"] for line in lines]


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
    for seq, (mine, peers) in enumerate(zip(ours, theirs, strict=True)):
        if same(mine, peers):
            continue
        vector = vectors[seq % len(vectors)]
        reason = explain(vector.input, mine, peers)
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


def run_vectors(peer: str, *extra: str) -> tuple[int, dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        command = [str(Path(sys.executable).with_name("touchstone")), "run", "--impl", peer]
        done = subprocess.run(
            [*command, "--report", str(report), *extra], capture_output=True, check=False
        )
        return done.returncode, json.loads(report.read_text())


def _totals(report: dict[str, Any]) -> str:
    """The report's summary columns, summed over the semantics."""
    totals: Counter[str] = Counter()
    for columns in report["summary"].values():
        totals.update(columns)
    return ", ".join(f"{column} {totals[column]}" for column in COLUMNS)


def check_vectors(peer: str, write_baseline: bool) -> list[str]:
    """Part (b); returns the findings."""
    status, report = run_vectors(peer)
    print(f"(b) touchstone run --impl chio-peer: exit {status}; {_totals(report)}")
    inputs = {v.id: v.input for v in batch_vectors()}
    reasons: dict[str, str] = {}
    findings = []
    for result in report["results"]:
        if result["verdict"] in ("pass", "not_applicable"):
            continue
        reason = None
        if result["verdict"] == "fail" and result["id"] in inputs:
            reason = explain(inputs[result["id"]], result["expected"], result["actual"])
        if reason is None:
            findings.append(f"{result['id']}: {json.dumps(result)}")
        else:
            reasons[result["id"]] = reason
    for reason, count in sorted(Counter(reasons.values()).items()):
        print(f"    {reason}: {count} vectors")
    if write_baseline and not findings:
        entries = [{"id": i, "reason": REASONS[r]} for i, r in reasons.items()]
        doc = {"schema": "touchstone-baseline/1", "entries": entries}
        BASELINE.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
        print(f"    wrote {BASELINE.relative_to(HERE.parent.parent)} ({len(entries)} entries)")
    listed = {e["id"]: e["reason"] for e in json.loads(BASELINE.read_text())["entries"]}
    for vector_id, reason in sorted(reasons.items()):
        if listed.get(vector_id) != REASONS[reason]:
            findings.append(f"{vector_id}: {BASELINE.name} does not give it the reason {reason}")
    status, report = run_vectors(peer, "--expected-failures", str(BASELINE))
    print(
        f"    with {BASELINE.name}: exit {status} (conformant: {report['conformant']});"
        f" {_totals(report)}"
        + (f"; stale entries {report['stale_baseline']}" if report["stale_baseline"] else "")
    )
    if status != 0:
        findings.append(f"the run with {BASELINE.name} exited {status}")
    return findings


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--write-baseline", action="store_true", help=f"rewrite {BASELINE.name}")
    args = parser.parse_args()
    peer = peer_binary()
    if peer is None:
        print("chio-peer is not built: make chio-peer (or set CHIO_PEER)", file=sys.stderr)
        return 2
    findings = check_batch(str(peer)) + check_vectors(str(peer), args.write_baseline)
    for finding in findings:
        print(f"FINDING {finding}")
    print("differential: " + ("every difference explained" if not findings else "FINDINGS above"))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
