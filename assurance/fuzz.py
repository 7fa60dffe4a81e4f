"""``make fuzz``: coverage-guided byte fuzzing (atheris/libFuzzer) of every parser target.

``python -m assurance.fuzz TARGET [libFuzzer flags]`` fuzzes one target of
:mod:`assurance.fuzz_targets` in this process (libFuzzer runs one target per process);
``python -m assurance.fuzz all --seed S`` runs every target in turn, each in its own subprocess
with ``-runs=<its quota> -seed=S -timeout=5 -rss_limit_mb=2048``, and prints per target the
measured input count (libFuzzer's own "Done N runs" line), the time and the rate. A target cut
short of its quota (``--seconds``) is reported ``SHORT`` and the run exits 3: the quota is the
claim. A crash (an untyped exception or a :class:`FindingError`) or an input over the per-input
time limit makes the run fail and leaves the reproducer (and each target's libFuzzer log) in
``assurance/fuzz-findings/``. ``--calibrate SECONDS`` runs each target that long with no quota and
prints its rate and the time its quota would take.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FINDINGS = ROOT / "assurance" / "fuzz-findings"
SEEDS = ROOT / "conformance" / "vectors"

# Inputs per target in one `make fuzz` (1,000,000 in all), set from each target's measured rate
# (`--calibrate 30`, docs/assurance.md): every target reaches its quota, none gets under 50,000
# but the CLI (argparse and a file per input, ~100/s: 25,000), and the slowest (the byte-level
# payload reader behind mrtr_payload and mrtr_token, instrumented: ~150-600/s) take ~2-6 min.
RUNS: dict[str, int] = {
    "json_from_str": 150_000,
    "json_validate": 125_000,
    "scope_decode": 125_000,
    "regex_size": 50_000,
    "mrtr_capabilities": 125_000,
    "mrtr_input_request": 150_000,
    "mrtr_payload": 50_000,
    "mrtr_token": 50_000,
    "harness_line": 150_000,
    "cli_eval": 25_000,
}
UNINSTRUMENTED = ("mcp_touchstone._rust",)
"""Modules run but not coverage-instrumented: ``_rust`` is Rust's string semantics, and its
per-character escape loop (``rust_debug_str`` on non-ASCII text, reached whenever a decoder
quotes a fuzzed string in its error) under atheris's instrumentation was 10 ms an input, ~95% of
the time of ``scope_decode`` and the MRTR decoders on non-ASCII bytes; its coverage is a walk of
the Unicode tables, which guides nothing (``--instrument-all`` measures the difference)."""


def _regex_patterns(value: object) -> Iterator[str]:
    """Every regex pattern a vector input holds: ``regex_match`` values and the lists of
    ``memory_write_deny_patterns``, at any depth."""
    if isinstance(value, dict):
        tag, content = value.get("type"), value.get("value")
        if tag == "regex_match" and isinstance(content, str):
            yield content
        elif tag == "memory_write_deny_patterns" and isinstance(content, list):
            yield from (item for item in content if isinstance(item, str))
        for item in value.values():
            yield from _regex_patterns(item)
    elif isinstance(value, list):
        for item in value:
            yield from _regex_patterns(item)


def _seed_corpus(target: str, out: Path) -> None:
    """Seed inputs: every conformance vector's input (as JSON text)."""
    from mcp_touchstone import serde_json
    from mcp_touchstone.conformance import load_vectors

    out.mkdir(parents=True, exist_ok=True)
    if any(out.iterdir()):
        return
    if target == "regex_size":  # patterns, not JSON: every regex a vector holds
        found = {p for v in load_vectors(SEEDS) for p in _regex_patterns(v.input)}
        for k, pattern in enumerate(sorted(found)):
            (out / f"seed-{k:05d}").write_bytes(pattern.encode("utf-8", "surrogatepass")[:4096])
        return
    for k, v in enumerate(load_vectors(SEEDS)):
        data = serde_json.to_string(v.input).encode()
        if target in ("harness_line", "cli_eval"):
            data = bytes([k % 251]) + data
        (out / f"seed-{k:05d}").write_bytes(data[:4096])


