"""Whether a replayed answer reads as the result type of the kind it answers (MRTR-CTX-2).

neva deserializes a raw answer into ``ElicitResult``, ``CreateMessageResult`` or
``ListRootsResult`` only when the handler asks for its key; a misfit is the malformed-answer
error. These readers mirror those derived serde structs: an object by member name or serde's
sequence form, unknown members ignored, ``Option`` members accepting ``null``. The reason text
after the kind is serde's explanation in spirit; the harness compares a malformed-answer message
only up to ``" result"`` (``protocol/mrtr-round.md``, Comparison).
"""

from __future__ import annotations

from mcp_touchstone._serde import unexpected
from mcp_touchstone.mrtr._meta import MetaError, parse_request_meta
from mcp_touchstone.mrtr._requests import InputKind
from mcp_touchstone.mrtr._structs import struct_members
from mcp_touchstone.serde_json import JSON

__all__ = ["AnswerError", "read_answer"]

_ACTIONS = ("accept", "cancel", "decline")
_ROLES = ("user", "assistant")
_CONTENT_TYPES = (
    "audio",
    "image",
    "text",
    "resource_link",
    "resource",
    "tool_use",
    "tool_result",
    "empty",
)


class AnswerError(ValueError):
    """An answer that does not deserialize as the kind's result type."""


def _type(value: JSON, expected: str) -> AnswerError:
    return AnswerError(f"invalid type: {unexpected(value)}, expected {expected}")


def _unit_variant(value: JSON, variants: tuple[str, ...], name: str) -> None:
    if not isinstance(value, str):
        raise _type(value, f"enum {name}")
    if value not in variants:
        listed = ", ".join(f"`{v}`" for v in variants)
        raise AnswerError(f"unknown variant `{value}`, expected one of {listed}")


def _required(obj: dict[str, JSON], name: str) -> JSON:
    if name not in obj:
        raise AnswerError(f"missing field `{name}`")
    return obj[name]


def _string(value: JSON) -> None:
    if not isinstance(value, str):
        raise _type(value, "a string")


def _elicit(value: JSON) -> None:
    obj = struct_members(value, "ElicitResult", ("action", "content", "_meta"), AnswerError)
    _unit_variant(_required(obj, "action"), _ACTIONS, "ElicitationAction")


def _content(item: JSON) -> None:
    if not isinstance(item, dict):
        raise AnswerError("data did not match any variant of untagged enum OneOrMany")
    kind = item.get("type")
    if "type" not in item:
        raise AnswerError("missing field `type`")
    if not isinstance(kind, str) or kind not in _CONTENT_TYPES:
        raise AnswerError("data did not match any variant of untagged enum OneOrMany")
    if kind == "text":
        _string(_required(item, "text"))


def _sampling(value: JSON) -> None:
    obj = struct_members(
        value, "CreateMessageResult", ("role", "content", "model", "stopReason"), AnswerError
    )
    _unit_variant(_required(obj, "role"), _ROLES, "Role")
    content = _required(obj, "content")
    if isinstance(content, list):
        for item in content:
            _content(item)
    else:
        _content(content)
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
