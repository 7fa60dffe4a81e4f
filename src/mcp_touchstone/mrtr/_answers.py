"""Whether a replayed answer reads as the result type of the kind it answers (MRTR-CTX-2).

neva deserializes a raw answer into ``ElicitResult``, ``CreateMessageResult`` or
``ListRootsResult`` only when the handler asks for its key; a misfit is the malformed-answer
error. These readers mirror those derived serde structs: an object by member name or serde's
sequence form, unknown members ignored, ``Option`` members accepting ``null``. The reason text
after the kind is serde's explanation in spirit; the harness compares a malformed-answer message
only up to ``" result"`` (``protocol/mrtr-round.md``, Comparison). Content items are checked by
their ``type`` tag and each variant's required and optional members: ``annotations`` as neva's
``Annotations`` (``audience`` and ``priority`` required; ``lastModified`` an RFC 3339 time,
approximating chrono's relaxed parser), embedded ``resource`` contents by the members every
``ResourceContents`` variant shares, audio/image ``data`` as standard base64.
"""

from __future__ import annotations

import base64
import binascii
import datetime
import re
from collections.abc import Callable

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone._rust import USIZE_MAX
from mcp_touchstone._serde import unit_variant_error
from mcp_touchstone.mrtr._input import InputKind
from mcp_touchstone.mrtr._meta import MetaError, check_icon, parse_request_meta
from mcp_touchstone.mrtr._structs import (
    Reader,
    option,
    read_struct,
    seq,
    string,
    struct_members,
    unit_enum,
)
from mcp_touchstone.serde_json import JSON

__all__ = ["AnswerError", "read_answer"]

_ACTIONS = ("accept", "cancel", "decline")
_ROLES = ("user", "assistant")


class AnswerError(TouchstoneError, ValueError):
    """An answer that does not deserialize as the kind's result type."""


def _unit_variant(value: JSON, variants: tuple[str, ...]) -> None:
    """A derived unit-only enum read from a ``serde_json::Value``: a variant name, or serde's map
    form ``{"<name>": null}`` (serde_json's ``deserialize_enum``), which neva accepts too."""
    refused = unit_variant_error(value, variants)
    if refused is not None:
        raise AnswerError(refused)


def _is_standard_b64(value: str) -> bool:
    """``deserialize_base64_as_bytes``: ``general_purpose::STANDARD`` (the ``base64`` crate's
    standard alphabet, padding required, canonical trailing bits): exactly the strings that
    re-encode to themselves."""
    try:  # no `validate` needed: only alphabet characters can re-encode to themselves
        decoded = base64.b64decode(value)
    except (binascii.Error, ValueError):
        return False
    return base64.b64encode(decoded).decode("ascii") == value


def _required(obj: dict[str, JSON], name: str) -> JSON:
    if name not in obj:
        raise AnswerError(f"missing field `{name}`")
    return obj[name]


def _any(_value: JSON) -> None:
    """``serde_json::Value`` (or ``Option<Value>``): any JSON value."""


_ELICIT_RESULT: dict[str, Reader] = {
    "action": unit_enum(_ACTIONS),  # ElicitationAction, rename_all = "lowercase"
    "content": _any,  # Option<Value>
    "_meta": _any,  # Option<Value>
}


def _elicit(value: JSON) -> None:
    """``ElicitResult`` (fields in declared order; an object's ``_meta`` < ``action`` <
    ``content``): only ``action`` is typed; a sequence form needs all three slots."""
    read_struct(
        value, "ElicitResult", _ELICIT_RESULT, AnswerError, optional=frozenset({"content", "_meta"})
    )


def _opt(obj: dict[str, JSON], name: str, check: Callable[[JSON], bool]) -> None:
    value = obj.get(name)
    if value is not None and not check(value):
        raise AnswerError(f"invalid `{name}`")


def _is_str(value: JSON) -> bool:
    return isinstance(value, str)


def _is_obj(value: JSON) -> bool:
    return isinstance(value, dict)


def _is_usize(value: JSON) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= USIZE_MAX


_RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):?(\d{2}))"
)
_ANNOTATED = frozenset({"text", "audio", "image", "resource_link", "resource"})
"""The ``Content`` variants whose struct has an ``annotations`` member (others ignore it)."""


def _is_calendar_date(year: int, month: int, day: int) -> bool:
    """Whether chrono's ``NaiveDate::from_ymd_opt(year, month, day)`` is a date: a day of the
    proleptic Gregorian calendar (the RFC 3339 pattern spells years 0000-9999)."""
    # datetime.date starts at year 1; chrono also holds year 0, which the 400-year Gregorian
    # cycle makes the same calendar year as 400 (both leap years).
    try:
        datetime.date(year or 400, month, day)
    except ValueError:
        return False
    return True


def _is_datetime(value: JSON) -> bool:
    """``DateTime<Utc>`` (chrono's relaxed RFC 3339 ``FromStr``): a calendar date, ``T``/``t`` or a
    space, a time with optional fraction, ``Z``/``z`` or a ``+hh:mm`` offset (colon optional)."""
    match = _RFC3339.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return False
    year, month, day, hour, minute, second, off_h, off_m = (
        int(g) if g is not None else 0 for g in match.groups()
    )
    if not _is_calendar_date(year, month, day):
        return False
    return hour < 24 and minute < 60 and second <= 60 and off_h < 24 and off_m < 60


