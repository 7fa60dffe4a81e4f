"""Benchmark: conformance-runner throughput against the reference, through the subprocess protocol.

Workloads, each sent by ``run_vectors`` to ``python -m mcp_touchstone harness`` (a real
subprocess on pipes, the path an SDK's harness takes) and scored, best of three runs:

* ``suite`` -- every shipped vector, repeated to at least 10,000 cases;
* ``suite_once`` -- every shipped vector once (what one CI run of the suite costs);
* ``suite_without_compile_limit`` -- the shipped vectors less the ``scope.hosted_match`` vectors
  whose pattern is built to exceed the Rust regex crate's 10 MiB compiled-size limit
  (ids ``scope-hosted-rx-refuses-size-limit-*``), repeated likewise.  Each of those costs the
  crate's compiler (``paula``) about 0.13 s to refuse, none of it in this project's code, and
  the three together are more than half the implementation's time over the whole suite, so
  this figure is the reference's own per-case rate.

Prints vectors per second, with and without the interpreter start-up, and the CPU seconds of
the runner and of the implementation; writes ``bench/results/runner.json``.
Run: ``.venv/bin/python bench/bench_runner.py``.
"""

from __future__ import annotations

import os
import resource
import time
from typing import Any

from _common import write_results
from mcp_touchstone.conformance import (
    default_command,
    default_vectors_dir,
    load_vectors,
    run_vectors,
)
from mcp_touchstone.conformance._runner import Verdict

MIN_CASES = 10_000
ROUNDS = 3
COMPILE_LIMIT = "scope-hosted-rx-refuses-size-limit-"
GOAL = 5_000


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def _measure(vectors: list[Any]) -> dict[str, float]:
    """Best of ROUNDS: wall seconds, the runner's CPU and the implementation's CPU."""
    best = cpu_runner = cpu_impl = float("inf")
    for _ in range(ROUNDS):
        self0, kids0 = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        report = run_vectors(vectors, default_command())
        best = min(best, time.perf_counter() - t0)
        cpu_runner = min(cpu_runner, _cpu(resource.RUSAGE_SELF) - self0)
        cpu_impl = min(cpu_impl, _cpu(resource.RUSAGE_CHILDREN) - kids0)
        assert all(r.verdict is Verdict.PASS for r in report.results)
    return {"wall_s": best, "cpu_runner_s": cpu_runner, "cpu_implementation_s": cpu_impl}


def main() -> None:
    """Measure the three workloads and print the figures."""
    root = default_vectors_dir()
    assert root is not None
    shipped = load_vectors(root)
    lean = [v for v in shipped if not v.id.startswith(COMPILE_LIMIT)]
    workloads = {
        "suite": shipped * -(-MIN_CASES // len(shipped)),
        "suite_once": shipped,
        "suite_without_compile_limit": lean * -(-MIN_CASES // len(lean)),
    }
    t0 = time.perf_counter()
    run_vectors(shipped[:1], default_command())
    startup = time.perf_counter() - t0
    figures: dict[str, Any] = {"start_up_s": startup, "goal_vectors_per_s": GOAL}
    print(f"runner: {len(shipped)} shipped vectors ({len(shipped) - len(lean)} compile-limit)")
    print(f"  start-up (1 vector): {startup:.3f} s")
    for name, vectors in workloads.items():
        m = _measure(vectors)
        rate = len(vectors) / m["wall_s"]
        steady = len(vectors) / max(m["wall_s"] - startup, 1e-9)
        # Two processes: on a loaded machine the wall figure drops below what either side
        # costs, so the rate each side's CPU allows is printed too.
        bound = len(vectors) / max(m["cpu_runner_s"], m["cpu_implementation_s"])
        figures[name] = {
            "vectors": len(vectors),
            **m,
            "vectors_per_s": rate,
            "vectors_per_s_excluding_start_up": steady,
            "vectors_per_s_cpu_bound": bound,
        }
        print(
            f"  {name:<28} {len(vectors):>6} vectors  {m['wall_s']:.3f} s  -> {rate:,.0f}/s"
            f" ({steady:,.0f}/s excluding start-up; cpu runner {m['cpu_runner_s']:.2f} s,"
            f" implementation {m['cpu_implementation_s']:.2f} s: {bound:,.0f}/s cpu-bound)"
        )
    print(f"  load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    write_results("runner", figures)


if __name__ == "__main__":
    main()
