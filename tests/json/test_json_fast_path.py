"""The JSON layer's fast parse path (the scanner's own C integer reader on text where
``_plain_integers`` holds) gives exactly the full path's answers (JSON-PARSE-1, JSON-NUM-1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone import _json_read
from mcp_touchstone.serde_json import JSON, JsonError, from_str, to_string
from tests.strategies.json import values

_NUMBER = st.from_regex(
    r"-?(0|[1-9][0-9]{0,24})(\.[0-9]{1,20})?([eE][+-]?[0-9]{1,4})?", fullmatch=True
)
_STRING = st.text(alphabet='-0123456789.eE ax\\"u', max_size=30).map(lambda s: f'"{s}"')


@st.composite
def _texts(draw: st.DrawFn) -> str:
    """JSON-ish text: arrays and objects of number literals and strings full of digits and
    ``-0``, valid or not (a stray character, a duplicate key, a missing bracket)."""
    items = draw(st.lists(st.one_of(_NUMBER, _STRING, st.sampled_from(["-0", "-0.0", "[]"]))))
    if draw(st.booleans()):
        body = "[" + ",".join(items) + "]"
    else:
        keys = draw(st.lists(st.sampled_from(["a", "b", "1"]), min_size=len(items)))
        body = "{" + ",".join(f'"{k}":{v}' for k, v in zip(keys, items, strict=False)) + "}"
    if draw(st.integers(0, 9)) == 0:
        cut = draw(st.integers(0, len(body)))
        body = body[:cut] + draw(st.sampled_from(["", "x", ",", "]", "}"])) + body[cut:]
    return body


def _outcome(text: str | bytes) -> tuple[str, str]:
    """The parse result as comparable text (type-exact), or the error message."""
    try:
        value: JSON = from_str(text)
    except JsonError as exc:
        return ("error", str(exc))
    return ("value", f"{type(value).__name__}:{to_string(value)}:{_types(value)}")


def _types(value: JSON) -> str:
    """Every scalar's Python type, so that 1 and 1.0 and -0.0 and 0 stay apart."""
    if isinstance(value, list):
        return "[" + ",".join(_types(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}={_types(v)}" for k, v in value.items()) + "}"
    return type(value).__name__


def _full_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_json_read, "_plain_integers", lambda text, masked: False)


@given(_texts())
def test_fast_path_matches_full_path(text: str) -> None:
    """On any text, str or bytes, the parse with the fast path allowed equals the parse that
    always takes the per-integer hook (value, types and error message)."""
    fast = (_outcome(text), _outcome(text.encode("utf-8")))
    with pytest.MonkeyPatch.context() as mp:
        _full_path(mp)
        full = (_outcome(text), _outcome(text.encode("utf-8")))
    assert fast == full


@given(values())
def test_fast_path_matches_full_path_on_written_values(value: JSON) -> None:
    """Text written by the layer itself parses the same on both paths."""
    text = to_string(value)
    fast = _outcome(text)
    with pytest.MonkeyPatch.context() as mp:
        _full_path(mp)
        full = _outcome(text)
    assert fast == full


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("[1, 2, 3]", True),
        ("[-0]", False),
        ('["-0"]', False),
        ("[1234567890123456789]", False),
        ("[123456789012345678]", True),
        ('["1234567890123456789"]', False),
        ("[1.5, -2]", True),
        ("[-0.5]", False),
        ("[-5, 10]", True),
        ('["a-b", "x0"]', True),
        ('[["a"], {"b": 1234567890123456789}]', False),
        ("1234567890123456789", False),
    ],
)
def test_plain_integers_table(text: str, plain: bool) -> None:
    """``-0`` or a run of 19 digits anywhere sends a text to the full path; nothing else does."""
    masked = text.encode().translate(_json_read._MASK)
    assert _json_read._plain_integers(text, masked) is plain


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("-0", "-0.0"),
        ("[-0]", "[-0.0]"),
        ("18446744073709551615", "18446744073709551615"),
        ("18446744073709551616", "1.8446744073709552e+19"),
        ("-9223372036854775809", "-9.223372036854776e+18"),
        ("123456789012345678", "123456789012345678"),
    ],
)
def test_boundary_integers_on_either_path(text: str, expected: str) -> None:
    """The integers where Python's ``int`` and serde_json part ways still read as serde's."""
    assert to_string(from_str(text)) == expected
    assert to_string(from_str(text.encode())) == expected


def _stdlib_decode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_json_read, "_decode", lambda decoder, text: decoder.decode(text))


@given(
    st.one_of(_texts(), values().map(to_string)),
    st.sampled_from(["", " ", "\n", "\t \r"]),
    st.sampled_from(["", " ", "\n", " x", "1", "{}", "\r\n "]),
)
def test_direct_scan_matches_decoder_decode(body: str, lead: str, trail: str) -> None:
    """Reading the value with the scanner directly gives what ``JSONDecoder.decode`` gives
    (value, types and error message, str and bytes), whitespace or extra text around it."""
    text = lead + body + trail
    direct = (_outcome(text), _outcome(text.encode("utf-8")))
    with pytest.MonkeyPatch.context() as mp:
        _stdlib_decode(mp)
        decoded = (_outcome(text), _outcome(text.encode("utf-8")))
    assert direct == decoded
