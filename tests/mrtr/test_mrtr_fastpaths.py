"""Differentials for the requestState payload's fast paths: each one gives the answer
of the general path it short-cuts, errors byte for byte (MRTR-PAYLOAD-*). The token layer's and
the binding's: test_mrtr_token_fastpaths.py."""

from __future__ import annotations

import json
import math
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from types import MappingProxyType

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from mcp_touchstone.mrtr import PayloadError, StatePayload
from mcp_touchstone.mrtr._payload import _assemble, _build, _from_object_fast, plain_object
from mcp_touchstone.mrtr._payload_reader import PayloadReader
from mcp_touchstone.mrtr._plain_json import parse_plain
from mcp_touchstone.serde_json import JSON, JsonError, from_str
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


def _from_str_or_error(data: bytes) -> JSON | str:
    try:
        return from_str(data)
    except JsonError as exc:
        return f"error: {exc}"


_NUMBER_TEXTS = st.sampled_from(
    [
        b"0",
        b"-0",
        b"-0.0",
        b"7",
        b"-7",
        b"123456789012345678",
        b"-12345678901234567",
        b"-123456789012345678",
        b"1234567890123456789",
        b"18446744073709551615",
        b"18446744073709551616",
        b"-9223372036854775809",
        b"1.5",
        b"1e5",
        b"1E400",
        b"NaN",
        b"Infinity",
        b"-Infinity",
        b"01",
        b"1.",
        b"--1",
    ]
)
_PIECES = st.one_of(
    _NUMBER_TEXTS,
    st.sampled_from(
        [b"{", b"}", b"[", b"]", b",", b":", b" ", b"\t", b"\n", b'"', b'"k"', b"\\", b"\\u00e9"]
    ),
    st.sampled_from([b"\xef\xbb\xbf", b"\xff", b"\xc3\xa9", b"\x01", b"\xed\xa0\x80"]),
    st.sampled_from([b"true", b"false", b"null", b"nul", b'"answers"']),
)


@st.composite
def _json_texts(draw: st.DrawFn) -> bytes:
    """A JSON object text (any value nested in it, compact or spaced), often broken: a piece
    inserted, a byte dropped, or deep nesting."""
    value = {"k": draw(json_values), "n": draw(st.lists(json_values, max_size=3))}
    spaced = draw(st.booleans())
    text = json.dumps(value, ensure_ascii=draw(st.booleans()), indent=1 if spaced else None)
    data = text.encode("utf-8", "surrogatepass")
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(data)))
        if draw(st.booleans()):
            data = data[:at] + draw(_PIECES) + data[at:]
        else:
            data = data[:at] + data[at + 1 :]
    if draw(st.integers(0, 9)) == 0:
        depth = draw(st.integers(120, 130))
        data = b"{" + b'"d":' + b"[" * depth + b"]" * depth + b"}"
    return data


@given(_json_texts())
@example(b'{"a":-0}')
@example(b'{"a":1234567890123456789}')
@example(b'{"a":1.0}')
@example(b'{"a":[1]} ')
@example(b' {"a":1}')
@example(b'\xef\xbb\xbf{"a":1}')
@example(b'{"a":"\x01"}')
@example(b'{"a":1,"a":2}')
@example(b'{"a":' + b"[" * 126 + b"]" * 126 + b"}")
@example(b'{"a":' + b"[" * 127 + b"]" * 127 + b"}")
def test_plain_parse_is_the_json_layer_where_it_answers(data: bytes) -> None:
    """MRTR-PAYLOAD-8: where the plain scan answers, it is from_str's value type for type; it
    never answers for a text from_str refuses."""
    plain = parse_plain(data)
    if plain is not None:
        assert _same(plain, _from_str_or_error(data))


_PLAIN_TEXT = st.text(alphabet="abz019 \u00e9\u4e2d-", max_size=5)
_PLAIN_VALUES: st.SearchStrategy[JSON] = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**16), 10**17) | _PLAIN_TEXT,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(_PLAIN_TEXT, children, max_size=3)
    ),
    max_leaves=10,
)


@given(st.dictionaries(_PLAIN_TEXT, _PLAIN_VALUES, max_size=4))
def test_plain_parse_answers_for_plain_objects(value: dict[str, JSON]) -> None:
    """MRTR-PAYLOAD-8: a compact, escape-free object whose numbers are short integers is
    taken by the plain scan (the fast path is exercised, not merely allowed), as from_str."""
    data = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    plain = parse_plain(data)
    assert plain is not None
    assert _same(plain, from_str(data))


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
    """MRTR-PAYLOAD-2..8: StatePayload.decode (fast paths first) gives the byte reader's
    payload, field for field, or its error message byte for byte."""
    fast = _decode_or_error(data)
    slow = _reader_or_error(data)
    if isinstance(slow, str) or isinstance(fast, str):
        assert fast == slow
    else:
        assert _fields_equal(fast, slow)


@given(payloads())
def test_a_sealed_plaintext_takes_the_fast_path(p: StatePayload) -> None:
    """MRTR-PAYLOAD-1: the plaintext a seal writes decodes through the object fast path (so
    the benchmark measures the fast path) to the typed reader's payload (floats are read back
    serde's way, not always to the same double, so the sealed payload itself is not the
    reference)."""
    obj = from_str(p.encode())
    assert isinstance(obj, dict)
    fast = _from_object_fast(obj)
    assert fast is not None
    reference = StatePayload.from_json(obj)
    assert fast == reference
    assert _fields_equal(fast, reference)


@given(
    st.dictionaries(st.text(max_size=3), json_values, max_size=2),
    st.integers(0, 2**64 - 1),
    st.text(max_size=4),
    st.lists(st.text(max_size=2), max_size=3),
    st.dictionaries(st.text(max_size=3), json_values, max_size=2),
    st.lists(st.sampled_from(["a", "b", "c"]), max_size=4),
    st.none() | st.text(max_size=3),
    st.none() | st.text(max_size=3),
)
def test_assemble_is_the_constructor(  # noqa: PLR0917 - one argument per payload field
    answers: dict[str, JSON],
    exp: int,
    req: str,
    requested: list[str],
    memos: dict[str, JSON],
    effects: list[str],
    principal: str | None,
    aud: str | None,
) -> None:
    """The slot-setting constructor of the decode fast path builds the value the dataclass
    constructor builds from the same fields (equal, same repr, same field types)."""
    built = StatePayload(
        answers=answers,
        exp=exp,
        req=req,
        requested=tuple(requested),
        memos=memos,
        effects=tuple(effects),
        principal=principal,
        aud=aud,
    )
    fast = _assemble(
        MappingProxyType(dict(answers)),
        exp,
        req,
        tuple(requested),
        MappingProxyType(dict(memos)),
        tuple(dict.fromkeys(effects)),
        principal,
        aud,
    )
    assert fast == built
    assert repr(fast) == repr(built)
    assert _fields_equal(fast, built)
    with pytest.raises(AttributeError):
        fast.exp = 0  # type: ignore[misc]  # still frozen


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
