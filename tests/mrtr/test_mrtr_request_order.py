"""The order in which an ``InputRequest``'s params are checked, stated by hand from serde's
semantics (MRTR-REQ-6, MRTR-REQ-7).

neva reads params with ``serde_json::from_value``; its ``serde_json`` has no
``preserve_order``, so a ``Value`` object is a ``BTreeMap`` and serde_derive's visitor sees the
present keys in sorted (byte) order, failing on the first bad one, ignoring unknown keys (no
struct here has ``deny_unknown_fields``), and only after the loop reports the first missing
required field in declaration order (``Option`` and ``#[serde(default)]`` fields are never
missing). A nested struct is read, the same way, when its field's turn comes. ``null`` is
``None`` for an ``Option`` and a type error for anything else. A sequence form reads its slots
in declared order, each decoded before the next slot (or the length) is judged.
"""

from __future__ import annotations

import pytest

from mcp_touchstone.mrtr import InputRequestError, decode_input_request
from mcp_touchstone.serde_json import JSON

_SAMPLING = "sampling/createMessage"
_ELICIT = "elicitation/create"
_TEXT: JSON = {"type": "text", "text": "hi"}
_SCHEMA: JSON = {"type": "object", "properties": {}}
_TYPES = "expected one of `none`, `array`, `string`, `number`, `integer`, `boolean`, `object`"


def _refusal(method: str, params: JSON) -> str:
    with pytest.raises(InputRequestError) as exc:
        decode_input_request({"method": method, "params": params})
    return str(exc.value)


def _accepts(method: str, params: JSON) -> None:
    assert decode_input_request({"method": method, "params": params}).params == params


def test_sampling_two_bad_fields_report_the_one_sorting_first() -> None:
    """``maxTokens`` sorts before ``messages``, so its type error is the one reported."""
    params: JSON = {"messages": 5, "maxTokens": "x"}
    assert _refusal(_SAMPLING, params) == 'invalid type: string "x", expected i32'


def test_sampling_include_context_is_read_before_max_tokens() -> None:
    """``includeContext`` is declared after ``maxTokens`` but sorts before it."""
    params: JSON = {"messages": [], "maxTokens": 1.5, "includeContext": "some"}
    assert _refusal(_SAMPLING, params) == (
        "unknown variant `some`, expected one of `none`, `thisServer`, `allServers`"
    )


def test_sampling_stop_sequences_sort_before_system_prompt() -> None:
    """``stopSequences`` < ``systemPrompt`` in byte order, the reverse of their declaration."""
    params: JSON = {"messages": [], "maxTokens": 1, "systemPrompt": 1, "stopSequences": 2}
    assert _refusal(_SAMPLING, params) == "invalid type: integer `2`, expected a sequence"


def test_sampling_tool_choice_sorts_before_tools() -> None:
    """``toolChoice`` < ``tools`` (``C`` is 0x43, ``s`` 0x73), the reverse of their declaration."""
    params: JSON = {"messages": [], "maxTokens": 1, "tools": 5, "toolChoice": {"mode": "x"}}
    assert _refusal(_SAMPLING, params) == (
        "unknown variant `x`, expected one of `auto`, `required`, `none`"
    )


def test_a_bad_present_field_beats_a_missing_one() -> None:
    """``maxTokens`` is missing but ``temperature`` is mistyped: the loop fails first."""
    params: JSON = {"messages": [], "temperature": "hot"}
    assert _refusal(_SAMPLING, params) == 'invalid type: string "hot", expected f32'


def test_missing_fields_are_reported_in_declaration_order() -> None:
    """With both missing, ``messages`` (declared first) is reported, though it sorts second."""
    assert _refusal(_SAMPLING, {}) == "missing field `messages`"
    assert _refusal(_SAMPLING, {"messages": []}) == "missing field `maxTokens`"


def test_a_message_missing_both_fields_reports_role() -> None:
    """``SamplingMessage`` declares ``role`` before ``content`` (which sorts first)."""
    params: JSON = {"messages": [{}], "maxTokens": 1}
    assert _refusal(_SAMPLING, params) == "missing field `role`"


def test_a_message_reads_content_before_role() -> None:
    """``content`` < ``role``: a null content is reported before an unknown role."""
    params: JSON = {"messages": [{"role": "system", "content": None}], "maxTokens": 1}
    assert _refusal(_SAMPLING, params) == (
        "data did not match any variant of untagged enum OneOrMany"
    )


