"""``touchstone run --jobs N`` (CONF-JOBS-1): N implementation processes share the cases, and the
report is the one a single process gives, whatever the implementation does wrong."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone import serde_json
from mcp_touchstone._cli import main
from mcp_touchstone.conformance import (
    ProtocolError,
    Vector,
    Verdict,
    default_command,
    default_vectors_dir,
    load_vectors,
    run_vectors,
    to_json,
)
from mcp_touchstone.conformance._runner import deal

HERE = Path(__file__).resolve().parent
FAULTY = [sys.executable, str(HERE / "faulty_impl.py")]
PLANTED = f"{sys.executable} {HERE / 'planted_impl.py'}"


def _vectors(semantic: str = "json", count: int = 40) -> list[Vector]:
    root = default_vectors_dir()
    assert root is not None
    return [v for v in load_vectors(root) if v.semantic == semantic][:count]


def _report_text(vectors: list[Vector], jobs: int, timeout: float) -> str:
    report = run_vectors(vectors, FAULTY, jobs=jobs, timeout=timeout, max_line_bytes=1000)
    return serde_json.to_string(to_json(report))


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _none_alive(pid_file: Path, seconds: float = 10) -> bool:
    pids = [int(p) for p in pid_file.read_text().split()]
    deadline = time.monotonic() + seconds
    while any(_alive(p) for p in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@given(st.integers(0, 300), st.integers(1, 9))
def test_dealing_is_round_robin_disjoint_and_complete(count: int, jobs: int) -> None:
    """Case seq goes to worker seq mod N: the shares are disjoint, cover every case, keep seq
    order and differ in size by at most one."""
    shares = deal(count, jobs)
    assert len(shares) == jobs
    flat = sorted(s for share in shares for s in share)
    assert flat == list(range(count))
    for w, share in enumerate(shares):
        assert all(s % jobs == w for s in share)
        assert list(share) == sorted(share)
    assert max(map(len, shares)) - min(map(len, shares)) <= 1


def test_the_whole_suite_reports_the_same_at_one_and_two_jobs() -> None:
    """Every shipped vector against the reference: the JSON report at --jobs 2 is byte for byte
    the one at --jobs 1 (and conformant)."""
    root = default_vectors_dir()
    assert root is not None
    vectors = load_vectors(root)
    one = run_vectors(vectors, default_command())
    two = run_vectors(vectors, default_command(), jobs=2)
    assert one.conformant
    assert serde_json.to_string(to_json(two)) == serde_json.to_string(to_json(one))


@pytest.mark.parametrize("fault", ["crash", "stall", "garbage", "wrong-seq", "long"])
def test_a_fault_gives_the_same_report_at_any_job_count(
    fault: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crash, a stall, garbage, an answer to another seq or an over-long line at one case: the
    report (or the protocol error) at --jobs 2 and 3 is the one at --jobs 1, and no process is
    left behind."""
    pid_file = tmp_path / "pids"
    monkeypatch.setenv("TS_FAULT", fault)
    monkeypatch.setenv("TS_FAULT_SEQ", "17")
    monkeypatch.setenv("TS_PID_FILE", str(pid_file))
    vectors = _vectors()
    outcomes: list[str] = []
    for jobs in (1, 2, 3):
        try:
            # The stall is noticed after the per-answer timeout, which also bounds start.
            timeout = 4.0 if fault == "stall" else 30.0
            outcomes.append(_report_text(vectors, jobs, timeout))
        except ProtocolError as exc:
            outcomes.append(f"protocol error: {exc}")
        assert _none_alive(pid_file)
    assert outcomes[1] == outcomes[0]
    assert outcomes[2] == outcomes[0]
    if fault == "wrong-seq":
        assert (
            outcomes[0]
            == 'protocol error: expected the answer to seq 17, got {"output":{},"seq":-5}'
        )
        return
    report = serde_json.from_str(outcomes[0])
    assert isinstance(report, dict)
    results = report["results"]
    assert isinstance(results, list)
    verdicts = [r["verdict"] for r in results if isinstance(r, dict)]
    # Only that case is errored: a crash or a stall restarts the implementation, which answers
    # the rest (CONF-RESTART-1; before restarts, everything after a crash or a stall was errored).
    assert verdicts == ["pass"] * 17 + ["error"] + ["pass"] * (len(vectors) - 18)
    if fault == "crash":
        assert report["exit_status"] == 3
        assert report["stderr_tail"] == "boom at seq 17\n"
        crashed = results[17]
        assert isinstance(crashed, dict)
        assert crashed["message"] == (
            "the implementation exited before answering this case (exit status 3); "
            "its stderr ends: boom at seq 17"
        )


