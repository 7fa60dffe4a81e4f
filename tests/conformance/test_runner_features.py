"""`touchstone run` features an SDK team relies on: applicability, baselines, reports, shards."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mcp_touchstone._cli import main
from mcp_touchstone.conformance import _baseline, _report, default_vectors_dir, load_vectors
from mcp_touchstone.conformance._runner import Verdict

HERE = Path(__file__).resolve().parent
PLANTED = f"{sys.executable} {HERE / 'planted_impl.py'}"
WRONG_ID = "json-int-plain"  # json.to_string of "100", which the planted bug answers wrongly.


def _run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *args: str,
    only: str = "json",
    plant: str = "",
) -> tuple[int, str, str]:
    monkeypatch.setenv("TS_ONLY", only)
    monkeypatch.setenv("TS_PLANT", plant)
    status = main(["run", "--impl", PLANTED, *args])
    out, err = capsys.readouterr()
    return status, out, err


def _baseline_file(tmp_path: Path, entries: list[dict[str, str]]) -> str:
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps({"schema": "touchstone-baseline/1", "entries": entries}))
    return str(path)


def test_unannounced_operations_are_not_applicable(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """CONF-NA-1: an implementation announcing only json.* passes: the other operations' vectors
    are shown as not applicable, never sent, and not counted against it."""
    status, out, _ = _run(capsys, monkeypatch, "--format", "json")
    report = json.loads(out)
    assert status == 0
    assert report["conformant"] is True
    verdicts = {r["operation"].split(".")[0]: r["verdict"] for r in report["results"]}
    assert verdicts["json"] == "pass"
    assert verdicts["scope"] == verdicts["mrtr"] == verdicts["visibility"] == "not_applicable"
    assert report["summary"]["scope"]["n/a"] > 0


def test_failure_shows_first_differing_path(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """CONF-DIFF-1, VEC-REPORT-2: a wrong answer fails the run (exit 1) and the table names the
    vector and the first JSON path where the answer departs from the expected one."""
    status, out, _ = _run(capsys, monkeypatch, "--semantic", "json", plant="json100")
    assert status == 1
    assert f"FAIL {WRONG_ID}" in out
    assert 'at:       $.string: expected "100", got "100.0"' in out


def test_baseline_expected_failure_and_stale_entries(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """CONF-BASE-1, CONF-BASE-2: a listed failing vector is an expected failure (exit 0); a
    listed vector that passes is a stale entry and fails the run (exit 1)."""
    listed = _baseline_file(tmp_path, [{"id": WRONG_ID, "reason": "planted bug"}])
    status, out, _ = _run(
        capsys, monkeypatch, "--semantic", "json", "--expected-failures", listed, plant="json100"
    )
    assert status == 0, out
    assert "conformant: yes" in out
    status, out, _ = _run(capsys, monkeypatch, "--semantic", "json", "--expected-failures", listed)
    assert status == 1
    assert f"STALE BASELINE {WRONG_ID}: listed as failing (planted bug) but passes" in out


def test_operation_baseline(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """CONF-BASE-2: an operation entry covers its failing vectors, and is stale once none fails."""
    listed = _baseline_file(tmp_path, [{"operation": "json.to_string", "reason": "WIP"}])
    args = ("--semantic", "json", "--expected-failures", listed)
    assert _run(capsys, monkeypatch, *args, plant="json100")[0] == 0
    status, out, _ = _run(capsys, monkeypatch, *args)
    assert status == 1
    assert "STALE BASELINE operation json.to_string" in out


def test_write_baseline_round_trip(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """CONF-BASE-1: --write-baseline lists every failure with a reason, says so and exits 0
    (writing it was what was asked); a run with it exits 0."""
    out_file = tmp_path / "written.json"
    args = ("--semantic", "json")
    status, _, err = _run(
        capsys, monkeypatch, *args, "--write-baseline", str(out_file), plant="json100"
    )
    assert status == 0
    assert f"wrote baseline {out_file} (1 entry)" in err
    doc = json.loads(out_file.read_text())
    assert [e["id"] for e in doc["entries"]] == [WRONG_ID]
    assert "differs at $.string" in doc["entries"][0]["reason"]
    status, _, _ = _run(
        capsys, monkeypatch, *args, "--expected-failures", str(out_file), plant="json100"
    )
    assert status == 0


@pytest.mark.parametrize(
    "entries",
    [[{"id": WRONG_ID}], [{"id": WRONG_ID, "reason": " "}], [{"reason": "x"}], "no-list"],
    ids=["no-reason", "blank-reason", "no-key", "not-a-list"],
)
def test_bad_baseline_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    entries: Any,
) -> None:
    """CONF-BASE-1: a baseline entry without a reason (or malformed) stops the run with exit 2."""
    listed = _baseline_file(tmp_path, entries)
    status, _, err = _run(capsys, monkeypatch, "--expected-failures", listed)
    assert status == 2
    assert err.startswith("touchstone: baseline ")


def test_reports_badges_and_markdown(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """CONF-REPORT-1, CONF-REPORT-3: --report writes the JSON report, --badge a shields.io
    endpoint file per semantic, --format markdown a table and the failure's first difference."""
    report_file, badges = tmp_path / "r.json", tmp_path / "badges"
    status, out, _ = _run(
        capsys,
        monkeypatch,
        "--format",
        "markdown",
        "--report",
        str(report_file),
        "--badge",
        str(badges),
        plant="json100",
    )
    assert status == 1
    assert "| json |" in out
    assert f"| `{WRONG_ID}` | `json.to_string` | fail | `$.string`" in out
    assert json.loads(report_file.read_text())["conformant"] is False
    json_badge = json.loads((badges / "json.json").read_text())
    assert json_badge["schemaVersion"] == 1
    assert json_badge["color"] == "red"
    scope_badge = json.loads((badges / "scope.json").read_text())
    assert scope_badge["message"] == "not applicable"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_shards_partition_the_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """CONF-SHARD-1: --shard 1/3, 2/3, 3/3 run disjoint slices that together are the whole run."""
    seen: list[str] = []
    for i in (1, 2, 3):
        status, out, _ = _run(
            capsys, monkeypatch, "--semantic", "json", "--shard", f"{i}/3", "--format", "json"
        )
        assert status == 0
        seen += [r["id"] for r in json.loads(out)["results"]]
    root = default_vectors_dir()
    assert root is not None
    assert sorted(seen) == sorted(v.id for v in load_vectors(root) if v.semantic == "json")


