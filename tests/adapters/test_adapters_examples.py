"""The README's example: mcp_touchstone.examples.server on a loopback port, driven by its client."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.mark.parametrize("store", ["memory", "redis"])
def test_example_server_and_client(store: str, request: pytest.FixtureRequest) -> None:
    """The example shows hidden == nonexistent, a step-up, and a replayed final round (its
    store in memory, or on Redis when REDIS_URL is set: ADAPT-REPLAY-8's asyncio store)."""
    port = _free_port()
    env = {**os.environ, "PORT": str(port)}
    if store == "redis":
        redis_port: Any = request.getfixturevalue("redis_port")
        env["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/0"
    server = subprocess.Popen(
        [sys.executable, "-m", "mcp_touchstone.examples.server"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert server.poll() is None, "the example server exited"
                assert time.monotonic() < deadline, "the example server did not start"
                time.sleep(0.1)
        client = subprocess.run(
            [
                sys.executable,
                "-m",
                "mcp_touchstone.examples.client",
                f"http://127.0.0.1:{port}/mcp",
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        server.terminate()
        server.wait(timeout=20)
    out = client.stdout
    assert client.returncode == 0, client.stderr
    assert "1. alice sees tools: ['add']" in out
    assert "identical but for the name: True" in out
    assert '"code":-32001' in out
    assert out.count("(purge #1 on this server)") == 2
