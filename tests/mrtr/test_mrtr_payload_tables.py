"""The payload decoder walked field by field, in serde's map form and its sequence form, with
every message whole and at serde_json's position (``de.rs`` ``peek_invalid_type``: a wrong
bracket is refused before it is read, a wrong scalar after it; ``read.rs`` ``parse_str`` /
``ignore_str``), and strict base64url's messages; expectations written by hand."""

from __future__ import annotations

import pydantic
import pytest

from mcp_touchstone.mrtr import PayloadError, StatePayload
from mcp_touchstone.mrtr._b64 import B64Error, b64url_decode, b64url_encode
from mcp_touchstone.mrtr._payload import FIELD_ORDER
from mcp_touchstone.mrtr.wire import CreateMessageResult, ElicitResult, InputRequiredResult

TAIL = ',"answers":{},"exp":5,"req":"r"}'


def refusal(data: bytes) -> str:
    """The message decode raises for ``data``."""
    with pytest.raises(PayloadError) as exc:
        StatePayload.decode(data)
    return str(exc.value)


def test_field_order_is_nevas() -> None:
    """MRTR-PAYLOAD-1: neva's declared field order."""
    assert FIELD_ORDER == (
        "answers",
        "requested",
        "memos",
        "effects",
        "exp",
        "req",
        "principal",
        "aud",
    )


# Each field with a value of the wrong type and serde's wording. `before` marks a bracket,
# which serde refuses at the bracket (column = bytes before it); a scalar is refused after
# it (column = bytes through it).
WRONG: list[tuple[str, str, str, bool]] = [
    ("answers", "[]", "invalid type: sequence, expected a map", True),
    ("answers", "[1,", "invalid type: sequence, expected a map", True),
    ("answers", "1", "invalid type: integer `1`, expected a map", False),
    ("answers", '"s"', 'invalid type: string "s", expected a map', False),
    ("answers", "null", "invalid type: null, expected a map", False),
    ("answers", "true", "invalid type: boolean `true`, expected a map", False),
    ("answers", "1.5", "invalid type: floating point `1.5`, expected a map", False),
    ("memos", "[]", "invalid type: sequence, expected a map", True),
    ("memos", "7", "invalid type: integer `7`, expected a map", False),
    ("memos", "null", "invalid type: null, expected a map", False),
    ("requested", "{}", "invalid type: map, expected a sequence", True),
    ("requested", '{"a":', "invalid type: map, expected a sequence", True),
    ("requested", "12", "invalid type: integer `12`, expected a sequence", False),
    ("requested", "null", "invalid type: null, expected a sequence", False),
    ("requested", '"a"', 'invalid type: string "a", expected a sequence', False),
    ("effects", "{}", "invalid type: map, expected a sequence", True),
    ("effects", "false", "invalid type: boolean `false`, expected a sequence", False),
    ("exp", "[]", "invalid type: sequence, expected u64", True),
    ("exp", "{}", "invalid type: map, expected u64", True),
    ("exp", '"5"', 'invalid type: string "5", expected u64', False),
    ("exp", "-1", "invalid value: integer `-1`, expected u64", False),
    ("exp", "1.0", "invalid type: floating point `1.0`, expected u64", False),
    ("exp", "null", "invalid type: null, expected u64", False),
    ("exp", "true", "invalid type: boolean `true`, expected u64", False),
    ("req", "[]", "invalid type: sequence, expected a string", True),
    ("req", "{}", "invalid type: map, expected a string", True),
    ("req", "5", "invalid type: integer `5`, expected a string", False),
    ("req", "null", "invalid type: null, expected a string", False),
    ("principal", "[]", "invalid type: sequence, expected a string", True),
    ("principal", "{}", "invalid type: map, expected a string", True),
    ("principal", "5", "invalid type: integer `5`, expected a string", False),
    ("principal", "true", "invalid type: boolean `true`, expected a string", False),
    ("aud", "[1]", "invalid type: sequence, expected a string", True),
    ("aud", "0", "invalid type: integer `0`, expected a string", False),
]


