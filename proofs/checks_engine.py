"""Z3 obligations about the final-response store model, and the tie to the real round engine."""

from __future__ import annotations

import itertools

import z3

from mcp_touchstone.mrtr import Context, InMemoryRequestStateStore, Keyring, ServerConfig, dispatch
from mcp_touchstone.serde_json import JSON
from proofs import _vectors
from proofs._ops import PY, Z3, prove
from proofs.checks_scope import _fail
from proofs.models import store

MAX_ROUNDS = 6
"""The Z3 bound: every pattern of up to 6 identical retries."""
META: dict[str, JSON] = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
}
FORM: dict[str, JSON] = {
    "message": "Your name?",
    "requestedSchema": {"type": "object", "properties": {}},
}
ANSWER: dict[str, JSON] = {"action": "accept", "content": {"name": "Ada"}}


def prop_final_replayed() -> None:
    """PROOF-MRTR-REPLAY."""
    for n in range(1, MAX_ROUNDS + 1):
        finals = [z3.Bool(f"f{i}") for i in range(n)]
        ran = store.rounds(finals, Z3)
        for i in range(n):
            for j in range(i + 1, n):
                prove(
                    f"a final committed in round {i} is replayed in round {j} (n={n})",
                    z3.Not(ran[j]),
                    ran[i],
                    finals[i],
                )
            prove(
                f"round {i} runs until a final committed (n={n})",
                ran[i] == z3.Not(z3.Or(*[z3.And(ran[j], finals[j]) for j in range(i)])),
            )
    failures = []
    for n in range(1, 5):
        for pattern in itertools.product((False, True), repeat=n):
            failures += _scenario(pattern)
    failures += _vectors.replay(("mrtr-round-hit-*", "mrtr-round-miss-puts"))
    _fail(failures)


def _scenario(pattern: tuple[bool, ...]) -> list[str]:
    """Mint a state, then retry it ``len(pattern)`` times with the same answer; the handler
    commits a final on its k-th run iff ``pattern[k]``.  Compare with the model."""
    config = ServerConfig(Keyring.single(b"proof-engine"))
    box = InMemoryRequestStateStore()
    runs: list[int] = []

    def handler(ctx: Context, params: JSON) -> JSON:
        del params
        name = ctx.elicit("name", FORM)
        run = len(runs)
        runs.append(run)
        final = pattern[run] if run < len(pattern) else True
        return {"content": [{"type": "text", "text": f"hi {name}"}], "isError": not final}

    def request(rid: int, extra: dict[str, JSON]) -> dict[str, JSON]:
        return {
            "id": rid,
            "method": "tools/call",
            "params": {"name": "greet", "arguments": {}, "_meta": META, **extra},
        }

    first = dispatch(request(0, {}), handler, config, now=1000, nonce=lambda: bytes(12), store=box)
    result = first.response.get("result")
    assert isinstance(result, dict)
    token = result["requestState"]
    runs.clear()
    failures: list[str] = []
    want = store.rounds(list(pattern), PY)
    finals: list[dict[str, JSON]] = []
    for i in range(len(pattern)):
        before = len(runs)
        got = dispatch(
            request(i + 1, {"requestState": token, "inputResponses": {"name": ANSWER}}),
            handler,
            config,
            now=1001,
            nonce=lambda: bytes(12),
            store=box,
        )
        ran = len(runs) > before
        if ran != want[i] or got.replayed == ran:
            failures.append(f"pattern {pattern}: round {i} ran={ran} replayed={got.replayed}")
        if got.final:
            finals.append(got.response)
        if got.replayed and finals and got.response != {**finals[0], "id": i + 1}:
            failures.append(f"pattern {pattern}: round {i} replayed something else")
    return failures
