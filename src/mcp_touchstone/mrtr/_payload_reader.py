"""The byte-level reader behind ``StatePayload.decode``: serde_json's ``Deserializer`` over a
slice, exact in its messages and error positions (MRTR-PAYLOAD-2..8).

It reads the payload's members, checks each field's JSON type, and hands the fields to a
builder (``StatePayload``'s) before the trailing-characters check.  The fields and
their types are :mod:`mcp_touchstone.mrtr._payload_fields`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

from mcp_touchstone._serde import invalid_type
from mcp_touchstone.mrtr._payload_fields import (
    EXPECTING,
    FIELD_ORDER,
    OPENS,
    PayloadError,
    check_field,
)
from mcp_touchstone.serde_json import JSON, MAX_DEPTH, JsonError, from_str

__all__ = ["PayloadReader"]

_T = TypeVar("_T")

_WS = b" \t\n\r"


def _invalid_type(value: JSON, expected: str) -> str:
    return invalid_type(value, expected)


class PayloadReader:
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
    def skip_string(self, *, ignored: bool = False) -> None:
        """Skip a string (cursor on the opening quote): escapes and control bytes checked.

        Positions are serde_json's ``SliceRead``: a ``\\u`` escape with fewer than four bytes
        left is ``EOF while parsing a string`` at the end, one with four non-hex bytes is
        ``invalid escape`` after them; a control byte is reported after it by ``parse_str``
        (a typed string or a key) but before it by ``ignore_str`` (``ignored``: the string is
        part of an ignored member)."""
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
                    "control character (\\u0000-\\u001F) found while parsing a string",
                    pos - 1 if ignored else pos,
                )
            if b == 0x5C:
                pos += 1
                if pos >= len(data):
                    self.pos = pos
                    raise self.error("EOF while parsing a string")
                esc = data[pos]
                if esc == 0x75:  # \u
                    hexpart = data[pos + 1 : pos + 5]
                    if len(hexpart) < 4:
                        self.pos = len(data)
                        raise self.error("EOF while parsing a string", len(data))
                    if any(c not in b"0123456789abcdefABCDEF" for c in hexpart):
                        raise self.error("invalid escape", pos + 4)
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

    def skip_key(self, *, ignored: bool = False) -> None:
        """Skip ``"key":`` inside an object being skipped (``ignored``: see :meth:`skip_string`)."""
        self.skip_ws()
        if self.peek() != 0x22:
            if self.peek() is None:
                raise self.error("EOF while parsing an object")
            raise self.error("key must be a string")
        self.skip_string(ignored=ignored)
        self.expect(b":", "an object")

    def skip_literal(self, word: bytes) -> None:
        """Skip ``true``/``false``/``null`` as serde_json's ``parse_ident`` reads it: byte by
        byte after the first, failing ``expected ident`` at the first byte that differs, or
        ``EOF while parsing a value`` at the end of the input."""
        data, start = self.data, self.pos
        if data.startswith(word, start):
            self.pos = start + len(word)
            return
        for i in range(start + 1, start + len(word)):
            if i >= len(data):
                raise self.error("EOF while parsing a value", len(data))
            if data[i] != word[i - start]:
                raise self.error("expected ident", i)
        raise AssertionError("unreachable: the word matched")  # pragma: no cover

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
                self.skip_string(ignored=not limited)
            elif b in b"-0123456789":
                self.skip_number()
            elif b in b"tfn":
                self.skip_literal(b"true" if b == 0x74 else b"false" if b == 0x66 else b"null")
            elif b in (0x7B, 0x5B):
                if limited and depth + len(stack) + 1 >= MAX_DEPTH:
                    raise self.error("recursion limit exceeded")
                close = 0x7D if b == 0x7B else 0x5D
                self.pos += 1
                self.skip_ws()
                if self.peek() == close:
                    self.pos += 1
                elif self.peek() is None and close == 0x5D:
                    raise self.error("EOF while parsing a list")  # serde's has_next_element
                else:
                    stack.append(close)
                    if b == 0x7B:
                        self.skip_key(ignored=not limited)
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
                # A typed value is serde_json's parse_seq/parse_map: `trailing comma`. An ignored
                # one is ignore_value, which reads on: `expected value` at a `]`, `key must be a
                # string` at a `}` (from the next value or key read below).
                if limited and self.peek() == close:
                    raise self.error("trailing comma")
                if close == 0x7D:
                    self.skip_key(ignored=not limited)
                break

    def value(self, depth: int) -> JSON:
        """Read one value (full serde_json ``Value`` semantics)."""
        self.skip_ws()
        start = self.pos
        self.skip_value(depth)
        try:
            return from_str(self.data[start : self.pos])
        except JsonError as exc:
            # Only the layer's syntax errors carry a position, and skip_value has refused every
            # syntax error already: what is left (a lone surrogate, invalid UTF-8, a number out
            # of range) is a bare reason, placed here.
            raise self.error(str(exc), self.pos - 1) from None

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
        except JsonError as exc:  # a bare reason, as in value()
            raise self.error(str(exc), start) from None
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

    def before(self, message: str, index: int) -> PayloadError:
        """An error at serde_json's ``position()`` with byte ``index`` not yet consumed."""
        start_of_line = self.data.rfind(b"\n", 0, index) + 1
        line = self.data.count(b"\n", 0, start_of_line) + 1
        return PayloadError(f"{message} at line {line} column {index - start_of_line}")

    def strings(self, depth: int) -> list[str]:
        """A ``Vec<String>`` (cursor on its ``[``), element by element as serde reads it: the
        first element that is no string fails where ``peek_invalid_type`` puts it, before
        anything after it is read."""
        self.pos += 1
        out: list[str] = []
        self.skip_ws()
        if self.peek() == 0x5D:
            self.pos += 1
            return out
        if self.peek() is None:
            raise self.error("EOF while parsing a list")
        while True:
            self.skip_ws()
            start = self.pos
            if self.peek() in (0x5B, 0x7B):
                kind = "sequence" if self.peek() == 0x5B else "map"
                raise self.before(f"invalid type: {kind}, expected a string", start)
            item = self.value(depth + 1)
            if not isinstance(item, str):
                raise self.error(_invalid_type(item, "a string"), self.pos - 1)
            out.append(item)
            if self.member_end(0x5D):
                return out

    def typed(self, name: str, depth: int) -> JSON:
        """One field's value, refused where serde_json refuses it: a bracket that opens the
        wrong kind of value before it is read (``peek_invalid_type`` only peeks it), a scalar
        of the wrong type after it."""
        self.skip_ws()
        start = self.pos
        b = self.peek()
        if b in (0x5B, 0x7B) and OPENS.get(name) != b:
            kind = "sequence" if b == 0x5B else "map"
            raise self.before(f"invalid type: {kind}, expected {EXPECTING[name]}", start)
        if b == 0x5B:
            return cast("JSON", self.strings(depth))
        value = self.value(depth)
        try:
            check_field(name, value)
        except PayloadError as exc:
            raise self.error(str(exc), self.pos - 1) from None
        return value

    def payload(self, build: Callable[[dict[str, JSON], int | None], _T]) -> _T:
        """Read the payload's fields and hand them to ``build`` (which may raise
        :class:`PayloadError`) before the trailing-characters check, as serde does."""
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
            elif self.peek() is None:
                raise self.error("EOF while parsing a list")
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
            # serde_json's peek_invalid_type parses the scalar, then reports after it.
            found = self.value(0)
            raise self.error(_invalid_type(found, "struct StatePayload"), self.pos - 1)
        end = self.pos
        try:
            result = build(fields, seq_len)
        except PayloadError as exc:
            raise self.error(str(exc), end - 1) from None
        self.skip_ws()
        if self.pos != len(self.data):
            raise self.error("trailing characters", self.pos)
        return result
