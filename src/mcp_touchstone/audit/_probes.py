"""The named probes (``spec/audit.md``): each returns one :class:`Finding`.

A probe that sends a state and gets a *complete* result counts it as accepted.  When a
server accepts a damaged or foreign state, a control request (the same retry with no state at
all) tells whether the server relies on the state: a server that completes without any state
gets ``n/a`` (nothing to protect is observable), never a false finding.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcp_touchstone.audit import _state
from mcp_touchstone.audit._client import MODERN, Connection
from mcp_touchstone.audit._flow import drive, example_arguments
from mcp_touchstone.audit._probe import Context, Ready, flow_probe
from mcp_touchstone.audit._report import Exchange, Finding, Severity

__all__ = ["Context"]


@flow_probe("AUDIT-INT-1", "integrity: mutated requestState refused")
async def integrity(run: Ready) -> Finding:
    """AUDIT-INT-1: every mutation of the final state refused."""
    accepted: list[tuple[_state.Mutation, Exchange]] = []
    tried = 0
    evidence: list[Exchange] = []
    for m in _state.mutations(run.state):
        answer, ex = await run.retry(f"{m.position}: {m.description}", state=m.state)
        tried += 1
        if not evidence:
            evidence.append(ex)
        if answer.kind == "complete":
            accepted.append((m, ex))
    if not accepted:
        layout = _state.layout(run.state)
        return run.probe.passed(f"all {tried} mutations refused (layout {layout})", evidence)
    which = sorted({m.position for m, _ in accepted})
    only_suffix = all(m.position != "suffix" for m, _ in accepted) and any(
        m.position == "suffix" for m in _state.mutations(run.state)
    )
    note = " (yet the '-TAMPERED' suffix was refused)" if only_suffix else ""
    return await run.relied_on(
        run.flow.tool,
        "its integrity is not observable",
        f"{len(accepted)} of {tried} mutations accepted ({', '.join(which)}){note}",
        [ex for _, ex in accepted[:3]],
        "final retry",
    )


@flow_probe("AUDIT-INT-2", "integrity: segments swapped between two states refused")
async def swap(run: Ready) -> Finding:
    """AUDIT-INT-2: segments of two states of the same request spliced together refused."""
    second = await drive(run.conn, run.flow.tool, run.flow.arguments)
    if second is None or second.state is None:
        return run.probe.na("a second flow gave no state to splice")
    spliced = _state.swaps(run.state, second.state)
    if not spliced:
        return run.probe.na("the two states have no segment to swap")
    accepted = []
    for m in spliced:
        answer, ex = await run.retry(m.description, state=m.state)
        if answer.kind == "complete":
            accepted.append(ex)
    if not accepted:
        return run.probe.passed(f"all {len(spliced)} spliced states refused")
    return run.probe.finding(
        Severity.HIGH, f"{len(accepted)} of {len(spliced)} spliced states accepted", accepted[:2]
    )


def _leaves(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in _leaves(v)]
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v)]
    return [str(value)] if isinstance(value, str) else []


@flow_probe("AUDIT-CONF-1", "confidentiality: requestState not readable by the client")
async def confidentiality(run: Ready) -> Finding:
    """AUDIT-CONF-1: the state is not readable by the client."""
    ctx, flow = run.ctx, run.flow
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
            return run.probe.finding(
                Severity.MEDIUM,
                "the state is readable JSON holding values the client never sent: "
                + ", ".join(server_data[:4]),
                [ex],
            )
        return run.probe.finding(
            Severity.INFO,
            "the state is readable JSON (signed or plain), holding only what the client sent",
            [ex],
        )
    return run.probe.passed(
        f"no state decodes to readable data (layout {_state.layout(run.state)})"
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


async def _binding(run: Ready, what: str, **parts: Any) -> Finding:
    answer, ex = await run.retry(f"state replayed with {what}", **parts)
    if answer.kind != "complete":
        return run.probe.passed(f"state replayed with {what} refused", [ex])
    return await run.relied_on(
        what,
        "binding not observable",
        f"state minted for {run.flow.tool} accepted with {what}",
        [ex],
        what,
        **parts,
    )


@flow_probe("AUDIT-BIND-1", "request binding: other arguments")
async def bind_arguments(run: Ready) -> Finding:
    """AUDIT-BIND-1: the state replayed with other arguments refused."""
    other = _other_arguments(run.flow.arguments)
    return await _binding(run, f"arguments {other}", arguments=other)


@flow_probe("AUDIT-BIND-2", "request binding: another tool")
async def bind_tool(run: Ready) -> Finding:
    """AUDIT-BIND-2: the state replayed on another tool refused."""
    catalog = run.ctx.catalogs.get((MODERN, "main"))
    names = [n for n in (catalog.names("tool") if catalog else []) if n != run.flow.tool]
    if not names:
        return run.probe.na("no other tool is listed")
    name = next((n for n in run.ctx.other_mrtr if n in names), names[0])
    assert catalog is not None
    args = example_arguments(catalog.items["tool"][name].get("inputSchema"))
    return await _binding(run, f"tool {name}", name=name, arguments=args)


@flow_probe("AUDIT-BIND-3", "request binding: another method")
async def bind_method(run: Ready) -> Finding:
    """AUDIT-BIND-3: the state replayed on another method refused."""
    catalog = run.ctx.catalogs.get((MODERN, "main"))
    prompts = catalog.names("prompt") if catalog else []
    resources = catalog.names("resource") if catalog else []
    if prompts:
        return await _binding(
            run, f"prompts/get {prompts[0]}", method="prompts/get", name=prompts[0]
        )
    if resources:
        return await _binding(
            run, f"resources/read {resources[0]}", method="resources/read", name=resources[0]
        )
    return run.probe.na("no prompt or resource is listed to carry the state")


@flow_probe("AUDIT-PRIN-1", "principal binding: state used by another caller")
async def principal(run: Ready) -> Finding:
    """AUDIT-PRIN-1: a state minted for one caller refused for another (``--other-token``)."""
    other = run.ctx.conn("other")
    if other is None:
        return run.probe.na("needs --other-token")
    return await _foreign(run, other, "the other token")


@flow_probe("AUDIT-AUD-1", "audience: state used at a peer server")
async def audience(run: Ready) -> Finding:
    """AUDIT-AUD-1: a state minted by this server refused by a peer (``--peer-url``)."""
    peer = run.ctx.conn("peer")
    if peer is None:
        return run.probe.na("needs --peer-url")
    return await _foreign(run, peer, "the peer server")


async def _foreign(run: Ready, conn: Connection, who: str) -> Finding:
    flow = run.flow
    params = {"name": flow.tool, "arguments": flow.arguments}
    first, ex0 = await conn.send("tools/call", params, f"{who}: round 1 of {flow.tool}")
    if first.kind != "input_required":
        return run.probe.na(f"{who} cannot run {flow.tool} (its round 1 is not input_required)")
    label = f"{who}: final retry with the first caller's state"
    answer, ex = await run.retry(label, conn=conn)
    if answer.kind != "complete":
        return run.probe.passed(f"{who} was refused the state", [ex])
    return await run.relied_on(
        who,
        "binding not observable",
        f"{who} completed {flow.tool} with a state minted elsewhere",
        [ex0, ex],
        f"{who}'s final retry",
        conn=conn,
    )
