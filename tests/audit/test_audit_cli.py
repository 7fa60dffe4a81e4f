"""``touchstone audit`` as a user runs it: over a real TCP loopback socket against the README's
example server, over ``--command`` stdio, the exit statuses, the formats, the budget."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOUCHSTONE = [sys.executable, "-m", "mcp_touchstone"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _audit(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [*TOUCHSTONE, "audit", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env=env,
        check=False,
    )


@pytest.fixture(scope="module")
def example_url() -> Iterator[str]:
    """``python -m mcp_touchstone.examples.server`` on a free loopback port."""
    port = _free_port()
    env = {**os.environ, "PORT": str(port), "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "mcp_touchstone.examples.server"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("the example server did not listen within 30 s")
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_readme_example_over_tcp_loopback(example_url: str, tmp_path: Path) -> None:
    """AUDIT-WIRE-1: the README's command against the example server on a real socket: the
    replay guard and protect() pass, nothing at medium or above, exit 0, the JSON report
    written."""
    report = tmp_path / "audit.json"
    done = _audit(
        "--url",
        example_url,
        "--token",
        "root",
        "--other-token",
        "alice",
        "--report",
        str(report),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads(report.read_text())
    found = {f["id"]: f for f in data["findings"]}
    assert found["AUDIT-REPLAY-1"]["outcome"] == "pass"
    assert found["AUDIT-INT-1"]["outcome"] == "pass"
    assert found["AUDIT-EXIST-1"]["outcome"] == "pass"
    assert data["requests"] <= data["budget"] == 300
    assert "root" not in json.dumps(found["AUDIT-EXIST-1"]["evidence"])
    assert "AUDIT-INT-1" in done.stdout


def test_fail_on_info_and_markdown(example_url: str) -> None:
    """AUDIT-REPORT-1/2: ``--fail-on info`` turns the informational finding into exit 1; the
    Markdown report has the table and the evidence sections."""
    done = _audit(
        "--url",
        example_url,
        "--token",
        "root",
        "--other-token",
        "alice",
        "--fail-on",
        "info",
        "--format",
        "markdown",
        "--era",
        "2026-07-28",
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("# touchstone audit")
    assert "| AUDIT-ANS-1 | finding | info |" in done.stdout


def test_budget_is_never_exceeded(example_url: str) -> None:
    """AUDIT-BUDGET-1: with ``--max-requests 12`` the audit sends at most 12 requests and
    reports the probes it could not make as not observable; with none made, the audit is
    "nothing observable", exit 2 (AUDIT-REPORT-2)."""
    done = _audit(
        "--url", example_url, "--token", "root", "--max-requests", "12", "--format", "json"
    )
    assert done.returncode == 2, done.stderr
    assert "nothing observable" in done.stderr
    data = json.loads(done.stdout)
    assert data["requests"] <= 12
    assert any("budget" in f["verdict"] for f in data["findings"])


def test_stdio_command_finds_the_sdk_replay_gap() -> None:
    """AUDIT-WIRE-2: ``--command`` drives an MCPServer on stdio; the repeated final round runs
    again (AUDIT-REPLAY-1, medium): exit 1."""
    done = _audit("--command", f"{sys.executable} -m tests.audit._stdio_server", "--format", "json")
    assert done.returncode == 1, done.stderr
    found = {f["id"]: f for f in json.loads(done.stdout)["findings"]}
    assert found["AUDIT-REPLAY-1"]["outcome"] == "finding"
    assert found["AUDIT-INT-1"]["outcome"] == "pass"
    assert found["AUDIT-PRIN-1"]["outcome"] == "n/a"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--url", "http://127.0.0.1:9/mcp"], "cannot reach"),
        (["--url", "ftp://x"], "--url must be"),
        (["--url", "http://127.0.0.1:9/mcp", "--arguments", "[1"], "--arguments is not valid JSON"),
        (["--url", "http://127.0.0.1:9/mcp", "--fail-on", "worst"], "unknown severity"),
        (["--url", "http://127.0.0.1:9/mcp", "--probe", "AUDIT-NOPE"], "unknown probe"),
        ([], "exactly one of --url and --command"),
        (["--command", "/nonexistent/server"], "cannot start"),
    ],
)
def test_an_audit_that_cannot_be_made_exits_2(args: list[str], needle: str) -> None:
    """AUDIT-REPORT-2: exit 2 with one line naming the problem, never a traceback."""
    done = _audit(*args, timeout=60)
    assert done.returncode == 2
    assert needle in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_help_stays_light() -> None:
    """AUDIT-WIRE-1: the CLI lists ``audit`` without importing the audit, httpx2 or anyio."""
    code = (
        "import sys, contextlib, io\n"
        "from mcp_touchstone import _cli\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.suppress(SystemExit):\n"
        "    _cli.main(['--help'])\n"
        "assert 'audit' in out.getvalue()\n"
        "bad = [m for m in ('httpx2', 'anyio', 'mcp_touchstone.audit') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_legacy_only_audit_explains_the_missing_flow(example_url: str) -> None:
    """AUDIT-FLOW-1: on 2025-11-25 alone there is no MRTR, and the verdicts say so; with one
    token nothing else is observable either, which is no clean pass (AUDIT-REPORT-2)."""
    done = _audit(
        "--url", example_url, "--token", "root", "--era", "2025-11-25", "--format", "json"
    )
    assert done.returncode == 2, done.stderr
    assert "nothing observable" in done.stderr
    found = {f["id"]: f for f in json.loads(done.stdout)["findings"]}
    assert "only on 2026-07-28" in found["AUDIT-INT-1"]["verdict"]
