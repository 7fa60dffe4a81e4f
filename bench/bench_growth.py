"""Benchmark: how scope matching's cost grows with its inputs (grants, string leaves), on the
workload of ``bench_scope.py`` (target grants with 3 decided constraints each, every constraint
holding).  Visibility's growth (catalog size) is in ``bench_visibility.py`` and MRTR's (token
size) in ``bench_mrtr.py``.

Run: ``.venv/bin/python bench/bench_growth.py``.  Results go to ``bench/results/growth.json``.
"""

from __future__ import annotations

from _common import per_call, write_results
from bench_scope import arguments, scope_json
from mcp_touchstone.scope import decode_scope, resolve_matching_grants

REPEAT = 5


def _best(fn: object, number: int) -> float:
    assert callable(fn)
    return min(per_call(fn, number) for _ in range(REPEAT))


def main() -> None:
    """Measure decode and resolve against grant count and leaf count; print and write."""
    args30 = arguments(30)
    grants = []
    for n in (8, 32, 128, 512):
        doc = scope_json(n, distinct=True)
        scope = decode_scope(doc)
        calls = max(10, 4000 // n)
        grants.append(
            {
                "grants": n,
                "decode_s": _best(lambda d=doc: decode_scope(d), calls),
                "resolve_s": _best(
                    lambda s=scope: resolve_matching_grants(s, "read", "files", args30), calls
                ),
            }
        )
    scope8 = decode_scope(scope_json(8))
    leaves = []
    for n in (30, 130, 1030, 10030):
        args = arguments(n)
        calls = max(10, 100_000 // n)
        leaves.append(
            {
                "leaves": n,
                "resolve_s": _best(
                    lambda a=args: resolve_matching_grants(scope8, "read", "files", a), calls
                ),
            }
        )
    print("scope growth: grants (distinct constraint values, 30 leaves)")
    print(f"| {'grants':>6} | {'decode us':>10} | {'resolve us':>10} |")
    for row in grants:
        decode_us, resolve_us = row["decode_s"] * 1e6, row["resolve_s"] * 1e6
        print(f"| {row['grants']:>6} | {decode_us:>10.1f} | {resolve_us:>10.1f} |")
    print("scope growth: string leaves (8 grants)")
    print(f"| {'leaves':>6} | {'resolve us':>10} |")
    for row in leaves:
        print(f"| {row['leaves']:>6} | {row['resolve_s'] * 1e6:>10.1f} |")
    write_results("growth", {"scope_grants": grants, "scope_leaves": leaves})


if __name__ == "__main__":
    main()