@pytest.mark.parametrize(("name", "value", "message", "before"), WRONG)
def test_each_field_refuses_each_wrong_type_by_name(
    name: str, value: str, message: str, before: bool
) -> None:
    """MRTR-PAYLOAD-3, MRTR-PAYLOAD-8: the map form, at serde's column."""
    prefix = f'{{"{name}":'
    column = len(prefix) if before else len(prefix) + len(value)
    data = (prefix + value + TAIL).encode()
    assert refusal(data) == f"{message} at line 1 column {column}"


GOOD_SEQ = ["{}", "[]", "{}", "[]", "5", '"r"', "null", "null"]


@pytest.mark.parametrize(("name", "value", "message", "before"), WRONG)
def test_each_field_refuses_each_wrong_type_by_position(
    name: str, value: str, message: str, before: bool
) -> None:
    """MRTR-PAYLOAD-6, MRTR-PAYLOAD-8: the sequence form, the field at its declared index."""
    index = FIELD_ORDER.index(name)
    prefix = "[" + "".join(v + "," for v in GOOD_SEQ[:index])
    column = len(prefix) if before else len(prefix) + len(value)
    rest = "".join("," + v for v in GOOD_SEQ[index + 1 :]) + "]"
    assert refusal((prefix + value + rest).encode()) == f"{message} at line 1 column {column}"


def test_a_position_after_a_newline_counts_from_the_line() -> None:
    """MRTR-PAYLOAD-8: serde's column restarts at each newline, 0 before the first byte."""
    assert refusal(b'{"exp":\n[1]}') == "invalid type: sequence, expected u64 at line 2 column 0"
    assert refusal(b'{"exp":\n  {}}') == "invalid type: map, expected u64 at line 2 column 2"
    # a newline as the very first byte: the next line starts at byte 1
    assert refusal(b'\n{"exp":[1]}') == "invalid type: sequence, expected u64 at line 2 column 7"
    assert (
        refusal(b'{\n"exp":\n"x"}') == 'invalid type: string "x", expected u64 at line 3 column 3'
    )


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("[1]", "invalid type: integer `1`, expected a string at line 1 column 15"),
        ('["a",{}]', "invalid type: map, expected a string at line 1 column 18"),
        ('["a",[', "invalid type: sequence, expected a string at line 1 column 18"),
        ('["a",null]', "invalid type: null, expected a string at line 1 column 22"),
        ('["a", 1, X', "invalid type: integer `1`, expected a string at line 1 column 20"),
        ('["a",]', "trailing comma at line 1 column 19"),
        ('["a" "b"]', "expected `,` or `]` at line 1 column 19"),
        ('["a",', "EOF while parsing a value at line 1 column 18"),
        ('["a"', "EOF while parsing a list at line 1 column 17"),
        ("[", "EOF while parsing a list at line 1 column 14"),
        ("[ ", "EOF while parsing a list at line 1 column 15"),
    ],
)
def test_string_list_elements_in_order(value: str, message: str) -> None:
    """MRTR-PAYLOAD-3: a Vec<String> is read element by element; the first bad one answers."""
    assert refusal(b'{"requested":' + value.encode()) == message
    shifted = message.replace(
        f"column {message.rsplit(' ', 1)[1]}", f"column {int(message.rsplit(' ', 1)[1]) - 2}"
    )
    assert refusal(b'{"effects":' + value.encode()) == shifted


