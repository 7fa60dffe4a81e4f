"""The implementation's process for the runner: its stderr tail, its exit, its process group."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
from typing import IO

STDERR_TAIL_BYTES = 2048
"""How much of the end of the implementation's stderr a report keeps."""


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


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the implementation's process group: it, and anything it started."""
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)
