"""Tests added in session 7 to kill surviving mutants of a fresh JSON-layer batch (ranks 161-300,
docs/assurance.md).

Expectations are stated by hand from serde_json's number model (JSON-NUM-3: without
``float_roundtrip`` a decimal ``s`` times ``10^e`` is one multiplication of ``s as f64`` by the
table power ``10^e``) and its recursion limit (JSON-PARSE-6); none is computed by the code under
test.
"""

from __future__ import annotations

import pytest

from mcp_touchstone.serde_json import JSON, JsonError, from_str, validate


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
    """JSON-NUM-3: a literal of few digits with an exponent past 22 is not read by the exactly
    rounding shortcut but by serde's one multiplication, which differs from Python's float()."""
    value = from_str(literal)
    assert value == expected
    assert value != float(literal)


def test_validate_refuses_objects_nested_to_the_recursion_limit() -> None:
    """JSON-PARSE-6: objects nested 128 deep are refused by ``validate`` (as arrays are), the
    message naming the innermost place; 127 deep is a value."""
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
    """JSON-VALUE-1: a lone surrogate in an object's value or an array's item (a string no UTF-8
    text carries) is refused, however deep, as it is at the top level."""
    with pytest.raises(JsonError, match="string holds a lone surrogate"):
        validate(value)


@pytest.mark.parametrize("trailing", ["\\u0000", "\\u0041", "\\ud800", "\\uDBFF"])
def test_a_leading_surrogate_followed_by_a_non_trailing_escape(trailing: str) -> None:
    """JSON-PARSE-3: after a leading surrogate escape serde reads the next ``\\u`` escape as
    its trailing half; any unit outside DC00..DFFF, ``\\u0000`` included, is a lone leading
    surrogate."""
    with pytest.raises(JsonError, match=r"^lone leading surrogate in hex escape"):
        from_str(f'"\\ud800{trailing}"')


def test_to_string_refuses_a_cyclic_value_with_a_json_error() -> None:
    """JSON-VALUE-1: a list that contains itself is no JSON value: ``to_string`` raises
    :class:`JsonError` (never a bare ``RecursionError``)."""
    from mcp_touchstone.serde_json import to_string

    cyclic: list[JSON] = []
    cyclic.append(cyclic)
    with pytest.raises(JsonError):
        to_string(cyclic)
