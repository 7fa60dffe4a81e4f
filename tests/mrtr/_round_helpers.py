"""Shared builders for the MRTR round tests: requests, server configuration and scripts."""

from __future__ import annotations

from typing import Any

from mcp_touchstone.harness._mrtr_round import mrtr_round

SECRET_HEX = b"secret-key".hex()
CAPS_ELICIT: dict[str, Any] = {"elicitation": {}}


def meta(caps: Any = None, **extra: Any) -> dict[str, Any]:
    """A 2026-07-28 request ``_meta`` declaring ``caps`` (elicitation by default)."""
    out: dict[str, Any] = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": CAPS_ELICIT if caps is None else caps,
    }
    out.update(extra)
    return out


def server(now: int = 1000, **extra: Any) -> dict[str, Any]:
    """A one-key server configuration at clock ``now``."""
    out: dict[str, Any] = {
        "keys": [{"kid": "0", "secret_hex": SECRET_HEX}],
        "active_kid": "0",
        "nonce_hex": "000102030405060708090a0b",
        "now": now,
    }
    out.update(extra)
    return out


FORM = {"message": "Your name?", "requestedSchema": {"type": "object", "properties": {}}}


def ask(key: str, method: str = "elicitation/create", **extra: Any) -> dict[str, Any]:
    """An ``ask`` step (form elicitation params by default)."""
    step: dict[str, Any] = {"op": "ask", "method": method, "key": key}
    if method == "elicitation/create":
        step["params"] = FORM
    elif method == "sampling/createMessage":
        step["params"] = {"messages": [], "maxTokens": 10}
    step.update(extra)
    return step


def ret(text: str = "done", **extra: Any) -> dict[str, Any]:
    """A ``return`` step with a tool result."""
    return {"op": "return", "result": {"content": [{"type": "text", "text": text}], **extra}}


def call(
    script: list[dict[str, Any]],
    *,
    id_: int | str = 1,
    method: str = "tools/call",
    params: dict[str, Any] | None = None,
    state: str | None = None,
    answers: dict[str, Any] | None = None,
    store: list[dict[str, Any]] | None = None,
    caps: Any = None,
    srv: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Run one ``mrtr.round`` and return its output."""
    p: dict[str, Any] = dict(params) if params is not None else {"name": "greet", "arguments": {}}
    p.setdefault("_meta", meta(caps))
    if state is not None:
        p["requestState"] = state
    if answers is not None:
        p["inputResponses"] = answers
    case: Any = {
        "request": {"jsonrpc": "2.0", "id": id_, "method": method, "params": p},
        "server": srv if srv is not None else server(),
        "store": store or [],
        "script": script,
    }
    out = mrtr_round(case)
    assert "error" not in out, out
    return out


def token_of(out: dict[str, Any]) -> str:
    """The ``requestState`` an ``input_required`` output minted."""
    token = out["response"]["result"]["requestState"]
    assert isinstance(token, str)
    return token
