"""The ``mrtr.client`` harness operation: shape, totality and ids (HARNESS-MRTR-CLIENT-1..3,
MRTR-HARNESS-5)."""

from __future__ import annotations

import pytest

from mcp_touchstone.harness import reference_operations
from mcp_touchstone.serde_json import JSON

FORM: JSON = {
    "method": "elicitation/create",
    "params": {"message": "m", "requestedSchema": {"type": "object", "properties": {}}},
}


def _op(raw: JSON) -> dict[str, JSON]:
    return reference_operations()["mrtr.client"](raw)


def _base(**extra: JSON) -> dict[str, JSON]:
    out: dict[str, JSON] = {
        "request": {"id": 1, "method": "tools/call", "params": {"name": "t"}},
        "client": {"elicitation": True},
        "server": [{"result": {"content": []}}],
    }
    out.update(extra)
    return out


def test_the_operation_is_registered() -> None:
    """MRTR-HARNESS-5: mrtr.client is in the reference's table."""
    assert "mrtr.client" in reference_operations()


def test_single_output_shape() -> None:
    """HARNESS-MRTR-CLIENT-2: sent requests and the final response."""
    out = _op(_base())
    assert set(out) == {"sent", "response", "server_info"}
    assert out["server_info"] is None
    assert out["response"] == {"jsonrpc": "2.0", "id": 1, "result": {"content": []}}


def test_error_response_gets_data_null() -> None:
    """HARNESS-MRTR-CLIENT-2: an error response's object always carries data."""
    out = _op(_base(server=[{"error": {"code": -32602, "message": "x"}}]))
    assert out["response"] == {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {"code": -32602, "message": "x", "data": None},
    }


def test_default_next_id_and_wrap() -> None:
    """HARNESS-MRTR-CLIENT-1: retries draw from next_id (default max id + 1), wrapping at i64."""
    ask: JSON = {"result": {"resultType": "input_required", "inputRequests": {}}}
    out = _op(_base(request={"id": 5, "method": "tools/call"}, server=[ask, ask, {"result": {}}]))
    sent = out["sent"]
    assert isinstance(sent, list)
    assert [r["id"] for r in sent if isinstance(r, dict)] == [5, 6, 7]
    top = (1 << 63) - 1
    out = _op(_base(client={"next_id": top}, server=[ask, ask, {"result": {}}]))
    sent = out["sent"]
    assert isinstance(sent, list)
    assert [r["id"] for r in sent if isinstance(r, dict)] == [1, top, -(1 << 63)]


@pytest.mark.parametrize(
    "raw",
    [
        None,
        [],
        {"server": []},
        {"request": {"id": 1, "method": "m"}, "batch": [], "server": []},
        _base(request={"id": 1.5, "method": "m"}),
        _base(request={"id": "a/b", "method": "m"}),
        _base(request={"id": "{550e8400-e29b-41d4-a716-446655440000}", "method": "m"}),
        _base(request={"id": 1 << 63, "method": "m"}),
        _base(request={"id": 1, "method": 5}),
        _base(client={"elicitation": "yes"}),
        _base(client={"roots": [{"uri": "u"}]}),
        _base(client={"roots": [{"uri": "u", "name": "a"}, {"uri": "u", "name": "b"}]}),
        _base(client={"max_rounds": 1.0}),
        _base(client={"next_id": "1"}),
        _base(client={"log_level": "WARNING"}),
        _base(client={"trace_context": {"tracestate": "x"}}),
        _base(client={"client_info": {"name": "x"}}),
        _base(server={}),
        _base(server=[{"result": 1, "error": {}}]),
        _base(server=[{"error": {"code": -32000, "message": "m"}}]),
        _base(server=[{"fail": {"code": "x", "message": "m"}}]),
        _base(server=[]),
        _base(server=[{"result": {"resultType": "input_required", "inputRequests": {"k": FORM}}}]),
        _base(answers={"k": {"answer": 1, "fail": {}}}),
        _base(batch=[1], request=None),
        {"batch": 5, "server": []},
        {"batch": [{"id": None, "method": "m"}], "server": []},
        {"batch": [{"params": {}}], "server": []},
    ],
)
def test_bad_input_is_invalid_input(raw: JSON) -> None:
    """HARNESS-MRTR-CLIENT-1: input outside the shape is invalid_input, never an exception."""
    if isinstance(raw, dict) and raw.get("request", 0) is None:
        raw = {k: v for k, v in raw.items() if k != "request"}
    out = _op(raw)
    error = out.get("error")
    assert isinstance(error, dict)
    assert error.get("kind") == "invalid_input", out


def test_fail_codes_outside_neva_become_internal_error() -> None:
    """HARNESS-MRTR-CLIENT-1: Error::new maps an unknown code to -32603."""
    out = _op(_base(server=[{"fail": {"code": 1, "message": "m"}}]))
    assert out["error"] == {"code": -32603, "message": "m", "data": None}


@pytest.mark.parametrize("where", ["server", "answers"])
def test_a_fail_with_data_is_invalid_input(where: str) -> None:
    """HARNESS-MRTR-CLIENT-1: a scripted ``fail`` carries no ``data``: ``Error::new`` sets none and
    neither a transport failure (neva ``client/handler.rs:227-250``) nor ``fulfil_input``
    (``client/mrtr.rs:204-229``) adds any."""
    fail: JSON = {"fail": {"code": -32603, "message": "m", "data": [1]}}
    ask: JSON = {"method": "roots/list"}
    raw = (
        _base(server=[fail])
        if where == "server"
        else _base(
            server=[{"result": {"resultType": "input_required", "inputRequests": {"k": ask}}}],
            answers={"k": fail},
        )
    )
    error = _op(raw)["error"]
    assert isinstance(error, dict)
    assert error["kind"] == "invalid_input"


def test_client_info_must_be_name_and_version() -> None:
    """HARNESS-MRTR-CLIENT-1: client_info holds exactly what neva's Implementation writes here."""
    out = _op(_base(client={"client_info": {"name": "n", "version": "1", "title": "t"}}))
    error = out["error"]
    assert isinstance(error, dict)
    assert error["kind"] == "invalid_input"


@pytest.mark.parametrize("level", [[], {}, ["warning"], {"warning": 1}])
def test_unhashable_log_level_is_invalid_input(level: JSON) -> None:
    """HARNESS-MRTR-CLIENT-1: a log level that is not a string is invalid input, not a TypeError."""
    error = _op(_base(client={"log_level": level}))["error"]
    assert isinstance(error, dict)
    assert error["kind"] == "invalid_input"


@pytest.mark.parametrize(
    "answer",
    [{"action": "maybe"}, {"content": {}}, "accept", None, {"role": "user", "content": []}],
)
def test_an_answer_no_neva_handler_returns_is_invalid_input(answer: JSON) -> None:
    """HARNESS-MRTR-CLIENT-1: neva's elicitation handler returns an ``ElicitResult``
    (``types/elicitation.rs:838-843``), so a scripted answer that does not read as one is
    invalid input, raised when the server asks for its key."""
    ask: JSON = {
        "method": "elicitation/create",
        "params": {"message": "m", "requestedSchema": {"properties": {}}},
    }
    raw = _base(
        server=[{"result": {"resultType": "input_required", "inputRequests": {"k": ask}}}],
        answers={"k": {"answer": answer}},
    )
    error = _op(raw)["error"]
    assert isinstance(error, dict)
    assert error["kind"] == "invalid_input"
