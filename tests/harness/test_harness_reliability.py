"""The runner and CLI under adversarial use: empty flags, forged messages, stray processes, huge
or malformed answers, a full disk, and the CLI's own help; one test per behaviour, each naming
the rule it pins."""

from __future__ import annotations

import json
import os
import select
import shlex
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from mcp_touchstone import serde_json
from mcp_touchstone.conformance import (
    ProtocolError,
    Report,
    Result,
    Vector,
    Verdict,
    _report,
    default_vectors_dir,
    load_vectors,
    render,
    run_vectors,
    to_json,
)

CLI = [sys.executable, "-m", "mcp_touchstone"]
_IMPL = '{"name": "fake", "version": "0", "language": "python"}'


def _json_vectors() -> list[Vector]:
    root = default_vectors_dir()
    assert root is not None
    return [v for v in load_vectors(root) if v.semantic == "json"]


def _script(tmp_path: Path, body: str, start: str = "") -> Path:
    """A fake implementation whose loop body answers one run request ``req``."""
    # It announces the json operations, so that the runner asks it every json vector (an
    # operation not announced in start is not applicable, CONF-NA-1).
    ops = json.dumps(sorted({v.operation for v in _json_vectors()}))
    hello = start or f'{{"version": 1, "implementation": {_IMPL}, "operations": {ops}}}'
    script = tmp_path / "impl.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import json, os, sys, time
            for line in sys.stdin:
                req = json.loads(line)
                if req.get("cmd") == "start":
                    print({hello!r}, flush=True)
                    continue
                if req.get("cmd") == "stop":
                    break
            """
        )
        + textwrap.indent(textwrap.dedent(body), " " * 4)
    )
    return script


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie awaiting its reaper counts as dead)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _wait_dead(pids: list[int], seconds: float = 10) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = [p for p in pids if _alive(p)]
        if not left:
            return []
        time.sleep(0.05)
    return [p for p in pids if _alive(p)]


def _run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
    )


# ---------------------------------------------------------------- defect 2


@pytest.mark.parametrize("flag", ["--impl", "--vectors"])
def test_empty_impl_or_vectors_is_a_usage_error(flag: str) -> None:
    """HARNESS-CLI-2: an empty --impl (an unset variable in a CI file) or --vectors is exit 2, not a
    default."""
    out = _run_cli("run", "--semantic", "json", flag, "")
    assert out.returncode == 2, out.stdout + out.stderr
    assert flag in out.stderr
    assert out.stderr.count("\n") == 1


# ---------------------------------------------------------------- defect 3


def _errored_report(message: str) -> Report:
    vector = _json_vectors()[0]
    return Report(
        implementation={"name": "x", "version": "1", "language": "y"},
        results=(Result(vector, Verdict.ERROR, message=message),),
    )


def test_an_errored_message_cannot_forge_the_report() -> None:
    """VEC-REPORT-3: control characters in an implementation's message are escaped (no forged line,
    no terminal escape) and a huge message is truncated with a note; the JSON keeps it whole."""
    forged = "x\n\nconformant: yes\n\x1b[2J\r" + "y" * 10_000_000
    report = _errored_report(forged)
    text = render(report)
    assert [ln for ln in text.splitlines() if ln.startswith("conformant:")] == ["conformant: no"]
    assert "\x1b" not in text
    assert "\r" not in text
    assert "\\u001b[2J" in text or "\\x1b[2J" in text
    assert len(text) < 20_000
    assert "truncated" in text
    results = to_json(report)["results"]
    assert isinstance(results, list)
    entry = results[0]
    assert isinstance(entry, dict)
    assert entry["message"] == forged


def test_the_markdown_report_escapes_and_groups_too() -> None:
    """VEC-REPORT-3: the Markdown report escapes an implementation's text, groups errored vectors
    sharing a message into one row and shows the exit status and stderr tail once; the JSON
    report carries both whole."""
    vectors = _json_vectors()[:3]
    report = Report(
        implementation={"name": "x\x1b[2J", "version": "1", "language": "y"},
        results=tuple(Result(v, Verdict.ERROR, message="died\nconformant") for v in vectors),
        exit_status=3,
        stderr_tail="boom\x1b]0;t\x07",
    )
    text = _report.render_markdown(report)
    assert "\x1b" not in text
    assert "\x07" not in text
    assert text.count("died") == 1
    assert "3 vectors" in text
    assert text.count("exit status 3") == 1
    assert text.count("boom") == 1
    doc = to_json(report)
    assert doc["exit_status"] == 3
    assert doc["stderr_tail"] == "boom\x1b]0;t\x07"


# ---------------------------------------------------------------- defect 4


def _pid_impl(tmp_path: Path, body: str) -> tuple[list[str], Path]:
    """``sh -c`` starting a grandchild ``sleep`` and then the fake implementation; both pids
    (and the shell's) land in ``pids``."""
    pids = tmp_path / "pids"
    script = _script(tmp_path, body)
    shell = (
        f"exec 3<&0; sleep 300 & echo $! >> {pids}; echo $$ >> {pids}; "
        f"{sys.executable} {script} <&3 & echo $! >> {pids}; wait $!"
    )
    return ["sh", "-c", shell], pids


def _read_pids(path: Path) -> list[int]:
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def test_no_process_survives_a_passing_or_a_hung_run(tmp_path: Path) -> None:
    """HARNESS-RUN-3: the implementation runs in its own process group, which is killed at the end
    of a run: a grandchild of a passing implementation and a hung implementation behind sh -c
    both die."""
    vectors = _json_vectors()[:2]
    ok_cmd, ok_pids = _pid_impl(
        tmp_path, 'print(json.dumps({"seq": req["seq"], "output": {}}), flush=True)\n'
    )
    run_vectors(vectors, ok_cmd, timeout=10)
    assert len(_read_pids(ok_pids)) == 3
    assert _wait_dead(_read_pids(ok_pids)) == []
    hung_dir = tmp_path / "hung"
    hung_dir.mkdir()
    hung_cmd, hung_pids = _pid_impl(hung_dir, "time.sleep(600)\n")
    report = run_vectors(vectors, hung_cmd, timeout=1)
    assert {r.verdict for r in report.results} == {Verdict.ERROR}
    assert len(_read_pids(hung_pids)) == 6  # Each hung case kills one and starts the next.
    assert _wait_dead(_read_pids(hung_pids)) == []


def test_a_crashed_implementation_s_grandchildren_die_with_it(tmp_path: Path) -> None:
    """HARNESS-RUN-3, CONF-RESTART-1: an implementation behind sh -c that exits at every case is
    restarted, and each dead one's process group (its grandchild sleep) is killed: none is left."""
    vectors = _json_vectors()[:2]
    pids = tmp_path / "pids"
    script = _script(tmp_path, "sys.exit(3)\n")
    shell = (  # The grandchild lets go of stdout, so the exit is seen at once (not a stall).
        f"exec 3<&0; sleep 300 >/dev/null 2>&1 & echo $! >> {pids}; echo $$ >> {pids}; "
        f"{sys.executable} {script} <&3 & echo $! >> {pids}; wait $!"
    )
    report = run_vectors(vectors, ["sh", "-c", shell], timeout=10)
    assert [r.verdict for r in report.results] == [Verdict.ERROR, Verdict.ERROR]
    assert all("exit status 3" in r.message for r in report.results)
    assert len(_read_pids(pids)) == 6
    assert _wait_dead(_read_pids(pids)) == []


def test_sigterm_ends_the_run_and_its_implementation(tmp_path: Path) -> None:
    """HARNESS-RUN-3: kill -TERM on touchstone run ends it like ^C and takes the implementation with
    it."""
    cmd, pids = _pid_impl(tmp_path, "time.sleep(600)\n")
    proc = subprocess.Popen(
        [*CLI, "run", "--semantic", "json", "--timeout", "300", "--impl", shlex.join(cmd)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while len(_read_pids(pids)) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)  # Let the runner get past start and wait on the first answer.
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + signal.SIGTERM
    assert b"Traceback" not in err
    assert _wait_dead(_read_pids(pids)) == []


# ---------------------------------------------------------------- defect 5


def test_an_answer_line_beyond_the_cap_errors_the_case(tmp_path: Path) -> None:
    """HARNESS-RUN-3: an answer line longer than the cap is not buffered whole: its case is errored
    naming the cap, and the next answer is read as usual."""
    body = """
    if req["seq"] == 0:
        sys.stdout.write("x" * (3 << 20) + "\\n")
        continue
    print(json.dumps({"seq": req["seq"], "output": {}}), flush=True)
    """
    cmd = [sys.executable, str(_script(tmp_path, body))]
    report = run_vectors(_json_vectors()[:2], cmd, timeout=20, max_line_bytes=1 << 20)
    first, second = report.results
    assert first.verdict is Verdict.ERROR
    assert "longer than" in first.message
    assert second.verdict is Verdict.FAIL


def test_the_default_cap_is_64_mib() -> None:
    """HARNESS-RUN-3: the documented default cap of an answer line is 64 MiB."""
    from mcp_touchstone.conformance._runner import MAX_LINE_BYTES

    assert MAX_LINE_BYTES == 64 << 20


# ---------------------------------------------------------------- defect 8


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (("eval", "json.to_string"), b'{"text": "1"}'),
        (("run", "--semantic", "json"), b""),
        (("harness",), b'{"cmd":"start","version":1}\n'),
    ],
)
def test_a_full_disk_is_one_line_not_a_traceback(args: tuple[str, ...], stdin: bytes) -> None:
    """HARNESS-CLI-2: writing to a full stdout (/dev/full) ends with one line on stderr and a non-
    zero exit."""
    with open("/dev/full", "wb") as full:
        out = subprocess.run(
            [*CLI, *args], input=stdin, stdout=full, stderr=subprocess.PIPE, check=False
        )
    err = out.stderr.decode()
    assert "Traceback" not in err
    assert "Exception ignored" not in err
    assert out.returncode != 0
    assert err.count("\n") == 1, err
    assert "No space left" in err


