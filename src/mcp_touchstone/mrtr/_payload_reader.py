"""The reader behind ``StatePayload.decode``: ``serde_json::from_slice::<StatePayload>``, the
derived ``Deserialize`` of neva's struct driven by serde_json's ``Deserializer`` over the
plaintext (MRTR-PAYLOAD-2..8).

The struct's own syntax (its brackets, keys, colons and commas) is read here, each field's value
by the JSON layer (:func:`mcp_touchstone.serde_json.read_value`, serde_json's ``Value`` rules)
and checked against its field's type (:mod:`mcp_touchstone.mrtr._payload_fields`); an unknown
member is skipped as serde_json's ``ignore_value`` skips it, syntax only.  Messages carry serde's
wording at serde_json's ``line L column C`` (columns count UTF-8 bytes).
"""

from __future__ import annotations

import re
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
from mcp_touchstone.serde_json import JSON, JsonTextError, read_value

__all__ = ["PayloadReader"]

_T = TypeVar("_T")

_WHITESPACE = frozenset(" \t\n\r")
"""JSON's whitespace, the only text serde_json skips between tokens."""
_WS = re.compile(r"[ \t\n\r]*")
_PLAIN_STRING = re.compile(r'"([^"\\\x00-\x1f\ud800-\udfff]*)"')
"""A string with no escape, control character or surrogate: its value is the text between its
quotes (serde_json's ``parse_str`` borrows it as it stands); any other string is the JSON
layer's to read."""
_HEX = frozenset("0123456789abcdefABCDEF")
_DIGITS = frozenset("0123456789")
_ESCAPED = frozenset('"\\/bfnrt')
_LITERALS: dict[str, tuple[str, JSON]] = {
    "t": ("true", True),
    "f": ("false", False),
    "n": ("null", None),
}
"""JSON's three literals by their first character: the word and its value."""
_VALUE_STARTS = frozenset('"-0123456789tfn[{')
"""The characters a JSON value can begin with; serde_json's ``expected value`` at any other."""


