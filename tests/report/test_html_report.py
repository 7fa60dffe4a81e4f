"""The HTML reports (``touchstone run --format html``, ``touchstone audit --format html``), opened
in a real headless Chromium: what a person sees, clicks open and reads, and what an
implementation cannot inject."""

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

from mcp_touchstone.audit._report import Exchange, Finding, Outcome, Severity
from mcp_touchstone.audit._report import Report as AuditReport
from mcp_touchstone.conformance import Report, Result, Vector, Verdict
from mcp_touchstone.conformance._html_report import render_audit, render_run
from mcp_touchstone.conformance._report import COLUMNS, Assessment
from tests.report._chromium import Browser

ROOT = Path(__file__).resolve().parents[2]
NODE = ROOT / "conformance" / "harnesses" / "node"
TOUCHSTONE = Path(sys.executable).parent / "touchstone"
EVIL = '</pre></code><script>document.title="owned"</script><img src=x id="evil"><h1 id="evil2">'


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the module's pages."""
    with Browser() as b:
        yield b


def _visible(browser: Browser, selector: str) -> bool:
    """Whether the element is drawn: it has a box, and at its centre it (or a child) is the
    topmost element, so nothing hides it."""
    return bool(
        browser.js(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " if (!e) return false; const r = e.getBoundingClientRect();"
            " if (r.width === 0 || r.height === 0) return false;"
            " e.scrollIntoView({block: 'center'}); const q = e.getBoundingClientRect();"
            " const top = document.elementFromPoint(q.x + Math.min(q.width / 2, 20),"
            " q.y + Math.min(q.height / 2, 8));"
            " return top !== null && (top === e || e.contains(top)); })()"
        )
    )


def test_run_report_shows_the_matrix_and_opens_each_failure(
    tmp_path: Path, browser: Browser
) -> None:
    """HTML-2, HTML-1: the Node harness with a planted bug: the page says not conformant in red, its
    matrix agrees with the JSON report cell for cell, every failure is listed closed, and a click on
    one shows its why, its first differing path and its diff."""
    page, data = tmp_path / "report.html", tmp_path / "report.json"
    env = {**os.environ, "TOUCHSTONE_NODE_PLANT": "path-prefix"}
    with page.open("w") as out:
        run = subprocess.run(
            [
                str(TOUCHSTONE),
                "run",
                "--impl",
                f"node {NODE / 'harness.js'}",
                "--expected-failures",
                str(NODE / "baseline.json"),
                "--format",
                "html",
                "--report",
                str(data),
            ],
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            check=False,
        )
    assert run.returncode == 1, run.stderr
    report = json.loads(data.read_text())
    browser.open(page)
    assert browser.js("document.getElementById('verdict').innerText") == "not conformant"
    red = browser.js("getComputedStyle(document.getElementById('verdict')).backgroundColor")
    assert red == "rgb(207, 34, 46)"
    assert _visible(browser, "#verdict")

    # The matrix: one row per operation, its cells the JSON report's counts.
    counts: dict[str, dict[str, int]] = {}
    for r in report["results"]:
        row = counts.setdefault(r["operation"], dict.fromkeys(COLUMNS, 0))
        column = {"pass": "pass", "not_applicable": "n/a"}.get(r["verdict"], r["verdict"])
        row["expected" if "baseline" in r else column] += 1
    rows = browser.js(
        "[...document.querySelectorAll('table.matrix tr.operation')]"
        ".map(tr => [...tr.cells].map(c => c.innerText))"
    )
    assert {row[0]: row[2:] for row in rows} == {
        op: [str(c[k]) for k in COLUMNS] for op, c in counts.items()
    }
    header = browser.js("[...document.querySelectorAll('table.matrix th')].map(c => c.innerText)")
    assert header[2:] == list(COLUMNS)

    # Every failure is there, closed: its why is not on screen until it is clicked.
    failed = [r for r in report["results"] if r["verdict"] == "fail" and "baseline" not in r]
    assert len(failed) >= 5
    shown = browser.js("[...document.querySelectorAll('#failures ~ details.result')].length")
    assert shown >= len(failed)
    assert browser.js("[...document.querySelectorAll('details.result')].some(d => d.open)") is False
    target = next(r for r in failed if r["id"] == "scope-path-traversal-out")
    why = json.loads((ROOT / "conformance/vectors/scope/paths.json").read_text())
    comment = next(t["comment"] for t in why["tests"] if t["id"] == target["id"])
    assert comment not in browser.js("document.body.innerText")
    selector = f"details[id='{target['id']}']"
    browser.click(f"{selector} > summary")
    assert browser.js(f'document.querySelector("{selector}").open') is True
    text = browser.js(f'document.querySelector("{selector}").innerText')
    assert comment in text
    assert f"first difference\n{target['first_difference']}" in text
    assert _visible(browser, f"{selector} pre.diff span.add")
    diff = browser.js(f'document.querySelector("{selector} pre.diff").innerText')
    assert diff.startswith("--- expected\n+++ actual\n@@ ")
    assert "\n\n" not in diff  # one line of the diff, one line on screen
    added = browser.js(
        f'getComputedStyle(document.querySelector("{selector} span.add")).backgroundColor'
    )
    assert added == "rgb(218, 251, 225)"
    shot = browser.screenshot(tmp_path / "opened.png")
    assert shot.startswith(b"\x89PNG\r\n\x1a\n")
    # Nothing was fetched or run: no script, no external resource, one self-contained file.
    assert browser.js("document.scripts.length") == 0
    assert browser.js("performance.getEntriesByType('resource').length") == 0


