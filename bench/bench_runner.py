"""Benchmark: conformance-runner throughput against the reference, through the subprocess protocol.

Workload: every shipped vector, repeated to at least 10,000 cases, sent by ``run_vectors`` to
``python -m mcp_touchstone harness`` (a real subprocess on pipes, the path an SDK's harness takes)
and scored.  Prints vectors per second for the best of three runs, with and without the
interpreter start-up.  Run: ``.venv/bin/python bench/bench_runner.py``.
"""

from __future__ import annotations

import os
import resource
import time

from mcp_touchstone.conformance import (
    default_command,
    default_vectors_dir,
    load_vectors,
    run_vectors,
)
from mcp_touchstone.conformance._runner import Verdict

MIN_CASES = 10_000


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    """Run the workload three times and print the figures."""
    root = default_vectors_dir()
    assert root is not None
    shipped = load_vectors(root)
    vectors = shipped * -(-MIN_CASES // len(shipped))
    best = float("inf")
    cpu_runner = cpu_impl = float("inf")
    for _ in range(3):
        self0, kids0 = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        report = run_vectors(vectors, default_command())
        best = min(best, time.perf_counter() - t0)
        cpu_runner = min(cpu_runner, _cpu(resource.RUSAGE_SELF) - self0)
        cpu_impl = min(cpu_impl, _cpu(resource.RUSAGE_CHILDREN) - kids0)
        assert all(r.verdict is Verdict.PASS for r in report.results)
    t0 = time.perf_counter()
    run_vectors(shipped[:1], default_command())
    startup = time.perf_counter() - t0
    print(f"runner: {len(vectors)} vectors ({len(shipped)} shipped, repeated)")
    print(f"  wall, best of 3:        {best:.3f} s  -> {len(vectors) / best:,.0f} vectors/s")
    print(f"  start-up (1 vector):    {startup:.3f} s")
    steady = max(best - startup, 1e-9)
    print(f"  excluding start-up:     {len(vectors) / steady:,.0f} vectors/s")
    # The runner and the implementation are two processes; on a loaded machine the wall figure
    # drops below what either side costs, so the CPU seconds of each are printed too.
    bound = len(vectors) / max(cpu_runner, cpu_impl)
    print(f"  cpu: runner {cpu_runner:.2f} s, implementation {cpu_impl:.2f} s")
    print(f"  cpu-bound (a core each): {bound:,.0f} vectors/s")
    print(f"  load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
