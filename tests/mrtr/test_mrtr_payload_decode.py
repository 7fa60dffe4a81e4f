"""MRTR-PAYLOAD-2..8: ``StatePayload.decode`` is serde_json's ``from_slice::<StatePayload>`` as
the byte reader mirrors it, payload for payload and error for error, on sealed plaintexts
and altered ones; a payload map's plain copy is a fresh dict."""

from __future__ import annotations

import json
import math
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from types import MappingProxyType

from hypothesis import example, given
from hypothesis import strategies as st

from mcp_touchstone.mrtr import PayloadError, StatePayload
from mcp_touchstone.mrtr._payload import _build, plain_object
from mcp_touchstone.mrtr._payload_reader import PayloadReader
from mcp_touchstone.serde_json import JSON
from tests.strategies.mrtr import json_values, payloads


def _same(a: object, b: object) -> bool:
    """Equal as JSON values *and* of the same Python types throughout (``0`` is not ``-0.0``
    and ``1`` is not ``1.0``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        assert isinstance(b, list)
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        assert isinstance(b, float)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b


def _reader_or_error(data: bytes) -> StatePayload | str:
    try:
        return PayloadReader(data).payload(_build)
    except PayloadError as exc:
        return f"error: {exc}"


def _decode_or_error(data: bytes) -> StatePayload | str:
    try:
        return StatePayload.decode(data)
    except PayloadError as exc:
        return f"error: {exc}"


def _fields_equal(a: StatePayload, b: StatePayload) -> bool:
    return (
        all(
            _same(getattr(a, n), getattr(b, n))
            for n in ("exp", "req", "requested", "effects", "principal", "aud")
        )
        and _same(dict(a.answers), dict(b.answers))
        and _same(dict(a.memos), dict(b.memos))
        and type(a.answers) is type(b.answers) is MappingProxyType
        and type(a.memos) is type(b.memos) is MappingProxyType
    )


@st.composite
def _payload_texts(draw: st.DrawFn) -> bytes:
    """A sealed payload's plaintext, often altered: a field repeated, dropped, retyped or
    renamed, an escape, a name nested inside a value, whitespace, trailing bytes."""
    p = draw(payloads())
    obj = json.loads(p.encode())
    names = list(obj)
    action = draw(st.integers(0, 8))
    if action == 1 and names:
        del obj[draw(st.sampled_from(names))]
    elif action == 2 and names:
        obj[draw(st.sampled_from(names))] = draw(
            st.sampled_from([None, 1, -1, 2**64, "x", [], ["a", 1], {}, 1.5, True])
        )
    elif action == 3:
        obj["answers"] = {"exp": {"req": "answers"}}
    elif action == 4 and names:
        items = list(obj.items())
        obj = dict(draw(st.permutations(items)))
    data = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if action == 5:
        field = draw(st.sampled_from([b'"exp":5', b'"req":"r"', b'"answers":{}', b'"aud":null']))
        data = data[:1] + field + b"," + data[1:]
    elif action == 6:
        data = data.replace(b'"req"', b'"r\\u0065q"', 1)
    elif action == 7:
        data = draw(st.sampled_from([b" ", b"\n"])) + data + draw(st.sampled_from([b"", b" x"]))
    elif action == 8:
        data = data.replace(b",", b", ", 1).replace(b":", b" :", 1)
    return data


@given(_payload_texts())
@example(b'{"answers":{},"exp":5,"req":"r","exp":6}')
@example(b'{"answers":{},"exp":5,"req":"r","effects":["a","a","b"]}')
@example(b'{"exp":5,"req":"r","answers":{"k":-0}}')
@example(b'{"answers":{},"exp":18446744073709551616,"req":"r"}')
@example(b'["answers"]')
def test_decode_is_the_byte_reader_errors_included(data: bytes) -> None:
    """MRTR-PAYLOAD-2..8: StatePayload.decode (the JSON layer's value read under the typed
    rules, the byte reader for the rest) gives the byte reader's payload, field for field, or
    its error message byte for byte."""
    fast = _decode_or_error(data)
    slow = _reader_or_error(data)
    if isinstance(slow, str) or isinstance(fast, str):
        assert fast == slow
    else:
        assert _fields_equal(fast, slow)


class _Odd(Mapping[str, JSON]):
    """A mapping that is not a dict (its copy is not a dict either)."""

    def __init__(self, items: dict[str, JSON]) -> None:
        self._items = items

    def __getitem__(self, key: str) -> JSON:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def copy(self) -> _Odd:
        return _Odd(self._items)


@given(st.dictionaries(st.text(max_size=3), json_values, max_size=4))
def test_plain_object_is_a_fresh_dict_copy(items: dict[str, JSON]) -> None:
    """A payload map's plain copy equals dict(map) for every kind of mapping and is a new
    dict (writing to it never reaches the payload)."""
    for m in (
        MappingProxyType(dict(items)),
        MappingProxyType(OrderedDict(items)),
        MappingProxyType(_Odd(items)),
        dict(items),
    ):
        plain = plain_object(m)
        assert type(plain) is dict
        assert plain == dict(m)
        assert list(plain) == list(dict(m))
        plain["\x00new"] = 1
        assert "\x00new" not in m
