"""The AG-UI proxy's capability-bound decision (SCOPE-AGUI-*).

Tests named after upstream re-express bb-connor/arc ``chio-ag-ui-proxy/src/proxy.rs`` tests on
the part of the decision this oracle models (after verification, revocation and the aggregate
check; before the sibling-sum budget, which admits every undelegated token).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.scope import (
    AgUiBlock,
    AgUiEvent,
    AgUiForward,
    EventClassification,
    InvalidEventError,
    TargetComponent,
    ToolGrant,
    bind_event,
    decode_scope,
    event_scope_arguments,
    grant_binds_event,
)
from mcp_touchstone.scope._types import Custom
from mcp_touchstone.serde_json import JSON
from tests.scope._helpers import con, grant, scope

CHAT = TargetComponent("chat")
NOT_AUTHORIZED = "capability scope does not authorize this AG-UI event"
CUMULATIVE = "cumulative approval enforcement is unavailable"
CUMULATIVE_CON = con(
    "require_cumulative_approval_above",
    {
        "threshold": {"units": 100, "currency": "USD"},
        "approval_budget_id": "budget-1",
        "approval_budget_epoch": 1,
    },
)


def make_event(
    classification: str = "submit",
    *,
    event_id: str = "evt-test",
    session_id: str | None = "sess-1",
    target: TargetComponent | None = CHAT,
    payload: JSON = None,
) -> AgUiEvent:
    """Upstream's ``make_event``: evt-test, agent-1, sess-1, target chat, payload {"text": "hi"}."""
    return AgUiEvent(
        event_id=event_id,
        agent_id="agent-1",
        classification=EventClassification(classification),
        payload={"text": "hi"} if payload is None else payload,
        session_id=session_id,
        target=target,
    )


def custom(key: str, value: str) -> JSON:
    """A Custom constraint."""
    return con("custom", [key, value])


def scoped_grant(tool: str = "submit", *extra: JSON) -> dict[str, JSON]:
    """Upstream's ``make_scoped_capability`` grant: ag-ui/{tool}, session sess-1, target chat."""
    return grant(
        "ag-ui",
        tool,
        [custom("session_id", "sess-1"), custom("target_component_type", "chat"), *extra],
    )


def _tool_grant(value: dict[str, JSON]) -> ToolGrant:
    return decode_scope({"grants": [value]}).grants[0]


# -- upstream proxy tests ----------------------------------------------------------------------


def test_restricted_event_accepts_properly_scoped_trusted_capability() -> None:
    """SCOPE-AGUI-3: the scoped submit grant forwards the submit event."""
    d = bind_event(scope(scoped_grant()), make_event())
    assert isinstance(d, AgUiForward)
    assert [m.index for m in d.matches] == [0]
    assert d.binding == (0,)


def test_restricted_event_accepts_delegated_capability_with_parent_budget_snapshot() -> None:
    """SCOPE-AGUI-3: the delegated child's grant binds the same way (the budget part is not
    modelled)."""
    assert isinstance(bind_event(scope(scoped_grant()), make_event()), AgUiForward)


def test_display_event_requires_display_scope_when_capability_supplied() -> None:
    """SCOPE-AGUI-2: a submit grant does not cover a display event (tool = classification)."""
    assert bind_event(scope(scoped_grant("submit")), make_event("display")) == AgUiBlock(
        NOT_AUTHORIZED
    )


def test_proxy_rejects_empty_event_id_before_receipt() -> None:
    """SCOPE-AGUI-6: a blank event_id is an error, not a block."""
    with pytest.raises(InvalidEventError, match="event_id must be a non-empty string"):
        bind_event(scope(scoped_grant()), make_event(event_id="  "))


def test_proxy_rejects_empty_target_component_before_receipt() -> None:
    """SCOPE-AGUI-6: a blank target component_type is an error, not a block."""
    with pytest.raises(
        InvalidEventError, match=r"target\.component_type must be a non-empty string"
    ):
        bind_event(scope(scoped_grant()), make_event(target=TargetComponent(" ", "composer")))


def test_cumulative_family_requires_matching_signed_root() -> None:
    """SCOPE-AGUI-1: the verified cumulative child is blocked with the exact cumulative reason."""
    s = scope(scoped_grant("submit", CUMULATIVE_CON))
    assert bind_event(s, make_event()) == AgUiBlock(CUMULATIVE)


