"""The TypeScript SDK's ``McpServer`` (npm ``@modelcontextprotocol/sdk``, pinned in
``tests/node/package-lock.json``), run by ``tests/node/server.mjs`` on a loopback port.

``make node-deps`` installs it (``npm ci``, a stamp file); a test that needs it and finds it
missing fails with a message naming that target.  Node 20 is on the machine and on CI.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

NODE_DIR = Path(__file__).resolve().parents[1] / "node"
STAMP = NODE_DIR / "node_modules" / ".stamp"
SCRIPT = NODE_DIR / "server.mjs"
MISSING = (
    "the TypeScript SDK is not installed: run `make node-deps` "
    "(npm ci in tests/node, from its committed package-lock.json)"
)


def require_node() -> str:
    """The ``node`` executable; ``RuntimeError`` naming ``make node-deps`` when the SDK or
    node itself is missing."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node is not installed (Node 20 is needed for the TypeScript SDK)")
    if not STAMP.exists():
        raise RuntimeError(MISSING)
    return node


@contextlib.contextmanager
def node_server(mode: str) -> Iterator[str]:
    """``server.mjs`` in ``mode`` (``disabled`` or ``absent``) on a free loopback port; its
    ``/mcp`` URL."""
    node = require_node()
    proc = subprocess.Popen(
        [node, str(SCRIPT), "0", mode],
        cwd=NODE_DIR,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()
        if not line.startswith("listening "):
            raise RuntimeError(f"tests/node/server.mjs did not start: {line!r}")
        yield f"http://127.0.0.1:{line.split()[1]}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


async def url_exchange(
    url: str, era: str, token: str | None, calls: Sequence[tuple[str, dict[str, Any]]]
) -> list[tuple[int, bytes]]:
    """``_drive.http_exchange`` against a live URL: each answer's status and body bytes (the
    legacy handshake without ``notifications/initialized``, as this probe has always sent it)."""
    import httpx2

    from tests.adapters._drive import exchange_on

    async with httpx2.AsyncClient(timeout=15) as client:
        return await exchange_on(client, url, era, token, calls, initialized_note=False)
