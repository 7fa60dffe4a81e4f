"""``touchstone audit``: a black-box security audit of a live MCP server (``spec/audit.md``).

Tooling, not a semantic: the wire client needs httpx2 and anyio from the ``[mcp]`` extra,
imported only when an audit runs.
"""

from mcp_touchstone.audit._report import Exchange, Finding, Outcome, Report, Severity, render
from mcp_touchstone.audit._run import ALL_PROBES, AuditConfig, audit

__all__ = [
    "ALL_PROBES",
    "AuditConfig",
    "Exchange",
    "Finding",
    "Outcome",
    "Report",
    "Severity",
    "audit",
    "render",
]
