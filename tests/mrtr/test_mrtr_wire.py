"""Wire types and the InputRequest union (spec/mrtr.md MRTR-WIRE-*, MRTR-REQ-*)."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from pydantic import ValidationError

from mcp_touchstone.mrtr import (
    ElicitationMode,
    InputKind,
    InputRequestError,
    decode_input_request,
)
from mcp_touchstone.mrtr.wire import (
    CreateMessageResult,
    ElicitResult,
    InputRequiredResult,
    ListRootsResult,
)
from mcp_touchstone.serde_json import JSON
from tests.strategies.mrtr import json_values

FORM_PARAMS: dict[str, JSON] = {
    "message": "Your name?",
    "requestedSchema": {"type": "object", "properties": {}, "required": None},
}


def test_input_required_result_roundtrips_with_tag_and_envelope() -> None:
    """MRTR-WIRE-1: parse and re-emit keep the tag and flat params, with no mode: null invented."""
    parsed = InputRequiredResult.model_validate(
        {
            "resultType": "input_required",
            "inputRequests": {"ask_name": {"method": "elicitation/create", "params": FORM_PARAMS}},
            "requestState": "abc.def",
        }
    )
    assert parsed.request_state == "abc.def"
    back = parsed.to_json()
    assert back["resultType"] == "input_required"
    requests = back["inputRequests"]
    assert isinstance(requests, dict)
    envelope = requests["ask_name"]
    assert isinstance(envelope, dict)
    assert envelope["method"] == "elicitation/create"
    params = envelope["params"]
    assert isinstance(params, dict)
    assert params["message"] == "Your name?"
    assert "mode" not in params
    assert "Form" not in params


def test_input_required_result_omits_absent_fields() -> None:
    """MRTR-WIRE-1: absent inputRequests/requestState are omitted; the tag is a constant."""
    bare = InputRequiredResult.model_validate({"resultType": "input_required"})
    assert bare.to_json() == {"resultType": "input_required"}
    assert bare.requests() == {}
    with pytest.raises(ValidationError):
        InputRequiredResult.model_validate({"resultType": "complete"})
    with pytest.raises(ValidationError):
        InputRequiredResult.model_validate(
            {"resultType": "input_required", "inputRequests": {"a": {"method": "sorcery/summon"}}}
        )


@pytest.mark.parametrize(
    ("envelope", "kind"),
    [
        ({"method": "elicitation/create", "params": FORM_PARAMS}, InputKind.ELICITATION),
        (
            {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}},
            InputKind.SAMPLING,
        ),
        ({"method": "roots/list", "params": {}}, InputKind.ROOTS),
    ],
)
def test_every_input_kind_roundtrips_as_a_method_params_envelope(
    envelope: JSON, kind: InputKind
) -> None:
    """MRTR-REQ-1: every kind writes method and params and survives the round trip."""
    request = decode_input_request(envelope)
    assert request.kind is kind
    written = request.to_json()
    assert written["method"] == kind.value
    assert "params" in written
    assert decode_input_request(written).kind is kind


@pytest.mark.parametrize(
    "envelope",
    [
        {"method": "roots/list", "params": {}},
        {"method": "roots/list"},
        {"method": "roots/list", "params": None},
        ["roots/list"],
        ["roots/list", None],
    ],
)
def test_a_roots_envelope_decodes_with_or_without_params(envelope: JSON) -> None:
    """MRTR-REQ-1, MRTR-REQ-7: absent or null params read as {}; the array form works too."""
    assert decode_input_request(envelope).method == "roots/list"


@pytest.mark.parametrize("method", ["elicitation/create", "sampling/createMessage"])
def test_a_paramless_envelope_still_fails_for_kinds_that_need_params(method: str) -> None:
    """MRTR-REQ-1, MRTR-REQ-4, MRTR-REQ-6: without params these kinds fail with their own error."""
    with pytest.raises(InputRequestError, match="missing field"):
        decode_input_request({"method": method})


def test_an_unknown_input_kind_is_rejected_by_name() -> None:
    """MRTR-REQ-2: the error names the unknown method."""
    with pytest.raises(InputRequestError) as exc:
        decode_input_request({"method": "sorcery/summon", "params": {}})
    assert str(exc.value) == "unknown MRTR input request method `sorcery/summon`"


@pytest.mark.parametrize("mode", [None, 0, True, {"form": True}, ["form"]])
def test_a_non_string_mode_is_refused(mode: JSON) -> None:
    """MRTR-REQ-3: a present, non-string mode is refused (neva's elicitation test list)."""
    with pytest.raises(InputRequestError, match="`mode` must be a string"):
        decode_input_request(
            {"method": "elicitation/create", "params": {**FORM_PARAMS, "mode": mode}}
        )


def test_modes_select_the_variant() -> None:
    """MRTR-REQ-3, MRTR-REQ-5: 'url' selects the URL variant; absent or 'form' the form variant."""
    url: JSON = {"message": "m", "mode": "url", "url": "https://e.io"}
    assert decode_input_request({"method": "elicitation/create", "params": url}).mode is (
        ElicitationMode.URL
    )
    form = decode_input_request(
        {"method": "elicitation/create", "params": {**FORM_PARAMS, "mode": "form"}}
    )
    assert form.mode is ElicitationMode.FORM
    with pytest.raises(InputRequestError, match="unknown variant"):
        decode_input_request(
            {"method": "elicitation/create", "params": {**FORM_PARAMS, "mode": "bogus"}}
        )


@pytest.mark.parametrize(
    ("schema_property", "ok"),
    [
        ({"type": "string", "minLength": 1, "format": "email"}, True),
        ({"type": "number", "minimum": 0.5}, True),
        ({"type": "boolean", "default": True}, True),
        ({"type": "string", "enum": ["a", "b"]}, True),
        ({"type": "strin"}, False),
        ({"title": 5}, False),
        ("string", False),
        ({"minLength": -1, "minimum": "x", "default": 3}, False),
        ({}, False),
        ({"type": "object"}, False),
        ({"type": "string", "minLength": -1}, False),
        ({"type": "string", "oneOf": [{"const": "a", "title": "A"}]}, True),
        ({"type": "string", "oneOf": [{"const": "a"}]}, False),
        ({"type": "array", "items": {"enum": ["a"]}, "default": ["a"]}, True),
        ({"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}}, True),
        ({"type": "array", "items": {"type": "string"}}, False),
        ({"type": "array"}, False),
        ({"type": "number", "minLength": "x"}, True),
    ],
)
def test_requested_schema_properties(schema_property: JSON, ok: bool) -> None:
    """MRTR-REQ-4: a property schema is read the way neva's Schema reader dispatches, on
    its type and then on its members (titled and multi-select enums included)."""
    params: JSON = {"message": "m", "requestedSchema": {"properties": {"p": schema_property}}}
    envelope: JSON = {"method": "elicitation/create", "params": params}
    if ok:
        decode_input_request(envelope)
    else:
        with pytest.raises(InputRequestError):
            decode_input_request(envelope)


@pytest.mark.parametrize(
    "params",
    [
        {"messages": [], "maxTokens": 2**31},
        {"messages": [], "maxTokens": True},
        {"messages": [{"role": "robot", "content": {}}], "maxTokens": 1},
        {"messages": [], "maxTokens": 1, "includeContext": "everything"},
        {"messages": [], "maxTokens": 1, "stopSequences": [1]},
        {"messages": [], "maxTokens": 1, "toolChoice": {"mode": "always"}},
        {"messages": [], "maxTokens": 1, "toolChoice": []},
        {"messages": [], "maxTokens": 1, "modelPreferences": {"speedPriority": True}},
        {"messages": [], "maxTokens": 1, "modelPreferences": {"hints": [["n", 1]]}},
        {"messages": [], "maxTokens": 1, "tools": "all"},
        {"messages": [{"role": "user", "content": None}], "maxTokens": 1},
        {"messages": [{"role": "user", "content": "hi"}], "maxTokens": 1},
    ],
)
def test_sampling_params_are_typed(params: JSON) -> None:
    """MRTR-REQ-6: maxTokens is an i32, roles, includeContext and toolChoice.mode are enums,
    model preferences and lists are typed."""
    with pytest.raises(InputRequestError):
        decode_input_request({"method": "sampling/createMessage", "params": params})


@pytest.mark.parametrize(
    ("method", "params", "ok"),
    [
        ("elicitation/create", ["m", None, {"properties": {}}, None], True),
        ("elicitation/create", ["m", None, ["object", {}, ["a"]], {"k": 1}], True),
        ("elicitation/create", ["m"], False),
        ("elicitation/create", ["m", None, {"properties": {}}], False),
        ("elicitation/create", ["m", None, {"properties": {}}, None, None], False),
        ("elicitation/create", ["m", None, [{}], None], False),
        ("sampling/createMessage", [[["assistant", []]], 1, *[None] * 8], True),
        ("sampling/createMessage", [[["robot", []]], 1, *[None] * 8], False),
        ("sampling/createMessage", [[], 1, *[None] * 7], False),
        ("sampling/createMessage", [[], 1, None, None, [0.5, [["h"]], None, 1], *[None] * 5], True),
        ("roots/list", [None], True),
        ("roots/list", [], False),
        ("roots/list", [None, None], False),
    ],
)
def test_params_read_from_the_sequence_form(method: str, params: JSON, ok: bool) -> None:
    """MRTR-REQ-7: each kind's params struct (and the structs inside it) also reads from an
    array of its fields in declared order; only defaulted fields may be left off the end."""
    envelope: JSON = {"method": method, "params": params}
    if ok:
        request = decode_input_request(envelope)
        assert request.mode in (None, ElicitationMode.FORM)
    else:
        with pytest.raises(InputRequestError):
            decode_input_request(envelope)


def test_roots_meta_must_parse() -> None:
    """MRTR-REQ-6, MRTR-RETRY-4: roots params carry only a request _meta, parsed as such."""
    decode_input_request({"method": "roots/list", "params": {"_meta": {"progressToken": 1}}})
    with pytest.raises(InputRequestError):
        decode_input_request({"method": "roots/list", "params": {"_meta": {"progressToken": []}}})


@given(json_values)
def test_decode_is_total_with_a_typed_error(value: JSON) -> None:
    """MRTR-REQ-1, MRTR-REQ-7: any JSON value decodes or raises InputRequestError."""
    with contextlib.suppress(InputRequestError):
        decode_input_request(value)


def test_answer_types() -> None:
    """MRTR-WIRE-2: ElicitResult needs only action, writes content null; Root.name is required;
    a ListRootsResult's _meta is a typed request _meta."""
    answer = ElicitResult.model_validate({"action": "accept", "extra": 1})
    assert answer.to_json() == {"action": "accept", "content": None}
    with pytest.raises(ValidationError):
        ElicitResult.model_validate({"action": "maybe"})
    with pytest.raises(ValidationError):
        ElicitResult.model_validate(12345)
    CreateMessageResult.model_validate(
        {"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"}
    )
    with pytest.raises(ValidationError):
        CreateMessageResult.model_validate({"role": "assistant", "content": {"type": "text"}})
    roots = ListRootsResult.model_validate({"roots": [{"uri": "file:///work", "name": "work"}]})
    assert roots.roots[0].name == "work"
    with pytest.raises(ValidationError):
        ListRootsResult.model_validate({"roots": [{"uri": "file:///work"}]})
    ListRootsResult.model_validate({"roots": [], "_meta": {"progressToken": "p"}})
    with pytest.raises(ValidationError):
        ListRootsResult.model_validate({"roots": [], "_meta": {"progressToken": 1.5}})


@pytest.mark.parametrize(
    "params",
    [
        {"messages": [], "maxTokens": 5, "temperature": "hot"},
        # serde's sequence form of neva's CreateMessageRequestParams: temperature is field 7.
        [[], 5, None, None, None, None, "hot", None, None, None],
    ],
)
def test_sampling_temperature_is_an_f32_in_both_struct_forms(params: JSON) -> None:
    """MRTR-REQ-7: ``temperature`` is neva's ``Option<f32>``, so a string fails with serde's
    invalid-type message in the object form and in the sequence form, read by position."""
    from mcp_touchstone.mrtr import InputRequestError, decode_input_request

    with pytest.raises(InputRequestError) as exc:
        decode_input_request({"method": "sampling/createMessage", "params": params})
    assert str(exc.value) == 'invalid type: string "hot", expected f32'
    ok: list[JSON] = [[], 5, None, None, None, None, 0.5, None, None, None]
    assert decode_input_request({"method": "sampling/createMessage", "params": ok}).params == ok


def test_input_required_result_writes_request_state_back() -> None:
    """MRTR-WIRE-1: a parsed ``InputRequiredResult`` re-emits ``requestState`` under its wire
    name."""
    from mcp_touchstone.mrtr.wire import InputRequiredResult

    parsed = InputRequiredResult.model_validate(
        {"resultType": "input_required", "requestState": "abc.def"}
    )
    assert parsed.to_json() == {"resultType": "input_required", "requestState": "abc.def"}


def test_input_request_envelope_without_method_names_the_field() -> None:
    """MRTR-REQ-1: an envelope object without ``method`` fails with serde's ``missing field
    `method```."""
    from mcp_touchstone.mrtr import InputRequestError, decode_input_request

    with pytest.raises(InputRequestError) as exc:
        decode_input_request({"params": {"message": "m"}})
    assert str(exc.value) == "missing field `method`"


def test_form_string_formats_are_neva_four() -> None:
    """MRTR-REQ-4: a form property's ``format`` is one of neva's ``email``, ``uri``, ``date`` and
    ``date-time``; any other is serde's unknown variant."""
    from mcp_touchstone.mrtr import InputRequestError, decode_input_request

    def form(fmt: str) -> JSON:
        prop: dict[str, JSON] = {"type": "string", "format": fmt}
        schema: dict[str, JSON] = {"type": "object", "properties": {"p": prop}}
        return {
            "method": "elicitation/create",
            "params": {"message": "m", "requestedSchema": schema},
        }

    for fmt in ("email", "uri", "date", "date-time"):
        assert decode_input_request(form(fmt)).kind.value == "elicitation/create"
    with pytest.raises(InputRequestError) as exc:
        decode_input_request(form("time"))
    assert str(exc.value) == (
        "unknown variant `time`, expected one of `email`, `uri`, `date`, `date-time`"
    )


def test_roots_params_of_the_wrong_type_name_the_struct() -> None:
    """MRTR-REQ-7: ``roots/list`` params that are neither an object nor a sequence fail with
    serde's invalid-type message naming ``ListRootsRequestParams``."""
    from mcp_touchstone.mrtr import InputRequestError, decode_input_request

    with pytest.raises(InputRequestError) as exc:
        decode_input_request({"method": "roots/list", "params": 5})
    assert str(exc.value) == "invalid type: integer `5`, expected struct ListRootsRequestParams"


def test_input_required_result_refuses_input_requests_that_are_not_a_map() -> None:
    """MRTR-WIRE-1: ``inputRequests`` is a map or absent; a list, a string or a number is a
    validation error, not read as absent."""
    from mcp_touchstone.mrtr.wire import InputRequiredResult

    bads: list[JSON] = [[], "x", 5]
    for bad in bads:
        with pytest.raises(ValidationError):
            InputRequiredResult.model_validate(
                {"resultType": "input_required", "inputRequests": bad}
            )
    absent = InputRequiredResult.model_validate(
        {"resultType": "input_required", "inputRequests": None}
    )
    assert absent.requests() == {}
