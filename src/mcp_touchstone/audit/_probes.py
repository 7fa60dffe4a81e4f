"""The named probes (``spec/audit.md``): each returns one :class:`Finding`.

A probe that sends a state and gets a *complete* result counts it as accepted.  When a
server accepts a damaged or foreign state, a control request (the same retry with no state at
all) tells whether the server relies on the state: a server that completes without any state
gets ``n/a`` (nothing to protect is observable), never a false finding.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mcp_touchstone.audit import _state
from mcp_touchstone.audit._client import MODERN, Answer, Connection
from mcp_touchstone.audit._flow import Catalog, Flow, drive, example_arguments
from mcp_touchstone.audit._report import Exchange, Finding, Outcome, Severity

__all__ = ["Context"]


@dataclass
class Context:
    """What the probes share: connections per era and caller, catalogs, the flow."""

    conns: dict[tuple[str, str], Connection]
    """(era, ``main`` | ``other`` | ``peer``) -> connection."""
    catalogs: dict[tuple[str, str], Catalog]
    eras: Sequence[str]
    flow: Flow | None = None
    other_mrtr: list[str] = field(default_factory=list)
    ttl_wait: float = 0.0
    sleep: Callable[[float], Awaitable[None]] | None = None
    clock: Callable[[], float] = time.time
    why_no_flow: str = "no tool answered input_required on 2026-07-28 (name one with --tool)"

    def conn(self, who: str = "main", era: str = MODERN) -> Connection | None:
        return self.conns.get((era, who))


def _f(  # noqa: PLR0917 - a Finding's fields, in its own order
    pid: str,
    title: str,
    outcome: Outcome,
    severity: Severity,
    verdict: str,
    ev: Sequence[Exchange] = (),
) -> Finding:
    return Finding(pid, title, outcome, severity, verdict, tuple(ev))


def _na(pid: str, title: str, why: str) -> Finding:
    return _f(pid, title, Outcome.NOT_OBSERVABLE, Severity.INFO, why)


def _need_flow(ctx: Context, pid: str, title: str, *, state: bool = True) -> Finding | None:
    if ctx.flow is None:
        return _na(pid, title, ctx.why_no_flow)
    if not ctx.flow.complete:
        return _na(pid, title, f"the MRTR flow on {ctx.flow.tool} did not reach a complete result")
    if state and ctx.flow.state is None:
        return _na(pid, title, f"{ctx.flow.tool} sends no requestState")
    return None


async def _retry(
    conn: Connection,
    flow: Flow,
    label: str,
    *,
    method: str = "tools/call",
    name: str | None = None,
    arguments: Mapping[str, Any] | None = None,
    answers: Mapping[str, Any] | None = None,
    state: str | bool | None = True,
) -> tuple[Answer, Exchange]:
    """The flow's final retry with the given parts replaced (``state=False``: none sent)."""
    params: dict[str, Any] = {}
    if method == "resources/read":
        params["uri"] = name
    else:
        params["name"] = name if name is not None else flow.tool
    if method == "tools/call":
        params["arguments"] = dict(arguments if arguments is not None else flow.arguments)
    elif arguments is not None:
        params["arguments"] = dict(arguments)
    params["inputResponses"] = dict(answers if answers is not None else flow.answers)
    if state is True:
        params["requestState"] = flow.state
    elif isinstance(state, str):
        params["requestState"] = state
    return await conn.send(method, params, label)


async def _relied_on(
    conn: Connection, flow: Flow, label: str, **parts: Any
) -> tuple[bool, Exchange]:
    """The control: the same retry without any state; whether it is refused (the server relies
    on the state)."""
    answer, ex = await _retry(
        conn, flow, f"control: {label} without requestState", state=False, **parts
    )
    return answer.kind != "complete", ex


async def integrity(ctx: Context) -> Finding:
    """AUDIT-INT-1: every mutation of the final state refused."""
    pid, title = "AUDIT-INT-1", "integrity: mutated requestState refused"
    if (skip := _need_flow(ctx, pid, title)) is not None:
        return skip
    conn, flow = ctx.conn(), ctx.flow
    assert conn is not None
    assert flow is not None
    assert flow.state is not None
    accepted: list[tuple[_state.Mutation, Exchange]] = []
    tried = 0
    evidence: list[Exchange] = []
    for m in _state.mutations(flow.state):
        answer, ex = await _retry(conn, flow, f"{m.position}: {m.description}", state=m.state)
        tried += 1
        if not evidence:
            evidence.append(ex)
        if answer.kind == "complete":
            accepted.append((m, ex))
    layout = _state.layout(flow.state)
    if not accepted:
        return _f(
            pid,
            title,
            Outcome.PASS,
            Severity.INFO,
            f"all {tried} mutations refused (layout {layout})",
            evidence,
        )
    relied, control = await _relied_on(conn, flow, "final retry")
    if not relied:
        return _na(
            pid,
            title,
            f"{flow.tool} completes without any requestState: its integrity is not observable",
        )
    which = sorted({m.position for m, _ in accepted})
    only_suffix = all(m.position != "suffix" for m, _ in accepted) and any(
        m.position == "suffix" for m in _state.mutations(flow.state)
    )
    note = " (yet the '-TAMPERED' suffix was refused)" if only_suffix else ""
    return _f(
        pid,
        title,
        Outcome.FINDING,
        Severity.HIGH,
        f"{len(accepted)} of {tried} mutations accepted ({', '.join(which)}){note}",
        [ex for _, ex in accepted[:3]] + [control],
    )


