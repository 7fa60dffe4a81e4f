"""Small builders shared by the scope tests (scopes are written in Chio's JSON shape)."""

from __future__ import annotations

from mcp_touchstone.scope import ChioScope, decode_scope
from mcp_touchstone.serde_json import JSON


def grant(
    server: str = "files",
    tool: str = "read",
    constraints: list[JSON] | None = None,
    operations: list[JSON] | None = None,
) -> dict[str, JSON]:
    """A tool grant in Chio's JSON shape (default: files/read, invoke, unconstrained)."""
    out: dict[str, JSON] = {
        "server_id": server,
        "tool_name": tool,
        "operations": ["invoke"] if operations is None else operations,
    }
    if constraints:
        out["constraints"] = constraints
    return out


def con(kind: str, value: JSON) -> dict[str, JSON]:
    """An adjacently tagged constraint."""
    return {"type": kind, "value": value}


def scope(*grants: dict[str, JSON]) -> ChioScope:
    """Decode a scope holding ``grants``."""
    return decode_scope({"grants": list(grants)})