def _vector(vid: str, operation: str = "scope.resolve_matching_grants") -> Vector:
    return Vector(
        id=vid,
        semantic=operation.split(".", 1)[0],
        operation=operation,
        input={},
        expected={"matches": [{"index": 0}]},
        comment=f"why {vid}",
        rules=("SCOPE-PATH-2",),
        flags=(),
        file="scope/paths.json",
    )


def test_run_report_escapes_what_the_implementation_says(tmp_path: Path, browser: Browser) -> None:
    """HTML-4, HTML-1 (VEC-REPORT-3 for HTML): the implementation's name, answers, messages and
    stderr are text on the page, never markup: no element and no script of theirs exists, and the
    words are shown as sent."""
    report = Report(
        implementation={"name": EVIL, "version": "1", "language": "x"},
        results=(
            Result(_vector("scope-a"), Verdict.FAIL, answer={"matches": [{"index": EVIL}]}),
            Result(_vector("scope-b"), Verdict.ERROR, message=EVIL),
            Result(_vector("scope-c"), Verdict.PASS, answer={"matches": [{"index": 0}]}),
            Result(_vector("vis-d", "visibility.is_visible"), Verdict.NOT_APPLICABLE),
        ),
        operations=("scope.resolve_matching_grants",),
        exit_status=3,
        stderr_tail=EVIL,
    )
    page = tmp_path / "evil.html"
    page.write_text(render_run(Assessment(report)))
    browser.open(page)
    assert browser.js("document.title").startswith("mcp-touchstone: </pre>")
    assert browser.js("document.querySelectorAll('script, img, #evil, #evil2').length") == 0
    browser.click("details[id='scope-a'] > summary")
    browser.click("details.result:not([id]) > summary, details[id='scope-b'] > summary")
    text = browser.js("document.body.innerText")
    assert text.count(EVIL) >= 3  # the name, the stderr tail, the error message; the answer too
    assert '"index": "</pre></code><script>' in text
    assert "it exited early: exit status 3" in text
    csp = browser.js(
        "document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]').content"
    )
    assert "default-src 'none'" in csp


def _audit_report() -> AuditReport:
    exchange = Exchange(
        label="tampered state",
        target="http://127.0.0.1:1/mcp",
        request_headers={"Authorization": "Bearer <redacted>", "X-Evil": EVIL},
        request_body='{"method": "tools/call"}',
        status=200,
        response_body=EVIL,
    )
    return AuditReport(
        target="http://127.0.0.1:1/mcp",
        eras=("2026-07-28",),
        budget=300,
        requests=12,
        findings=[
            Finding("AUDIT-INT-1", "integrity", Outcome.FINDING, Severity.HIGH, EVIL, (exchange,)),
            Finding("AUDIT-BIND-1", "binding", Outcome.PASS, Severity.HIGH, "refused", ()),
            Finding("AUDIT-AUD-1", "audience", Outcome.NOT_OBSERVABLE, Severity.HIGH, "needs", ()),
        ],
        notes=["a note"],
    )


def test_audit_report_shows_each_probe_and_its_evidence(tmp_path: Path, browser: Browser) -> None:
    """HTML-3, HTML-4: the audit page: each probe's outcome in its row, the finding in red, its
    evidence one click away (the exact request and answer), and the server's text escaped."""
    page = tmp_path / "audit.html"
    page.write_text(render_audit(_audit_report()))
    browser.open(page)
    rows = browser.js(
        "[...document.querySelectorAll('table.probes tr')].slice(1)"
        ".map(tr => [...tr.cells].map(c => c.innerText))"
    )
    assert [r[:3] for r in rows] == [
        ["AUDIT-INT-1", "finding", "high"],
        ["AUDIT-BIND-1", "pass", "-"],
        ["AUDIT-AUD-1", "n/a", "-"],
    ]
    assert rows[0][3] == EVIL
    assert browser.js("document.getElementById('verdict').innerText") == "1 finding(s)"
    assert browser.js("document.querySelectorAll('script, img, #evil, #evil2').length") == 0
    assert "tampered state" not in browser.js("document.body.innerText")
    browser.click("details[id='AUDIT-INT-1'] > summary")
    text = browser.js("document.querySelector(\"details[id='AUDIT-INT-1']\").innerText")
    assert "tampered state" in text
    assert f"X-Evil: {EVIL}" in text
    assert "answer: HTTP 200" in text
    assert _visible(browser, "details[id='AUDIT-INT-1'] pre")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_audit_html_of_the_example_server(tmp_path: Path, browser: Browser) -> None:
    """HTML-3: `touchstone audit --format html` against the example server: one row per probe of the
    JSON report, with the same outcomes."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "mcp_touchstone.examples.server"],
        env={**os.environ, "PORT": str(port)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert server.poll() is None, "the example server exited"
                assert time.monotonic() < deadline, "the example server did not start"
                time.sleep(0.1)
        page, data = tmp_path / "audit.html", tmp_path / "audit.json"
        with page.open("w") as out:
            audit = subprocess.run(
                [
                    str(TOUCHSTONE),
                    "audit",
                    "--url",
                    f"http://127.0.0.1:{port}/mcp",
                    "--token",
                    "root",
                    "--other-token",
                    "alice",
                    "--format",
                    "html",
                    "--report",
                    str(data),
                ],
                stdout=out,
                stderr=subprocess.PIPE,
                text=True,
                timeout=120,
                check=False,
            )
    finally:
        server.terminate()
        server.wait(timeout=20)
    assert audit.returncode in (0, 1), audit.stderr
    findings = json.loads(data.read_text())["findings"]
    browser.open(page)
    rows = browser.js(
        "[...document.querySelectorAll('table.probes tr')].slice(1)"
        ".map(tr => [...tr.cells].map(c => c.innerText))"
    )
    assert [(r[0], r[1]) for r in rows] == [(f["id"], f["outcome"]) for f in findings]
    assert "root" not in browser.js("document.body.innerText").split()
