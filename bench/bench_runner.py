"""Benchmark: the conformance runner's throughput through the subprocess protocol (vectors/s),
``run_vectors`` against the built-in reference started as ``python -m mcp_touchstone harness``:
start-up, feeding, answering, reading and scoring all counted.

Run: ``.venv/bin/python bench/bench_runner.py``.  Goal (issue 13): >= 5,000 vectors/s.

Workloads, best of ROUNDS each, measured in alternation:

* suite -- every committed vector once (``touchstone run``'s default), whose cost is dominated
  by a few hosted-regex vectors built to hit the regex size limit.
* suite without hosted_match -- every vector but ``scope.hosted_match``'s.
* 5,000 mixed -- 5,000 vectors cycling over every vector but ``scope.hosted_match``'s.

DRT (``touchstone drt``) does not exist on main yet, so DRT cases/s are not measured here.
Results go to ``bench/results/runner.json``.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence

from _common import ROOT, alternate, write_results
from mcp_touchstone.conformance import default_command, load_vectors, run_vectors
from mcp_touchstone.conformance._vectors import Vector

ROUNDS = 3
GOAL = 5_000.0


def _timed(vectors: Sequence[Vector]) -> float:
    start = time.perf_counter()
    report = run_vectors(vectors, default_command())
    seconds = time.perf_counter() - start
    assert report.conformant, "the reference must pass its own vectors"
    return seconds


def main() -> None:
    """Measure, print vectors/s, write the JSON results."""
    suite = load_vectors(ROOT / "conformance" / "vectors")
    portable = [v for v in suite if v.operation != "scope.hosted_match"]
    mixed = [v for _, v in zip(range(5_000), itertools.cycle(portable), strict=False)]
    workloads = {"suite": suite, "suite_without_hosted": portable, "mixed_5000": mixed}
    best = alternate({name: (lambda v=vs: _timed(v)) for name, vs in workloads.items()}, ROUNDS)
    rates = {name: len(workloads[name]) / seconds for name, seconds in best.items()}
    print(f"runner through the subprocess protocol (best of {ROUNDS})")
    print(f"| {'workload':<22} | {'vectors':>7} | {'seconds':>8} | {'vectors/s':>9} |")
    for name, seconds in best.items():
        print(
            f"| {name:<22} | {len(workloads[name]):>7} | {seconds:>8.3f} | {rates[name]:>9,.0f} |"
        )
    verdict = "meets" if rates["mixed_5000"] >= GOAL else "misses"
    print(f"mixed_5000: {rates['mixed_5000']:,.0f} vectors/s (goal >= {GOAL:,.0f}: {verdict})")
    print("DRT cases/s: not measured (no `touchstone drt` on main)")
    write_results(
        "runner",
        {
            "rounds": ROUNDS,
            "vectors": {name: len(vs) for name, vs in workloads.items()},
            "seconds": best,
            "vectors_per_s": rates,
            "goal_vectors_per_s": GOAL,
            "goal_met": rates["mixed_5000"] >= GOAL,
            "drt": "not measured: no `touchstone drt` on main",
        },
    )


if __name__ == "__main__":
    main()
