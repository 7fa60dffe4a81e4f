"""The HTML reports (``touchstone run --format html``, ``touchstone audit --format html``).

Each is one self-contained file a CI can publish as it is: the styles inline, no script, no
external resource, and a Content-Security-Policy that forbids both, so a page opened from an
artifact store runs nothing.  Every text an implementation or a server supplied (its name, its
answers, its messages, its stderr, the audit's evidence) goes through :func:`html.escape`.

The run report shows the verdict, a matrix of semantic x operation with the count of each
column of the table report (pass, fail, expected, error, skip, n/a), then every result that
counts against the implementation as a ``<details>`` element, closed, whose summary names the
vector and whose body is its why, the first differing JSON path and a line diff of the expected
and the actual output; baselined failures and stale entries follow.  The audit report shows
each probe's outcome, severity and verdict, and its evidence (the exact requests and answers,
tokens already redacted) the same way.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcp_touchstone.audit._report import Report as AuditReport
    from mcp_touchstone.conformance._report import Assessment
    from mcp_touchstone.conformance._runner import Result
    from mcp_touchstone.serde_json import JSON

__all__ = ["render_audit", "render_run"]

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

_STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 72em; color: #1b1f24;
       padding: 0 1em; }
h1 { font-size: 1.5em; margin-bottom: .2em; }
h2 { font-size: 1.2em; margin-top: 1.8em; border-bottom: 1px solid #d0d7de; }
.verdict { display: inline-block; padding: .25em .8em; border-radius: 4px; font-weight: 600;
           color: #fff; }
.ok { background: #1a7f37; } .bad { background: #cf222e; } .low { background: #9a6700; }
table { border-collapse: collapse; margin: .6em 0; }
th, td { border: 1px solid #d0d7de; padding: .25em .6em; text-align: right; }
th { background: #f6f8fa; } td.name, th.name { text-align: left; } td.id { white-space: nowrap; }
td.semantic { font-weight: 600; background: #f6f8fa; text-align: left; }
td.fail, td.error, td.skip, td.finding { background: #ffebe9; color: #a40e26; font-weight: 600; }
td.pass { color: #1a7f37; } td.expected { background: #fff8c5; } td.zero { color: #8c959f; }
tr.total td { font-weight: 600; border-top: 2px solid #1b1f24; }
details { border: 1px solid #d0d7de; border-radius: 4px; margin: .4em 0; padding: .3em .7em; }
details[open] { background: #fbfcfd; }
summary { cursor: pointer; font-weight: 600; }
summary .tag { font-family: ui-monospace, monospace; padding: 0 .35em; border-radius: 3px;
               color: #fff; background: #cf222e; margin-right: .4em; }
summary .tag.expected { background: #9a6700; } summary .tag.pass { background: #1a7f37; }
summary .tag.na { background: #6e7781; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2em 1em; }
dt { font-weight: 600; } dd { margin: 0; }
pre { background: #f6f8fa; padding: .5em; overflow-x: auto; white-space: pre-wrap;
      word-break: break-all; font: 13px/1.35 ui-monospace, monospace; margin: .3em 0; }
pre.diff span { display: block; min-height: 1.35em; }
.del { background: #ffebe9; } .add { background: #dafbe1; } .hunk { color: #6e7781; }
code { font: 13px ui-monospace, monospace; }
"""


def _page(title: str, body: Iterable[str]) -> str:
    head = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
    )
    return head + "\n".join(body) + "\n</body>\n</html>\n"