def test_string_lists_keep_their_strings() -> None:
    """MRTR-PAYLOAD-3, MRTR-PAYLOAD-5: an empty list, spaced elements and escapes read back."""
    p = StatePayload.decode(b'{"requested":[ ],"effects":[ "a" , "\\u0062","a" ]' + TAIL.encode())
    assert (p.requested, p.effects) == ((), ("a", "b"))
    p = StatePayload.decode(b'[{},["x","y"],{},[],5,"r",null]')
    assert (p.requested, p.effects, p.principal, p.aud) == (("x", "y"), (), None, None)
    p = StatePayload.decode(b'{"requested":[ "a" ,"b",\t"c" ]' + TAIL.encode())
    assert p.requested == ("a", "b", "c")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'"s"', 'invalid type: string "s", expected struct StatePayload at line 1 column 3'),
        (b"true", "invalid type: boolean `true`, expected struct StatePayload at line 1 column 4"),
        (
            b"false",
            "invalid type: boolean `false`, expected struct StatePayload at line 1 column 5",
        ),
        (b"null", "invalid type: null, expected struct StatePayload at line 1 column 4"),
        (b"5", "invalid type: integer `5`, expected struct StatePayload at line 1 column 1"),
        (
            b"12345 ",
            "invalid type: integer `12345`, expected struct StatePayload at line 1 column 5",
        ),
        (b'  "abc"', 'invalid type: string "abc", expected struct StatePayload at line 1 column 7'),
        (
            b"-1.5",
            "invalid type: floating point `-1.5`, expected struct StatePayload at line 1 column 4",
        ),
        (b'\n"ab"', 'invalid type: string "ab", expected struct StatePayload at line 2 column 4'),
        (b"x", "expected value at line 1 column 1"),
        (b"\xef\xbb\xbf{}", "expected value at line 1 column 1"),
        (b"", "EOF while parsing a value at line 1 column 0"),
        (b"  ", "EOF while parsing a value at line 1 column 2"),
    ],
)
def test_a_scalar_payload_is_refused_after_it(data: bytes, message: str) -> None:
    """MRTR-PAYLOAD-8: peek_invalid_type parses the scalar, then reports after it."""
    assert refusal(data) == message


@pytest.mark.parametrize("escape", ['"', "\\", "/", "b", "f", "n", "r", "t", "u00e9"])
def test_every_json_escape_is_read(escape: str) -> None:
    """MRTR-PAYLOAD-8: the eight one-letter escapes and \\u, in a key, a value, ignored or not."""
    texts = [
        f'{{"answers":{{"k\\{escape}":"v\\{escape}"}},"exp":1,"req":"r"}}',
        f'{{"zz":{{"k\\{escape}":"v\\{escape}"}},"answers":{{}},"exp":1,"req":"r"}}',
    ]
    for text in texts:
        assert StatePayload.decode(text.encode()).exp == 1


@pytest.mark.parametrize(
    ("data", "message"),
    [
        # A control byte: parse_str (a known field's value, any key) reports after it,
        # ignore_str (an ignored member) before it.
        (
            b'{"req":"a\x01"}',
            "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 10",
        ),
        (
            b'{"answers":{"a\x01":1}}',
            "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 15",
        ),
        (
            b'{"a\x01":1}',
            "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 4",
        ),
        (
            b'{"zz":"a\x01"}',
            "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 8",
        ),
        (
            b'{"zz":{"k\x1f":1}}',
            "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 9",
        ),
        # ... and so is a later key of an ignored object (read after its `,`)
        (
            b'{"zz":{"a":1,"k\x1f":1}}',
            "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 15",
        ),
        # A \u escape: fewer than four bytes left is EOF at the end; four non-hex bytes are an
        # invalid escape after them; any other escape letter is refused after it.
        (b'{"zz":"\\u12', "EOF while parsing a string at line 1 column 11"),
        (b'{"zz":"\\u12"}', "invalid escape at line 1 column 13"),
        (b'{"zz":"\\u12x4"}', "invalid escape at line 1 column 13"),
        (b'{"zz":"\\x"}', "invalid escape at line 1 column 9"),
        (b'{"zz":"\\X"}', "invalid escape at line 1 column 9"),
        (b'{"zz":"\\', "EOF while parsing a string at line 1 column 8"),
        (b'{"zz":"abc', "EOF while parsing a string at line 1 column 10"),
    ],
)
def test_string_faults_at_serdes_position(data: bytes, message: str) -> None:
    """MRTR-PAYLOAD-8: serde_json's SliceRead positions for string faults."""
    assert refusal(data) == message


