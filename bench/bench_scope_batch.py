"""Benchmark: the whole-process time of a 5,000-case mixed scope batch through
``touchstone harness`` (start-up, decode, resolve, answer, exit), against its goal and against
in-run floors.

Run: ``.venv/bin/python bench/bench_scope_batch.py [--before DIR]``.  With ``--before DIR`` (a
source tree, e.g. ``git archive main src/mcp_touchstone | tar -x -C DIR``, byte-compiled), the
batch and start+stop are also run with ``PYTHONPATH=DIR/src``, in the same alternation.

Batch: ``start``, then 5,000 ``run`` lines cycling over every portable-kernel scope vector in
``conformance/vectors/scope`` (``scope.resolve_matching_grants`` and
``scope.resolve_capability_grants``: ranked matches, refusals, decode errors, ``out_of_scope``,
every constraint kind; 434 distinct cases), then ``stop``.  The hosted profile
(``scope.hosted_match``) is left out: its vectors include regexes built to hit the size limit
(a quarter of a second each), which would measure the regex compiler, not the batch.

Measured in alternation, best of ROUNDS whole-process runs each:

* ours/batch -- ``touchstone harness`` answering the batch (every answer checked once).
* ours/start+stop -- the same process answering only ``start`` and ``stop``: start-up alone.
* floor/json.loads -- a minimal Python process (the same interpreter) doing only
  ``json.loads`` of each line of the same batch: no Python harness can go below this.
* floor/interpreter -- ``python -c pass`` on the same interpreter.

Start-up depends on bytecode: ``make bench`` byte-compiles the package first (as pip does for an
installed wheel); without ``__pycache__`` and with ``PYTHONDONTWRITEBYTECODE`` set, as in this
project's shared environment, every start compiles every imported module from source.

Goal: within 5x of Chio's own Rust matcher on such a batch, which issue 13 puts at about
0.04 s whole-process on this machine (so <= 0.2 s).  That figure is the issue's; it is not
recorded in ``/work/shared/reference`` (neither ``anchors.md`` nor ``chio.md`` gives a timing),
and Chio cannot be built here (crates.io is not reachable), so it is an anchor, not an in-run
peer.  Results go to ``bench/results/scope_batch.json``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import ROOT, interpreter, load_average, run_process, write_results
from mcp_touchstone.conformance._vectors import load_tree

CASES = 5_000
ROUNDS = 7
ANCHOR_S = 0.04  # issue 13's figure for Chio's Rust matcher; not measurable here
GOAL_RATIO = 5.0
PORTABLE = ("scope.resolve_matching_grants", "scope.resolve_capability_grants")


def batch_lines() -> list[str]:
    """The request lines of the batch, ``start`` and ``stop`` included."""
    vectors = [
        v
        for v in load_tree(ROOT / "conformance" / "vectors")
        if v.semantic == "scope" and v.operation in PORTABLE
    ]
    lines = [json.dumps({"cmd": "start", "version": 1})]
    for seq, vector in zip(range(CASES), itertools.cycle(vectors), strict=False):
        case = {"operation": vector.operation, "input": vector.input}
        lines.append(json.dumps({"cmd": "run", "seq": seq, "case": case}, ensure_ascii=False))
    lines.append(json.dumps({"cmd": "stop"}))
    return lines


def harness_command() -> list[str]:
    """``touchstone harness`` from the running interpreter's environment."""
    script = Path(interpreter()).with_name("touchstone")
    found = str(script) if script.exists() else shutil.which("touchstone")
    if found is None:
        raise SystemExit("touchstone is not installed: make .venv/.stamp-bench")
    return [found, "harness"]


def check_answers(command: list[str], batch: Path) -> None:
    """Every run line gets exactly one answer, in order, and none of them is ``errored``."""
    with batch.open("rb") as source:
        out = subprocess.run(command, stdin=source, capture_output=True, check=True).stdout
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == CASES + 1, len(answers)
    for seq, answer in enumerate(answers[1:]):
        assert answer["seq"] == seq, answer
        assert "output" in answer, answer


