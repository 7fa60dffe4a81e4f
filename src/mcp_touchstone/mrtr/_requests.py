"""The ``InputRequest`` union: ``{"method", "params"}`` envelopes a server asks a client to
fulfil (rules MRTR-REQ-*).

Decoding mirrors neva's hand-written ``Deserialize``: absent or ``null`` params read as
``{}`` and are then judged by the kind's own params type; an unknown method is refused
by name; an elicitation is the URL variant exactly when ``mode`` is the string
``"url"``, and a ``mode`` that is present but not a string is an error.

Each params struct (and every derived struct inside one) is read field by field in
serde_derive's order (:func:`~mcp_touchstone.mrtr._structs.read_struct`): an object's present
keys in sorted order, the first bad one failing, unknown keys ignored, then the first missing
required field in declared order; a nested struct is read, the same way, when its field's
turn comes (MRTR-REQ-6).

The types live in :mod:`mcp_touchstone.mrtr._input` (re-exported here), so the capability
model can name them without importing this decoder, which reads request ``_meta``: the
modules form a line ``_input`` <- ``_capabilities`` <- ``_meta`` <- ``_requests``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import cast

from mcp_touchstone._rust import I32_MAX, I32_MIN, USIZE_MAX
from mcp_touchstone._serde import unexpected, unit_variant_error
from mcp_touchstone.mrtr._input import ElicitationMode, InputKind, InputRequest, InputRequestError
from mcp_touchstone.mrtr._meta import MetaError, parse_request_meta
from mcp_touchstone.mrtr._structs import read_struct
from mcp_touchstone.serde_json import JSON

__all__ = [
    "ElicitationMode",
    "InputKind",
    "InputRequest",
    "InputRequestError",
    "decode_input_request",
]

_Reader = Callable[[JSON], None]
"""Reads one field's value as its Rust type, raising :class:`InputRequestError`."""


def _type_error(value: JSON, expected: str) -> InputRequestError:
    return InputRequestError(f"invalid type: {unexpected(value)}, expected {expected}")