@pytest.mark.parametrize(
    ("data", "message"),
    [
        # ignore_value reads on after a comma: a `]` is no value, a `}` is no key.
        (b'{"zz":[1,]}', "expected value at line 1 column 10"),
        (b'{"zz":{"a":1,}}', "key must be a string at line 1 column 14"),
        (b'{"zz":[[1],[2,]]}', "expected value at line 1 column 15"),
        # the struct's own members
        (b'{"answers":{},}', "trailing comma at line 1 column 15"),
        (b"[{},]", "trailing comma at line 1 column 5"),
    ],
)
def test_trailing_commas_by_reader(data: bytes, message: str) -> None:
    """MRTR-PAYLOAD-8: ignored members use ignore_value's errors, typed ones parse_seq's."""
    assert refusal(data) == message


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"{}", "missing field `answers` at line 1 column 2"),
        (b'{"answers":{}}', "missing field `exp` at line 1 column 14"),
        (b'{"answers":{},"exp":1}', "missing field `req` at line 1 column 22"),
        (b'{"exp":1,"req":"r"}', "missing field `answers` at line 1 column 19"),
        (
            b"[]",
            "invalid length 0, expected struct StatePayload with 8 elements at line 1 column 2",
        ),
        (
            b"[{}]",
            "invalid length 4, expected struct StatePayload with 8 elements at line 1 column 4",
        ),
        (
            b"[{},[],{},[],5]",
            "invalid length 5, expected struct StatePayload with 8 elements at line 1 column 15",
        ),
        (
            b'[{},[],{},[],5,"r"]',
            "invalid length 6, expected struct StatePayload with 8 elements at line 1 column 19",
        ),
        (b'[{},[],{},[],5,"r",null,null,1]', "trailing characters at line 1 column 30"),
        (b'{"exp":1,"exp":2}', "duplicate field `exp` at line 1 column 14"),
        (b'{"answers":{},"\\u0061nswers":{}}', "duplicate field `answers` at line 1 column 28"),
        (b'{ "exp" : 1 ,\n "exp" :2}', "duplicate field `exp` at line 2 column 6"),
        (b'{"answers":{} ,"answers" : {}}', "duplicate field `answers` at line 1 column 24"),
        (b'{"answers":{}, "exp" 5}', "expected `:` at line 1 column 22"),
        (b'{"answers":{} "exp":5}', "expected `,` or `}` at line 1 column 15"),
        (b'{"answers":{},"exp":5,"req":"r"} x', "trailing characters at line 1 column 34"),
    ],
)
def test_struct_level_faults(data: bytes, message: str) -> None:
    """MRTR-PAYLOAD-2, MRTR-PAYLOAD-4, MRTR-PAYLOAD-6: missing, short, long, repeated, trailing."""
    assert refusal(data) == message


@pytest.mark.parametrize(
    ("data", "message"),
    [
        # has_next_element: EOF where an element or `]` may come is EOF in a list; after a
        # comma it is EOF where a value must come.
        (b"[", "EOF while parsing a list at line 1 column 1"),
        (b"[{}", "EOF while parsing a list at line 1 column 3"),
        (b"[{},", "EOF while parsing a value at line 1 column 4"),
        (b'{"zz":[', "EOF while parsing a list at line 1 column 7"),
        (b'{"zz":[1', "EOF while parsing a list at line 1 column 8"),
        (b'{"zz":{', "EOF while parsing an object at line 1 column 7"),
        (b'{"zz":{"a":1', "EOF while parsing an object at line 1 column 12"),
        (b'{"zz":{"a":[1] ', "EOF while parsing an object at line 1 column 15"),
        (b"{", "EOF while parsing an object at line 1 column 1"),
        (b'{"answers":{}', "EOF while parsing an object at line 1 column 13"),
    ],
)
def test_eof_inside_containers(data: bytes, message: str) -> None:
    """MRTR-PAYLOAD-8: serde_json's EOF wording depends on what may come next."""
    assert refusal(data) == message


