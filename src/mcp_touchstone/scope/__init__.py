"""Chio capability-grant scope matching, case for case (``spec/scope.md``).

The public API:

* :func:`decode_scope` turns a parsed JSON value into a :class:`ChioScope` exactly as Chio's
  serde types accept it, or raises :class:`ScopeDecodeError` naming the offending place.
* :func:`resolve_matching_grants` ranks the grants that cover a tool call, or returns a
  :class:`ConstraintError`; :func:`resolve_capability_grants` also turns "nothing" into
  :class:`OutOfScope`.
* :func:`constraint_matches` evaluates one constraint against :class:`ArgumentFacts` (the
  reusable piece for a hosted admission loop built on top).
"""

from mcp_touchstone.scope._arguments import ArgumentFacts
from mcp_touchstone.scope._decode import ScopeDecodeError, decode_constraint, decode_scope
from mcp_touchstone.scope._matcher import (
    ConstraintError,
    InvalidArgumentsError,
    MatchedGrant,
    OutOfScope,
    ScopeMatchError,
    constraint_matches,
    constraint_name,
    grant_targets,
    resolve_capability_grants,
    resolve_matching_grants,
)
from mcp_touchstone.scope._types import (
    DECIDED_KINDS,
    REFUSED_KINDS,
    ChioScope,
    Constraint,
    ConstraintKind,
    MonetaryAmount,
    Operation,
    PromptGrant,
    ResourceGrant,
    ToolGrant,
)

__all__ = [
    "DECIDED_KINDS",
    "REFUSED_KINDS",
    "ArgumentFacts",
    "ChioScope",
    "Constraint",
    "ConstraintError",
    "ConstraintKind",
    "InvalidArgumentsError",
    "MatchedGrant",
    "MonetaryAmount",
    "Operation",
    "OutOfScope",
    "PromptGrant",
    "ResourceGrant",
    "ScopeDecodeError",
    "ScopeMatchError",
    "ToolGrant",
    "constraint_matches",
    "constraint_name",
    "decode_constraint",
    "decode_scope",
    "grant_targets",
    "resolve_capability_grants",
    "resolve_matching_grants",
]
