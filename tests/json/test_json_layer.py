"""The serde_json-exact JSON layer: tables for every rule, and properties (spec/json.md)."""

from __future__ import annotations

import json
import math
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone import serde_json
from mcp_touchstone.serde_json import JSON, JsonError, canonical, from_str, to_string
from tests.strategies.json import floats, scalars_no_float, values


def _same(a: JSON, b: JSON) -> bool:
    """JSON equality that keeps 1 and 1.0 (and 0.0 and -0.0) apart."""
    return to_string(a) == to_string(b) and type(a) is type(b)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0.00001", "0.00001"),
        ("1e-6", "1e-6"),
        ("1e16", "1e+16"),
        ("18446744073709551616", "1.8446744073709552e+19"),
        ("1000000000000000.0", "1000000000000000.0"),
        ("1.5e-7", "1.5e-7"),
        ("1.5e300", "1.5e+300"),
        ("-0", "-0.0"),
        ("-0.0", "-0.0"),
        ("-1.5e-8", "-1.5e-8"),
        ("123.456", "123.456"),
        ("0.1", "0.1"),
        ("1e-5", "0.00001"),
        ("-0.000012345", "-0.000012345"),
    ],
)
def test_issue_examples_hold(text: str, expected: str) -> None:
    """JSON-FLOAT-4: the float layouts the issue lists come out byte for byte."""
    assert to_string(from_str(text)) == expected


def test_int_and_float_stay_distinct() -> None:
    """JSON-VALUE-1: 1 parses as an int and 1.0 as a float, and each prints as itself."""
    assert type(from_str("1")) is int
    assert type(from_str("1.0")) is float
    assert to_string([from_str("1"), from_str("1.0")]) == "[1,1.0]"


def test_negative_zero_keeps_sign() -> None:
    """JSON-NUM-1: -0 becomes the float -0.0 with its sign."""
    v = from_str("-0")
    assert isinstance(v, float)
    assert math.copysign(1.0, v) == -1.0


def test_not_correctly_rounded_like_serde() -> None:
    """JSON-NUM-3: serde_json's single scaling step is one ULP off where Python rounds correctly."""
    assert from_str("9007199254740993.0") == 9007199254740994.0
    assert float("9007199254740993.0") == 9007199254740992.0


@pytest.mark.parametrize(
    "text",
    ["NaN", "-Infinity", "1E400", '"\\ud800"', '"\\udfff"', "[1,]", "01", "", " ", "{", "[] x"],
)
def test_rejected_texts(text: str) -> None:
    """JSON-PARSE-1..3: text serde_json refuses raises JsonError, not a Python exception."""
    with pytest.raises(JsonError):
        from_str(text)


def test_invalid_utf8_rejected() -> None:
    """JSON-PARSE-3: bytes that are not UTF-8 are an error naming the byte offset."""
    with pytest.raises(JsonError, match="UTF-8"):
        from_str(b'"\xff"')


def test_nesting_limit_is_127() -> None:
    """JSON-PARSE-6: 127 nested arrays parse and 128 do not, for objects too."""
    from_str("[" * 127 + "]" * 127)
    with pytest.raises(JsonError, match="recursion"):
        from_str("[" * 128 + "]" * 128)
    with pytest.raises(JsonError, match="recursion"):
        from_str('{"a":' * 128 + "1" + "}" * 128)
    with pytest.raises(JsonError, match="recursion"):
        from_str("[" * 5000 + "]" * 5000)


def test_duplicate_keys_last_wins() -> None:
    """JSON-PARSE-5: the last duplicate key's value is kept."""
    assert from_str('{"a":1,"b":0,"a":2}') == {"a": 2, "b": 0}


def test_ordered_writer_keeps_insertion_order() -> None:
    """JSON-WRITE-2: to_string_ordered writes keys in declared (insertion) order."""
    value: JSON = {"b": 1, "a": {"d": 1e-7, "c": None}}
    assert serde_json.to_string_ordered(value) == '{"b":1,"a":{"d":1e-7,"c":null}}'
    assert to_string(value) == '{"a":{"c":null,"d":1e-7},"b":1}'


