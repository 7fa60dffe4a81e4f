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

from mcp_touchstone._rust import I32_MAX, I32_MIN
from mcp_touchstone._serde import unexpected, unit_variant_error
from mcp_touchstone.mrtr._answers import AnswerError
from mcp_touchstone.mrtr._answers import _content as _one_or_many_content
from mcp_touchstone.mrtr._input import ElicitationMode, InputKind, InputRequest, InputRequestError
from mcp_touchstone.mrtr._meta import MetaError, parse_request_meta
from mcp_touchstone.mrtr._schema import PROPERTY_TYPES, read_schema
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


_ELICITATION_MODES = ("form", "url")  # neva's ElicitationMode, rename_all = "lowercase"
_ROLES = ("user", "assistant")  # neva's Role (types.rs), rename_all = "lowercase"
# neva's ContextInclusion (types/sampling.rs), each variant renamed by hand.
_CONTEXT_INCLUSIONS = ("none", "thisServer", "allServers")
_TOOL_CHOICE_MODES = ("auto", "required", "none")  # ToolChoiceMode, rename_all = "lowercase"


# --------------------------------------------------------------------------- field readers


def _any(_value: JSON) -> None:
    """``serde_json::Value``: any JSON value."""


def _string(value: JSON) -> None:
    if not isinstance(value, str):
        raise _type_error(value, "a string")


def _f32(value: JSON) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
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
    """``OneOrMany<Content>`` (``types/sampling.rs:42``), the type of a sampling answer's
    ``content`` too: every failure is the untagged enum's one message."""
    try:
        _one_or_many_content(value)
    except AnswerError as exc:
        raise InputRequestError(str(exc)) from None


def _properties(value: JSON) -> None:
    """``HashMap<String, Schema>``, read from a ``Value`` map in its sorted key order, each
    property with neva's own refusal (:func:`~mcp_touchstone.mrtr._schema.read_schema`)."""
    if not isinstance(value, dict):
        raise _type_error(value, "a map")
    for name in sorted(value):
        read_schema(value[name])


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
        "type": _enum(PROPERTY_TYPES),  # #[serde(default)], not an Option: null is refused
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
