"""The JSON layer's answers asserted whole: serde_json's refusal messages, the writer's two paths,
the validator's exact bounds (docs/assurance.md: survivors of ``make mutants`` clustered where
tests checked only that an error happened, or only one of two code paths)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given

from mcp_touchstone._rust import ascii_lower, rust_debug_str
from mcp_touchstone._serde import (
    SerdeError,
    invalid_length,
    invalid_value,
    missing_field,
    unit_variant_error,
)
from mcp_touchstone.serde_json import (
    JSON,
    JsonError,
    canonical,
    from_str,
    to_string,
    to_string_ordered,
    validate,
)
from tests.strategies.json import values

_I64_MIN = -(1 << 63)
_U64_MAX = (1 << 64) - 1


def _refusal(text: str | bytes) -> str:
    with pytest.raises(JsonError) as exc:
        from_str(text)
    return str(exc.value)


# serde_json 1.0.149 error.rs: the Display text of each ErrorCode these inputs reach (the layer
# drops serde's " at line L column C" suffix for the errors it finds outside Python's scanner).
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('"\\ud800"', "unexpected end of hex escape"),
        ('"\\ud800x"', "unexpected end of hex escape"),
        ('"\\ud800\\n"', "unexpected end of hex escape"),
        ('["\\ud800", "\\udc00"]', "unexpected end of hex escape"),
        ('"\\udc00"', "lone leading surrogate in hex escape"),
        ('"\\uD800"', "unexpected end of hex escape"),
        ('["\\\\", "\\uDFFF"]', "lone leading surrogate in hex escape"),
        ('"\\udfff"', "lone leading surrogate in hex escape"),
        ('"\\ud800\\u0041"', "lone leading surrogate in hex escape"),
        ('"\\udbff\\ue000"', "lone leading surrogate in hex escape"),
        ('{"a": "\\ud800", "a": 1}', "unexpected end of hex escape"),
        ("[" * 128 + "]" * 128, "recursion limit exceeded"),
        ('{"k":' * 128 + "1" + "}" * 128, "recursion limit exceeded"),
        ("\ufeff1", "expected value at line 1 column 1"),
        ("1X", "Extra data at line 1 column 2"),
        ("[1] X", "Extra data at line 1 column 5"),
        ("[" * 5000 + "]" * 5000, "recursion limit exceeded"),
        (
            '"\x01"',
            "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 2",
        ),
        ('"\ud800"', "invalid unicode code point"),
    ],
)
def test_refusals_carry_serde_json_messages(text: str, message: str) -> None:
    """Each refusal is worded as serde_json words that error, whole (not a fragment)."""
    assert _refusal(text) == message


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('"\\\\ud800"', "\\ud800"),
        ('"\\ud7ff\\uD7FF"', "\ud7ff\ud7ff"),
        ('"\\ud83d\\uDE00"', "\U0001f600"),
        ('"\\u00e9\\n"', "\u00e9\n"),
    ],
)
def test_escapes_near_surrogates_are_read(text: str, value: str) -> None:
    """An escaped backslash before ``ud800``, the last code point below the surrogates and a
    surrogate pair (either case) are read, as serde_json reads them."""
    assert from_str(text) == value
    assert from_str(text.encode()) == value


@pytest.mark.parametrize(
    "data", [b"\xef\xbb\xbf1", b"\xef\xbb\xbf", b"\xef\xbb\xbf[1, x", "\ufeff\ud800", "\ufeff{"]
)
def test_a_leading_bom_is_refused_before_any_other_error(data: str | bytes) -> None:
    """A text that starts with a BOM is refused at line 1 column 1, whatever follows it."""
    assert _refusal(data) == "expected value at line 1 column 1"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\xff", "invalid UTF-8 at byte 0"),
        (b'"a\xc3"', "invalid UTF-8 at byte 2"),
        (b'["ok", "\xed\xa0\x80"]', "invalid UTF-8 at byte 8"),
    ],
)
def test_invalid_utf8_names_the_first_bad_byte(data: bytes, message: str) -> None:
    """Bytes that are not UTF-8 are refused naming the offset of the first bad byte."""
    assert _refusal(data) == message
    # A bytearray is read as its bytes (accepted at run time, not in the signature).
    assert _refusal(bytearray(data)) == message  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1e309", "number out of range: 1e309"),
        ("-1e309", "number out of range: -1e309"),
        ("1.5e2147483648", "number out of range: 1.5e2147483648"),
        ("18446744073709551616e300", "number out of range: 18446744073709551616e300"),
        ("1" + "0" * 400, "number out of range: " + "1" + "0" * 36 + "..."),
        ("[1e400]", "number out of range: 1e400"),
    ],
)
def test_out_of_range_numbers_name_the_literal_shortened_past_40(text: str, message: str) -> None:
    """``number out of range`` (JSON-PARSE-2) quotes the literal, cut to 37 characters and
    ``...`` when it is longer than 40."""
    assert _refusal(text) == message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0e2147483648", 0.0),
        ("1e-2147483648", 0.0),
        ("1e-2147483649", 0.0),
        ("-1e-9999999999999", -0.0),
        ("123e-2147483647", 0.0),
        ("1" + "0" * 400 + "e-2147483647", 0.0),
        ("1e-400", 0.0),
        ("-1e-400", -0.0),
    ],
)
def test_exponents_at_and_past_the_i32_bounds_underflow_to_zero(text: str, expected: float) -> None:
    """JSON-NUM-4: an exponent at or beyond i32's bounds is zero with the literal's sign."""
    value = from_str(text)
    assert isinstance(value, float)
    assert value == expected
    assert math.copysign(1.0, value) == math.copysign(1.0, expected)


def test_depth_is_measured_outside_strings_holding_escaped_quotes() -> None:
    """Brackets inside a string are no nesting even after a string with an escaped quote, whose
    quote must not be taken for a string's end (JSON-PARSE-6)."""
    inner = "[" * 130
    text = '["\\"", "' + inner + '", {"k": "\\\\"}]'
    assert from_str(text) == ['"', inner, {"k": "\\"}]
    assert from_str(text.encode()) == ['"', inner, {"k": "\\"}]


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_every_writer_refuses_non_finite_floats(bad: float) -> None:
    """NaN and the infinities are no JSON value: every writer refuses them, at the top or
    nested, and never writes ``NaN`` or ``Infinity``."""
    for write in (to_string, to_string_ordered, canonical):
        cases: list[JSON] = [bad, [1, bad], {"a": {"b": bad}}]
        for value in cases:
            with pytest.raises(JsonError):
                write(value)