def test_canonical_sorts_recursively() -> None:
    """JSON-CANON-1: canonical form sorts keys at every depth and keeps array order."""
    assert canonical({"z": [{"b": 1, "a": 2}], "a": "é"}) == '{"a":"é","z":[{"a":2,"b":1}]}'


@pytest.mark.parametrize(
    ("value", "where"),
    [
        (1 << 64, "integer"),
        (-(1 << 63) - 1, "integer"),
        (math.inf, "non-finite"),
        (math.nan, "non-finite"),
        ({"k": [1, {2: 3}]}, "key"),
        ("\ud800", "surrogate"),
        ({"a": (1, 2)}, "tuple"),
    ],
)
def test_validate_names_the_problem(value: object, where: str) -> None:
    """JSON-VALUE-1: validate rejects what serde_json cannot hold and says what it is."""
    with pytest.raises(JsonError, match=where):
        serde_json.validate(value)


def test_json_value_1_validate_takes_the_value_by_position_or_name_and_the_place_by_name() -> None:
    """JSON-VALUE-1: ``validate(value, *, where="value")``, the public signature: the value may
    be named, and the place that prefixes a refusal only by name."""
    assert serde_json.validate(value={"a": [1]}) == {"a": [1]}
    with pytest.raises(JsonError, match=r"^args\[0\]: integer"):
        serde_json.validate(value=[1 << 64], where="args")
    with pytest.raises(TypeError):
        serde_json.validate([1], "args")  # type: ignore[call-arg]


def test_writer_rejects_non_json() -> None:
    """JSON-VALUE-1: writing something that is not JSON is a JsonError, not a TypeError."""
    with pytest.raises(JsonError):
        to_string({"a": object()})  # type: ignore[dict-item]  # deliberately not JSON
    with pytest.raises(JsonError):
        serde_json.format_float(math.inf)


# ----------------------------------------------------------------------------- properties


def _independent_layout(x: float) -> str:
    """serde_json's float layout computed from Decimal's digits and exponent (JSON-FLOAT-2/4)."""
    if x == 0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    sign, digit_tuple, exp = Decimal(repr(x)).normalize().as_tuple()
    assert isinstance(exp, int)
    digits = "".join(map(str, digit_tuple))
    e = exp + len(digits) - 1  # decimal exponent of the leading digit
    s = "-" if sign else ""
    if -5 <= e <= 15:
        if e < 0:
            return f"{s}0.{'0' * (-e - 1)}{digits}"
        whole, frac = digits[: e + 1].ljust(e + 1, "0"), digits[e + 1 :]
        return f"{s}{whole}.{frac or '0'}"
    mant = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return f"{s}{mant}e{'+' if e > 0 else '-'}{abs(e)}"


@given(floats)
def test_float_layout_matches_independent_model(x: float) -> None:
    """JSON-FLOAT-1..4: format_float agrees with a layout derived from Decimal for every float."""
    assert serde_json.format_float(x) == _independent_layout(x)


@given(floats)
def test_float_text_round_trips_in_python(x: float) -> None:
    """JSON-FLOAT-1: the written digits are a correctly-rounded spelling of the same double."""
    assert float(serde_json.format_float(x)) == x


@given(values(scalars_no_float))
def test_agrees_with_python_json_without_floats(value: JSON) -> None:
    """JSON-WRITE-1, JSON-STR-1/2: without floats, output equals Python's compact sorted json."""
    expected = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    assert to_string(value) == expected


@given(values(scalars_no_float))
def test_round_trip_without_floats(value: JSON) -> None:
    """JSON-VALUE-1: parsing the written text gives back the same value (floats aside)."""
    back = from_str(to_string(value))
    assert to_string(back) == to_string(value)
    assert back == value


@given(
    st.integers(min_value=0, max_value=(1 << 53)),
    st.integers(min_value=-22, max_value=22),
)
def test_parse_is_correctly_rounded_on_the_exact_path(significand: int, exponent: int) -> None:
    """JSON-NUM-3: with significand <= 2^53 and |exp| <= 22 serde's parse equals Python's."""
    text = f"{significand}e{exponent}"
    assert from_str(text) == float(text)


