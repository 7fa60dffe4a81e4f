"""Optional fields read as serde's ``Option<T>``: ``null`` is absent (SCOPE-ADMIT-8, SCOPE-AGUI-7).

Chio's ``AgUiEvent`` declares ``session_id`` and ``target``, and ``TargetComponent`` declares
``component_id``, as ``#[serde(default)] Option<_>`` (bb-connor/arc
``chio-ag-ui-proxy/src/event.rs``), so serde reads an explicit ``null`` as ``None``; the
``scope.admit`` contract's ``?`` fields are read the same way.
"""

from __future__ import annotations

from mcp_touchstone.harness._scope_admission import op_admit, op_bind_event
from mcp_touchstone.serde_json import JSON

_SCOPED: list[JSON] = [
    {"type": "custom", "value": ["session_id", "sess-1"]},
    {"type": "custom", "value": ["target_component_type", "chat"]},
]


def _grant(constraints: list[JSON]) -> dict[str, JSON]:
    return {
        "server_id": "ag-ui",
        "tool_name": "submit",
        "operations": ["invoke"],
        "constraints": constraints,
    }


def _bind(grant: dict[str, JSON], event_extra: dict[str, JSON]) -> dict[str, JSON]:
    event: dict[str, JSON] = {
        "event_id": "evt-test",
        "agent_id": "agent-1",
        "classification": "submit",
        "payload": {"text": "hi"},
        **event_extra,
    }
    return op_bind_event({"scope": {"grants": [grant]}, "event": event})


def test_ag_ui_event_null_session_id_deserializes_as_none() -> None:
    """A null session_id is no session: an unscoped grant binds, a session-scoped one does not."""
    assert _bind(_grant([]), {"session_id": None})["decision"] == "forward"
    blocked = _bind(_grant(_SCOPED), {"session_id": None, "target": {"component_type": "chat"}})
    assert blocked == {
        "decision": "block",
        "reason": "capability scope does not authorize this AG-UI event",
    }


def test_ag_ui_event_null_target_deserializes_as_none() -> None:
    """A null target is no target: a grant naming only the session binds."""
    grant = _grant([{"type": "custom", "value": ["session_id", "sess-1"]}])
    out = _bind(grant, {"session_id": "sess-1", "target": None})
    assert out["decision"] == "forward"
    assert out["binding"] == [0]


def test_target_component_null_component_id_deserializes_as_none() -> None:
    """A null component_id is no component id: the session-and-type grant binds."""
    target: JSON = {"component_type": "chat", "component_id": None}
    out = _bind(_grant(_SCOPED), {"session_id": "sess-1", "target": target})
    assert out["decision"] == "forward"


def _cand(index: int, budget: dict[str, JSON], **caps: JSON) -> dict[str, JSON]:
    return {
        "index": index,
        "max_cost_per_invocation": caps.get("per_call"),
        "max_total_cost": caps.get("total"),
        "governed": None,
        "guard": None,
        "runtime": {"allowed": True},
        "budget": budget,
    }


def _admit(*cands: JSON, durable: JSON = None) -> dict[str, JSON]:
    return op_admit(
        {"cap_id": "cap-1", "operation_id": "op-1", "durable": durable, "candidates": list(cands)}
    )


def test_admit_null_released_is_the_default_true() -> None:
    """released: null on an exhausted budget is released, so the loop continues."""
    out = _admit(
        _cand(0, {"outcome": "exhausted", "released": None}), _cand(1, {"outcome": "authorized"})
    )
    assert out["decision"] == "select"
    assert out["index"] == 1


def test_admit_null_requires_payment_uses_the_kernel_rule() -> None:
    """requires_payment: null derives the requirement from every candidate's caps."""
    out = _admit(
        _cand(0, {"outcome": "authorized"}, total=10),
        _cand(1, {"outcome": "authorized"}, per_call=5),
        durable={"recorded_hold_id": None, "requires_payment": None},
    )
    assert out == {
        "decision": "select",
        "index": 1,
        "trace": [
            {"index": 0, "ran": []},
            {"index": 1, "ran": ["governed", "guard", "runtime", "budget"]},
        ],
    }


def test_admit_null_message_is_none() -> None:
    """message: null is no message: fine for authorized, invalid_input for an error outcome."""
    assert _admit(_cand(0, {"outcome": "authorized", "message": None}))["decision"] == "select"
    err = _admit(_cand(0, {"outcome": "error", "message": None}))
    assert "error" in err
    assert isinstance(err["error"], dict)
    assert err["error"]["kind"] == "invalid_input"
