"""Benchmark: the serde_json-exact layer against Python's json module, measured in the same run.

Workload: a tool-call ``arguments`` object of ~30 string leaves, a few ints and floats (the
shape Chio's MaxArgsSize re-serializes and neva's binding hashes), parsed and written 20,000 times.
Run: ``.venv/bin/python bench/bench_json.py``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from mcp_touchstone import serde_json
from mcp_touchstone.serde_json import JSON

DOC: dict[str, JSON] = {
    "path": "/srv/data/reports/2026/q3/summary.txt",
    "recipients": [f"user{i}@larkfield.example" for i in range(10)],
    "files": [{"name": f"f{i}.csv", "dir": f"/srv/data/{i}", "size": i * 1024} for i in range(8)],
    "query": {"q": "revenue by region", "limit": 50, "threshold": 0.75, "tags": ["a", "b", "c"]},
    "note": "héllo\nworld \u2028 / done",
}
TEXT = json.dumps(DOC, indent=2)
DOC_SMALL_FLOAT: dict[str, JSON] = {**DOC, "epsilon": 1.5e-7}
N = 20_000


def _py(value: JSON) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _time(fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(N):
            fn()
        best = min(best, time.perf_counter() - t0)
    return best / N * 1e6  # microseconds per call


def main() -> None:
    """Print per-call times and ratios against Python's json module."""
    rows = [
        (
            "parse",
            _time(lambda: serde_json.from_str(TEXT)),
            _time(lambda: json.loads(TEXT)),
        ),
        (
            "write (no tricky floats)",
            _time(lambda: serde_json.to_string(DOC)),
            _time(lambda: _py(DOC)),
        ),
        (
            "write (1.5e-7 present: exact path)",
            _time(lambda: serde_json.to_string(DOC_SMALL_FLOAT)),
            _time(lambda: _py(DOC_SMALL_FLOAT)),
        ),
    ]
    print(f"{'operation':<38}{'serde_json (us)':>16}{'json (us)':>12}{'ratio':>8}")
    for name, ours, peer in rows:
        print(f"{name:<38}{ours:>16.2f}{peer:>12.2f}{ours / peer:>7.2f}x")


if __name__ == "__main__":
    main()
