"""The line server's per-line frame (HARNESS-WIRE-1, HARNESS-MSG-2, HARNESS-MSG-5): the run
line answered in ``_respond`` is byte for byte ``_encode(answer(line))``, and the one write per
response on a file gives the same stream as ``write`` and ``flush``."""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.conformance import default_vectors_dir, load_vectors
from mcp_touchstone.harness import HarnessOperation, _server
from mcp_touchstone.harness._operation import EncodedOutput, TextOperation
from mcp_touchstone.harness._registry import parsed_input_operations
from mcp_touchstone.harness._server import _encode, _respond, answer, serve
from mcp_touchstone.serde_json import JSON, to_string, to_string_ordered


def _encoded(text: str) -> EncodedOutput:
    output = EncodedOutput(x=1)
    output.text = text
    return output


def _no_text(raw: JSON) -> dict[str, JSON]:
    return EncodedOutput(x=1)  # ``text`` never set: writing it fails


def _boom(raw: JSON) -> dict[str, JSON]:
    raise ValueError("planted")


def _texted(text: str) -> TextOperation:
    """An operation answering ``text`` as its object (an EncodedOutput) and as text."""
    return TextOperation(lambda raw: _encoded(text), lambda raw: text)


def _text_boom(raw: JSON) -> str:
    raise KeyError("planted")


def _object_boom(raw: JSON) -> dict[str, JSON]:
    raise KeyError("planted")


_OPS: Mapping[str, HarnessOperation] = {
    "t.text": _texted('{"x":1}'),
    "t.text_surrogate": _texted('{"x":"\ud800"}'),
    "t.text_boom": TextOperation(_object_boom, _text_boom),
    "t.echo": lambda raw: {"echo": raw},
    "t.encoded": lambda raw: _encoded('{"x":1}'),
    "t.surrogate": lambda raw: _encoded('{"x":"\ud800"}'),
    "t.no_text": _no_text,
    "t.boom": _boom,
    "t.bad": lambda raw: {"x": float("nan")},
}


def _general(line: bytes, ops: Mapping[str, HarnessOperation]) -> bytes | None:
    response = answer(line, ops)
    return None if response is None else _encode(response)


_NAMES: st.SearchStrategy[JSON] = st.sampled_from([*_OPS, "t.none", 7, None])
_SEQS: st.SearchStrategy[JSON] = st.one_of(
    st.integers(-3, 3), st.booleans(), st.just("1"), st.none()
)
_CASES: st.SearchStrategy[JSON] = st.one_of(
    st.fixed_dictionaries({"operation": _NAMES}, optional={"input": st.integers(0, 2)}),
    st.just([]),
    st.none(),
)
_REQUESTS: st.SearchStrategy[JSON] = st.one_of(
    st.fixed_dictionaries(
        {"cmd": st.sampled_from(["run", "stop", "start", "dance", 1])},
        optional={"seq": _SEQS, "case": _CASES},
    ),
    st.just([1]),
    st.just("run"),
)


@given(_REQUESTS)
def test_respond_is_encode_of_answer(request: JSON) -> None:
    """On any request object (known, unknown, crashing and unwritable operations, every
    refusal of the run line) ``_respond`` gives exactly ``_encode(answer(line))``."""
    line = to_string(request).encode()
    assert _respond(line, _OPS, {}) == _general(line, _OPS)


@pytest.mark.parametrize("line", [b"", b"{", b"\xff", b"[]", b'{"cmd":"stop"}', b" 1 "])
def test_respond_is_encode_of_answer_on_lines_that_are_not_runs(line: bytes) -> None:
    """The same on lines that are not JSON, not objects, or ``stop``."""
    assert _respond(line, _OPS, {}) == _general(line, _OPS)


