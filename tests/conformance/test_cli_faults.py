"""The runner and the ``touchstone`` program under faults: bad input is one line and exit 2,
output files are never anything but regular files, and no process it started outlives it
(CONF-START-1, CONF-BASE-1, CONF-OUT-1, CONF-INPUT-1, CONF-PROC-1, CONF-DRT-1)."""

from __future__ import annotations

import json
import os
import pty
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mcp_touchstone.conformance import Report, Result, Verdict, load_vectors
from mcp_touchstone.conformance._report import render_markdown
from mcp_touchstone.conformance._runner import Implementation
from mcp_touchstone.conformance._vectors import default_vectors_dir

HERE = Path(__file__).resolve().parent
CLI = [sys.executable, "-m", "mcp_touchstone"]
UNRULY = f"{sys.executable} {HERE / 'unruly_impl.py'}"
FAULTY = f"{sys.executable} {HERE / 'faulty_impl.py'}"
ONE = ("-k", "json-int-plain")


def _cli(
    *args: str, env: dict[str, str] | None = None, stdin: str = "", timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **(env or {})},
        timeout=timeout,
    )


def _one_line(out: subprocess.CompletedProcess[str]) -> str:
    assert out.returncode == 2, out
    assert out.stderr.count("\n") == 1, out.stderr
    assert "Traceback" not in out.stderr
    return out.stderr


