"""The report: formats, the exit threshold, redaction (AUDIT-REPORT-*)."""

from __future__ import annotations

import json

import pytest

from mcp_touchstone.audit import Exchange, Finding, Outcome, Report, Severity, render
from mcp_touchstone.audit._report import redact


def _report() -> Report:
    ex = Exchange(
        "call", "http://127.0.0.1:1/mcp", {"Authorization": "Bearer <redacted>"}, "{}", 200, "{}"
    )
    report = Report(target="http://127.0.0.1:1/mcp", eras=["2026-07-28"], budget=10, requests=3)
    report.findings = [
        Finding("AUDIT-INT-1", "integrity", Outcome.PASS, Severity.INFO, "all refused"),
        Finding("AUDIT-REPLAY-1", "replay", Outcome.FINDING, Severity.MEDIUM, "ran | again", (ex,)),
        Finding(
            "AUDIT-AUD-1", "audience", Outcome.NOT_OBSERVABLE, Severity.INFO, "needs --peer-url"
        ),
    ]
    return report


def test_formats() -> None:
    """AUDIT-REPORT-1: table, JSON and Markdown carry every finding and the request count."""
    report = _report()
    table = render(report, "table")
    assert "AUDIT-REPLAY-1" in table
    assert "3 of at most 10 requests" in table
    data = json.loads(render(report, "json"))
    assert [f["outcome"] for f in data["findings"]] == ["pass", "finding", "n/a"]
    markdown = render(report, "markdown")
    assert "| AUDIT-REPLAY-1 | finding | medium | ran \\| again |" in markdown
    assert "## AUDIT-REPLAY-1: replay" in markdown


@pytest.mark.parametrize(
    ("threshold", "fails"),
    [("info", True), ("low", True), ("medium", True), ("high", False), ("critical", False)],
)
def test_fail_on_threshold(threshold: str, fails: bool) -> None:
    """AUDIT-REPORT-2: exit 1 exactly when a finding is at or above --fail-on; passes and
    unobservable probes never count."""
    assert _report().fails(Severity.parse(threshold)) is fails


def test_unknown_severity_names_the_choices() -> None:
    """AUDIT-REPORT-2: a bad --fail-on is refused with the choices."""
    with pytest.raises(ValueError, match="one of info, low, medium, high, critical"):
        Severity.parse("worst")


def test_redaction_and_length() -> None:
    """AUDIT-REPORT-3: secrets are replaced, long bodies cut."""
    assert redact("token s3cret here", ["s3cret"]) == "token <redacted> here"
    assert len(redact("x" * 5000, [])) < 1600
