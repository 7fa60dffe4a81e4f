"""The runner's answer lines, split a read at a time, against the line-by-line reader they
replace (CONF-PERF-2)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from typing import cast

from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.conformance import _process
from mcp_touchstone.conformance._results import LineTooLongError


class _Pipe:
    """A process stand-in whose stdout is the read end of a pipe holding ``data``."""

    def __init__(self, data: bytes) -> None:
        read, write = os.pipe()
        os.write(write, data)
        os.close(write)
        self.stdout = os.fdopen(read, "rb", buffering=0)


class _LineByLine:
    """The general reader (the runner's before CONF-PERF-2): search the buffer for a newline,
    cut one line off, and read again only when there is none."""

    def __init__(self, fd: int, cap: int, chunk: int) -> None:
        self._fd, self._max, self._chunk = fd, cap, chunk
        self._buf = bytearray()
        self._skipping = False

    def next(self) -> bytes | None:
        scanned = 0
        while True:
            end = self._buf.find(b"\n", scanned)
            if end >= 0 and self._skipping:
                del self._buf[: end + 1]
                self._skipping = False
                scanned = 0
                continue
            if end >= 0:
                line = bytes(self._buf[:end])
                del self._buf[: end + 1]
                if len(line) > self._max:
                    raise LineTooLongError(self._max)
                return line
            if self._skipping:
                self._buf.clear()
            elif len(self._buf) > self._max:
                self._buf.clear()
                self._skipping = True
                raise LineTooLongError(self._max)
            scanned = len(self._buf)
            chunk = os.read(self._fd, self._chunk)
            if not chunk:
                return None
            self._buf += chunk


def _drain(next_line: Callable[[], bytes | None]) -> list[bytes | str]:
    got: list[bytes | str] = []
    while True:
        try:
            line = next_line()
        except LineTooLongError:
            got.append("too long")
            continue
        if line is None:
            return got
        got.append(line)


def _general(data: bytes, cap: int, chunk: int) -> list[bytes | str]:
    pipe = _Pipe(data)
    try:
        return _drain(_LineByLine(pipe.stdout.fileno(), cap, chunk).next)
    finally:
        pipe.stdout.close()


def _read_all(data: bytes, cap: int) -> list[bytes | str]:
    pipe = _Pipe(data)
    lines = _process.Lines(cast("subprocess.Popen[bytes]", pipe), cap)
    try:
        return _drain(lambda: lines.next(5))
    finally:
        pipe.stdout.close()


@given(
    st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")), max_size=12),
    st.booleans(),
    st.integers(0, 30),
    st.integers(1, 17),
)
def test_lines_split_a_read_at_a_time_as_a_line_by_line_reader(
    pieces: list[bytes], final_newline: bool, cap: int, chunk: int
) -> None:
    """Differential against the line-by-line reader: whatever the read size and the cap, the same
    lines in order, an over-long line as one error (skipped to its end), no trailing partial
    line (one over the cap is an error: the reader cannot know that no newline follows)."""
    data = b"\n".join(pieces) + (b"\n" if final_newline else b"")
    saved = _process._CHUNK
    _process._CHUNK = chunk
    try:
        got = _read_all(data, cap)
    finally:
        _process._CHUNK = saved
    assert got == _general(data, cap, chunk)
    complete = data.split(b"\n")[:-1]
    if all(len(line) <= cap for line in data.split(b"\n")):
        assert got == complete
