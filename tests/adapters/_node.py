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
    """``_drive.http_exchange`` against a live URL: each answer's status and body bytes."""
    import httpx2

    from tests.adapters._drive import _ENVELOPE_META, _NAME_KEYS, ERAS, _headers

    out: list[tuple[int, bytes]] = []
    async with httpx2.AsyncClient(timeout=15) as client:
        headers = _headers(token, era)
        if era == "legacy":
            init = {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": ERAS[era],
                    "capabilities": {},
                    "clientInfo": {"name": "touchstone-probe", "version": "1"},
                },
            }
            answer = await client.post(url, json=init, headers=headers)
            session = answer.headers.get("mcp-session-id")
            if session is not None:
                headers["Mcp-Session-Id"] = session
        for index, (method, params) in enumerate(calls, start=1):
            body_params = dict(params)
            request_headers = dict(headers)
            if era == "modern":
                body_params["_meta"] = {
                    "io.modelcontextprotocol/protocolVersion": ERAS[era],
                    **_ENVELOPE_META,
                }
                request_headers["Mcp-Method"] = method
                if method in _NAME_KEYS:
                    request_headers["Mcp-Name"] = str(params[_NAME_KEYS[method]])
            body = {"jsonrpc": "2.0", "id": index, "method": method, "params": body_params}
            answer = await client.post(url, json=body, headers=request_headers)
            out.append((answer.status_code, answer.content))
    return out
