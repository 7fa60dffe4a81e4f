"""Reports of a scored run: table, JSON and Markdown, shields.io badges, first-difference diffs.

A run is scored in two steps: the runner's verdict per vector (:mod:`._runner`), then the baseline
(:mod:`._baseline`), which turns listed failures into expected failures and listed passes into
stale entries.  Everything here renders an :class:`Assessment`; nothing here talks to an
implementation.  Files are written atomically, to regular files only (:mod:`._files`,
CONF-OUT-1), so a reader never sees half a report.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from mcp_touchstone import serde_json
from mcp_touchstone.conformance._compare import outputs_match
from mcp_touchstone.conformance._files import write_atomic
from mcp_touchstone.conformance._process import describe_exit
from mcp_touchstone.conformance._runner import Report, Result, Verdict
from mcp_touchstone.conformance._text import clean, short
from mcp_touchstone.serde_json import JSON

COLUMNS = ("pass", "fail", "expected", "error", "skip", "n/a")


@dataclass(frozen=True)
class Assessment:
    """A run with its baseline applied: the verdict an SDK team's CI acts on (VEC-REPORT-1)."""

    report: Report
    expected: frozenset[str] = frozenset()
    """Ids of failing vectors the baseline lists (expected failures: not counted against)."""
    stale: tuple[str, ...] = ()
    """Baseline entries that no longer fail, one line each: they fail the run."""
    reasons: dict[str, str] = field(default_factory=dict)
    """Baseline reason per expected-failure id."""

    def column(self, r: Result) -> str:
        """The table column ``r`` counts in."""
        if r.verdict is Verdict.PASS:
            return "pass"
        if r.verdict is Verdict.NOT_APPLICABLE:
            return "n/a"
        if r.vector.id in self.expected:
            return "expected"
        return {Verdict.FAIL: "fail", Verdict.ERROR: "error", Verdict.SKIP: "skip"}[r.verdict]

    def counts(self) -> dict[str, dict[str, int]]:
        """Column counts per semantic, semantics in name order."""
        table: dict[str, dict[str, int]] = {}
        for r in self.report.results:
            row = table.setdefault(r.vector.semantic, dict.fromkeys(COLUMNS, 0))
            row[self.column(r)] += 1
        return dict(sorted(table.items()))

    def unexpected(self) -> Iterator[Result]:
        """The results that count against the implementation."""
        return (r for r in self.report.results if self.column(r) in ("fail", "error", "skip"))

    @property
    def conformant(self) -> bool:
        """Every announced vector passed or is a listed expected failure, and no baseline entry
        is stale.  A skip is never a pass; not-applicable vectors are not counted."""
        return not self.stale and next(self.unexpected(), None) is None


def first_difference(operation: str, expected: JSON, actual: JSON) -> tuple[str, JSON, JSON]:
    """The first JSON path (``$.a[0].b``) where ``actual`` departs from ``expected``, with the
    two values found there, under the comparison rules (``$`` when the values differ only as a
    whole, e.g. an int against a float)."""
    if outputs_match(operation, expected, actual):
        return "", expected, actual
    return _walk("$", expected, actual, operation)


def _walk(path: str, e: JSON, a: JSON, operation: str) -> tuple[str, JSON, JSON]:
    if isinstance(e, dict) and isinstance(a, dict):
        for key in list(e) + [k for k in a if k not in e]:
            sub = f"{path}.{key}" if key.isidentifier() else f"{path}[{json.dumps(key)}]"
            if key not in a:
                return sub, e[key], "<absent>"
            if key not in e:
                return sub, "<absent>", a[key]
            if not outputs_match(operation, {"v": e[key]}, {"v": a[key]}):
                return _walk(sub, e[key], a[key], operation)
        return path, e, a  # Equal child by child but not as a whole: a relaxed field's sibling.
    if isinstance(e, list) and isinstance(a, list):
        for i, (x, y) in enumerate(zip(e, a, strict=False)):
            if not outputs_match(operation, {"v": x}, {"v": y}):
                return _walk(f"{path}[{i}]", x, y, operation)
        if len(e) != len(a):
            n = min(len(e), len(a))
            return (
                f"{path}[{n}]",
                e[n] if n < len(e) else "<absent>",
                a[n] if n < len(a) else ("<absent>"),
            )
    return path, e, a


def _assessed(a: Assessment | Report) -> Assessment:
    """A bare runner report is scored with no baseline."""
    return a if isinstance(a, Assessment) else Assessment(a)


def _impl_name(report: Report) -> str:
    impl = report.implementation
    name, version, language = (clean(str(impl.get(k, "?")), 100) for k in _IMPL_KEYS)
    return f"{name} {version} ({language})"


_IMPL_KEYS = ("name", "version", "language")


