"""``ReplayGuard``: neva's final-response store for the official SDK's MRTR rounds
(``spec/adapters.md``, ADAPT-REPLAY-*).

The SDK's ``RequestStateBoundary`` seals, binds and expires ``requestState``, but the same
caller can send the same final retry twice within the TTL and the tool runs twice.  neva closes
that with a store: a committing final response is cached under ``lastSegment(state) + "." +
digest(inputResponses)`` and an identical retry is answered from it, only the id replaced; a
per-key reservation held across lookup, run and store makes concurrent identical retries run
the tool once.  This guard does the same, on the in-memory
:class:`~mcp_touchstone.mrtr.InMemoryRequestStateStore` (one process) or on
:class:`~mcp_touchstone.adapters.redis_store.AsyncRedisRequestStateStore` (several).

It is two ``ServerMiddleware``: one *outside* the boundary notes the sealed token (the key must
be unique per minted state, and the boundary replaces the token by its plaintext), one *inside*
it does the store work -- so the store is consulted only for a state the boundary verified
(never replaying to another principal a response cached for the first).  With
``single_use=True`` a state that has committed a final round refuses every later request that is
not the identical retry, with the boundary's own frozen ``-32602`` answer.

Everything runs on the event loop and nothing waits on a thread: identical retries in one
process queue on an ``anyio.Lock`` per key (a release wakes the next at once), each wait bounded
by ``lock_wait``; the shared store is asked through its asyncio client under its deadline.
Across processes the round is *claimed* in the store before it runs, and the claim is replaced
by the final before the final is returned: a store that fails before the run refuses it, one
that fails after it refuses the answer and keeps the claim, so the round never runs twice
(ADAPT-REPLAY-5 to ADAPT-REPLAY-8).  A final this process stored in a shared store is also kept
in a small in-process cache (:data:`NEAR_CAPACITY` entries, until the final's ``exp``), which
answers an identical retry that reaches this process without a round trip (ADAPT-REPLAY-9).
"""

from __future__ import annotations

import contextvars
import json
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager, suppress
from typing import Any

import anyio
from mcp.server.request_state import RequestStateBoundary
from mcp.shared.exceptions import MCPError

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone.adapters.redis_store import (
    AsyncRedisRequestStateStore,
    Begun,
    RedisRequestStateStore,
    StoreUnavailableError,
)
from mcp_touchstone.mrtr import InMemoryRequestStateStore, StoredResponse, input_responses_digest

__all__ = ["DEFAULT_LOCK_WAIT", "ReplayGuard"]

DEFAULT_LOCK_WAIT = 5.0
"""How long (s) a final retry waits for an identical round in progress before it is refused."""

_MRTR_METHODS = frozenset({"tools/call", "prompts/get", "resources/read"})
_SEALED: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "touchstone_sealed_state", default=None
)
_POLL_FIRST, _POLL_MAX = 0.005, 0.1
NEAR_CAPACITY = 1024
"""How many finals this process committed to a shared store it keeps to answer identical
retries without asking the store (the least recently used are dropped)."""


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


def _unavailable() -> MCPError:
    """The store failed or missed its deadline (ADAPT-REPLAY-6)."""
    return MCPError(-32603, "Request state store unavailable", {"reason": "store_unavailable"})


def _in_progress() -> MCPError:
    """An identical round holds the key past ``lock_wait`` (ADAPT-REPLAY-5)."""
    return MCPError(-32603, "Final round in progress", {"reason": "in_progress"})


class _BusyError(TouchstoneError):
    """The wait for a key ran out."""