def test_a_message_bad_content_beats_a_missing_role() -> None:
    """Inside a nested struct too, a bad present field beats a missing one."""
    params: JSON = {"messages": [{"content": 5}], "maxTokens": 1}
    assert _refusal(_SAMPLING, params) == (
        "data did not match any variant of untagged enum OneOrMany"
    )


def test_a_nested_error_is_reported_at_its_fields_turn() -> None:
    """A message's missing ``role`` fails when ``messages`` is read, before ``stopSequences``."""
    params: JSON = {"messages": [{"content": _TEXT}], "maxTokens": 1, "stopSequences": 5}
    assert _refusal(_SAMPLING, params) == "missing field `role`"


def test_a_nested_error_loses_to_an_outer_field_sorting_earlier() -> None:
    """A bad ``maxTokens`` is read before the bad message inside ``messages``."""
    params: JSON = {"messages": [{"role": "bogus", "content": _TEXT}], "maxTokens": "x"}
    assert _refusal(_SAMPLING, params) == 'invalid type: string "x", expected i32'


def test_a_nested_missing_field_beats_an_outer_missing_field() -> None:
    """``toolChoice``'s missing ``mode`` fails in the loop, before the missing ``maxTokens``."""
    params: JSON = {"messages": [], "toolChoice": {}}
    assert _refusal(_SAMPLING, params) == "missing field `mode`"


def test_model_preferences_read_in_sorted_order() -> None:
    """``intelligencePriority`` sorts before ``speedPriority`` (declared the other way round)."""
    prefs: JSON = {"speedPriority": "b", "intelligencePriority": "c"}
    params: JSON = {"messages": [], "maxTokens": 1, "modelPreferences": prefs}
    assert _refusal(_SAMPLING, params) == 'invalid type: string "c", expected f32'


def test_model_preferences_hints_sort_between_the_priorities() -> None:
    """``costPriority`` < ``hints`` < ``intelligencePriority``: the hints error comes second."""
    prefs: JSON = {"hints": [{"name": 1}], "intelligencePriority": "c"}
    params: JSON = {"messages": [], "maxTokens": 1, "modelPreferences": prefs}
    assert _refusal(_SAMPLING, params) == "invalid type: integer `1`, expected a string"
    prefs = {"hints": [{"name": 1}], "costPriority": "a"}
    params = {"messages": [], "maxTokens": 1, "modelPreferences": prefs}
    assert _refusal(_SAMPLING, params) == 'invalid type: string "a", expected f32'


def test_unknown_keys_are_ignored_wherever_they_sort() -> None:
    """Keys naming no field (before, between, after the fields) are skipped, whatever they hold."""
    params: JSON = {
        "Aardvark": {"x": 1},
        "_meta": 5,
        "messages": [{"role": "user", "content": _TEXT, "extra": None}],
        "maxTokens": 1,
        "task": {"ttl": "never"},
        "zzz": None,
        "modelPreferences": {"hints": [{"name": "m", "other": 1}], "weight": "x"},
    }
    _accepts(_SAMPLING, params)


def test_the_rust_field_name_of_a_renamed_field_is_an_unknown_key() -> None:
    """``max_tokens`` is ``maxTokens``'s Rust name; serde reads only the renamed key."""
    params: JSON = {"messages": [], "max_tokens": 1}
    assert _refusal(_SAMPLING, params) == "missing field `maxTokens`"


@pytest.mark.parametrize(
    ("member", "value", "message"),
    [
        ("maxTokens", None, "invalid type: null, expected i32"),
        ("messages", None, "invalid type: null, expected a sequence"),
    ],
)
def test_null_for_a_required_field_is_a_type_error(member: str, value: JSON, message: str) -> None:
    """A ``null`` for a field that is not an ``Option`` is read as the field's type and refused."""
    params: dict[str, JSON] = {"messages": [], "maxTokens": 1}
    params[member] = value
    assert _refusal(_SAMPLING, params) == message


def test_null_for_every_option_field_is_none() -> None:
    """Each ``Option`` field of the sampling params reads ``null`` as ``None``."""
    optional = (
        "includeContext",
        "metadata",
        "modelPreferences",
        "systemPrompt",
        "temperature",
        "stopSequences",
        "tools",
        "toolChoice",
    )
    params: dict[str, JSON] = {"messages": [], "maxTokens": 1}
    params.update(dict.fromkeys(optional))
    _accepts(_SAMPLING, params)


