"""The adapters' fast paths answer as the general paths do: the built-in policy judged with the
caller's scopes read once, lists filtered without building components, and FastMCP's tool
lookup searched once per granted call (and never reused across calls or catalog changes)."""

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


# -- FastMCP: one catalog search per granted call, never reused ------------------------

_ANY_GRANT: dict[str, Any] = {
    "grants": [{"server_id": "*", "tool_name": "*", "operations": ["invoke"]}]
}


def _scope(_context: Any) -> ChioScope | None:
    return decode_scope(_ANY_GRANT, "scope")


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


def _server(counter: _CountingTransform | None = None) -> Any:
    from fastmcp import FastMCP
    from fastmcp.tools import Tool

    server = FastMCP("fast-paths")

    async def echo(x: str = "") -> str:
        return f"echo {x}"

    server.add_tool(Tool.from_function(echo, name="echo"))
    if counter is not None:
        server.add_transform(counter.transform)
    policy = Visibility().requiring_declared_scopes()
    return TouchstoneMiddleware(visibility=policy, grants=_scope).install(server)


def _call(server: Any, names: Sequence[str]) -> list[Any]:
    calls = [("tools/call", {"name": name, "arguments": {}}) for name in names]
    answers: list[Any] = anyio.run(memory_exchange, server, "modern", "alice", calls)
    return answers


def test_a_granted_call_searches_the_catalog_once() -> None:
    """With grants, the middleware's own lookup is the one FastMCP's call uses: one search of
    the catalog per call, as on the unprotected server (not one per lookup)."""
    counter = _CountingTransform()
    answers = _call(_server(counter), ["echo", "echo", "missing"])
    assert [a["result"]["content"][0]["text"] for a in answers[:2]] == ["echo ", "echo "]
    assert answers[2]["result"]["isError"] is True
    assert counter.lookups == ["echo", "echo", "missing"]


def test_the_recorded_lookup_does_not_outlive_its_call() -> None:
    """A tool removed, re-added hidden, then re-added visible between calls answers as the
    catalog is at each call: the recorded lookup is per call, never reused."""
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
    """The recorded lookup is replayed once, to FastMCP's own lookup: a tool that looks
    itself up again sees the catalog as it is then."""
    from fastmcp.tools import Tool

    server = _server()

    async def introspect(ctx: Context) -> str:
        server.local_provider.remove_tool("introspect")
        again = await ctx.fastmcp.get_tool("introspect")
        return "still there" if again is not None else "gone"

    server.add_tool(Tool.from_function(introspect, name="introspect"))
    assert _call(server, ["introspect"])[0]["result"]["content"][0]["text"] == "gone"
