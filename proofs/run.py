"""``python -m proofs.run``: check every named property and its canary (``make proofs``).

Each property reaches a verdict (:data:`proofs.properties.VERDICTS`): ``proved`` (CrossHair
confirmed over all paths of its stated domain), ``bounded`` (a Z3 model whose tie to the code
is an exhaustive comparison over a stated finite set), ``searched`` (CrossHair found no
counterexample within the stated budget).  A property passes only when it reaches at least the
verdict it claims; its canary (the check re-run against a planted function that violates the
statement) must fail.  A refuted, unknown, timed-out or crashed check is a failure.

Options: ``--only ID[,ID...]`` checks some; ``--jobs N`` runs N CrossHair processes at once
(default 2); ``--no-canaries`` skips the canaries; ``--json PATH`` writes the results;
``--record`` writes them into ``proofs/manifest.json``.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import dataclasses
import importlib
import json
import sys
import time
from pathlib import Path
from typing import Any

from proofs import enumerate as enumerate_check
from proofs import gate
from proofs._ops import UnprovedError
from proofs.properties import PROPERTIES, VERDICTS, Budget, Prop

REACHED = {"confirmed": "proved", "clean": "searched"}
"""The verdict a passing CrossHair outcome shows."""


def reaches(verdict: str, claim: str) -> bool:
    """Whether ``verdict`` is at least ``claim`` (``proved`` > ``bounded`` > ``searched``)."""
    return verdict in VERDICTS and VERDICTS.index(verdict) >= VERDICTS.index(claim)


def _python(prop: Prop, fn: object = None) -> dict[str, object]:
    """A Z3 check (obligations about a model, its tie to the code over a finite set, its
    witnesses) or an enumerated contract; ``fn`` replaces the check (a canary)."""
    start = time.perf_counter()
    try:
        if prop.tool == "enumerate":
            real, domain = enumerate_check.target(prop.check.removeprefix("enumerate:"))
            count = enumerate_check.check(fn if callable(fn) else real, domain)
            detail = f"the contract holds on every one of {count} combinations of its domain"
        else:
            _, module, function = prop.check.split(":")
            check = fn if fn is not None else getattr(importlib.import_module(module), function)
            assert callable(check)
            check()
            detail = (
                "Z3 obligations about the model unsat; the code equals the model over the "
                "stated finite set; witness vectors agree"
            )
    except AssertionError as exc:
        # UnprovedError (refuted / unknown obligation) and tie or vector mismatches are both here.
        unknown = isinstance(exc, UnprovedError) and ": refuted," not in str(exc)
        verdict = "unknown" if unknown else "refuted"
        return {
            "verdict": verdict,
            "ok": False,
            "seconds": time.perf_counter() - start,
            "detail": str(exc)[:400],
        }
    except Exception as exc:
        return {
            "verdict": "crash",
            "ok": False,
            "seconds": time.perf_counter() - start,
            "detail": repr(exc)[:400],
        }
    return {
        "verdict": "bounded",
        "ok": True,
        "seconds": time.perf_counter() - start,
        "detail": detail,
    }


def _crosshair(prop: Prop, target: str = "") -> dict[str, object]:
    target = target or prop.check.removeprefix("crosshair:")
    out = gate.check(target, prop.expect, prop.budget)
    detail = out.detail
    if out.verdict == "nothing-checked":
        # CrossHair's per-path timeouts are CPU seconds on a shared machine: under load a search
        # can end before any path meets the preconditions (seen once for PROOF-MRTR-BIND at
        # load 6).  One retry at twice the budget; a second empty search still fails the gate.
        b = prop.budget
        wider = Budget(iters=b.iters * 2, cond_s=b.cond_s * 2, path_s=b.path_s * 2)
        first = out
        out = gate.check(target, prop.expect, wider)
        detail = f"{out.detail} (retried at 2x budget; first search empty in {first.seconds:.1f}s)"
        out = gate.Outcome(out.verdict, out.ok, first.seconds + out.seconds, detail)
    verdict = REACHED.get(out.verdict, out.verdict)
    return {"verdict": verdict, "ok": out.ok, "seconds": out.seconds, "detail": out.detail}


def _judged(prop: Prop, result: dict[str, object]) -> dict[str, object]:
    """``result`` with ``ok`` false when the verdict falls short of the property's claim."""
    verdict = str(result["verdict"])
    if result["ok"] and not reaches(verdict, prop.claimed):
        detail = f"claims {prop.claimed}, reached only {verdict}: {result['detail']}"
        return {**result, "ok": False, "detail": detail}
    return {**result, "claim": prop.claimed}


def _canary(prop: Prop) -> dict[str, object]:
    """Re-run ``prop``'s check against its planted function: it must be refuted (a
    counterexample that replays, or a Z3 obligation, tie or witness that disagrees)."""
    from proofs import canaries

    assert prop.canary is not None
    if prop.tool == "crosshair":
        # A refutation ends the search early; the wider budget only bounds a search that has
        # not found the planted bug yet.
        b = prop.budget
        wider = Budget(iters=max(b.iters, 500), cond_s=max(b.cond_s, 30), path_s=b.path_s)
        result = _crosshair(dataclasses.replace(prop, budget=wider), canaries.target(prop))
    else:
        result = _python(prop, canaries.planted_check(prop))
    refuted = result["verdict"] == "refuted"
    return {
        "verdict": result["verdict"],
        "ok": refuted,
        "seconds": result["seconds"],
        "detail": f"{prop.canary.why}: {result['detail']}"[:400],
    }


