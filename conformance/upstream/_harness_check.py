"""The check every upstream harness shares: run the vectors, explain each failure, hold the
baseline.

A harness's ``check.py`` supplies what is its own (the reasons its upstream may differ, and the
explainer that names one for a failing vector from its input and the two answers); this module
runs ``touchstone run`` against the harness (:func:`touchstone_run`), asks it cases over harness
protocol v1 (:func:`ask`), and in :func:`check_vectors` turns the explained failures into the
expected-failures baseline (``--write-baseline``), checks the baseline gives each failure its
reason, and requires the run with the baseline to pass.  Every unexplained failure is a finding;
:func:`finish` prints them and gives the exit status.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
COLUMNS = ("pass", "fail", "expected", "error", "skip", "n/a")

Explain = Callable[[list[dict[str, Any]]], list[str | None]]
"""Given the failing results of a run (``touchstone run`` report entries, in order), the key of
the reason that explains each, or None (a finding)."""


@dataclass(frozen=True, slots=True)
class Harness:
    """One upstream harness: its label, the semantic it serves, its directory (``build.py``,
    ``check.py``, the git-ignored ``build/``), its binary's name, its expected-failures baseline
    and how to build it."""

    label: str
    semantic: str
    directory: Path
    binary_name: str
    baseline: Path
    build: str

    @property
    def binary(self) -> Path:
        return self.directory / "build" / "target" / "release" / self.binary_name

    @property
    def check(self) -> Path:
        return self.directory / "check.py"

    def built(self, variable: str) -> Path | None:
        """The binary to check: the one ``variable`` names, else the built one; None (after a
        one-line message saying how to build it) when there is none."""
        named = os.environ.get(variable)
        binary = Path(named) if named else self.binary
        if binary.is_file():
            return binary
        print(f"{self.binary_name} is not built: {self.build}", file=sys.stderr)
        return None


HARNESSES = {
    "chio": Harness(
        "Chio (chio-peer)",
        "scope",
        ROOT / "bench" / "chio_peer",
        "chio-peer",
        ROOT / "bench" / "chio_peer" / "baseline-d2816aa0.json",
        "make chio-peer CHIO_GIT=...",
    ),
    "serde_json": Harness(
        "serde_json",
        "json",
        HERE / "serde_json",
        "serde-json-harness",
        HERE / "serde_json" / "baseline.json",
        "python conformance/upstream/serde_json/build.py",
    ),
    "turbomcp": Harness(
        "turbomcp",
        "visibility",
        HERE / "turbomcp",
        "turbomcp-harness",
        HERE / "turbomcp" / "baseline.json",
        "python conformance/upstream/turbomcp/build.py (TURBOMCP_GIT=...)",
    ),
}
"""The upstream harnesses that are built, by the key ``drt.py --upstream`` takes."""


def touchstone_run(impl: str | None, *extra: str) -> tuple[int, dict[str, Any]]:
    """``touchstone run [--impl impl] --report ... <extra>`` over the shipped vectors: the exit
    status and the JSON report (the reference itself when ``impl`` is None)."""
    touchstone = str(Path(sys.executable).with_name("touchstone"))
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        command = [touchstone, "run", *(["--impl", impl] if impl else [])]
        done = subprocess.run(
            [*command, "--report", str(report), *extra], capture_output=True, check=False
        )
        if not report.is_file():
            raise SystemExit(f"touchstone run --impl {impl} wrote no report: {done.stderr!r}")
        doc: dict[str, Any] = json.loads(report.read_text())
        return done.returncode, doc


def totals(report: dict[str, Any]) -> str:
    """The report's summary columns, summed over the semantics."""
    summed: Counter[str] = Counter()
    for columns in report["summary"].values():
        summed.update(columns)
    return ", ".join(f"{column} {summed[column]}" for column in COLUMNS)


