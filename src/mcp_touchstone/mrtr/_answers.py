"""Whether a replayed answer reads as the result type of the kind it answers (MRTR-CTX-2).

neva deserializes a raw answer into ``ElicitResult``, ``CreateMessageResult`` or
``ListRootsResult`` only when the handler asks for its key; a misfit is the malformed-answer
error. These readers mirror those derived serde structs: an object by member name or serde's
sequence form, unknown members ignored, ``Option`` members accepting ``null``. The reason text
after the kind is serde's explanation in spirit; the harness compares a malformed-answer message
only up to ``" result"`` (``protocol/mrtr-round.md``, Comparison). Content items are checked by
their ``type`` tag and each variant's required members and simple optional ones; nested
``annotations`` and embedded ``resource`` contents are checked as objects only.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone._serde import unexpected, unit_variant_error
from mcp_touchstone.mrtr._meta import MetaError, check_icon, parse_request_meta
from mcp_touchstone.mrtr._requests import InputKind
from mcp_touchstone.mrtr._structs import struct_members
from mcp_touchstone.serde_json import JSON

__all__ = ["AnswerError", "read_answer"]

_ACTIONS = ("accept", "cancel", "decline")
_ROLES = ("user", "assistant")


class AnswerError(TouchstoneError, ValueError):
    """An answer that does not deserialize as the kind's result type."""


def _type(value: JSON, expected: str) -> AnswerError:
    return AnswerError(f"invalid type: {unexpected(value)}, expected {expected}")


def _unit_variant(value: JSON, variants: tuple[str, ...]) -> None:
    """A derived unit-only enum read from a ``serde_json::Value``: a variant name, or serde's map
    form ``{"<name>": null}`` (serde_json's ``deserialize_enum``), which neva accepts too."""
    refused = unit_variant_error(value, variants)
    if refused is not None:
        raise AnswerError(refused)


def _is_standard_b64(value: JSON) -> bool:
    """``deserialize_base64_as_bytes``: ``general_purpose::STANDARD`` (the ``base64`` crate's
    standard alphabet, padding required, canonical trailing bits): exactly the strings that
    re-encode to themselves."""
    if not isinstance(value, str) or not value.isascii():
        return False
    try:
        decoded = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return False
    return base64.b64encode(decoded).decode("ascii") == value


def _required(obj: dict[str, JSON], name: str) -> JSON:
    if name not in obj:
        raise AnswerError(f"missing field `{name}`")
    return obj[name]


def _string(value: JSON) -> None:
    if not isinstance(value, str):
        raise _type(value, "a string")


def _elicit(value: JSON) -> None:
    obj = struct_members(value, "ElicitResult", ("action", "content", "_meta"), AnswerError)
    _unit_variant(_required(obj, "action"), _ACTIONS)


def _opt(obj: dict[str, JSON], name: str, check: Callable[[JSON], bool]) -> None:
    value = obj.get(name)
    if value is not None and not check(value):
        raise AnswerError(f"invalid `{name}`")


def _is_str(value: JSON) -> bool:
    return isinstance(value, str)


def _is_obj(value: JSON) -> bool:
    return isinstance(value, dict)


def _is_usize(value: JSON) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < (1 << 64)


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
    if kind in ("audio", "image") and not _is_standard_b64(item["data"]):
        return False  # `data: Bytes` reads through deserialize_base64_as_bytes (STANDARD)
    if kind == "empty" and len(item) > 1:
        return False  # the unit struct `EmptyContent` takes no members besides the tag
    try:
        _opt(item, "annotations", _is_obj)
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
            if not isinstance(item.get("resource"), dict):
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


def _sampling(value: JSON) -> None:
    obj = struct_members(
        value, "CreateMessageResult", ("role", "content", "model", "stopReason"), AnswerError
    )
    _unit_variant(_required(obj, "role"), _ROLES)
    _content(_required(obj, "content"))
    _string(_required(obj, "model"))
    stop = obj.get("stopReason")
    if stop is not None:
        _string(stop)


def _roots(value: JSON) -> None:
    obj = struct_members(value, "ListRootsResult", ("roots", "_meta"), AnswerError)
    roots = _required(obj, "roots")
    if not isinstance(roots, list):
        raise _type(roots, "a sequence")
    for root in roots:
        members = struct_members(root, "Root", ("uri", "name", "_meta"), AnswerError)
        _string(_required(members, "uri"))
        _string(_required(members, "name"))
    meta = obj.get("_meta")
    if meta is not None:
        try:
            parse_request_meta(meta)
        except MetaError as exc:
            raise AnswerError(str(exc)) from None


_READERS = {
    InputKind.ELICITATION: _elicit,
    InputKind.SAMPLING: _sampling,
    InputKind.ROOTS: _roots,
}


def read_answer(kind: InputKind, value: JSON) -> JSON:
    """``value`` when it reads as ``kind``'s result type, else :class:`AnswerError`."""
    _READERS[kind](value)
    return value
