"""Shared helpers of the audit tests: run an audit against in-process servers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import anyio

from mcp_touchstone.audit import AuditConfig, Finding, Report, audit
from tests.audit._strong import URL, serving


def run(
    servers: Mapping[str, Any] | Any,
    probes: Sequence[str] | None = None,
    **config: Any,
) -> Report:
    """Audit the server at ``URL`` (or each server of a URL mapping) as root, with alice as the
    other token, over in-process ASGI transports."""
    apps = servers if isinstance(servers, Mapping) else {URL: servers}

    async def go() -> Report:
        async with serving(apps) as transports:
            settings: dict[str, Any] = {
                "url": URL,
                "token": "root",
                "other_token": "alice",
                "transports": transports,
                **config,
            }
            if probes is not None:
                settings["probes"] = tuple(probes)
            return await audit(AuditConfig(**settings))

    return anyio.run(go)


def by_id(report: Report) -> dict[str, Finding]:
    """The report's findings by probe id."""
    return {f.id: f for f in report.findings}


def flagged(report: Report) -> dict[str, str]:
    """Probe id -> severity of every finding that counts."""
    return {f.id: f.severity.label for f in report.findings if f.counts}
