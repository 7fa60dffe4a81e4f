"""The proxy's boundary validation of event identities (SCOPE-AGUI-6).

Re-expresses bb-connor/arc ``chio-ag-ui-proxy/src/proxy.rs`` @ ``123cc792``
``proxy_rejects_padded_or_control_event_identity_before_receipt``: a padded or control-character
``event_id``, ``agent_id``, ``session_id`` or target ``component_id`` fails before any decision.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone._rust import rust_trim
from mcp_touchstone.scope import (
    AgUiEvent,
    AgUiForward,
    EventClassification,
    InvalidEventError,
    TargetComponent,
    bind_event,
    decode_scope,
)

_SCOPE = decode_scope(
    {
        "grants": [
            {
                "server_id": "ag-ui",
                "tool_name": "display",
                "operations": ["invoke"],
                "constraints": [
                    {"type": "custom", "value": ["session_id", "sess-1"]},
                    {"type": "custom", "value": ["target_component_type", "chat"]},
                ],
            }
        ]
    }
)


def _event(**changes: object) -> AgUiEvent:
    fields: dict[str, object] = {
        "event_id": "evt-test",
        "agent_id": "agent-1",
        "classification": EventClassification.DISPLAY,
        "payload": {"text": "hi"},
        "session_id": "sess-1",
        "target": TargetComponent("chat"),
    }
    fields.update(changes)
    return AgUiEvent(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("field", "event"),
    [
        ("event_id", _event(event_id=" evt-padded ")),
        ("agent_id", _event(agent_id="agent\ncontrol")),
        ("session_id", _event(session_id=" sess-padded ")),
        ("target.component_id", _event(target=TargetComponent("chat", "composer\rcontrol"))),
    ],
)
def test_proxy_rejects_padded_or_control_event_identity_before_receipt(
    field: str, event: AgUiEvent
) -> None:
    """Each identity field, padded or with a control character, is a boundary error."""
    with pytest.raises(
        InvalidEventError,
        match=f"^invalid event: {field} must be unpadded and contain no control characters$",
    ):
        bind_event(_SCOPE, event)


def test_proxy_rejects_empty_event_id_before_the_padding_check() -> None:
    """A blank event_id reports emptiness, not padding (upstream's empty test uses two spaces)."""
    with pytest.raises(InvalidEventError, match="event_id must be a non-empty string"):
        bind_event(_SCOPE, _event(event_id="  "))


def test_inner_space_and_nbsp_are_neither_padding_nor_control() -> None:
    """Only the ends count as padding, and U+00A0 is not a control character."""
    for event_id in ("evt 1", "evt\u00a0x"):
        assert isinstance(bind_event(_SCOPE, _event(event_id=event_id)), AgUiForward)


@given(st.text(max_size=8))
def test_accepted_event_ids_are_unpadded_and_control_free(event_id: str) -> None:
    """Whatever passes the boundary is non-empty, unchanged by Rust trim and free of Cc chars."""
    try:
        bind_event(_SCOPE, _event(event_id=event_id))
    except InvalidEventError:
        return
    assert rust_trim(event_id) == event_id != ""
    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in event_id)