async def swap(ctx: Context) -> Finding:
    """AUDIT-INT-2: segments of two states of the same request spliced together refused."""
    pid, title = "AUDIT-INT-2", "integrity: segments swapped between two states refused"
    if (skip := _need_flow(ctx, pid, title)) is not None:
        return skip
    conn, flow = ctx.conn(), ctx.flow
    assert conn is not None
    assert flow is not None
    assert flow.state is not None
    second = await drive(conn, flow.tool, flow.arguments)
    if second is None or second.state is None:
        return _na(pid, title, "a second flow gave no state to splice")
    spliced = _state.swaps(flow.state, second.state)
    if not spliced:
        return _na(pid, title, "the two states have no segment to swap")
    accepted = []
    for m in spliced:
        answer, ex = await _retry(conn, flow, m.description, state=m.state)
        if answer.kind == "complete":
            accepted.append(ex)
    if not accepted:
        return _f(
            pid, title, Outcome.PASS, Severity.INFO, f"all {len(spliced)} spliced states refused"
        )
    return _f(
        pid,
        title,
        Outcome.FINDING,
        Severity.HIGH,
        f"{len(accepted)} of {len(spliced)} spliced states accepted",
        accepted[:2],
    )


def _leaves(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in _leaves(v)]
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v)]
    return [str(value)] if isinstance(value, str) else []


async def confidentiality(ctx: Context) -> Finding:
    """AUDIT-CONF-1: the state is not readable by the client."""
    pid, title = "AUDIT-CONF-1", "confidentiality: requestState not readable by the client"
    if (skip := _need_flow(ctx, pid, title)) is not None:
        return skip
    flow = ctx.flow
    assert flow is not None
    assert flow.state is not None
    states: list[str] = [
        r[0]["requestState"] for r in flow.rounds if isinstance(r[0].get("requestState"), str)
    ]
    sent = {flow.tool, *_leaves(flow.arguments), "tools/call", "prompts/get", "resources/read"}
    sent.update(c.token for c in ctx.conns.values() if c.token)
    for catalog in ctx.catalogs.values():
        info = (
            (catalog.discovered or {}).get("serverInfo")
            if isinstance(catalog.discovered, dict)
            else None
        )
        if isinstance(info, dict):
            sent.update(str(v) for v in info.values() if isinstance(v, str))
    for params, _answer, _ in flow.rounds:
        sent.update(_leaves(params.get("inputResponses") or {}))
    for state in states:
        value = _state.readable(state)
        if value is None:
            continue
        server_data = sorted(
            {leaf for leaf in _leaves(value) if leaf not in sent and len(leaf) > 2}
        )
        ex = flow.rounds[0][2]
        if server_data:
            return _f(
                pid,
                title,
                Outcome.FINDING,
                Severity.MEDIUM,
                "the state is readable JSON holding values the client never sent: "
                + ", ".join(server_data[:4]),
                [ex],
            )
        return _f(
            pid,
            title,
            Outcome.FINDING,
            Severity.INFO,
            "the state is readable JSON (signed or plain), holding only what the client sent",
            [ex],
        )
    return _f(
        pid,
        title,
        Outcome.PASS,
        Severity.INFO,
        f"no state decodes to readable data (layout {_state.layout(flow.state)})",
    )


