"""The committed upstream matrix (``docs/upstream-matrix.md``) against the shipped vectors.

No upstream source is needed: the doc, the vectors and the harnesses' baselines are all in the
tree.  ``make upstream-matrix`` regenerates the doc where the sources are.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "upstream-matrix.md"
BASELINES = {
    "Chio (chio-peer)": ROOT / "bench" / "chio_peer" / "baseline-d2816aa0.json",
    "serde_json": ROOT / "conformance" / "upstream" / "serde_json" / "baseline.json",
    "turbomcp": ROOT / "conformance" / "upstream" / "turbomcp" / "baseline.json",
}
CLASSES = (
    "seed differs from upstream snapshot",
    "Debian crate version differs",
    "harness cannot express it",
)
_CELL = re.compile(r"(\d+) passed(?:, (\d+) failed)?")


def _section(title: str) -> list[list[str]]:
    """The rows of every table under the ``## title`` section, as stripped cells."""
    text = DOC.read_text(encoding="utf-8")
    body = text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]
    return [
        [c.strip() for c in line.strip().strip("|").split("|")]
        for line in body.splitlines()
        if line.startswith("|") and not line.startswith("|---")
    ]


def _vectors() -> dict[str, str]:
    """Every shipped vector id and its operation."""
    out = {}
    for path in (ROOT / "conformance" / "vectors").rglob("*.json"):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(doc, dict) and "tests" in doc:
            for test in doc["tests"]:
                out[test["id"]] = doc["operation"]
    return out


def _failures() -> dict[str, dict[str, tuple[str, str]]]:
    """Per upstream: failing vector id -> (operation, reason text with its class)."""
    text = DOC.read_text(encoding="utf-8")
    body = text.split("\n## Upstream failures, each with its reason\n", 1)[1].split("\n## ", 1)[0]
    out: dict[str, dict[str, tuple[str, str]]] = {}
    for part in body.split("\n### ")[1:]:
        name, _, rest = part.partition("\n")
        rows = [
            [c.strip() for c in line.strip().strip("|").split("|")]
            for line in rest.splitlines()
            if line.startswith("|") and not line.startswith("|---")
        ]
        reasons = {r[0]: f"{r[1]}: {r[3]}" for r in rows if len(r) == 4 and r[0].isdigit()}
        out[name] = {
            r[1].strip("`"): (r[0].strip("`"), reasons[r[2]])
            for r in rows
            if len(r) == 3 and r[0] != "operation"
        }
    return out


def _counts(cell: str) -> tuple[int, int] | None:
    match = _CELL.fullmatch(cell)
    return (int(match[1]), int(match[2] or 0)) if match else None


def test_conf_upstream_2_rows_are_the_shipped_operations() -> None:
    """CONF-UPSTREAM-2: one row per shipped operation, with its vector count, and the
    reference passes every one."""
    manifest = json.loads((ROOT / "conformance" / "vectors" / "MANIFEST.json").read_text())
    counts: dict[str, int] = manifest["counts"]["operation"]
    rows = _section("Operations")[1:]
    assert {r[0].strip("`"): int(r[1]) for r in rows} == counts
    for row in rows:
        assert row[2] == f"{row[1]} passed", row


def test_conf_upstream_2_cells_add_up() -> None:
    """CONF-UPSTREAM-2: an upstream or Node cell either is n/a or counts every vector of the
    row; an upstream's failed count is the number of its listed failures of that operation;
    the totals are the rows' sums."""
    failures = _failures()
    totals: dict[str, list[int]] = {}
    for operation, count, _, upstream, theirs, node in _section("Operations")[1:]:
        vectors = int(count)
        total = totals.setdefault(upstream, [0, 0, 0, 0])
        total[0] += vectors
        for cell in (theirs, node):
            counted = _counts(cell)
            assert cell == "n/a" or (counted is not None and sum(counted) == vectors), cell
        counted = _counts(theirs)
        if counted is None:
            total[3] += vectors
            continue
        listed = [i for i, (op, _) in failures.get(upstream, {}).items() if op == operation[1:-1]]
        assert counted[1] == len(listed), (operation, counted, len(listed))
        total[1] += counted[0]
        total[2] += counted[1]
    rows = _section("Totals per upstream")[1:]
    assert {r[0]: [int(c) for c in r[1:]] for r in rows} == totals


def test_conf_upstream_1_every_failure_exists_and_has_a_closed_list_reason() -> None:
    """CONF-UPSTREAM-1: every failing id listed is a shipped vector of its operation, and its
    reason is one of the closed list's classes and the one the harness's baseline gives."""
    vectors = _vectors()
    failures = _failures()
    assert set(failures) == set(BASELINES)
    for upstream, listed in failures.items():
        baseline = {
            e["id"]: e["reason"]
            for e in json.loads(BASELINES[upstream].read_text(encoding="utf-8"))["entries"]
        }
        for vector_id, (operation, reason) in listed.items():
            assert vectors.get(vector_id) == operation, vector_id
            assert reason.split(": ", 1)[0] in CLASSES, (vector_id, reason)
            assert baseline.get(vector_id) == reason, vector_id


@pytest.mark.parametrize("upstream", sorted(BASELINES))
def test_conf_upstream_1_baseline_reasons_are_on_the_closed_list(upstream: str) -> None:
    """CONF-UPSTREAM-1: every entry of an upstream harness's baseline names a shipped vector
    the doc lists as failing for that upstream (an empty baseline: none fails), and carries a
    reason whose class is on the closed list."""
    vectors = _vectors()
    entries = json.loads(BASELINES[upstream].read_text(encoding="utf-8"))["entries"]
    assert {e["id"] for e in entries} == set(_failures()[upstream])
    for entry in entries:
        assert entry["id"] in vectors, entry
        assert entry["reason"].split(": ", 1)[0] in CLASSES, entry


def test_conf_upstream_3_every_not_applicable_cell_has_a_reason() -> None:
    """CONF-UPSTREAM-3: an upstream cell that is n/a has its operation (or the upstream's whole
    semantic) listed with a reason from the closed list."""
    why = {(r[0], r[1]): r[2] for r in _section("Not applicable, and why")[1:]}
    for reason in why.values():
        assert reason.split(": ", 1)[0] in CLASSES, reason
    for operation, _, _, upstream, theirs, _ in _section("Operations")[1:]:
        if theirs != "n/a":
            continue
        semantic = operation.strip("`").split(".")[0]
        assert (upstream, operation) in why or any(
            name == upstream and key.startswith(f"`{semantic}.*`") for name, key in why
        ), (upstream, operation)


def test_conf_upstream_4_drt_runs_add_up() -> None:
    """CONF-UPSTREAM-4: every recorded DRT run against an upstream harness counts its cases as
    agreeing or disagreeing, classifies every disagreement by a reason its harness's baseline
    uses or could use (the class is on the closed list), and the doc shows the record."""
    record = json.loads((ROOT / "conformance" / "upstream" / "drt.json").read_text())
    assert record["runs"]
    for run in record["runs"]:
        assert run["agree"] + run["disagree"] == run["cases"] <= run["draws"], run
        assert sum(run["classified"].values()) == run["disagree"], run
        assert set(run["classified"]) <= set(record["classes"]), run
    for text in record["classes"].values():
        assert text.split(": ", 1)[0] in CLASSES, text
    rows = _section("DRT against the upstream harnesses")[1:]
    shown = {(r[0], r[1].strip("`")): int(r[4]) for r in rows}
    assert shown == {(r["upstream"], r["operation"]): r["cases"] for r in record["runs"]}
