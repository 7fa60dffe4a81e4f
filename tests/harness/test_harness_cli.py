"""The touchstone command's eval and usage errors: one line, exit 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mcp_touchstone import __version__

CLI = [sys.executable, "-m", "mcp_touchstone"]


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], input=stdin, capture_output=True, text=True, check=False)


def test_version() -> None:
    """The --version flag prints the package version."""
    out = _run("--version")
    assert out.returncode == 0
    assert __version__ in out.stdout


def test_eval_prints_output_json() -> None:
    """HARNESS-JSON-1: touchstone eval runs one case with the reference and prints its output."""
    out = _run("eval", "json.to_string", "-", stdin='{"text": "{\\"b\\": 1e-6, \\"a\\": 1}"}')
    assert out.returncode == 0, out.stderr
    assert out.stdout == '{"bytes":16,"string":"{\\"a\\":1,\\"b\\":1e-6}"}\n'


@pytest.mark.parametrize(
    ("args", "stdin", "needle"),
    [
        (("eval", "no.such.op", "-"), "{}", "unknown operation"),
        (("eval", "json.to_string", "/nonexistent/case.json"), "", "cannot read"),
        (("eval", "json.to_string", "-"), "{not json", "not valid JSON"),
    ],
)
def test_bad_input_is_one_line_exit_2(args: tuple[str, ...], stdin: str, needle: str) -> None:
    """Bad input (unknown operation, unreadable file, invalid JSON) exits 2 with one line."""
    out = _run(*args, stdin=stdin)
    assert out.returncode == 2
    assert needle in out.stderr
    assert out.stderr.count("\n") == 1
    assert "Traceback" not in out.stderr


def test_eval_reads_a_file(tmp_path: Path) -> None:
    """touchstone eval reads the case input from a file path."""
    case = tmp_path / "case.json"
    case.write_text('{"text": "[1, 2]"}')
    out = _run("eval", "json.to_string", str(case))
    assert out.returncode == 0
    assert '"string":"[1,2]"' in out.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("run", "--impl", "'"), "No closing quotation"),
        (("run", "--impl", " "), "no command"),
        (("run", "--semantic", "json", "--report", "/nonexistent/r.json"), "cannot write report"),
        (("run", "--timeout", "nan"), "positive"),
        (("run", "--timeout", "0"), "positive"),
        (("run", "--timeout", "soon"), "not a number"),
        (("eval", "json.to_string", "/"), "cannot read"),
        (("frobnicate",), "invalid choice"),
        ((), "required"),
    ],
)
def test_usage_errors_are_one_line_exit_2(args: tuple[str, ...], needle: str) -> None:
    """HARNESS-CLI-1: bad arguments (an unparsable --impl, an unwritable --report, a bad
    --timeout, a directory as input, an unknown command) are one line and exit 2."""
    out = _run(*args)
    assert out.returncode == 2, out.stderr
    assert needle in out.stderr
    assert out.stderr.count("\n") == 1
    assert "Traceback" not in out.stderr


def test_binary_and_huge_inputs_are_bad_input(tmp_path: Path) -> None:
    """HARNESS-CLI-1: a binary file is invalid JSON (exit 2, one line); a large case just runs."""
    binary = tmp_path / "case.bin"
    binary.write_bytes(bytes(range(256)) * 64)
    out = _run("eval", "json.to_string", str(binary))
    assert out.returncode == 2
    assert "not valid JSON" in out.stderr
    assert out.stderr.count("\n") == 1
    big = tmp_path / "big.json"
    big.write_text('{"text": "[' + ",".join(["1e-7"] * 200_000) + ']"}')
    out = _run("eval", "json.to_string", str(big))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith('{"bytes":1000001,')


def _closed_reader(*args: str, stdin: bytes = b"") -> tuple[int, str]:
    """Run the CLI with a stdout pipe whose reader has gone before anything is written."""
    proc = subprocess.Popen(
        [*CLI, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    assert proc.stderr is not None
    proc.stdout.close()
    proc.stdin.write(stdin)
    proc.stdin.close()
    err = proc.stderr.read().decode()
    return proc.wait(timeout=120), err


def test_closed_stdout_is_quiet() -> None:
    """HARNESS-CLI-1, VEC-REPORT-2: `touchstone run | head -1` keeps the run's exit status and
    prints no traceback; eval whose output cannot be delivered exits 1, quietly."""
    status, err = _closed_reader("run", "--semantic", "json", "--timeout", "60")
    assert status == 0, err
    assert err == ""
    status, err = _closed_reader("eval", "json.to_string", "-", stdin=b'{"text": "[1]"}')
    assert status == 1
    assert err == ""
