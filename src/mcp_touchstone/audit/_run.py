"""The audit run: connections, discovery, the flow, the probes, the report, the exit status
(``spec/audit.md``, AUDIT-REPORT-*, AUDIT-BUDGET-*).
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp_touchstone.audit._client import (
    ERAS,
    MODERN,
    TIMEOUT,
    AuditError,
    Budget,
    BudgetSpent,
    Connection,
    Endpoint,
)
from mcp_touchstone.audit._exist import EXISTENCE, existence
from mcp_touchstone.audit._flow import Catalog, discover, find_flow
from mcp_touchstone.audit._probe import Context
from mcp_touchstone.audit._report import Finding, Outcome, Report, Severity, render
from mcp_touchstone.audit._rounds import PROBES

__all__ = ["ALL_PROBES", "AuditConfig", "audit", "main"]

ALL_PROBES = (*PROBES, *EXISTENCE)
DEFAULT_BUDGET = 300
DEADLINE = 600.0
"""Seconds a whole audit may take (``--deadline``), beyond any ``--ttl-wait``."""


@dataclass
class AuditConfig:
    """What to audit and how."""

    url: str | None = None
    command: Sequence[str] | None = None
    token: str | None = None
    other_token: str | None = None
    peer_url: str | None = None
    tool: str | None = None
    arguments: Mapping[str, Any] | None = None
    eras: Sequence[str] = ERAS
    max_requests: int = DEFAULT_BUDGET
    ttl_wait: float = 0.0
    probes: Sequence[str] = ALL_PROBES
    timeout: float = TIMEOUT
    """Seconds each answer may take, request to last byte (AUDIT-WIRE-4)."""
    deadline: float = DEADLINE
    """Seconds the whole audit may take, beyond ``ttl_wait`` (AUDIT-WIRE-4)."""
    transports: Mapping[str, Any] = field(default_factory=dict)
    """Test seam: an httpx2 transport per URL (e.g. an ``ASGITransport``)."""
    sleep: Callable[[float], Awaitable[None]] | None = None


async def audit(config: AuditConfig) -> Report:
    """Audit the server ``config`` names; :class:`AuditError` when it cannot be made."""
    import anyio

    if (config.url is None) == (config.command is None):
        raise AuditError("name the server with exactly one of --url and --command")
    budget = Budget(config.max_requests)
    secrets = [t for t in (config.token, config.other_token) if t]

    def endpoint(url: str | None, command: Sequence[str] | None = None) -> Endpoint:
        return Endpoint(url, command, config.transports.get(url or ""), config.timeout)

    main = endpoint(config.url, config.command)
    endpoints = [main]
    other_ep = None
    peer = None
    if config.other_token is not None and config.url is not None:
        other_ep = endpoint(config.url)
        endpoints.append(other_ep)
    if config.peer_url is not None:
        peer = endpoint(config.peer_url)
        endpoints.append(peer)
    report = Report(target=main.target, eras=list(config.eras), budget=config.max_requests)
    conns: dict[tuple[str, str], Connection] = {}
    for era in config.eras:
        conns[(era, "main")] = Connection(main, era, config.token, budget, secrets)
        if other_ep is not None:
            conns[(era, "other")] = Connection(other_ep, era, config.other_token, budget, secrets)
        if peer is not None:
            conns[(era, "peer")] = Connection(peer, era, config.token, budget, secrets)
    deadline = config.deadline + config.ttl_wait
    try:
        with anyio.fail_after(deadline):
            await _run(config, conns, report)
    except TimeoutError:
        raise AuditError(
            f"{main.target}: the audit did not finish within {deadline:g} s (--deadline)"
        ) from None
    finally:
        report.requests = budget.used
        for each in endpoints:
            await each.close()
    return report


async def _run(
    config: AuditConfig, conns: dict[tuple[str, str], Connection], report: Report
) -> None:
    """Discovery, the flow and every probe, into ``report``."""
    import anyio

    catalogs: dict[tuple[str, str], Catalog] = {}
    for (era, who), conn in conns.items():
        if who == "peer":
            continue
        try:
            catalogs[(era, who)] = await discover(conn)
        except AuditError as exc:
            if (
                who == "main"
                and era == config.eras[-1]
                and not any(w == "main" for (_e, w) in catalogs)
            ):
                raise AuditError(f"{report.target}: cannot list the server: {exc}") from None
            report.notes.append(f"{era} {who}: {exc}")
    if not any(w == "main" for (_e, w) in catalogs):
        raise AuditError(f"{report.target}: discovery failed in every era")
    for (era, who), cat in catalogs.items():
        counts = ", ".join(f"{len(v)} {k}(s)" for k, v in cat.items.items())
        report.notes.append(f"{era} {who}: listed {counts}")
    ctx = Context(conns=conns, catalogs=catalogs, eras=config.eras, ttl_wait=config.ttl_wait)
    ctx.sleep = config.sleep or anyio.sleep
    if MODERN not in config.eras:
        ctx.why_no_flow = "MRTR exists only on 2026-07-28 (audit it with --era 2026-07-28 or both)"
    if (
        MODERN in config.eras
        and (MODERN, "main") in catalogs
        and any(p in PROBES for p in config.probes)
    ):
        try:
            ctx.flow, ctx.other_mrtr = await find_flow(
                conns[(MODERN, "main")],
                catalogs[(MODERN, "main")],
                config.tool,
                config.arguments,
            )
        except BudgetSpent as exc:
            ctx.why_no_flow = f"{exc} before an MRTR flow completed"
            report.notes.append(ctx.why_no_flow)
        if ctx.flow is not None:
            report.notes.append(
                f"MRTR flow: {ctx.flow.tool} {json.dumps(ctx.flow.arguments)}, "
                f"{len(ctx.flow.rounds)} request(s), final {ctx.flow.final[1].kind}"
            )
    for pid in config.probes:
        try:
            if pid in PROBES:
                finding = await PROBES[pid](ctx)
            else:
                finding = await existence(pid, config.eras, conns, catalogs)
        except BudgetSpent as exc:
            finding = Finding(pid, pid, Outcome.NOT_OBSERVABLE, Severity.INFO, str(exc))
        report.findings.append(finding)


def _arguments(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise AuditError(f"--arguments is not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise AuditError("--arguments must be a JSON object")
    return value


def _config(args: Any) -> AuditConfig:
    if args.url is not None and not args.url.startswith(("http://", "https://")):
        raise AuditError(f"--url must be an http:// or https:// URL, not {args.url!r}")
    command = None
    if args.command is not None:
        try:
            command = shlex.split(args.command)
        except ValueError as exc:
            raise AuditError(f"--command {args.command!r}: {exc}") from None
        if not command:
            raise AuditError("--command names no command")
    eras = ERAS if args.era == "both" else (args.era,)
    probes = tuple(args.probe) if args.probe else ALL_PROBES
    unknown = [p for p in probes if p not in ALL_PROBES]
    if unknown:
        raise AuditError(f"unknown probe {unknown[0]!r} (known: {', '.join(ALL_PROBES)})")
    if args.max_requests < 1:
        raise AuditError("--max-requests must be at least 1")
    if not 0 <= args.ttl_wait <= 900:
        raise AuditError("--ttl-wait must be between 0 and 900 seconds")
    if not 0 < args.timeout <= 900:
        raise AuditError("--timeout must be more than 0 and at most 900 seconds")
    if not 0 < args.deadline <= 86_400:
        raise AuditError("--deadline must be more than 0 and at most 86400 seconds")
    return AuditConfig(
        url=args.url,
        command=command,
        token=args.token,
        other_token=args.other_token,
        peer_url=args.peer_url,
        tool=args.tool,
        arguments=_arguments(args.arguments),
        eras=eras,
        max_requests=args.max_requests,
        ttl_wait=args.ttl_wait,
        probes=probes,
        timeout=args.timeout,
        deadline=args.deadline,
    )


def main(args: Any) -> int:
    """``touchstone audit``: 0 nothing at or above ``--fail-on``, 1 a finding that is, 2 the
    audit could not be made (AUDIT-REPORT-2)."""
    try:
        import anyio
    except ImportError:
        print(
            "touchstone: audit needs the [mcp] extra (pip install 'mcp-touchstone[mcp]')",
            file=sys.stderr,
        )
        return 2
    try:
        threshold = Severity.parse(args.fail_on)
        config = _config(args)
        report = anyio.run(audit, config)
    except (AuditError, ValueError) as exc:
        print(f"touchstone: audit: {exc}", file=sys.stderr)
        return 2
    except ImportError as exc:
        print(f"touchstone: audit needs the [mcp] extra: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        print(f"touchstone: audit could not be made: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    if args.format == "html":  # One self-contained page (mcp_touchstone.conformance._html_report).
        from mcp_touchstone.conformance._html_report import render_audit

        text = render_audit(report)
    else:
        text = render(report, args.format)
    if args.report:
        from mcp_touchstone.conformance._files import write_atomic

        try:
            write_atomic(Path(args.report), render(report, "json") + "\n")
        except OSError as exc:
            print(f"touchstone: cannot write report {args.report}: {exc.strerror}", file=sys.stderr)
            return 2
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    if not report.observed():
        # Nothing observable is no pass: the audit could not be made (AUDIT-REPORT-2).
        print(
            "touchstone: audit: nothing observable: every probe was n/a (see the report)",
            file=sys.stderr,
        )
        return 2
    return 1 if report.fails(threshold) else 0
