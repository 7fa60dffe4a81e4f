"""The AG-UI proxy's capability-bound decision (rules ``SCOPE-AGUI-*``).

Seed 003, the proxy paragraph and "Cumulative approval before matching": once the token has
verified, the proxy refuses a scope that carries cumulative approval anywhere, calls
``resolve_capability_grants`` with a synthesized argument object for server ``ag-ui`` and the
tool named by the event's classification, and forwards only if **any** match satisfies
:func:`grant_binds_event`, which re-reads the grant's ``Custom`` constraints against the trusted
event fields.  The ranking is computed and then ignored.  Mirrors bb-connor/arc
``chio-ag-ui-proxy/src/proxy/core.rs`` @ ``123cc792`` and its helpers @ ``4bad2b57``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone._rust import rust_trim
from mcp_touchstone.scope._entry import has_cumulative_approval
from mcp_touchstone.scope._matcher import (
    ConstraintError,
    MatchedGrant,
    OutOfScope,
    resolve_capability_grants,
)
from mcp_touchstone.scope._types import ChioScope, Custom, ToolGrant
from mcp_touchstone.serde_json import JSON

__all__ = [
    "AG_UI_SERVER_ID",
    "BLOCK_CUMULATIVE",
    "BLOCK_OUT_OF_SCOPE",
    "AgUiBlock",
    "AgUiDecision",
    "AgUiEvent",
    "AgUiForward",
    "EventClassification",
    "InvalidEventError",
    "TargetComponent",
    "bind_event",
    "event_scope_arguments",
    "grant_binds_event",
]

AG_UI_SERVER_ID = "ag-ui"
"""The server id every AG-UI event is matched against (SCOPE-AGUI-2)."""

BLOCK_CUMULATIVE = "cumulative approval enforcement is unavailable"
"""The block reason for a scope that carries cumulative approval anywhere (SCOPE-AGUI-1)."""

BLOCK_OUT_OF_SCOPE = "capability scope does not authorize this AG-UI event"
"""The block reason when nothing matches, or nothing that matches binds (SCOPE-AGUI-4)."""

BLOCK_CONSTRAINT_PREFIX = "capability scope constraint failed: "
"""Prefix of the block reason for a matcher constraint error (SCOPE-AGUI-4)."""


class EventClassification(Enum):
    """The seven event classifications; the value is also the tool name (SCOPE-AGUI-2)."""

    DISPLAY = "display"
    MUTATE = "mutate"
    NAVIGATE = "navigate"
    CREATE = "create"
    DESTROY = "destroy"
    SUBMIT = "submit"
    ALERT = "alert"


@dataclass(frozen=True, slots=True)
class TargetComponent:
    """The UI component an event targets."""

    component_type: str
    component_id: str | None = None


@dataclass(frozen=True, slots=True)
class AgUiEvent:
    """The event fields the capability-bound decision reads; ``payload`` is caller-controlled."""

    event_id: str
    agent_id: str
    classification: EventClassification
    payload: JSON
    session_id: str | None = None
    target: TargetComponent | None = None


class InvalidEventError(TouchstoneError, ValueError):
    """The event fails the proxy's boundary validation (an error, not a block)."""


@dataclass(frozen=True, slots=True)
class AgUiForward:
    """The event is forwarded: the ranked matches and, in ranked order, those that bind it."""

    matches: tuple[MatchedGrant, ...]
    binding: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AgUiBlock:
    """The event is blocked with the proxy's exact reason."""

    reason: str


AgUiDecision = AgUiForward | AgUiBlock
"""The two decisions of :func:`bind_event`."""


def _is_rust_control(ch: str) -> bool:
    """Rust's ``char::is_control``: general category Cc (U+0000..U+001F, U+007F..U+009F)."""
    code = ord(ch)
    return code < 0x20 or 0x7F <= code <= 0x9F


def _check_unpadded(field: str, value: str) -> None:
    if rust_trim(value) != value or any(_is_rust_control(ch) for ch in value):
        raise InvalidEventError(
            f"invalid event: {field} must be unpadded and contain no control characters"
        )