def test_denied_delegated_event_does_not_consume_sibling_budget() -> None:
    """SCOPE-AGUI-5: a wrong trusted session blocks; the right one forwards."""
    s = scope(scoped_grant())
    assert bind_event(s, make_event(session_id="sess-2")) == AgUiBlock(NOT_AUTHORIZED)
    assert isinstance(bind_event(s, make_event(event_id="evt-valid-session")), AgUiForward)


def test_payload_event_id_spoofing_is_denied_without_consuming_sibling_budget() -> None:
    """SCOPE-AGUI-5: a payload event_id cannot stand in for the trusted one."""
    s = scope(scoped_grant("submit", custom("event_id", "evt-authorized")))
    spoof = make_event(
        event_id="evt-spoofed", payload={"event_id": "evt-authorized", "text": "spoof"}
    )
    assert bind_event(s, spoof) == AgUiBlock(NOT_AUTHORIZED)
    valid = scope(scoped_grant("submit", custom("event_id", "evt-valid-sibling")))
    assert isinstance(bind_event(valid, make_event(event_id="evt-valid-sibling")), AgUiForward)


def test_payload_session_and_target_spoofing_is_denied_without_consuming_sibling_budget() -> None:
    """SCOPE-AGUI-5: payload session/target metadata cannot stand in for absent trusted fields."""
    s = scope(scoped_grant("submit", custom("target_component_id", "composer")))
    spoof = make_event(
        session_id=None,
        target=None,
        payload={
            "metadata": {
                "session_id": "sess-1",
                "target_component_type": "chat",
                "target_component_id": "composer",
            },
            "text": "spoof",
        },
    )
    assert bind_event(s, spoof) == AgUiBlock(NOT_AUTHORIZED)
    valid = make_event(target=TargetComponent("chat", "composer"))
    assert isinstance(bind_event(s, valid), AgUiForward)


# -- the rest of the decision -------------------------------------------------------------------


def test_cumulative_refusal_is_scope_wide() -> None:
    """SCOPE-AGUI-1: cumulative approval on a grant for another server still blocks first."""
    s = scope(scoped_grant(), grant("other", "tool", [CUMULATIVE_CON]))
    assert bind_event(s, make_event()) == AgUiBlock(CUMULATIVE)


def test_constraint_error_blocks_with_reason() -> None:
    """SCOPE-AGUI-4: a refused constraint on a target grant blocks with the matcher's reason."""
    s = scope(grant("ag-ui", "submit", [con("regex_match", ".*")]))
    assert bind_event(s, make_event()) == AgUiBlock(
        "capability scope constraint failed: portable kernel cannot safely evaluate regex_match"
    )


def test_out_of_scope_and_unbound_share_the_reason() -> None:
    """SCOPE-AGUI-4: no match and matches none of which binds block with the same text."""
    assert bind_event(scope(), make_event()) == AgUiBlock(NOT_AUTHORIZED)
    assert bind_event(scope(grant("ag-ui", "submit")), make_event()) == AgUiBlock(NOT_AUTHORIZED)


def test_ranking_computed_then_ignored() -> None:
    """SCOPE-AGUI-3: a lower-ranked grant that binds forwards though the top-ranked one does not."""
    s = scope(
        grant("*", "*", [custom("session_id", "sess-1"), custom("target_component_type", "chat")]),
        grant("ag-ui", "submit", [custom("agent_id", "agent-1")]),
    )
    d = bind_event(s, make_event())
    assert isinstance(d, AgUiForward)
    assert [(m.index, m.specificity) for m in d.matches] == [(1, (1, 1, 1)), (0, (0, 0, 2))]
    assert d.binding == (0,)


def test_synthesized_arguments() -> None:
    """SCOPE-AGUI-2: the four fixed keys plus the optional trusted fields."""
    full = make_event(target=TargetComponent("chat", "composer"), payload={"x": 1})
    assert event_scope_arguments(full) == {
        "event_id": "evt-test",
        "agent_id": "agent-1",
        "event_classification": "submit",
        "payload": {"x": 1},
        "session_id": "sess-1",
        "target_component_type": "chat",
        "target_component_id": "composer",
    }
    bare = make_event("alert", session_id=None, target=None, payload={})
    assert set(event_scope_arguments(bare)) == {
        "event_id",
        "agent_id",
        "event_classification",
        "payload",
    }


