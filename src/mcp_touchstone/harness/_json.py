"""Harness operation ``json.to_string``: the JSON layer as a conformance operation.

Added to harness v1 (additions are allowed, changes are not): it lets another implementation
check its serde_json re-serialization, on which ``MaxArgsSize`` and the MRTR bindings rest.
"""

from __future__ import annotations

from mcp_touchstone import serde_json
from mcp_touchstone.harness._input import invalid_input
from mcp_touchstone.harness._operation import HarnessOperation
from mcp_touchstone.serde_json import JSON


def _invalid(message: str) -> dict[str, JSON]:
    return {"error": {"kind": "invalid_json", "message": message}}


def json_to_string(raw: JSON) -> dict[str, JSON]:
    """``{"text": str}`` -> ``{"string": <compact serde_json text>, "bytes": <its UTF-8 length>}``,
    or ``{"error": {"kind": "invalid_json", "message": ...}}`` (HARNESS-JSON-1)."""
    text = raw.get("text") if isinstance(raw, dict) else None
    if not isinstance(text, str):
        return invalid_input('input must be {"text": string}')
    try:
        value = serde_json.from_str(text)
    except serde_json.JsonError as exc:
        return _invalid(str(exc))
    out = serde_json.to_string(value)
    return {"string": out, "bytes": len(out.encode("utf-8"))}


OPERATIONS: dict[str, HarnessOperation] = {"json.to_string": json_to_string}
