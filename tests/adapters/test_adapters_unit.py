"""The adapters' SDK-free pieces: caller mapping, revisions, FastMCP tags, the probe rewrite."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import anyio
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.adapters._common import (
    Caller,
    Denied,
    Granted,
    decide_grant,
    identity_from_token,
    new_sentinel,
    revision,
    rewrite,
)
from mcp_touchstone.adapters.fastmcp import component_meta
from mcp_touchstone.scope import decode_scope
from mcp_touchstone.visibility import (
    ANONYMOUS,
    TAGS_KEY,
    ComponentKind,
    ProtocolVersion,
    Visibility,
    granted_scopes,
)
from tests.adapters._drive import memory_exchange
from tests.adapters._servers import build_fastmcp


@dataclass
class Token:
    """The fields of an SDK AccessToken the mapping reads."""

    client_id: str = "client"
    scopes: list[str] = field(default_factory=list)
    subject: str | None = None
    claims: dict[str, Any] | None = None


def test_no_token_is_anonymous() -> None:
    """ADAPT-ID-1: without a token the caller is anonymous."""
    assert identity_from_token(None) is ANONYMOUS


def test_token_scopes_are_the_verified_list() -> None:
    """ADAPT-ID-1: the scope claim is the verified list; claims cannot add scopes."""
    token = Token(scopes=["a", "b"], subject="alice", claims={"scp": ["admin"], "scope": "root"})
    who = identity_from_token(token)
    assert who.subject == "alice"
    assert granted_scopes(who) == ("a", "b")


def test_subject_falls_back_to_client_id() -> None:
    """ADAPT-ID-1: a token without a subject is its client."""
    assert identity_from_token(Token(client_id="svc")).subject == "svc"


def test_revisions() -> None:
    """ADAPT-ID-2: known revisions map to themselves; older and newer ones to the ends."""
    assert revision("2025-11-25") is ProtocolVersion.V2025_11_25
    assert revision("2026-07-28") is ProtocolVersion.V2026_07_28
    assert revision("2024-11-05") is ProtocolVersion.V2025_06_18
    assert revision("2027-01-01") is ProtocolVersion.V2026_07_28
    assert revision(None) is ProtocolVersion.V2025_06_18


class _Component:
    def __init__(self, meta: Any, tags: set[str]) -> None:
        self.meta = meta
        self.tags = tags


def test_fastmcp_tags_join_the_turbomcp_tags() -> None:
    """ADAPT-VIS-2, ADAPT-FMCP-2: native tags are appended after the _meta ones, once each."""
    merged = component_meta(_Component({TAGS_KEY: ["x", "admin"]}, {"admin", "beta"}))
    assert merged[TAGS_KEY] == ["x", "admin", "beta"]
    assert component_meta(_Component(None, set())) == {}


def test_caller_sees_through_the_policy() -> None:
    """ADAPT-VIS-2: no policy hides nothing; the policy judges the component's _meta."""
    caller = Caller(ANONYMOUS, ProtocolVersion.V2026_07_28)
    assert caller.sees(None, ComponentKind.TOOL, "t", {TAGS_KEY: ["secret"]})
    policy = Visibility(hidden_tags=frozenset({"secret"}))
    assert not caller.sees(policy, ComponentKind.TOOL, "t", {TAGS_KEY: ["secret"]})
    assert caller.sees(policy, ComponentKind.TOOL, "t", None)


def test_grant_decisions_fail_closed() -> None:
    """ADAPT-GRANT-1: no scope, no covering grant, a refused constraint all deny."""
    grant = decode_scope(
        {"grants": [{"server_id": "s", "tool_name": "t", "operations": ["invoke"]}]}, "scope"
    )
    refused = decode_scope(
        {
            "grants": [
                {
                    "server_id": "s",
                    "tool_name": "t",
                    "operations": ["invoke"],
                    "constraints": [{"type": "regex_match", "value": "x"}],
                }
            ]
        },
        "scope",
    )
    assert isinstance(decide_grant(grant, "t", "s", {}), Granted)
    assert isinstance(decide_grant(None, "t", "s", {}), Denied)
    assert isinstance(decide_grant(grant, "u", "s", {}), Denied)
    assert isinstance(decide_grant(refused, "t", "s", {}), Denied)


@given(st.text(min_size=1))
def test_rewrite_puts_the_real_name_everywhere(real: str) -> None:
    """ADAPT-VIS-3: every sentinel occurrence, plain or repr-quoted, becomes the real name."""
    probe = new_sentinel()
    value = {"text": f"Unknown tool: {probe!r}", "data": [probe, {"uri": probe}], "n": 1}
    assert rewrite(value, probe, real) == {
        "text": f"Unknown tool: {real!r}",
        "data": [real, {"uri": real}],
        "n": 1,
    }


def test_fastmcp_enforces_on_stdio_too() -> None:
    """ADAPT-FMCP-2: with the transport marked stdio (where AuthMiddleware skips every check)
    the hidden tool is still unknown to alice."""
    from fastmcp.server.context import reset_transport, set_transport

    async def call() -> Any:
        token = set_transport("stdio")
        try:
            return await memory_exchange(
                build_fastmcp("protected"),
                "modern",
                "alice",
                [("tools/call", {"name": "delete_user", "arguments": {"name": "x"}})],
            )
        finally:
            reset_transport(token)

    answer = anyio.run(call)[0]
    assert answer["result"]["isError"] is True
    assert "Unknown tool" in answer["result"]["content"][0]["text"]