def main() -> None:
    """Measure and print the table; write the JSON results."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", type=Path, help="a source tree to measure against")
    args = parser.parse_args()
    command = harness_command()
    python = interpreter()
    floor_json = "import sys, json\nfor line in sys.stdin.buffer:\n    json.loads(line)\n"
    with tempfile.TemporaryDirectory() as tmp:
        lines = batch_lines()
        batch = Path(tmp) / "batch.ndjson"
        batch.write_text("\n".join(lines) + "\n", encoding="utf-8")
        start_stop = Path(tmp) / "start_stop.ndjson"
        start_stop.write_text(f"{lines[0]}\n{lines[-1]}\n", encoding="utf-8")
        check_answers(command, batch)
        runs: dict[str, tuple[list[str], Path, dict[str, str] | None]] = {
            "ours/batch": (command, batch, None),
            "ours/start+stop": (command, start_stop, None),
            "floor/json.loads": ([python, "-c", floor_json], batch, None),
            "floor/interpreter": ([python, "-c", "pass"], start_stop, None),
        }
        if args.before is not None:
            env = {**os.environ, "PYTHONPATH": str(args.before.resolve() / "src")}
            runs["before/batch"] = (command, batch, env)
            runs["before/start+stop"] = (command, start_stop, env)
        best: dict[str, float] = {}
        cpu: dict[str, float] = {}
        for _ in range(ROUNDS):  # in alternation, so load falls on every process alike
            for name, (argv, source, run_env) in runs.items():
                wall_s, cpu_s = run_process(argv, source, run_env)
                best[name] = min(best.get(name, wall_s), wall_s)
                cpu[name] = min(cpu.get(name, cpu_s), cpu_s)
        size = batch.stat().st_size
    ours, startup = best["ours/batch"], best["ours/start+stop"]
    floor = best["floor/json.loads"]
    per_case = (ours - startup) / CASES
    ratio = ours / ANCHOR_S
    cpu_ratio = cpu["ours/batch"] / ANCHOR_S
    print(f"scope batch: {CASES} portable cases ({size / 1e6:.2f} MB), best of {ROUNDS}")
    print(f"| {'process':<40} | {'wall s':>7} | {'cpu s':>7} | {'ours/this (wall)':>16} |")
    print(f"|{'-' * 42}|{'-' * 9}|{'-' * 9}|{'-' * 18}|")
    for name, key in (
        ("ours/batch (touchstone harness)", "ours/batch"),
        ("ours/start+stop (start-up alone)", "ours/start+stop"),
        ("floor/json.loads of the same lines", "floor/json.loads"),
        ("floor/interpreter (python -c pass)", "floor/interpreter"),
    ):
        print(f"| {name:<40} | {best[key]:>7.3f} | {cpu[key]:>7.3f} | {ours / best[key]:>15.2f}x |")
    if args.before is not None:
        for name, key in (
            ("before/batch (--before tree)", "before/batch"),
            ("before/start+stop (--before tree)", "before/start+stop"),
        ):
            print(
                f"| {name:<40} | {best[key]:>7.3f} | {cpu[key]:>7.3f} |"
                f" {ours / best[key]:>15.2f}x |"
            )
        before_case = (best["before/batch"] - best["before/start+stop"]) / CASES
        print(f"before: per case after start-up {before_case * 1e6:.1f} us")
    print(
        f"| {'anchor/Chio Rust matcher (issue 13)':<40} | {ANCHOR_S:>7.3f} | {'':>7} |"
        f" {ours / ANCHOR_S:>15.2f}x |"
    )
    load = load_average()
    print(f"load average at the end: {load}")
    print(f"per case after start-up: {per_case * 1e6:.1f} us")
    verdict = "meets" if ratio <= GOAL_RATIO else "misses"
    print(
        f"ratio ours : anchor = {ratio:.2f}x wall (goal <= {GOAL_RATIO:.0f}x: {verdict});"
        f" {cpu_ratio:.2f}x on CPU time"
    )
    write_results(
        "scope_batch",
        {
            "cases": CASES,
            "batch_bytes": size,
            "rounds": ROUNDS,
            "wall_s": best,
            "cpu_s": cpu,
            "ratio_to_anchor_cpu": cpu_ratio,
            "per_case_after_startup_s": per_case,
            "anchor_chio_s": ANCHOR_S,
            "anchor_source": "issue 13; not in /work/shared/reference; Chio not buildable here",
            "ratio_to_anchor": ratio,
            "ratio_to_json_floor": ours / floor,
            "goal_ratio": GOAL_RATIO,
            "goal_met": ratio <= GOAL_RATIO,
        },
    )


if __name__ == "__main__":
    sys.exit(main())
