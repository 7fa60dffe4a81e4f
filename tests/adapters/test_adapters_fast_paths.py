"""The adapters' fast paths answer as the general paths do: the built-in policy judged with the
caller's scopes read once, lists filtered without building components, and a granted FastMCP
call searching the catalog once (FastMCP's own lookup) while answering as the lookup-first
order does, the catalog as it is at each call."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import anyio
from fastmcp import Context
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.adapters._common import Caller
from mcp_touchstone.adapters.fastmcp import TouchstoneMiddleware, _Asker, component_meta
from mcp_touchstone.adapters.mcp import visible_items
from mcp_touchstone.scope import ChioScope, decode_scope
from mcp_touchstone.serde_json import JSON
from mcp_touchstone.visibility import (
    SCOPES_KEY,
    ComponentKind,
    Identity,
    ProtocolVersion,
    Visibility,
    VisibleComponent,
)
from tests.adapters._drive import memory_exchange
from tests.strategies.visibility import identities, metas, policies, tags

_KINDS = st.sampled_from(list(ComponentKind))
_VERSIONS = st.sampled_from(list(ProtocolVersion))
_OPTIONAL_META: st.SearchStrategy[dict[str, JSON] | None] = st.one_of(st.none(), metas())


class _Item:
    """A host component: an SDK model's ``name`` / ``meta`` and FastMCP's ``tags``."""

    def __init__(self, name: str, meta: dict[str, JSON] | None, native: set[str]) -> None:
        self.name = name
        self.uri = name
        self.uri_template = name
        self.meta = meta
        self.tags = native


def _general(policy: Visibility, caller: Caller, kind: ComponentKind, item: _Item) -> bool:
    """The general path: the policy called on the full component, FastMCP tags merged."""
    component = VisibleComponent(kind, item.name, component_meta(item), caller.request)
    return policy(component)


@given(policies(), identities(), _VERSIONS, metas(), st.sets(tags, max_size=3))
def test_admits_is_the_policys_verdict(
    policy: Visibility,
    identity: Identity,
    version: ProtocolVersion,
    meta: dict[str, JSON],
    native: set[str],
) -> None:
    """Caller.admits on a _meta and native tags is Visibility.admits on the merged _meta."""
    caller = Caller(identity, version)
    merged = component_meta(_Item("t", meta, native))
    assert caller.admits(policy, meta, native) == policy.admits(merged, caller.request)
    assert caller.admits(policy, meta) == policy.admits(meta, caller.request)


@given(
    policies(),
    identities(),
    _KINDS,
    st.lists(_OPTIONAL_META, max_size=8),
)
def test_mcp_list_filter_is_the_per_item_verdict(
    policy: Visibility,
    identity: Identity,
    kind: ComponentKind,
    item_metas: list[dict[str, JSON] | None],
) -> None:
    """protect's list filter keeps exactly the items the policy admits, in order, and one
    caller reused across items answers as a fresh caller per item."""
    items = [_Item(f"c{i}", meta, set()) for i, meta in enumerate(item_metas)]
    caller = Caller(identity, ProtocolVersion.V2026_07_28)
    expected = [
        item
        for item in items
        if _general(policy, Caller(identity, ProtocolVersion.V2026_07_28), kind, item)
    ]
    assert visible_items(policy, caller, kind, items) == expected
    assert visible_items(None, caller, kind, items) == items


@given(
    policies(),
    identities(),
    _KINDS,
    _OPTIONAL_META,
    st.one_of(st.none(), st.sets(tags, max_size=3)),
)
def test_fastmcp_judgement_is_the_general_one(
    policy: Visibility,
    identity: Identity,
    kind: ComponentKind,
    meta: dict[str, JSON] | None,
    native: set[str] | None,
) -> None:
    """The middleware's built-in-policy judgement of a FastMCP component (no merged _meta
    built, the caller built only when needed) is the policy's verdict on the merged _meta."""
    item = _Item("c", meta, native or set())
    item.tags = native  # type: ignore[assignment]  # a component with no tags attribute value
    built: list[int] = []

    def build() -> Caller:
        built.append(1)
        return Caller(identity, ProtocolVersion.V2025_11_25)

    middleware = TouchstoneMiddleware(visibility=policy)
    verdict = middleware._sees(_Asker(build), kind, item)
    general = policy(
        VisibleComponent(
            kind,
            "c",
            component_meta(item),
            Caller(identity, ProtocolVersion.V2025_11_25).request,
        )
    )
    assert verdict == general
    assert len(built) <= 1
    if not meta and not native:
        assert built == []


# -- FastMCP: one catalog search per granted call ----------------------------------------

_ANY_GRANT: dict[str, Any] = {
    "grants": [{"server_id": "*", "tool_name": "*", "operations": ["invoke"]}]
}


def _scope(_context: Any) -> ChioScope | None:
    return decode_scope(_ANY_GRANT, "scope")


def _echo_only(_context: Any) -> ChioScope | None:
    grant: dict[str, JSON] = {"server_id": "*", "tool_name": "echo", "operations": ["invoke"]}
    return decode_scope({"grants": [grant]}, "scope")


def _broken(_context: Any) -> ChioScope | None:
    raise RuntimeError("grants source unavailable")


class _CountingTransform:
    """Counts FastMCP's catalog lookups of tools (a transform inside the hiding one)."""

    def __init__(self) -> None:
        from fastmcp.server.transforms import Transform

        counter = self

        class Counting(Transform):
            async def get_tool(self, name: str, call_next: Any, *, version: Any = None) -> Any:
                counter.lookups.append(name)
                return await call_next(name, version=version)

        self.lookups: list[str] = []
        self.transform = Counting()