@given(values())
def test_canonical_is_the_value_writer(value: JSON) -> None:
    """JSON-CANON-1: canonical form is to_string, and both accept every valid value."""
    assert serde_json.validate(value) is value
    assert canonical(value) == to_string(value)


@given(st.integers(min_value=(1 << 64), max_value=(1 << 200)))
def test_big_integers_scale_like_serde(n: int) -> None:
    """JSON-NUM-2: an integer past u64 keeps its first u64-fitting digits, then scales once."""
    text = str(n)
    keep = 20 if int(text[:20]) <= (1 << 64) - 1 else 19
    expected = float(int(text[:keep])) * float(f"1e{len(text) - keep}")
    assert from_str(text) == expected
    assert _same(from_str(text), expected)


@given(
    st.integers(min_value=0, max_value=(1 << 64) - 1),
    st.integers(min_value=-40, max_value=40),
    st.booleans(),
)
def test_float_literals_scale_once_like_serde(significand: int, exponent: int, neg: bool) -> None:
    """JSON-NUM-3: any u64 significand with an exponent reads as f64(sig) scaled by one power."""
    text = f"{'-' if neg else ''}{significand}e{exponent}"
    power = float(f"1e{abs(exponent)}")
    magnitude = float(significand) * power if exponent >= 0 else float(significand) / power
    assert from_str(text) == (-magnitude if neg else magnitude)
    assert _same(from_str(text), -magnitude if neg else magnitude)


def test_validate_depth_limit_matches_the_parser() -> None:
    """JSON-VALUE-1, JSON-PARSE-6: validate accepts 127 levels and refuses 128, like from_str."""
    ok: JSON = []
    for _ in range(126):
        ok = [ok]
    serde_json.validate(ok)
    with pytest.raises(JsonError, match="128"):
        serde_json.validate([ok])


# ----------------------------------------------------------------------------- found in review
# Each expected answer below is serde_json 1.0.149's own (from_str::<Value>, then to_string).


def test_fraction_digits_join_the_significand_after_integer_overflow() -> None:
    """JSON-NUM-2: after the integer digits overflow u64, fraction digits still fit in."""
    assert to_string(from_str("18446744073709551616.0e-30")) == "1.844674407370955e-11"
    assert to_string(from_str("18446744073709551619.5")) == "1.8446744073709552e+19"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1" * 5000, None),
        ("-" + "1" * 5000, None),
        ("1" * 5000 + "e-4990", "1111111111.1111112"),
        ("1e" + "0" * 5000 + "1", "10.0"),
        ("1e-" + "0" * 5000 + "1", "0.1"),
        ("1e" + "9" * 5000, None),
        ("1e-" + "9" * 5000, "0.0"),
        ("-0e" + "9" * 5000, "-0.0"),
        ("0." + "0" * 5000 + "1", "0.0"),
    ],
)
def test_number_literals_of_any_length(text: str, expected: str | None) -> None:
    """JSON-NUM-2, JSON-NUM-4, JSON-PARSE-2: thousands of digits parse or fail as serde_json does,
    never with Python's int digit-count ValueError."""
    if expected is None:
        with pytest.raises(JsonError, match="out of range"):
            from_str(text)
    else:
        assert to_string(from_str(text)) == expected


