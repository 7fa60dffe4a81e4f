"""JSON-PARSE-6: ``from_str`` refuses exactly the valid JSON texts whose running count of brackets
outside strings reaches ``MAX_DEPTH``."""

from __future__ import annotations

import json
import re
from itertools import accumulate

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.serde_json import MAX_DEPTH, JsonError, from_str, to_string
from tests.strategies.json import values

_STRING_LITERAL = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_NESTING = {"[": 1, "{": 1, "]": -1, "}": -1}


def _too_deep(text: str) -> bool:
    """The definition: the running count of brackets outside strings reaches ``MAX_DEPTH``."""
    brackets = _NOT_BRACKET.sub("", _STRING_LITERAL.sub("", text))
    return max(accumulate(map(_NESTING.__getitem__, brackets)), default=0) >= MAX_DEPTH


_PIECES = st.sampled_from(
    ['"', '"a[', '"]"', '"\\\\"', '"\\""', '"\\\\\\""', '"{\\\\"', '"x\\"]"', "1", '"\\u005b"']
)


@st.composite
def _nested_texts(draw: st.DrawFn) -> str:
    """Valid JSON nested to any depth near the limit, strings full of brackets, quotes and
    backslashes between the levels."""
    text = draw(st.sampled_from(['"[["', "1", '"\\\\"', '"\\"{"', "[]", "{}"]))
    for _ in range(draw(st.integers(0, 140))):
        pieces = [p for p in draw(st.lists(_PIECES, max_size=2)) if p.count('"') % 2 == 0]
        if draw(st.booleans()):
            text = "[" + ",".join([*pieces, text]) + "]"
        else:
            text = "{" + ",".join(f'"k{i}":{p}' for i, p in enumerate([*pieces, text])) + "}"
        if draw(st.integers(0, 3)) == 0:
            text = "[" + text + ',"]",[[]]]'
    return text


def _refused_as_too_deep(text: str) -> bool:
    try:
        from_str(text)
    except JsonError as exc:
        return str(exc) == "recursion limit exceeded"
    return False


@given(_nested_texts())
def test_depth_limit_is_the_bracket_count_outside_strings(text: str) -> None:
    """JSON-PARSE-6 on valid JSON nested to any depth around 128, escaped quotes and
    backslashes inside the strings between the levels."""
    json.loads(text)  # valid by construction
    assert _refused_as_too_deep(text) == _too_deep(text)


@given(values(), st.integers(0, 140))
def test_depth_limit_counts_around_any_written_value(value: object, depth: int) -> None:
    """JSON-PARSE-6 on any JSON value the layer writes, wrapped ``depth`` arrays deep."""
    text = "[" * depth + to_string(value) + "]" * depth  # type: ignore[arg-type]
    assert _refused_as_too_deep(text) == _too_deep(text)


@pytest.mark.parametrize("text", ["[" * 200, "[" * 130 + "x", '{"a":' * 128])
def test_json_parse_6_nesting_past_the_limit_is_refused_before_a_later_fault(text: str) -> None:
    """JSON-PARSE-6: serde_json refuses the 128th level where it reads it, so a text cut off or
    broken further on is refused for its nesting, not for the later fault."""
    with pytest.raises(JsonError, match=r"^recursion limit exceeded$"):
        from_str(text)


def test_depth_limit_edges_through_from_str() -> None:
    """127 levels parse, 128 are refused, and brackets inside strings never count."""
    assert from_str("[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)) is not None
    with pytest.raises(JsonError, match=r"^recursion limit exceeded$"):
        from_str("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    siblings = "[" + "[]," * 5 + "[" * (MAX_DEPTH - 2) + "]" * (MAX_DEPTH - 2) + "]"
    assert from_str(siblings) is not None  # 127 deep, the siblings' pairs closed before
    with pytest.raises(JsonError, match=r"^recursion limit exceeded$"):
        from_str("[" + "[]," * 5 + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "]")
    quoted = '["' + "[" * 200 + '\\"' + "{" * 200 + '"]'
    assert from_str(quoted) == ["[" * 200 + '"' + "{" * 200]
