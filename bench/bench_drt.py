"""Benchmark: ``touchstone drt`` cases per second, and the time to shrink a planted bug.

Three figures per operation: Hypothesis drawing inputs from the strategy alone (no
implementation: the ceiling), drt against the reference through the subprocess protocol
(distinct cases answered per second while searching), and, when Node is installed, the time drt
takes to find and shrink the Node harness's planted PathPrefix bug (seed 0, as ``make
conformance`` runs it).  Run:
``.venv/bin/python bench/bench_drt.py``.
"""

from __future__ import annotations

import os
import resource
import shutil
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from mcp_touchstone.conformance._drt import BATCH, BATCH_MIN, GROUP, run_drt
from mcp_touchstone.conformance._strategies import Drawn, drawn

OPERATIONS = (
    "scope.resolve_matching_grants",
    "visibility.is_visible",
    "mrtr.request_binding",
    "mrtr.round",
)
EXAMPLES = 3000
BASELINE = Path(__file__).resolve().parents[1] / "conformance/harnesses/node/baseline.json"
NODE = ["node", str(Path(__file__).resolve().parents[1] / "conformance/harnesses/node/harness.js")]


def _generation_rate(operation: str) -> float:
    """Distinct inputs per second drawn as drt's search draws them, with nothing answering."""
    seen: set[str] = set()
    strategy = drawn(operation, frozenset(), GROUP)

    @settings(
        max_examples=EXAMPLES // (2 * BATCH_MIN * GROUP),
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(st.lists(strategy, min_size=BATCH_MIN, max_size=BATCH, unique_by=_bytes))
    def draw(groups: list[list[Drawn]]) -> None:
        seen.update(d.text for group in groups for d in group)

    started = time.perf_counter()
    draw()
    return len(seen) / (time.perf_counter() - started)


def _bytes(group: list[Drawn]) -> bytes:
    return b"".join(d.data for d in group)


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    """Print the figures."""
    reference = [sys.executable, "-m", "mcp_touchstone", "harness"]
    for operation in OPERATIONS:
        ceiling = _generation_rate(operation)
        self0, kids0 = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
        result = run_drt(reference, operation, examples=EXAMPLES)
        own = _cpu(resource.RUSAGE_SELF) - self0
        kids = _cpu(resource.RUSAGE_CHILDREN) - kids0
        # Three processes share the machine (drt, the reference, the implementation: here the
        # reference again); on a loaded machine the wall figure drops below what the CPU
        # costs allow, so the CPU seconds are printed too, and the rate they bound when drt
        # has a core and the two harnesses share the other.
        bound = result.cases / max(own, kids, 1e-9)
        print(
            f"{operation}: Hypothesis alone {ceiling:,.0f} inputs/s; drt vs reference "
            f"{result.cases_per_second:,.0f} distinct cases/s ({result.cases} cases); "
            f"cpu drt {own:.2f} s, harnesses {kids:.2f} s -> cpu-bound {bound:,.0f} cases/s"
        )
    if shutil.which("node"):
        from mcp_touchstone.conformance._baseline import load

        os.environ["TOUCHSTONE_NODE_PLANT"] = "path-prefix"
        started = time.perf_counter()
        # As `make conformance` runs it: seed 0, the harness's baseline left out of the corpus.
        known = frozenset(load(BASELINE).ids)
        result = run_drt(
            NODE, "scope.resolve_matching_grants", examples=3000, seed=0, leave_out=known
        )
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