def test_the_sequence_form_defaults_only_defaulted_fields() -> None:
    """MRTR-PAYLOAD-6: seven elements read (aud defaults); principal has no default there."""
    p = StatePayload.decode(b'[{"k":1},["a"],{"m":2},["e"],9,"r","al"]')
    assert (
        dict(p.answers),
        p.requested,
        dict(p.memos),
        p.effects,
        p.exp,
        p.req,
        p.principal,
        p.aud,
    ) == ({"k": 1}, ("a",), {"m": 2}, ("e",), 9, "r", "al", None)


# ------------------------------------------------------------------ base64url


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AA=", "invalid base64url symbol"),
        ("A+AA", "invalid base64url symbol"),
        ("A/AA", "invalid base64url symbol"),
        ("AA AA", "invalid base64url symbol"),
        ("é", "invalid base64url symbol"),
        ("A", "invalid base64url length"),
        ("AAAAA", "invalid base64url length"),
        ("AB", "non-zero trailing bits"),
        ("AAB", "non-zero trailing bits"),
        ("AP", "non-zero trailing bits"),
        ("AAC", "non-zero trailing bits"),
        # two faults: the alphabet is checked before the length
        ("A=", "invalid base64url symbol"),
    ],
)
def test_b64_messages(text: str, message: str) -> None:
    """MRTR-B64-1: each refusal of strict unpadded base64url names its reason."""
    with pytest.raises(B64Error) as exc:
        b64url_decode(text)
    assert str(exc.value) == message


@pytest.mark.parametrize(
    ("text", "data"),
    [
        ("", b""),
        ("AA", b"\x00"),
        ("AQ", b"\x01"),
        ("AAA", b"\x00\x00"),
        ("AAE", b"\x00\x01"),
        ("-_8", b"\xfb\xff"),
        ("AAAA", b"\x00\x00\x00"),
        ("_w", b"\xff"),
    ],
)
def test_b64_accepts_canonical_text(text: str, data: bytes) -> None:
    """MRTR-B64-1: canonical text of each length class decodes, and encodes back."""
    assert b64url_decode(text) == data
    assert b64url_encode(data) == text


def test_wire_models_are_frozen() -> None:
    """MRTR-WIRE-1: the wire models are immutable values."""
    result = ElicitResult.model_validate({"action": "accept"})
    with pytest.raises(pydantic.ValidationError):
        result.action = "decline"
    state = InputRequiredResult.model_validate({"resultType": "input_required"})
    with pytest.raises(pydantic.ValidationError):
        state.request_state = "x"


@pytest.mark.parametrize(
    ("effects", "kept"),
    [("[]", ()), ('["a"]', ("a",)), ('["a","a"]', ("a",)), ('["b","a","b"]', ("b", "a"))],
)
def test_effects_collapse_on_every_decode_path(effects: str, kept: tuple[str, ...]) -> None:
    """MRTR-PAYLOAD-5: effects is a set on the fast path (declared order or not) and the reader."""
    texts = [
        f'{{"answers":{{}},"effects":{effects},"exp":1,"req":"r"}}',
        f'{{"answers":{{}},"requested":[],"memos":{{}},"effects":{effects},"exp":1,"req":"r",'
        f'"principal":null,"aud":null}}',
        f'{{"answers":{{}},"effects":{effects},"exp":1,"req":"r","x":"\\n"}}',
        f'[{{}},[],{{}},{effects},1,"r",null]',
    ]
    for text in texts:
        assert StatePayload.decode(text.encode()).effects == kept