def _other_arguments(args: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(args)
    for key, value in args.items():
        if isinstance(value, str):
            out[key] = value + "-other"
            return out
        if isinstance(value, bool):
            out[key] = not value
            return out
        if isinstance(value, (int, float)):
            out[key] = value + 1
            return out
    out["touchstone_other"] = 1
    return out


async def _binding(ctx: Context, pid: str, title: str, what: str, **parts: Any) -> Finding:
    conn, flow = ctx.conn(), ctx.flow
    assert conn is not None
    assert flow is not None
    answer, ex = await _retry(conn, flow, f"state replayed with {what}", **parts)
    if answer.kind != "complete":
        return _f(
            pid, title, Outcome.PASS, Severity.INFO, f"state replayed with {what} refused", [ex]
        )
    relied, control = await _relied_on(conn, flow, what, **parts)
    if not relied:
        return _na(pid, title, f"{what} completes without any requestState: binding not observable")
    return _f(
        pid,
        title,
        Outcome.FINDING,
        Severity.HIGH,
        f"state minted for {flow.tool} accepted with {what}",
        [ex, control],
    )


async def bind_arguments(ctx: Context) -> Finding:
    """AUDIT-BIND-1: the state replayed with other arguments refused."""
    pid, title = "AUDIT-BIND-1", "request binding: other arguments"
    if (skip := _need_flow(ctx, pid, title)) is not None:
        return skip
    assert ctx.flow is not None
    other = _other_arguments(ctx.flow.arguments)
    return await _binding(ctx, pid, title, f"arguments {other}", arguments=other)


async def bind_tool(ctx: Context) -> Finding:
    """AUDIT-BIND-2: the state replayed on another tool refused."""
    pid, title = "AUDIT-BIND-2", "request binding: another tool"
    if (skip := _need_flow(ctx, pid, title)) is not None:
        return skip
    assert ctx.flow is not None
    catalog = ctx.catalogs.get((MODERN, "main"))
    names = [n for n in (catalog.names("tool") if catalog else []) if n != ctx.flow.tool]
    if not names:
        return _na(pid, title, "no other tool is listed")
    name = next((n for n in ctx.other_mrtr if n in names), names[0])
    assert catalog is not None
    args = example_arguments(catalog.items["tool"][name].get("inputSchema"))
    return await _binding(ctx, pid, title, f"tool {name}", name=name, arguments=args)


async def bind_method(ctx: Context) -> Finding:
    """AUDIT-BIND-3: the state replayed on another method refused."""
    pid, title = "AUDIT-BIND-3", "request binding: another method"
    if (skip := _need_flow(ctx, pid, title)) is not None:
        return skip
    catalog = ctx.catalogs.get((MODERN, "main"))
    prompts = catalog.names("prompt") if catalog else []
    resources = catalog.names("resource") if catalog else []
    if prompts:
        return await _binding(
            ctx, pid, title, f"prompts/get {prompts[0]}", method="prompts/get", name=prompts[0]
        )
    if resources:
        return await _binding(
            ctx,
            pid,
            title,
            f"resources/read {resources[0]}",
            method="resources/read",
            name=resources[0],
        )
    return _na(pid, title, "no prompt or resource is listed to carry the state")


async def principal(ctx: Context) -> Finding:
    """AUDIT-PRIN-1: a state minted for one caller refused for another (``--other-token``)."""
    pid, title = "AUDIT-PRIN-1", "principal binding: state used by another caller"
    if (skip := _need_flow(ctx, pid, title)) is not None:
        return skip
    other = ctx.conn("other")
    if other is None:
        return _na(pid, title, "needs --other-token")
    return await _foreign(ctx, other, pid, title, "the other token")


async def audience(ctx: Context) -> Finding:
    """AUDIT-AUD-1: a state minted by this server refused by a peer (``--peer-url``)."""
    pid, title = "AUDIT-AUD-1", "audience: state used at a peer server"
    if (skip := _need_flow(ctx, pid, title)) is not None:
        return skip
    peer = ctx.conn("peer")
    if peer is None:
        return _na(pid, title, "needs --peer-url")
    return await _foreign(ctx, peer, pid, title, "the peer server")


async def _foreign(ctx: Context, conn: Connection, pid: str, title: str, who: str) -> Finding:
    flow = ctx.flow
    assert flow is not None
    params = {"name": flow.tool, "arguments": flow.arguments}
    first, ex0 = await conn.send("tools/call", params, f"{who}: round 1 of {flow.tool}")
    if first.kind != "input_required":
        return _na(pid, title, f"{who} cannot run {flow.tool} (its round 1 is not input_required)")
    answer, ex = await _retry(conn, flow, f"{who}: final retry with the first caller's state")
    if answer.kind != "complete":
        return _f(pid, title, Outcome.PASS, Severity.INFO, f"{who} was refused the state", [ex])
    relied, control = await _relied_on(conn, flow, f"{who}'s final retry")
    if not relied:
        return _na(pid, title, f"{who} completes without any requestState: binding not observable")
    return _f(
        pid,
        title,
        Outcome.FINDING,
        Severity.HIGH,
        f"{who} completed {flow.tool} with a state minted elsewhere",
        [ex0, ex, control],
    )
