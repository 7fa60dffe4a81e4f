"""The implementation's process for the runner: its answer lines, its stderr tail, its exit, its
process group and every process it started (CONF-PROC-1).

An implementation runs in a process group (and session) of its own, which is killed as a whole.
A descendant that leaves the group with ``setsid()`` is still a descendant while its parent
lives: :func:`descendants` finds it by walking parent links in ``/proc`` (Linux), and it is
killed by process id, checked against its start time so a reused id is never hit.  One whose
parent has already exited is re-parented: to the ``touchstone`` program itself, which makes itself
a *child subreaper* (:func:`become_subreaper`, Linux's ``prctl(PR_SET_CHILD_SUBREAPER)``) and
kills every descendant left when it ends (:func:`end_descendants`).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import selectors
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from typing import IO

from mcp_touchstone.conformance._results import LineTooLongError

MAX_LINE_BYTES = 64 << 20
"""The longest answer line the runner reads (64 MiB); a longer one errors its case."""

STDERR_TAIL_BYTES = 2048
"""How much of the end of the implementation's stderr a report keeps."""

_CHUNK = 1 << 16


class Lines:
    """Read ``\\n``-terminated lines from a pipe with a deadline per line and a length cap.

    Each read splits off every complete line it brought at once (``bytes.split``, in C), so a
    line costs a pop from a queue rather than a search and a copy of the buffer (CONF-PERF-2);
    the incomplete rest waits for the next read, never holding more than the cap and one read.
    """

    def __init__(self, proc: subprocess.Popen[bytes], max_line: int = MAX_LINE_BYTES) -> None:
        assert proc.stdout is not None
        self._fd = proc.stdout.fileno()
        self._sel = selectors.DefaultSelector()
        self._sel.register(self._fd, selectors.EVENT_READ)
        self._ready: deque[bytes] = deque()  # Complete lines, not yet returned.
        self._part: list[bytes] = []  # The reads since the last newline: the next line's start.
        self._part_size = 0
        self._max = max_line
        self._skipping = False  # Inside an over-long line: drop bytes up to its newline.

    def next(self, timeout: float) -> bytes | None:
        """The next line, or ``None`` at end of output; raise TimeoutError past ``timeout`` and
        LineTooLongError for a line longer than the cap (never holding more than the cap)."""
        if not self._ready:
            deadline = time.monotonic() + timeout
            while not self._read(deadline):
                pass
            if not self._ready:
                return None
        line = self._ready.popleft()
        if len(line) > self._max:
            raise LineTooLongError(self._max)
        return line

    def _read(self, deadline: float) -> bool:
        """One read: ``True`` when it ended the wait (complete lines queued, or end of output).
        An incomplete line already over the cap is reported before anything more is read."""
        if self._part_size > self._max:
            self._part, self._part_size = [], 0
            self._skipping = True
            raise LineTooLongError(self._max)
        left = deadline - time.monotonic()
        if left <= 0 or not self._sel.select(left):
            raise TimeoutError
        chunk = os.read(self._fd, _CHUNK)
        if not chunk:
            return True
        if b"\n" not in chunk:
            if not self._skipping:
                self._part.append(chunk)
                self._part_size += len(chunk)
            return False
        pieces = chunk.split(b"\n")
        rest = pieces.pop()
        if self._skipping:
            del pieces[0]  # The end of the over-long line, already reported.
            self._skipping = False
        elif self._part:
            self._part.append(pieces[0])
            pieces[0] = b"".join(self._part)
        self._part, self._part_size = ([rest], len(rest)) if rest else ([], 0)
        self._ready.extend(pieces)
        return bool(pieces)


class Tail:
    """Drain the implementation's stderr on a thread, keeping only its last bytes."""

    def __init__(self, pipe: IO[bytes] | None) -> None:
        self._data = bytearray()
        self._thread: threading.Thread | None = None
        if pipe is not None:
            self._thread = threading.Thread(target=self._drain, args=(pipe,), daemon=True)
            self._thread.start()

    def _drain(self, pipe: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            while chunk := os.read(pipe.fileno(), 1 << 16):
                self._data += chunk
                del self._data[:-STDERR_TAIL_BYTES]
        with contextlib.suppress(OSError, ValueError):
            pipe.close()

    def text(self) -> str:
        """The tail read so far (waiting briefly for the pipe to close)."""
        if self._thread is not None:
            self._thread.join(timeout=1)
        return bytes(self._data).decode("utf-8", "replace")


def exit_status_of(proc: subprocess.Popen[bytes]) -> int | None:
    """The implementation's exit status once it has exited (``-N``: killed by signal N)."""
    try:
        return proc.wait(timeout=2)
    except subprocess.TimeoutExpired:
        return None


def describe_exit(status: int) -> str:
    """``exit status 3`` or ``killed by signal 9 (SIGKILL)``."""
    if status >= 0:
        return f"exit status {status}"
    try:
        name = f" ({signal.Signals(-status).name})"
    except ValueError:
        name = ""
    return f"killed by signal {-status}{name}"


Family = list[tuple[int, str]]
"""Processes by id and start time (``/proc/PID/stat`` field 22), as :func:`descendants` found
them."""

_PR_SET_CHILD_SUBREAPER = 36
"""``prctl`` option (``<linux/prctl.h>``): orphaned descendants are re-parented to the caller."""


def _stat(pid: int) -> tuple[int, str] | None:
    """``pid``'s parent id and start time from ``/proc/PID/stat``, ``None`` when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read().decode("ascii", "replace")
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may hold anything: split after its end.
    fields = text[text.rfind(")") + 2 :].split()
    if len(fields) < 20:
        return None
    return int(fields[1]), fields[19]


def descendants(pid: int) -> Family:
    """Every live descendant of ``pid`` (children, theirs, ... whatever session or group they
    moved to), each with its start time; empty where ``/proc`` is not there."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    children: dict[int, list[tuple[int, str]]] = {}
    for name in names:
        if name.isdigit() and (found := _stat(int(name))) is not None:
            children.setdefault(found[0], []).append((int(name), found[1]))
    family: Family = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            family.append(child)
            todo.append(child[0])
    return family


def kill_family(family: Family) -> None:
    """SIGKILL each process of ``family`` that is still the one found (same start time)."""
    for pid, started in family:
        found = _stat(pid)
        if found is not None and found[1] == started:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def kill_group(proc: subprocess.Popen[bytes], family: Family | None = None) -> None:
    """SIGKILL the implementation's process group and every descendant it has (or ``family``,
    found while it still lived): it, and anything it started, ``setsid()`` or not."""
    found = descendants(proc.pid) if proc.returncode is None else []
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)
    kill_family(found + (family or []))


def become_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux 3.4+); ``False`` where
    that is not available.  Only the ``touchstone`` program calls it: it changes the process."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def end_descendants(rounds: int = 5) -> None:
    """SIGKILL every descendant of this process and reap the ones re-parented to it: the end of
    the ``touchstone`` program, after which nothing it started is left running."""
    me = os.getpid()
    for _ in range(rounds):
        family = descendants(me)
        if not family:
            return
        kill_family(family)
        for pid, _started in family:
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, 0)  # Only a child of ours is reaped here; others go on.