def _last_seconds(recorded: dict[str, Any], key: str) -> float:
    """The seconds ``key`` (a property id, or ``<id> canary``) took in the recorded run."""
    prop_id, _, canary = key.partition(" ")
    entry = recorded.get(prop_id, {})
    last = entry.get("last_canary" if canary else "last_result") or {}
    return float(last.get("seconds", 0.0))


def run(props: list[Prop], jobs: int, with_canaries: bool = True) -> dict[str, dict[str, object]]:
    """Check ``props`` and their canaries: CrossHair targets on a pool of ``jobs``, Z3 checks
    meanwhile in this thread.  Results by property id (canaries under ``<id> canary``),
    printed as they finish."""
    results: dict[str, dict[str, object]] = {}

    def note(key: str, prop: Prop, result: dict[str, object]) -> None:
        if not key.endswith("canary"):
            result = _judged(prop, result)
        results[key] = result
        mark = "PASS" if result["ok"] else "FAIL"
        what = "must be refuted, is" if key.endswith("canary") else f"claims {prop.claimed}, is"
        print(
            f"{mark} {result['seconds']:6.1f}s {key} [{prop.tool}] {what} {result['verdict']}: "
            f"{result['detail']}",
            flush=True,
        )

    jobs_list: list[tuple[str, Prop, bool]] = []
    for prop in props:
        jobs_list.append((prop.id, prop, False))
        if with_canaries and prop.canary is not None:
            jobs_list.append((f"{prop.id} canary", prop, True))
    # Longest first (by the last recorded run), so the two workers end together.
    from proofs import manifest

    recorded = manifest.load()["properties"]
    jobs_list.sort(key=lambda job: -_last_seconds(recorded, job[0]))
    with cf.ThreadPoolExecutor(max(1, jobs)) as pool:
        futures = {
            pool.submit(_canary if canary else _crosshair, prop): (key, prop)
            for key, prop, canary in jobs_list
            if prop.tool == "crosshair"
        }
        for key, prop, canary in jobs_list:
            if prop.tool != "crosshair":
                note(key, prop, _canary(prop) if canary else _python(prop))
        for future in cf.as_completed(futures):
            key, prop = futures[future]
            note(key, prop, future.result())
    return results


GATE_CANARIES = (
    "proofs.contracts.canary.canary_prefix_is_string_prefix",
    "proofs.contracts.canary.canary_star_needs_a_character",
)


def check_gate_canaries() -> list[str]:
    """Run the gate on contracts false of the real code; the ones it fails to refute."""
    broken = []
    for target in GATE_CANARIES:
        out = gate.check(target, "clean", Budget())
        ok = out.verdict == "refuted"
        print(
            f"{'PASS' if ok else 'FAIL'} {out.seconds:6.1f}s gate canary {target}: must be "
            f"refuted, is {out.verdict}: {out.detail}",
            flush=True,
        )
        if not ok:
            broken.append(target)
    return broken


def summary(results: dict[str, dict[str, object]]) -> str:
    """One line: how many properties reached each verdict, and the canaries refuted."""
    props = {k: r for k, r in results.items() if not k.endswith("canary")}
    canaries = [r for k, r in results.items() if k.endswith("canary")]
    counts = {v: sum(1 for r in props.values() if r["ok"] and r["verdict"] == v) for v in VERDICTS}
    return (
        f"{counts['proved']} proved, {counts['bounded']} bounded, {counts['searched']} searched "
        f"of {len(props)}; canaries refuted {sum(1 for r in canaries if r['ok'])}/{len(canaries)}"
    )


def main(argv: list[str]) -> int:
    """Parse options, check, report."""
    parser = argparse.ArgumentParser(prog="python -m proofs.run")
    parser.add_argument("--only", default="")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--no-canaries", action="store_true")
    args = parser.parse_args(argv)
    wanted = {x for x in args.only.split(",") if x}
    unknown = wanted - {p.id for p in PROPERTIES}
    if unknown:
        print(f"unknown property ids: {sorted(unknown)}", file=sys.stderr)
        return 2
    props = [p for p in PROPERTIES if not wanted or p.id in wanted]
    start = time.perf_counter()
    results = run(props, args.jobs, with_canaries=not args.no_canaries)
    broken = [] if wanted else check_gate_canaries()
    total = time.perf_counter() - start
    failed = sorted(i for i, r in results.items() if not r["ok"]) + broken
    print(
        f"proofs: {summary(results)}; {len(failed)} failed in {total:.1f}s"
        + (f" (failed: {', '.join(failed)})" if failed else "")
    )
    if args.json:
        args.json.write_text(json.dumps({"total_seconds": total, "results": results}, indent=2))
    if args.record:
        from proofs import manifest

        manifest.record_run(results, total)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