@pytest.mark.parametrize(
    ("customs", "trusted", "binds"),
    [
        ([], "x", False),
        (["x"], "x", True),
        (["x", "x"], "x", True),
        (["x", "y"], "x", False),
        (["y"], "x", False),
        ([], None, True),
        (["x"], None, False),
    ],
)
@pytest.mark.parametrize("field", ["session_id", "target_component_type", "target_component_id"])
def test_two_way_binding_matrix(
    field: str, customs: list[str], trusted: str | None, binds: bool
) -> None:
    """SCOPE-AGUI-5: the decision matrix for each strictly bound field."""
    trusted_fields: dict[str, str | None] = {
        "session_id": "s",
        "target_component_type": "t",
        "target_component_id": "i",
    }
    trusted_fields[field] = trusted
    if trusted_fields["target_component_type"] is None:
        trusted_fields["target_component_id"] = None  # no target, so no component id either
    constraints: list[JSON] = [
        custom(k, v) for k, v in trusted_fields.items() if k != field and v is not None
    ]
    constraints += [custom(field, v) for v in customs]
    kind, component = trusted_fields["target_component_type"], trusted_fields["target_component_id"]
    event = make_event(
        session_id=trusted_fields["session_id"],
        target=None if kind is None else TargetComponent(kind, component),
    )
    assert grant_binds_event(_tool_grant(grant("ag-ui", "submit", constraints)), event) is binds


@pytest.mark.parametrize(
    ("customs", "binds"),
    [([], True), (["evt-test"], True), (["evt-test", "other"], False), (["other"], False)],
)
def test_event_id_optional_binding(customs: list[str], binds: bool) -> None:
    """SCOPE-AGUI-5: event_id binds only when named, and then every value must equal the event's."""
    constraints: list[JSON] = [
        custom("session_id", "sess-1"),
        custom("target_component_type", "chat"),
    ]
    constraints += [custom("event_id", v) for v in customs]
    assert (
        grant_binds_event(_tool_grant(grant("ag-ui", "submit", constraints)), make_event()) is binds
    )


def test_binding_keys_are_exact() -> None:
    """SCOPE-AGUI-5: only exact Custom keys are read; Session_ID is an ordinary constraint."""
    g = _tool_grant(
        grant(
            "ag-ui",
            "submit",
            [custom("Session_ID", "sess-1"), custom("target_component_type", "chat")],
        )
    )
    assert not grant_binds_event(
        g, make_event()
    )  # the trusted session is present, no exact Custom names it
    assert grant_binds_event(g, make_event(session_id=None))


_fields = st.sampled_from(["session_id", "target_component_type", "target_component_id"])


@given(
    _fields,
    st.text(max_size=4),
    st.dictionaries(
        st.sampled_from(["session_id", "target_component_type", "target_component_id", "x"]),
        st.text(max_size=3),
    ),
)
def test_never_binds_when_named_trusted_field_is_absent(
    field: str, value: str, payload: dict[str, str]
) -> None:
    """SCOPE-AGUI-5: a grant naming a trusted field never binds an event lacking it."""
    event = make_event(
        session_id=None if field == "session_id" else "sess-1",
        target=None if field == "target_component_type" else TargetComponent("chat", None),
        payload={"metadata": dict[str, JSON](payload), field: value},
    )
    g = grant("ag-ui", "submit", [custom(field, value)])
    assert not grant_binds_event(_tool_grant(g), event)
    assert isinstance(bind_event(scope(g), event), AgUiBlock)


_TRUSTED = ("event_id", "session_id", "target_component_type", "target_component_id")
_values = st.sampled_from(["a", "b", ""])
_grant_json = st.builds(
    lambda server, tool, customs: grant(server, tool, [custom(k, v) for k, v in customs]),
    st.sampled_from(["ag-ui", "*"]),
    st.sampled_from(["submit", "*", "alert"]),
    st.lists(st.tuples(st.sampled_from([*_TRUSTED, "note"]), _values), max_size=4),
)
_events = st.builds(
    lambda eid, session, target, payload: make_event(
        event_id=eid, session_id=session, target=target, payload=payload
    ),
    st.sampled_from(["a", "b"]),
    st.one_of(st.none(), _values),
    st.one_of(
        st.none(),
        st.builds(TargetComponent, st.sampled_from(["a", "b"]), st.one_of(st.none(), _values)),
    ),
    st.dictionaries(st.sampled_from([*_TRUSTED, "note"]), _values, max_size=3),
)