def _annotations_ok(value: JSON) -> bool:
    """neva's ``Annotations``: ``audience: Vec<Role>`` and ``priority: f32`` are required (the
    struct has no ``#[serde(default)]``), ``lastModified`` an optional ``DateTime<Utc>``."""
    try:
        obj = struct_members(
            value, "Annotations", ("audience", "lastModified", "priority"), AnswerError
        )
        audience = _required(obj, "audience")
        if not isinstance(audience, list):
            return False
        for role in audience:
            _unit_variant(role, _ROLES)
        priority = _required(obj, "priority")
    except AnswerError:
        return False
    if isinstance(priority, bool) or not isinstance(priority, int | float):
        return False
    stamp = obj.get("lastModified")
    return stamp is None or _is_datetime(stamp)


def _resource_contents_ok(value: JSON) -> bool:
    """``ResourceContents`` (untagged Text | Json | Blob | Empty): every variant needs a string
    ``uri`` and shares ``title``/``mimeType``/``annotations``; ``Empty`` ignores ``text`` and
    ``blob``, so those decide nothing once the shared members read."""
    if not isinstance(value, dict) or not isinstance(value.get("uri"), str):
        return False
    if any(
        value.get(name) is not None and not isinstance(value[name], str)
        for name in ("title", "mimeType")
    ):
        return False
    return value.get("annotations") is None or _annotations_ok(value["annotations"])


# The required string members of each ``Content`` variant (internally tagged by ``type``).
_CONTENT_REQUIRED: dict[str, tuple[str, ...]] = {
    "text": ("text",),
    "audio": ("data", "mimeType"),
    "image": ("data", "mimeType"),
    "resource_link": ("uri", "name"),
    "resource": (),
    "tool_use": ("id", "name"),
    "tool_result": ("toolUseId",),
    "empty": (),
}


def _content_ok(item: JSON) -> bool:
    """Whether ``item`` reads as neva's ``Content`` (``#[serde(tag = "type")]``)."""
    if not isinstance(item, dict):
        return False
    kind = item.get("type")
    if not isinstance(kind, str) or kind not in _CONTENT_REQUIRED:
        return False
    if any(not isinstance(item.get(name), str) for name in _CONTENT_REQUIRED[kind]):
        return False
    data = item.get("data")
    if kind in ("audio", "image") and not (isinstance(data, str) and _is_standard_b64(data)):
        return False  # `data: Bytes` reads through deserialize_base64_as_bytes (STANDARD)
    if kind == "empty" and len(item) > 1:
        return False  # the unit struct `EmptyContent` takes no members besides the tag
    try:
        annotations = item.get("annotations") if kind in _ANNOTATED else None
        if annotations is not None and not _annotations_ok(annotations):
            return False
        if kind == "resource_link":
            _opt(item, "size", _is_usize)
            for name in ("mimeType", "title", "description"):
                _opt(item, name, _is_str)
            icons = item.get("icons")
            if icons is not None:
                if not isinstance(icons, list):
                    return False
                for icon in icons:
                    check_icon(icon)
        elif kind == "resource":
            if not _resource_contents_ok(item.get("resource")):
                return False
        elif kind == "tool_use":
            _opt(item, "input", _is_obj)
        elif kind == "tool_result":
            content = item.get("content")
            if not isinstance(content, list) or not all(_content_ok(c) for c in content):
                return False
            if "isError" in item and not isinstance(item["isError"], bool):
                return False
    except (AnswerError, MetaError):
        return False
    return True


def _content(value: JSON) -> None:
    """``OneOrMany<Content>``: one content item or a list of them (untagged)."""
    if _content_ok(value):
        return
    if isinstance(value, list) and all(_content_ok(item) for item in value):
        return
    raise AnswerError("data did not match any variant of untagged enum OneOrMany")


_CREATE_MESSAGE_RESULT: dict[str, Reader] = {
    "role": unit_enum(_ROLES),
    "content": _content,  # OneOrMany<Content>
    "model": string,
    "stopReason": option(string),  # StopReason reads any String
}


def _sampling(value: JSON) -> None:
    """``CreateMessageResult``: an object's members in sorted key order (``content`` <
    ``model`` < ``role`` < ``stopReason``), then the first missing required field in declared
    order; a sequence form needs all four slots (``stopReason`` has no default)."""
    read_struct(
        value,
        "CreateMessageResult",
        _CREATE_MESSAGE_RESULT,
        AnswerError,
        optional=frozenset({"stopReason"}),
    )


_ROOT: dict[str, Reader] = {"uri": string, "name": string, "_meta": _any}  # Uri(String)


def _root(value: JSON) -> None:
    """``Root``: ``uri`` and ``name`` required strings, ``_meta`` an ``Option<Value>``."""
    read_struct(value, "Root", _ROOT, AnswerError, optional=frozenset({"_meta"}))


def _result_meta(value: JSON) -> None:
    """``ListRootsResult._meta``: an ``Option<RequestParamsMeta>``."""
    if value is not None:
        try:
            parse_request_meta(value)
        except MetaError as exc:
            raise AnswerError(str(exc)) from None


def _roots(value: JSON) -> None:
    """``ListRootsResult``: an object's ``_meta`` is read before ``roots`` (sorted key order)."""
    read_struct(
        value,
        "ListRootsResult",
        {"roots": seq(_root), "_meta": _result_meta},
        AnswerError,
        optional=frozenset({"_meta"}),
    )


_READERS = {
    InputKind.ELICITATION: _elicit,
    InputKind.SAMPLING: _sampling,
    InputKind.ROOTS: _roots,
}


def read_answer(kind: InputKind, value: JSON) -> JSON:
    """``value`` when it reads as ``kind``'s result type, else :class:`AnswerError`."""
    _READERS[kind](value)
    return value