def test_every_writer_refuses_a_key_that_is_no_string_rather_than_drop_it() -> None:
    """A dict key that is no JSON string (a tuple) is refused, never silently left out."""
    for write in (to_string, to_string_ordered, canonical):
        with pytest.raises(JsonError):
            write({(1, 2): 0})  # type: ignore[dict-item]  # deliberately not JSON
        with pytest.raises(JsonError):
            write({"a": [{(1,): 0}]})  # type: ignore[dict-item]  # deliberately not JSON


def test_writer_spells_every_literal_when_a_small_exponent_float_is_present() -> None:
    """With a float of decimal exponent -5..-9 (written ``1e-7``, not Python's ``1e-07``) the
    whole value is still written exactly: literals, strings, integers, separators."""
    value: JSON = {
        "z": [True, False, None],
        "a": 1e-7,
        "m": {"s": "x\u00e9\n", "n": -3, "f": 1.5e-9},
    }
    assert to_string(value) == (
        '{"a":1e-7,"m":{"f":1.5e-9,"n":-3,"s":"x\u00e9\\n"},"z":[true,false,null]}'
    )
    assert to_string_ordered(value) == (
        '{"z":[true,false,null],"a":1e-7,"m":{"s":"x\u00e9\\n","n":-3,"f":1.5e-9}}'
    )
    assert to_string([0.00001, 1e-5, -2.5e-6]) == "[0.00001,0.00001,-2.5e-6]"
    assert to_string({"1e-05": ["1e-05", 1e-05]}) == '{"1e-05":["1e-05",0.00001]}'
    assert to_string(['"\\', 1e-05, '\\"1e-05']) == '["\\"\\\\",0.00001,"\\\\\\"1e-05"]'


