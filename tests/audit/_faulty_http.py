"""A loopback HTTP server for the audit's fault tests, each path a way to fail
(``spec/audit.md``, AUDIT-DISC-1, AUDIT-WIRE-4, AUDIT-REPORT-2).

``/404``, ``/500``, ``/401``: that status for every request; ``/html``: a 200 HTML page;
``/text``: a 200 body that is not JSON; ``/wrong-id``: JSON-RPC results for another id;
``/307``: a redirect to ``/plain``; ``/plain``: a correct server with one plain tool and
nothing to probe; ``/drip``: a body that arrives a byte every 0.3 s; ``/slow``: a correct
answer after 0.8 s; ``/huge``: a 9 MiB body.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_LISTS: dict[str, dict[str, Any]] = {
    "tools/list": {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]},
    "prompts/list": {"prompts": []},
    "resources/list": {"resources": []},
    "resources/templates/list": {"resourceTemplates": []},
}


def answer(method: str, request_id: Any) -> dict[str, Any]:
    """A correct server's JSON-RPC answer to ``method``."""
    if method == "initialize":
        result: dict[str, Any] = {
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "plain", "version": "1"},
        }
    elif method in _LISTS:
        result = _LISTS[method]
    elif method == "tools/call":
        result = {"content": [{"type": "text", "text": "ok"}]}
    else:
        result = {}
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        del args

    def _send(self, status: int, body: bytes, kind: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        request = json.loads(self.rfile.read(length) or b"{}")
        method, request_id = request.get("method", ""), request.get("id")
        mode = self.path.strip("/")
        if request_id is None:  # A notification.
            self._send(202, b"")
        elif mode in ("404", "500", "401"):
            self._send(int(mode), b'{"error":"no"}')
        elif mode == "html":
            self._send(200, b"<html><body>Welcome</body></html>", "text/html")
        elif mode == "text":
            self._send(200, b"this is not json", "text/plain")
        elif mode == "wrong-id":
            self._send(200, json.dumps(answer(method, 424242)).encode())
        elif mode == "307":
            self.send_response(307)
            self.send_header("Location", "/plain")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif mode == "drip":
            body = json.dumps(answer(method, request_id)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            with contextlib.suppress(OSError):
                for byte in body:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(0.3)
        elif mode == "huge":
            self._send(200, b" " * (9 << 20) + json.dumps(answer(method, request_id)).encode())
        else:
            if mode == "slow":
                time.sleep(0.8)
            self._send(200, json.dumps(answer(method, request_id)).encode())


@contextlib.contextmanager
def faulty_server() -> Iterator[str]:
    """The server on a free loopback port; its base URL (``http://127.0.0.1:PORT``)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
