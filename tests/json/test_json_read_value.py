"""JSON-NUM-1 inside a larger text: :func:`read_value` reads a number where it begins and stops
where the decoder stops, with serde_json's integer model (u64 / i64, else ``f64``)."""

from __future__ import annotations

import math

import pytest

from mcp_touchstone.serde_json import JSON, JsonTextError, read_value

_U64_MAX = 18446744073709551615
_I64_MIN = -9223372036854775808


@pytest.mark.parametrize(
    ("text", "start", "value", "end"),
    [
        ("0,", 0, 0, 1),
        ("18446744073709551615]", 0, _U64_MAX, 20),
        ("18446744073709551616", 0, 18446744073709551616.0, 20),
        ("-9223372036854775808", 0, _I64_MIN, 20),
        ("-9223372036854775809", 0, -9223372036854775809.0, 20),
        ("01", 0, 0, 1),  # the leading zero ends the number; the next digit is the caller's
        ("1.", 0, 1, 1),  # no fraction digit: the integer ends at the point
        ("12abc", 0, 12, 2),
        ("1.5", 0, 1.5, 3),
        ("1e2", 0, 100.0, 3),
        ('{"exp":-12}', 7, -12, 10),
    ],
)
def test_json_num_1_a_number_inside_a_text(text: str, start: int, value: JSON, end: int) -> None:
    got, got_end = read_value(text, start, 1)
    assert (got, type(got), got_end) == (value, type(value), end)


def test_json_num_1_negative_zero_is_a_float_inside_a_text() -> None:
    got, end = read_value("-0}", 0, 1)
    assert isinstance(got, float)
    assert math.copysign(1.0, got) == -1.0
    assert end == 2


@pytest.mark.parametrize("text", ["1" * 400, "1E400"])
def test_json_num_1_a_number_beyond_f64_is_refused_at_its_start(text: str) -> None:
    with pytest.raises(JsonTextError) as caught:
        read_value(f"[{text}]", 1, 1)
    assert caught.value.reason.startswith("number out of range: ")
    assert caught.value.index == 1


@pytest.mark.parametrize(("prefix", "depth"), [('{"k":', 1), ('{"answers":{"k":', 2)])
def test_json_parse_6_the_nesting_limit_inside_a_text_is_at_the_bracket_that_reaches_it(
    prefix: str, depth: int
) -> None:
    """The 128th container is refused at its own bracket, counting the containers around the
    value (serde_json 1.0.87 says ``recursion limit exceeded at line 1 column 142`` for
    ``{"answers":{"k":`` and 126 brackets: the 126th, index 141)."""
    brackets = 128 - depth
    text = prefix + "[" * brackets + "]" * brackets + "}" * depth
    with pytest.raises(JsonTextError) as caught:
        read_value(text, len(prefix), depth)
    assert caught.value.reason == "recursion limit exceeded"
    assert caught.value.index == len(prefix) + brackets - 1
    under = prefix + "[" * (brackets - 1) + "]" * (brackets - 1) + "}" * depth
    value, end = read_value(under, len(prefix), depth)
    assert end == len(prefix) + 2 * (brackets - 1)
    assert value == _nested(brackets - 1)


@pytest.mark.parametrize(
    ("nesting", "index"),
    [
        ("[" * 5000 + "]" * 5000, 141),
        ("[" * 5000, 141),  # never closed: serde_json stops at the limit before the end
        ("[" * 200, 141),  # within the decoder's stack, then cut off
        ("[" * 130 + "x", 141),  # past the limit, then a syntax error
        ("[" * 5000 + '"unterminated', 141),
        ('["a\\"[",' * 3000, 1016),  # quotes and brackets inside strings do not count
    ],
)
def test_json_parse_6_nesting_past_the_limit_is_refused_at_the_limits_bracket(
    nesting: str, index: int
) -> None:
    """Nesting past the limit of 128 is refused at the bracket that reaches it, as serde_json
    1.0.87 places it, whatever follows: thousands of levels that overflow the decoder's own
    stack, or a fault further on (``recursion limit exceeded at line 1 column 142`` for
    ``{"answers":{"k":`` and 5,000 or 200 brackets; ``column 1017`` for the strings)."""
    prefix = '{"answers":{"k":'
    with pytest.raises(JsonTextError) as caught:
        read_value(prefix + nesting, len(prefix), 2)
    assert caught.value.reason == "recursion limit exceeded"
    assert caught.value.index == index


def _nested(levels: int) -> JSON:
    """``levels`` arrays, each holding the next, the innermost empty."""
    value: JSON = []
    for _ in range(levels - 1):
        value = [value]
    return value


def test_json_parse_3_a_lone_surrogate_escape_inside_a_text_is_at_the_closing_quote() -> None:
    """A string holding a lone surrogate escape is refused at its closing quote, where serde_json
    1.0.87 stops (``unexpected end of hex escape at line 1 column 24`` for
    ``{"answers":{"k":"\\ud800"}}``: index 23)."""
    text = '{"answers":{"k":"\\ud800"}}'
    with pytest.raises(JsonTextError) as caught:
        read_value(text, 16, 2)
    assert caught.value.reason == "unexpected end of hex escape"
    assert caught.value.index == 23


# Each refusal's place is serde_json 1.0.87's ``line 1 column C`` for the same text, less one.
@pytest.mark.parametrize(
    ("text", "reason", "index"),
    [
        ('["\\ud800x"]', "unexpected end of hex escape", 8),
        ('["\\ud800\\n"]', "unexpected end of hex escape", 9),
        ('["a\\ud800\\n"]', "unexpected end of hex escape", 10),
        ('["\\ud800x", "\\n"]', "unexpected end of hex escape", 8),
        ('["' + "a" * 300 + '\\ud800\\n"]', "unexpected end of hex escape", 309),
        ('["\\udc00"]', "lone leading surrogate in hex escape", 7),
        ('["\\ud800\\u0041"]', "lone leading surrogate in hex escape", 13),
        ('["\\ud800x", ' + "[" * 130 + "]" * 130 + "]", "unexpected end of hex escape", 8),
        ('["\\ud800x" ,, 1]', "unexpected end of hex escape", 8),
        ('{"k":["\\ud800", [[[[1]]]]]}', "unexpected end of hex escape", 13),
    ],
)
def test_json_parse_3_a_lone_surrogate_escape_is_refused_where_serde_json_stops(
    text: str, reason: str, index: int
) -> None:
    """JSON-PARSE-3: a lone trailing surrogate at its last hex digit; a leading one with no
    escape after it at the next character, or past the backslash of a non-``\\u`` escape; one
    followed by another ``\\u`` escape at that escape's last hex digit -- also when a syntax
    error or too deep a bracket follows."""
    with pytest.raises(JsonTextError) as caught:
        read_value(text, 0, 0)
    assert (caught.value.reason, caught.value.index) == (reason, index)