def _unit_variant(value: JSON, variants: tuple[str, ...]) -> None:
    """A derived unit-only enum read from a ``serde_json::Value`` (neva decodes params with
    ``from_value``): a variant name or serde_json's map form ``{"<name>": null}``, else serde's
    own refusal (:func:`~mcp_touchstone._serde.unit_variant_error`)."""
    refused = unit_variant_error(value, variants)
    if refused is not None:
        raise InputRequestError(refused)


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
    multi-select) or ``enum`` (untitled multi-select; its ``type`` a property type when present,
    ``null`` refused), anything else refused; ``number``
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
            # EnumItems.type is `#[serde(default)] PropertyType`, not an Option: null is refused.
            items_ok = (
                "type" not in items or unit_variant_error(items["type"], _PROPERTY_TYPES) is None
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


# --------------------------------------------------------------------------- field readers


def _any(_value: JSON) -> None:
    """``serde_json::Value``: any JSON value."""


def _string(value: JSON) -> None:
    if not isinstance(value, str):
        raise _type_error(value, "a string")


def _f32(value: JSON) -> None:
    if not _is_f64(value):
        raise _type_error(value, "f32")


def _i32(value: JSON) -> None:
    if _is_int_in(value, I32_MIN, I32_MAX):
        return
    if isinstance(value, int) and not isinstance(value, bool):
        # serde's i32 visitor: an integer out of range is an invalid value, not a type error.
        raise InputRequestError(f"invalid value: {unexpected(value)}, expected i32")
    raise _type_error(value, "i32")


def _enum(variants: tuple[str, ...]) -> _Reader:
    return lambda value: _unit_variant(value, variants)


def _option(read: _Reader) -> _Reader:
    """``Option<T>``: ``null`` is ``None``, anything else is read as ``T``."""

    def option(value: JSON) -> None:
        if value is not None:
            read(value)

    return option


def _seq(read: _Reader) -> _Reader:
    """``Vec<T>``: an array whose elements are read in order, the first bad one failing."""

    def seq(value: JSON) -> None:
        if not isinstance(value, list):
            raise _type_error(value, "a sequence")
        for item in value:
            read(item)

    return seq


def _struct(
    name: str,
    readers: Mapping[str, _Reader],
    *,
    optional: Collection[str] = frozenset(),
    defaulted: Collection[str] = frozenset(),
) -> _Reader:
    """A derived struct's reader: ``readers`` by JSON key in declared order; ``optional`` the
    ``Option``/``#[serde(default)]`` fields, ``defaulted`` the ``#[serde(default)]`` ones."""

    def struct(value: JSON) -> None:
        read_struct(value, name, readers, InputRequestError, optional=optional, defaulted=defaulted)

    return struct


def _content(value: JSON) -> None:
    if not isinstance(value, dict | list):
        # OneOrMany<Content>: one internally tagged item or a list; never a scalar or null.
        raise InputRequestError("data did not match any variant of untagged enum OneOrMany")


def _properties(value: JSON) -> None:
    """``HashMap<String, Schema>``, read from a ``Value`` map in its sorted key order."""
    if not isinstance(value, dict):
        raise _type_error(value, "a map")
    for name in sorted(value):
        if not _schema_ok(value[name]):
            raise InputRequestError(f"property `{name}` is not a schema neva's `Schema` reads")


def _request_meta(value: JSON) -> None:
    """``RequestParamsMeta`` (MRTR-RETRY-4)."""
    try:
        parse_request_meta(value)
    except MetaError as exc:
        raise InputRequestError(str(exc)) from None


# --------------------------------------------------------------------------- neva's structs
# Keys are the JSON names (after #[serde(rename)]) in declared order; none of these structs
# has deny_unknown_fields; neva's default build has no `tasks` feature (no `task` fields).

_REQUEST_SCHEMA = _struct(
    "RequestSchema",
    {
        "type": _enum(_PROPERTY_TYPES),  # #[serde(default)], not an Option: null is refused
        "properties": _properties,
        "required": _option(_seq(_string)),
    },
    optional=frozenset({"type", "required"}),
    defaulted=frozenset({"type"}),
)
_FORM = _struct(
    "ElicitRequestFormParams",
    {
        "message": _string,
        "mode": _option(_enum(_ELICITATION_MODES)),  # #[serde(default)] Option: null is None
        "requestedSchema": _REQUEST_SCHEMA,
        "_meta": _any,  # Option<Value>
    },
    optional=frozenset({"mode", "_meta"}),
    defaulted=frozenset({"mode"}),
)
_URL = _struct(
    "ElicitRequestUrlParams",
    {"message": _string, "mode": _enum(_ELICITATION_MODES), "url": _string, "_meta": _any},
    optional=frozenset({"_meta"}),
)
_MESSAGE = _struct(
    "SamplingMessage",
    {"role": _enum(_ROLES), "content": _content},  # Role, not Option: null is refused
)
_PRIORITY = _option(_f32)
_MODEL_PREFERENCES = _struct(
    "ModelPreferences",
    {
        "costPriority": _PRIORITY,
        "hints": _option(
            _seq(_struct("ModelHint", {"name": _option(_string)}, optional=frozenset({"name"})))
        ),
        "speedPriority": _PRIORITY,
        "intelligencePriority": _PRIORITY,
    },
    optional=frozenset({"costPriority", "hints", "speedPriority", "intelligencePriority"}),
)
# ToolChoice.mode has no #[serde(default)]: required, and not an Option (null is refused).
_TOOL_CHOICE = _struct("ToolChoice", {"mode": _enum(_TOOL_CHOICE_MODES)})
_SAMPLING_FIELDS: dict[str, _Reader] = {
    "messages": _seq(_MESSAGE),
    "maxTokens": _i32,
    "includeContext": _option(_enum(_CONTEXT_INCLUSIONS)),
    "metadata": _any,  # Option<Value>
    "modelPreferences": _option(_MODEL_PREFERENCES),
    "systemPrompt": _option(_string),
    "temperature": _PRIORITY,  # Option<f32>
    "stopSequences": _option(_seq(_string)),
    "tools": _option(_seq(_any)),  # Deviation (MRTR-REQ-6): a Tool's members are unchecked
    "toolChoice": _option(_TOOL_CHOICE),
}
_SAMPLING = _struct(
    "CreateMessageRequestParams",
    _SAMPLING_FIELDS,
    optional=frozenset(_SAMPLING_FIELDS).difference({"messages", "maxTokens"}),
)
_ROOTS = _struct(
    "ListRootsRequestParams", {"_meta": _option(_request_meta)}, optional=frozenset({"_meta"})
)


def _envelope(value: JSON) -> tuple[str, JSON]:
    """neva's private ``Envelope { method: String, #[serde(default)] params: Option<Value> }``,
    as ``{"method", "params"?}`` (from an object, or serde's sequence form ``[method, params?]``,
    whose ``method`` slot is read before its length is judged)."""
    members = read_struct(
        value,
        "Envelope",
        {"method": _string, "params": _any},
        InputRequestError,
        optional=frozenset({"params"}),
        defaulted=frozenset({"params"}),
    )
    return cast("str", members["method"]), members.get("params")  # `method` read as a String


def decode_input_request(value: JSON) -> InputRequest:
    """Decode one ``{"method", "params"}`` envelope as neva does, or raise
    :class:`InputRequestError` (MRTR-REQ-1..6)."""
    method, params = _envelope(value)
    if params is None:
        params = {}
    if method == InputKind.ELICITATION.value:
        stated = params.get("mode") if isinstance(params, dict) else None
        if isinstance(params, dict) and "mode" in params and not isinstance(stated, str):
            raise InputRequestError("`mode` must be a string")
        if isinstance(params, dict) and stated == "url":
            _URL(params)
            return InputRequest(InputKind.ELICITATION, params, ElicitationMode.URL)
        _FORM(params)
        return InputRequest(InputKind.ELICITATION, params, ElicitationMode.FORM)
    if method == InputKind.SAMPLING.value:
        _SAMPLING(params)
        return InputRequest(InputKind.SAMPLING, params)
    if method == InputKind.ROOTS.value:
        _ROOTS(params)
        return InputRequest(InputKind.ROOTS, params)
    raise InputRequestError(f"unknown MRTR input request method `{method}`")
