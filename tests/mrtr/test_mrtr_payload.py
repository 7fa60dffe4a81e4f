"""StatePayload encode/decode as serde_json does it (spec/mrtr.md MRTR-PAYLOAD-*)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.mrtr import PayloadError, StatePayload
from mcp_touchstone.serde_json import JSON, from_str, to_string_ordered
from tests.strategies.mrtr import json_values, payloads

MINIMAL = b'{"answers":{},"exp":5,"req":"r"}'


def test_encode_is_compact_in_declared_order() -> None:
    """MRTR-PAYLOAD-1: every field written, in declared order, principal/aud as null."""
    p = StatePayload(answers={"k": 1}, exp=5, req="r", effects=("e",))
    assert p.encode() == (
        b'{"answers":{"k":1},"requested":[],"memos":{},"effects":["e"],"exp":5,"req":"r",'
        b'"principal":null,"aud":null}'
    )


def test_encode_sorts_the_objects_inside_values() -> None:
    """MRTR-PAYLOAD-1, MRTR-PAYLOAD-5: answer and memo values are serde_json Values (B-tree
    maps): their objects are written key-sorted at every depth, and the two maps too."""
    p = StatePayload(
        answers={"z": {"b": [{"d": 1, "c": 2}], "a": None}, "y": 1},
        exp=5,
        req="r",
        memos={"m": {"y": 1.0, "x": "é"}},
    )
    assert (
        p.encode()
        == (
            '{"answers":{"y":1,"z":{"a":null,"b":[{"c":2,"d":1}]}},"requested":[],'
            '"memos":{"m":{"x":"é","y":1.0}},"effects":[],"exp":5,"req":"r",'
            '"principal":null,"aud":null}'
        ).encode()
    )


def _sorted_deep(value: JSON) -> JSON:
    if isinstance(value, dict):
        return {k: _sorted_deep(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted_deep(v) for v in value]
    return value


@given(payloads())
def test_encode_matches_the_general_writer(p: StatePayload) -> None:
    """MRTR-PAYLOAD-1: the hand-assembled plaintext equals the JSON layer's ordered writer
    over the declared fields with the two value maps sorted at every depth."""
    expected = {**p.to_json(), "answers": _sorted_deep(dict(p.answers))}
    expected["memos"] = _sorted_deep(dict(p.memos))
    assert p.encode() == to_string_ordered(expected).encode()


def test_effects_collapse_duplicates() -> None:
    """MRTR-PAYLOAD-5: effects is a set; duplicates collapse keeping first occurrence."""
    assert StatePayload(answers={}, exp=1, req="r", effects=("b", "a", "b")).effects == ("b", "a")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"not json", "expected ident at line 1 column 2"),
        (b"{}", "missing field `answers` at line 1 column 2"),
        (b'{"answers":{},"exp":5,"exp":5,"req":"r"}', "duplicate field `exp` at line 1 column 27"),
        (b'{"answers":{},"exp":5,"req":"r"} x', "trailing characters at line 1 column 34"),
        (b'{"answers":{},"req":"r"}', "missing field `exp`"),
        (b'{"answers":{},"exp":-1,"req":"r"}', "invalid value: integer `-1`, expected u64"),
        (b'{"answers":{},"exp":5.0,"req":"r"}', "invalid type: floating point `5.0`, expected u64"),
        (b'{"answers":{},"exp":5,"req":"r","memos":null}', "invalid type: null, expected a map"),
    ],
)
def test_decode_errors_use_serde_wording(text: bytes, message: str) -> None:
    """MRTR-PAYLOAD-8, MRTR-PAYLOAD-2, MRTR-PAYLOAD-3, MRTR-PAYLOAD-4: serde_json's wording."""
    with pytest.raises(PayloadError) as exc:
        StatePayload.decode(text)
    assert str(exc.value).startswith(message)


