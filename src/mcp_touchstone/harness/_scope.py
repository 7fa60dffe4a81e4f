"""Harness operations of the ``scope`` semantic (see ``spec/harness.md``, ``spec/scope.md``).

Each operation takes the raw ``case.input`` JSON value and returns the output object.
It is total: malformed input is answered with the operation's error shape, never raised.
The input is read by ``_scope_common._read_input`` (the scope through the public
``decode_scope``) and resolved by the public ``resolve_matching_grants`` /
``resolve_capability_grants``, which check the arguments themselves.
"""

from __future__ import annotations

from collections.abc import Callable

from mcp_touchstone.harness._operation import HarnessOperation
from mcp_touchstone.harness._scope_common import _invalid, _matches, _read_input
from mcp_touchstone.scope import (
    ChioScope,
    ConstraintError,
    InvalidArgumentsError,
    MatchedGrant,
    OutOfScope,
    resolve_capability_grants,
    resolve_matching_grants,
)
from mcp_touchstone.serde_json import JSON

Resolver = Callable[
    [ChioScope, str, str, JSON], tuple[MatchedGrant, ...] | ConstraintError | OutOfScope
]


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