def ask(command: Sequence[str], cases: Sequence[tuple[str, str]]) -> list[Any]:
    """Each ``(operation, input as JSON text)`` case's ``output`` from one process of
    ``command`` (the whole response line when it has none: an ``errored`` or ``skipped`` line
    differs from any answer).  The input text is sent as written."""
    with tempfile.TemporaryFile() as requests:
        requests.write(b'{"cmd":"start","version":1}\n')
        for seq, (operation, text) in enumerate(cases):
            head = json.dumps({"cmd": "run", "seq": seq})[:-1]
            case = f'{{"operation":{json.dumps(operation)},"input":{text}}}'
            requests.write(f'{head}, "case": {case}}}\n'.encode())
        requests.write(b'{"cmd":"stop"}\n')
        requests.seek(0)
        out = subprocess.run(command, stdin=requests, capture_output=True, check=True).stdout
    lines = [json.loads(line) for line in out.splitlines()[1:]]  # after the start response
    assert [line.get("seq") for line in lines] == list(range(len(cases))), "answers out of order"
    return [line.get("output", line) for line in lines]


def check_vectors(  # noqa: PLR0917  # one harness's whole vector check, one call
    label: str,
    harness: str,
    baseline: Path,
    reasons: Mapping[str, str],
    explain: Explain,
    write_baseline: bool,
    *extra: str,
) -> list[str]:
    """Run the vectors against ``harness`` (``touchstone run --impl harness <extra>``), explain
    every failure, write ``baseline`` from the explanations when asked (only when all are
    explained), check the baseline gives each failure its reason (``reasons[key]``), and run
    again with it, which must pass.  Returns the findings."""
    status, report = touchstone_run(harness, *extra)
    print(f"touchstone run --impl {label}: exit {status}; {totals(report)}")
    failed = [r for r in report["results"] if r["verdict"] not in ("pass", "not_applicable")]
    explained: dict[str, str] = {}
    findings = []
    for result, key in zip(failed, explain(failed), strict=True):
        if key is None:
            findings.append(f"{result['id']}: {json.dumps(result)}")
        else:
            explained[result["id"]] = key
    for key, count in sorted(Counter(explained.values()).items()):
        print(f"    {key}: {count} vectors")
    if write_baseline and not findings:
        entries = [{"id": i, "reason": reasons[k]} for i, k in explained.items()]
        doc = {"schema": "touchstone-baseline/1", "entries": entries}
        baseline.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
        print(f"    wrote {baseline.name} ({len(entries)} entries)")
    listed = {e["id"]: e["reason"] for e in json.loads(baseline.read_text())["entries"]}
    for vector_id, key in sorted(explained.items()):
        if listed.get(vector_id) != reasons[key]:
            findings.append(f"{vector_id}: {baseline.name} does not give it the reason {key}")
    status, report = touchstone_run(harness, *extra, "--expected-failures", str(baseline))
    stale = report["stale_baseline"]
    print(
        f"    with {baseline.name}: exit {status} (conformant: {report['conformant']});"
        f" {totals(report)}" + (f"; stale entries {stale}" if stale else "")
    )
    if status != 0:
        findings.append(f"the run with {baseline.name} exited {status}")
    return findings


def finish(label: str, findings: list[str]) -> int:
    """Print the findings and the verdict line; the exit status (1 when there are findings)."""
    for finding in findings:
        print(f"FINDING {finding}")
    print(f"{label}: " + ("every difference explained" if not findings else "FINDINGS above"))
    return 1 if findings else 0


def check_main(key: str, variable: str, reasons: Mapping[str, str], explain: Explain) -> int:
    """A harness's ``check.py`` whole: ``[--write-baseline]``, the binary (``variable`` or
    the built one), :func:`check_vectors` over the semantic the harness serves, then
    :func:`finish`.  Exit 2 when the harness is not built."""
    harness = HARNESSES[key]
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--write-baseline", action="store_true", help=f"rewrite {harness.baseline.name}"
    )
    args = parser.parse_args()
    binary = harness.built(variable)
    if binary is None:
        return 2
    findings = check_vectors(
        harness.binary_name,
        str(binary),
        harness.baseline,
        reasons,
        explain,
        args.write_baseline,
        "--semantic",
        harness.semantic,
    )
    return finish(key, findings)
