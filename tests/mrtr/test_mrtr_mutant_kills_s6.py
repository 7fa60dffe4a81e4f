"""Session 6's re-decided mrtr survivors, killed by their behaviour."""

from __future__ import annotations

from mcp_touchstone.mrtr._meta import parse_request_meta


def test_the_sequence_form_of_meta_reads_request_state_from_its_slot() -> None:
    """MRTR-REQ-7: ``RequestParamsMeta``'s serde sequence form reads ``inputResponses`` and
    ``requestState`` from their declared slots (6th and 7th of 10, default build), as the map
    form reads them by name (kills mrtr/_meta.py's ``"requestState"`` field name changed)."""
    by_slot = parse_request_meta([None, None, None, None, None, {"a": 1}, "tok", None, None, None])
    assert by_slot.request_state == "tok"
    assert by_slot.input_responses == {"a": 1}
    by_name = parse_request_meta({"requestState": "tok", "inputResponses": {"a": 1}})
    assert by_name.request_state == "tok"
    assert by_name.input_responses == {"a": 1}
