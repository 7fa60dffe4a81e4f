"""Benchmark: ``touchstone drt`` cases per second, and the time to shrink a planted bug.

Three figures per operation: Hypothesis drawing inputs from the strategy alone (no
implementation: the ceiling), drt against the reference through the subprocess protocol
(distinct cases answered per second while searching), and, when Node is installed, the time drt
takes to find and shrink the Node harness's planted PathPrefix bug.  Run:
``.venv/bin/python bench/bench_drt.py``.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from mcp_touchstone.conformance._drt import BATCH, run_drt
from mcp_touchstone.conformance._strategies import STRATEGIES

OPERATIONS = ("scope.resolve_matching_grants", "visibility.is_visible", "mrtr.request_binding")
EXAMPLES = 2000
NODE = ["node", str(Path(__file__).resolve().parents[1] / "conformance/harnesses/node/harness.js")]


def _generation_rate(operation: str) -> float:
    drawn = 0

    @settings(
        max_examples=EXAMPLES // 6,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(st.lists(STRATEGIES[operation](), min_size=1, max_size=BATCH))
    def draw(values: list[object]) -> None:
        nonlocal drawn
        drawn += len(values)

    started = time.perf_counter()
    draw()
    return drawn / (time.perf_counter() - started)


def main() -> None:
    """Print the figures."""
    reference = [sys.executable, "-m", "mcp_touchstone", "harness"]
    for operation in OPERATIONS:
        ceiling = _generation_rate(operation)
        result = run_drt(reference, operation, examples=EXAMPLES)
        print(
            f"{operation}: Hypothesis alone {ceiling:,.0f} inputs/s; drt vs reference "
            f"{result.cases_per_second:,.0f} distinct cases/s ({result.cases} cases)"
        )
    if shutil.which("node"):
        os.environ["TOUCHSTONE_NODE_PLANT"] = "path-prefix"
        started = time.perf_counter()
        result = run_drt(NODE, "scope.resolve_matching_grants", examples=3000)
        total = time.perf_counter() - started
        found = result.candidate is not None
        print(
            f"planted Node PathPrefix bug: {'found' if found else 'NOT found'} after "
            f"{result.cases} cases, shrunk in {result.shrink_seconds:.2f} s "
            f"({result.shrink_cases} shrink cases), {total:.1f} s in all"
        )
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
