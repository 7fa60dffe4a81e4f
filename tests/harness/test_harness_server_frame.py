"""The line server's per-line frame (HARNESS-WIRE-1, HARNESS-WIRE-2, HARNESS-MSG-2,
HARNESS-MSG-5): each request line gets one response line, ``_encode(answer(line))``, written and
flushed in order; an operation that raises or answers something JSON cannot hold is ``errored``
for that case only."""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.harness import HarnessOperation
from mcp_touchstone.harness._server import _encode, answer, serve
from mcp_touchstone.serde_json import JSON, from_str, to_string


def _boom(raw: JSON) -> dict[str, JSON]:
    raise ValueError("planted")


_OPS: Mapping[str, HarnessOperation] = {
    "t.echo": lambda raw: {"echo": raw},
    "t.surrogate": lambda raw: {"x": "\ud800"},
    "t.boom": _boom,
    "t.bad": lambda raw: {"x": float("nan")},
}

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
def test_every_request_line_gets_one_json_line_or_ends_serving(request: JSON) -> None:
    """HARNESS-MSG-2, HARNESS-MSG-5: whatever the request, the server writes exactly one JSON
    object line (``stop`` ends serving and writes nothing); a bad output is ``errored``."""
    line = to_string(request).encode()
    out = io.BytesIO()
    assert serve([line], out, _OPS) == 0
    written = out.getvalue()
    response = answer(line, _OPS)
    if response is None:
        assert written == b""
        return
    assert written == _encode(response)
    assert written.endswith(b"\n")
    assert written.count(b"\n") == 1
    assert isinstance(from_str(written), dict)


def test_an_operation_is_called_once_per_run_line() -> None:
    """HARNESS-MSG-2: every run line calls its operation exactly once, in order."""
    calls: list[JSON] = []

    def count(raw: JSON) -> dict[str, JSON]:
        calls.append(raw)
        return {"n": raw}

    lines = [
        to_string({"cmd": "run", "seq": s, "case": {"operation": "t.count", "input": s}}).encode()
        for s in range(3)
    ]
    out = io.BytesIO()
    serve(lines, out, {"t.count": count})
    assert out.getvalue() == b"".join(
        b'{"output":{"n":%d},"seq":%d}\n' % (seq, seq) for seq in range(3)
    )
    assert calls == [0, 1, 2]


_STREAM = [
    b'{"cmd":"start","version":1}\n',
    b'{"cmd":"run","seq":1,"case":{"operation":"t.echo","input":1}}\n',
    b"garbage\r\n",
    b'{"cmd":"run","seq":2,"case":{"operation":"t.surrogate"}}\n',
    b'{"cmd":"run","seq":3,"case":{"operation":"t.echo","input":[1,"a"]}}\n',
    b'{"cmd":"run","seq":4,"case":{"operation":"t.boom"}}\n',
    b'{"cmd":"run","seq":6,"case":{"operation":"t.bad","input":[]}}\n',
    b'{"cmd":"stop"}\n',
    b'{"cmd":"run","seq":5,"case":{"operation":"t.echo"}}\n',
]


def test_a_file_gets_the_same_lines_as_a_stream(tmp_path: Path) -> None:
    """HARNESS-WIRE-1, HARNESS-WIRE-2: served to a file, the output is the stream's, after what
    was written before it; serving stops at ``stop``."""
    expected = io.BytesIO()
    serve(_STREAM, expected, _OPS)
    target = tmp_path / "out.jsonl"
    with target.open("wb") as out:
        out.write(b"before\n")
        assert serve(_STREAM, out, _OPS) == 0
    assert target.read_bytes() == b"before\n" + expected.getvalue()
    lines = expected.getvalue().splitlines()
    assert len(lines) == 7
    errored = [b'"errored":true' in x for x in lines[1:]]
    assert errored == [False, True, True, False, True, True]
