"""The audit's wire: JSON-RPC over streamable HTTP (httpx2) or a stdio child process, either
protocol era, every request counted against the budget (``spec/audit.md``, AUDIT-BUDGET-*,
AUDIT-WIRE-*).

httpx2 and anyio come from the ``[mcp]`` extra and are imported here only, so ``touchstone
--help`` and the pure modules never load them.  Requests go only to the endpoints the user
named (AUDIT-WIRE-1): redirects are not followed, and the environment's proxies and ``.netrc``
are not read, so a bearer token never travels through a proxy.  Each answer has a deadline for
the whole answer, not per read, and a size cap (AUDIT-WIRE-4); a ``--command`` server runs in a
process group of its own, ended with escalation (AUDIT-WIRE-2).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone.audit._report import Exchange, redact

__all__ = ["ERAS", "Answer", "AuditError", "Budget", "BudgetSpent", "Connection", "Endpoint"]

ERAS = ("2025-11-25", "2026-07-28")
MODERN = "2026-07-28"
CLIENT_INFO = {"name": "touchstone-audit", "version": "1"}
CAPABILITIES: dict[str, Any] = {"elicitation": {"form": {}}, "sampling": {}, "roots": {}}
_NAME_KEYS = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
TIMEOUT = 15.0
"""Seconds an answer may take, from the request to its last byte (``--timeout``)."""
MAX_ANSWER = 8 << 20
"""The largest answer read (8 MiB); a larger one means the audit cannot be made."""
GRACE = 2.0
"""Seconds a ``--command`` server gets after its input closes, and again after SIGTERM."""


class AuditError(TouchstoneError):
    """The audit could not be made (exit status 2); the message names why."""


class BudgetSpent(TouchstoneError):  # noqa: N818 - a condition, not an error: the audit goes on
    """The request budget is spent; the probe that hit it is reported as not observable."""


class Budget:
    """At most ``limit`` requests, counted as they are sent (AUDIT-BUDGET-1)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0

    def take(self) -> None:
        """Count one request; :class:`BudgetSpent` when none is left."""
        if self.used >= self.limit:
            raise BudgetSpent(f"the request budget ({self.limit}) is spent")
        self.used += 1


@dataclass(frozen=True)
class Answer:
    """A response: the HTTP status (``None`` on stdio), the raw body, the JSON-RPC message."""

    status: int | None
    body: str
    message: Any

    @property
    def result(self) -> dict[str, Any] | None:
        """The JSON-RPC result object, ``None`` for an error or an unreadable answer."""
        result = self.message.get("result") if isinstance(self.message, dict) else None
        return cast("dict[str, Any]", result) if isinstance(result, dict) else None

    @property
    def kind(self) -> str:
        """``complete``, ``input_required`` or ``error`` (an HTTP error, a JSON-RPC error, a
        result with ``isError``, or nothing readable)."""
        if self.status is not None and self.status >= 400:
            return "error"
        result = self.result
        if result is None or result.get("isError") is True:
            return "error"
        if result.get("resultType") == "input_required" or "inputRequests" in result:
            return "input_required"
        return "complete"

    def comparable(self) -> Any:
        """The result with the JSON-RPC id left out, for comparing two answers."""
        if isinstance(self.message, dict):
            return {k: v for k, v in self.message.items() if k != "id"}
        return self.body


