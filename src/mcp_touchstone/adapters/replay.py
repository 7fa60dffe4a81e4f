"""``ReplayGuard``: neva's final-response store for the official SDK's MRTR rounds
(``spec/adapters.md``, ADAPT-REPLAY-*).

The SDK's ``RequestStateBoundary`` seals, binds and expires ``requestState``, but the same
caller can send the same final retry twice within the TTL and the tool runs twice.  neva closes
that with a store: a committing final response is cached under ``lastSegment(state) + "." +
digest(inputResponses)`` and an identical retry is answered from it, only the id replaced; a
per-key reservation held across lookup, run and store makes concurrent identical retries run
the tool once.  This guard does the same, on any
:class:`~mcp_touchstone.mrtr.RequestStateStore` (the in-memory one, or
:class:`~mcp_touchstone.adapters.redis_store.RedisRequestStateStore` across processes).

It is two ``ServerMiddleware``: one *outside* the boundary notes the sealed token (the key must
be unique per minted state, and the boundary replaces the token by its plaintext), one *inside*
it does the store work -- so the store is consulted only for a state the boundary verified
(never replaying to another principal a response cached for the first).  With
``single_use=True`` a state that has committed a final round refuses every later request that is
not the identical retry, with the boundary's own frozen ``-32602`` answer.
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Callable, Mapping
from typing import Any

import anyio.to_thread
from mcp.server.request_state import RequestStateBoundary
from mcp.shared.exceptions import MCPError

from mcp_touchstone.mrtr import input_responses_digest
from mcp_touchstone.mrtr._store import RequestStateStore, StoredResponse

__all__ = ["ReplayGuard"]

_MRTR_METHODS = frozenset({"tools/call", "prompts/get", "resources/read"})
_SEALED: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "touchstone_sealed_state", default=None
)


def _committing(result: Any) -> bool:
    """neva's ``should_commit``: a final result that is not ``isError: true``."""
    if not isinstance(result, Mapping):
        return False
    if result.get("resultType") == "input_required" or "inputRequests" in result:
        return False
    return result.get("isError") is not True


def _frozen_refusal() -> MCPError:
    """The boundary's own answer to a bad state (identical for every reason)."""
    return MCPError(-32602, "Invalid or expired requestState", {"reason": "invalid_request_state"})


class ReplayGuard:
    """Final-response replay (and optional single use) for an SDK server's MRTR rounds.

    ``store`` is the final-response store; ``ttl`` (s) how long a cached final lives (default:
    the boundary's own TTL); ``clock`` gives Unix seconds (injected for tests).
    """

    def __init__(
        self,
        store: RequestStateStore,
        *,
        ttl: float | None = None,
        single_use: bool = False,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.ttl = ttl
        self.single_use = single_use
        self.clock = clock

    def install(self, server: Any) -> Any:
        """Put the guard around and inside ``server``'s ``RequestStateBoundary`` (an ``MCPServer``,
        or a lowlevel ``Server`` with one in ``middleware``); returns ``server``."""
        low = getattr(server, "_lowlevel_server", server)
        chain = low.middleware
        at = next((i for i, m in enumerate(chain) if isinstance(m, RequestStateBoundary)), None)
        if at is None:
            raise ValueError("the server has no RequestStateBoundary to guard")
        if self.ttl is None:
            self.ttl = float(chain[at]._security.ttl)
        chain.insert(at + 1, self._inner)
        chain.insert(at, self._outer)
        return server

    async def _outer(self, ctx: Any, call_next: Any) -> Any:
        """Outside the boundary: remember the sealed token this request carries."""
        params = ctx.params or {}
        token = params.get("requestState") if ctx.method in _MRTR_METHODS else None
        reset = _SEALED.set(token if isinstance(token, str) else None)
        try:
            return await call_next(ctx)
        finally:
            _SEALED.reset(reset)

    async def _inner(self, ctx: Any, call_next: Any) -> Any:
        """Inside the boundary (the state verified): replay, refuse, or run and cache."""
        sealed = _SEALED.get()
        if sealed is None:
            return await call_next(ctx)
        answers = (ctx.params or {}).get("inputResponses") or {}
        chain = sealed.rsplit(".", 1)[-1]
        key = f"{chain}.{input_responses_digest(answers)}"
        reservation = self.store.reserve(key)
        await anyio.to_thread.run_sync(reservation.__enter__)
        try:
            now = int(self.clock())
            hit = self.store.get(key, now)
            if hit is not None:
                replay = hit.to_json()
                assert isinstance(replay, dict)
                return replay["result"]
            if self.single_use and self.store.get(f"{chain}.committed", now) is not None:
                raise _frozen_refusal()
            result = await call_next(ctx)
            if _committing(result):
                exp = now + int(self.ttl or 0)
                self.store.put(key, StoredResponse.of({"result": result}), exp)
                if self.single_use:
                    self.store.put(f"{chain}.committed", StoredResponse.of({"result": {}}), exp)
            return result
        finally:
            await anyio.to_thread.run_sync(reservation.__exit__, None, None, None)
