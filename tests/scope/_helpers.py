"""Small builders shared by the scope tests (scopes are written in Chio's JSON shape)."""

from __future__ import annotations

from conformance.vectorgen._common import grant as chio_grant

from mcp_touchstone.scope import ChioScope, decode_scope
from mcp_touchstone.serde_json import JSON


def grant(
    server: str = "files",
    tool: str = "read",
    constraints: list[JSON] | None = None,
    operations: list[JSON] | None = None,
) -> dict[str, JSON]:
    """A tool grant in Chio's JSON shape (default: files/read, invoke, unconstrained)."""
    return chio_grant(server, tool, constraints, operations)


def con(kind: str, value: JSON) -> dict[str, JSON]:
    """An adjacently tagged constraint."""
    return {"type": kind, "value": value}


def scope(*grants: dict[str, JSON]) -> ChioScope:
    """Decode a scope holding ``grants``."""
    return decode_scope({"grants": list(grants)})