class PayloadReader:
    """serde_json's ``Deserializer`` over the plaintext, reading one ``StatePayload``.

    The plaintext is read as UTF-8 with each invalid byte kept as a lone surrogate
    (``surrogateescape``): an ignored member may hold one, a field's value may not (the JSON
    layer refuses a surrogate, as serde_json refuses invalid UTF-8 in a string it reads)."""

    __slots__ = ("pos", "text")

    def __init__(self, data: bytes) -> None:
        self.text = data.decode("utf-8", "surrogateescape")
        self.pos = 0

    # ---------------------------------------------------------------- positions
    def _column(self, start: int, index: int) -> int:
        """UTF-8 bytes of ``text[start:index]``."""
        part = self.text[start:index]
        return len(part) if part.isascii() else len(part.encode("utf-8", "surrogateescape"))

    def error(self, message: str, at: int | None = None) -> PayloadError:
        """An error naming serde_json's ``line L column C`` with character ``at`` consumed."""
        index = min(self.pos if at is None else at, len(self.text))
        start_of_line = self.text.rfind("\n", 0, index) + 1
        line = self.text.count("\n", 0, index) + 1
        column = self._column(start_of_line, index) + (index < len(self.text))
        return PayloadError(f"{message} at line {line} column {column}")

    def before(self, message: str, index: int) -> PayloadError:
        """An error at serde_json's ``position()`` with character ``index`` not yet consumed."""
        start_of_line = self.text.rfind("\n", 0, index) + 1
        line = self.text.count("\n", 0, start_of_line) + 1
        return PayloadError(f"{message} at line {line} column {self._column(start_of_line, index)}")

    # ---------------------------------------------------------------- tokens
    def peek(self) -> str:
        """The next character after whitespace (consumed up to it), or ``""`` at the end."""
        found = self.text[self.pos : self.pos + 1]
        if found in _WHITESPACE:
            self.pos = _WS.match(self.text, self.pos).end()  # type: ignore[union-attr]
            found = self.text[self.pos : self.pos + 1]
        return found

    def expect_colon(self) -> None:
        """serde_json's ``parse_object_colon``."""
        found = self.peek()
        if found != ":":
            raise self.error("expected `:`" if found else "EOF while parsing an object")
        self.pos += 1

    def member_end(self, close: str) -> bool:
        """After a member of the struct's object (``close`` = ``}``) or array (``]``): consume
        the closing character and answer ``True``, or a ``,`` not followed by it and answer
        ``False``; anything else is serde_json's error."""
        found = self.peek()
        if found == close:
            self.pos += 1
            return True
        if found != ",":
            if not found:
                raise self.error("EOF while parsing " + ("an object" if close == "}" else "a list"))
            raise self.error(f"expected `,` or `{close}`")
        self.pos += 1
        if self.peek() == close:
            raise self.error("trailing comma")
        return False

    def value(self, depth: int, found: str | None = None) -> JSON:
        """One value under serde_json's ``Value`` rules, ``depth`` containers in (the JSON
        layer's refusal placed where it names); ``found`` is its first character when the
        caller has peeked it.  A ``true``, ``false`` or ``null`` is read by
        :meth:`parse_ident`, as serde_json reads one wherever it stands."""
        if found is None:
            found = self.peek()
        if not found:
            raise self.error("EOF while parsing a value")
        if found not in _VALUE_STARTS:
            raise self.error("expected value")
        if found in _LITERALS:
            word, literal = _LITERALS[found]
            self.parse_ident(word)
            return literal
        if found == '"' and (plain := _PLAIN_STRING.match(self.text, self.pos)):
            self.pos = plain.end()
            return plain.group(1)
        try:
            value, self.pos = read_value(self.text, self.pos, depth)
        except JsonTextError as exc:
            raise self.error(exc.reason, exc.index) from None
        return value

    def key(self) -> str:
        """A member's key: a JSON string, read as the JSON layer reads one."""
        found = self.peek()
        if found != '"':
            raise self.error("key must be a string" if found else "EOF while parsing an object")
        return cast("str", self.value(1, found))

    # ---------------------------------------------------------------- fields
    def strings(self, depth: int) -> list[str]:
        """A ``Vec<String>`` (cursor on its ``[``), element by element as serde reads it: the
        first element that is no string fails where ``peek_invalid_type`` puts it, before
        anything after it is read."""
        self.pos += 1
        out: list[str] = []
        found = self.peek()
        if found == "]":
            self.pos += 1
            return out
        if not found:
            raise self.error("EOF while parsing a list")
        while True:
            found = self.peek()
            if found in ("[", "{"):
                kind = "sequence" if found == "[" else "map"
                raise self.before(f"invalid type: {kind}, expected a string", self.pos)
            item = self.value(depth + 1, found)
            if not isinstance(item, str):
                raise self.error(invalid_type(item, "a string"), self.pos - 1)
            out.append(item)
            if self.member_end("]"):
                return out

    def typed(self, name: str, depth: int) -> JSON:
        """One field's value, refused where serde_json refuses it: a bracket that opens the
        wrong kind of value before it is read (``peek_invalid_type`` only peeks it), a scalar
        of the wrong type after it."""
        found = self.peek()
        if found in ("[", "{") and OPENS.get(name) != found:
            kind = "sequence" if found == "[" else "map"
            raise self.before(f"invalid type: {kind}, expected {EXPECTING[name]}", self.pos)
        if found == "[":
            return cast("JSON", self.strings(depth))
        value = self.value(depth, found)
        try:
            check_field(name, value)
        except PayloadError as exc:
            raise self.error(str(exc), self.pos - 1) from None
        return value

    # ---------------------------------------------------------------- the struct
    def payload(self, build: Callable[[dict[str, JSON], int | None], _T]) -> _T:
        """Read the payload's fields (serde's ``visit_map`` or ``visit_seq``) and hand them to
        ``build`` (which may raise :class:`PayloadError`) before the trailing-characters
        check, as serde does."""
        found = self.peek()
        fields: dict[str, JSON] = {}
        seq_len: int | None = None
        if found == "{":
            self.pos += 1
            if self.peek() == "}":
                self.pos += 1
            else:
                while True:
                    name = self.key()
                    if name in fields:
                        raise self.error(f"duplicate field `{name}`", self.pos - 1)
                    self.expect_colon()
                    if name in EXPECTING:
                        fields[name] = self.typed(name, 1)
                    else:
                        self.ignore_value()
                    if self.member_end("}"):
                        break
        elif found == "[":
            self.pos += 1
            seq_len = 0
            found = self.peek()
            if found == "]":
                self.pos += 1
            elif not found:
                raise self.error("EOF while parsing a list")
            else:
                while True:
                    if seq_len >= len(FIELD_ORDER):
                        raise self.error("trailing characters")
                    name = FIELD_ORDER[seq_len]
                    fields[name] = self.typed(name, 1)
                    seq_len += 1
                    if self.member_end("]"):
                        break
        else:
            # serde_json's peek_invalid_type parses the scalar, then reports after it.
            scalar = self.value(0)
            raise self.error(invalid_type(scalar, "struct StatePayload"), self.pos - 1)
        end = self.pos
        try:
            result = build(fields, seq_len)
        except PayloadError as exc:
            raise self.error(str(exc), end - 1) from None
        if self.peek():
            raise self.error("trailing characters", self.pos)
        return result

    # ---------------------------------------------------------------- ignore_value
    def ignore_value(self) -> None:
        """Skip one value as serde_json's ``ignore_value`` does (an unknown member, serde's
        ``IgnoredAny``): syntax only, with no range check on numbers, no UTF-8 or surrogate
        check on strings, and no nesting limit (an explicit stack of open containers)."""
        stack: list[str] = []  # the closing character of each open container
        while True:
            found = self.peek()
            if not found:
                raise self.error("EOF while parsing a value")
            if found == '"':
                self.ignore_str()
            elif found == "-" or found in _DIGITS:
                self.ignore_number()
            elif found in ("t", "f", "n"):
                self.parse_ident(_LITERALS[found][0])
            elif found in ("[", "{"):
                close = "]" if found == "[" else "}"
                self.pos += 1
                inner = self.peek()
                if inner == close:
                    self.pos += 1
                elif not inner and close == "]":
                    raise self.error("EOF while parsing a list")  # serde's has_next_element
                else:
                    stack.append(close)
                    if close == "}":
                        self.ignore_key()
                    continue
            else:
                raise self.error("expected value")
            # A value ended: close what it ends, or move on to the next element.
            while True:
                if not stack:
                    return
                found = self.peek()
                close = stack[-1]
                if found == close:
                    self.pos += 1
                    stack.pop()
                    continue
                if found != ",":
                    if not found:
                        raise self.error(
                            "EOF while parsing " + ("an object" if close == "}" else "a list")
                        )
                    raise self.error(f"expected `,` or `{close}`")
                # After a comma ignore_value reads on: `expected value` at a `]`, `key must be
                # a string` at a `}` (from the next value or key read).
                self.pos += 1
                if close == "}":
                    self.ignore_key()
                break

    def ignore_key(self) -> None:
        """Skip ``"key":`` inside an ignored object."""
        found = self.peek()
        if found != '"':
            raise self.error("key must be a string" if found else "EOF while parsing an object")
        self.ignore_str()
        self.expect_colon()

    def ignore_str(self) -> None:
        """serde_json's ``ignore_str`` (cursor on the opening quote): escapes and control
        characters checked, a control character reported before it.  A ``\\u`` escape with
        fewer than four characters left is ``EOF while parsing a string`` at the end, one with
        four non-hex characters is ``invalid escape`` after them."""
        text = self.text
        pos = self.pos + 1
        while True:
            if pos >= len(text):
                self.pos = pos
                raise self.error("EOF while parsing a string")
            ch = text[pos]
            if ch == '"':
                self.pos = pos + 1
                return
            if ch < " ":
                msg = "control character (\\u0000-\\u001F) found while parsing a string"
                raise self.error(msg, pos - 1)
            if ch == "\\":
                pos += 1
                if pos >= len(text):
                    self.pos = pos
                    raise self.error("EOF while parsing a string")
                if text[pos] == "u":
                    digits = text[pos + 1 : pos + 5]
                    if len(digits) < 4:
                        self.pos = len(text)
                        raise self.error("EOF while parsing a string", len(text))
                    if not _HEX.issuperset(digits):
                        raise self.error("invalid escape", pos + 4)
                    pos += 5
                    continue
                if text[pos] not in _ESCAPED:
                    raise self.error("invalid escape", pos)
            pos += 1

    def ignore_number(self) -> None:
        """serde_json's ``ignore_integer`` and what follows it: JSON's number syntax only."""
        text, pos = self.text, self.pos

        def digits(at: int) -> int:
            while at < len(text) and text[at] in _DIGITS:
                at += 1
            return at

        if text[pos] == "-":
            pos += 1
        if pos >= len(text) or text[pos] not in _DIGITS:
            raise self.error("invalid number", pos)
        if text[pos] == "0":
            pos += 1
            if pos < len(text) and text[pos] in _DIGITS:
                raise self.error("invalid number", pos)
        else:
            pos = digits(pos)
        if pos < len(text) and text[pos] == ".":
            pos += 1
            if pos >= len(text) or text[pos] not in _DIGITS:
                raise self.error("invalid number", pos)
            pos = digits(pos)
        if pos < len(text) and text[pos] in "eE":
            pos += 1
            if pos < len(text) and text[pos] in "+-":
                pos += 1
            if pos >= len(text) or text[pos] not in _DIGITS:
                raise self.error("invalid number", pos)
            pos = digits(pos)
        self.pos = pos

    def parse_ident(self, word: str) -> None:
        """Skip ``true``/``false``/``null`` as serde_json's ``parse_ident`` reads it: character
        by character after the first, failing ``expected ident`` at the first that differs, or
        ``EOF while parsing a value`` at the end of the input."""
        text, start = self.text, self.pos
        if text.startswith(word, start):
            self.pos = start + len(word)
            return
        for i in range(start + 1, start + len(word)):
            if i >= len(text):
                raise self.error("EOF while parsing a value", len(text))
            if text[i] != word[i - start]:
                raise self.error("expected ident", i)
        raise AssertionError("unreachable: the word matched")  # pragma: no cover
