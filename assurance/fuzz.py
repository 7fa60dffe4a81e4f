"""``make fuzz``: coverage-guided byte fuzzing (atheris/libFuzzer) of every parser target.

``python -m assurance.fuzz TARGET [libFuzzer flags]`` fuzzes one target of
:mod:`assurance.fuzz_targets` in this process (libFuzzer runs one target per process);
``python -m assurance.fuzz all --runs N --seed S`` runs every target in turn, each in its own
subprocess with ``-runs=N -seed=S -timeout=5 -rss_limit_mb=2048``, and prints the measured input
count per target (libFuzzer's own "Done N runs" line). A crash (an untyped exception or a
:class:`FindingError`) or an input over the per-input time limit makes the run fail and leaves the
reproducer (and each target's libFuzzer log) in ``assurance/fuzz-findings/``.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FINDINGS = ROOT / "assurance" / "fuzz-findings"
SEEDS = ROOT / "conformance" / "vectors"

# Inputs per target in one `make fuzz` (1,010,000 in all); the CLI target is ~50x dearer per input
# (argparse and a file per input) and gets fewer.
RUNS: dict[str, int] = {
    "json_from_str": 200_000,
    "json_validate": 100_000,
    "scope_decode": 150_000,
    "mrtr_capabilities": 100_000,
    "mrtr_input_request": 100_000,
    "mrtr_payload": 150_000,
    "mrtr_token": 100_000,
    "harness_line": 100_000,
    "cli_eval": 10_000,
}


def _seed_corpus(target: str, out: Path) -> None:
    """Seed inputs: every conformance vector's input (as JSON text)."""
    from mcp_touchstone import serde_json
    from mcp_touchstone.conformance import load_vectors

    out.mkdir(parents=True, exist_ok=True)
    if any(out.iterdir()):
        return
    for k, v in enumerate(load_vectors(SEEDS)):
        data = serde_json.to_string(v.input).encode()
        if target in ("harness_line", "cli_eval"):
            data = bytes([k % 251]) + data
        (out / f"seed-{k:05d}").write_bytes(data[:4096])


def fuzz_one(target: str, flags: list[str]) -> None:
    """Run libFuzzer on one target in this process (does not return)."""
    import atheris

    with atheris.instrument_imports(include=["mcp_touchstone", "assurance"]):
        from assurance import fuzz_targets
    fn = fuzz_targets.TARGETS[target]
    atheris.Setup([sys.argv[0], *flags], fn)
    atheris.Fuzz()


def fuzz_all(scale: float, seed: int, targets: list[str], seconds: int = 0) -> int:
    """Every target in its own subprocess; the total input count and any failure."""
    FINDINGS.mkdir(parents=True, exist_ok=True)
    total, failed = 0, []
    for target in targets:
        corpus = ROOT / ".fuzz-corpus" / target
        _seed_corpus(target, corpus)
        runs = max(1, int(RUNS[target] * scale))
        cmd = [sys.executable, "-m", "assurance.fuzz", target, f"-runs={runs}", f"-seed={seed}",
               "-timeout=5", "-rss_limit_mb=2048", "-max_len=1024", "-print_final_stats=1",
               f"-artifact_prefix={FINDINGS}/{target}-", str(corpus)]  # fmt: skip
        if seconds:
            cmd.insert(4, f"-max_total_time={seconds}")
        log = FINDINGS / f"{target}.log"  # libFuzzer's progress, kept if the run is cut short
        t0 = time.monotonic()
        with log.open("w", encoding="utf-8") as err:
            proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err, check=False)
        took = time.monotonic() - t0
        stderr = log.read_text(encoding="utf-8", errors="replace")
        found = re.findall(r"Done (\d+) runs", stderr)
        execs = int(found[-1]) if found else 0
        total += execs
        status = "clean" if proc.returncode == 0 else f"FAILED (exit {proc.returncode})"
        print(f"{target:<20} {execs:>9} inputs {took:>7.1f} s  {status}", flush=True)
        if proc.returncode != 0:
            failed.append(target)
            print(stderr[-3000:], flush=True)
    print(f"{'total':<20} {total:>9} inputs", flush=True)
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] != "all":
        fuzz_one(argv[0], argv[1:])
        return 0
    p = argparse.ArgumentParser(prog="python -m assurance.fuzz all")
    p.add_argument("all")
    p.add_argument("--scale", type=float, default=1.0, help="multiply every target's input count")
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--target", action="append")
    p.add_argument("--seconds", type=int, default=0, help="stop each target after this long")
    args = p.parse_args(argv)
    from assurance.fuzz_targets import TARGETS

    return fuzz_all(args.scale, args.seed, args.target or list(TARGETS), args.seconds)


if __name__ == "__main__":
    raise SystemExit(main())