class _KeyLocks:
    """One ``anyio.Lock`` per key, kept while someone holds or awaits it."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[anyio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, key: str, deadline: float) -> AsyncIterator[None]:
        """Hold ``key``'s lock; :class:`_BusyError` when it is not free by ``deadline`` (the
        event loop's clock)."""
        lock, users = self._locks.get(key, (None, 0))
        if lock is None:
            lock = anyio.Lock()
        self._locks[key] = (lock, users + 1)
        try:
            try:
                lock.acquire_nowait()
            except anyio.WouldBlock:
                try:
                    with anyio.fail_after(max(deadline - anyio.current_time(), 0)):
                        await lock.acquire()
                except TimeoutError:
                    raise _BusyError from None
            try:
                yield
            finally:
                lock.release()
        finally:
            users = self._locks[key][1] - 1
            if users:
                self._locks[key] = (lock, users)
            else:
                del self._locks[key]


class _NearFinals:
    """The finals this process committed to a shared store (ADAPT-REPLAY-9): at most
    ``capacity``, the least recently used dropped, each answered while ``exp > now``.

    Finals are immutable once stored, so nothing here needs the round engine's sweep on every
    ``put`` (:class:`~mcp_touchstone.mrtr.InMemoryRequestStateStore` mirrors neva's, which
    costs a pass over every entry); an expired final is dropped when it is asked for or when it
    is the least recently used."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._finals: OrderedDict[str, tuple[StoredResponse, int]] = OrderedDict()

    def get(self, key: str, now: int) -> StoredResponse | None:
        found = self._finals.get(key)
        if found is None:
            return None
        response, exp = found
        if exp <= now:
            del self._finals[key]
            return None
        self._finals.move_to_end(key)
        return response

    def put(self, key: str, response: StoredResponse, exp: int) -> None:
        self._finals[key] = (response, exp)
        self._finals.move_to_end(key)
        if len(self._finals) > self.capacity:
            self._finals.popitem(last=False)


class _LocalFinals:
    """The in-memory store seen through the claim protocol: in one process the key's lock is
    the claim, and the store's calls are memory-only (they never block)."""

    def __init__(self, store: InMemoryRequestStateStore) -> None:
        self.store = store

    async def begin(
        self, key: str, *, claim: str, committed: str | None, now: int, exp: int
    ) -> Begun:
        hit = self.store.get(key, now)
        if hit is not None:
            return Begun("final", text=hit.text)
        if committed is not None and self.store.get(committed, now) is not None:
            return Begun("committed")
        return Begun("claimed", token="")

    async def commit(
        self,
        key: str,
        response: StoredResponse,
        exp: int,
        *,
        claim: str,
        token: str,
        committed: str | None,
    ) -> None:
        self.store.put(key, response, exp)
        if committed is not None:
            self.store.put(committed, StoredResponse.of({"result": {}}), exp)

    async def abandon(self, claim: str, token: str) -> None:
        return None


