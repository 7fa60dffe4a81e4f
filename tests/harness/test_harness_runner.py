"""The conformance runner against the reference and against broken implementations."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from mcp_touchstone.conformance import (
    ProtocolError,
    Vector,
    Verdict,
    default_command,
    default_vectors_dir,
    load_vectors,
    render,
    run_vectors,
    to_json,
)


def _vectors() -> list[Vector]:
    root = default_vectors_dir()
    assert root is not None
    return [v for v in load_vectors(root) if v.semantic == "json"]


def _fake(tmp_path: Path, body: str) -> list[str]:
    """A fake implementation: a Python script whose loop body handles one request ``req``."""
    script = tmp_path / "impl.py"
    script.write_text(
        textwrap.dedent(
            """
            import json, sys, time
            n = 0
            for line in sys.stdin:
                req = json.loads(line)
                if req.get("cmd") == "start":
                    impl = {"name": "fake", "version": "0", "language": "py"}
                    print(json.dumps({"version": 1, "implementation": impl,
                                      "operations": ["json.to_string"]}), flush=True)
                    continue
                if req.get("cmd") == "stop":
                    break
                n += 1
            """
        )
        + textwrap.indent(textwrap.dedent(body), " " * 4)
    )
    return [sys.executable, str(script)]


def test_reference_passes_json_vectors() -> None:
    """HARNESS-RUN-1: the built-in reference, run as a subprocess, passes every json vector."""
    vectors = _vectors()
    report = run_vectors(vectors, default_command())
    assert report.conformant
    assert len(report.results) == len(vectors) > 40
    assert report.implementation["name"] == "mcp-touchstone"
    text = render(report)
    assert "conformant: yes" in text
    summary = to_json(report)
    assert summary["conformant"] is True


def test_wrong_answers_fail_and_skips_are_not_passes(tmp_path: Path) -> None:
    """VEC-REPORT-1: a wrong output is a failure and a skip makes the run non-conformant."""
    cmd = _fake(
        tmp_path,
        """
        if n == 1:
            print(json.dumps({"seq": req["seq"], "skipped": True, "message": "no"}), flush=True)
        else:
            out = {"string": "?", "bytes": 1}
            print(json.dumps({"seq": req["seq"], "output": out}), flush=True)
        """,
    )
    report = run_vectors(_vectors()[:3], cmd)
    assert [r.verdict for r in report.results] == [Verdict.SKIP, Verdict.FAIL, Verdict.FAIL]
    assert not report.conformant
    assert "FAIL json-" in render(report)


def test_implementation_dying_mid_run_is_restarted(tmp_path: Path) -> None:
    """HARNESS-RUN-2, CONF-RESTART-1: the case an implementation exits on is errored and a fresh
    process answers the next ones (before restarts, every case after the exit was errored)."""
    cmd = _fake(
        tmp_path,
        """
        if n == 2:
            sys.exit(3)
        print(json.dumps({"seq": req["seq"], "errored": True, "message": "sorry"}), flush=True)
        """,
    )
    report = run_vectors(_vectors()[:5], cmd, timeout=10)
    assert [r.verdict for r in report.results] == [Verdict.ERROR] * 5
    exited = "the implementation exited before answering this case (exit status 3)"
    assert [r.message for r in report.results] == ["sorry", exited, "sorry", exited, "sorry"]
    assert report.exit_status == 3


def test_stalled_implementation_times_out(tmp_path: Path) -> None:
    """HARNESS-RUN-1: a wedged implementation cannot hang the run past the deadline."""
    cmd = _fake(tmp_path, "time.sleep(30)\n")
    report = run_vectors(_vectors()[:2], cmd, timeout=0.5)
    assert [r.verdict for r in report.results] == [Verdict.ERROR, Verdict.ERROR]
    assert "timed out" in report.results[0].message


def test_out_of_order_answer_breaks_the_protocol(tmp_path: Path) -> None:
    """HARNESS-RUN-2: an answer with the wrong seq stops the run with a protocol error."""
    cmd = _fake(tmp_path, 'print(json.dumps({"seq": 99, "output": {}}), flush=True)\n')
    with pytest.raises(ProtocolError, match="seq 0"):
        run_vectors(_vectors()[:2], cmd)


def test_inputs_are_sent_with_their_key_order(tmp_path: Path) -> None:
    """VEC-CASE-1: case.input reaches the implementation unchanged, object key order included."""
    cmd = _fake(
        tmp_path,
        'print(json.dumps({"seq": req["seq"], "output": {"raw": line.strip()}}), flush=True)\n',
    )
    vector = Vector(
        id="json-order",
        semantic="json",
        operation="json.to_string",
        input={"z": 1, "a": {"y": 2, "b": 3}},
        expected={},
        comment="",
        rules=("VEC-CASE-1",),
        flags=(),
        file="",
    )
    report = run_vectors([vector], cmd)
    answer = report.results[0].answer
    assert isinstance(answer, dict)
    assert '"input":{"z":1,"a":{"y":2,"b":3}}' in str(answer["raw"])


def test_unstartable_implementation(tmp_path: Path) -> None:
    """HARNESS-RUN-2: a command that cannot start is a protocol error naming it."""
    with pytest.raises(ProtocolError, match="cannot start"):
        run_vectors(_vectors()[:1], [str(tmp_path / "missing")])


def test_cli_run_exit_codes(tmp_path: Path) -> None:
    """VEC-REPORT-2: touchstone run exits 0 when conformant, 1 when not, 2 on a bad vector tree."""
    base = [sys.executable, "-m", "mcp_touchstone", "run", "--semantic", "json"]
    ok = subprocess.run(base, capture_output=True, text=True, check=False)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "conformant: yes" in ok.stdout
    fake = _fake(tmp_path, 'print(json.dumps({"seq": req["seq"], "output": {}}), flush=True)\n')
    bad = subprocess.run(
        [*base, "--impl", " ".join(fake), "--report", str(tmp_path / "r.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 1
    assert json.loads((tmp_path / "r.json").read_text())["conformant"] is False
    (tmp_path / "v" / "json").mkdir(parents=True)
    (tmp_path / "v" / "json" / "x.json").write_text("{")
    broken = subprocess.run(
        [*base, "--vectors", str(tmp_path / "v")], capture_output=True, text=True, check=False
    )
    assert broken.returncode == 2
    assert broken.stderr.startswith("touchstone: ")
    assert "Traceback" not in broken.stderr


def test_implementation_that_stops_reading_cannot_hang_the_run(tmp_path: Path) -> None:
    """HARNESS-RUN-1: an implementation that answers start, then neither reads nor answers while
    the requests fill the pipe, is timed out and ended; the run returns instead of blocking."""
    script = tmp_path / "deaf.py"
    script.write_text(
        textwrap.dedent(
            """
            import json, sys, time
            sys.stdin.readline()
            impl = {"name": "deaf", "version": "0", "language": "py"}
            print(json.dumps({"version": 1, "implementation": impl,
                              "operations": ["json.to_string"]}), flush=True)
            time.sleep(600)
            """
        )
    )
    base = _vectors()[0]
    padding = "x" * 4096
    vectors = [
        Vector(
            id=f"json-deaf-{i}",
            semantic="json",
            operation="json.to_string",
            input={"text": f'"{padding}"'},
            expected={},
            comment="",
            rules=base.rules,
            flags=(),
            file="",
        )
        for i in range(200)  # ~800 KiB of requests: far more than a pipe holds
    ]
    started = time.monotonic()
    report = run_vectors(vectors, [sys.executable, str(script)], timeout=1)
    assert time.monotonic() - started < 30
    assert {r.verdict for r in report.results} == {Verdict.ERROR}
    assert "timed out" in report.results[0].message


@pytest.mark.parametrize("echo", ["true", "0.0", '"0"', "null"])
def test_seq_must_be_echoed_as_the_same_integer(tmp_path: Path, echo: str) -> None:
    """HARNESS-MSG-2, HARNESS-RUN-2: a seq of another type (true, 0.0, "0") is not the echo of 0."""
    cmd = _fake(tmp_path, f'print(\'{{"seq": {echo}, "output": {{}}}}\', flush=True)\n')
    with pytest.raises(ProtocolError, match="seq 0"):
        run_vectors(_vectors()[:1], cmd)


@pytest.mark.parametrize("version", ["true", "1.0", '"1"', "2"])
def test_start_must_answer_version_1(tmp_path: Path, version: str) -> None:
    """HARNESS-MSG-1, HARNESS-RUN-2: a start answer whose version is not the integer 1 breaks
    the protocol (true and 1.0 compare equal to 1 in Python, but are not it)."""
    script = tmp_path / "impl.py"
    script.write_text(f"import sys\nsys.stdin.readline()\nprint('{{\"version\": {version}}}')\n")
    with pytest.raises(ProtocolError, match="start answered"):
        run_vectors(_vectors()[:1], [sys.executable, str(script)])


def test_a_long_answer_line_is_read_in_linear_time(tmp_path: Path) -> None:
    """HARNESS-RUN-1: a 48 MB answer line is read well inside the per-answer deadline (the reader
    searches only the bytes each chunk adds)."""
    cmd = _fake(
        tmp_path,
        """
        out = {"x": "y" * 48_000_000}
        sys.stdout.write(json.dumps({"seq": req["seq"], "output": out}) + "\\n")
        sys.stdout.flush()
        """,
    )
    report = run_vectors(_vectors()[:1], cmd, timeout=8)
    assert [r.verdict for r in report.results] == [Verdict.FAIL]
