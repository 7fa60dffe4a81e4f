"""The ``scope.hosted_match`` harness operation (pinned, second wave; ``spec/scope.md``
SCOPE-HOSTED-WIRE-*).  Registered by :mod:`mcp_touchstone.harness._scope`."""

from __future__ import annotations

from mcp_touchstone.harness._operation import HarnessOperation
from mcp_touchstone.harness._scope_common import _invalid, _matches, _read_input
from mcp_touchstone.scope import (
    InvalidArgumentsError,
    InvalidConstraint,
    ScopeDecodeError,
    decode_model_metadata,
    resolve_hosted_matching_grants,
)
from mcp_touchstone.serde_json import JSON


def op_hosted_match(raw: JSON) -> dict[str, JSON]:
    """``scope.hosted_match``: the hosted profile's ranked matches (possibly none), an
    ``invalid_constraint`` error, or ``invalid_input`` (SCOPE-HOSTED-WIRE-1, -2)."""
    read = _read_input(raw)
    if isinstance(read, dict):
        return read
    assert isinstance(raw, dict)  # _read_input accepted it, so it is an object
    try:
        metadata = decode_model_metadata(raw.get("model_metadata"), "input.model_metadata")
    except ScopeDecodeError as exc:
        return _invalid(str(exc))
    try:
        result = resolve_hosted_matching_grants(*read, metadata)
    except InvalidArgumentsError as exc:
        return _invalid(str(exc))
    if isinstance(result, InvalidConstraint):
        return {"error": {"kind": "invalid_constraint", "message": result.message}}
    return _matches(result)


OPERATIONS: dict[str, HarnessOperation] = {"scope.hosted_match": op_hosted_match}
