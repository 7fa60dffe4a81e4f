"""Findings and the audit report (``spec/audit.md``, AUDIT-REPORT-*): pure data and rendering.

No I/O here: the runner fills a :class:`Report`, and :func:`render` turns it into the table,
JSON or Markdown text.  Evidence is redacted when it is recorded (:func:`redact`), so no
rendering can echo a bearer token.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "Exchange",
    "Finding",
    "Outcome",
    "Report",
    "Severity",
    "redact",
    "render",
]

_BODY_LIMIT = 1500


class Severity(enum.IntEnum):
    """How much a finding matters; ``--fail-on`` compares against it."""

    INFO = 0
    LOW = 1
    MEDIUM = 2
    HIGH = 3
    CRITICAL = 4

    @classmethod
    def parse(cls, text: str) -> Severity:
        """The severity named ``text`` (case-insensitive); ``ValueError`` naming the choices."""
        try:
            return cls[text.upper()]
        except KeyError:
            names = ", ".join(s.name.lower() for s in cls)
            raise ValueError(f"unknown severity {text!r} (one of {names})") from None

    @property
    def label(self) -> str:
        """The lower-case name."""
        return self.name.lower()


class Outcome(enum.Enum):
    """What a probe established."""

    PASS = "pass"
    """The property holds as far as the probe can see."""
    FINDING = "finding"
    """The property does not hold; the severity says how much that matters."""
    NOT_OBSERVABLE = "n/a"
    """The probe could not be made (no MRTR tool, no second token, the budget spent...)."""


@dataclass(frozen=True)
class Exchange:
    """One request and its answer, as sent and received (tokens redacted)."""

    label: str
    target: str
    request_headers: Mapping[str, str]
    request_body: str
    status: int | None
    response_body: str

    def to_json(self) -> dict[str, Any]:
        """The exchange as a JSON object."""
        return {
            "label": self.label,
            "target": self.target,
            "request": {"headers": dict(self.request_headers), "body": self.request_body},
            "response": {"status": self.status, "body": self.response_body},
        }


def redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret replaced by ``<redacted>`` and cut to a readable length."""
    for secret in sorted({s for s in secrets if s}, key=len, reverse=True):
        text = text.replace(secret, "<redacted>")
    if len(text) > _BODY_LIMIT:
        text = text[:_BODY_LIMIT] + f"... ({len(text) - _BODY_LIMIT} more characters)"
    return text


@dataclass(frozen=True)
class Finding:
    """One probe's result."""

    id: str
    title: str
    outcome: Outcome
    severity: Severity
    verdict: str
    evidence: Sequence[Exchange] = ()

    @property
    def counts(self) -> bool:
        """Whether the finding is a finding (not a pass and not unobservable)."""
        return self.outcome is Outcome.FINDING

    def to_json(self) -> dict[str, Any]:
        """The finding as a JSON object."""
        return {
            "id": self.id,
            "title": self.title,
            "outcome": self.outcome.value,
            "severity": self.severity.label,
            "verdict": self.verdict,
            "evidence": [e.to_json() for e in self.evidence],
        }


@dataclass
class Report:
    """Everything an audit established, in probe order."""

    target: str
    eras: Sequence[str]
    budget: int
    requests: int = 0
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def worst(self) -> Severity | None:
        """The highest severity among the findings, ``None`` when there is none."""
        found = [f.severity for f in self.findings if f.counts]
        return max(found) if found else None

    def fails(self, threshold: Severity) -> bool:
        """Whether a finding is at or above ``threshold`` (AUDIT-REPORT-2: exit status 1)."""
        worst = self.worst()
        return worst is not None and worst >= threshold

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON object."""
        return {
            "target": self.target,
            "eras": list(self.eras),
            "requests": self.requests,
            "budget": self.budget,
            "notes": list(self.notes),
            "findings": [f.to_json() for f in self.findings],
        }


def _summary(report: Report) -> str:
    n = sum(1 for f in report.findings if f.counts)
    return (
        f"{n} finding(s), {report.requests} of at most {report.budget} requests, "
        f"eras {', '.join(report.eras)}"
    )


def _table(report: Report) -> str:
    rows = [("ID", "OUTCOME", "SEVERITY", "VERDICT")]
    for f in report.findings:
        severity = f.severity.label if f.counts else "-"
        rows.append((f.id, f.outcome.value, severity, f.verdict))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = [f"touchstone audit {report.target}"]
    for r in rows:
        lines.append("  ".join(r[i].ljust(widths[i]) for i in range(3)) + "  " + r[3])
    lines.extend(f"note: {n}" for n in report.notes)
    lines.append(_summary(report))
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _markdown(report: Report) -> str:
    lines = [
        f"# touchstone audit: `{report.target}`",
        "",
        _summary(report) + ".",
        "",
        "| ID | outcome | severity | verdict |",
        "|---|---|---|---|",
    ]
    for f in report.findings:
        severity = f.severity.label if f.counts else "-"
        lines.append(f"| {f.id} | {f.outcome.value} | {severity} | {_cell(f.verdict)} |")
    for n in report.notes:
        lines.extend(["", f"> {n}"])
    for f in report.findings:
        if not f.evidence:
            continue
        lines.extend(["", f"## {f.id}: {f.title}", "", f.verdict, ""])
        for e in f.evidence:
            lines.append(f"- **{e.label}** → `{e.target}`")
            lines.append("  ```")
            lines.append(f"  > {e.request_body}")
            lines.append(f"  < {e.status} {e.response_body}")
            lines.append("  ```")
    return "\n".join(lines)


def render(report: Report, fmt: str) -> str:
    """``report`` as ``table``, ``json`` or ``markdown`` text (AUDIT-REPORT-1)."""
    if fmt == "json":
        return json.dumps(report.to_json(), indent=2, sort_keys=True)
    if fmt == "markdown":
        return _markdown(report)
    return _table(report)