@pytest.mark.parametrize("depth", [128, 500, 990, 1000, 5000, 100_000])
def test_any_excess_depth_is_the_recursion_error(depth: int) -> None:
    """JSON-PARSE-6: nesting past the limit is JsonError at every depth, never RecursionError."""
    for text in ("[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth):
        with pytest.raises(JsonError, match="recursion"):
            from_str(text)


def test_limits_hold_inside_values_a_duplicate_key_replaces() -> None:
    """JSON-PARSE-3, JSON-PARSE-5, JSON-PARSE-6: serde_json fails while reading, so a later
    duplicate key cannot hide a lone surrogate or excess depth."""
    with pytest.raises(JsonError):
        from_str('{"a":"\\ud800","a":1}')
    with pytest.raises(JsonError):
        from_str('{"a":{"b":["\\udc00"]},"a":1}')
    with pytest.raises(JsonError, match="recursion"):
        from_str('{"a":' + "[" * 127 + "]" * 127 + ',"a":1}')
    assert from_str('{"a":' + "[" * 126 + "]" * 126 + ',"a":1}') == {"a": 1}


@pytest.mark.parametrize("offset", [0, 250, 300, 5000])
def test_json_parse_3_a_surrogate_pair_decodes_wherever_it_stands_in_the_text(offset: int) -> None:
    """JSON-PARSE-3: the trailing half must follow the leading one at once, compared as
    positions of any size (past 256 characters as well as near the start)."""
    text = '["' + "x" * offset + '\\ud83d\\ude00"]'
    assert from_str(text) == ["x" * offset + "\U0001f600"]
    with pytest.raises(JsonError, match=r"^unexpected end of hex escape$"):
        from_str('["' + "x" * offset + '\\ud83d x\\ude00"]')


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ('"\\ud83d\\ude00"', True),
        ('"\\\\ud800"', True),  # an escaped backslash, then plain text
        ('["[[[", "\\"{"]', True),  # brackets inside strings do not nest
        ('"\\ud83d\\n"', False),
        ('"\\ud83d\\u0041"', False),
        ('"\\ud83d" ', False),
        ('"\\ud83d\\ud83d\\ude00"', False),
        ('"\\ude00\\ud83d"', False),
    ],
)
def test_surrogate_escapes_pair_exactly_as_serde_reads_them(text: str, ok: bool) -> None:
    """JSON-PARSE-3: a leading surrogate escape needs a trailing one right after it."""
    if ok:
        from_str(text)
    else:
        with pytest.raises(JsonError, match=r"surrogate|hex escape"):
            from_str(text)


@pytest.mark.parametrize(
    ("literal", "expected"),
    [
        ("3e23", 3.0 * 1e23),  # 2.9999999999999997e23, not the correctly rounded 3e23
        ("3E23", 3.0 * 1e23),
        ("-3e23", -(3.0 * 1e23)),
        ("3e25", 3.0 * 1e25),  # 3.0000000000000005e25
        # an upper-case E with a fraction: significand 70 (resp. 300), exponent 23
        ("7.0E24", 70.0 * 1e23),  # 6.999999999999999e24
        ("3.00E25", 300.0 * 1e23),  # 2.9999999999999996e25
    ],
)
def test_a_short_literal_beyond_the_exact_range_is_serdes_product(
    literal: str, expected: float
) -> None:
    """JSON-NUM-3: a short literal with an exponent past 22 is serde's one multiplication of
    ``s as f64`` by the table power, not Python's correctly rounded ``float()``."""
    value = from_str(literal)
    assert value == expected
    assert value != float(literal)


def test_validate_refuses_objects_nested_to_the_recursion_limit() -> None:
    """JSON-PARSE-6: ``validate`` refuses objects nested 128 deep (as arrays), naming the
    innermost place, and accepts 127."""
    from mcp_touchstone.serde_json import validate

    shallow: JSON = {}
    for _ in range(126):
        shallow = {"k": shallow}
    assert validate(shallow) is shallow
    deep: JSON = {"k": shallow}
    with pytest.raises(JsonError) as exc:
        validate(deep)
    assert str(exc.value) == (
        "value" + ".k" * 127 + ": nested 128 deep (serde_json's recursion limit)"
    )


@pytest.mark.parametrize(
    "value",
    [{"k": "\ud800"}, {"a": "x", "k": "y\udfff"}, ["\ud800"], ["x", ["\udc00"]]],
)
def test_validate_refuses_a_lone_surrogate_inside_containers(value: JSON) -> None:
    """JSON-VALUE-1: a lone surrogate in an object's value or an array's item is refused,
    however deep, as it is at the top level."""
    from mcp_touchstone.serde_json import validate

    with pytest.raises(JsonError, match="string holds a lone surrogate"):
        validate(value)