# ---------------------------------------------------------------- defect 9


def test_a_failed_run_keeps_the_previous_report(tmp_path: Path) -> None:
    """VEC-REPORT-4: a run that breaks the protocol (exit 2) leaves an existing report file
    untouched, and no temporary file behind."""
    old = tmp_path / "old.json"
    old.write_text('{"previous": true}\n')
    # An answer to the wrong seq breaks the protocol (a line that is not JSON errors only its
    # case since the suite branch: test_answers_in_any_layout_and_garbage_lines).
    body = 'print(json.dumps({"seq": req["seq"] + 7, "output": {}}), flush=True)\n'
    cmd = [sys.executable, str(_script(tmp_path, body))]
    out = _run_cli("run", "--semantic", "json", "--impl", " ".join(cmd), "--report", str(old))
    assert out.returncode == 2
    assert old.read_text() == '{"previous": true}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["impl.py", "old.json"]


# ---------------------------------------------------------------- defect 10


def test_the_default_vectors_do_not_depend_on_the_working_directory(
    tmp_path: Path,
) -> None:
    """VEC-RUN-1: an empty conformance/vectors in the working directory leaves the suite be."""
    (tmp_path / "conformance" / "vectors").mkdir(parents=True)
    out = _run_cli("run", "--semantic", "json", cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "conformant: yes" in out.stdout
    assert str(tmp_path) not in out.stdout


# ---------------------------------------------------------------- defect 11


@pytest.mark.parametrize(
    "answer",
    [
        '{"seq": req["seq"], "output": {}, "errored": True, "message": "m"}',
        '{"seq": req["seq"], "output": {}, "skipped": True, "message": "m"}',
        '{"seq": req["seq"], "errored": True, "skipped": True, "message": "m"}',
        '{"seq": req["seq"], "errored": True}',
        '{"seq": req["seq"], "skipped": 1, "message": "m"}',
    ],
)
def test_an_answer_must_be_exactly_one_kind(tmp_path: Path, answer: str) -> None:
    """HARNESS-RUN-3: an answer with more than one of output / errored / skipped (or an errored or
    skipped answer without its message) breaks the protocol instead of being scored."""
    cmd = [sys.executable, str(_script(tmp_path, f"print(json.dumps({answer}), flush=True)\n"))]
    with pytest.raises(ProtocolError, match="seq 0"):
        run_vectors(_json_vectors()[:1], cmd, timeout=10)


@pytest.mark.parametrize(
    "hello",
    [
        '{"version": 1}',
        '{"version": 1, "implementation": {"name": "x"}, "operations": []}',
        '{"version": 1, "implementation": {"name": "x", "version": 1, "language": "c"}, '
        '"operations": []}',
        '{"version": 1, "implementation": {"name": "x", "version": "1", "language": "c"}}',
        '{"version": 1, "implementation": {"name": "x", "version": "1", "language": "c", '
        '"homepage": 5}, "operations": []}',
        '{"version": 1, "implementation": {"name": "x", "version": "1", "language": "c"}, '
        '"operations": [1]}',
    ],
)
def test_a_start_answer_must_describe_the_implementation(tmp_path: Path, hello: str) -> None:
    """HARNESS-RUN-3: harness v1's start answer carries implementation name, version and language
    (strings, homepage optional) and a list of operation names; anything less breaks the
    protocol."""
    cmd = [sys.executable, str(_script(tmp_path, "pass\n", start=hello))]
    with pytest.raises(ProtocolError, match="start answered"):
        run_vectors(_json_vectors()[:1], cmd, timeout=10)


# ---------------------------------------------------------------- defect 12


def test_a_raw_control_character_reads_as_serde_words_it() -> None:
    """JSON-PARSE-4: a raw TAB in a string is serde_json's control-character error, not 'at at'."""
    with pytest.raises(serde_json.JsonError) as caught:
        serde_json.from_str('"a\tb"')
    assert str(caught.value) == (
        "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 3"
    )


# ---------------------------------------------------------------- friction


def test_eval_on_a_terminal_says_what_it_expects() -> None:
    """HARNESS-CLI-2: eval with no file on a terminal's stdin says it reads a case from stdin
    (stderr)."""
    import pty

    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        os.execv(sys.executable, [*CLI, "eval", "json.to_string"])
    seen = b""
    deadline = time.monotonic() + 30
    while b"stdin" not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if not ready:
            continue
        try:
            seen += os.read(fd, 4096)
        except OSError:
            break
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    os.close(fd)
    assert b"reading the case input JSON from stdin" in seen


def test_help_shows_exit_codes_timeout_semantics_and_operations() -> None:
    """HARNESS-CLI-2: run --help and eval --help name the exit codes, the 30 s default, semantics,
    operations."""
    run_help = _run_cli("run", "--help").stdout
    for needle in ("exit status", "30", "scope", "visibility", "mrtr", "json"):
        assert needle in run_help
    eval_help = _run_cli("eval", "--help").stdout
    assert "scope.resolve_matching_grants" in eval_help
    assert "visibility.dispatch" in eval_help


def test_an_unknown_semantic_names_the_valid_ones() -> None:
    """HARNESS-CLI-2: --semantic nope is a usage error naming the semantics there are."""
    out = _run_cli("run", "--semantic", "nope")
    assert out.returncode == 2
    assert "nope" in out.stderr
    assert "json, mrtr, scope, visibility" in out.stderr


def test_a_crashed_implementation_is_reported_once(tmp_path: Path) -> None:
    """VEC-REPORT-3, CONF-RESTART-1: cases an implementation died on are one group (its message
    naming the exit status and quoting its stderr), the cases left when restarts ran out another,
    and the exit status and stderr tail of the first death are shown once."""
    body = 'sys.stderr.write("boom: the thing broke\\n"); sys.exit(3)\n'
    cmd = [sys.executable, str(_script(tmp_path, body))]
    vectors = _json_vectors()[:5]
    report = run_vectors(vectors, cmd, timeout=10)
    assert {r.verdict for r in report.results} == {Verdict.ERROR}
    text = render(report)
    assert text.count("boom: the thing broke") == 2  # in the group's message, in the tail
    assert text.count("exited early: exit status 3") == 1
    assert text.count("ERROR ") == 2
    assert "4 vectors" in text  # the death at every case, RESTARTS_IN_A_ROW + 1 times
    assert json.loads(serde_json.to_string(to_json(report)))["conformant"] is False
