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