class Endpoint:
    """Where requests go: an HTTP URL, or a stdio command (one child process per era)."""

    def __init__(
        self,
        url: str | None = None,
        command: Sequence[str] | None = None,
        transport: Any = None,
        timeout: float = TIMEOUT,
    ) -> None:
        self.url = url
        self.command = list(command) if command else None
        self.timeout = timeout
        self._transport = transport
        self._http: Any = None
        self._procs: dict[str, Any] = {}
        self._buffers: dict[str, bytes] = {}

    @property
    def target(self) -> str:
        """The URL or the command line, for the evidence."""
        return self.url if self.url is not None else " ".join(self.command or [])

    async def close(self) -> None:
        """Close the HTTP client and end the child processes this endpoint started: input
        closed, then SIGTERM to the process group, then SIGKILL, each after :data:`GRACE`
        seconds; whatever a server started, ``setsid()`` or not, goes with it (AUDIT-WIRE-2)."""
        import anyio

        from mcp_touchstone.conformance._process import descendants, kill_family

        with anyio.CancelScope(shield=True):
            if self._http is not None:
                await self._http.aclose()
                self._http = None
            for proc in self._procs.values():
                family = descendants(proc.pid)
                with contextlib.suppress(Exception):
                    await proc.stdin.aclose()
                for signum in (None, signal.SIGTERM, signal.SIGKILL):
                    if signum is not None:
                        with contextlib.suppress(OSError):
                            os.killpg(proc.pid, signum)
                    with anyio.move_on_after(GRACE):
                        await proc.wait()
                    if proc.returncode is not None:
                        break
                kill_family(family)
                with anyio.move_on_after(GRACE):
                    await proc.wait()
            self._procs.clear()

    async def post(
        self, headers: Mapping[str, str], body: bytes
    ) -> tuple[int, Mapping[str, str], bytes]:
        """POST ``body`` to the URL; the status, headers and body bytes, all within
        :attr:`timeout` seconds and :data:`MAX_ANSWER` bytes (AUDIT-WIRE-4)."""
        import anyio
        import httpx2

        if self._http is None:
            self._http = httpx2.AsyncClient(
                transport=self._transport,
                timeout=self.timeout,
                follow_redirects=False,
                trust_env=False,  # No proxy, no .netrc from the environment (AUDIT-WIRE-1).
            )
        try:
            with anyio.fail_after(self.timeout):
                async with self._http.stream(
                    "POST", self.url, content=body, headers=dict(headers)
                ) as answer:
                    raw = bytearray()
                    async for chunk in answer.aiter_bytes():
                        raw += chunk
                        if len(raw) > MAX_ANSWER:
                            raise AuditError(
                                f"{self.url} answered more than {MAX_ANSWER >> 20} MiB"
                            )
                    return answer.status_code, dict(answer.headers), bytes(raw)
        except TimeoutError:
            raise AuditError(
                f"{self.url} did not answer within {self.timeout:g} s (--timeout)"
            ) from None
        except httpx2.HTTPError as exc:
            raise AuditError(f"cannot reach {self.url}: {exc}") from None

    async def stdio(self, era: str, line: bytes, request_id: int | None) -> bytes:
        """Write one JSON-RPC line to the era's child process; the matching answer line (or
        ``b""`` for a notification)."""
        import anyio

        proc = self._procs.get(era)
        if proc is None:
            assert self.command is not None
            try:
                proc = await anyio.open_process(self.command, stderr=-3, start_new_session=True)
            except OSError as exc:
                raise AuditError(f"cannot start {self.target}: {exc.strerror}") from None
            self._procs[era] = proc
            self._buffers[era] = b""
        assert proc.stdin is not None
        assert proc.stdout is not None
        try:
            await proc.stdin.send(line + b"\n")
        except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
            raise AuditError(f"{self.target} closed its standard input") from None
        if request_id is None:
            return b""
        with anyio.move_on_after(self.timeout):
            while True:
                while b"\n" in self._buffers[era]:
                    raw, self._buffers[era] = self._buffers[era].split(b"\n", 1)
                    try:
                        message = json.loads(raw)
                    except (ValueError, RecursionError):
                        continue
                    if (
                        isinstance(message, dict)
                        and message.get("id") == request_id
                        and ("result" in message or "error" in message)
                    ):
                        return bytes(raw)
                if len(self._buffers[era]) > MAX_ANSWER:
                    raise AuditError(f"{self.target} wrote a line of more than 8 MiB")
                try:
                    chunk = await proc.stdout.receive()
                except (anyio.EndOfStream, anyio.ClosedResourceError):
                    raise AuditError(f"{self.target} closed its standard output") from None
                self._buffers[era] += chunk
        raise AuditError(f"{self.target} did not answer request {request_id} in {self.timeout:g} s")


def _json(raw: bytes) -> Any:
    """The JSON value of an answer body, ``None`` when it is empty or not JSON."""
    try:
        return json.loads(raw) if raw else None
    except (ValueError, RecursionError):
        return None


def _answering(message: Any, request_id: int | None) -> Any:
    """``message`` when it is the answer to ``request_id``; ``None`` (nothing readable) when it
    answers another id: an answer to another request is no answer to this one."""
    if request_id is not None and isinstance(message, dict) and message.get("id") != request_id:
        return None
    return message