def _groups(results: Iterator[Result]) -> list[list[Result]]:
    """The results given, errored ones sharing a message grouped into one entry (first-seen
    order; VEC-REPORT-3), so an implementation that died is reported once, not per case."""
    groups: list[list[Result]] = []
    by_message: dict[str, list[Result]] = {}
    for r in results:
        if r.verdict is not Verdict.ERROR:
            groups.append([r])
        elif r.message in by_message:
            by_message[r.message].append(r)
        else:
            by_message[r.message] = [r]
            groups.append(by_message[r.message])
    return groups


def _ids(group: list[Result]) -> str:
    ids = ", ".join(g.vector.id for g in group[:10])
    return ids + (f", and {len(group) - 10} more" if len(group) > 10 else "")


def _exit_lines(report: Report) -> list[str]:
    """How the implementation ended, once: its exit status when it exited early, and the tail of
    its stderr when any vector errored (VEC-REPORT-3)."""
    out: list[str] = []
    if report.exit_status is not None:
        out += ["", f"the implementation exited early: {describe_exit(report.exit_status)}"]
    if report.stderr_tail and any(r.verdict is Verdict.ERROR for r in report.results):
        out += ["", "the end of its stderr:"]
        out += [f"  | {clean(line, 400)}" for line in report.stderr_tail.splitlines()[-20:]]
    return out


def render_table(a: Assessment | Report, *, vectors_dir: str = "", width: int = 400) -> str:
    """The human-readable report: a row per semantic, then every vector that needs a look
    (errored vectors sharing a message as one entry), then how the implementation exited."""
    a = _assessed(a)
    out = ["mcp-touchstone conformance report", f"implementation: {_impl_name(a.report)}"]
    if vectors_dir:
        out.append(f"vectors: {clean(vectors_dir)}")
    out.append("")
    header = f"{'semantic':<12}{'vectors':>9}" + "".join(f"{c:>10}" for c in COLUMNS)
    out += [header, "-" * len(header)]
    total = dict.fromkeys(COLUMNS, 0)
    for semantic, row in a.counts().items():
        out.append(
            f"{semantic:<12}{sum(row.values()):>9}" + "".join(f"{row[c]:>10}" for c in COLUMNS)
        )
        for c in COLUMNS:
            total[c] += row[c]
    out.append("-" * len(header))
    out.append(
        f"{'total':<12}{sum(total.values()):>9}" + "".join(f"{total[c]:>10}" for c in COLUMNS)
    )
    na = sorted(
        {r.vector.operation for r in a.report.results if r.verdict is Verdict.NOT_APPLICABLE}
    )
    if na:
        out.append("")
        out.append("not applicable (not announced in start): " + ", ".join(na))
    out.append("")
    out.append(f"conformant: {'yes' if a.conformant else 'no'}")
    for line in a.stale:
        out.append(f"STALE BASELINE {clean(line)}")
    for group in _groups(a.unexpected()):
        out.append("")
        out += _explain(group, width)
    out += _exit_lines(a.report)
    return "\n".join(out)


def _explain(group: list[Result], width: int) -> list[str]:
    r = group[0]
    if len(group) > 1:
        return [
            f"{r.verdict.value.upper()} {len(group)} vectors: {_ids(group)}",
            f"  message:  {clean(r.message)}",
        ]
    lines = [f"{r.verdict.value.upper()} {r.vector.id}  ({r.vector.operation}, {r.vector.file})"]
    lines.append(f"  why:      {clean(r.vector.comment)}")
    if r.verdict is Verdict.FAIL:
        path, e, got = first_difference(r.vector.operation, r.vector.expected, r.answer)
        at = f"{clean(path, width)}: expected {short(e, width)}, got {short(got, width)}"
        lines.append(f"  at:       {at}")
        lines.append(f"  expected: {short(r.vector.expected, width)}")
        lines.append(f"  actual:   {short(r.answer, width)}")
    else:
        lines.append(f"  message:  {clean(r.message)}")
    return lines


def _code(text: str, limit: int = 2000) -> str:
    """Text safe inside inline code in a Markdown table cell (escaped by :func:`._text.clean`
    first, so no line break or control character survives; VEC-REPORT-3): no backtick can end
    the code span, and HTML inside one is shown, not run."""
    return clean(text, limit).replace("|", "\\|").replace("`", "'")


def _md(text: str, limit: int = 2000) -> str:
    """Implementation text safe as Markdown prose or a table cell: as :func:`_code`, and raw
    HTML escaped, so a job summary shows ``<script>`` rather than running it (VEC-REPORT-3)."""
    escaped = clean(text, limit).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return escaped.replace("|", "\\|").replace("`", "'")


