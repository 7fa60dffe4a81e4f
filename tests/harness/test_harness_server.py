"""The harness-protocol server: message shapes, robustness, ordering (spec/harness.md)."""

from __future__ import annotations

import io
import random
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from mcp_touchstone import serde_json
from mcp_touchstone.harness import HarnessOperation
from mcp_touchstone.harness._server import answer, serve
from mcp_touchstone.serde_json import JSON


def _echo(raw: JSON) -> dict[str, JSON]:
    return {"echo": raw}


def _boom(raw: JSON) -> dict[str, JSON]:
    raise ZeroDivisionError("planted")


OPS: Mapping[str, HarnessOperation] = {"t.echo": _echo, "t.boom": _boom}


def _lines(out: bytes) -> list[dict[str, JSON]]:
    parsed = [serde_json.from_str(line) for line in out.splitlines()]
    assert all(isinstance(p, dict) for p in parsed)
    return [p for p in parsed if isinstance(p, dict)]


def test_start_lists_operations() -> None:
    """HARNESS-MSG-1: start answers version 1, the implementation and the supported operations."""
    hello = answer('{"cmd":"start","version":1}', OPS)
    assert hello is not None
    assert hello["version"] == 1
    assert hello["operations"] == ["t.echo", "t.boom"]
    impl = hello["implementation"]
    assert isinstance(impl, dict)
    assert {"name", "version", "language"} <= impl.keys()


@pytest.mark.parametrize(
    ("line", "asked"),
    [
        ('{"cmd":"start","version":2}', "2"),
        ('{"cmd":"start","version":0}', "0"),
        ('{"cmd":"start","version":1.0}', "1.0"),
        ('{"cmd":"start","version":true}', "true"),
        ('{"cmd":"start","version":"1"}', '"1"'),
        ('{"cmd":"start"}', "null"),
    ],
)
def test_start_refuses_every_version_but_1(line: str, asked: str) -> None:
    """HARNESS-MSG-1: a start asking for a protocol version other than 1 is errored, naming the
    version asked for and the one supported, and never answered as version 1."""
    assert answer(line, OPS) == {
        "errored": True,
        "message": f"unsupported harness protocol version {asked}:"
        " this implementation speaks version 1",
    }


def test_run_output_skipped_errored() -> None:
    """HARNESS-MSG-2, HARNESS-MSG-5: output, skipped for unknown operations, errored on a crash."""
    ok = answer('{"cmd":"run","seq":7,"case":{"operation":"t.echo","input":{"a":[1]}}}', OPS)
    assert ok == {"seq": 7, "output": {"echo": {"a": [1]}}}
    skipped = answer('{"cmd":"run","seq":8,"case":{"operation":"nope","input":{}}}', OPS)
    assert skipped is not None
    assert skipped["seq"] == 8
    assert skipped["skipped"] is True
    crashed = answer('{"cmd":"run","seq":9,"case":{"operation":"t.boom","input":{}}}', OPS)
    assert crashed is not None
    assert crashed["seq"] == 9
    assert crashed["errored"] is True
    assert "planted" in str(crashed["message"])


def test_garbage_is_errored_with_seq_when_readable() -> None:
    """HARNESS-MSG-4: non-JSON, non-objects, unknown cmds and bad runs are errored, seq kept."""
    for line, seq in [
        ("not json", None),
        ("[1,2]", None),
        ('{"cmd":"dance","seq":4}', 4),
        ('{"seq":5}', 5),
        ('{"cmd":"run","seq":"6","case":{}}', None),
        ('{"cmd":"run","seq":true,"case":{}}', None),
        ('{"cmd":"run","seq":6}', 6),
        ('{"cmd":"run","seq":6,"case":{"input":{}}}', 6),
        ("\xff", None),
    ]:
        out = answer(line, OPS)
        assert out is not None
        assert out["errored"] is True, line
        assert out.get("seq") == seq, line


def test_stop_and_eof_end_serving() -> None:
    """HARNESS-WIRE-2: serving ends at stop (later lines unread) and at end of input."""
    out = io.BytesIO()
    lines = [
        b'{"cmd":"run","seq":1,"case":{"operation":"t.echo","input":1}}\n',
        b'{"cmd":"stop"}\n',
        b'{"cmd":"run","seq":2,"case":{"operation":"t.echo","input":2}}\n',
    ]
    assert serve(lines, out, OPS) == 0
    assert [r["seq"] for r in _lines(out.getvalue())] == [1]
    out = io.BytesIO()
    assert serve([lines[0]], out, OPS) == 0
    assert len(_lines(out.getvalue())) == 1


