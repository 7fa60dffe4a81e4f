"""The runner restarts an implementation that crashes or hangs at a case (CONF-RESTART-1): that
case is errored, the rest are answered by a fresh process, within bounds, at any --jobs count."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone import serde_json
from mcp_touchstone.conformance import ProtocolError, Verdict, run_vectors, to_json
from mcp_touchstone.conformance._restarts import MAX_RESTARTS, RESTARTS_IN_A_ROW, Death, Ledger
from tests.conformance.test_runner_jobs import FAULTY, _none_alive, _vectors


def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fault: str, seq: str) -> Path:
    pid_file = tmp_path / "pids"
    monkeypatch.setenv("TS_FAULT", fault)
    monkeypatch.setenv("TS_FAULT_SEQ", seq)
    monkeypatch.setenv("TS_PID_FILE", str(pid_file))
    monkeypatch.setenv("TS_START_FILE", str(tmp_path / "started"))
    return pid_file


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_a_crash_at_one_vector_errors_that_vector_only(
    jobs: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crash at seq 5: that vector is errored naming the exit status and stderr, the cases
    already written to the dead process are re-sent to a fresh one and pass, nothing is left."""
    pid_file = _env(monkeypatch, tmp_path, "crash", "5")
    vectors = _vectors(count=12)
    report = run_vectors(vectors, FAULTY, jobs=jobs)
    verdicts = [r.verdict for r in report.results]
    assert verdicts == [Verdict.PASS] * 5 + [Verdict.ERROR] + [Verdict.PASS] * 6
    assert report.results[5].message == (
        "the implementation exited before answering this case (exit status 3); "
        "its stderr ends: boom at seq 5"
    )
    assert report.exit_status == 3
    assert len(pid_file.read_text().split()) == jobs + 1  # one restart
    assert _none_alive(pid_file)


def test_a_hang_at_one_vector_is_killed_and_the_rest_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hang at seq 3 is killed after the per-case timeout, errors that vector only, and a
    fresh process answers the rest."""
    pid_file = _env(monkeypatch, tmp_path, "stall", "3")
    vectors = _vectors(count=8)
    report = run_vectors(vectors, FAULTY, timeout=1.5)
    verdicts = [r.verdict for r in report.results]
    assert verdicts == [Verdict.PASS] * 3 + [Verdict.ERROR] + [Verdict.PASS] * 4
    assert report.results[3].message == "timed out after 1.5s waiting for this case; killed"
    assert report.exit_status is None
    assert _none_alive(pid_file)


def test_crashing_at_every_case_finishes_within_the_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An implementation that dies at every case is restarted RESTARTS_IN_A_ROW times; the rest
    are errored as not run, the report is the same at 1, 2 and 3 jobs, and nothing is left."""
    pid_file = _env(monkeypatch, tmp_path, "crash", "all")
    vectors = _vectors(count=30)
    texts = []
    for jobs in (1, 2, 3):
        report = run_vectors(vectors, FAULTY, jobs=jobs)
        assert {r.verdict for r in report.results} == {Verdict.ERROR}
        died = RESTARTS_IN_A_ROW + 1
        assert all("exited before answering" in r.message for r in report.results[:died])
        assert {r.message for r in report.results[died:]} == {
            f"not run: the implementation died at {died} cases in a row and the runner gives "
            f"up after {RESTARTS_IN_A_ROW} failed restarts in a row"
        }
        texts.append(serde_json.to_string(to_json(report)))
        assert _none_alive(pid_file)
    assert texts[1] == texts[0]
    assert texts[2] == texts[0]
    assert len(pid_file.read_text().split()) <= 3 * (RESTARTS_IN_A_ROW + 1) + 6


def test_a_hang_at_every_case_finishes_within_the_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An implementation that hangs at every case costs RESTARTS_IN_A_ROW + 1 timeouts, not one
    per case."""
    pid_file = _env(monkeypatch, tmp_path, "stall", "all")
    vectors = _vectors(count=10)
    report = run_vectors(vectors, FAULTY, timeout=2)  # start, too, must answer within it
    died = RESTARTS_IN_A_ROW + 1
    assert all("timed out" in r.message for r in report.results[:died])
    assert all(r.message.startswith("not run:") for r in report.results[died:])
    assert len(pid_file.read_text().split()) == died
    assert _none_alive(pid_file)


def test_a_restart_that_answers_start_differently_stops_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The restarted process must answer start as the first one did (here it announces one
    operation less), else the run cannot be made (status 2); nothing is left behind."""
    pid_file = _env(monkeypatch, tmp_path, "crash,start-differs", "5")
    with pytest.raises(ProtocolError, match="restarted implementation answered start differently"):
        run_vectors(_vectors(count=12), FAULTY)
    assert len(pid_file.read_text().split()) == 2
    assert _none_alive(pid_file)


def test_a_crash_then_a_protocol_break_still_stops_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Restarts do not soften protocol breaks: an answer to another seq stops the run."""
    pid_file = _env(monkeypatch, tmp_path, "wrong-seq", "7")
    with pytest.raises(ProtocolError, match="seq 7"):
        run_vectors(_vectors(count=12), FAULTY, jobs=2)
    assert _none_alive(pid_file)


class _Idle:
    position = -1
    cut = False

    def kill(self) -> None:
        """Nothing to kill: the ledger's bookkeeping alone is under test."""


@given(st.sets(st.integers(0, 400), max_size=150), st.randoms())
def test_where_the_bounds_end_a_run_does_not_depend_on_the_order_deaths_arrive(
    deaths: set[int], rnd: object
) -> None:
    """The end is a function of the set of seqs that killed the implementation: recorded in any
    order (as N workers record them) it is the one seq order gives, and it is the first seq that
    completes RESTARTS_IN_A_ROW + 1 deaths in a row or is the death after MAX_RESTARTS."""
    import random

    assert isinstance(rnd, random.Random)
    order = sorted(deaths)
    shuffled = list(order)
    rnd.shuffle(shuffled)
    in_order, any_order = Ledger(401), Ledger(401)
    for s in order:
        in_order.died(s, Death(1, ""), _Idle())
    for s in shuffled:
        any_order.died(s, Death(1, ""), _Idle())
    assert any_order.limit() == in_order.limit()
    assert any_order.seq == in_order.seq
    want: int | None = None
    for i, s in enumerate(order):
        row = all(s - k in deaths for k in range(RESTARTS_IN_A_ROW + 1))
        if row or i == MAX_RESTARTS:
            want = s
            break
    limit = in_order.limit()
    assert (limit[0] if limit else None) == want
    assert in_order.seq == (401 if want is None else want)


def test_the_total_cap_ends_a_run_of_scattered_deaths() -> None:
    """Deaths at every other case never make four in a row; the death after MAX_RESTARTS ends
    the run with the cap's message."""
    ledger = Ledger(1000)
    for s in range(0, 1000, 2):
        ledger.died(s, Death(3, ""), _Idle())
    assert ledger.limit() == (
        2 * MAX_RESTARTS,
        f"not run: the implementation died {MAX_RESTARTS + 1} times and the runner restarts "
        f"it at most {MAX_RESTARTS} times in a run",
    )
