"""Chio grant enforcement on tools/call through the adapters (ADAPT-GRANT-*)."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from mcp_touchstone.adapters._common import INSUFFICIENT_SCOPE
from mcp_touchstone.scope import ChioScope, decode_scope
from tests.adapters._drive import http_exchange, memory_exchange
from tests.adapters._servers import POLICY, build_fastmcp, build_mcp

# alice may call `add` only with a <= 10 (a max_length-free numeric bound is not portable, so
# the grant pins `a` by an allowlist); root's scope grants every tool.
SCOPES: dict[str, Any] = {
    "alice": {
        "grants": [
            {
                "server_id": "touchstone-demo",
                "tool_name": "add",
                "operations": ["invoke"],
                "constraints": [{"type": "max_args_size", "value": 40}],
            }
        ]
    },
    "root": {"grants": [{"server_id": "*", "tool_name": "*", "operations": ["invoke"]}]},
}


def _grants_for_token(_ctx: Any) -> ChioScope | None:
    from mcp.server.auth.middleware.auth_context import get_access_token

    token = get_access_token()
    if token is None or token.subject not in SCOPES:
        return None
    return decode_scope(SCOPES[token.subject], "scope")


def _mcp_server() -> Any:
    from mcp_touchstone.adapters.mcp import protect

    server = build_mcp("plain")
    return protect(server, visibility=POLICY, grants=_grants_for_token)


def _fastmcp_server() -> Any:
    from mcp_touchstone.adapters.fastmcp import TouchstoneMiddleware

    def grants(_context: Any) -> ChioScope | None:
        from fastmcp.server.dependencies import get_access_token

        token = get_access_token()
        subject = None if token is None else (token.subject or token.token)
        return None if subject not in SCOPES else decode_scope(SCOPES[subject], "scope")

    server = build_fastmcp("plain")
    return TouchstoneMiddleware(visibility=POLICY, grants=grants).install(server)


SERVERS = {"mcp": _mcp_server, "fastmcp": _fastmcp_server}


def _call(server: Any, who: str, name: str, arguments: dict[str, Any]) -> Any:
    answers = anyio.run(
        http_exchange,
        server,
        "modern",
        who,
        [("tools/call", {"name": name, "arguments": arguments})],
    )
    status, body = answers[0]
    return status, json.loads(body)


@pytest.mark.parametrize("sdk", sorted(SERVERS))
def test_granted_call_runs(sdk: str) -> None:
    """ADAPT-GRANT-1: a call a grant covers reaches the tool."""
    status, body = _call(SERVERS[sdk](), "alice", "add", {"a": 1, "b": 2})
    assert status == 200
    assert body["result"]["content"][0]["text"] == "3"


@pytest.mark.parametrize("sdk", sorted(SERVERS))
def test_constraint_failure_is_a_step_up(sdk: str) -> None:
    """ADAPT-GRANT-2: a visible tool whose grant's constraint fails is refused with the step-up
    error, which names the tool and never the failing constraint."""
    status, body = _call(SERVERS[sdk](), "alice", "add", {"a": 1, "b": 2, "pad": "x" * 64})
    error = body["error"]
    assert error["code"] == INSUFFICIENT_SCOPE
    assert error["data"] == {"error": "insufficient_scope", "method": "tools/call", "name": "add"}
    assert "max_args_size" not in json.dumps(body)
    assert status in (200, 400)


@pytest.mark.parametrize("sdk", sorted(SERVERS))
def test_visible_but_ungranted_tool_is_a_step_up_not_a_not_found(sdk: str) -> None:
    """ADAPT-GRANT-2: root sees ``delete_user``; with a scope lacking it the refusal is step-up."""
    server = SERVERS[sdk]()
    original = SCOPES["root"]
    SCOPES["root"] = {"grants": [{"server_id": "*", "tool_name": "add", "operations": ["invoke"]}]}
    try:
        _status, body = _call(server, "root", "delete_user", {"name": "x"})
    finally:
        SCOPES["root"] = original
    assert body["error"]["code"] == INSUFFICIENT_SCOPE


@pytest.mark.parametrize("sdk", sorted(SERVERS))
def test_hidden_tool_is_not_found_even_with_grants(sdk: str) -> None:
    """ADAPT-GRANT-3: visibility is judged first; a hidden tool is not-found, never step-up."""
    _status, body = _call(SERVERS[sdk](), "alice", "delete_user", {"name": "x"})
    assert "error" not in body
    assert body["result"]["isError"] is True
    assert "Unknown tool" in body["result"]["content"][0]["text"]


@pytest.mark.parametrize("sdk", sorted(SERVERS))
def test_no_scope_at_all_fails_closed(sdk: str) -> None:
    """ADAPT-GRANT-1: a caller for whom the grants source answers ``None`` may call nothing."""
    answers = anyio.run(
        memory_exchange,
        SERVERS[sdk](),
        "modern",
        None,
        [("tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}})],
    )
    assert answers[0]["error"]["code"] == INSUFFICIENT_SCOPE


@pytest.mark.parametrize("sdk", sorted(SERVERS))
def test_root_wildcard_grant_calls_the_privileged_tool(sdk: str) -> None:
    """ADAPT-GRANT-1: a ``*/*`` grant covers every visible tool."""
    status, body = _call(SERVERS[sdk](), "root", "delete_user", {"name": "x"})
    assert status == 200
    assert "deleted x" in body["result"]["content"][0]["text"]
