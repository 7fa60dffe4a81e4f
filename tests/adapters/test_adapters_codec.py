"""NevaRequestStateCodec: neva's token format inside the SDK's boundary (ADAPT-CODEC-*)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.request_state import InvalidRequestState, RequestStateSecurity

from mcp_touchstone.adapters.state import NevaRequestStateCodec
from mcp_touchstone.mrtr import Keyring, StatePayload

ROOT = Path(__file__).resolve().parents[2]


def _neva_kat() -> tuple[dict[str, Any], str]:
    """neva's own known answer (conformance/vectors/mrtr/seal.json, mrtr-seal-kat-v1)."""
    doc = json.loads((ROOT / "conformance" / "vectors" / "mrtr" / "seal.json").read_text())
    case = next(t for t in doc["tests"] if t["id"] == "mrtr-seal-kat-v1")
    return case["input"], case["expected"]["token"]


def _ring(kat_input: dict[str, Any]) -> Keyring:
    keys = {k["kid"]: bytes.fromhex(k["secret_hex"]) for k in kat_input["keys"]}
    return Keyring(kat_input["active_kid"], keys)


def test_a_neva_token_opens_to_nevas_plaintext() -> None:
    """ADAPT-CODEC-2: neva's known-answer token unseals to neva's payload JSON, exactly."""
    kat_input, token = _neva_kat()
    plaintext = NevaRequestStateCodec(_ring(kat_input)).unseal(token)
    payload = StatePayload.decode(plaintext)
    assert payload.req == kat_input["payload"]["req"]
    assert payload.principal == "alice"
    assert list(payload.requested) == ["ask_name"]
    assert payload.exp == 1_800_000_000


def test_sealing_nevas_plaintext_gives_nevas_token() -> None:
    """ADAPT-CODEC-1: with neva's nonce the codec seals neva's plaintext to neva's token, byte
    for byte: the format, key schedule and associated data are neva's."""
    kat_input, token = _neva_kat()
    ring = _ring(kat_input)
    plaintext = NevaRequestStateCodec(ring).unseal(token)
    nonce = bytes.fromhex(kat_input["nonce_hex"])
    assert NevaRequestStateCodec(ring, nonce=lambda: nonce).seal(plaintext) == token


@pytest.mark.parametrize(
    "mutate",
    [
        lambda t: t[:-1] + ("A" if t[-1] != "A" else "B"),
        lambda t: "v3" + t[2:],
        lambda t: t.replace("v1.0.", "v1.9.", 1),
        lambda t: t + ".x",
        lambda t: t[: len(t) // 2],
    ],
    ids=["tag", "version", "kid", "segments", "truncated"],
)
def test_any_tamper_is_invalid_request_state(mutate: Any) -> None:
    """ADAPT-CODEC-2: a modified token raises the SDK's InvalidRequestState (never a crash)."""
    kat_input, token = _neva_kat()
    with pytest.raises(InvalidRequestState):
        NevaRequestStateCodec(_ring(kat_input)).unseal(mutate(token))


def test_rotation_opens_old_kids() -> None:
    """ADAPT-CODEC-1: the ring seals under its active kid and opens under every kid it holds."""
    old = NevaRequestStateCodec(Keyring("a", {"a": b"one"}))
    both = NevaRequestStateCodec(Keyring("b", {"a": b"one", "b": b"two"}))
    token = old.seal(b"hello")
    assert both.unseal(token) == b"hello"
    assert both.seal(b"x").split(".")[1] == "b"
    with pytest.raises(InvalidRequestState):
        old.unseal(both.seal(b"x"))


def test_the_sdk_boundary_runs_mrtr_rounds_on_the_neva_codec() -> None:
    """ADAPT-CODEC-3: an MCPServer whose boundary uses the codec completes an MRTR round; its
    state is a neva-format token, and a tampered one is refused with the frozen -32602."""
    from mcp import Client
    from mcp.shared.exceptions import MCPError

    codec = NevaRequestStateCodec(Keyring.single(b"shared-secret"))
    server = MCPServer("codec-demo", request_state_security=RequestStateSecurity(codec=codec))
    form = types.ElicitRequest(
        params=types.ElicitRequestFormParams(
            message="ok?", requested_schema={"type": "object", "properties": {}}
        )
    )

    @server.tool()
    def confirm(ctx: Context) -> Any:
        if not ctx.input_responses:
            return types.InputRequiredResult(input_requests={"q": form}, request_state="step1")
        return f"confirmed after {ctx.request_state}"

    answers: Any = {"q": {"action": "accept", "content": {}}}

    async def flow() -> tuple[str, str, int]:
        async with Client(server, mode="2026-07-28") as client:
            first = await client.session.call_tool("confirm", {}, allow_input_required=True)
            assert isinstance(first, types.InputRequiredResult)
            state = first.request_state
            assert state is not None
            final = await client.session.call_tool(
                "confirm",
                {},
                allow_input_required=True,
                input_responses=answers,
                request_state=state,
            )
            with pytest.raises(MCPError) as refused:
                await client.session.call_tool(
                    "confirm",
                    {},
                    allow_input_required=True,
                    input_responses=answers,
                    request_state=state[:-1] + ("A" if state[-1] != "A" else "B"),
                )
            text = final.content[0].text  # type: ignore[union-attr]
            return state, text, refused.value.code

    state, text, code = anyio.run(flow)
    assert state.startswith("v1.0.")
    assert text == "confirmed after step1"
    assert code == -32602
