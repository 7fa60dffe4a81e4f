"""The audit's verdict means what it says under faults: a server it cannot list, a proxy in the
environment, a slow or huge answer, a ``--command`` server that will not end, a token that is a
common word, one root cause (``spec/audit.md``)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mcp_touchstone.audit._report import redact
from tests.adapters._servers import Region
from tests.audit._faulty_http import faulty_server
from tests.audit.conftest import by_id, run

ROOT = Path(__file__).resolve().parents[2]
TOUCHSTONE = [sys.executable, "-m", "mcp_touchstone"]


def _audit(
    *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*TOUCHSTONE, "audit", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        check=False,
    )


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    return done.stderr


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with faulty_server() as url:
        yield url


@pytest.mark.parametrize("mode", ["404", "500", "401", "html", "text", "wrong-id", "307"])
def test_a_server_that_cannot_be_listed_is_no_audit(base: str, mode: str) -> None:
    """AUDIT-DISC-1: a server refusing every list -- an error status, an HTML page, a body that
    is not JSON, results for another id, a redirect -- cannot be audited: exit 2, one line,
    never "0 finding(s)" and exit 0 (a mistyped --url certifies nothing)."""
    done = _audit("--url", f"{base}/{mode}", "--token", "t")
    assert "cannot list the server" in _one_line(done)
    assert "finding(s)" not in done.stdout


def test_nothing_observable_is_no_clean_pass(base: str) -> None:
    """AUDIT-REPORT-2: a server where every probe is n/a (no MRTR tool, no second token) is
    "nothing observable": the report is printed, and the exit status is 2, not 0."""
    done = _audit("--url", f"{base}/plain", "--format", "json")
    assert done.returncode == 2, done.stderr
    assert "nothing observable" in done.stderr
    report = json.loads(done.stdout)
    assert report["observed"] is False
    assert {f["outcome"] for f in report["findings"]} == {"n/a"}


def test_no_proxy_sees_the_token(base: str) -> None:
    """AUDIT-WIRE-1: with HTTP_PROXY (and ALL_PROXY) set to a listener, the audit still talks
    to --url directly: the listener is never contacted and the bearer token never reaches it."""
    contacted: list[bytes] = []
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(0.2)
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(1)
                try:
                    contacted.append(conn.recv(4096))
                except OSError:
                    contacted.append(b"")

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    proxy = f"http://127.0.0.1:{listener.getsockname()[1]}"
    env = {"HTTP_PROXY": proxy, "http_proxy": proxy, "ALL_PROXY": proxy, "NO_PROXY": ""}
    try:
        done = _audit("--url", f"{base}/plain", "--token", "s3cret-token", env=env)
    finally:
        stop.set()
        thread.join()
        listener.close()
    assert contacted == [], contacted
    assert "nothing observable" in done.stderr, done.stderr


def test_a_dripping_answer_is_cut_at_the_timeout(base: str) -> None:
    """AUDIT-WIRE-4: --timeout bounds a whole answer, not each read: a server sending a byte
    every 0.3 s is given up on after 2 s, exit 2, one line."""
    started = time.monotonic()
    done = _audit("--url", f"{base}/drip", "--timeout", "2")
    took = time.monotonic() - started
    assert "did not answer within 2 s" in _one_line(done)
    assert took < 15, f"{took:.1f} s"


def test_the_whole_audit_has_a_deadline(base: str) -> None:
    """AUDIT-WIRE-4: --deadline bounds the whole audit: a server answering each request in
    0.8 s (each within --timeout) is given up on after 3 s, exit 2, one line."""
    started = time.monotonic()
    done = _audit("--url", f"{base}/slow", "--deadline", "3")
    took = time.monotonic() - started
    assert "did not finish within 3 s" in _one_line(done)
    assert took < 15, f"{took:.1f} s"


def test_a_huge_answer_is_refused(base: str) -> None:
    """AUDIT-WIRE-4: an answer past 8 MiB is not read on: exit 2, one line."""
    assert "answered more than 8 MiB" in _one_line(_audit("--url", f"{base}/huge"))


def test_a_command_server_that_ignores_sigterm_is_ended(tmp_path: Path) -> None:
    """AUDIT-WIRE-2: a --command server that ignores the end of its input and SIGTERM, and has
    started a child that called setsid(), is killed (SIGTERM, then SIGKILL, each after a
    bounded grace): the audit returns, and neither process is left."""
    pids = tmp_path / "pids"
    started = time.monotonic()
    command = f"{sys.executable} -m tests.audit._stubborn_server {pids}"
    try:
        done = _audit("--command", command, "--era", "2025-11-25", timeout=30)
    finally:
        found = [int(p) for p in pids.read_text().split()] if pids.exists() else []
        leftover = [p for p in found if not _gone(p)]
        for pid in leftover:
            os.kill(pid, signal.SIGKILL)
    took = time.monotonic() - started
    assert len(found) == 2
    assert leftover == [], f"left running: {leftover}"
    assert "nothing observable" in done.stderr, done.stderr
    assert took < 20, f"{took:.1f} s"


def test_redaction_takes_whole_values_only() -> None:
    """AUDIT-REPORT-3: the token ``root`` is redacted where it is a value (or a whole word in
    one), never inside another word or a key: ``"roots":{}`` stays as it is."""
    body = '{"capabilities":{"roots":{}},"token":"root","note":"Bearer root","root":1}'
    assert redact(body, ["root"]) == (
        '{"capabilities":{"roots":{}},"token":"<redacted>","note":"Bearer <redacted>","root":1}'
    )
    assert redact('{"roots":{}}', ["root"]) == '{"roots":{}}'
    assert redact('data: {"a":"root"}', ["root"]) == 'data: {"a":"<redacted>"}'


def test_redaction_keeps_the_evidence_readable() -> None:
    """AUDIT-REPORT-3: audited as ``root``, the recorded requests still carry the client's
    ``"roots":{}`` capability, and no token."""
    from tests.audit._weak import WeakServer

    report = run(WeakServer("forbidden"), ["AUDIT-EXIST-1"])
    bodies = [e.request_body for f in report.findings for e in f.evidence]
    assert any('"roots":{}' in b for b in bodies), bodies
    assert not any("<redacted>s" in b for b in bodies)


def _half_installed() -> Any:
    """FastMCP with TouchstoneMiddleware added (no ``install``) hiding ``delete_user``, whose
    header-bound argument is required."""
    from fastmcp import FastMCP

    from mcp_touchstone.adapters.fastmcp import TouchstoneMiddleware
    from mcp_touchstone.visibility import SCOPES_KEY
    from tests.adapters._servers import POLICY, fast_verifier
    from tests.audit._strong import BASE

    server = FastMCP("half", auth=fast_verifier(BASE, subject=True))

    @server.tool(meta={SCOPES_KEY: ["admin"]})
    def delete_user(name: str, region: Region) -> str:
        return f"deleted {name} in {region}"

    @server.tool
    def add(a: int, b: int) -> int:
        return a + b

    server.add_middleware(TouchstoneMiddleware(visibility=POLICY))
    return server


def test_one_root_cause_is_one_finding() -> None:
    """AUDIT-EXIST-1, AUDIT-EXIST-5: the Mcp-Param-* header check answering a hidden tool
    (TouchstoneMiddleware without ``install``) is reported once, under AUDIT-EXIST-5; the
    tool probe sends the headers and finds the hiding itself sound."""
    report = run(_half_installed(), ["AUDIT-EXIST-1", "AUDIT-EXIST-5"])
    found = by_id(report)
    assert found["AUDIT-EXIST-5"].counts, found["AUDIT-EXIST-5"].verdict
    assert found["AUDIT-EXIST-1"].outcome.value == "pass", found["AUDIT-EXIST-1"].verdict
