"""Deliberately weak MCP servers for the audit tests: a small streamable HTTP ASGI app (JSON
responses, both protocol eras) whose only weakness is chosen by name.

Every server lists ``add``, two MRTR tools ``purge`` and ``archive`` (each asks to confirm, then
runs and counts), an MRTR prompt ``approve`` and a prompt ``hello``, a resource and a template;
``admin_wipe`` is listed only for ``root``.  A retry's state is decoded by the weakness's codec
and the payload's bindings (method ``m``, target ``t``, arguments ``a``, principal ``p``,
expiry ``exp``) are checked when present.  Weaknesses:

* ``b64json``: the state is base64 of JSON, with a server-side note in it (no integrity);
* ``unbound``: HMAC-signed, but the payload binds nothing (no method, target, args, principal);
* ``noexpiry``: HMAC-signed and bound, but never expiring;
* ``suffix``: the state is decorative and the real state is kept server-side; the tamper check
  refuses only a state ending in ``-TAMPERED`` (the official suite's test);
* ``forbidden``: sealed and bound, but a hidden tool is answered "Forbidden", not unknown;
* ``stateless``: sealed, but a retry completes on its answers alone, whatever state it carries
  (nothing rests on the state, so the audit must not call its acceptance a finding);
* ``resettle``: sealed and bound, two rounds (``confirm`` then ``reason``), the first answer
  sealed into the second state -- but the final retry's answers are merged over the sealed ones,
  so re-answering a settled key changes the result (and the result never carries a counter).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import time
from typing import Any

from mcp_touchstone.audit._state import TAMPER_SUFFIX

WEAKNESSES = ("b64json", "unbound", "noexpiry", "suffix", "forbidden", "stateless", "resettle")
TOKENS = {"alice": "user", "root": "admin"}
_FORM = {
    "method": "elicitation/create",
    "params": {
        "mode": "form",
        "message": "Confirm?",
        "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
    },
}


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _tool(name: str, props: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name,
        "inputSchema": {"type": "object", "properties": props, "required": sorted(props)},
    }


class WeakServer:
    """The ASGI app of one weakness."""

    def __init__(self, weakness: str, *, key: bytes = b"k" * 32, name: str = "weak") -> None:
        assert weakness in WEAKNESSES
        self.weakness = weakness
        self.key = key
        self.name = name
        self.runs = 0
        self._kept: dict[str, dict[str, Any]] = {}

    # --- the state codec of the weakness -------------------------------------------------
    def _sign(self, payload: dict[str, Any]) -> str:
        body = json.dumps(payload, separators=(",", ":")).encode()
        mac = hmac.new(self.key, body, hashlib.sha256).digest()
        return f"{_b64(body)}.{_b64(mac)}"

    def _verify(self, token: str) -> dict[str, Any] | None:
        body_text, _, mac_text = token.partition(".")
        try:
            body, mac = _unb64(body_text), _unb64(mac_text)
        except ValueError:
            return None
        if not hmac.compare_digest(mac, hmac.new(self.key, body, hashlib.sha256).digest()):
            return None
        return _json_object(body)

    def mint(self, binding: dict[str, Any], settled: dict[str, Any] | None = None) -> str:
        """A state for ``binding`` (method, target, args, principal, audience)."""
        exp = int(time.time()) + 600
        if settled is not None:
            binding = {**binding, "answers": settled}
        if self.weakness == "b64json":
            payload = {**binding, "exp": exp, "note": "ledger balance 4200 (internal)"}
            return _b64(json.dumps(payload).encode())
        if self.weakness == "unbound":
            return self._sign({"n": self.runs + 1, "exp": exp})
        if self.weakness == "noexpiry":
            return self._sign(binding)
        if self.weakness == "suffix":
            self._kept[_binding_key(binding)] = {**binding, "exp": exp}
            return "v1." + _b64(hashlib.sha256(os.urandom(16)).digest() * 2)
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        nonce = os.urandom(12)
        sealed = AESGCM(self.key).encrypt(
            nonce, json.dumps({**binding, "exp": exp}).encode(), b"v1"
        )
        return "v1." + _b64(nonce + sealed)

    def open(self, token: str, binding: dict[str, Any]) -> dict[str, Any] | None:
        """The payload of ``token``, ``None`` when this server refuses it."""
        if not token:
            return None
        if self.weakness == "b64json":
            try:
                return _json_object(_unb64(token))
            except ValueError:
                return None
        if self.weakness in ("unbound", "noexpiry"):
            return self._verify(token)
        if self.weakness == "suffix":
            if token.endswith(TAMPER_SUFFIX):
                return None
            return self._kept.get(_binding_key(binding))
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        if not token.startswith("v1."):
            return None
        try:
            raw = _unb64(token[3:])
            return _json_object(AESGCM(self.key).decrypt(raw[:12], raw[12:], b"v1"))
        except (ValueError, InvalidTag):
            return None

    # --- MCP ------------------------------------------------------------------------------
    def _lists(self, principal: str) -> dict[str, Any]:
        tools = [
            _tool("add", {"a": {"type": "integer"}, "b": {"type": "integer"}}),
            _tool("purge", {"bucket": {"type": "string"}}),
            _tool("archive", {"bucket": {"type": "string"}}),
        ]
        if principal == "root":
            tools.append(_tool("admin_wipe", {"target": {"type": "string"}}))
        return {
            "tools/list": {"tools": tools},
            "prompts/list": {"prompts": [{"name": "approve"}, {"name": "hello"}]},
            "resources/list": {"resources": [{"uri": "res://public", "name": "public"}]},
            "resources/templates/list": {
                "resourceTemplates": [{"uriTemplate": "notes://{id}", "name": "notes"}]
            },
        }

    def _mrtr(self, method: str, target: str, params: dict[str, Any], principal: str) -> Any:
        args = params.get("arguments") or {}
        binding = {"m": method, "t": target, "a": args, "p": principal, "aud": self.name}
        if not params.get("inputResponses"):
            return {
                "resultType": "input_required",
                "inputRequests": {"confirm": _FORM},
                "requestState": self.mint(binding),
            }
        if self.weakness == "stateless":
            self.runs += 1
            return {"content": [{"type": "text", "text": f"{target} done"}]}
        payload = self.open(str(params.get("requestState") or ""), binding)
        if payload is None:
            return _Error(-32602, "Invalid requestState")
        for key, want in binding.items():
            if key in payload and payload[key] != want:
                return _Error(-32602, "Invalid requestState")
        if "exp" in payload and payload["exp"] < time.time():
            return _Error(-32602, "Invalid requestState")
        if self.weakness == "resettle":
            return self._resettle(method, target, params, binding, payload)
        self.runs += 1
        text = f"{target} {json.dumps(args, sort_keys=True)} run #{self.runs}"
        if method == "prompts/get":
            return {"messages": [{"role": "user", "content": {"type": "text", "text": text}}]}
        return {"content": [{"type": "text", "text": text}], "isError": False}

    def _resettle(
        self,
        method: str,
        target: str,
        params: dict[str, Any],
        binding: dict[str, Any],
        payload: dict[str, Any],
    ) -> Any:
        answers = params.get("inputResponses") or {}
        settled = payload.get("answers")
        if not isinstance(settled, dict):
            return {
                "resultType": "input_required",
                "inputRequests": {"reason": _FORM},
                "requestState": self.mint(binding, {"confirm": answers.get("confirm")}),
            }
        merged = {**settled, **answers}
        confirm = merged.get("confirm") or {}
        text = f"{target} confirm={confirm.get('action')}"
        if method == "prompts/get":
            return {"messages": [{"role": "user", "content": {"type": "text", "text": text}}]}
        return {"content": [{"type": "text", "text": text}], "isError": False}

    def handle(self, method: str, params: dict[str, Any], principal: str) -> Any:
        """The result (or :class:`_Error`) of one request."""
        lists = self._lists(principal)
        if method in lists:
            return lists[method]
        if method == "server/discover":
            return {
                "supportedVersions": ["2026-07-28"],
                "capabilities": {"tools": {}, "prompts": {}, "resources": {}},
                "serverInfo": {"name": self.name, "version": "1"},
            }
        if method == "tools/call":
            name = str(params.get("name"))
            if name == "add":
                args = params.get("arguments") or {}
                return {
                    "content": [{"type": "text", "text": str(args.get("a", 0) + args.get("b", 0))}]
                }
            if name in ("purge", "archive"):
                return self._mrtr(method, name, params, principal)
            if name == "admin_wipe" and principal == "root":
                return {"content": [{"type": "text", "text": "wiped"}]}
            if name == "admin_wipe" and self.weakness == "forbidden":
                return {
                    "content": [{"type": "text", "text": "Forbidden: admin only"}],
                    "isError": True,
                }
            return {"content": [{"type": "text", "text": f"Unknown tool: {name}"}], "isError": True}
        if method == "prompts/get":
            name = str(params.get("name"))
            if name == "approve":
                return self._mrtr(method, name, params, principal)
            if name == "hello":
                return {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}]}
            return _Error(-32602, f"Unknown prompt: {name}")
        if method == "resources/read":
            uri = str(params.get("uri"))
            if uri == "res://public" or uri.startswith("notes://"):
                return {"contents": [{"uri": uri, "text": "note"}]}
            return _Error(-32602, f"Unknown resource: {uri}", {"uri": uri})
        return _Error(-32601, "Method not found")

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                else:
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        auth = headers.get("authorization", "")
        principal = auth.removeprefix("Bearer ")
        if principal not in TOKENS:
            await _reply(send, 401, {"error": "invalid_token"})
            return
        request = json.loads(body)
        if "id" not in request:
            await _reply(send, 202, None)
            return
        modern = headers.get("mcp-protocol-version") == "2026-07-28"
        method, params = request["method"], request.get("params") or {}
        extra: list[tuple[bytes, bytes]] = []
        if method == "initialize":
            result: Any = {
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}, "prompts": {}, "resources": {}},
                "serverInfo": {"name": self.name, "version": "1"},
            }
            extra.append((b"mcp-session-id", b"weak-session"))
        else:
            result = self.handle(method, params, principal)
        if isinstance(result, _Error):
            error = {"code": result.code, "message": result.message}
            if result.data is not None:
                error["data"] = result.data
            status = 400 if modern and result.code == -32602 else 200
            await _reply(
                send, status, {"jsonrpc": "2.0", "id": request["id"], "error": error}, extra
            )
            return
        if modern:
            result.setdefault("resultType", "complete")
        await _reply(send, 200, {"jsonrpc": "2.0", "id": request["id"], "result": result}, extra)


class _Error:
    def __init__(self, code: int, message: str, data: Any = None) -> None:
        self.code, self.message, self.data = code, message, data


def _json_object(raw: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _binding_key(binding: dict[str, Any]) -> str:
    return json.dumps(binding, sort_keys=True)


async def _reply(
    send: Any, status: int, body: Any, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    raw = b"" if body is None else json.dumps(body, separators=(",", ":"), sort_keys=True).encode()
    headers = [(b"content-type", b"application/json"), *(extra or [])]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": raw})