def test_form_bad_mode_beats_a_missing_message() -> None:
    """A form's unknown ``mode`` fails in the loop, before the missing ``message``."""
    params: JSON = {"mode": "bogus", "requestedSchema": _SCHEMA}
    assert _refusal(_ELICIT, params) == "unknown variant `bogus`, expected `form` or `url`"


def test_form_bad_schema_beats_a_missing_message() -> None:
    """A ``requestedSchema`` that is no struct fails before the missing ``message``."""
    assert _refusal(_ELICIT, {"requestedSchema": 5}) == (
        "invalid type: integer `5`, expected struct RequestSchema"
    )


def test_form_missing_fields_in_declaration_order() -> None:
    """``message`` is declared before ``requestedSchema`` and is the one reported."""
    assert _refusal(_ELICIT, {}) == "missing field `message`"
    assert _refusal(_ELICIT, {"message": "m"}) == "missing field `requestedSchema`"


def test_request_schema_reads_properties_before_type() -> None:
    """``properties`` < ``required`` < ``type``: a bad ``properties`` beats a bad ``type``."""
    params: JSON = {"message": "m", "requestedSchema": {"type": "bogus", "properties": 5}}
    assert _refusal(_ELICIT, params) == "invalid type: integer `5`, expected a map"


def test_request_schema_bad_required_beats_missing_properties() -> None:
    """A mistyped ``required`` fails in the loop, before the missing ``properties``."""
    params: JSON = {"message": "m", "requestedSchema": {"required": 5}}
    assert _refusal(_ELICIT, params) == "invalid type: integer `5`, expected a sequence"


def test_request_schema_null_type_is_refused() -> None:
    """``type`` has ``#[serde(default)]`` but is not an ``Option``: ``null`` is read and refused."""
    params: JSON = {"message": "m", "requestedSchema": {"type": None, "properties": {}}}
    assert _refusal(_ELICIT, params) == "invalid type: null, expected string or map"


def test_request_schema_bad_type_beats_missing_properties() -> None:
    """An unknown ``type`` fails in the loop, before the missing ``properties``."""
    params: JSON = {"message": "m", "requestedSchema": {"type": "bogus"}}
    assert _refusal(_ELICIT, params) == f"unknown variant `bogus`, {_TYPES}"


def test_properties_are_read_in_sorted_key_order() -> None:
    """Of two bad property schemas, the one whose name sorts first is reported."""
    schema: JSON = {"properties": {"b": 1, "B": {"type": "date"}, "a": {}}}
    params: JSON = {"message": "m", "requestedSchema": schema}
    assert _refusal(_ELICIT, params) == 'Unknown or missing type field: Some("date")'  # `B`


def test_url_bad_url_beats_a_missing_message() -> None:
    """A URL elicitation's mistyped ``url`` fails before its missing ``message``."""
    params: JSON = {"mode": "url", "url": 5}
    assert _refusal(_ELICIT, params) == "invalid type: integer `5`, expected a string"


def test_url_missing_fields_in_declaration_order() -> None:
    """``message`` is declared before ``url``."""
    assert _refusal(_ELICIT, {"mode": "url"}) == "missing field `message`"


def test_a_sequence_form_slot_is_read_before_the_length_is_judged() -> None:
    """A too-short array whose first slot is bad reports that slot, not the length."""
    assert _refusal(_SAMPLING, ["x"]) == 'invalid type: string "x", expected a sequence'
    assert _refusal(_SAMPLING, [[]]) == (
        "invalid length 1, expected struct CreateMessageRequestParams with 10 elements"
    )


def test_a_sequence_form_slot_is_read_before_extra_elements_are_judged() -> None:
    """A too-long array whose second slot is bad reports that slot, not the extra elements."""
    params: JSON = [[], "x", *([None] * 8), 1]
    assert _refusal(_SAMPLING, params) == 'invalid type: string "x", expected i32'


def test_a_sequence_form_reads_its_slots_in_declared_order() -> None:
    """In an array, ``messages`` (slot 0) is read before ``maxTokens`` (slot 1)."""
    params: JSON = [5, "x", *([None] * 8)]
    assert _refusal(_SAMPLING, params) == "invalid type: integer `5`, expected a sequence"


def test_an_envelope_array_reads_method_before_its_length() -> None:
    """An envelope array ``[method, params?]`` too long and with a bad method reports the method."""
    with pytest.raises(InputRequestError) as exc:
        decode_input_request([5, {}, None])
    assert str(exc.value) == "invalid type: integer `5`, expected a string"
