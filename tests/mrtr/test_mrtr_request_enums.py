"""The unit-only enums inside an ``InputRequest``'s params, read as serde_derive and serde_json
read them (MRTR-REQ-6, MRTR-REQ-7): neva's ``Role`` (``types.rs``, ``rename_all =
"lowercase"``), ``ContextInclusion`` (``types/sampling.rs``, each variant renamed by hand),
``ToolChoiceMode`` (``types/sampling.rs``, ``rename_all = "lowercase"``) and the form
elicitation's ``ElicitationMode`` (``types/elicitation.rs``). neva decodes params with
``serde_json::from_value``, so each enum goes through ``Value::deserialize_enum``: a string, or
a map of one key whose value ``()`` reads (only ``null``). Expected messages are serde's, stated
by hand: ``Error::unknown_variant`` lists two variants as ```a` or `b``` and three or more as
``one of `a`, `b`, `c```; ``deserialize_enum`` refuses another JSON type with ``expected string
or map`` and a map of zero or several keys with ``expected map with a single key``; a
non-``null`` payload fails ``()``'s visitor (``expected unit``)."""

from __future__ import annotations

import pytest

from mcp_touchstone.mrtr import InputRequestError, decode_input_request
from mcp_touchstone.serde_json import JSON

_TEXT: JSON = {"type": "text", "text": "hi"}
_SAMPLING = "sampling/createMessage"


def _sampling(**members: JSON) -> dict[str, JSON]:
    params: dict[str, JSON] = {"messages": [], "maxTokens": 16}
    params.update(members)
    return {"method": _SAMPLING, "params": params}


def _with_role(role: JSON) -> dict[str, JSON]:
    return _sampling(messages=[{"role": role, "content": _TEXT}])


def _accepts(envelope: dict[str, JSON]) -> None:
    assert decode_input_request(envelope).params == envelope["params"]


def _refusal(envelope: JSON) -> str:
    with pytest.raises(InputRequestError) as exc:
        decode_input_request(envelope)
    return str(exc.value)


_ROLE_EXPECTED = "expected `user` or `assistant`"
_CONTEXT_EXPECTED = "expected one of `none`, `thisServer`, `allServers`"
_MODE_EXPECTED = "expected one of `auto`, `required`, `none`"


@pytest.mark.parametrize("role", ["user", "assistant", {"user": None}, {"assistant": None}])
def test_sampling_message_role_reads_a_name_or_serdes_map_form(role: JSON) -> None:
    """``Role`` reads ``user``/``assistant`` as a string or as serde_json's ``{"user": null}``."""
    _accepts(_with_role(role))


@pytest.mark.parametrize(
    ("role", "message"),
    [
        ("system", f"unknown variant `system`, {_ROLE_EXPECTED}"),
        ("User", f"unknown variant `User`, {_ROLE_EXPECTED}"),
        ({"system": None}, f"unknown variant `system`, {_ROLE_EXPECTED}"),
        (1, "invalid type: integer `1`, expected string or map"),
        (None, "invalid type: null, expected string or map"),
        ([], "invalid type: sequence, expected string or map"),
        ({}, "invalid value: map, expected map with a single key"),
        ({"user": None, "assistant": None}, "invalid value: map, expected map with a single key"),
        ({"user": 1}, "invalid type: integer `1`, expected unit"),
        ({"user": {}}, "invalid type: map, expected unit"),
    ],
)
def test_sampling_message_role_refusals_are_serdes(role: JSON, message: str) -> None:
    """A bad ``role`` fails with serde's words (``Role`` is not an ``Option``: ``null`` too)."""
    assert _refusal(_with_role(role)) == message


def test_sampling_message_role_is_required() -> None:
    """``SamplingMessage.role`` has no default: without it the message is missing a field."""
    envelope = _sampling(messages=[{"content": _TEXT}])
    assert _refusal(envelope) == "missing field `role`"


def test_sampling_message_role_reads_by_position_too() -> None:
    """In serde's sequence form ``[role, content]`` the role slot takes the map form as well."""
    ok = _sampling(messages=[[{"assistant": None}, _TEXT]])
    _accepts(ok)
    bad = _sampling(messages=[["bot", _TEXT]])
    assert _refusal(bad) == f"unknown variant `bot`, {_ROLE_EXPECTED}"