def test_wire_models_read_wire_names_only() -> None:
    """MRTR-WIRE-2: serde renames are the only names: a Python field name is an unknown member,
    ignored (it was read as the field when the models populated by name)."""
    elicit = ElicitResult.model_validate({"action": "accept", "meta": {"a": 1}})
    assert elicit.to_json() == {"action": "accept", "content": None}
    sample = CreateMessageResult.model_validate(
        {"role": "user", "content": {}, "model": "m", "stop_reason": "end"}
    )
    assert sample.stop_reason is None
    state = InputRequiredResult.model_validate(
        {"resultType": "input_required", "request_state": "x", "input_requests": {}}
    )
    assert state.to_json() == {"resultType": "input_required"}
    with pytest.raises(pydantic.ValidationError):
        InputRequiredResult.model_validate({"result_type": "input_required"})


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b'{"answers":{"k":"\\ud800"}}', "unexpected end of hex escape"),
        (b'{"req":"\\ud800"}', "unexpected end of hex escape"),
        (b'{"answers":{"k\\ud800":1}}', "unexpected end of hex escape"),
        (b'{"\\ud800":1}', "unexpected end of hex escape"),
        (b'{"answers":{},"\\ud800x":1}', "unexpected end of hex escape"),
    ],
)
def test_a_value_the_json_layer_refuses_carries_one_position(data: bytes, reason: str) -> None:
    """MRTR-PAYLOAD-7, MRTR-PAYLOAD-8: the JSON layer's reason, with the reader's position only
    (the layer's own `at line` is cut off)."""
    message = refusal(data)
    assert message.startswith(f"{reason} at line 1 column ")
    assert message.count(" at line ") == 1


@pytest.mark.parametrize(
    ("data", "message"),
    [
        # a byte after a number that starts no fraction or exponent ends the number there
        (b'{"zz":1X}', "expected `,` or `}` at line 1 column 8"),
        (b'{"zz":1x5}', "expected `,` or `}` at line 1 column 8"),
        # an exponent needs a digit, after an optional sign (serde consumes the byte it checks)
        (b'{"zz":1E}', "invalid number at line 1 column 9"),
        (b'{"zz":1e+}', "invalid number at line 1 column 10"),
        (b'{"zz":1.}', "invalid number at line 1 column 9"),
        # a minus sign needs a digit: at the end of the input, or before another byte
        (b'{"zz":-', "invalid number at line 1 column 7"),
        (b'{"zz":-x}', "invalid number at line 1 column 8"),
        (b'{"zz":01}', "invalid number at line 1 column 8"),
        (b'{"zz":00}', "invalid number at line 1 column 8"),
        (b'{"zz":09}', "invalid number at line 1 column 8"),
        (b'{"zz":1e9X}', "expected `,` or `}` at line 1 column 10"),
        # the sign is `+` or `-` only; an exponent's digits may start with 0
        (b'{"zz":1eX5}', "invalid number at line 1 column 9"),
        (b'{"zz":1e0X}', "expected `,` or `}` at line 1 column 10"),
        (b'{"zz":1E-0X}', "expected `,` or `}` at line 1 column 11"),
        (b'{"zz":1E+9X}', "expected `,` or `}` at line 1 column 11"),
        # a newline as the first byte: the next byte is line 2, its columns counted from 1
        (b'\n{"zz":09}', "invalid number at line 2 column 8"),
        (b'\n{"zz":1X}', "expected `,` or `}` at line 2 column 8"),
        (b'\n\n{"zz":1E}', "invalid number at line 3 column 9"),
    ],
)
def test_number_ends(data: bytes, message: str) -> None:
    """MRTR-PAYLOAD-8: where serde_json's number grammar ends a number, or refuses it."""
    assert refusal(data) == message