def render_markdown(a: Assessment | Report, *, width: int = 200) -> str:
    """The report as GitHub-flavoured Markdown (a CI job summary)."""
    a = _assessed(a)
    mark = "conformant" if a.conformant else "not conformant"
    out = [f"## mcp-touchstone: {_md(_impl_name(a.report))} — {mark}", ""]
    out.append("| semantic | vectors | " + " | ".join(COLUMNS) + " |")
    out.append("|---|---:|" + "---:|" * len(COLUMNS))
    for semantic, row in a.counts().items():
        cells = " | ".join(str(row[c]) for c in COLUMNS)
        out.append(f"| {semantic} | {sum(row.values())} | {cells} |")
    if a.stale:
        out += ["", "### Stale baseline entries", ""]
        out += [f"- {_md(s)}" for s in a.stale]
    bad = _groups(a.unexpected())
    if bad:
        out += ["", "### Failures", "", "| vector | operation | verdict | first difference |"]
        out.append("|---|---|---|---|")
        for group in bad:
            r = group[0]
            if r.verdict is Verdict.FAIL:
                path, e, got = first_difference(r.vector.operation, r.vector.expected, r.answer)
                want, have = _code(short(e, width)), _code(short(got, width))
                detail = f"`{_code(path, width)}`: expected `{want}`, got `{have}`"
            else:
                detail = _md(r.message, width)
            ids = f"{len(group)} vectors: {_ids(group)}" if len(group) > 1 else f"`{r.vector.id}`"
            out.append(f"| {ids} | `{r.vector.operation}` | {r.verdict.value} | {detail} |")
    ended = [line.strip().removeprefix("| ") for line in _exit_lines(a.report) if line]
    if ended:
        out += ["", "### How the implementation ended", ""]
        out += [f"- {_md(line)}" for line in ended]
    return "\n".join(out)


def to_json(a: Assessment | Report) -> dict[str, JSON]:
    """The machine-readable report (``--format json`` / ``--report FILE``): texts whole, as the
    implementation sent them, with its exit status and stderr tail when it exited early."""
    a = _assessed(a)
    results: list[JSON] = []
    for r in a.report.results:
        entry: dict[str, JSON] = {
            "id": r.vector.id,
            "semantic": r.vector.semantic,
            "operation": r.vector.operation,
            "verdict": r.verdict.value,
        }
        if r.vector.id in a.expected:
            entry["baseline"] = a.reasons.get(r.vector.id, "")
        if r.verdict is Verdict.FAIL:
            path, _, _ = first_difference(r.vector.operation, r.vector.expected, r.answer)
            entry["first_difference"] = path
            entry["expected"] = r.vector.expected
            entry["actual"] = r.answer
        elif r.verdict in (Verdict.ERROR, Verdict.SKIP):
            entry["message"] = r.message
        results.append(entry)
    summary: dict[str, JSON] = {s: dict(row) for s, row in a.counts().items()}
    out: dict[str, JSON] = {
        "implementation": a.report.implementation,
        "conformant": a.conformant,
        "summary": summary,
        "stale_baseline": list(a.stale),
        "results": results,
    }
    if a.report.exit_status is not None:
        out["exit_status"] = a.report.exit_status
    if a.report.stderr_tail:
        out["stderr_tail"] = a.report.stderr_tail
    return out


def failed_json(message: str, exit_status: int | None, stderr_tail: str) -> dict[str, JSON]:
    """The JSON report of a run that could not be made (exit status 2): why, and how the
    implementation ended when it ended before answering ``start`` (CONF-START-1)."""
    out: dict[str, JSON] = {"conformant": False, "error": message, "results": []}
    if exit_status is not None:
        out["exit_status"] = exit_status
    if stderr_tail:
        out["stderr_tail"] = stderr_tail
    return out


def render(a: Assessment | Report, fmt: str = "table", *, vectors_dir: str = "") -> str:
    """The report in ``fmt`` (``table``, ``json`` or ``markdown``)."""
    if fmt == "json":
        return serde_json.to_string(to_json(a))
    if fmt == "markdown":
        return render_markdown(a)
    return render_table(a, vectors_dir=vectors_dir)


def badges(a: Assessment) -> dict[str, dict[str, JSON]]:
    """A shields.io endpoint document per semantic (``https://shields.io/badges/endpoint-badge``):
    passed over applicable; green when that semantic has nothing against it."""
    out: dict[str, dict[str, JSON]] = {}
    for semantic, row in a.counts().items():
        applicable = sum(row.values()) - row["n/a"]
        bad = row["fail"] + row["error"] + row["skip"]
        if applicable == 0:
            message, color = "not applicable", "lightgrey"
        else:
            message = f"{row['pass']}/{applicable}"
            if row["expected"]:
                message += f" ({row['expected']} baselined)"
            color = "red" if bad else "yellowgreen" if row["expected"] else "brightgreen"
        out[semantic] = {
            "schemaVersion": 1,
            "label": f"touchstone · {semantic}",
            "message": message,
            "color": color,
        }
    return out


def write_badges(directory: Path, a: Assessment) -> list[Path]:
    """One ``<semantic>.json`` endpoint file per semantic in ``directory``; the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for semantic, doc in badges(a).items():
        path = directory / f"{semantic}.json"
        write_atomic(path, json.dumps(doc, ensure_ascii=False) + "\n")
        written.append(path)
    return written
