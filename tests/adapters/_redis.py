"""A real ``redis-server`` on a loopback port for the tests, the benchmarks and the soak (Debian's
package; `.ci/run` installs it).

It runs as the final-response store's guarantee needs (ADAPT-STORE-9): ``appendonly yes`` with
``appendfsync always``, so a write Redis acknowledged survives a crash of Redis.  A
:class:`RedisProcess` can be killed, restarted on the same port and data directory (it replays
its append-only file), stopped and continued: the faults the store must survive."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _binary() -> str:
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError(
            "redis-server is not installed: `apt-get install redis-server` (.ci/run does it)"
        )
    return binary


class RedisProcess:
    """One ``redis-server`` on 127.0.0.1:``port`` keeping its data in ``workdir``."""

    def __init__(self, workdir: Path, *, durable: bool = True) -> None:
        self.workdir = workdir
        self.durable = durable
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the server (replaying its append-only file) and wait until it answers."""
        persistence = (
            ["--appendonly", "yes", "--appendfsync", "always"]
            if self.durable
            else ["--appendonly", "no"]
        )
        self._proc = subprocess.Popen(
            [
                _binary(),
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                *persistence,
                "--dir",
                str(self.workdir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(64).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if time.monotonic() > deadline or self._proc.poll() is not None:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.02)

    def kill(self) -> None:
        """SIGKILL the server (a crash: nothing is flushed that was not already)."""
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait(timeout=10)
            self._proc = None

    def restart(self) -> None:
        """Kill the server if it runs, and start it again on the same port and data."""
        self.kill()
        self.start()

    def stop(self) -> None:
        """SIGSTOP the server: connections stay open and nothing answers."""
        assert self._proc is not None
        os.kill(self._proc.pid, signal.SIGSTOP)

    def cont(self) -> None:
        """SIGCONT a stopped server."""
        assert self._proc is not None
        os.kill(self._proc.pid, signal.SIGCONT)

    def close(self) -> None:
        """Stop the server for good (continued first, should it be stopped)."""
        if self._proc is not None:
            os.kill(self._proc.pid, signal.SIGCONT)
            self._proc.terminate()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(timeout=10)
            self._proc = None


@contextmanager
def redis_process(*, durable: bool = True) -> Iterator[RedisProcess]:
    """A started :class:`RedisProcess` in a temporary directory, closed at the end."""
    with tempfile.TemporaryDirectory() as workdir:
        server = RedisProcess(Path(workdir), durable=durable)
        server.start()
        try:
            yield server
        finally:
            server.close()


@contextmanager
def redis_server() -> Iterator[int]:
    """Run a durable ``redis-server`` on 127.0.0.1 and yield its port."""
    with redis_process() as server:
        yield server.port
