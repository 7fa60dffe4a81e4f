"""docs/audit-matrix.md is what the audits say now (AUDIT-MATRIX-1, AUDIT-EXIST-4)."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from mcp_touchstone.audit import Outcome
from tests.audit import audit_matrix


@pytest.mark.slow
def test_committed_audit_matrix_is_current() -> None:
    """`make audit-matrix` output equals the committed file (every cell an audit run now)."""
    committed = (Path(__file__).resolve().parents[2] / "docs" / "audit-matrix.md").read_text()
    assert anyio.run(audit_matrix.matrix) == committed


@pytest.mark.parametrize("row", [r for r in audit_matrix.ROWS if r.aimed], ids=lambda r: r.label)
def test_each_weak_server_is_caught_by_its_probes(row: audit_matrix.Row) -> None:
    """Every probe aimed at a weak (or old-behaviour) server's weakness is a finding of at
    least medium severity (the full audit, both eras, with a peer)."""
    report = anyio.run(audit_matrix.audit_row, row)
    found = {f.id: f for f in report.findings}
    for pid in row.aimed:
        assert found[pid].outcome is Outcome.FINDING, (pid, found[pid].verdict)
        assert found[pid].severity.label in ("medium", "high"), pid
    if row.kind == "weak":  # the weak servers list no template
        assert found["AUDIT-EXIST-4"].outcome is Outcome.NOT_OBSERVABLE