def _trusted(event: AgUiEvent) -> dict[str, str | None]:
    target = event.target
    return {
        "event_id": event.event_id,
        "session_id": event.session_id,
        "target_component_type": None if target is None else target.component_type,
        "target_component_id": None if target is None else target.component_id,
    }


@given(st.lists(_grant_json, max_size=4), _events)
def test_forward_only_through_grants_that_bind(grants: list[JSON], event: AgUiEvent) -> None:
    """SCOPE-AGUI-3, SCOPE-AGUI-5: binding is the ranked matches that fit the trusted fields."""
    s = decode_scope({"grants": grants})
    decision = bind_event(s, event)
    if isinstance(decision, AgUiBlock):
        return
    trusted = _trusted(event)
    ranked = [m.index for m in decision.matches]
    assert decision.binding
    assert list(decision.binding) == [i for i in ranked if i in decision.binding]
    for index in decision.binding:
        customs = [c for c in s.grants[index].constraints if isinstance(c, Custom)]
        for c in customs:
            if c.key in trusted:
                assert trusted[c.key] == c.expected
        for field in _TRUSTED[1:]:
            assert any(c.key == field for c in customs) == (trusted[field] is not None)


# Boundary validation of event identities: bb-connor/arc ``chio-ag-ui-proxy/src/proxy.rs`` @
# ``123cc792`` ``proxy_rejects_padded_or_control_event_identity_before_receipt``: a padded or
# control-character ``event_id``, ``agent_id``, ``session_id`` or target ``component_id`` fails
# before any decision.
_BOUNDARY_SCOPE = decode_scope(
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


def _boundary_event(**changes: object) -> AgUiEvent:
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
        ("event_id", _boundary_event(event_id=" evt-padded ")),
        ("agent_id", _boundary_event(agent_id="agent\ncontrol")),
        ("session_id", _boundary_event(session_id=" sess-padded ")),
        (
            "target.component_id",
            _boundary_event(target=TargetComponent("chat", "composer\rcontrol")),
        ),
    ],
)
def test_proxy_rejects_padded_or_control_event_identity_before_receipt(
    field: str, event: AgUiEvent
) -> None:
    """SCOPE-AGUI-6: each identity field, padded or holding a control character, is a boundary
    error."""
    with pytest.raises(
        InvalidEventError,
        match=f"^invalid event: {field} must be unpadded and contain no control characters$",
    ):
        bind_event(_BOUNDARY_SCOPE, event)


def test_proxy_rejects_empty_event_id_before_the_padding_check() -> None:
    """SCOPE-AGUI-6: a blank event_id reports emptiness, not padding (upstream's empty test uses
    two spaces)."""
    with pytest.raises(InvalidEventError, match="event_id must be a non-empty string"):
        bind_event(_BOUNDARY_SCOPE, _boundary_event(event_id="  "))


def test_inner_space_and_nbsp_are_neither_padding_nor_control() -> None:
    """SCOPE-AGUI-6: only the ends count as padding, and U+00A0 is not a control character."""
    for event_id in ("evt 1", "evt\u00a0x"):
        decision = bind_event(_BOUNDARY_SCOPE, _boundary_event(event_id=event_id))
        assert isinstance(decision, AgUiForward)


@given(st.text(max_size=8))
def test_accepted_event_ids_are_unpadded_and_control_free(event_id: str) -> None:
    """SCOPE-AGUI-6: whatever passes the boundary is non-empty, unchanged by Rust's trim and free
    of Cc characters."""
    from mcp_touchstone._rust import rust_trim

    try:
        bind_event(_BOUNDARY_SCOPE, _boundary_event(event_id=event_id))
    except InvalidEventError:
        return
    assert rust_trim(event_id) == event_id != ""
    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in event_id)


