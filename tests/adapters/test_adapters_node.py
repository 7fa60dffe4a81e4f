"""The TypeScript SDK's McpServer row of the leak matrix: its disabled components answer
differently from missing ones (measured over HTTP on loopback, not claimed)."""

from __future__ import annotations

import anyio
import pytest

from tests.adapters import _node, leak_matrix


def _need_node() -> None:
    try:
        _node.require_node()
    except RuntimeError as exc:
        pytest.fail(str(exc))


def test_disabled_tool_answers_unlike_a_missing_one() -> None:
    """A ``tool.disable()``d tool, called over 2025-11-25 HTTP, answers with another body than
    a tool that was never registered; 2026-07-28 is not spoken by SDK 1.32.2."""
    _need_node()
    with _node.node_server("disabled") as disabled, _node.node_server("absent") as absent:
        cell = anyio.run(leak_matrix.node_check, "tool", "legacy", (disabled, absent))
        modern = anyio.run(leak_matrix.node_check, "tool", "modern", (disabled, absent))
    assert cell is not None
    assert not cell.holds
    assert cell.why == "body differs"
    assert modern is None


def test_missing_node_deps_names_the_make_target(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    """Without the installed SDK the helper fails with a message naming ``make node-deps``."""
    from pathlib import Path

    monkeypatch.setattr(_node, "STAMP", Path(str(tmp_path)) / "missing" / ".stamp")
    with pytest.raises(RuntimeError, match="make node-deps"):
        _node.require_node()
