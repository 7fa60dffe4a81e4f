"""Findings and the audit report (``spec/audit.md``, AUDIT-REPORT-*): pure data and rendering.

No I/O here: the runner fills a :class:`Report`, and :func:`render` turns it into the table,
JSON or Markdown text.  Evidence is redacted when it is recorded (:func:`redact`), so no
rendering can echo a bearer token.
"""

from __future__ import annotations

import enum
import json
import re
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


_REDACTED = "<redacted>"
_TOKEN_CHARS = r"A-Za-z0-9\-._~+/="
"""The characters of a bearer token (RFC 6750 ``b64token``): a secret is a whole token only
where neither neighbour is one of them."""


def _whole(secrets: Iterable[str]) -> re.Pattern[str] | None:
    """A pattern matching each secret as a whole token (longest first), never inside a longer
    word: the token ``root`` is found in ``Bearer root``, not in ``roots``."""
    found = sorted({s for s in secrets if s}, key=len, reverse=True)
    if not found:
        return None
    either = "|".join(re.escape(s) for s in found)
    return re.compile(f"(?<![{_TOKEN_CHARS}])(?:{either})(?![{_TOKEN_CHARS}])")


def _redact_value(value: Any, pattern: re.Pattern[str]) -> Any:
    """``value`` with each string that is, or holds as a whole token, a secret redacted; object
    keys are names, not values, and stay as they are."""
    if isinstance(value, str):
        return pattern.sub(_REDACTED, value)
    if isinstance(value, list):
        return [_redact_value(v, pattern) for v in value]
    if isinstance(value, dict):
        return {k: _redact_value(v, pattern) for k, v in value.items()}
    return value


def _redact_json(text: str, pattern: re.Pattern[str]) -> str | None:
    """``text`` redacted value by value when it is JSON (unchanged when no value holds a
    secret, so the evidence is the bytes exchanged); ``None`` when it is not JSON."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    redacted = _redact_value(value, pattern)
    if redacted == value:
        return text
    return json.dumps(redacted, ensure_ascii=False, separators=(",", ":"))


def redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret replaced by ``<redacted>`` and cut to a readable length
    (AUDIT-REPORT-3).  A JSON body is redacted value by value: a string equal to a secret, or
    holding it as a whole token, is redacted, and nothing else is touched (the token ``root``
    leaves ``"roots":{}`` as it is).  Server-sent events are redacted line by line, and any
    other text where a secret stands as a whole token."""
    pattern = _whole(secrets)
    if pattern is not None:
        whole = _redact_json(text, pattern)
        if whole is not None:
            text = whole
        else:
            lines = []
            for line in text.split("\n"):
                head, sep, data = line.partition("data:")
                done = _redact_json(data, pattern) if sep and not head.strip() else None
                if done is None:
                    lines.append(pattern.sub(_REDACTED, line))
                else:
                    lead = data[: len(data) - len(data.lstrip())]
                    lines.append(head + sep + (data if done == data else lead + done))
            text = "\n".join(lines)
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

    def observed(self) -> bool:
        """Whether any probe could be made (a pass or a finding): a report of nothing but n/a
        is "nothing observable", never a clean pass (AUDIT-REPORT-2)."""
        return any(f.outcome is not Outcome.NOT_OBSERVABLE for f in self.findings)

    def fails(self, threshold: Severity) -> bool:
        """Whether a finding is at or above ``threshold`` (AUDIT-REPORT-2: exit status 1)."""
        worst = self.worst()
        return worst is not None and worst >= threshold

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON object."""
        return {
            "target": self.target,
            "observed": self.observed(),
            "eras": list(self.eras),
            "requests": self.requests,
            "budget": self.budget,
            "notes": list(self.notes),
            "findings": [f.to_json() for f in self.findings],
        }


def _summary(report: Report) -> str:
    n = sum(1 for f in report.findings if f.counts)
    verdict = f"{n} finding(s)" if report.observed() else "nothing observable (every probe n/a)"
    return (
        f"{verdict}, {report.requests} of at most {report.budget} requests, "
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


def _prose(text: str) -> str:
    """Server text as Markdown prose: raw HTML escaped, so a published report shows it and
    runs nothing, and no line break."""
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return escaped.replace("\r", " ").replace("\n", " ")


def _cell(text: str) -> str:
    return _prose(text).replace("|", "\\|")


def _fence(*texts: str) -> str:
    """A code fence longer than any run of backticks in ``texts``, which it cannot end."""
    longest = max((len(run) for t in texts for run in re.findall("`+", t)), default=0)
    return "`" * max(3, longest + 1)


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
        lines.extend(["", f"> {_prose(n)}"])
    for f in report.findings:
        if not f.evidence:
            continue
        lines.extend(["", f"## {f.id}: {f.title}", "", _prose(f.verdict), ""])
        for e in f.evidence:
            request = e.request_body.replace("\n", "\n  ")
            response = e.response_body.replace("\n", "\n  ")
            fence = _fence(request, response)
            lines.append(f"- **{_prose(e.label)}** → `{e.target}`")
            lines.append(f"  {fence}")
            lines.append(f"  > {request}")
            lines.append(f"  < {e.status} {response}")
            lines.append(f"  {fence}")
    return "\n".join(lines)


def render(report: Report, fmt: str) -> str:
    """``report`` as ``table``, ``json`` or ``markdown`` text (AUDIT-REPORT-1)."""
    if fmt == "json":
        return json.dumps(report.to_json(), indent=2, sort_keys=True)
    if fmt == "markdown":
        return _markdown(report)
    return _table(report)