def _gone(pid: int) -> bool:
    """Whether ``pid`` has exited (a zombie waiting for its reaper counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def _wait_for(path: Path, seconds: float = 30) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists() and (text := path.read_text()):
            return text
        time.sleep(0.05)
    raise AssertionError(f"{path} never written")


@pytest.fixture
def reap() -> Iterator[list[int]]:
    """Pids a test found; any still alive at the end is killed (the test has failed then)."""
    pids: list[int] = []
    yield pids
    for pid in pids:
        if not _gone(pid):
            os.kill(pid, signal.SIGKILL)


# CONF-START-1


def test_a_harness_dying_at_start_is_named_with_its_status_and_stderr(tmp_path: Path) -> None:
    """CONF-START-1: an implementation that exits before answering start is one line naming its
    exit status and the end of its stderr, and the --report JSON records both."""
    impl = f"{sys.executable} -c 'import sys; sys.stderr.write(\"boom\\n\"); sys.exit(30 + 7)'"
    report = tmp_path / "report.json"
    err = _one_line(_cli("run", "--impl", impl, "--report", str(report)))
    assert "exited before answering start (exit status 37); its stderr ends: boom" in err
    doc = json.loads(report.read_text())
    assert doc["conformant"] is False
    assert doc["exit_status"] == 37
    assert doc["stderr_tail"] == "boom\n"
    assert "exit status 37" in doc["error"]


def test_zero_announced_operations_is_a_run_not_made(tmp_path: Path) -> None:
    """CONF-START-1: a start announcing no operation runs nothing: exit 2, never a vacuous
    "conformant"."""
    noops = tmp_path / "noops.py"
    noops.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    if json.loads(line)['cmd'] == 'start':\n"
        "        print(json.dumps({'version': 1, 'implementation': {'name': 'n', 'version': '1',"
        " 'language': 'py'}, 'operations': []}), flush=True)\n"
        "    else:\n"
        "        break\n"
    )
    err = _one_line(_cli("run", "--impl", f"{sys.executable} {noops}"))
    assert "announces none of the selected vectors' operations" in err
    assert "conformant" not in err


# CONF-BASE-1


def test_an_unknown_baseline_id_is_an_error(tmp_path: Path) -> None:
    """CONF-BASE-1: a baseline entry naming no vector of the tree (a typo) is one line, exit 2."""
    baseline = tmp_path / "baseline.json"
    entries = [{"id": "json-int-plian", "reason": "typo"}]
    baseline.write_text(json.dumps({"schema": "touchstone-baseline/1", "entries": entries}))
    err = _one_line(_cli("run", *ONE, "--expected-failures", str(baseline)))
    assert "no vector has the id 'json-int-plian'" in err
    entries = [{"operation": "json.no_such", "reason": "typo"}]
    baseline.write_text(json.dumps({"schema": "touchstone-baseline/1", "entries": entries}))
    err = _one_line(_cli("run", *ONE, "--expected-failures", str(baseline)))
    assert "no vector has the operation 'json.no_such'" in err


# CONF-INPUT-1


def _deep(prefix: str, suffix: str, depth: int = 100_000) -> str:
    return prefix + "[" * depth + "]" * depth + suffix


def test_deep_nesting_is_one_line_never_a_recursion_error(tmp_path: Path) -> None:
    """CONF-INPUT-1: a baseline nested 100,000 deep (run, drt) and a vector file nested so
    (vectors lint) are bad input: one line or a lint problem, never a RecursionError."""
    baseline = tmp_path / "deep.json"
    baseline.write_text(_deep('{"schema":"touchstone-baseline/1","entries":[],"x":', "}"))
    err = _one_line(_cli("run", *ONE, "--expected-failures", str(baseline)))
    assert "nested too deeply" in err
    args = ("--operation", "json.to_string", "--examples", "1")
    err = _one_line(_cli("drt", *args, "--expected-failures", str(baseline)))
    assert "nested too deeply" in err
    tree = tmp_path / "vectors"
    (tree / "json").mkdir(parents=True)
    vector = '{"semantic":"json","tests":[{"id":"json-deep","operation":"json.to_string","input":'
    (tree / "json" / "deep.json").write_text(_deep(vector, ',"expected":1}]}'))
    out = _cli("vectors", "lint", "--vectors", str(tree), "--no-reference")
    assert out.returncode == 1, out
    assert "Traceback" not in out.stderr
    assert "deep.json: not JSON: recursion limit exceeded" in out.stdout


def test_a_huge_timeout_is_a_usage_error() -> None:
    """CONF-INPUT-1: --timeout 2200000 (past what the system's timers hold) is one line, exit 2,
    not an OverflowError after the implementation started."""
    err = _one_line(_cli("run", *ONE, "--timeout", "2200000"))
    assert "--timeout: must be at most 86400 seconds" in err
    err = _one_line(_cli("drt", "--operation", "json.to_string", "--timeout", "2200000"))
    assert "--timeout" in err


@pytest.mark.parametrize("args", [("--help",), ("run", "--help"), ("--version",)])
def test_help_to_a_full_disk_fails(args: tuple[str, ...]) -> None:
    """CONF-INPUT-1: ``touchstone --help >/dev/full`` cannot write its help: exit 2, one line."""
    with open("/dev/full", "w", encoding="utf-8") as full:
        out = subprocess.run(
            [*CLI, *args], check=False, stdout=full, stderr=subprocess.PIPE, text=True
        )
    assert out.returncode == 2
    assert out.stderr == "touchstone: cannot write to standard output: No space left on device\n"


def test_eval_with_nothing_on_a_terminal_says_how() -> None:
    """CONF-INPUT-1: ``touchstone eval OP`` with no file, its stdin a terminal, says how to give
    it a case and exits 2 instead of waiting for input."""
    controller, terminal = pty.openpty()
    try:
        out = subprocess.run(
            [*CLI, "eval", "json.to_string"],
            check=False,
            stdin=terminal,
            capture_output=True,
            text=True,
            timeout=30,
        )
    finally:
        os.close(controller)
        os.close(terminal)
    assert out.returncode == 2
    assert "eval needs a case input: touchstone eval OPERATION case.json" in out.stderr
    assert "or pass - for reading the case input JSON from stdin" in out.stderr
    assert out.stderr.count("\n") == 1


@pytest.mark.parametrize("args", [("-",), ()])
def test_eval_of_empty_stdin_says_it_is_empty(args: tuple[str, ...]) -> None:
    """CONF-INPUT-1: empty standard input is "empty", not "not valid JSON"."""
    err = _one_line(_cli("eval", "json.to_string", *args, stdin=""))
    assert err.startswith("touchstone: standard input is empty: eval needs a case input")


# CONF-OUT-1


@pytest.mark.parametrize("kind", ["symlink", "fifo", "dangling"])
def test_reports_are_written_to_regular_files_only(tmp_path: Path, kind: str) -> None:
    """CONF-OUT-1: a symbolic link or a FIFO at --report, --write-baseline or a badge's path is
    refused in one line (exit 2) and left as it was, never replaced by a regular file."""
    victim = tmp_path / "victim.txt"
    victim.write_text("keep\n")
    for option in ("--report", "--write-baseline"):
        target = tmp_path / f"out{option}.json"
        if kind == "fifo":
            os.mkfifo(target)
        else:
            target.symlink_to(victim if kind == "symlink" else tmp_path / "nowhere")
        err = _one_line(_cli("run", *ONE, option, str(target)))
        assert "not a regular file" in err
        assert target.is_symlink() or stat.S_ISFIFO(os.lstat(target).st_mode)
    badges = tmp_path / "badges"
    badges.mkdir()
    (badges / "json.json").symlink_to(victim)
    err = _one_line(_cli("run", *ONE, "--badge", str(badges)))
    assert "not a regular file" in err
    assert (badges / "json.json").is_symlink()
    assert victim.read_text() == "keep\n"


def test_reports_honour_the_umask(tmp_path: Path) -> None:
    """CONF-OUT-1: a report is created with the permissions the umask gives (0644 under 022,
    0640 under 027), as any file the user's shell writes."""
    for mask, mode in ((0o022, 0o644), (0o027, 0o640)):
        report = tmp_path / f"report-{mask:o}.json"
        out = subprocess.run(
            [*CLI, "run", *ONE, "--report", str(report)],
            capture_output=True,
            check=False,
            preexec_fn=lambda mask=mask: os.umask(mask),  # type: ignore[misc]
        )
        assert out.returncode == 0, out.stderr
        assert stat.S_IMODE(report.stat().st_mode) == mode


def test_markdown_report_escapes_raw_html() -> None:
    """CONF-REPORT-1: implementation text in the Markdown report cannot inject HTML: its name and
    messages are escaped, so a job summary shows them and runs nothing."""
    root = default_vectors_dir()
    assert root is not None
    vector = next(v for v in load_vectors(root) if v.id == "json-int-plain")
    evil = "<img src=x onerror=alert(1)><script>alert(2)</script>"
    report = Report(
        implementation={"name": evil, "version": "1", "language": "x"},
        results=(Result(vector, Verdict.ERROR, message=evil),),
    )
    text = render_markdown(report)
    assert "<img" not in text
    assert "<script" not in text
    assert "&lt;script&gt;" in text


# CONF-PROC-1


def _started(
    tmp_path: Path, env: dict[str, str], *args: str
) -> tuple[subprocess.Popen[str], dict[str, str]]:
    env = {**os.environ, **env}
    proc = subprocess.Popen(
        [*CLI, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    return proc, env


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_during_stop_kills_the_implementation(
    tmp_path: Path, signum: signal.Signals, reap: list[int]
) -> None:
    """CONF-PROC-1: SIGTERM or SIGINT while the runner waits for an implementation that ignores
    ``stop`` ends the run at once (143 / 130) and kills the implementation."""
    pids, mark = tmp_path / "pids", tmp_path / "stopped"
    env = {"TS_UNRULY": "ignore-stop", "TS_PID_FILE": str(pids), "TS_MARK_FILE": str(mark)}
    proc, _ = _started(tmp_path, env, "run", "--impl", UNRULY, "--semantic", "json")
    _wait_for(mark)  # The runner sent stop and waits for the exit.
    impl = int(pids.read_text().split()[0])
    reap.append(impl)
    time.sleep(0.3)
    proc.send_signal(signum)
    # The status tells a handled signal from the stop wait running out (which would end the
    # run 0 or 1 after 5 s); the generous timeout only bounds a machine under load.
    status = proc.wait(timeout=15)
    assert status == (143 if signum == signal.SIGTERM else 130), proc.stderr
    deadline = time.monotonic() + 2
    while not _gone(impl) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(impl)


def test_a_signal_with_two_jobs_restarts_nothing(tmp_path: Path, reap: list[int]) -> None:
    """CONF-PROC-1: with -j 2 and a stalled implementation, SIGTERM ends the run at once; the
    reading threads take the kill for the end it is, not for a crash to restart from."""
    pids = tmp_path / "pids"
    env = {"TS_UNRULY": "stall", "TS_PID_FILE": str(pids), "TS_MARK_FILE": str(tmp_path / "m")}
    args = ("run", "--impl", UNRULY, "--semantic", "json", "-j", "2", "--timeout", "30")
    proc, _ = _started(tmp_path, env, *args)
    deadline = time.monotonic() + 30
    while (
        time.monotonic() < deadline and len(pids.read_text().split() if pids.exists() else []) < 2
    ):
        time.sleep(0.05)
    time.sleep(0.5)  # Both read a case now, stalled.
    started = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    status = proc.wait(timeout=20)
    took = time.monotonic() - started
    every = [int(p) for p in pids.read_text().split()]
    reap.extend(every)
    assert status == 143
    assert took < 5, f"exit took {took:.1f} s"
    assert len(every) == 2, f"{len(every)} implementation processes were started"
    assert all(_gone(p) for p in every)


@pytest.mark.parametrize(
    "args",
    [
        ("--match", "no-such-vector"),
        ("--semantic", "nosuch"),
        ("--report", "/nonexistent-dir/report.json"),
    ],
)
def test_a_usage_error_after_the_start_is_one_line_and_leaves_no_process(
    tmp_path: Path, args: tuple[str, ...], reap: list[int]
) -> None:
    """CONF-PROC-1: ``run`` starts the implementation before it loads the vectors; a usage
    error found after that (the selection, an output path) is one line and exit 2, and the
    implementation, which would outlive the end of its input, is gone."""
    pids = tmp_path / "pids"
    done = _cli("run", "--impl", UNRULY, *args, env={"TS_PID_FILE": str(pids)})
    every = [int(p) for p in pids.read_text().split()] if pids.exists() else []
    reap.extend(every)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert all(_gone(p) for p in every)


def test_an_implementation_left_by_an_exception_is_killed() -> None:
    """CONF-PROC-1: the processes of a run that is never made (the caller leaves the context
    by an exception after the start) are killed, however they treat their input."""
    implementation = Implementation(UNRULY.split(), jobs=2)
    procs = [w.proc for w in implementation.workers]
    with pytest.raises(RuntimeError), implementation:
        raise RuntimeError("the run is not made")
    assert [p.wait(timeout=10) for p in procs] == [-signal.SIGKILL]


@pytest.mark.parametrize("how", ["setsid", "orphan"])
@pytest.mark.parametrize("command", ["run", "drt"])
def test_a_setsid_escape_does_not_outlive_the_run(
    tmp_path: Path, how: str, command: str, reap: list[int]
) -> None:
    """CONF-PROC-1: a process the implementation started that called setsid() -- its parent
    alive (``setsid``) or gone (``orphan``, re-parented to the touchstone program, a child
    subreaper) -- is killed when ``run`` or ``drt`` ends."""
    escapee = tmp_path / "escapee"
    env = {"TS_ESCAPE": how, "TS_ESCAPE_FILE": str(escapee)}
    args: tuple[str, ...]
    if command == "run":
        args = ("run", "--impl", UNRULY, *ONE)
    else:
        args = ("drt", "--impl", UNRULY, "--operation", "json.to_string", "--examples", "20")
    try:
        out = _cli(*args, env=env, timeout=60)
    finally:
        if escapee.exists() and escapee.read_text():
            reap.append(int(escapee.read_text()))
    pid = int(_wait_for(escapee))
    assert out.returncode == 0, out.stderr
    deadline = time.monotonic() + 2
    while not _gone(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(pid), f"the {how} escapee {pid} outlived touchstone {command}"


# CONF-DRT-1


def test_drt_calls_a_wrong_seq_a_protocol_break() -> None:
    """CONF-DRT-1 (HARNESS-RUN-2): an answer to another seq is a protocol break (exit 2), not a
    difference to shrink into a candidate vector."""
    env = {"TS_FAULT": "wrong-seq", "TS_FAULT_SEQ": "all"}
    args = ("drt", "--impl", FAULTY, "--operation", "json.to_string", "--examples", "20")
    err = _one_line(_cli(*args, env=env))
    assert "broke the protocol: expected the answer to seq" in err
