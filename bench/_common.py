"""Shared helpers of the benchmark scripts: alternating best-of-N measurement, the machine
description, and the JSON results file each script writes to ``bench/results/<name>.json``.

The machine is shared (2 cores, several engineers), so every script measures ours and the
peer in alternation inside one run and keeps each side's best sample: a burst of load from
another process then slows one sample of each side rather than all of one side.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"


def cpu_model() -> str:
    """The CPU model line of /proc/cpuinfo (or the platform's processor string)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def load_average() -> tuple[float, float, float] | None:
    """The 1/5/15-minute load averages, or None where the OS has none."""
    try:
        return os.getloadavg()
    except OSError:
        return None


def machine() -> dict[str, Any]:
    """What the figures were measured on, and how loaded it was when the script started."""
    return {
        "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "nproc": os.cpu_count(),
        "cpu": cpu_model(),
        "python": platform.python_version(),
        "load_average": load_average(),
    }


def per_call(fn: Callable[[], object], number: int) -> float:
    """Mean seconds per call over ``number`` calls of ``fn``."""
    start = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - start) / number


def alternate(samplers: Mapping[str, Callable[[], float]], rounds: int) -> dict[str, float]:
    """Best sample of each sampler over ``rounds`` rounds, every round taking one sample of
    each in turn (so load on a shared machine falls on all of them alike)."""
    best: dict[str, float] = {}
    for _ in range(rounds):
        for name, sample in samplers.items():
            seconds = sample()
            best[name] = min(best.get(name, seconds), seconds)
    return best


def run_process(
    command: list[str], stdin: Path, env: Mapping[str, str] | None = None
) -> tuple[float, float]:
    """Wall-clock and CPU (user + system) seconds of one whole process run of ``command`` with
    ``stdin`` as its standard input (output read and discarded; a non-zero exit is an error),
    in ``env`` (default: this process's environment).
    CPU time is the load-robust figure on a shared machine: waiting for a core is not in it."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with stdin.open("rb") as source:
        start = time.perf_counter()
        done = subprocess.run(command, stdin=source, stdout=subprocess.PIPE, check=False, env=env)
        seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{command!r} exited {done.returncode}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu


def write_results(name: str, figures: Mapping[str, Any]) -> Path:
    """Write ``figures`` (plus the machine description) to ``bench/results/<name>.json``."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    doc = {"benchmark": name, "machine": machine(), **figures}
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    print(f"results: {path.relative_to(ROOT)}")
    return path


def interpreter() -> str:
    """The Python running the benchmarks (the project's .venv under ``make bench``)."""
    return sys.executable
