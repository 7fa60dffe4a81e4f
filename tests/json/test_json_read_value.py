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
