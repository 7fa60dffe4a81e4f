"""Discovery and the MRTR flow (AUDIT-DISC-1, AUDIT-FLOW-1, AUDIT-FLOW-2)."""

from __future__ import annotations

from mcp_touchstone.audit._flow import answer_for, example_arguments
from tests.audit._weak import WeakServer
from tests.audit.conftest import run


def test_example_arguments_from_a_schema() -> None:
    """AUDIT-FLOW-1: the schema's own example wins; else each required property from its
    example, default, const, first enum value or a minimal value of its type."""
    assert example_arguments({"examples": [{"x": 5}], "properties": {"x": {}}}) == {"x": 5}
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "b": {"type": "string", "enum": ["eu", "us"]},
            "c": {"type": "boolean", "default": False},
            "d": {"type": "string", "examples": ["bucket-1"]},
            "e": {"type": ["null", "number"]},
            "f": {"type": "string"},
        },
        "required": ["a", "b", "c", "d", "e"],
    }
    assert example_arguments(schema) == {"a": 1, "b": "eu", "c": False, "d": "bucket-1", "e": 1}
    assert example_arguments(None) == {}


def test_answers_for_each_input_request() -> None:
    """AUDIT-FLOW-2: elicitation accepted with content from its schema, URL elicitation
    accepted, a sampling message, an empty roots list."""
    form = {
        "method": "elicitation/create",
        "params": {"requestedSchema": {"properties": {"ok": {"type": "boolean"}}}},
    }
    assert answer_for(form) == {"action": "accept", "content": {"ok": True}}
    url = {"method": "elicitation/create", "params": {"mode": "url", "url": "https://x"}}
    assert answer_for(url) == {"action": "accept"}
    assert answer_for({"method": "sampling/createMessage"})["role"] == "assistant"
    assert answer_for({"method": "roots/list"}) == {"roots": []}


def test_discovery_and_flow_notes() -> None:
    """AUDIT-DISC-1: both eras listed for both callers; the flow found on the first listed tool
    answering input_required and driven to a complete result."""
    report = run(WeakServer("forbidden"), ["AUDIT-REPLAY-1"])
    notes = "\n".join(report.notes)
    assert "2025-11-25 main: listed 4 tool(s)" in notes
    assert "2026-07-28 other: listed 3 tool(s)" in notes
    assert 'MRTR flow: purge {"bucket": "touchstone"}, 2 request(s), final complete' in notes


def test_each_era_speaks_its_own_envelope() -> None:
    """AUDIT-WIRE-3: 2025-11-25 requests carry the session id the handshake returned; 2026-07-28
    requests carry no session, the Mcp-Method / Mcp-Name headers and the ``_meta`` envelope."""
    report = run(WeakServer("forbidden"), ["AUDIT-EXIST-1"])
    evidence = next(f for f in report.findings if f.id == "AUDIT-EXIST-1").evidence
    legacy = [e for e in evidence if e.label.startswith("2025-11-25")]
    modern = [e for e in evidence if e.label.startswith("2026-07-28")]
    assert legacy
    assert modern
    assert all(e.request_headers.get("Mcp-Session-Id") == "weak-session" for e in legacy)
    for e in modern:
        assert "Mcp-Session-Id" not in e.request_headers
        assert e.request_headers["Mcp-Method"] == "tools/call"
        assert e.request_headers["Mcp-Name"] in ("admin_wipe", "touchstone_absent_tool")
        assert '"io.modelcontextprotocol/protocolVersion":"2026-07-28"' in e.request_body
