"""JSON-RPC rendering of the visibility dispatcher's answers, as turbomcp 4 writes them: the
response envelopes, ``invalid params``, the unknown-tool result and the not-found errors."""

from __future__ import annotations

from mcp_touchstone._errors import (
    INVALID_PARAMS,
    RESOURCE_NOT_FOUND,
    RpcError,
)
from mcp_touchstone.serde_json import JSON
from mcp_touchstone.visibility._catalog import (
    Refused,
)
from mcp_touchstone.visibility._policy import (
    ComponentKind,
    ProtocolVersion,
)

# --------------------------------------------------------------------------- responses


def error_response(request_id: int | str, error: RpcError) -> dict[str, JSON]:
    """``{"jsonrpc": "2.0", "id": ..., "error": {...}}``."""
    return {"jsonrpc": "2.0", "id": request_id, "error": error.to_json(omit_absent_data=True)}


def success_response(request_id: int | str, result: JSON) -> dict[str, JSON]:
    """``{"jsonrpc": "2.0", "id": ..., "result": ...}``."""
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def invalid_params(message: str) -> RpcError:
    """turbomcp's ``McpError::InvalidParams`` rendered: ``-32602``, ``invalid params: ...``."""
    return RpcError(INVALID_PARAMS, f"invalid params: {message}")


def unknown_tool_result(name: str, version: ProtocolVersion) -> dict[str, JSON]:
    """The ``CallToolResult`` turbomcp answers for a tool it does not know (VIS-REFUSE-1)."""
    result: dict[str, JSON] = {
        "content": [{"type": "text", "text": f"unknown tool: {name}"}],
        "isError": True,
    }
    if version.is_draft:
        result["resultType"] = "complete"
    return result


def unknown_prompt_error(name: str) -> RpcError:
    """The error for a prompt turbomcp does not know (VIS-REFUSE-2)."""
    return invalid_params(f"unknown prompt: {name}")


def resource_not_found_error(uri: str, version: ProtocolVersion) -> RpcError:
    """The error for a URI turbomcp cannot read: ``-32002`` before 2026-07-28, ``-32602`` on it
    (VIS-REFUSE-3)."""
    return RpcError(
        INVALID_PARAMS if version.is_draft else RESOURCE_NOT_FOUND, f"resource not found: {uri}"
    )


def refusal(
    kind: ComponentKind, key: str, request_id: int | str, version: ProtocolVersion
) -> Refused:
    """The answer a nonexistent component of ``kind`` addressed as ``key`` gets."""
    if kind is ComponentKind.TOOL:
        return Refused(success_response(request_id, unknown_tool_result(key, version)))
    if kind is ComponentKind.PROMPT:
        return Refused(error_response(request_id, unknown_prompt_error(key)))
    return Refused(error_response(request_id, resource_not_found_error(key, version)))
