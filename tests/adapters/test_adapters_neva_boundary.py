"""NevaStateBoundary: an SDK server and neva accept each other's states (ADAPT-NEVA-*)."""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPError

from mcp_touchstone.adapters.state import SDK_STATE_MEMO, NevaStateBoundary
from mcp_touchstone.mrtr import Keyring, StatePayload, request_binding
from mcp_touchstone.mrtr._state import CheckContext, seal, verify

RING = Keyring.single(b"shared-with-neva")
NOW = 1_900_000_000
ARGS: Any = {"bucket": "b1"}
SALIENT: Any = {"name": "purge", "arguments": ARGS}
FORM = types.ElicitRequest(
    params=types.ElicitRequestFormParams(
        message="Sure?", requested_schema={"type": "object", "properties": {}}
    )
)
YES: Any = {"action": "accept", "content": {}}


def _server(seen: list[Any]) -> MCPServer:
    server = MCPServer("py-neva")

    @server.tool()
    def purge(bucket: str, ctx: Context) -> Any:
        answers = dict(ctx.input_responses or {})
        seen.append((sorted(answers), ctx.request_state))
        if "confirm" not in answers:
            return types.InputRequiredResult(
                input_requests={"confirm": FORM}, request_state=f"asked:{bucket}"
            )
        return f"purged {bucket}"

    NevaStateBoundary(RING, clock=lambda: NOW, nonce=lambda: bytes(12)).install(server)
    return server


async def _call(server: MCPServer, **extra: Any) -> Any:
    from mcp import Client

    async with Client(server, mode="2026-07-28") as client:
        try:
            return await client.session.call_tool("purge", ARGS, allow_input_required=True, **extra)
        except MCPError as exc:
            return exc


def test_a_python_minted_state_verifies_as_neva_verifies_it() -> None:
    """ADAPT-NEVA-1: the state the SDK server mints passes neva's checks (the reference's
    verify, neva's codec byte for byte) and says what neva expects: requested, binding, exp."""
    first = anyio.run(_call, _server([]))
    assert isinstance(first, types.InputRequiredResult)
    token = first.request_state
    assert token is not None
    assert token.startswith("v1.0.")
    check = CheckContext("tools/call", SALIENT, NOW + 10)
    payload = verify(token, RING, check)
    assert payload.requested == ("confirm",)
    assert payload.req == request_binding("tools/call", SALIENT)
    assert payload.exp == NOW + 300
    assert payload.memos[SDK_STATE_MEMO] == "asked:b1"


def test_a_neva_minted_state_is_accepted_and_seeded() -> None:
    """ADAPT-NEVA-2: a state neva sealed (settled answer ``confirm``, asked ``extra``) is
    accepted; the handler sees neva's settled answer, the new solicited one, and not the
    unsolicited one; it has no SDK string (neva put none)."""
    neva = StatePayload(
        answers={"confirm": YES},
        exp=NOW + 60,
        req=request_binding("tools/call", SALIENT),
        requested=("extra",),
    )
    token = seal(neva, RING, bytes(12))
    seen: list[Any] = []
    offered: Any = {"extra": YES, "stray": YES, "confirm": {"action": "decline"}}
    result = anyio.run(lambda: _call(_server(seen), request_state=token, input_responses=offered))
    assert isinstance(result, types.CallToolResult), result
    assert seen == [(["confirm", "extra"], None)]


def test_the_two_round_flow_runs_through_the_sdk_client() -> None:
    """ADAPT-NEVA-3: round one mints, round two carries the state and its answer, and the
    handler gets its own request_state string back."""
    seen: list[Any] = []
    server = _server(seen)
    first = anyio.run(_call, server)
    assert isinstance(first, types.InputRequiredResult)
    final = anyio.run(
        lambda: _call(server, request_state=first.request_state, input_responses={"confirm": YES})
    )
    assert isinstance(final, types.CallToolResult)
    assert seen[-1] == (["confirm"], "asked:b1")


@pytest.mark.parametrize(
    ("payload_change", "message"),
    [
        ({"exp": NOW - 1}, "requestState expired"),
        ({"req": "tools/call:other"}, "requestState does not match this request"),
        ({"principal": "mallory"}, "requestState principal mismatch"),
        ({"aud": "other-service"}, "requestState audience mismatch"),
    ],
)
def test_neva_refusals_keep_nevas_words(payload_change: dict[str, Any], message: str) -> None:
    """ADAPT-NEVA-4: a state failing a check is refused with neva's -32602 and neva's text."""
    fields: dict[str, Any] = {
        "answers": {},
        "exp": NOW + 60,
        "req": request_binding("tools/call", SALIENT),
    }
    fields.update(payload_change)
    token = seal(StatePayload(**fields), RING, bytes(12))
    refused = anyio.run(lambda: _call(_server([]), request_state=token, input_responses={}))
    assert isinstance(refused, MCPError)
    assert (refused.code, refused.message) == (-32602, message)


def test_a_tampered_state_is_an_integrity_failure() -> None:
    """ADAPT-NEVA-4: one flipped character: neva's integrity refusal."""
    first = anyio.run(_call, _server([]))
    token = first.request_state
    bad = token[:-1] + ("A" if token[-1] != "A" else "B")
    refused = anyio.run(lambda: _call(_server([]), request_state=bad, input_responses={}))
    assert isinstance(refused, MCPError)
    assert refused.message == "requestState integrity check failed"