@pytest.mark.parametrize(
    "number", ["1E5", "1e5", "1.5E-2", "-0.0e0", "2e+3", "0", "-7", "9e9", "1E-9", "0.9", "90"]
)
def test_numbers_of_every_shape_are_skipped(number: str) -> None:
    """MRTR-PAYLOAD-8: each exponent letter and sign reads in an ignored member."""
    data = f'{{"zz":{number},"answers":{{}},"exp":1,"req":"r"}}'.encode()
    assert StatePayload.decode(data).exp == 1


_EVERY_FIELD: dict[str, str] = {
    "answers": '{"a":{"action":"accept"}}',
    "requested": '["a"]',
    "memos": '{"m":1}',
    "effects": '["e"]',
    "exp": "7",
    "req": '"r"',
    "principal": '"P"',
    "aud": '"A"',
}


@pytest.mark.parametrize(
    "order",
    [
        sorted(FIELD_ORDER),
        list(reversed(FIELD_ORDER)),
        ["memos", "requested", "answers", "effects", "exp", "req", "principal", "aud"],
        ["answers", "requested", "memos", "effects", "exp", "req", "aud", "principal"],
    ],
)
def test_every_field_in_another_order_reads_each_by_its_name(order: list[str]) -> None:
    """MRTR-PAYLOAD-2: all eight fields present in an order other than the declared one are
    read by name (serde's visitor), never by position: same payload as the declared order."""
    text = "{" + ",".join(f'"{name}":{_EVERY_FIELD[name]}' for name in order) + "}"
    payload = StatePayload.decode(text.encode())
    assert payload.answers == {"a": {"action": "accept"}}
    assert payload.memos == {"m": 1}
    assert (payload.requested, payload.effects) == (("a",), ("e",))
    assert (payload.exp, payload.req, payload.principal, payload.aud) == (7, "r", "P", "A")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"req":"\\uZZZZ"}', "Invalid \\uXXXX escape at line 1 column 10"),
        (b'{"req":"\\U0041"}', "Invalid \\escape at line 1 column 9"),
        (b'{"answers":{"k":[1,]}}', "Expecting value at line 1 column 20"),
        (
            b'{"answers":{"a":1,}}',
            "Expecting property name enclosed in double quotes at line 1 column 19",
        ),
        (b'{"answers":{"k":1', "Expecting ',' delimiter at line 1 column 17"),
        (b'{"answers":{"k":[', "Expecting value at line 1 column 17"),
        (b'{"answers":{"k":2E}}', "Expecting ',' delimiter at line 1 column 18"),
        (
            b'{"answers":{"x":1E400},"exp":5,"req":"r"}',
            "number out of range: 1E400 at line 1 column 12",
        ),
        (
            b'{"answers":{"k":"\\ud800"}}',
            "unexpected end of hex escape at line 1 column 24",
        ),
        (
            b'{"answers":{"k":' + b"[" * 126 + b"]" * 126 + b'},"exp":5,"req":"r"}',
            "recursion limit exceeded at line 1 column 142",
        ),
        # Nested past the decoder's own stack, or cut off past the limit: still the bracket
        # that reaches it.
        (
            b'{"answers":{"k":' + b"[" * 5000 + b"]" * 5000 + b'},"exp":5,"req":"r"}',
            "recursion limit exceeded at line 1 column 142",
        ),
        (b'{"answers":{"k":' + b"[" * 5000, "recursion limit exceeded at line 1 column 142"),
        (b'{"answers":{"k":' + b"[" * 200, "recursion limit exceeded at line 1 column 142"),
        (
            b'{"answers":{"k":' + b'["a\\"[",' * 3000,
            "recursion limit exceeded at line 1 column 1017",
        ),
    ],
)
def test_a_fault_inside_a_value_is_the_json_layers_at_its_place(data: bytes, message: str) -> None:
    """MRTR-PAYLOAD-8: a field's value is read by the JSON layer, so a
    fault inside it carries the layer's wording, at the place the layer names (a number the
    number model refuses: the value's start; a surrogate: the value's end; the nesting limit:
    the bracket that reaches it, where serde_json stops)."""
    assert refusal(data) == message
