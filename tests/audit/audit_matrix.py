"""The audit matrix: every probe of ``touchstone audit`` against every test server.

Rows are the strong servers on the real SDKs (``_strong``), the TypeScript SDK's McpServer
(npm, ``tests/node/server.mjs``) and the deliberately weak servers (``_weak``); each is audited
as ``root`` with ``alice`` as the other token, both eras, with a peer of the same kind sharing
its key under another name (``--peer-url``).  Cells are the audit's own outcome.

``python -m tests.audit.audit_matrix`` prints the Markdown; ``make audit-matrix`` writes
``docs/audit-matrix.md`` and a (slow) test regenerates it and fails on a difference.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import anyio

from mcp_touchstone.audit import ALL_PROBES, AuditConfig, Outcome, Report, audit
from tests.audit._strong import (
    PEER,
    URL,
    build_fastmcp,
    build_fastmcp_middleware,
    build_mcp,
    serving,
)
from tests.audit._weak import WeakServer


@dataclass(frozen=True)
class Row:
    """A server of the matrix: how to build it and its peer, and what it is."""

    label: str
    kind: str
    build: Callable[[str], Any] | None
    """Build the server given its name; ``None`` for the TypeScript SDK (a live process)."""
    aimed: tuple[str, ...] = ()
    """For a weak server: the probes aimed at its weakness (each must find it)."""


ROWS = (
    Row("MCPServer (mcp 2.3, AES-GCM boundary)", "strong", lambda n: build_mcp(name=n)),
    Row("FastMCP 4.2 (same boundary, component auth)", "strong", lambda n: build_fastmcp(name=n)),
    Row(
        "MCPServer + protect() + ReplayGuard",
        "strong",
        lambda n: build_mcp(name=n, mode="protected"),
    ),
    Row(
        "FastMCP 4.2 + TouchstoneMiddleware (hidden app tool)",
        "strong",
        lambda n: build_fastmcp_middleware(name=n),
    ),
    Row(
        "old: middleware judging names only (alias bug)",
        "old",
        lambda n: build_fastmcp_middleware(name=n, mode="names-only"),
        ("AUDIT-EXIST-6",),
    ),
    Row("TypeScript SDK McpServer 1.32.2 (disable())", "sdk", None),
    Row(
        "weak: state is base64 JSON",
        "weak",
        lambda n: WeakServer("b64json", name=n),
        ("AUDIT-CONF-1", "AUDIT-INT-1"),
    ),
    Row(
        "weak: signed, not bound",
        "weak",
        lambda n: WeakServer("unbound", name=n),
        ("AUDIT-BIND-1", "AUDIT-BIND-2", "AUDIT-BIND-3", "AUDIT-PRIN-1", "AUDIT-AUD-1"),
    ),
    Row(
        "weak: bound, never expires",
        "weak",
        lambda n: WeakServer("noexpiry", name=n),
        ("AUDIT-TTL-2",),
    ),
    Row(
        "weak: '-TAMPERED' suffix check",
        "weak",
        lambda n: WeakServer("suffix", name=n),
        ("AUDIT-INT-1", "AUDIT-INT-2"),
    ),
    Row(
        "weak: settled answers re-answerable",
        "weak",
        lambda n: WeakServer("resettle", name=n),
        ("AUDIT-ANS-2",),
    ),
    Row(
        "weak: hidden tool answered 'Forbidden'",
        "weak",
        lambda n: WeakServer("forbidden", name=n),
        ("AUDIT-EXIST-1",),
    ),
)


@contextlib.contextmanager
def _node() -> Iterator[tuple[str, str]]:
    from tests.adapters._node import node_server

    with node_server("disabled") as url, node_server("disabled") as peer:
        yield url, peer


async def audit_row(row: Row) -> Report:
    """The full audit of ``row`` (and its peer)."""
    if row.build is None:
        with _node() as (url, peer):
            config = AuditConfig(url=url, token="root", other_token="alice", peer_url=peer)
            return await audit(config)
    apps = {URL: row.build("alpha"), PEER: row.build("beta")}
    async with serving(apps) as transports:
        config = AuditConfig(
            url=URL, token="root", other_token="alice", peer_url=PEER, transports=transports
        )
        return await audit(config)


def _cell(report: Report, pid: str) -> str:
    finding = next(f for f in report.findings if f.id == pid)
    if finding.outcome is Outcome.PASS:
        return "✅"
    if finding.outcome is Outcome.NOT_OBSERVABLE:
        return "n/a"
    return "info" if finding.severity.label == "info" else f"❌ {finding.severity.label}"


async def matrix() -> str:
    """The Markdown matrix, every cell an audit run now."""
    short = [p.removeprefix("AUDIT-") for p in ALL_PROBES]
    lines = [
        "| server | " + " | ".join(short) + " | requests |",
        "|---|" + "---|" * (len(short) + 1),
    ]
    for row in ROWS:
        report = await audit_row(row)
        cells = [_cell(report, pid) for pid in ALL_PROBES]
        lines.append(f"| {row.label} | " + " | ".join(cells) + f" | {report.requests} |")
    aimed = [f"- {row.label}: {', '.join(row.aimed)}" for row in ROWS if row.aimed]
    return "\n".join(
        [
            "# Audit matrix: `touchstone audit` vs test servers",
            "",
            "Generated by `make audit-matrix` (`python -m tests.audit.audit_matrix`); a test",
            "regenerates it and fails on any difference, so every cell is an audit result.",
            "Probe IDs are the rules of `spec/audit.md` (prefix `AUDIT-` dropped).",
            "",
            "Each server is audited as `root` with `alice` as `--other-token`, both eras, with a",
            "peer of the same kind sharing its key under another server name as `--peer-url`.",
            "✅ pass, ❌ finding (its severity), info: an informational finding, n/a: not",
            "observable (no MRTR tool, no hidden component, or opt-in: `TTL-1` needs",
            "`--ttl-wait`, pinned by `tests/audit/test_audit_strong.py` and `test_audit_weak.py`).",
            "",
            *lines,
            "",
            "The strong servers' findings are true: the SDK alone runs a repeated final round",
            "again (`REPLAY-1`; `ReplayGuard` closes it), FastMCP's `Mcp-Param-*` header check",
            "answers HTTP 400 for a tool its component auth hides (`EXIST-5`), and the",
            "TypeScript SDK answers a disabled component unlike a missing one (`EXIST-1..3`).",
            "The plain MCPServer hides nothing (both tokens are listed every component), so its",
            "existence probes are not observable; `protect()` is what hides, and it passes.",
            "`TouchstoneMiddleware` added to FastMCP without `install` hides by its policy,",
            "a hidden app tool included, and answers that tool's hashed alias (`EXIST-6`) like",
            "an alias of no tool; the header check still runs before it (`EXIST-5`; `install`",
            "closes it). The `old` row is the middleware as it was before ADAPT-GRANT-4: the",
            "call judged by the name it was sent under, so the alias ran the hidden tool.",
            "",
            "Probes aimed at each weak or old server's weakness (each finds it):",
            "",
            *aimed,
            "",
        ]
    )


def main() -> int:
    """Print the matrix (the SDKs' request logging silenced)."""
    import logging

    logging.disable(logging.INFO)
    sys.stdout.write(anyio.run(matrix))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