def test_respond_answers_every_vector_as_answer_does() -> None:
    """Every shipped vector, as the runner sends it, gets the same bytes from ``_respond`` as
    from ``_encode(answer(...))`` over the served operation table."""
    root = default_vectors_dir()
    assert root is not None
    ops = parsed_input_operations()
    found: dict[str, HarnessOperation] = {}
    vectors = load_vectors(root)
    for seq, vector in enumerate(vectors):
        case = {"operation": vector.operation, "input": vector.input}
        line = to_string_ordered({"cmd": "run", "seq": seq, "case": case}).encode()
        assert _respond(line, ops, found) == _general(line, ops), vector.id
    assert set(found) == {v.operation for v in vectors}


def test_an_operation_is_looked_up_once_and_called_once_per_line() -> None:
    """``found`` keeps each known operation after its first line; unknown names stay out; every
    run line calls its operation exactly once."""
    calls: list[JSON] = []

    def count(raw: JSON) -> dict[str, JSON]:
        calls.append(raw)
        return {"n": raw}

    ops: dict[str, HarnessOperation] = {"t.count": count}
    found: dict[str, HarnessOperation] = {}
    for seq in range(3):
        case: JSON = {"operation": "t.count", "input": seq}
        line = to_string({"cmd": "run", "seq": seq, "case": case}).encode()
        assert _respond(line, ops, found) == b'{"output":{"n":%d},"seq":%d}\n' % (seq, seq)
    assert found == {"t.count": count}
    skipped = b'{"cmd":"run","seq":9,"case":{"operation":"t.none"}}'
    assert _respond(skipped, ops, found) == _general(skipped, ops)
    assert set(found) == {"t.count"}
    assert calls == [0, 1, 2]


_STREAM = [
    b'{"cmd":"start","version":1}\n',
    b'{"cmd":"run","seq":1,"case":{"operation":"t.encoded","input":1}}\n',
    b"garbage\r\n",
    b'{"cmd":"run","seq":2,"case":{"operation":"t.surrogate"}}\n',
    b'{"cmd":"run","seq":3,"case":{"operation":"t.echo","input":[1,"a"]}}\n',
    b'{"cmd":"run","seq":4,"case":{"operation":"t.boom"}}\n',
    b'{"cmd":"run","seq":6,"case":{"operation":"t.text","input":[]}}\n',
    b'{"cmd":"stop"}\n',
    b'{"cmd":"run","seq":5,"case":{"operation":"t.echo"}}\n',
]


def _expected() -> bytes:
    out = io.BytesIO()
    serve(_STREAM, out, _OPS)
    return out.getvalue()


def test_a_file_gets_the_same_lines_as_a_stream(tmp_path: Path) -> None:
    """Served to a file (one write per response on the file under the buffer), the output is
    the stream ``write`` and ``flush`` give, with what was buffered before it kept first."""
    target = tmp_path / "out.jsonl"
    with target.open("wb") as out:
        assert isinstance(out, io.BufferedWriter)
        assert _server._raw_file(out) is out.raw
        out.write(b"before\n")
        assert serve(_STREAM, out, _OPS) == 0
    expected = _expected()
    assert target.read_bytes() == b"before\n" + expected
    assert len(expected.splitlines()) == 7


class _ShortFile:
    """A file that takes at most ``limit`` bytes a write (``None``: nothing, as a non-blocking
    file that would block), into ``sink``."""

    def __init__(self, sink: io.BytesIO, limit: int | None) -> None:
        self.sink, self.limit = sink, limit

    def write(self, data: bytes) -> int | None:
        if self.limit is None:
            return None
        self.sink.write(data[: self.limit])
        return min(self.limit, len(data))


@pytest.mark.parametrize("limit", [None, 0, 1, 7, 10_000])
def test_a_short_write_is_finished_by_the_buffered_writer(
    monkeypatch: pytest.MonkeyPatch, limit: int | None
) -> None:
    """A write that takes only part of a line (or nothing) leaves the rest to ``out.write``
    and ``out.flush``: the stream is whole and in order."""
    expected = _expected()
    out = io.BytesIO()
    monkeypatch.setattr(_server, "_raw_file", lambda target: _ShortFile(out, limit))
    assert serve(_STREAM, out, _OPS) == 0
    assert out.getvalue() == expected
