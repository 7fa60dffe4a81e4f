"""The ``InputRequest`` union: ``{"method", "params"}`` envelopes a server asks a client to
fulfil (rules MRTR-REQ-*).

Decoding mirrors neva's hand-written ``Deserialize``: absent or ``null`` params read as
``{}`` and are then judged by the kind's own params type; an unknown method is refused
by name; an elicitation is the URL variant exactly when ``mode`` is the string
``"url"``, and a ``mode`` that is present but not a string is an error.

The types live in :mod:`mcp_touchstone.mrtr._input` (re-exported here), so the capability
model can name them without importing this decoder, which reads request ``_meta``: the
modules form a line ``_input`` <- ``_capabilities`` <- ``_meta`` <- ``_requests``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from mcp_touchstone._serde import (
    I32_MAX,
    I32_MIN,
    USIZE_MAX,
    expecting_struct,
    fewer_elements,
    invalid_length,
    unexpected,
    unit_variant_error,
)
from mcp_touchstone.mrtr._input import ElicitationMode, InputKind, InputRequest, InputRequestError
from mcp_touchstone.mrtr._meta import MetaError, parse_request_meta
from mcp_touchstone.mrtr._structs import struct_members
from mcp_touchstone.serde_json import JSON

__all__ = [
    "ElicitationMode",
    "InputKind",
    "InputRequest",
    "InputRequestError",
    "decode_input_request",
]

_T = TypeVar("_T")


def _type_error(value: JSON, expected: str) -> InputRequestError:
    return InputRequestError(f"invalid type: {unexpected(value)}, expected {expected}")


def _unit_variant(value: JSON, variants: tuple[str, ...]) -> None:
    """A derived unit-only enum read from a ``serde_json::Value`` (neva decodes params with
    ``from_value``): a variant name or serde_json's map form ``{"<name>": null}``, else serde's
    own refusal (:func:`~mcp_touchstone._serde.unit_variant_error`)."""
    refused = unit_variant_error(value, variants)
    if refused is not None:
        raise InputRequestError(refused)


def _field(obj: dict[str, JSON], name: str, kind: type[_T], expected: str) -> _T:
    """A required member of JSON type ``kind``, or serde's missing-field / type error."""
    if name not in obj:
        raise InputRequestError(f"missing field `{name}`")
    value = obj[name]
    if not isinstance(value, kind):
        raise _type_error(value, expected)
    return value


def _require_str(obj: dict[str, JSON], name: str) -> None:
    _field(obj, name, str, "a string")


def _optional_str(obj: dict[str, JSON], name: str) -> None:
    value = obj.get(name)
    if value is not None and not isinstance(value, str):
        raise _type_error(value, "a string")


def _optional_str_list(obj: dict[str, JSON], name: str) -> None:
    value = obj.get(name)
    if value is None:
        return
    if not isinstance(value, list):
        raise _type_error(value, "a sequence")
    for item in value:
        if not isinstance(item, str):
            raise _type_error(item, "a string")


