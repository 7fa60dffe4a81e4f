"""The request ``_meta`` readers walked as tables, stated by hand from neva's ``Request``
accessors and ``shared::is_mrtr_method`` (commit e6822d7): which methods carry MRTR fields,
each field's location and type check in order, and the legacy fallback's reading
(MRTR-RETRY-1..4, MRTR-CAP-8)."""

from __future__ import annotations

import pytest

from mcp_touchstone.mrtr._capabilities import ClientMrtrCapabilities, ElicitationModes
from mcp_touchstone.mrtr._meta import (
    CLIENT_CAPABILITIES_KEY,
    MRTR_METHODS,
    client_capabilities,
    input_responses,
    malformed_mrtr_error,
    parse_request_meta,
    read_request_meta,
    request_state,
)
from mcp_touchstone.mrtr._params import method_params_error
from mcp_touchstone.serde_json import JSON

_STATE = "`requestState` must be a string"
_ANSWERS = "`inputResponses` must be an object"


def test_the_mrtr_methods_are_neva_three() -> None:
    """MRTR-RETRY-1: ``tools/call``, ``prompts/get`` and ``resources/read``, no other."""
    assert frozenset({"tools/call", "prompts/get", "resources/read"}) == MRTR_METHODS


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"requestState": None}, _STATE),
        ({"requestState": 1}, _STATE),
        ({"requestState": ["s"]}, _STATE),
        ({"inputResponses": None}, _ANSWERS),
        ({"inputResponses": []}, _ANSWERS),
        ({"inputResponses": "x"}, _ANSWERS),
        ({"requestState": 1, "inputResponses": 1}, _STATE),
        ({"inputResponses": 1, "_meta": {"requestState": 1}}, _ANSWERS),
        ({"_meta": {"requestState": None}}, _STATE),
        ({"_meta": {"inputResponses": 5}}, _ANSWERS),
        ({"_meta": {"inputResponses": 5, "requestState": 5}}, _STATE),
        ({"requestState": "s", "_meta": {"inputResponses": []}}, _ANSWERS),
        ({"requestState": "s", "inputResponses": {}}, None),
        ({"_meta": {"requestState": "s", "inputResponses": {}}}, None),
        ({"_meta": ["s", 1]}, None),
        ({"_meta": 5}, None),
        ({}, None),
    ],
)
def test_mrtr_field_types_params_first_state_before_answers(
    params: dict[str, JSON], message: str | None
) -> None:
    """MRTR-RETRY-1, MRTR-RETRY-2: on each MRTR method a present ``requestState`` must be a
    string and ``inputResponses`` an object (``null`` refused), params before ``_meta`` (an
    object ``_meta`` only), state before answers; a custom method is never checked."""
    for method in sorted(MRTR_METHODS):
        error = malformed_mrtr_error(method, params)
        if message is None:
            assert error is None
        else:
            assert error is not None
            assert error.to_json() == {"code": -32602, "message": message, "data": None}
    assert malformed_mrtr_error("custom/x", params) is None
    assert malformed_mrtr_error("tools/list", params) is None


@pytest.mark.parametrize("params", [None, [], ["requestState", 1], "requestState", 5])
def test_params_that_are_no_object_carry_no_mrtr_field(params: JSON) -> None:
    """MRTR-RETRY-1: params that are not an object have no MRTR field to refuse."""
    assert malformed_mrtr_error("tools/call", params) is None


_GOOD_META: dict[str, JSON] = {
    "requestState": "m",
    "inputResponses": {"k": 1},
    CLIENT_CAPABILITIES_KEY: {"roots": {}},
}


@pytest.mark.parametrize(
    ("params", "state", "answers"),
    [
        ({"requestState": "p", "inputResponses": {"a": 1}, "_meta": _GOOD_META}, "p", {"a": 1}),
        ({"_meta": _GOOD_META}, "m", {"k": 1}),
        ({"requestState": 5, "inputResponses": [], "_meta": _GOOD_META}, "m", {"k": 1}),
        ({"requestState": None, "inputResponses": None, "_meta": _GOOD_META}, "m", {"k": 1}),
        ({"inputResponses": {}, "_meta": _GOOD_META}, "m", {}),
        ({"_meta": {**_GOOD_META, "traceparent": 1}}, None, None),
        ({"_meta": {"requestState": 1}}, None, None),
        ({"_meta": {"requestState": None, "inputResponses": None}}, None, None),
        ({"_meta": [None, None, None, None, None, {"k": 2}, "q", None, None, None]}, "q", {"k": 2}),
        ({"_meta": None}, None, None),
        ({}, None, None),
        (None, None, None),
        (["p"], None, None),
    ],
)
def test_the_legacy_fallback_reads_a_whole_typed_meta(
    params: JSON, state: str | None, answers: dict[str, JSON] | None
) -> None:
    """MRTR-RETRY-3, MRTR-RETRY-4: a string ``params.requestState`` and an object
    ``params.inputResponses`` win; otherwise the ``_meta`` fields, only when the whole
    ``_meta`` passes the typed read (by name, or by position in the sequence form)."""
    assert request_state(params) == state
    assert input_responses(params) == answers
    reading = read_request_meta(params)
    assert request_state(params, reading) == state
    assert input_responses(params, reading) == answers