def _pretty(value: JSON) -> str:
    """``value`` as indented JSON, keys in their order (``<absent>`` and the like as given)."""
    try:
        return json.dumps(value, indent=2, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _diff(expected: JSON, actual: JSON) -> str:
    """A unified line diff of the two outputs, pretty-printed, as escaped HTML lines."""
    lines = difflib.unified_diff(
        _pretty(expected).splitlines(),
        _pretty(actual).splitlines(),
        "expected",
        "actual",
        n=3,
        lineterm="",
    )
    out = []
    for line in lines:
        kind = (
            "hunk"
            if line.startswith(("@@", "---", "+++"))
            else "del"
            if line.startswith("-")
            else "add"
            if line.startswith("+")
            else "same"
        )
        out.append(f'<span class="{kind}">{escape(line)}</span>')
    return '<pre class="diff">' + "".join(out) + "</pre>"  # Each line a block of its own.


def _impl_name(implementation: dict[str, JSON]) -> str:
    return " ".join(str(implementation.get(k, "?")) for k in ("name", "version", "language"))


def _count_cell(column: str, n: int) -> str:
    cls = "zero" if n == 0 else column.replace("/", "")
    return f'<td class="{cls}">{n}</td>'


def _matrix(a: Assessment) -> list[str]:
    """Semantic x operation: a row per operation under its semantic, a subtotal per semantic
    and a total, one column per verdict column of the table report."""
    from mcp_touchstone.conformance._report import COLUMNS

    rows: dict[str, dict[str, dict[str, int]]] = {}
    for r in a.report.results:
        ops = rows.setdefault(r.vector.semantic, {})
        row = ops.setdefault(r.vector.operation, dict.fromkeys(COLUMNS, 0))
        row[a.column(r)] += 1
    head = "".join(f"<th>{escape(c)}</th>" for c in COLUMNS)
    out = [
        '<table class="matrix">',
        f'<tr><th class="name">semantic / operation</th><th>vectors</th>{head}</tr>',
    ]
    total = dict.fromkeys(COLUMNS, 0)
    for semantic in sorted(rows):
        ops = rows[semantic]
        sub = {c: sum(row[c] for row in ops.values()) for c in COLUMNS}
        cells = "".join(_count_cell(c, sub[c]) for c in COLUMNS)
        out.append(
            f'<tr class="semantic"><td class="semantic">{escape(semantic)}</td>'
            f"<td>{sum(sub.values())}</td>{cells}</tr>"
        )
        for op in sorted(ops):
            row = ops[op]
            cells = "".join(_count_cell(c, row[c]) for c in COLUMNS)
            out.append(
                f'<tr class="operation"><td class="name"><code>{escape(op)}</code></td>'
                f"<td>{sum(row.values())}</td>{cells}</tr>"
            )
        for c in COLUMNS:
            total[c] += sub[c]
    cells = "".join(f"<td>{total[c]}</td>" for c in COLUMNS)
    first = f'<tr class="total"><td class="name">total</td><td>{sum(total.values())}</td>'
    out.append(f"{first}{cells}</tr>")
    out.append("</table>")
    return out


def _result_details(group: list[Result], tag: str, tag_class: str, reason: str = "") -> str:
    """One ``<details>`` per result (errors sharing a message: one for the group)."""
    from mcp_touchstone.conformance import Verdict
    from mcp_touchstone.conformance._report import first_difference

    r = group[0]
    v = r.vector
    if len(group) > 1:
        ids = ", ".join(g.vector.id for g in group)
        return (
            f'<details class="result"><summary><span class="tag {tag_class}">{tag}</span>'
            f"{len(group)} vectors: {escape(ids[:300])}</summary><dl>"
            f"<dt>message</dt><dd><pre>{escape(r.message)}</pre></dd>"
            f"<dt>vectors</dt><dd><code>{escape(ids)}</code></dd></dl></details>"
        )
    items = [
        f"<dt>operation</dt><dd><code>{escape(v.operation)}</code></dd>",
        f"<dt>why</dt><dd>{escape(v.comment)}</dd>",
        f"<dt>rules</dt><dd><code>{escape(', '.join(v.rules))}</code></dd>",
        f"<dt>file</dt><dd><code>{escape(v.file)}</code></dd>",
    ]
    if reason:
        items.append(f"<dt>baseline</dt><dd>{escape(reason)}</dd>")
    body = ""
    if r.verdict is Verdict.FAIL:
        path, e, got = first_difference(v.operation, v.expected, r.answer)
        items.append(f"<dt>first difference</dt><dd><code>{escape(path)}</code></dd>")
        items.append(f"<dt>expected there</dt><dd><pre>{escape(_pretty(e))}</pre></dd>")
        items.append(f"<dt>got there</dt><dd><pre>{escape(_pretty(got))}</pre></dd>")
        body = "<p>expected → actual, whole output:</p>" + _diff(v.expected, r.answer)
        label = f"differs at {escape(path)}"
    else:
        items.append(f"<dt>message</dt><dd><pre>{escape(r.message)}</pre></dd>")
        label = escape(r.verdict.value)
    return (
        f'<details class="result" id="{escape(v.id)}"><summary>'
        f'<span class="tag {tag_class}">{tag}</span><code>{escape(v.id)}</code> — {label}'
        f"</summary><dl>{''.join(items)}</dl>{body}</details>"
    )


def render_run(a: Assessment, *, vectors_dir: str = "") -> str:
    """The run report as one HTML page (``touchstone run --format html``)."""
    from mcp_touchstone.conformance import Verdict
    from mcp_touchstone.conformance._process import describe_exit
    from mcp_touchstone.conformance._report import _groups

    report = a.report
    name = _impl_name(report.implementation)
    verdict = "conformant" if a.conformant else "not conformant"
    body = [
        f"<h1>mcp-touchstone conformance: {escape(name)}</h1>",
        f'<p><span class="verdict {"ok" if a.conformant else "bad"}" id="verdict">'
        f"{verdict}</span></p>",
    ]
    if vectors_dir:
        body.append(f"<p>vectors: <code>{escape(vectors_dir)}</code></p>")
    body.append("<h2>Semantic &times; operation</h2>")
    body += _matrix(a)
    na = sorted({r.vector.operation for r in report.results if r.verdict is Verdict.NOT_APPLICABLE})
    if na:
        ops = ", ".join(f"<code>{escape(op)}</code>" for op in na)
        body.append(f"<p>not applicable (not announced in <code>start</code>): {ops}</p>")
    if a.stale:
        body.append('<h2 id="stale">Stale baseline entries</h2><ul>')
        body += [f"<li>{escape(s)}</li>" for s in a.stale]
        body.append("</ul>")
    bad = _groups(a.unexpected())
    body.append(f'<h2 id="failures">Failures ({sum(len(g) for g in bad)})</h2>')
    if not bad:
        body.append("<p>None: every applicable vector passed or is a listed expected failure.</p>")
    for group in bad:
        tag = group[0].verdict.value.upper()
        body.append(_result_details(group, tag, "fail"))
    expected = [r for r in report.results if a.column(r) == "expected"]
    if expected:
        body.append(
            f'<h2 id="expected">Expected failures, from the baseline ({len(expected)})</h2>'
        )
        for r in expected:
            reason = a.reasons.get(r.vector.id, "")
            body.append(_result_details([r], "EXPECTED", "expected", reason))
    if report.exit_status is not None or (
        report.stderr_tail and any(r.verdict is Verdict.ERROR for r in report.results)
    ):
        body.append('<h2 id="ended">How the implementation ended</h2>')
        if report.exit_status is not None:
            body.append(f"<p>it exited early: {escape(describe_exit(report.exit_status))}</p>")
        if report.stderr_tail:
            body.append(f"<p>the end of its stderr:</p><pre>{escape(report.stderr_tail)}</pre>")
    return _page(f"mcp-touchstone: {name}: {verdict}", body)


def render_audit(report: AuditReport) -> str:
    """The audit report as one HTML page (``touchstone audit --format html``)."""
    from mcp_touchstone.audit._report import Outcome, Severity

    findings = [f for f in report.findings if f.counts]
    verdict = f"{len(findings)} finding(s)"
    worst = report.worst()
    mark = "ok" if worst is None else "bad" if worst >= Severity.MEDIUM else "low"
    body = [
        f"<h1>touchstone audit: {escape(report.target)}</h1>",
        f'<p><span class="verdict {mark}" id="verdict">'
        f"{escape(verdict)}</span> {report.requests} of at most {report.budget} requests, "
        f"eras {escape(', '.join(report.eras))}</p>",
        "<h2>Probes</h2>",
        '<table class="probes"><tr><th class="name">probe</th><th class="name">outcome</th>'
        '<th class="name">severity</th><th class="name">verdict</th></tr>',
    ]
    for f in report.findings:
        cls = {Outcome.FINDING: "finding", Outcome.PASS: "pass"}.get(f.outcome, "zero")
        severity = f.severity.label if f.counts else "-"
        body.append(
            f'<tr><td class="name id"><a href="#{escape(f.id)}">{escape(f.id)}</a></td>'
            f'<td class="name {cls}">{escape(f.outcome.value)}</td>'
            f'<td class="name">{escape(severity)}</td>'
            f'<td class="name">{escape(f.verdict)}</td></tr>'
        )
    body.append("</table>")
    for note in report.notes:
        body.append(f"<p>note: {escape(note)}</p>")
    body.append("<h2>Evidence</h2>")
    for f in report.findings:
        tag_class = {Outcome.FINDING: "", Outcome.PASS: "pass"}.get(f.outcome, "na")
        exchanges = []
        for e in f.evidence:
            headers = "\n".join(f"{k}: {v}" for k, v in e.request_headers.items())
            exchanges.append(
                f"<h3>{escape(e.label)}</h3><p><code>{escape(e.target)}</code></p>"
                f"<p>request</p><pre>{escape(headers)}\n\n{escape(e.request_body)}</pre>"
                f"<p>answer: HTTP {escape(str(e.status))}</p>"
                f"<pre>{escape(e.response_body)}</pre>"
            )
        evidence = "".join(exchanges) or "<p>no exchange recorded</p>"
        body.append(
            f'<details class="probe" id="{escape(f.id)}"><summary>'
            f'<span class="tag {tag_class}">{escape(f.outcome.value.upper())}</span>'
            f"<code>{escape(f.id)}</code> — {escape(f.title)}</summary>"
            f"<p>{escape(f.verdict)}</p>{evidence}</details>"
        )
    return _page(f"touchstone audit: {report.target}: {verdict}", body)