def _is_int_in(value: JSON, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


_PROPERTY_TYPES = ("none", "array", "string", "number", "integer", "boolean", "object")
_STRING_FORMATS = ("email", "uri", "date", "date-time")
_ELICITATION_MODES = ("form", "url")  # neva's ElicitationMode, rename_all = "lowercase"
_ROLES = ("user", "assistant")  # neva's Role (types.rs), rename_all = "lowercase"
# neva's ContextInclusion (types/sampling.rs), each variant renamed by hand.
_CONTEXT_INCLUSIONS = ("none", "thisServer", "allServers")
_TOOL_CHOICE_MODES = ("auto", "required", "none")  # ToolChoiceMode, rename_all = "lowercase"


def _opt(obj: dict[str, JSON], name: str, pred: Callable[[JSON], bool]) -> bool:
    """An ``Option<T>`` member: absent or ``null``, or a value ``pred`` accepts."""
    item = obj.get(name)
    return item is None or pred(item)


def _is_str(value: JSON) -> bool:
    return isinstance(value, str)


def _is_usize(value: JSON) -> bool:
    return _is_int_in(value, 0, USIZE_MAX)


def _is_f64(value: JSON) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_str_list(value: JSON) -> bool:
    return isinstance(value, list) and all(isinstance(i, str) for i in value)


def _is_enum_option(value: JSON) -> bool:
    """neva's ``EnumOption``: ``const`` and ``title`` both required strings."""
    return (
        isinstance(value, dict)
        and isinstance(value.get("const"), str)
        and isinstance(value.get("title"), str)
    )


def _is_enum_option_list(value: JSON) -> bool:
    return isinstance(value, list) and all(_is_enum_option(i) for i in value)


def _required(obj: dict[str, JSON], name: str, pred: Callable[[JSON], bool]) -> bool:
    return name in obj and pred(obj[name])


def _schema_ok(value: JSON) -> bool:
    """Whether a ``requestedSchema.properties`` value decodes as neva's ``Schema``.

    neva's ``Schema`` is not untagged: its hand-written reader requires an object and
    dispatches on ``type`` (a string), then on which members are present, and decodes
    the chosen struct alone (MRTR-REQ-4): ``string`` with ``enum`` (and ``enumNames``:
    legacy enum; without: untitled single-select), with ``oneOf`` (titled single-select),
    else a string schema; ``array`` with an object ``items`` holding ``anyOf`` (titled
    multi-select) or ``enum`` (untitled multi-select), anything else refused; ``number``
    and ``integer``; ``boolean``. A missing, non-string or other ``type`` is refused.
    Every struct reads ``title`` and ``description`` as optional strings and keeps
    unknown members (``#[serde(flatten)] extra``).
    """
    if not isinstance(value, dict):
        return False
    kind = value.get("type")
    common = _opt(value, "title", _is_str) and _opt(value, "description", _is_str)
    if kind == "string":
        if "enum" in value:
            tail = (
                _opt(value, "enumNames", _is_str_list)
                if "enumNames" in value
                else _opt(value, "default", _is_str)
            )
            return common and _required(value, "enum", _is_str_list) and tail
        if "oneOf" in value:
            return (
                common
                and _required(value, "oneOf", _is_enum_option_list)
                and _opt(value, "default", _is_str)
            )
        return (
            common
            and _opt(value, "minLength", _is_usize)
            and _opt(value, "maxLength", _is_usize)
            and _opt(value, "format", lambda x: unit_variant_error(x, _STRING_FORMATS) is None)
        )
    if kind == "array":
        items = value.get("items")
        if not isinstance(items, dict):
            return False
        if "anyOf" in items:
            items_ok = _required(items, "anyOf", _is_enum_option_list)
        elif "enum" in items:
            items_ok = _opt(
                items, "type", lambda x: unit_variant_error(x, _PROPERTY_TYPES) is None
            ) and _required(items, "enum", _is_str_list)
        else:
            return False
        return (
            common
            and items_ok
            and _opt(value, "maxItems", _is_usize)
            and _opt(value, "minItems", _is_usize)
            and _opt(value, "default", _is_str_list)
        )
    if kind in ("number", "integer"):
        return common and _opt(value, "minimum", _is_f64) and _opt(value, "maximum", _is_f64)
    if kind == "boolean":
        return common and _opt(value, "default", lambda x: isinstance(x, bool))
    return False


def _struct(
    value: JSON, name: str, fields: tuple[str, ...], defaulted: frozenset[str] = frozenset()
) -> dict[str, JSON]:
    """A derived params struct's members, from an object or serde's sequence form."""
    return struct_members(value, name, fields, InputRequestError, defaulted)


def _check_form(value: JSON) -> None:
    params = _struct(
        value,
        "ElicitRequestFormParams",
        ("message", "mode", "requestedSchema", "_meta"),
        frozenset({"mode"}),
    )
    _require_str(params, "message")
    mode = params.get("mode")
    if mode is not None:  # Option<ElicitationMode>: null is None
        _unit_variant(mode, _ELICITATION_MODES)
    if "requestedSchema" not in params:
        raise InputRequestError("missing field `requestedSchema`")
    schema = _struct(
        params["requestedSchema"],
        "RequestSchema",
        ("type", "properties", "required"),
        frozenset({"type"}),
    )
    if "type" in schema:
        _unit_variant(schema["type"], _PROPERTY_TYPES)
    properties = _field(schema, "properties", dict, "a map")
    for name, item in properties.items():
        if not _schema_ok(item):
            raise InputRequestError(f"property `{name}` is not a schema neva's `Schema` reads")
    _optional_str_list(schema, "required")


def _check_url(params: dict[str, JSON]) -> None:
    _require_str(params, "message")
    _require_str(params, "url")


_SAMPLING_FIELDS = (
    "messages",
    "maxTokens",
    "includeContext",
    "metadata",
    "modelPreferences",
    "systemPrompt",
    "temperature",
    "stopSequences",
    "tools",
    "toolChoice",
)
_PRIORITIES = ("costPriority", "speedPriority", "intelligencePriority")


def _optional_f32(obj: dict[str, JSON], name: str) -> None:
    if not _opt(obj, name, _is_f64):
        raise _type_error(obj[name], "f32")


def _check_model_preferences(value: JSON) -> None:
    prefs = _struct(
        value,
        "ModelPreferences",
        ("costPriority", "hints", "speedPriority", "intelligencePriority"),
    )
    for name in _PRIORITIES:
        _optional_f32(prefs, name)
    hints = prefs.get("hints")
    if hints is None:
        return
    if not isinstance(hints, list):
        raise _type_error(hints, "a sequence")
    for hint in hints:
        _optional_str(_struct(hint, "ModelHint", ("name",)), "name")


def _check_sampling(value: JSON) -> None:
    params = _struct(value, "CreateMessageRequestParams", _SAMPLING_FIELDS)
    messages = _field(params, "messages", list, "a sequence")
    for item in messages:
        message = _struct(item, "SamplingMessage", ("role", "content"))
        if "role" not in message:
            raise InputRequestError("missing field `role`")
        _unit_variant(message["role"], _ROLES)  # Role, not Option: null is refused
        if "content" not in message:
            raise InputRequestError("missing field `content`")
        if not isinstance(message["content"], dict | list):
            # OneOrMany<Content>: one internally tagged item or a list; never a scalar or null.
            raise InputRequestError("data did not match any variant of untagged enum OneOrMany")
    if "maxTokens" not in params:
        raise InputRequestError("missing field `maxTokens`")
    max_tokens = params["maxTokens"]
    if not _is_int_in(max_tokens, I32_MIN, I32_MAX):
        if isinstance(max_tokens, int) and not isinstance(max_tokens, bool):
            # serde's i32 visitor: an integer out of range is an invalid value, not type.
            raise InputRequestError(f"invalid value: {unexpected(max_tokens)}, expected i32")
        raise _type_error(max_tokens, "i32")
    include = params.get("includeContext")
    if include is not None:  # Option<ContextInclusion>: null is None
        _unit_variant(include, _CONTEXT_INCLUSIONS)
    if params.get("modelPreferences") is not None:
        _check_model_preferences(params["modelPreferences"])
    _optional_str(params, "systemPrompt")
    _optional_f32(params, "temperature")
    _optional_str_list(params, "stopSequences")
    tools = params.get("tools")
    if tools is not None and not isinstance(tools, list):
        raise _type_error(tools, "a sequence")
    choice = params.get("toolChoice")
    if choice is not None:
        tool_choice = _struct(choice, "ToolChoice", ("mode",))
        if "mode" not in tool_choice:  # no #[serde(default)] on ToolChoice.mode: required
            raise InputRequestError("missing field `mode`")
        # ToolChoiceMode, not Option: null is refused.
        _unit_variant(tool_choice["mode"], _TOOL_CHOICE_MODES)


def _check_roots(value: JSON) -> None:
    meta = _struct(value, "ListRootsRequestParams", ("_meta",)).get("_meta")
    if meta is not None:
        try:
            parse_request_meta(meta)
        except MetaError as exc:
            raise InputRequestError(str(exc)) from None


def decode_input_request(value: JSON) -> InputRequest:
    """Decode one ``{"method", "params"}`` envelope as neva does, or raise
    :class:`InputRequestError` (MRTR-REQ-1..6)."""
    if isinstance(value, dict):
        if "method" not in value:
            raise InputRequestError("missing field `method`")
        method = value["method"]
        params = value.get("params")
    elif isinstance(value, list):
        # serde's sequence form of the envelope struct: [method, params?].
        if not value:
            raise InputRequestError(invalid_length(0, expecting_struct("Envelope", 2)))
        if len(value) > 2:
            raise InputRequestError(fewer_elements(len(value)))
        method = value[0]
        params = value[1] if len(value) == 2 else None
    else:
        raise _type_error(value, "struct Envelope")
    if not isinstance(method, str):
        raise _type_error(method, "a string")
    if params is None:
        params = {}
    if method == InputKind.ELICITATION.value:
        stated = params.get("mode") if isinstance(params, dict) else None
        if isinstance(params, dict) and "mode" in params and not isinstance(stated, str):
            raise InputRequestError("`mode` must be a string")
        if isinstance(params, dict) and stated == "url":
            _check_url(params)
            return InputRequest(InputKind.ELICITATION, params, ElicitationMode.URL)
        _check_form(params)
        return InputRequest(InputKind.ELICITATION, params, ElicitationMode.FORM)
    if method == InputKind.SAMPLING.value:
        _check_sampling(params)
        return InputRequest(InputKind.SAMPLING, params)
    if method == InputKind.ROOTS.value:
        _check_roots(params)
        return InputRequest(InputKind.ROOTS, params)
    raise InputRequestError(f"unknown MRTR input request method `{method}`")