@given(values())
def test_a_small_exponent_float_leaves_the_rest_of_the_text_as_is(value: JSON) -> None:
    """JSON-FLOAT-1, JSON-WRITE-1, JSON-WRITE-2: rewriting a float of decimal exponent -5..-9 to
    serde_json's layout changes nothing else of the text (strings that spell such a float
    included), sorted and in insertion order."""
    assert to_string([value, 1e-7]) == f"[{to_string(value)},1e-7]"
    assert to_string_ordered([value, 1e-7]) == f"[{to_string_ordered(value)},1e-7]"
    assert to_string({"k": value, "e": 1e-7}) == f'{{"e":1e-7,"k":{to_string(value)}}}'


def test_validate_accepts_the_integer_bounds_on_its_exact_path() -> None:
    """i64::MIN and u64::MAX are JSON integers also when the validator walks the value to name
    a problem elsewhere: the first offending place is the one named."""
    with pytest.raises(JsonError) as exc:
        validate([_I64_MIN, _U64_MAX, {"k": _I64_MIN}, "\ud800"])
    assert str(exc.value) == "value[3]: string holds a lone surrogate"
    with pytest.raises(JsonError) as exc:
        validate([_U64_MAX, _U64_MAX + 1, "\ud800"])
    assert str(exc.value) == f"value[1]: integer {_U64_MAX + 1} is out of i64/u64 range"
    with pytest.raises(JsonError) as exc:
        validate({"a": _I64_MIN - 1}, where="arguments")
    assert str(exc.value) == f"arguments.a: integer {_I64_MIN - 1} is out of i64/u64 range"


def test_validate_names_each_kind_of_problem_whole() -> None:
    """Each of the validator's refusals, whole: non-finite float, non-string key, depth, and a
    value of no JSON type."""
    cases: list[tuple[object, str]] = [
        ([math.inf], "value[0]: non-finite float inf"),
        ({"a": math.nan}, "value.a: non-finite float nan"),
        ({1: 2}, "value: object key 1 is not a string"),
        ({"\udc00": 1}, "value key: string holds a lone surrogate"),
        ((1, 2), "value: tuple is not a JSON value"),
        ([b"x"], "value[0]: bytes is not a JSON value"),
    ]
    for value, message in cases:
        with pytest.raises(JsonError) as exc:
            validate(value)
        assert str(exc.value) == message
    deep: object = []
    for _ in range(127):
        deep = [deep]
    with pytest.raises(JsonError) as exc:
        validate(deep)
    assert (
        str(exc.value) == "value" + "[0]" * 127 + ": nested 128 deep (serde_json's recursion limit)"
    )


def test_unit_variant_refusals_are_worded_whole() -> None:
    """serde's derived unit-only enum refuses each wrong shape with its own whole sentence."""
    names = ("a", "b")
    cases: list[tuple[JSON, str | None]] = [
        ("a", None),
        ({"b": None}, None),
        ("z", "unknown variant `z`, expected `a` or `b`"),
        (5, "invalid type: integer `5`, expected string or map"),
        ([], "invalid type: sequence, expected string or map"),
        (None, "invalid type: null, expected string or map"),
        ({}, "invalid value: map, expected map with a single key"),
        ({"a": None, "b": None}, "invalid value: map, expected map with a single key"),
        ({"z": None}, "unknown variant `z`, expected `a` or `b`"),
        # serde_json reads the payload as `()`, whose visitor expects "unit" (value/de.rs).
        ({"a": 1}, "invalid type: integer `1`, expected unit"),
        ({"a": "x"}, 'invalid type: string "x", expected unit'),
    ]
    for value, message in cases:
        assert unit_variant_error(value, names) == message