@pytest.mark.parametrize("bad", ["0/3", "4/3", "x", "1/0"])
def test_bad_shard_is_a_usage_error(capsys: pytest.CaptureFixture[str], bad: str) -> None:
    """CONF-SHARD-1: a shard outside 1..N is a one-line usage error, exit 2."""
    with pytest.raises(SystemExit) as exc:
        main(["run", "--shard", bad])
    assert exc.value.code == 2
    assert "I/N" in capsys.readouterr().err


def test_no_progress_bar_in_a_pipe() -> None:
    """CONF-REPORT-2: the progress bar is drawn only on a terminal: piped stderr stays empty."""
    proc = subprocess.run(
        [sys.executable, "-m", "mcp_touchstone", "run", "--semantic", "json"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "TS_ONLY": ""},
    )
    assert proc.returncode == 0
    assert proc.stderr == ""


def test_first_difference_paths() -> None:
    """CONF-DIFF-1: the first differing path walks objects (expected's key order) and arrays,
    and names a missing key, an extra element, and an int against a float."""
    fd = _report.first_difference
    op = "scope.resolve_matching_grants"
    assert fd(op, {"a": {"b": [1, 2]}}, {"a": {"b": [1, 3]}}) == ("$.a.b[1]", 2, 3)
    assert fd(op, {"a": 1, "b": 2}, {"a": 1}) == ("$.b", 2, "<absent>")
    assert fd(op, {"m": [1]}, {"m": [1, 2]}) == ("$.m[1]", "<absent>", 2)
    assert fd(op, {"x": 1}, {"x": 1.0}) == ("$.x", 1, 1.0)
    assert fd(op, {"weird key": 1}, {"weird key": 2})[0] == '$["weird key"]'
    assert fd(op, {"x": 1}, {"x": 1}) == ("", {"x": 1}, {"x": 1})


def test_assessment_counts_columns() -> None:
    """CONF-NA-1, CONF-BASE-2: the assessment's columns separate pass, expected, n/a and fail."""
    root = default_vectors_dir()
    assert root is not None
    vectors = [v for v in load_vectors(root) if v.semantic == "json"][:3]
    from mcp_touchstone.conformance._runner import Report, Result

    report = Report(
        {},
        (
            Result(vectors[0], Verdict.PASS),
            Result(vectors[1], Verdict.FAIL, answer={}),
            Result(vectors[2], Verdict.NOT_APPLICABLE),
        ),
    )
    plain = _baseline.assess(report)
    assert plain.counts()["json"]["fail"] == 1
    assert not plain.conformant
    listed = _baseline.assess(report, _baseline.Baseline({vectors[1].id: "known"}, {}))
    assert listed.counts()["json"] == {
        "pass": 1,
        "fail": 0,
        "expected": 1,
        "error": 0,
        "skip": 0,
        "n/a": 1,
    }
    assert listed.conformant


_REORDERING_IMPL = """
import json, sys
from mcp_touchstone.harness._registry import reference_operations
from mcp_touchstone.harness._server import answer
from mcp_touchstone import serde_json
ops = reference_operations()
for line in sys.stdin.buffer:
    response = answer(line.rstrip(b"\\n"), ops)
    if response is None:
        break
    if "output" in response and response.get("seq") == 1:
        sys.stdout.write("this is not JSON\\n")
    elif "output" in response:
        # seq first and a space after the colon: not the canonical text, same JSON value.
        sys.stdout.write('{"seq": %d, "output": %s}\\n' % (response["seq"],
                         serde_json.to_string(response["output"])))
    else:
        sys.stdout.write(serde_json.to_string(response) + "\\n")
    sys.stdout.flush()
"""


def test_answers_in_any_layout_and_garbage_lines(tmp_path: Path) -> None:
    """CONF-PERF-1, CONF-RUN-1: an answer whose text is not the canonical line is parsed and
    compared as JSON (it passes), and an answer line that is not JSON errors that case only."""
    script = tmp_path / "reorder.py"
    script.write_text(_REORDERING_IMPL)
    root = default_vectors_dir()
    assert root is not None
    vectors = [v for v in load_vectors(root) if v.semantic == "json"][:20]
    from mcp_touchstone.conformance import run_vectors

    report = run_vectors(vectors, [sys.executable, str(script)])
    verdicts = [r.verdict for r in report.results]
    assert verdicts[1] is Verdict.ERROR
    assert "not JSON" in report.results[1].message
    assert verdicts[:1] + verdicts[2:] == [Verdict.PASS] * 19