def _from_sse(body: bytes, request_id: int | None) -> Any:
    for line in body.decode("utf-8", "replace").splitlines():
        if line.startswith("data:"):
            message = _json(line[5:].strip().encode())
            if isinstance(message, dict) and message.get("id") == request_id:
                return message
    return None


class Connection:
    """One caller (a bearer token or none) talking one era to one endpoint."""

    def __init__(
        self,
        endpoint: Endpoint,
        era: str,
        token: str | None,
        budget: Budget,
        secrets: Sequence[str],
    ) -> None:
        self.endpoint = endpoint
        self.era = era
        self.token = token
        self.budget = budget
        self.secrets = tuple(secrets)
        self._session: str | None = None
        self._ready = False
        self._next_id = 0

    def _headers(self, method: str, params: Mapping[str, Any]) -> dict[str, str]:
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": self.era,
        }
        if self.token is not None:
            headers["Authorization"] = f"Bearer {self.token}"
        if self._session is not None:
            headers["Mcp-Session-Id"] = self._session
        if self.era == MODERN:
            headers["Mcp-Method"] = method
            if method in _NAME_KEYS and isinstance(params.get(_NAME_KEYS[method]), str):
                headers["Mcp-Name"] = params[_NAME_KEYS[method]]
        return headers

    async def _start(self) -> None:
        if self._ready or self.era == MODERN:
            self._ready = True
            return
        self._ready = True
        init = {
            "protocolVersion": self.era,
            "capabilities": CAPABILITIES,
            "clientInfo": CLIENT_INFO,
        }
        answer, _ = await self.send("initialize", init, "initialize")
        if answer.result is None:
            raise AuditError(f"{self.endpoint.target}: initialize failed: {answer.body[:200]}")
        await self._send_raw("notifications/initialized", {}, None, {})

    async def send(
        self,
        method: str,
        params: Mapping[str, Any],
        label: str,
        *,
        request_id: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> tuple[Answer, Exchange]:
        """Send one request (after the handshake on the legacy era); the answer and its
        redacted evidence.  ``request_id`` pins the JSON-RPC id (two requests compared byte for
        byte carry the same id)."""
        if method != "initialize":
            await self._start()
        if request_id is None:
            self._next_id += 1
            request_id = self._next_id
        body_params = dict(params)
        if self.era == MODERN:
            body_params["_meta"] = {
                "io.modelcontextprotocol/protocolVersion": self.era,
                "io.modelcontextprotocol/clientCapabilities": CAPABILITIES,
                "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
            }
        return await self._send_raw(method, body_params, request_id, extra_headers or {}, label)

    async def _send_raw(
        self,
        method: str,
        params: Mapping[str, Any],
        request_id: int | None,
        extra_headers: Mapping[str, str],
        label: str = "",
    ) -> tuple[Answer, Exchange]:
        self.budget.take()
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": dict(params)}
        if request_id is not None:
            message["id"] = request_id
        body = json.dumps(message, separators=(",", ":")).encode()
        headers = {**self._headers(method, params), **extra_headers}
        status: int | None
        if self.endpoint.url is not None:
            status, answer_headers, raw = await self.endpoint.post(headers, body)
            session = {k.lower(): v for k, v in answer_headers.items()}.get("mcp-session-id")
            if method == "initialize" and session is not None:
                self._session = session
            content_type = {k.lower(): v for k, v in answer_headers.items()}.get("content-type", "")
            if "text/event-stream" in content_type:
                parsed = _from_sse(raw, request_id)
            else:
                parsed = _answering(_json(raw), request_id)
        else:
            status = None
            headers = {}
            raw = await self.endpoint.stdio(self.era, body, request_id)
            parsed = _json(raw)
        text = raw.decode("utf-8", "replace")
        shown = {
            k: ("Bearer <redacted>" if k.lower() == "authorization" else v)
            for k, v in headers.items()
        }
        exchange = Exchange(
            label=label or method,
            target=self.endpoint.target,
            request_headers=shown,
            request_body=redact(body.decode(), self.secrets),
            status=status,
            response_body=redact(text, self.secrets),
        )
        return Answer(status, text, parsed), exchange