def test_serde_sentences_are_worded_whole() -> None:
    """serde's ``invalid_length``, ``invalid_value`` and ``missing_field`` sentences, whole."""
    assert invalid_length(3, "fewer elements in array") == (
        "invalid length 3, expected fewer elements in array"
    )
    assert invalid_value(-1, "a u8") == "invalid value: integer `-1`, expected a u8"
    assert invalid_value(2.5, "an integer") == (
        "invalid value: floating point `2.5`, expected an integer"
    )
    assert missing_field("method") == "missing field `method`"
    assert str(SerdeError("m")) == "m"
    assert SerdeError("m").message == "m"


def test_rust_debug_names_every_escape_on_the_non_ascii_path() -> None:
    """Rust's ``{:?}`` escapes ``\\``, ``"``, tab, CR, LF and NUL by name and other control
    characters as ``\\u{hex}`` also in a string that is not plain ASCII."""
    assert rust_debug_str('\u00e9\\"\t\r\n\0\x07z') == '"\u00e9\\\\\\"\\t\\r\\n\\0\\u{7}z"'
    assert rust_debug_str("a\x07\\") == '"a\\u{7}\\\\"'
    assert rust_debug_str("\x7f\x80\u00a0\u00ad") == '"\\u{7f}\\u{80}\\u{a0}\\u{ad}"'


def test_ascii_lower_changes_only_a_to_z() -> None:
    """Rust's ``to_ascii_lowercase`` lowers ``A``-``Z`` only, on ASCII and non-ASCII text."""
    assert ascii_lower("AbZ@[") == "abz@["
    assert ascii_lower("\u00c0B\u0130Z") == "\u00c0b\u0130z"


@pytest.mark.parametrize("lead", ["", '"\\n", '])
def test_depth_counts_each_closing_bracket_once(lead: str) -> None:
    """A closed container gives back exactly its one level: after ``[]`` inside the outer
    array, 127 more levels reach depth 128, the recursion limit (JSON-PARSE-6), with or without
    a backslash in the text (the two depth measures)."""
    deep = "[" * 127 + "]" * 127
    with pytest.raises(JsonError) as exc:
        from_str(f"[{lead}[], {{}}, {deep}]")
    assert str(exc.value) == "recursion limit exceeded"
    shallow = "[" * 126 + "]" * 126
    assert from_str(f"[{lead}[], {{}}, {shallow}]") is not None


_DEEP = "[" * 130 + "]" * 130
_OVERFLOW = "[" * 5000 + "]" * 5000


# serde_json 1.0.87 read on this text, left to right: the first fault it meets is its refusal.
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('["\\ud800x", ' + _DEEP + "]", "unexpected end of hex escape"),
        ('["\\udc00", ' + _DEEP + "]", "lone leading surrogate in hex escape"),
        ("[" + _DEEP[:130] + '"\\ud800x"' + "]" * 131, "recursion limit exceeded"),
        ('["\\ud800x" ,, 1]', "unexpected end of hex escape"),
        ('["\\udc00" ,, 1]', "lone leading surrogate in hex escape"),
        ('["\\ud800"', "unexpected end of hex escape"),
        ('["\\ud800\\x"]', "unexpected end of hex escape"),
        ('["a\\uZZZZ", "\\ud800"]', "Invalid \\uXXXX escape at line 1 column 5"),
        ('["\\ud800\\uZZZZ"]', "Invalid \\uXXXX escape at line 1 column 10"),
        ("[" * 129 + '"\\ud800"', "recursion limit exceeded"),
        # Nested past the decoder's own stack: still the first fault, counted from the top.
        ('["\\ud800x", ' + _OVERFLOW + "]", "unexpected end of hex escape"),
        ("[" * 127 + '"\\ud800x", ' + _OVERFLOW + "]" * 127, "unexpected end of hex escape"),
        ("[" * 128 + '"\\ud800x", ' + _OVERFLOW + "]" * 128, "recursion limit exceeded"),
        ("[" * 127 + "]" * 127 + "x", "Extra data at line 1 column 255"),
    ],
)
def test_json_parse_3_the_first_fault_in_the_text_is_the_refusal(text: str, message: str) -> None:
    """JSON-PARSE-3, JSON-PARSE-6: a lone surrogate escape before a syntax error or the bracket
    that reaches the nesting budget is the refusal, and one after them is not."""
    assert _refusal(text) == message
