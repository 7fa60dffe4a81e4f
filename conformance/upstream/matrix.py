"""``make upstream-matrix``: every shipped vector against the reference, each upstream harness
and the Node harness; writes ``docs/upstream-matrix.md``.

Run: ``.venv/bin/python conformance/upstream/matrix.py [--out FILE]`` after
``make upstream-harnesses``.  A harness that is not built is a one-line refusal (the doc is only
regenerated whole).  Rows are operations; the columns are the reference, the upstream harness of
the operation's semantic (:data:`UPSTREAMS`) and the Node harness
(``conformance/harnesses/node``).  A cell counts the vectors that passed and failed in a run
without a baseline, or says the harness does not run the operation and why.  Every failing
vector of an upstream harness must be listed in that harness's baseline with a reason whose
class is one of the closed list (spec/conformance.md CONF-UPSTREAM-1); the doc lists them.  The
DRT section is rendered from ``drt.json`` beside this file (what was run, and how each
disagreement was classified).  Nothing time-dependent is written, so the doc is the same byte
for byte given the same harness builds.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import offline  # beside this file
from _harness_check import HARNESSES, touchstone_run  # beside this file

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "upstream-matrix.md"
DRT = Path(__file__).resolve().parent / "drt.json"
MANIFEST = ROOT / "conformance" / "vectors" / "MANIFEST.json"
NODE = ("node", str(ROOT / "conformance" / "harnesses" / "node" / "harness.js"))
NODE_BASELINE = ROOT / "conformance" / "harnesses" / "node" / "baseline.json"

REASON_CLASSES = (
    "seed differs from upstream snapshot",
    "Debian crate version differs",
    "harness cannot express it",
)
"""The closed list of reasons an upstream harness may fail a vector (CONF-UPSTREAM-1); a reason
text starts with one of them and a colon.  A reference bug is not on the list: it is fixed."""

_CHIO_KERNEL = (
    "chio-kernel at d2816aa0 does not build offline: it needs lru ^0.16.3, rusqlite ^0.39,"
    " ureq ^2.10 and (through chio-link) reqwest ^0.13.2, where Debian bookworm packages lru"
    " 0.7.8, rusqlite 0.28.0, ureq 2.6.2 and reqwest 0.11.13; a stub would have to re-implement"
    " the API the kernel's own code calls"
)


@functools.cache
def not_built(name: str) -> str:
    """Why an upstream's crates are not linked, from ``offline.py`` over its source (its git
    dir variable must be set): the dependency requirements Debian's crate packages cannot meet,
    and why no harness may link less of the upstream."""
    source = offline.SOURCES[name]
    crates = ", ".join(f"{c}/Cargo.toml" for c in source.crates)
    return (
        f"harness cannot express it: {name} {source.commit} cannot be built offline"
        f" ({crates}, `conformance/upstream/offline.py {name}`): Debian bookworm's crate"
        f" packages cannot meet {', '.join(offline.unmet(name))}; {source.why}"
    )


@dataclass(frozen=True)
class Upstream:
    """One upstream's harness column: how to start it and what it does not run, with why."""

    name: str
    semantic: str
    binary: Path | None
    build: str
    baseline: Path | None = None
    not_run: dict[str, str] = field(default_factory=dict)
    not_built: str = ""
    offline_ops: tuple[str, ...] = ()
    """With ``not_built``: the operations not run because the crates they need do not build
    offline (every operation when there is no binary)."""


