"""Fakes for the client-loop tests: a server that behaves like a neva MRTR handler, a
recording fulfiller and neva's id counter (MRTR-CLIENT-*)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from mcp_touchstone.mrtr import InputRequest, RpcError
from mcp_touchstone.serde_json import JSON

FORM: dict[str, JSON] = {
    "method": "elicitation/create",
    "params": {
        "message": "Your name?",
        "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}},
    },
}
SAMPLE: dict[str, JSON] = {
    "method": "sampling/createMessage",
    "params": {
        "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
        "maxTokens": 5,
    },
}
ROOTS: dict[str, JSON] = {"method": "roots/list"}
OCTOCAT: dict[str, JSON] = {"action": "accept", "content": {"name": "octocat"}}
INFO: dict[str, JSON] = {"name": "neva", "version": "0.5.4"}


def counter(start: int = 2) -> Callable[[], JSON]:
    """neva's request-id counter from ``start``."""
    state = [start]

    def next_id() -> JSON:
        state[0] += 1
        return state[0] - 1

    return next_id


def text_result(text: str, *, is_error: bool = False) -> dict[str, JSON]:
    """A final ``tools/call`` result as neva's server writes it."""
    return {
        "content": [{"type": "text", "text": text}],
        "isError": is_error,
        "resultType": "complete",
    }


@dataclass
class AskingServer:
    """A neva-like tool: asks ``asks`` (key -> envelope) one round each, in order, using a
    fresh state per round, and finishes with ``final(answers)`` once every key is answered.

    It re-checks what neva's server would: the retry must carry the previous state and
    answers on the params. Every request it sees is recorded."""

    asks: list[tuple[str, dict[str, JSON]]]
    final: Callable[[dict[str, JSON]], dict[str, JSON]]
    seen: list[dict[str, JSON]] = field(default_factory=list)
    collected: dict[str, JSON] = field(default_factory=dict)

    def __call__(self, request: dict[str, JSON]) -> dict[str, JSON]:
        self.seen.append(request)
        params = request.get("params")
        assert isinstance(params, dict)
        answers = params.get("inputResponses", {})
        assert isinstance(answers, dict)
        self.collected.update(answers)
        round_no = len(self.seen) - 1
        if round_no < len(self.asks):
            key, envelope = self.asks[round_no]
            result: dict[str, JSON] = {
                "resultType": "input_required",
                "inputRequests": {key: envelope},
                "requestState": f"state-{round_no}",
            }
            return {"jsonrpc": "2.0", "id": request["id"], "result": result}
        return {"jsonrpc": "2.0", "id": request["id"], "result": self.final(self.collected)}


@dataclass
class Handlers:
    """Recording handlers: the elicitation and sampling answers, by kind."""

    elicit: JSON = field(default_factory=lambda: dict(OCTOCAT))
    sample: JSON = None
    calls: list[str] = field(default_factory=list)
    fail_on: str | None = None

    def __call__(self, key: str, request: InputRequest) -> JSON:
        self.calls.append(key)
        if key == self.fail_on:
            raise RpcError(-32603, f"{key} failed")
        return self.elicit if request.method == "elicitation/create" else self.sample