def test_agui_boundary_errors_are_worded_exactly() -> None:
    """SCOPE-AGUI-6: each boundary refusal's whole message, not a fragment of it."""
    unpadded = "must be unpadded and contain no control characters"
    cases: list[tuple[dict[str, object], str]] = [
        ({"event_id": "  "}, "invalid event: event_id must be a non-empty string"),
        ({"event_id": " e"}, f"invalid event: event_id {unpadded}"),
        ({"agent_id": "a\x07"}, f"invalid event: agent_id {unpadded}"),
        ({"session_id": "s "}, f"invalid event: session_id {unpadded}"),
        (
            {"target": TargetComponent(" ")},
            "invalid event: target.component_type must be a non-empty string",
        ),
        (
            {"target": TargetComponent("chat", " c")},
            f"invalid event: target.component_id {unpadded}",
        ),
    ]
    for changes, message in cases:
        with pytest.raises(InvalidEventError) as exc:
            bind_event(_BOUNDARY_SCOPE, _boundary_event(**changes))
        assert str(exc.value) == message, changes
    assert isinstance(bind_event(_BOUNDARY_SCOPE, _boundary_event()), AgUiForward)


def test_agui_control_characters_are_rusts_cc_range_exactly() -> None:
    """SCOPE-AGUI-6: Rust's ``char::is_control`` is category Cc, U+0000..U+001F and
    U+007F..U+009F, so an id holding one is refused and one holding U+0020 or U+00A0 is not."""
    message = "invalid event: agent_id must be unpadded and contain no control characters"
    for ch in ("\x00", "\x1f", "\x7f", "\x80", "\x9f"):
        with pytest.raises(InvalidEventError) as exc:
            bind_event(_BOUNDARY_SCOPE, _boundary_event(agent_id=f"a{ch}b"))
        assert str(exc.value) == message, hex(ord(ch))
    for ch in (" ", "\xa0", "\xa1", "~"):
        decision = bind_event(_BOUNDARY_SCOPE, _boundary_event(agent_id=f"a{ch}b"))
        assert isinstance(decision, AgUiForward)


# Chio's ``AgUiEvent`` declares ``session_id`` and ``target``, and ``TargetComponent`` declares
# ``component_id``, as ``#[serde(default)] Option<_>`` (bb-connor/arc
# ``chio-ag-ui-proxy/src/event.rs``), so serde reads an explicit ``null`` as ``None``.
_SESSION_AND_TYPE: list[JSON] = [
    {"type": "custom", "value": ["session_id", "sess-1"]},
    {"type": "custom", "value": ["target_component_type", "chat"]},
]


def _bind_json(constraints: list[JSON], event_extra: dict[str, JSON]) -> dict[str, JSON]:
    from mcp_touchstone.harness._scope_admission import op_bind_event

    grant: dict[str, JSON] = {
        "server_id": "ag-ui",
        "tool_name": "submit",
        "operations": ["invoke"],
        "constraints": constraints,
    }
    event: dict[str, JSON] = {
        "event_id": "evt-test",
        "agent_id": "agent-1",
        "classification": "submit",
        "payload": {"text": "hi"},
        **event_extra,
    }
    return op_bind_event({"scope": {"grants": [grant]}, "event": event})


def test_ag_ui_event_null_session_id_deserializes_as_none() -> None:
    """SCOPE-AGUI-7: a null session_id is no session, so an unscoped grant binds and a
    session-scoped one does not."""
    assert _bind_json([], {"session_id": None})["decision"] == "forward"
    blocked = _bind_json(
        _SESSION_AND_TYPE, {"session_id": None, "target": {"component_type": "chat"}}
    )
    assert blocked == {
        "decision": "block",
        "reason": "capability scope does not authorize this AG-UI event",
    }


def test_ag_ui_event_null_target_deserializes_as_none() -> None:
    """SCOPE-AGUI-7: a null target is no target, so a grant naming only the session binds."""
    out = _bind_json(_SESSION_AND_TYPE[:1], {"session_id": "sess-1", "target": None})
    assert out["decision"] == "forward"
    assert out["binding"] == [0]


def test_target_component_null_component_id_deserializes_as_none() -> None:
    """SCOPE-AGUI-7: a null component_id is no component id, so the session-and-type grant
    binds."""
    target: JSON = {"component_type": "chat", "component_id": None}
    out = _bind_json(_SESSION_AND_TYPE, {"session_id": "sess-1", "target": target})
    assert out["decision"] == "forward"