@pytest.mark.parametrize("trailing", ["\\u0000", "\\u0041", "\\ud800", "\\uDBFF"])
def test_a_leading_surrogate_followed_by_a_non_trailing_escape(trailing: str) -> None:
    """JSON-PARSE-3: after a leading surrogate escape any ``\\u`` unit outside DC00..DFFF,
    ``\\u0000`` included, leaves the leading surrogate lone."""
    with pytest.raises(JsonError, match=r"^lone leading surrogate in hex escape"):
        from_str(f'"\\ud800{trailing}"')


def test_to_string_refuses_a_cyclic_value_with_a_json_error() -> None:
    """JSON-VALUE-1: a list that contains itself is no JSON value: ``to_string`` raises
    :class:`JsonError`, never a bare ``RecursionError``."""
    cyclic: list[JSON] = []
    cyclic.append(cyclic)
    with pytest.raises(JsonError):
        to_string(cyclic)


def test_validate_finds_a_lone_surrogate_string_inside_a_list() -> None:
    """JSON-VALUE-1: a list holding a lone-surrogate string is no value, wherever the string
    stands, and the refusal names its place."""
    from mcp_touchstone.serde_json import validate

    with pytest.raises(JsonError) as exc:
        validate(["ok", "\udc00x"])
    assert str(exc.value) == "value[1]: string holds a lone surrogate"
    with pytest.raises(JsonError):
        validate(["\ud800"])
    assert validate(["ok", "\U0001f600"]) == ["ok", "\U0001f600"]


def test_validate_counts_list_depth_one_level_at_a_time() -> None:
    """JSON-PARSE-6: nesting counts one level per list, so a bad integer 100 lists deep is
    reported as such, with its path."""
    from mcp_touchstone.serde_json import validate

    value: JSON = [1 << 70]
    for _ in range(99):
        value = [value]
    with pytest.raises(JsonError) as exc:
        validate(value)
    assert str(exc.value) == f"value{'[0]' * 100}: integer {1 << 70} is out of i64/u64 range"


def test_an_out_of_range_literal_is_quoted_whole_up_to_forty_characters() -> None:
    """JSON-PARSE-2: a refused literal of 40 characters is quoted whole, one of 41 is cut to its
    first 37 and ``...``."""
    forty = "1" + "0" * 35 + "e999"
    with pytest.raises(JsonError) as exc:
        from_str(forty)
    assert str(exc.value) == f"number out of range: {forty}"
    longer = "1" + "0" * 36 + "e999"
    with pytest.raises(JsonError) as exc:
        from_str(longer)
    assert str(exc.value) == f"number out of range: {longer[:37]}..."


def test_a_private_use_escape_after_a_surrogate_pair_is_a_character() -> None:
    """JSON-PARSE-3: ``\\ue000``, just past the trailing-surrogate range, is a character even in
    text that also holds a surrogate-pair escape."""
    assert from_str('"\\ud800\\udc00\\ue000"') == "\U00010000\ue000"
    assert from_str('["\\ue000","\\udbff\\udfff"]') == ["\ue000", "\U0010ffff"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("18446744073709551616e000", 1.8446744073709552e19),
        ("18446744073709551616E+0", 1.8446744073709552e19),
        ("1234567890123456789.5e-0000000000000000000000", 1.2345678901234568e18),
    ],
)
def test_an_exponent_of_zeros_is_zero_on_the_general_path(text: str, expected: float) -> None:
    """JSON-NUM-4: an exponent written as zeros only, however many, is 0 for a literal too long
    for the short-float path."""
    assert from_str(text) == expected


@pytest.mark.parametrize("module", ["serde_json", "mrtr", "visibility"])
def test_importing_the_json_layer_or_a_core_loads_no_io_or_pydantic(module: str) -> None:
    """JSON-VALUE-1's layer and the cores it serves are pure: importing one and using it loads
    no ``subprocess``, ``selectors`` or ``pydantic``."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        f"import mcp_touchstone.{module}\n"
        "from mcp_touchstone import serde_json\n"
        "serde_json.to_string(serde_json.from_str('[1, 2.5e-7, {\"x\": null}]'))\n"
        "print(sorted({'subprocess', 'selectors', 'pydantic'} & set(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