@pytest.mark.parametrize(
    ("meta", "caps"),
    [
        ({CLIENT_CAPABILITIES_KEY: {"roots": {}}}, ClientMrtrCapabilities(roots=True)),
        ({CLIENT_CAPABILITIES_KEY: None}, ClientMrtrCapabilities()),
        ({}, ClientMrtrCapabilities()),
        (
            {CLIENT_CAPABILITIES_KEY: {"sampling": True}, "progressToken": 1.5},
            ClientMrtrCapabilities(),
        ),
        ({CLIENT_CAPABILITIES_KEY: {"roots": 5}}, ClientMrtrCapabilities()),
        (
            [None, None, None, None, None, None, None, None, None, {"elicitation": {"url": {}}}],
            ClientMrtrCapabilities(ElicitationModes(url=True)),
        ),
        (
            [None, None, None, None, None, None, None, None, None, {}, None],
            ClientMrtrCapabilities(),
        ),
        (5, ClientMrtrCapabilities()),
    ],
)
def test_capabilities_are_those_of_a_meta_that_reads(
    meta: JSON, caps: ClientMrtrCapabilities
) -> None:
    """MRTR-CAP-8: the declared capabilities are the typed ``_meta``'s; a ``_meta`` failing its
    read anywhere (an over-long sequence form included) declares nothing, and is no error."""
    assert client_capabilities({"_meta": meta}) == caps
    assert client_capabilities({"_meta": meta}, read_request_meta({"_meta": meta})) == caps


def test_the_parsed_meta_keeps_only_typed_fallback_values() -> None:
    """A ``_meta`` that reads keeps ``inputResponses`` and ``requestState`` only when present
    and non-null, and its capabilities only when stated."""
    parsed = parse_request_meta({"requestState": None, "inputResponses": None})
    assert (parsed.request_state, parsed.input_responses, parsed.capabilities) == (None, None, None)
    parsed = parse_request_meta(
        {"requestState": "", "inputResponses": {}, CLIENT_CAPABILITIES_KEY: {}}
    )
    assert parsed.request_state == ""
    assert parsed.input_responses == {}
    assert parsed.capabilities == ClientMrtrCapabilities()


@pytest.mark.parametrize(
    ("method", "params", "message"),
    [
        (
            "tools/call",
            ["t", None, {"traceparent": 1}],
            "invalid type: integer `1`, expected a string",
        ),
        (
            "prompts/get",
            ["p", None, {"baggage": 2}],
            "invalid type: integer `2`, expected a string",
        ),
        (
            "resources/read",
            ["file:///r", {"tracestate": 3}],
            "invalid type: integer `3`, expected a string",
        ),
        ("tools/call", ["t", None, {}], None),
    ],
)
def test_a_sequence_form_params_meta_is_read_even_with_a_reading(
    method: str, params: JSON, message: str | None
) -> None:
    """MRTR-ROUND-3: the params read reuses a ``read_request_meta`` verdict only for the very
    ``_meta`` value it read; an array's ``_meta`` slot (which that reading never sees) is read
    itself, with or without a reading."""
    for reading in (None, read_request_meta(params)):
        error = method_params_error(method, params, reading)
        got = None if error is None else error.to_json()["message"]
        assert got == message


def test_input_responses_and_request_state_are_read_from_meta_in_both_forms() -> None:
    """MRTR-RETRY-1: `inputResponses` and `requestState` are RequestParamsMeta's sixth and
    seventh fields: read by name in the map form and by position in the sequence form."""
    by_name = parse_request_meta({"requestState": "st", "inputResponses": {"a": {"x": 1}}})
    slots: list[JSON] = [None, None, None, None, None, {"a": {"x": 1}}, "st", None, None, None]
    by_slot = parse_request_meta(slots)
    for meta in (by_name, by_slot):
        assert meta.input_responses == {"a": {"x": 1}}
        assert meta.request_state == "st"


def test_meta_protocol_version_must_be_a_string() -> None:
    """MRTR-RETRY-4: ``io.modelcontextprotocol/protocolVersion`` is neva's ``Option<String>``, so
    an integer fails the whole ``_meta`` parse with serde's invalid-type message."""
    from mcp_touchstone.mrtr._meta import MetaError, parse_request_meta

    with pytest.raises(MetaError) as exc:
        parse_request_meta({"io.modelcontextprotocol/protocolVersion": 5})
    assert str(exc.value) == "invalid type: integer `5`, expected a string"
    assert parse_request_meta({"io.modelcontextprotocol/protocolVersion": "2026-07-28"})


def test_meta_request_state_must_be_a_string() -> None:
    """MRTR-RETRY-4: ``_meta.requestState`` is an ``Option<String>``: an integer fails the parse
    with serde's message and ``null`` is absent."""
    from mcp_touchstone.mrtr._meta import MetaError, parse_request_meta

    with pytest.raises(MetaError) as exc:
        parse_request_meta({"requestState": 5})
    assert str(exc.value) == "invalid type: integer `5`, expected a string"
    assert parse_request_meta({"requestState": None}).request_state is None
    assert parse_request_meta({"requestState": "tok"}).request_state == "tok"


def test_the_sequence_form_of_meta_reads_request_state_from_its_slot() -> None:
    """MRTR-REQ-7: ``RequestParamsMeta``'s sequence form reads ``inputResponses`` and
    ``requestState`` from their declared slots (6th and 7th of 10), as the map form reads them
    by name."""
    from mcp_touchstone.mrtr._meta import parse_request_meta

    by_slot = parse_request_meta([None, None, None, None, None, {"a": 1}, "tok", None, None, None])
    assert by_slot.request_state == "tok"
    assert by_slot.input_responses == {"a": 1}
    by_name = parse_request_meta({"requestState": "tok", "inputResponses": {"a": 1}})
    assert by_name.request_state == "tok"
    assert by_name.input_responses == {"a": 1}