@pytest.mark.parametrize(
    "text",
    [
        b'{"answers":{},"exp":5,"req":"r","x":1E400}',
        b'{"answers":{},"exp":5,"req":"r","x":"\\ud800"}',
        b'{"answers":{},"exp":5,"req":"r","x":"\xff"}',
    ],
)
def test_unknown_members_are_skipped_syntactically(text: bytes) -> None:
    """MRTR-PAYLOAD-8: an ignored member is not range- or UTF-8-checked (serde's IgnoredAny)."""
    assert StatePayload.decode(text).exp == 5


@pytest.mark.parametrize(
    "text",
    [
        b'{"answers":{"x":1E400},"exp":5,"req":"r"}',
        b'{"answers":{"x":"\\ud800"},"exp":5,"req":"r"}',
        b'{"answers":{},"exp":5,"req":"r","x":tru}',
        b'{"answers":{},"exp":5,"req":"r","x":01}',
        b'{"answers":{},"exp":5,"req":"r","x":"\x01"}',
        b'{"answers":{},"exp":5,"req":"r"',
        b"",
    ],
)
def test_known_members_are_fully_checked(text: bytes) -> None:
    """MRTR-PAYLOAD-7, MRTR-OPEN-9: answers values follow the Value model; syntax is strict."""
    with pytest.raises(PayloadError):
        StatePayload.decode(text)


def test_nesting_limit() -> None:
    """MRTR-PAYLOAD-8: typed fields stop at 128 levels; ignored members have no limit."""
    ok = b'{"answers":{"k":' + b"[" * 125 + b"]" * 125 + b'},"exp":5,"req":"r"}'
    assert StatePayload.decode(ok).exp == 5
    deep = b'{"answers":{"k":' + b"[" * 126 + b"]" * 126 + b'},"exp":5,"req":"r"}'
    with pytest.raises(PayloadError):
        StatePayload.decode(deep)
    ignored = b'{"answers":{},"exp":5,"req":"r","x":' + b"[" * 50_000 + b"]" * 50_000 + b"}"
    assert StatePayload.decode(ignored).exp == 5


def test_sequence_form() -> None:
    """MRTR-PAYLOAD-6: the struct reads from an array in field order; principal needs a slot."""
    p = StatePayload.decode(b'[{"k":1},["q"],{},["e"],9,"r",null]')
    assert (p.requested, p.effects, p.exp) == (("q",), ("e",), 9)
    with pytest.raises(PayloadError):
        StatePayload.decode(b'[{},[],{},[],9,"r"]')
    with pytest.raises(PayloadError):
        StatePayload.decode(b'[{},[],{},[],9,"r",null,null,1]')


@given(payloads())
def test_encode_then_decode_matches_the_text(p: StatePayload) -> None:
    """MRTR-PAYLOAD-1, MRTR-PAYLOAD-7: decoding the encoding equals reading its Value."""
    text = p.encode()
    value = from_str(text)
    assert StatePayload.decode(text) == StatePayload.from_json(value)


@given(
    st.dictionaries(
        st.sampled_from(
            ["answers", "requested", "memos", "effects", "exp", "req", "principal", "aud", "x"]
        ),
        json_values,
    )
)
def test_text_and_value_decoders_agree(fields: dict[str, JSON]) -> None:
    """MRTR-PAYLOAD-2, MRTR-PAYLOAD-3: the byte and value decoders accept the same objects."""
    text = to_string_ordered(fields).encode()
    try:
        from_text: StatePayload | None = StatePayload.decode(text)
    except PayloadError:
        from_text = None
    try:
        from_value: StatePayload | None = StatePayload.from_json(from_str(text))
    except PayloadError:
        from_value = None
    assert from_text == from_value


