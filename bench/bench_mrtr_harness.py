"""Benchmark: the mrtr share of the runner's work, in the reference's own process.

Workload: every shipped ``mrtr`` vector (all eight operations), three times over, as ``run`` lines
served by the harness server loop (``harness/_server.serve``, the loop ``touchstone harness``
runs) into memory: line parse, operation, answer encoding, no pipes and no start-up.  Served
through the reference's table (``reference_operations``), best of ``REPEAT``.  The figures are
CPU seconds of this thread (``time.thread_time``), which a shared machine's run queue does not
inflate the way it inflates wall time.  Also prints each operation's share.
Run: ``.venv/bin/python bench/bench_mrtr_harness.py``.
"""

from __future__ import annotations

import io
import time
from collections import defaultdict

from _common import write_results
from mcp_touchstone import serde_json
from mcp_touchstone.conformance import default_vectors_dir, load_vectors
from mcp_touchstone.harness._registry import reference_operations
from mcp_touchstone.harness._server import serve

REPEAT = 5
COPIES = 3


def main() -> None:
    """Serve the mrtr vectors through both tables and print the figures."""
    root = default_vectors_dir()
    assert root is not None
    vectors = [v for v in load_vectors(root) if v.operation.startswith("mrtr.")] * COPIES
    lines = [
        serde_json.to_string_ordered(
            {
                "cmd": "run",
                "seq": i,
                "case": {"id": v.id, "operation": v.operation, "input": v.input},
            }
        ).encode()
        + b"\n"
        for i, v in enumerate(vectors)
    ]
    tables = {"served": reference_operations()}
    best = dict.fromkeys(tables, float("inf"))
    outputs = {}
    for _ in range(REPEAT):
        for name, table in tables.items():
            out = io.BytesIO()
            start = time.thread_time()
            serve(lines, out, table)
            best[name] = min(best[name], time.thread_time() - start)
            outputs[name] = out.getvalue()
    per_op: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    served = tables["served"]
    for v in vectors:
        value = serde_json.from_str(serde_json.to_string_ordered(v.input))
        start = time.thread_time()
        served[v.operation](value)
        per_op[v.operation] += time.thread_time() - start
        counts[v.operation] += 1
    n = len(lines)
    print(f"mrtr vectors through the harness server loop: {n} lines ({n // COPIES} shipped x3)")
    for name, seconds in best.items():
        print(f"  {name:<8} table: {seconds:.3f} s CPU  -> {n / seconds:,.0f} lines/s")
    print("  per operation (served table, operation only):")
    for op in sorted(per_op, key=lambda o: -per_op[o]):
        print(f"    {op:<28} {counts[op]:5d} cases  {per_op[op] / counts[op] * 1e6:7.1f} us/case")
    write_results(
        "mrtr_harness",
        {
            "lines": n,
            "cpu_s": best,
            "lines_per_s": {name: n / s for name, s in best.items()},
            "per_operation_us": {op: per_op[op] / counts[op] * 1e6 for op in per_op},
        },
    )


if __name__ == "__main__":
    main()