class ReplayGuard:
    """Final-response replay (and optional single use) for an SDK server's MRTR rounds.

    ``store`` is the final-response store: an
    :class:`~mcp_touchstone.mrtr.InMemoryRequestStateStore`, or an
    :class:`~mcp_touchstone.adapters.redis_store.AsyncRedisRequestStateStore` shared by several
    processes; ``ttl`` (s) how long a cached final lives (default: the boundary's own TTL);
    ``lock_wait`` (s) how long a retry waits for an identical round in progress; ``clock``
    gives Unix seconds (injected for tests).
    """

    def __init__(
        self,
        store: InMemoryRequestStateStore | AsyncRedisRequestStateStore,
        *,
        ttl: float | None = None,
        single_use: bool = False,
        lock_wait: float = DEFAULT_LOCK_WAIT,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if isinstance(store, RedisRequestStateStore):
            raise TypeError(
                "ReplayGuard needs a store that does not block the event loop: "
                "AsyncRedisRequestStateStore (redis.asyncio), not RedisRequestStateStore"
            )
        if not isinstance(store, InMemoryRequestStateStore | AsyncRedisRequestStateStore):
            raise TypeError(
                "ReplayGuard takes an InMemoryRequestStateStore or an "
                f"AsyncRedisRequestStateStore, not {type(store).__name__}"
            )
        if lock_wait < 0:
            raise ValueError("lock_wait must not be negative")
        self.store = store
        self._finals: _LocalFinals | AsyncRedisRequestStateStore = (
            _LocalFinals(store) if isinstance(store, InMemoryRequestStateStore) else store
        )
        self._near = (
            None if isinstance(store, InMemoryRequestStateStore) else _NearFinals(NEAR_CAPACITY)
        )
        self.ttl = ttl
        self.single_use = single_use
        self.lock_wait = lock_wait
        self.clock = clock
        self._locks = _KeyLocks()

    def install(self, server: Any) -> Any:
        """Put the guard around and inside ``server``'s ``RequestStateBoundary`` (an
        ``MCPServer``, a FastMCP server, or a lowlevel ``Server`` with one in ``middleware``);
        returns ``server``."""
        low = getattr(server, "_lowlevel_server", None) or getattr(server, "_mcp_server", server)
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
        """Inside the boundary (the state verified): replay, refuse, or run and cache.

        Identical retries queue on the key's lock in this process (with ``single_use``, every
        round of the state queues on one), all within ``lock_wait``."""
        sealed = _SEALED.get()
        if sealed is None:
            return await call_next(ctx)
        answers = (ctx.params or {}).get("inputResponses") or {}
        chain = sealed.rsplit(".", 1)[-1]
        key = f"{chain}.{input_responses_digest(answers)}"
        claim = chain if self.single_use else key
        deadline = anyio.current_time() + self.lock_wait
        try:
            async with self._locks.hold(claim, deadline):
                return await self._round(
                    ctx, call_next, chain=chain, key=key, claim=claim, deadline=deadline
                )
        except _BusyError:
            raise _in_progress() from None

    async def _round(
        self, ctx: Any, call_next: Any, *, chain: str, key: str, claim: str, deadline: float
    ) -> Any:
        """One final round under the key's lock: the stored final, the single-use refusal, or
        the run, its final stored before it is returned (ADAPT-REPLAY-7)."""
        now = int(self.clock())
        exp = now + int(self.ttl or 0)
        committed = f"{chain}.committed" if self.single_use else None
        near = None if self._near is None else self._near.get(key, now)
        if near is not None:
            return json.loads(near.text)["result"]
        begun = await self._begin(
            key, claim=claim, committed=committed, now=now, exp=exp, deadline=deadline
        )
        if begun.outcome == "final":
            assert begun.text is not None
            replay = json.loads(begun.text)
            return replay["result"]
        if begun.outcome == "committed":
            raise _frozen_refusal()
        token = begun.token or ""
        try:
            result = await call_next(ctx)
        except BaseException:
            await self._abandon(claim, token)
            raise
        if not _committing(result):
            await self._abandon(claim, token)
            return result
        stored = StoredResponse.of({"result": result})
        try:
            await self._finals.commit(
                key, stored, exp, claim=claim, token=token, committed=committed
            )
        except StoreUnavailableError:
            raise _unavailable() from None  # the claim stays: this round never runs again
        if self._near is not None:
            self._near.put(key, stored, exp)
        return result

    async def _begin(
        self, key: str, *, claim: str, committed: str | None, now: int, exp: int, deadline: float
    ) -> Begun:
        """:meth:`begin` until it is not ``busy`` (another process holds the claim), polling
        with a growing pause up to ``deadline``."""
        pause = _POLL_FIRST
        while True:
            try:
                begun = await self._finals.begin(
                    key, claim=claim, committed=committed, now=now, exp=exp
                )
            except StoreUnavailableError:
                raise _unavailable() from None
            if begun.outcome != "busy":
                return begun
            if anyio.current_time() + pause > deadline:
                raise _in_progress()
            await anyio.sleep(pause)
            pause = min(pause * 2, _POLL_MAX)

    async def _abandon(self, claim: str, token: str) -> None:
        """Release a claim whose round did not commit (shielded: it runs even when the request
        is cancelled; a store that fails keeps the claim until the state expires)."""
        with anyio.CancelScope(shield=True):
            with suppress(StoreUnavailableError):
                await self._finals.abandon(claim, token)
