"""The probes on a state's lifetime, single use and answers (``spec/audit.md``, AUDIT-TTL-*,
AUDIT-REPLAY-1, AUDIT-ANS-*), and the table of every MRTR probe in the order they run.
"""

from __future__ import annotations

from typing import Any

from mcp_touchstone.audit import _state
from mcp_touchstone.audit._probe import Context, ProbeFn, Ready, flow_probe
from mcp_touchstone.audit._probes import (
    audience,
    bind_arguments,
    bind_method,
    bind_tool,
    confidentiality,
    integrity,
    principal,
    swap,
)
from mcp_touchstone.audit._report import Finding, Severity

__all__ = ["PROBES"]

LONG_LIFETIME = 86400.0
MAX_TTL_WAIT = 900.0
UNSOLICITED = "touchstone_unsolicited"


def _expiry(value: Any) -> float | None:
    if not isinstance(value, dict):
        return None
    for key in ("exp", "expires", "expiresAt", "expires_at"):
        if isinstance(value.get(key), (int, float)) and not isinstance(value.get(key), bool):
            exp = float(value[key])
            return exp / 1000.0 if exp > 1e12 else exp
    return None


@flow_probe("AUDIT-TTL-2", "TTL: lifetime of a readable state")
async def lifetime(run: Ready) -> Finding:
    """AUDIT-TTL-2: a readable state carries an expiry, and not an unreasonably late one."""
    value = _state.readable(run.state)
    if value is None:
        return run.probe.na("the state is opaque; its lifetime is observable only with --ttl-wait")
    exp = _expiry(value)
    ex = run.flow.final[2]
    if exp is None:
        return run.probe.finding(Severity.MEDIUM, "the readable state carries no expiry", [ex])
    left = exp - run.ctx.clock()
    if left > LONG_LIFETIME:
        return run.probe.finding(
            Severity.LOW, f"the state expires in {left:.0f} s (over a day)", [ex]
        )
    return run.probe.passed(f"the state expires in {left:.0f} s")


def _no_ttl_wait(ctx: Context) -> str | None:
    return "opt in with --ttl-wait SECONDS" if ctx.ttl_wait <= 0 else None


@flow_probe("AUDIT-TTL-1", "TTL: state refused after its lifetime", unless=_no_ttl_wait)
async def ttl_wait(run: Ready) -> Finding:
    """AUDIT-TTL-1: after the bounded ``--ttl-wait``, the state is refused."""
    ctx = run.ctx
    assert ctx.sleep is not None
    wait = min(ctx.ttl_wait, MAX_TTL_WAIT)
    exp = _expiry(_state.readable(run.state))
    if exp is not None and 0 <= exp + 1 - ctx.clock() <= wait:
        wait = exp + 1 - ctx.clock()
    await ctx.sleep(wait)
    answer, ex = await run.retry(f"final retry after waiting {wait:.1f} s")
    if answer.kind != "complete":
        return run.probe.passed(f"refused after {wait:.1f} s", [ex])
    return run.probe.finding(
        Severity.MEDIUM, f"the state was still accepted {wait:.1f} s later", [ex]
    )


@flow_probe("AUDIT-REPLAY-1", "final-round replay: the same final retry sent twice", state=False)
async def replay(run: Ready) -> Finding:
    """AUDIT-REPLAY-1: the final retry sent again is replayed (or refused), never re-run."""
    flow = run.flow
    first = flow.final[1]
    answer, ex = await run.retry("the final retry, sent again", state=bool(flow.state))
    if answer.kind != "complete":
        return run.probe.passed("the repeated final retry was refused (single use)", [ex])
    if answer.comparable() == first.comparable():
        return run.probe.passed(
            "the repeated final retry got the same result (replayed, or a deterministic tool)",
            [ex],
        )
    return run.probe.finding(
        Severity.MEDIUM,
        f"{flow.tool} ran again: the repeated final retry got a different result",
        [flow.final[2], ex],
    )


@flow_probe("AUDIT-ANS-1", "unsolicited answer in inputResponses", state=False)
async def unsolicited(run: Ready) -> Finding:
    """AUDIT-ANS-1: an answer to a key the server never asked for."""
    flow = run.flow
    answers = {**flow.answers, UNSOLICITED: {"action": "accept", "content": {}}}
    answer, ex = await run.retry(
        f"final retry with an extra answer {UNSOLICITED!r}",
        answers=answers,
        state=bool(flow.state),
    )
    if answer.kind != "complete":
        return run.probe.passed("the unsolicited answer was refused", [ex])
    return run.probe.finding(
        Severity.INFO, "the server accepted an answer it did not request", [ex]
    )


@flow_probe("AUDIT-ANS-2", "settled answer re-answered in inputResponses", state=False)
async def settled(run: Ready) -> Finding:
    """AUDIT-ANS-2: a key settled in an earlier round answered again, differently."""
    flow = run.flow
    if len(flow.rounds) < 3:
        return run.probe.na("single-round flow: no answer is settled before the final round")
    with_state: Any = bool(flow.state)
    repeat, _ = await run.retry("the final retry, repeated (control)", state=with_state)
    if repeat.comparable() != flow.final[1].comparable():
        return run.probe.na(f"{flow.tool}'s result changes on every run: not attributable")
    earlier = flow.rounds[1][0].get("inputResponses") or {}
    answers = {**flow.answers, **{k: {"action": "decline"} for k in earlier}}
    answer, ex = await run.retry(
        "final retry re-answering settled keys", answers=answers, state=with_state
    )
    if answer.kind != "complete" or answer.comparable() == flow.final[1].comparable():
        return run.probe.passed("re-answered settled keys were refused or ignored", [ex])
    return run.probe.finding(
        Severity.MEDIUM,
        f"re-answering the settled key(s) {', '.join(sorted(earlier))} changed the result",
        [flow.final[2], ex],
    )


PROBES: dict[str, ProbeFn] = {
    "AUDIT-INT-1": integrity,
    "AUDIT-INT-2": swap,
    "AUDIT-CONF-1": confidentiality,
    "AUDIT-BIND-1": bind_arguments,
    "AUDIT-BIND-2": bind_tool,
    "AUDIT-BIND-3": bind_method,
    "AUDIT-PRIN-1": principal,
    "AUDIT-AUD-1": audience,
    "AUDIT-TTL-2": lifetime,
    "AUDIT-ANS-1": unsolicited,
    "AUDIT-ANS-2": settled,
    "AUDIT-REPLAY-1": replay,
    "AUDIT-TTL-1": ttl_wait,
}
"""The MRTR probes, in the order they run (TTL-1 last: it waits)."""
