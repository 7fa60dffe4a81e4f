"""The sealed plaintext ``StatePayload`` and its serde_json-exact encode/decode pair.

Encoding writes neva's declared field order compactly (MRTR-PAYLOAD-1). Decoding
mirrors ``serde_json::from_slice::<StatePayload>`` (MRTR-PAYLOAD-2..8): the struct
reads from a JSON object *or* a JSON array (serde's sequence form), unknown members
are skipped syntactically, a repeated known member is an error, defaulted fields
accept absence but not ``null``, ``exp`` is a u64, and only whitespace may trail.
Every failure is a :class:`PayloadError`, which the codec reports as ``-32700``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import cast

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone._serde import (
    U64_MAX,
    expecting_struct,
    fewer_elements,
    invalid_length,
    invalid_type,
    invalid_value,
)
from mcp_touchstone.serde_json import JSON, JsonError, canonical, from_str

__all__ = ["FIELD_ORDER", "PayloadError", "StatePayload"]

FIELD_ORDER: tuple[str, ...] = (
    "answers",
    "requested",
    "memos",
    "effects",
    "exp",
    "req",
    "principal",
    "aud",
)
"""The payload's fields in neva's declared (and serialized) order."""

_encode_str: Callable[[str], str] = json.encoder.encode_basestring
"""A JSON string as serde_json writes it: raw UTF-8, the same escapes (C-accelerated)."""
_MAX_DEPTH = 128
_WS = b" \t\n\r"


class PayloadError(TouchstoneError, ValueError):
    """A plaintext that ``serde_json`` would not decode as a ``StatePayload``."""


def _invalid_type(value: JSON, expected: str) -> str:
    return invalid_type(value, expected)


@dataclass(frozen=True, slots=True)
class StatePayload:
    """What a ``requestState`` seals: the replay log and its bindings.

    ``effects`` has set semantics (duplicates removed, first occurrence kept); its
    order only matters for the bytes a seal produces, as in neva where it is a hash
    set. ``principal`` and ``aud`` are ``None`` when unbound.
    """

    answers: Mapping[str, JSON]
    exp: int
    req: str
    requested: tuple[str, ...] = ()
    memos: Mapping[str, JSON] = field(default_factory=dict)
    effects: tuple[str, ...] = ()
    principal: str | None = None
    aud: str | None = None

    def __post_init__(self) -> None:
        deduped = tuple(dict.fromkeys(self.effects))
        if deduped != self.effects:
            object.__setattr__(self, "effects", deduped)

    def to_json(self) -> dict[str, JSON]:
        """The payload as a JSON object in declared field order, every field written."""
        return {
            "answers": dict(self.answers),
            "requested": list(self.requested),
            "memos": dict(self.memos),
            "effects": list(self.effects),
            "exp": self.exp,
            "req": self.req,
            "principal": self.principal,
            "aud": self.aud,
        }

    def encode(self) -> bytes:
        """Compact UTF-8 JSON in declared field order: what ``serde_json::to_vec`` writes.

        ``answers`` and ``memos`` hold ``serde_json::Value``s, whose objects are B-tree maps
        in neva's build (no ``preserve_order``): their keys are written sorted at every
        depth. The two maps themselves are hash maps in neva, written in an order of their
        own; here they are written sorted too, so a seal depends on the payload's value
        alone (MRTR-PAYLOAD-1, MRTR-PAYLOAD-5).
        """
        text = "".join(
            (
                '{"answers":',
                canonical(dict(self.answers)) if self.answers else "{}",
                ',"requested":[',
                ",".join(map(_encode_str, self.requested)),
                '],"memos":',
                canonical(dict(self.memos)) if self.memos else "{}",
                ',"effects":[',
                ",".join(map(_encode_str, self.effects)),
                '],"exp":',
                str(self.exp),
                ',"req":',
                _encode_str(self.req),
                ',"principal":',
                "null" if self.principal is None else _encode_str(self.principal),
                ',"aud":',
                "null" if self.aud is None else _encode_str(self.aud),
                "}",
            )
        )
        return text.encode("utf-8")

    @classmethod
    def from_json(cls, value: JSON) -> StatePayload:
        """Read a payload from a JSON value under the same typed rules as :meth:`decode`."""
        if isinstance(value, dict):
            fields: dict[str, JSON] = {k: v for k, v in value.items() if k in FIELD_ORDER}
            return _build(fields, seq_len=None)
        if isinstance(value, list):
            if len(value) > len(FIELD_ORDER):
                raise PayloadError(fewer_elements(len(value)))
            return _build(dict(zip(FIELD_ORDER, value, strict=False)), seq_len=len(value))
        raise PayloadError(_invalid_type(value, "struct StatePayload"))

    @classmethod
    def decode(cls, data: bytes) -> StatePayload:
        """Decode plaintext bytes as ``serde_json::from_slice::<StatePayload>`` would."""
        fast = _decode_fast(data)
        return fast if fast is not None else _Decoder(data).payload()


_QUOTED_NAMES: tuple[tuple[str, bytes], ...] = tuple(
    (n, b'"' + n.encode() + b'"') for n in FIELD_ORDER
)
_ABSENT = object()


def _decode_fast(data: bytes) -> StatePayload | None:
    """The common case at C speed, or ``None`` to defer to the exact byte reader.

    A text the strict JSON layer accepts is one serde_json's reader accepts too (the layer
    is at least as strict; see MRTR-PAYLOAD-8), so only two things remain to be decided:
    a repeated top-level field, which the layer's last-wins parse hides, and the field
    types. Repeats are ruled out cheaply when no escape appears and each present field
    name occurs once in the text; anything else (and every failure, so that its message
    carries serde's position) goes to the byte reader.
    """
    if b"\\" in data:
        return None
    try:
        value = from_str(data)
    except JsonError:
        return None
    if isinstance(value, dict):
        for name, quoted in _QUOTED_NAMES:
            if name in value and data.count(quoted) > 1:
                return None
        return _from_object_fast(value)
    if isinstance(value, list):
        try:
            return StatePayload.from_json(value)
        except PayloadError:
            return None
    return None


def _str_tuple(value: object) -> tuple[str, ...] | None:
    """An array of strings as a tuple, ``()`` when absent, ``None`` when mistyped."""
    if value is _ABSENT:
        return ()
    if type(value) is not list:
        return None
    for item in value:
        if type(item) is not str:
            return None
    return tuple(value)


def _from_object_fast(obj: dict[str, JSON]) -> StatePayload | None:
    """The payload of an object the typed reader accepts, or ``None`` for any object it
    refuses (its message is then the byte reader's). Same verdicts as :func:`_build`."""
    get = obj.get
    answers = get("answers")
    exp = get("exp")
    req = get("req")
    if type(answers) is not dict or type(req) is not str or type(exp) is not int:
        return None
    if not 0 <= exp <= U64_MAX:
        return None
    memos = get("memos", _ABSENT)
    if memos is _ABSENT:
        memos = {}
    elif type(memos) is not dict:
        return None
    requested = _str_tuple(get("requested", _ABSENT))
    effects = _str_tuple(get("effects", _ABSENT))
    if requested is None or effects is None:
        return None
    principal = get("principal")
    aud = get("aud")
    if (principal is not None and type(principal) is not str) or (
        aud is not None and type(aud) is not str
    ):
        return None
    return StatePayload(
        answers=answers,
        exp=exp,
        req=req,
        requested=requested,
        memos=cast("dict[str, JSON]", memos),
        effects=effects,
        principal=principal,
        aud=aud,
    )


def _check_field(name: str, value: JSON) -> JSON:
    """Check one field's JSON type; return the value in the dataclass's shape."""
    if name in ("answers", "memos"):
        if not isinstance(value, dict):
            raise PayloadError(_invalid_type(value, "a map"))
        return value
    if name in ("requested", "effects"):
        if not isinstance(value, list):
            raise PayloadError(_invalid_type(value, "a sequence"))
        for item in value:
            if not isinstance(item, str):
                raise PayloadError(_invalid_type(item, "a string"))
        return value
    if name == "exp":
        if isinstance(value, bool) or not isinstance(value, int):
            raise PayloadError(_invalid_type(value, "u64"))
        if not 0 <= value <= U64_MAX:
            raise PayloadError(invalid_value(value, "u64"))
        return value
    if name == "req":
        if not isinstance(value, str):
            raise PayloadError(_invalid_type(value, "a string"))
        return value
    # principal, aud: Option<String>
    if value is not None and not isinstance(value, str):
        raise PayloadError(_invalid_type(value, "a string"))
    return value


def _build(fields: dict[str, JSON], seq_len: int | None) -> StatePayload:
    """Assemble a payload from checked fields; ``seq_len`` is set for serde's array form."""
    for name, value in fields.items():
        _check_field(name, value)
    required = (
        ("answers", "exp", "req", "principal") if seq_len is not None else ("answers", "exp", "req")
    )
    for index, name in enumerate(FIELD_ORDER):
        if name in required and name not in fields:
            if seq_len is not None:
                raise PayloadError(
                    invalid_length(index, expecting_struct("StatePayload", len(FIELD_ORDER)))
                )
            raise PayloadError(f"missing field `{name}`")
    answers = fields["answers"]
    memos = fields.get("memos", {})
    exp = fields["exp"]
    req = fields["req"]
    principal = fields.get("principal")
    aud = fields.get("aud")
    # The types were checked by _check_field above; the casts only inform the type checker.
    return StatePayload(
        answers=cast("dict[str, JSON]", answers),
        exp=cast("int", exp),
        req=cast("str", req),
        requested=tuple(cast("list[str]", fields.get("requested", ()))),
        memos=cast("dict[str, JSON]", memos),
        effects=tuple(cast("list[str]", fields.get("effects", ()))),
        principal=cast("str | None", principal),
        aud=cast("str | None", aud),
    )


class _Decoder:
    """A byte-level reader following serde_json's ``Deserializer`` over a slice."""

    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    # ---------------------------------------------------------------- helpers
    def error(self, message: str, at: int | None = None) -> PayloadError:
        """An error naming serde_json's ``line L column C`` of byte ``at``."""
        index = self.pos if at is None else at
        index = min(index, len(self.data))
        line = self.data.count(b"\n", 0, index) + 1
        last_nl = self.data.rfind(b"\n", 0, index)
        column = index - last_nl if index < len(self.data) else index - last_nl - 1
        return PayloadError(f"{message} at line {line} column {max(column, 0)}")

    def skip_ws(self) -> None:
        data, pos = self.data, self.pos
        while pos < len(data) and data[pos] in _WS:
            pos += 1
        self.pos = pos

    def peek(self) -> int | None:
        return self.data[self.pos] if self.pos < len(self.data) else None

    def expect(self, byte: bytes, what: str) -> None:
        self.skip_ws()
        if self.peek() != byte[0]:
            if self.peek() is None:
                raise self.error("EOF while parsing " + what)
            raise self.error(f"expected `{byte.decode()}`")
        self.pos += 1

    # ---------------------------------------------------------------- syntax
    def skip_string(self) -> None:
        """Skip a string (cursor on the opening quote): escapes and control bytes checked."""
        data = self.data
        pos = self.pos + 1
        while True:
            if pos >= len(data):
                self.pos = pos
                raise self.error("EOF while parsing a string")
            b = data[pos]
            if b == 0x22:
                self.pos = pos + 1
                return
            if b < 0x20:
                raise self.error(
                    "control character (\\u0000-\\u001F) found while parsing a string", pos
                )
            if b == 0x5C:
                pos += 1
                if pos >= len(data):
                    self.pos = pos
                    raise self.error("EOF while parsing a string")
                esc = data[pos]
                if esc == 0x75:  # \u
                    hexpart = data[pos + 1 : pos + 5]
                    if len(hexpart) < 4 or any(c not in b"0123456789abcdefABCDEF" for c in hexpart):
                        raise self.error("invalid escape", pos)
                    pos += 5
                    continue
                if esc not in b'"\\/bfnrt':
                    raise self.error("invalid escape", pos)
            pos += 1

    def skip_number(self) -> None:
        data = self.data
        pos = self.pos
        if data[pos] == 0x2D:
            pos += 1
        if pos >= len(data) or not 0x30 <= data[pos] <= 0x39:
            raise self.error("invalid number", pos)
        if data[pos] == 0x30:
            pos += 1
            if pos < len(data) and 0x30 <= data[pos] <= 0x39:
                raise self.error("invalid number", pos)
        else:
            while pos < len(data) and 0x30 <= data[pos] <= 0x39:
                pos += 1
        if pos < len(data) and data[pos] == 0x2E:
            pos += 1
            if pos >= len(data) or not 0x30 <= data[pos] <= 0x39:
                raise self.error("invalid number", pos)
            while pos < len(data) and 0x30 <= data[pos] <= 0x39:
                pos += 1
        if pos < len(data) and data[pos] in b"eE":
            pos += 1
            if pos < len(data) and data[pos] in b"+-":
                pos += 1
            if pos >= len(data) or not 0x30 <= data[pos] <= 0x39:
                raise self.error("invalid number", pos)
            while pos < len(data) and 0x30 <= data[pos] <= 0x39:
                pos += 1
        self.pos = pos

    def skip_key(self) -> None:
        """Skip ``"key":`` inside an object being skipped."""
        self.skip_ws()
        if self.peek() != 0x22:
            if self.peek() is None:
                raise self.error("EOF while parsing an object")
            raise self.error("key must be a string")
        self.skip_string()
        self.expect(b":", "an object")

    def skip_value(self, depth: int, *, limited: bool = True) -> None:
        """Skip one value syntactically, iteratively (no Python recursion).

        ``depth`` counts the containers already open around it. ``limited`` applies
        serde_json's recursion limit (typed values); an ignored member is skipped the
        way serde_json's ``ignore_value`` does, with an explicit stack and no limit.
        """
        stack: list[int] = []  # the closing byte of each open container
        while True:
            self.skip_ws()
            b = self.peek()
            if b is None:
                raise self.error("EOF while parsing a value")
            if b == 0x22:
                self.skip_string()
            elif b in b"-0123456789":
                self.skip_number()
            elif b in b"tfn":
                for word in (b"true", b"false", b"null"):
                    if self.data.startswith(word, self.pos):
                        self.pos += len(word)
                        break
                else:
                    raise self.error("expected ident", self.pos + 1)
            elif b in (0x7B, 0x5B):
                if limited and depth + len(stack) + 1 >= _MAX_DEPTH:
                    raise self.error("recursion limit exceeded")
                close = 0x7D if b == 0x7B else 0x5D
                self.pos += 1
                self.skip_ws()
                if self.peek() == close:
                    self.pos += 1
                else:
                    stack.append(close)
                    if b == 0x7B:
                        self.skip_key()
                    continue
            else:
                raise self.error("expected value")
            # A value ended: close what it ends, or move on to the next element.
            while True:
                if not stack:
                    return
                self.skip_ws()
                nxt = self.peek()
                close = stack[-1]
                if nxt == close:
                    self.pos += 1
                    stack.pop()
                    continue
                if nxt != 0x2C:
                    if nxt is None:
                        raise self.error(
                            "EOF while parsing " + ("an object" if close == 0x7D else "a list")
                        )
                    raise self.error("expected `,` or `" + chr(close) + "`")
                self.pos += 1
                self.skip_ws()
                if self.peek() == close:
                    raise self.error("trailing comma")
                if close == 0x7D:
                    self.skip_key()
                break

    def value(self, depth: int) -> JSON:
        """Read one value (full serde_json ``Value`` semantics)."""
        self.skip_ws()
        start = self.pos
        self.skip_value(depth)
        try:
            return from_str(self.data[start : self.pos])
        except JsonError as exc:
            raise self.error(str(exc).split(" at line ")[0], self.pos - 1) from None

    def key(self) -> str:
        self.skip_ws()
        if self.peek() != 0x22:
            if self.peek() is None:
                raise self.error("EOF while parsing an object")
            raise self.error("key must be a string")
        start = self.pos
        self.skip_string()
        try:
            decoded = from_str(self.data[start : self.pos])
        except JsonError as exc:
            raise self.error(str(exc).split(" at line ")[0], start) from None
        assert isinstance(decoded, str)
        return decoded

    # ---------------------------------------------------------------- struct
    def member_end(self, close: int) -> bool:
        """After a member of the struct's object (``close`` = ``}``) or array (``]``):
        consume the closing byte and answer ``True``, or a ``,`` not followed by the
        closing byte and answer ``False``; anything else is serde_json's error."""
        self.skip_ws()
        nxt = self.peek()
        if nxt == close:
            self.pos += 1
            return True
        if nxt != 0x2C:
            if nxt is None:
                raise self.error(
                    "EOF while parsing " + ("an object" if close == 0x7D else "a list")
                )
            raise self.error(f"expected `,` or `{chr(close)}`")
        self.pos += 1
        self.skip_ws()
        if self.peek() == close:
            raise self.error("trailing comma")
        return False

    def typed(self, name: str, depth: int) -> JSON:
        start = self.pos
        value = self.value(depth)
        try:
            return _check_field(name, value)
        except PayloadError as exc:
            raise self.error(str(exc), max(self.pos - 1, start)) from None

    def payload(self) -> StatePayload:
        self.skip_ws()
        b = self.peek()
        fields: dict[str, JSON] = {}
        seq_len: int | None = None
        if b == 0x7B:
            self.pos += 1
            self.skip_ws()
            if self.peek() == 0x7D:
                self.pos += 1
            else:
                while True:
                    name = self.key()
                    key_end = self.pos - 1
                    if name in fields:
                        raise self.error(f"duplicate field `{name}`", key_end)
                    self.expect(b":", "an object")
                    if name in FIELD_ORDER:
                        fields[name] = self.typed(name, 1)
                    else:
                        self.skip_value(1, limited=False)
                    if self.member_end(0x7D):
                        break
        elif b == 0x5B:
            self.pos += 1
            seq_len = 0
            self.skip_ws()
            if self.peek() == 0x5D:
                self.pos += 1
            else:
                while True:
                    if seq_len >= len(FIELD_ORDER):
                        raise self.error("trailing characters")
                    name = FIELD_ORDER[seq_len]
                    fields[name] = self.typed(name, 1)
                    seq_len += 1
                    if self.member_end(0x5D):
                        break
        else:
            if b is None:
                raise self.error("EOF while parsing a value")
            start = self.pos
            try:
                found = self.value(0)
            except PayloadError:
                raise
            raise self.error(_invalid_type(found, "struct StatePayload"), start)
        end = self.pos
        try:
            result = _build(fields, seq_len)
        except PayloadError as exc:
            raise self.error(str(exc), end - 1) from None
        self.skip_ws()
        if self.pos != len(self.data):
            raise self.error("trailing characters", self.pos)
        return result
