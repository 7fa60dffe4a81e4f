"""The one skeleton of the MRTR probes (``spec/audit.md``): what they share (:class:`Context`),
how one answers (:class:`Probe`), the checks every probe on the flow makes before it runs
(:func:`flow_probe`), and the final retry with parts replaced and its state-less control.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mcp_touchstone.audit._client import MODERN, Answer, Connection
from mcp_touchstone.audit._flow import Catalog, Flow
from mcp_touchstone.audit._report import Exchange, Finding, Outcome, Severity

__all__ = ["Context", "Probe", "ProbeFn", "Ready", "flow_probe"]


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


@dataclass(frozen=True)
class Probe:
    """A probe's id and title, and the three kinds of finding it answers with."""

    pid: str
    title: str

    def finding(self, severity: Severity, verdict: str, ev: Sequence[Exchange] = ()) -> Finding:
        """A finding of ``severity``."""
        return Finding(self.pid, self.title, Outcome.FINDING, severity, verdict, tuple(ev))

    def passed(self, verdict: str, ev: Sequence[Exchange] = ()) -> Finding:
        """The server did what the probe asks of it."""
        return Finding(self.pid, self.title, Outcome.PASS, Severity.INFO, verdict, tuple(ev))

    def na(self, why: str) -> Finding:
        """Nothing the probe needs is observable on this server."""
        return Finding(self.pid, self.title, Outcome.NOT_OBSERVABLE, Severity.INFO, why, ())


@dataclass(frozen=True)
class Ready:
    """A probe whose MRTR flow reached a complete result: what the probe's body works on."""

    probe: Probe
    ctx: Context
    flow: Flow

    @property
    def conn(self) -> Connection:
        """The main connection on the modern era (the one the flow ran on)."""
        conn = self.ctx.conn()
        assert conn is not None
        return conn

    @property
    def state(self) -> str:
        """The flow's final ``requestState`` (a probe declared with ``state=True`` has one)."""
        assert self.flow.state is not None
        return self.flow.state

    async def retry(
        self, label: str, *, conn: Connection | None = None, **parts: Any
    ) -> tuple[Answer, Exchange]:
        """The flow's final retry on ``conn`` (the main one by default), ``parts`` replaced."""
        return await _retry(self.conn if conn is None else conn, self.flow, label, **parts)

    async def relied_on(  # noqa: PLR0917 - the verdict's parts, in the order they read
        self,
        who: str,
        unobservable: str,
        verdict: str,
        ev: Sequence[Exchange],
        label: str,
        conn: Connection | None = None,
        **parts: Any,
    ) -> Finding:
        """A damaged or foreign state was accepted: the control (the same retry without any
        state) tells a HIGH finding (refused: the server relies on the state, ``verdict``) from
        ``n/a`` (completed: ``who`` needs no state, so ``unobservable``)."""
        relied, control = await _relied_on(
            self.conn if conn is None else conn, self.flow, label, **parts
        )
        if not relied:
            return self.probe.na(f"{who} completes without any requestState: {unobservable}")
        return self.probe.finding(Severity.HIGH, verdict, [*ev, control])


ProbeFn = Callable[[Context], Awaitable[Finding]]
"""A probe as the runner calls it."""


def flow_probe(
    pid: str,
    title: str,
    *,
    state: bool = True,
    unless: Callable[[Context], str | None] | None = None,
) -> Callable[[Callable[[Ready], Awaitable[Finding]]], ProbeFn]:
    """The one skeleton of a probe on the MRTR flow: ``n/a`` when ``unless`` says why (checked
    first), when there is no flow, when it did not complete, or (``state``) when it sends no
    ``requestState``; otherwise the body's finding on the :class:`Ready` flow."""
    probe = Probe(pid, title)

    def wrap(body: Callable[[Ready], Awaitable[Finding]]) -> ProbeFn:
        @functools.wraps(body)
        async def run(ctx: Context) -> Finding:
            why = unless(ctx) if unless is not None else None
            if why is None:
                why = _why_not_ready(ctx, state=state)
            if why is not None:
                return probe.na(why)
            assert ctx.flow is not None
            return await body(Ready(probe, ctx, ctx.flow))

        return run

    return wrap


def _why_not_ready(ctx: Context, *, state: bool) -> str | None:
    if ctx.flow is None:
        return ctx.why_no_flow
    if not ctx.flow.complete:
        return f"the MRTR flow on {ctx.flow.tool} did not reach a complete result"
    if state and ctx.flow.state is None:
        return f"{ctx.flow.tool} sends no requestState"
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