def fuzz_one(target: str, flags: list[str], *, instrument_all: bool = False) -> None:
    """Run libFuzzer on one target in this process (does not return)."""
    import atheris

    exclude = [] if instrument_all else list(UNINSTRUMENTED)
    with atheris.instrument_imports(include=["mcp_touchstone", "assurance"], exclude=exclude):
        from assurance import fuzz_targets
    fn = fuzz_targets.TARGETS[target]
    atheris.Setup([sys.argv[0], *flags], fn)
    atheris.Fuzz()


def fuzz_all(
    scale: float,
    seed: int,
    targets: list[str],
    seconds: int = 0,
    *,
    calibrate: int = 0,
    instrument_all: bool = False,
) -> int:
    """Every target in its own subprocess; the total input count, and any failure or shortfall."""
    FINDINGS.mkdir(parents=True, exist_ok=True)
    total, quota_total, failed, short, took_total = 0, 0, [], [], 0.0
    for target in targets:
        corpus = ROOT / ".fuzz-corpus" / target
        _seed_corpus(target, corpus)
        runs = -1 if calibrate else max(1, int(RUNS[target] * scale))
        cmd = [sys.executable, "-m", "assurance.fuzz", target, f"-runs={runs}", f"-seed={seed}",
               "-timeout=5", "-rss_limit_mb=2048", "-max_len=1024", "-print_final_stats=1",
               f"-artifact_prefix={FINDINGS}/{target}-", str(corpus)]  # fmt: skip
        if calibrate or seconds:
            cmd.insert(4, f"-max_total_time={calibrate or seconds}")
        if instrument_all:
            cmd.insert(4, "--instrument-all")
        log = FINDINGS / f"{target}.log"  # libFuzzer's progress, kept if the run is cut short
        t0 = time.monotonic()
        with log.open("w", encoding="utf-8") as err:
            proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err, check=False)
        took = time.monotonic() - t0
        took_total += took
        stderr = log.read_text(encoding="utf-8", errors="replace")
        found = re.findall(r"Done (\d+) runs", stderr)
        execs = int(found[-1]) if found else 0
        total += execs
        rate = execs / took if took else 0.0
        if proc.returncode != 0:
            status = f"FAILED (exit {proc.returncode})"
            failed.append(target)
        elif calibrate:
            status = f"quota {RUNS[target]:,} ~ {RUNS[target] / rate if rate else 0:,.0f} s"
        elif execs < runs:
            status = f"SHORT ({execs:,} of {runs:,})"
            short.append(target)
        else:
            status = "clean"
        quota_total += 0 if calibrate else runs
        print(f"{target:<20} {execs:>9} inputs {took:>7.1f} s {rate:>7.0f}/s  {status}", flush=True)
        if proc.returncode != 0:
            print(stderr[-3000:], flush=True)
    reached = f" (quota {quota_total:,})" if not calibrate else ""
    print(f"{'total':<20} {total:>9} inputs {took_total:>7.1f} s{reached}", flush=True)
    if short:
        print(f"short of quota: {', '.join(short)} (raise --seconds or lower --scale)", flush=True)
    return 1 if failed else 3 if short else 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] != "all":
        instrument_all = "--instrument-all" in argv[1:]
        flags = [a for a in argv[1:] if a != "--instrument-all"]
        fuzz_one(argv[0], flags, instrument_all=instrument_all)
        return 0
    p = argparse.ArgumentParser(prog="python -m assurance.fuzz all")
    p.add_argument("all")
    p.add_argument("--scale", type=float, default=1.0, help="multiply every target's input count")
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--target", action="append")
    p.add_argument("--seconds", type=int, default=0, help="stop each target after this long")
    p.add_argument("--calibrate", type=int, default=0, metavar="SECONDS",
                   help="run each target this long with no quota; print its rate")  # fmt: skip
    p.add_argument("--instrument-all", action="store_true",
                   help="instrument UNINSTRUMENTED too (what leaving it out saves)")  # fmt: skip
    args = p.parse_args(argv)
    from assurance.fuzz_targets import TARGETS

    return fuzz_all(
        args.scale,
        args.seed,
        args.target or list(TARGETS),
        args.seconds,
        calibrate=args.calibrate,
        instrument_all=args.instrument_all,
    )


if __name__ == "__main__":
    raise SystemExit(main())