UPSTREAMS = (
    Upstream(
        HARNESSES["chio"].label,
        "scope",
        HARNESSES["chio"].binary,
        HARNESSES["chio"].build,
        HARNESSES["chio"].baseline,
        {
            "scope.hosted_match": (
                "harness cannot express it: the hosted matcher is chio-kernel's"
                " request_matching.rs, and the version the spec mirrors (bb-connor/arc 08876737)"
                " is in neither mirrored history (backbay-labs/chio's holds only a README);"
                " d2816aa0's own request_matching.rs cannot be included alone either: it takes"
                " `use super::*` from chio-kernel's kernel/mod.rs (5,800 lines) for KernelError"
                " (whose variants wrap SessionError, ReceiptStoreError, RevocationStoreError and"
                " BudgetStoreError, the rest of the kernel), MatchingGrant and CapabilityToken,"
                " which the operation reaches (it builds MatchingGrant values and returns"
                " KernelError::InvalidConstraint), so no stub may stand in; and"
                f" {_CHIO_KERNEL}"
            ),
            "scope.admit": (
                "harness cannot express it: the ranked admission loop the spec mirrors"
                " (backbay-labs/chio feedb5a7, async_evaluation_core.rs; permits_matching_grant"
                " at a2ff5292) is in neither mirrored history, and bb-connor/arc d2816aa0 has"
                " neither file nor function; Chio's loop calls the guards, the budget store and"
                " the runtime hook itself inside chio-kernel (no entry point takes the stage"
                f" outcomes the operation injects); besides, {_CHIO_KERNEL}"
            ),
            "scope.bind_event": (
                "harness cannot express it: Chio d2816aa0's chio-ag-ui-proxy (proxy.rs decide)"
                " never calls the matcher (a restricted event is forwarded when the capability's"
                " time bounds hold) and has no grant_binds_event; the proxy the spec mirrors"
                " (bb-connor/arc 123cc792 and 4bad2b57) is not in the mirrored history"
            ),
            "scope.evaluate_entry": (
                "harness cannot express it: Chio d2816aa0 has no require_cumulative_approval_above"
                " and no has_cumulative_approval, so no evaluate entry point refuses it (the"
                " versions the spec mirrors, bb-connor/arc 123cc792, are not in the mirrored"
                " history); evaluate also takes a signed CapabilityToken, and this build's"
                " ed25519-dalek is a stub that aborts"
            ),
        },
    ),
    Upstream(
        HARNESSES["serde_json"].label,
        "json",
        HARNESSES["serde_json"].binary,
        HARNESSES["serde_json"].build,
        HARNESSES["serde_json"].baseline,
    ),
    Upstream("neva", "mrtr", None, "offline.py neva", not_built="neva"),
    Upstream(
        HARNESSES["turbomcp"].label,
        "visibility",
        HARNESSES["turbomcp"].binary,
        HARNESSES["turbomcp"].build,
        HARNESSES["turbomcp"].baseline,
        not_built="turbomcp",
        offline_ops=("visibility.dispatch",),
    ),
)


def run(command: list[str]) -> dict[str, Any]:
    """The JSON report of ``touchstone run`` over every shipped vector (the reference itself
    when ``command`` is empty)."""
    return touchstone_run(" ".join(command) if command else None)[1]


def tally(report: dict[str, Any]) -> dict[str, Counter[str]]:
    """Per operation: passed, failed (fail, error or skip), n/a."""
    out: dict[str, Counter[str]] = {}
    for result in report["results"]:
        verdict = result["verdict"]
        column = {"pass": "passed", "not_applicable": "n/a"}.get(verdict, "failed")
        out.setdefault(result["operation"], Counter())[column] += 1
    return out


def cell(counts: Counter[str] | None) -> str:
    if not counts or counts["n/a"]:
        return "n/a"
    text = f"{counts['passed']} passed"
    return text + (f", {counts['failed']} failed" if counts["failed"] else "")


def reason_class(reason: str) -> str | None:
    return next((c for c in REASON_CLASSES if reason.startswith(c + ": ")), None)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    for upstream in UPSTREAMS:
        if upstream.binary is not None and not upstream.binary.is_file():
            raise SystemExit(
                f"upstream-matrix: {upstream.name} is not built ({upstream.build}, or"
                " make upstream-harnesses)"
            )
    for upstream in UPSTREAMS:
        if upstream.not_built:
            not_built(upstream.not_built)  # its git dir is needed: refuse before the runs
    manifest = json.loads(MANIFEST.read_text())
    operations: dict[str, int] = manifest["counts"]["operation"]
    reference = tally(run([]))
    node = tally(run(list(NODE)))
    columns: dict[str, dict[str, Counter[str]]] = {}
    versions: dict[str, str] = {}
    failures: dict[str, list[tuple[str, str, str]]] = {}
    problems = []
    for upstream in UPSTREAMS:
        if upstream.binary is None:
            continue
        report = run([str(upstream.binary)])
        columns[upstream.name] = tally(report)
        implementation = report["implementation"]
        versions[upstream.name] = f"{implementation['name']} {implementation['version']}"
        assert upstream.baseline is not None
        listed = {
            e["id"]: e["reason"]
            for e in json.loads(upstream.baseline.read_text())["entries"]
            if "id" in e
        }
        rows = []
        for result in report["results"]:
            if result["verdict"] in ("pass", "not_applicable"):
                continue
            reason = listed.get(result["id"], "")
            if reason_class(reason) is None:
                problems.append(f"{upstream.name}: {result['id']} fails without a listed reason")
            rows.append((result["operation"], result["id"], reason))
        failures[upstream.name] = rows
    if problems:
        for problem in problems:
            print(f"upstream-matrix: {problem}", file=sys.stderr)
        return 1
    args.out.write_text(render(operations, reference, node, columns, versions, failures))
    print(f"upstream-matrix: wrote {args.out.relative_to(ROOT)}")
    return 0