def validate_event_boundary(event: AgUiEvent) -> None:
    """Raise :class:`InvalidEventError` as the proxy's ``validate_boundary`` does (SCOPE-AGUI-6).

    An ``event_id`` or target ``component_type`` that is empty after Rust ``trim``; an
    ``event_id``, ``agent_id``, ``session_id`` or target ``component_id`` that is padded (Rust
    ``trim`` changes it) or carries a control character (bb-connor/arc ``proxy.rs`` @
    ``123cc792``, ``proxy_rejects_padded_or_control_event_identity_before_receipt``).
    """
    if not rust_trim(event.event_id):
        raise InvalidEventError("invalid event: event_id must be a non-empty string")
    _check_unpadded("event_id", event.event_id)
    _check_unpadded("agent_id", event.agent_id)
    if event.session_id is not None:
        _check_unpadded("session_id", event.session_id)
    if event.target is not None:
        if not rust_trim(event.target.component_type):
            raise InvalidEventError(
                "invalid event: target.component_type must be a non-empty string"
            )
        if event.target.component_id is not None:
            _check_unpadded("target.component_id", event.target.component_id)


def event_scope_arguments(event: AgUiEvent) -> dict[str, JSON]:
    """The synthesized arguments: ``event_id``, ``agent_id``, ``event_classification``,
    ``payload``, plus ``session_id``, ``target_component_type`` and ``target_component_id`` when
    the event has them (SCOPE-AGUI-2)."""
    args: dict[str, JSON] = {
        "event_id": event.event_id,
        "agent_id": event.agent_id,
        "event_classification": event.classification.value,
        "payload": event.payload,
    }
    if event.session_id is not None:
        args["session_id"] = event.session_id
    if event.target is not None:
        args["target_component_type"] = event.target.component_type
        if event.target.component_id is not None:
            args["target_component_id"] = event.target.component_id
    return args


def _customs(grant: ToolGrant, key: str) -> list[str]:
    return [c.expected for c in grant.constraints if isinstance(c, Custom) and c.key == key]


def _binds_if_present(grant: ToolGrant, key: str, trusted: str) -> bool:
    return all(value == trusted for value in _customs(grant, key))


def _binds_two_way(grant: ToolGrant, key: str, trusted: str | None) -> bool:
    values = _customs(grant, key)
    if any(value != trusted for value in values):
        return False
    return bool(values) if trusted is not None else not values


def grant_binds_event(grant: ToolGrant, event: AgUiEvent) -> bool:
    """Whether ``grant``'s ``Custom`` constraints bind the trusted event fields (SCOPE-AGUI-5).

    ``event_id``: every ``Custom("event_id", v)`` has ``v`` equal to it (none is fine).
    ``session_id``, ``target_component_type``, ``target_component_id``: two-way — every such
    Custom equals the trusted value, at least one exists when the event has the field, and none
    exists when it does not.  Keys compare exactly; other constraints are not read.
    """
    target = event.target
    return (
        _binds_if_present(grant, "event_id", event.event_id)
        and _binds_two_way(grant, "session_id", event.session_id)
        and _binds_two_way(
            grant, "target_component_type", None if target is None else target.component_type
        )
        and _binds_two_way(
            grant, "target_component_id", None if target is None else target.component_id
        )
    )


def bind_event(scope: ChioScope, event: AgUiEvent) -> AgUiDecision:
    """The proxy's capability-bound decision once the token has verified (SCOPE-AGUI-1..5).

    Boundary validation first (raises :class:`InvalidEventError`), then the scope-wide
    cumulative-approval refusal, then ``resolve_capability_grants(scope, classification,
    "ag-ui", event_scope_arguments(event))``: out of scope, or matches none of which binds,
    blocks as unauthorized; a constraint error blocks with its reason; otherwise forward.
    Raises ``InvalidArgumentsError`` when the payload is not a serde_json value.
    """
    validate_event_boundary(event)
    if has_cumulative_approval(scope):
        return AgUiBlock(BLOCK_CUMULATIVE)
    result = resolve_capability_grants(
        scope, event.classification.value, AG_UI_SERVER_ID, event_scope_arguments(event)
    )
    if isinstance(result, ConstraintError):
        return AgUiBlock(BLOCK_CONSTRAINT_PREFIX + result.message)
    if isinstance(result, OutOfScope):
        return AgUiBlock(BLOCK_OUT_OF_SCOPE)
    binding = tuple(m.index for m in result if grant_binds_event(m.grant, event))
    if not binding:
        return AgUiBlock(BLOCK_OUT_OF_SCOPE)
    return AgUiForward(result, binding)