def _server(counter: _CountingTransform | None = None, grants: Any = _scope) -> Any:
    from fastmcp import FastMCP
    from fastmcp.tools import Tool

    server = FastMCP("fast-paths")

    async def echo(x: str = "") -> str:
        return f"echo {x}"

    server.add_tool(Tool.from_function(echo, name="echo"))
    if counter is not None:
        server.add_transform(counter.transform)
    policy = Visibility().requiring_declared_scopes()
    return TouchstoneMiddleware(visibility=policy, grants=grants).install(server)


def _call(server: Any, names: Sequence[str]) -> list[Any]:
    calls = [("tools/call", {"name": name, "arguments": {}}) for name in names]
    answers: list[Any] = anyio.run(memory_exchange, server, "modern", "alice", calls)
    return answers


def test_a_granted_call_searches_the_catalog_once() -> None:
    """ADAPT-GRANT-3: with grants, a granted call is looked up by FastMCP alone: one search of
    the catalog per call, as on the unprotected server."""
    counter = _CountingTransform()
    answers = _call(_server(counter), ["echo", "echo", "missing"])
    assert [a["result"]["content"][0]["text"] for a in answers[:2]] == ["echo ", "echo "]
    assert answers[2]["result"]["isError"] is True
    assert counter.lookups == ["echo", "echo", "missing"]


def test_granted_calls_follow_the_catalog() -> None:
    """A tool removed, re-added hidden, then re-added visible between granted calls answers as
    the catalog is at each call (nothing about a lookup is kept between calls)."""
    from fastmcp.tools import Tool

    server = _server()
    absent = _call(_server(), ["gone"])[0]

    async def gone(x: str = "") -> str:
        return "gone ran"

    server.add_tool(Tool.from_function(gone, name="gone"))
    assert _call(server, ["gone"])[0]["result"]["content"][0]["text"] == "gone ran"
    server.local_provider.remove_tool("gone")
    assert _call(server, ["gone"]) == [absent]
    server.add_tool(Tool.from_function(gone, name="gone", meta={SCOPES_KEY: ["admin"]}))
    assert _call(server, ["gone"]) == [absent]
    server.local_provider.remove_tool("gone")
    server.add_tool(Tool.from_function(gone, name="gone"))
    assert _call(server, ["gone"])[0]["result"]["content"][0]["text"] == "gone ran"


def test_a_lookup_inside_the_tool_is_fresh() -> None:
    """A tool that removes itself and looks itself up again sees the catalog as it is then."""
    from fastmcp.tools import Tool

    server = _server()

    async def introspect(ctx: Context) -> str:
        server.local_provider.remove_tool("introspect")
        again = await ctx.fastmcp.get_tool("introspect")
        return "still there" if again is not None else "gone"

    server.add_tool(Tool.from_function(introspect, name="introspect"))
    assert _call(server, ["introspect"])[0]["result"]["content"][0]["text"] == "gone"


def test_a_refused_call_is_looked_up_first() -> None:
    """A call the grants refuse is told apart as before: a visible tool is a step-up refusal,
    a hidden or absent one FastMCP's own not-found, the same answer as an absent tool."""
    from fastmcp.tools import Tool

    server = _server(grants=_echo_only)

    async def admin_only() -> str:
        return "ran"

    async def other() -> str:
        return "ran"

    server.add_tool(Tool.from_function(admin_only, name="secret", meta={SCOPES_KEY: ["admin"]}))
    server.add_tool(Tool.from_function(other, name="other"))
    absent = _call(_server(grants=_echo_only), ["secret"])[0]
    refused, hidden, missing = _call(server, ["other", "secret", "nope"])
    assert refused["error"]["data"] == {
        "error": "insufficient_scope",
        "method": "tools/call",
        "name": "other",
    }
    assert hidden == absent
    assert missing["result"]["content"][0]["text"] == "Unknown tool: 'nope'"


def test_a_raising_grants_source_raises_only_where_it_did() -> None:
    """A grants function that raises does not change the answer of a call on an absent tool
    (the lookup-first order never asked it), and still fails a call on a visible one."""
    server = _server(grants=_broken)
    absent = _call(_server(), ["missing"])[0]
    missing, echo = _call(server, ["missing", "echo"])
    assert missing == absent
    assert echo != _call(_server(), ["echo"])[0]


def test_a_custom_identity_is_asked_on_every_request() -> None:
    """The caller is built lazily only for the default (token) identity: a custom identity
    function is asked on every request, as before, so one that raises still fails the
    request even when no component needs judging."""
    from fastmcp import FastMCP
    from fastmcp.tools import Tool

    asked: list[str] = []

    def identity(context: Any) -> Identity:
        asked.append(context.method)
        return Identity.bearer("alice", {"scope": "user"})

    async def plain() -> str:
        return "ok"

    server = FastMCP("identity")
    server.add_tool(Tool.from_function(plain, name="plain"))
    policy = Visibility().requiring_declared_scopes()
    TouchstoneMiddleware(visibility=policy, identity=identity).install(server)
    calls = [("tools/list", {}), ("tools/call", {"name": "plain", "arguments": {}})]
    answers = anyio.run(memory_exchange, server, "modern", "alice", calls)
    assert [tool["name"] for tool in answers[0]["result"]["tools"]] == ["plain"]
    assert answers[1]["result"]["content"][0]["text"] == "ok"
    assert "tools/list" in asked
    assert "tools/call" in asked