def test_processes_that_announce_differently_stop_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The N processes must answer start alike; if they do not, the run cannot be made."""
    monkeypatch.setenv("TS_FAULT", "start-differs")
    monkeypatch.setenv("TS_START_FILE", str(tmp_path / "started"))
    monkeypatch.setenv("TS_PID_FILE", str(tmp_path / "pids"))
    with pytest.raises(ProtocolError, match="answered start differently"):
        run_vectors(_vectors(), FAULTY, jobs=2)
    assert _none_alive(tmp_path / "pids")


def test_progress_is_reported_across_workers() -> None:
    """With several workers the progress callback sees counts that never fall and never pass
    the total."""
    seen: list[tuple[int, int]] = []
    vectors = _vectors(count=400)
    report = run_vectors(
        vectors, default_command(), jobs=2, progress=lambda d, t: seen.append((d, t))
    )
    assert report.conformant
    done = [d for d, _ in seen]
    assert done == sorted(done)
    assert all(t == len(vectors) and d <= t for d, t in seen)


def test_more_jobs_than_vectors_and_unannounced_operations(monkeypatch: pytest.MonkeyPatch) -> None:
    """--jobs larger than the selection runs one process per vector at most; not-applicable
    vectors stay in their places."""
    monkeypatch.setenv("TS_ONLY", "json")
    vectors = _vectors(count=2) + _vectors("scope", count=1)
    command = [sys.executable, str(HERE / "planted_impl.py")]
    report = run_vectors(vectors, command, jobs=8)
    assert [r.verdict for r in report.results] == [
        Verdict.PASS,
        Verdict.PASS,
        Verdict.NOT_APPLICABLE,
    ]
    with pytest.raises(ValueError, match="at least 1"):
        run_vectors(vectors, command, jobs=0)


def _cli(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, jobs: str, *args: str
) -> tuple[int, str, dict[str, str]]:
    out_dir = tmp_path / f"jobs-{jobs}"
    out_dir.mkdir()
    status = main(
        [
            "run",
            "--impl",
            PLANTED,
            "--jobs",
            jobs,
            "--report",
            str(out_dir / "report.json"),
            "--badge",
            str(out_dir / "badges"),
            *args,
        ]
    )
    stdout = capsys.readouterr().out
    files = {
        str(p.relative_to(out_dir)): p.read_text(encoding="utf-8")
        for p in sorted(out_dir.rglob("*.json"))
    }
    return status, stdout, files


def test_the_cli_reports_the_same_with_jobs_shards_and_baselines(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """touchstone run with --shard, --expected-failures, --report and --badge prints and writes
    the same at --jobs 1, 3 and auto against an implementation with a planted bug."""
    monkeypatch.setenv("TS_ONLY", "json,visibility")
    monkeypatch.setenv("TS_PLANT", "json100")
    baseline = tmp_path / "baseline.json"
    baseline.write_text(
        '{"schema": "touchstone-baseline/1", "entries": '
        '[{"id": "json-int-plain", "reason": "planted"}]}'
    )
    args = ("--shard", "2/2", "--expected-failures", str(baseline), "--format", "json")
    first = _cli(capsys, tmp_path, "1", *args)
    assert first[0] == 0
    assert "json-int-plain" in first[1]
    for jobs in ("3", "auto"):
        assert _cli(capsys, tmp_path, jobs, *args) == first
    assert _cli(capsys, tmp_path, "2", "--semantic", "json", "--format", "table")[0] == 1


@pytest.mark.parametrize(("text", "want"), [("1", 1), ("4", 4), ("0", None), ("auto", None)])
def test_jobs_option_values(text: str, want: int | None) -> None:
    """--jobs takes a count; 0 and auto mean one process per CPU."""
    from mcp_touchstone._cli_types import jobs as _jobs

    assert _jobs(text) == (want or os.cpu_count() or 1)


@pytest.mark.parametrize("text", ["-1", "two", "1.5", ""])
def test_bad_jobs_is_a_usage_error(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A --jobs that is not a count, 0 or auto is one line on stderr and status 2."""
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "--jobs", text])
    assert exit_info.value.code == 2
    assert "--jobs" in capsys.readouterr().err