def render(  # noqa: PLR0917  # the matrix's five inputs and its failures, one call
    operations: dict[str, int],
    reference: dict[str, Counter[str]],
    node: dict[str, Counter[str]],
    columns: dict[str, dict[str, Counter[str]]],
    versions: dict[str, str],
    failures: dict[str, list[tuple[str, str, str]]],
) -> str:
    by_semantic = {u.semantic: u for u in UPSTREAMS}
    lines = [
        "# Upstream matrix",
        "",
        "Every shipped vector run against the reference, against the upstream it mirrors (a",
        "harness linking the upstream's own code, built offline from Debian's crate packages)",
        "and against the Node harness (`conformance/harnesses/node`). Generated by",
        "`make upstream-matrix` (`conformance/upstream/matrix.py`); do not edit by hand.",
        "Each cell counts the vectors that passed and failed in a run without a baseline;",
        "`n/a` means the harness does not run the operation (the reason is listed below).",
        "Every upstream failure carries one reason from the closed list of spec/conformance.md",
        "(CONF-UPSTREAM-1): the seed differs from the upstream snapshot, the Debian crate version",
        "differs, or the harness cannot express it. A reference bug is fixed, never listed.",
        "",
        "Upstream harnesses run:",
        "",
    ]
    for name, version in versions.items():
        lines.append(f"- {name}: `{version}`")
    lines += [
        "",
        "## Operations",
        "",
        "| operation | vectors | reference | upstream | upstream harness | Node harness |",
        "|---|---:|---|---|---|---|",
    ]
    for operation, count in sorted(operations.items()):
        upstream = by_semantic[operation.split(".")[0]]
        theirs = columns.get(upstream.name, {}).get(operation)
        lines.append(
            f"| `{operation}` | {count} | {cell(reference.get(operation))} | {upstream.name}"
            f" | {cell(theirs)} | {cell(node.get(operation))} |"
        )
    lines += [
        "",
        "## Totals per upstream",
        "",
        "| upstream | vectors of its semantic | passed | failed | n/a |",
        "|---|---:|---:|---:|---:|",
    ]
    for upstream in UPSTREAMS:
        ops = [o for o in operations if o.split(".")[0] == upstream.semantic]
        total = sum(operations[o] for o in ops)
        counts: Counter[str] = Counter()
        for o in ops:
            c = columns.get(upstream.name, {}).get(o)
            counts.update(c if c else {"n/a": operations[o]})
        lines.append(
            f"| {upstream.name} | {total} | {counts['passed']} | {counts['failed']}"
            f" | {counts['n/a']} |"
        )
    lines += ["", "## Not applicable, and why", ""]
    lines += ["| upstream | operation | why |", "|---|---|---|"]
    for upstream in UPSTREAMS:
        ops = sorted(o for o in operations if o.split(".")[0] == upstream.semantic)
        if upstream.binary is None:
            every = f"`{upstream.semantic}.*` (all {len(ops)} operations)"
            lines.append(f"| {upstream.name} | {every} | {not_built(upstream.not_built)} |")
            continue
        for o in ops:
            if o in upstream.not_run:
                lines.append(f"| {upstream.name} | `{o}` | {upstream.not_run[o]} |")
            elif o in upstream.offline_ops:
                lines.append(f"| {upstream.name} | `{o}` | {not_built(upstream.not_built)} |")
    lines += ["", "## Upstream failures, each with its reason", ""]
    for name, rows in failures.items():
        texts = sorted({reason for _, _, reason in rows})
        number = {text: k + 1 for k, text in enumerate(texts)}
        lines += [f"### {name}", ""]
        if not rows:
            lines += ["None.", ""]
            continue
        lines += ["| reason | class | vectors | text |", "|---:|---|---:|---|"]
        tally_ = Counter(reason for _, _, reason in rows)
        for text in texts:
            klass = reason_class(text)
            body = text.removeprefix(f"{klass}: ")
            lines.append(f"| {number[text]} | {klass} | {tally_[text]} | {body} |")
        lines += ["", "| operation | vector id | reason |", "|---|---|---:|"]
        for operation, vector_id, reason in sorted(rows):
            lines.append(f"| `{operation}` | `{vector_id}` | {number[reason]} |")
        lines.append("")
    lines += render_drt()
    return "\n".join(lines).rstrip("\n") + "\n"


def render_drt() -> list[str]:
    """The DRT section, from ``drt.json`` (written by ``conformance/upstream/drt.py``)."""
    lines = ["## DRT against the upstream harnesses", ""]
    if not DRT.is_file():
        return [*lines, "Not run.", ""]
    doc = json.loads(DRT.read_text())
    lines += [doc["about"], ""]
    lines += [
        "| upstream | operation | seed | draws | distinct cases | agree | disagree | classified |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for run_ in doc["runs"]:
        classified = ", ".join(f"{k}: {v}" for k, v in sorted(run_["classified"].items()))
        lines.append(
            f"| {run_['upstream']} | `{run_['operation']}` | {run_['seed']} | {run_['draws']}"
            f" | {run_['cases']} | {run_['agree']} | {run_['disagree']} | {classified or '-'} |"
        )
    lines += ["", "Classes (the reasons of the harness's baseline, by key):", ""]
    for key, text in sorted(doc["classes"].items()):
        lines.append(f"- `{key}`: {text}")
    lines.append("")
    return lines


if __name__ == "__main__":
    sys.exit(main())