@pytest.mark.parametrize(
    "data",
    [
        b'{"answers":{},"exp":18446744073709551615,"req":"x"}',
        b'{ "answers" : {}, "exp" : 18446744073709551615 , "req":"x", "zz": [1]}',
        # serde's sequence form of the struct.
        b'[{},[],{},[],18446744073709551615,"x",null]',
    ],
)
def test_payload_exp_accepts_u64_max_in_either_struct_form(data: bytes) -> None:
    """MRTR-PAYLOAD-3: ``exp`` is a u64, so exactly 2**64 - 1 decodes in the object and the
    sequence form, and one more reads as a float, an invalid type."""
    assert StatePayload.decode(data).exp == (1 << 64) - 1
    with pytest.raises(PayloadError, match=r"invalid type: floating point `1\.8446744073709552e"):
        StatePayload.decode(data.replace(b"551615", b"551616"))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        # An ignored member whose value starts with a byte no JSON value starts with: serde's
        # ignore_value peeks it and fails "expected value" at that byte's own column.
        (b'{"answers":{},"exp":5,"req":"r","x":X}', "expected value at line 1 column 37"),
        (b'{"answers":{},"exp":5,"req":"r","x":[1,X]}', "expected value at line 1 column 40"),
    ],
)
def test_skipped_member_errors_name_serde_position(data: bytes, message: str) -> None:
    """MRTR-PAYLOAD-8: a byte that starts no value inside an ignored member fails with serde's
    ``expected value`` at that byte's column."""
    with pytest.raises(PayloadError) as exc:
        StatePayload.decode(data)
    assert str(exc.value) == message


@pytest.mark.parametrize(
    ("data", "message"),
    [
        # serde_json's parse_ident consumes the literal byte by byte and fails at the first byte
        # that differs (the column of that byte), or at the end of the input.
        (b'{"answers":{},"exp":5,"req":"r","x":nux}', "expected ident at line 1 column 39"),
        (b'{"answers":{},"exp":5,"req":"r","x":nul}', "expected ident at line 1 column 40"),
        (
            b'{"answers":{},"exp":5,"req":"r","x":tru',
            "EOF while parsing a value at line 1 column 39",
        ),
        (b'{"answers":nul}', "expected ident at line 1 column 15"),
        (b"[fals]", "expected ident at line 1 column 6"),
        (b"nul", "EOF while parsing a value at line 1 column 3"),
        (b"not json", "expected ident at line 1 column 2"),
    ],
)
def test_truncated_literals_fail_where_serde_parse_ident_stops(data: bytes, message: str) -> None:
    """MRTR-PAYLOAD-8: a broken ``true``/``false``/``null`` fails where serde_json's
    ``parse_ident`` stops: the first differing byte, or ``EOF while parsing a value``."""
    with pytest.raises(PayloadError) as exc:
        StatePayload.decode(data)
    assert str(exc.value) == message


@pytest.mark.parametrize(
    ("data", "message"),
    [
        # A number that ends the input: the scan stops at the end, then the object is unclosed.
        (
            b'{"answers":{},"exp":5,"req":"r","x":0',
            "EOF while parsing an object at line 1 column 37",
        ),
        (
            b'{"answers":{},"exp":5,"req":"r","x":1e5',
            "EOF while parsing an object at line 1 column 39",
        ),
        (b'{"answers":{},"req":"r","exp":0', "EOF while parsing an object at line 1 column 31"),
        # A missing comma in a skipped container: serde peeks the byte that should be `,`.
        (b'{"answers":{},"exp":5,"req":"r","x":[1 2]}', "expected `,` or `]` at line 1 column 40"),
        (
            b'{"answers":{},"exp":5,"req":"r","x":{"a":1 "b":2}}',
            "expected `,` or `}` at line 1 column 44",
        ),
    ],
)
def test_payload_reader_edges_fail_with_serde_messages(data: bytes, message: str) -> None:
    """MRTR-PAYLOAD-8: a number at the very end of the input and a missing comma inside an
    ignored member fail with serde_json's message and position."""
    with pytest.raises(PayloadError) as exc:
        StatePayload.decode(data)
    assert str(exc.value) == message


@pytest.mark.parametrize("data", [b"{} ", b"{}x", b"{}\n"])
def test_empty_object_payload_reports_missing_field_at_its_end(data: bytes) -> None:
    """MRTR-PAYLOAD-8: ``{}`` followed by anything fails with ``missing field `answers``` at the
    closing brace, column 2, before any trailing byte is read."""
    with pytest.raises(PayloadError) as exc:
        StatePayload.decode(data)
    assert str(exc.value) == "missing field `answers` at line 1 column 2"