def test_ten_thousand_mixed_requests_through_a_real_process() -> None:
    """HARNESS-WIRE-1, HARNESS-MSG-4: 10,000 requests, garbage interleaved, one answer each."""
    rng = random.Random(20261130)
    garbage = [b"", b"{", b"null", b"[]", b'"x"', b'{"cmd":7}', b"\xfe\xff", b'{"cmd":"run"}']
    ops = ["json.to_string", "no.such.op", "scope.resolve_matching_grants"]
    requests: list[bytes] = [b'{"cmd":"start","version":1}']
    expected: list[int | None] = [None]
    seq = 0
    for _ in range(10_000):
        if rng.random() < 0.2:
            requests.append(rng.choice(garbage))
            expected.append(None)
            continue
        seq += 1
        text = rng.choice(['{"a":1e-7}', "[1,", "1E400", '"\\u0001"', "null"])
        case: JSON = {"operation": rng.choice(ops), "input": {"text": text}}
        line = serde_json.to_string({"cmd": "run", "seq": seq, "case": case})
        requests.append(line.encode())
        expected.append(seq)
    payload = b"\n".join(requests) + b"\n"
    proc = subprocess.run(
        [sys.executable, "-m", "mcp_touchstone", "harness"],
        input=payload,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    answers = _lines(proc.stdout)
    assert len(answers) == len(requests)
    assert "operations" in answers[0]
    assert [a.get("seq") for a in answers[1:]] == expected[1:]
    for a, want in zip(answers[1:], expected[1:], strict=True):
        if want is None:
            assert a["errored"] is True
        else:
            assert ("output" in a) or a.get("skipped") is True


def _lone_surrogate(raw: JSON) -> dict[str, JSON]:
    return {"text": "\ud800"}


def _too_deep(raw: JSON) -> dict[str, JSON]:
    deep: JSON = []
    for _ in range(100_000):
        deep = [deep]
    return {"deep": deep}


def test_output_that_is_not_json_text_is_errored_and_serving_goes_on() -> None:
    """HARNESS-MSG-5: an output that cannot be written as UTF-8 JSON (a lone surrogate, nesting
    past the writer's recursion) is errored for that case; the next request is still answered."""
    ops: Mapping[str, HarnessOperation] = {"t.bad": _lone_surrogate, "t.deep": _too_deep, **OPS}
    out = io.BytesIO()
    lines = [
        b'{"cmd":"run","seq":1,"case":{"operation":"t.bad","input":{}}}\n',
        b'{"cmd":"run","seq":2,"case":{"operation":"t.deep","input":{}}}\n',
        b'{"cmd":"run","seq":3,"case":{"operation":"t.echo","input":3}}\n',
    ]
    assert serve(lines, out, ops) == 0
    answers = _lines(out.getvalue())
    assert [a.get("seq") for a in answers] == [1, 2, 3]
    assert answers[0]["errored"] is True
    assert answers[1]["errored"] is True
    assert answers[2]["output"] == {"echo": 3}


def test_reader_closing_stdout_ends_the_server_quietly() -> None:
    """HARNESS-WIRE-2: when the runner closes the harness's stdout the server exits 0 with no
    traceback, as at end of input."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "mcp_touchstone", "harness"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    assert proc.stderr is not None
    proc.stdout.close()
    run = b'{"cmd":"run","seq":1,"case":{"operation":"json.to_string","input":{"text":"1"}}}\n'
    try:
        proc.stdin.write(b'{"cmd":"start","version":1}\n' + run * 100)
        proc.stdin.close()
    except BrokenPipeError:
        pass
    assert proc.wait(timeout=60) == 0
    assert proc.stderr.read() == b""


_PEAK_RSS = """
import resource, subprocess, sys
with open(sys.argv[1], "rb") as lines:
    done = subprocess.run(
        [sys.executable, "-m", "mcp_touchstone", "harness"], stdin=lines, capture_output=True
    )
assert done.returncode == 0 and done.stdout.count(b"\\n") == 1, done
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""
"""Serves the line file given on a fresh harness process and prints that process's peak RSS
(KiB); the measuring process itself holds none of the line."""


def _harness_peak_kib(path: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", _PEAK_RSS, path], capture_output=True, check=True, timeout=120
    )
    return int(done.stdout)


def test_a_long_line_is_held_about_twice_at_most(tmp_path: Path) -> None:
    """HARNESS-WIRE-3: the server drops each form of a request once the next is made (the line
    once decoded, the text once parsed), so serving a 20 MB line peaks at the process's own
    size plus about twice the line, never a multiple of it beyond that."""
    mb = 1 << 20
    head = b'{"cmd":"run","seq":1,"case":{"operation":"t.none","input":"'
    long_path = tmp_path / "long.jsonl"
    with open(long_path, "wb") as out:
        out.write(head)
        for _ in range(20):
            out.write(b"x" * mb)
        out.write(b'"}}\n')
    short_path = tmp_path / "short.jsonl"
    short_path.write_bytes(head + b'x"}}\n')
    base = _harness_peak_kib(str(short_path))
    peak = _harness_peak_kib(str(long_path))
    assert peak - base < 2.5 * 20 * 1024, (base, peak)
