"""``touchstone audit`` against the TypeScript SDK's McpServer (npm, ``make node-deps``) on a
loopback port: its per-caller ``disable()``d components are told apart from nonexistent ones;
SDK 1.32.2 has no MRTR (2025-11-25 is its newest era), so the state probes are not observable."""

from __future__ import annotations

import anyio
import pytest

from mcp_touchstone.audit import AuditConfig, Outcome, audit
from tests.adapters import _node


def test_audit_of_the_typescript_sdk_server() -> None:
    """AUDIT-EXIST-1/2/3 find the disabled tool, prompt and resource; AUDIT-INT-1 is n/a."""
    try:
        _node.require_node()
    except RuntimeError as exc:
        pytest.fail(str(exc))
    with _node.node_server("disabled") as url:
        config = AuditConfig(url=url, token="root", other_token="alice")
        report = anyio.run(audit, config)
    found = {f.id: f for f in report.findings}
    for pid in ("AUDIT-EXIST-1", "AUDIT-EXIST-2", "AUDIT-EXIST-3"):
        assert found[pid].counts, (pid, found[pid].verdict)
        assert "2025-11-25" in found[pid].verdict
    assert found["AUDIT-INT-1"].outcome is Outcome.NOT_OBSERVABLE
    assert report.requests <= report.budget