@pytest.mark.parametrize(
    "include",
    [None, "none", "thisServer", "allServers", {"none": None}, {"allServers": None}],
)
def test_include_context_reads_null_a_name_or_serdes_map_form(include: JSON) -> None:
    """``Option<ContextInclusion>``: ``null`` is ``None``; each variant reads in both forms."""
    envelope = _sampling(includeContext=include)
    _accepts(envelope)


@pytest.mark.parametrize(
    ("include", "message"),
    [
        ("both", f"unknown variant `both`, {_CONTEXT_EXPECTED}"),
        ("this_server", f"unknown variant `this_server`, {_CONTEXT_EXPECTED}"),
        ({"ThisServer": None}, f"unknown variant `ThisServer`, {_CONTEXT_EXPECTED}"),
        (True, "invalid type: boolean `true`, expected string or map"),
        (0, "invalid type: integer `0`, expected string or map"),
        ({"none": None, "thisServer": None}, "invalid value: map, expected map with a single key"),
        ({"none": "x"}, 'invalid type: string "x", expected unit'),
        ({"allServers": [None]}, "invalid type: sequence, expected unit"),
    ],
)
def test_include_context_refusals_are_serdes(include: JSON, message: str) -> None:
    """A bad ``includeContext`` fails with serde's words, three variants as ``one of``."""
    assert _refusal(_sampling(includeContext=include)) == message


@pytest.mark.parametrize("mode", ["auto", "required", "none", {"required": None}, {"none": None}])
def test_tool_choice_mode_reads_a_name_or_serdes_map_form(mode: JSON) -> None:
    """``ToolChoiceMode`` reads ``auto``/``required``/``none`` as a string or in the map form."""
    envelope = _sampling(toolChoice={"mode": mode})
    _accepts(envelope)


@pytest.mark.parametrize(
    ("choice", "message"),
    [
        ({"mode": "sometimes"}, f"unknown variant `sometimes`, {_MODE_EXPECTED}"),
        ({"mode": "Auto"}, f"unknown variant `Auto`, {_MODE_EXPECTED}"),
        ({"mode": {"any": None}}, f"unknown variant `any`, {_MODE_EXPECTED}"),
        ({"mode": None}, "invalid type: null, expected string or map"),
        ({"mode": 1.5}, "invalid type: floating point `1.5`, expected string or map"),
        ({"mode": {}}, "invalid value: map, expected map with a single key"),
        ({"mode": {"auto": False}}, "invalid type: boolean `false`, expected unit"),
        ({}, "missing field `mode`"),
        (["maybe"], f"unknown variant `maybe`, {_MODE_EXPECTED}"),
    ],
)
def test_tool_choice_mode_refusals_are_serdes(choice: JSON, message: str) -> None:
    """``ToolChoice.mode`` is required (the struct's ``Default`` derive is not
    ``#[serde(default)]``) and not an ``Option``; a bad one fails with serde's words."""
    assert _refusal(_sampling(toolChoice=choice)) == message


def _form_by_position(mode: JSON) -> dict[str, JSON]:
    """Form params in serde's sequence form ``[message, mode, requestedSchema, _meta]`` (the
    ``Option`` ``_meta`` has no ``#[serde(default)]``, so it needs its slot)."""
    return {"method": "elicitation/create", "params": ["hi", mode, {"properties": {}}, None]}


@pytest.mark.parametrize("mode", [None, "form", {"form": None}, {"url": None}])
def test_form_mode_slot_reads_null_a_name_or_serdes_map_form(mode: JSON) -> None:
    """``Option<ElicitationMode>`` in the form's mode slot takes ``null`` and both forms (array
    params are always the form variant, MRTR-REQ-7)."""
    _accepts(_form_by_position(mode))


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("page", "unknown variant `page`, expected `form` or `url`"),
        ({"page": None}, "unknown variant `page`, expected `form` or `url`"),
        (7, "invalid type: integer `7`, expected string or map"),
        ({"form": 0}, "invalid type: integer `0`, expected unit"),
    ],
)
def test_form_mode_slot_refusals_are_serdes(mode: JSON, message: str) -> None:
    """A bad mode slot fails with serde's words for a two-variant enum."""
    assert _refusal(_form_by_position(mode)) == message
