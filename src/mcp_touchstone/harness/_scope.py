"""Harness operations of the ``scope`` semantic (see ``spec/harness.md``, ``spec/scope.md``).

Each operation takes the raw ``case.input`` JSON value and returns the output object.
It is total: malformed input is answered with the operation's error shape, never raised.
"""

from __future__ import annotations

from collections.abc import Callable

from mcp_touchstone.harness._operation import HarnessOperation
from mcp_touchstone.scope._decode import ScopeDecodeError, decode_scope
from mcp_touchstone.scope._matcher import (
    ConstraintError,
    InvalidArgumentsError,
    MatchedGrant,
    OutOfScope,
    resolve_capability_grants,
    resolve_matching_grants,
)
from mcp_touchstone.scope._types import ChioScope
from mcp_touchstone.serde_json import JSON

Resolver = Callable[
    [ChioScope, str, str, JSON], tuple[MatchedGrant, ...] | ConstraintError | OutOfScope
]


def _invalid(message: str) -> dict[str, JSON]:
    return {"error": {"kind": "invalid_input", "message": message}}


def _read_input(raw: JSON) -> tuple[ChioScope, str, str, JSON] | dict[str, JSON]:
    """The four inputs, or the ``invalid_input`` answer naming what is wrong (SCOPE-WIRE-2)."""
    if not isinstance(raw, dict):
        return _invalid("input: expected an object with scope, tool_name, server_id, arguments")
    for key in ("scope", "tool_name", "server_id", "arguments"):
        if key not in raw:
            return _invalid(f"input: missing field `{key}`")
    tool_name, server_id = raw["tool_name"], raw["server_id"]
    if not isinstance(tool_name, str):
        return _invalid("input.tool_name: expected a string")
    if not isinstance(server_id, str):
        return _invalid("input.server_id: expected a string")
    try:
        scope = decode_scope(raw["scope"], "scope")
    except ScopeDecodeError as exc:
        return _invalid(str(exc))
    return scope, tool_name, server_id, raw["arguments"]


def _matches(found: tuple[MatchedGrant, ...]) -> dict[str, JSON]:
    return {"matches": [{"index": m.index, "specificity": list(m.specificity)} for m in found]}


def _answer(raw: JSON, resolve: Resolver) -> dict[str, JSON]:
    """Read the input, run ``resolve`` and shape its outcome (SCOPE-WIRE-1, SCOPE-WIRE-2)."""
    read = _read_input(raw)
    if isinstance(read, dict):
        return read
    try:
        result = resolve(*read)
    except InvalidArgumentsError as exc:
        return _invalid(str(exc))
    if isinstance(result, ConstraintError):
        return {"error": {"kind": "constraint_error", "message": result.message}}
    if isinstance(result, OutOfScope):
        return {"error": {"kind": "out_of_scope"}}
    return _matches(result)


def op_resolve_matching_grants(raw: JSON) -> dict[str, JSON]:
    """``scope.resolve_matching_grants``: ranked matches or a constraint error (SCOPE-WIRE-1)."""
    return _answer(raw, resolve_matching_grants)


def op_resolve_capability_grants(raw: JSON) -> dict[str, JSON]:
    """``scope.resolve_capability_grants``: as above, plus ``out_of_scope`` (SCOPE-WIRE-1)."""
    return _answer(raw, resolve_capability_grants)


OPERATIONS: dict[str, HarnessOperation] = {
    "scope.resolve_matching_grants": op_resolve_matching_grants,
    "scope.resolve_capability_grants": op_resolve_capability_grants,
}


# -- Second wave (chio-hosted): scope.hosted_match --------------------------------------------
# The adapter lives in _scope_hosted.py (it reuses _read_input and _matches above); this section
# only registers it, so parallel edits to this file stay append-only.
from mcp_touchstone.harness._scope_hosted import (  # noqa: E402 (registered after the helpers it reuses are defined)
    OPERATIONS as _HOSTED_OPERATIONS,
)

OPERATIONS.update(_HOSTED_OPERATIONS)
