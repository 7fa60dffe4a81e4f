"""The MRTR final-response stores on Redis, shared by several server processes
(``spec/adapters.md``, ADAPT-STORE-*).

neva leaves a shared store to the deployer; these are two, one per calling convention.

:class:`RedisRequestStateStore` (a synchronous ``redis.Redis``) implements the round engine's
:class:`~mcp_touchstone.mrtr.RequestStateStore` protocol, for the synchronous engine
(:func:`mcp_touchstone.mrtr.dispatch`):

* ``get(key, now)`` answers the response stored under ``key`` while its ``exp > now``
  (strictly, with the injected ``now``), deleting an entry it finds expired;
* ``put(key, response, exp)`` stores it, the Redis key expiring at ``exp`` itself (``EXAT``), so
  nothing outlives the state it answers;
* ``reserve(key)`` is a real distributed lock: ``SET lock NX PX ttl`` with a random token, and a
  release that deletes the lock only while it still holds that token (a Lua compare-and-delete),
  so a holder whose lock expired can never release another holder's.  The lock's own expiry
  (``lock_ttl``) frees a key whose holder died; it must exceed the longest final round, or a
  second process may run that round too.

:class:`AsyncRedisRequestStateStore` (a ``redis.asyncio.Redis``) is the store of
:class:`~mcp_touchstone.adapters.replay.ReplayGuard`, which runs on the server's event loop:
every call is awaited (nothing blocks the loop) under a deadline, and a failure or a missed
deadline is one :class:`StoreUnavailableError`.  A final round is *claimed* before it runs: one
Lua script answers the stored final (or, with single use, that the state has committed) or
writes a claim (``SET NX EXAT exp``, the state's own expiry) -- never both, never neither.  The
claim is replaced by the final in one script (``commit``) or deleted when the round does not
commit (``abandon``).  A round whose final could not be stored leaves its claim, so the state
never runs that round again: it fails closed.  The calls made in one turn of the event loop go
to Redis as one pipeline (:mod:`._redis_pipeline`).  Durability is Redis' own: with
``appendonly yes`` and ``appendfsync always`` an acknowledged claim or final survives a crash
of Redis; with less, a crash loses what was not yet on disk (ADAPT-STORE-9).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Literal, TypeVar

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone.adapters._redis_pipeline import Pipeliner
from mcp_touchstone.mrtr import StoredResponse

__all__ = [
    "AsyncRedisRequestStateStore",
    "Begun",
    "RedisRequestStateStore",
    "ReservationTimeoutError",
    "StoreUnavailableError",
]

_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
end
return 0
"""


class ReservationTimeoutError(TouchstoneError, TimeoutError):
    """A reservation could not be acquired within ``lock_wait`` seconds."""


class _RedisLock:
    """A reservation on one key: acquired on enter (blocking up to ``lock_wait``), released on
    exit only if this holder's token is still the lock's value."""

    def __init__(self, store: RedisRequestStateStore, key: str) -> None:
        self._store = store
        self._key = key
        self._token: str | None = None

    def __enter__(self) -> _RedisLock:
        store = self._store
        token = secrets.token_hex(16)
        deadline = store._monotonic() + store.lock_wait
        delay = 0.001
        while not store._redis.set(self._key, token, nx=True, px=store.lock_ttl_ms):
            if store._monotonic() >= deadline:
                raise ReservationTimeoutError(
                    f"could not reserve {self._key!r} within {store.lock_wait} s"
                )
            store._sleep(delay)
            delay = min(delay * 2, 0.05)
        self._token = token
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._token is not None:
            self._store._release(keys=[self._key], args=[self._token])
            self._token = None


class RedisRequestStateStore:
    """The final-response store on a Redis server, shared by every process that uses it.

    ``client`` is a ``redis.Redis`` (``decode_responses`` either way); ``prefix`` namespaces the
    keys (entries under ``{prefix}r:{key}``, locks under ``{prefix}l:{key}``); ``lock_ttl`` (s)
    bounds how long a dead holder blocks a key; ``lock_wait`` (s) how long ``reserve`` waits.
    """

    def __init__(
        self,
        client: Any,
        *,
        prefix: str = "touchstone:mrtr:",
        lock_ttl: float = 30.0,
        lock_wait: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        if lock_ttl <= 0 or lock_wait < 0:
            raise ValueError("lock_ttl must be positive and lock_wait not negative")
        self._redis = client
        self.prefix = prefix
        self.lock_ttl = lock_ttl
        self.lock_ttl_ms = max(1, round(lock_ttl * 1000))
        self.lock_wait = lock_wait
        self._sleep = sleep
        self._monotonic = monotonic
        self._release = client.register_script(_RELEASE)

    def _entry(self, key: str) -> str:
        return f"{self.prefix}r:{key}"

    def get(self, key: str, now: int) -> StoredResponse | None:
        """The response under ``key`` while ``exp > now``; an expired entry is deleted."""
        raw = self._redis.get(self._entry(key))
        if raw is None:
            return None
        entry = json.loads(raw)
        if entry["exp"] > now:
            return StoredResponse(entry["text"])
        self._redis.delete(self._entry(key))
        return None

    def put(self, key: str, response: StoredResponse, exp: int) -> None:
        """Store ``response`` under ``key``; Redis drops it at ``exp`` (Unix seconds)."""
        value = json.dumps({"exp": exp, "text": response.text}, separators=(",", ":"))
        self._redis.set(self._entry(key), value, exat=max(exp, 1))

    def reserve(self, key: str) -> _RedisLock:
        """A distributed reservation on ``key`` (enter to acquire, exit to release)."""
        return _RedisLock(self, f"{self.prefix}l:{key}")


# --------------------------------------------------------------------------- the asyncio store

_BEGIN = """
local now = tonumber(ARGV[1])
local raw = redis.call('get', KEYS[1])
if raw then
    if cjson.decode(raw)['exp'] > now then
        return {'final', raw}
    end
    redis.call('del', KEYS[1])
end
if ARGV[4] == '1' then
    local done = redis.call('get', KEYS[2])
    if done then
        if cjson.decode(done)['exp'] > now then
            return {'committed'}
        end
        redis.call('del', KEYS[2])
    end
end
if redis.call('set', KEYS[3], ARGV[2], 'NX', 'EXAT', ARGV[3]) then
    return {'claimed'}
end
return {'busy'}
"""

_COMMIT = """
if redis.call('get', KEYS[3]) ~= ARGV[1] then
    return 0
end
redis.call('set', KEYS[1], ARGV[2], 'EXAT', ARGV[3])
if ARGV[4] == '1' then
    redis.call('set', KEYS[2], ARGV[5], 'EXAT', ARGV[3])
end
redis.call('del', KEYS[3])
return 1
"""

_T = TypeVar("_T")
CLEANUP_TRIES = 5
"""How many times a claim that a failed ``begin`` may have written is released afterwards."""


class StoreUnavailableError(TouchstoneError):
    """The store failed, or did not answer within its deadline (the message says which call)."""


@dataclass(frozen=True, slots=True)
class Begun:
    """What :meth:`AsyncRedisRequestStateStore.begin` found: ``final`` (the stored response's
    text in ``text``), ``committed`` (single use: the state has committed another final),
    ``claimed`` (the round is this caller's to run; ``token`` releases it) or ``busy`` (another
    caller holds the claim)."""

    outcome: Literal["final", "committed", "claimed", "busy"]
    text: str | None = None
    token: str | None = None


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _entry(response: StoredResponse, exp: int) -> str:
    return json.dumps({"exp": exp, "text": response.text}, separators=(",", ":"))


class AsyncRedisRequestStateStore:
    """The final-response store of :class:`~mcp_touchstone.adapters.replay.ReplayGuard` on a
    Redis server, shared by every process that uses it (see the module docstring).

    ``client`` is a ``redis.asyncio.Redis`` (:meth:`from_url` builds one with socket timeouts
    and one immediate retry); ``prefix`` namespaces the keys (finals under ``{prefix}r:{key}``,
    claims under ``{prefix}c:{key}``, the entry format of :class:`RedisRequestStateStore`);
    ``deadline`` (s) bounds every call, after which it raises :class:`StoreUnavailableError`.
    """

    def __init__(
        self, client: Any, *, prefix: str = "touchstone:mrtr:", deadline: float = 1.0
    ) -> None:
        if not deadline > 0:
            raise ValueError("deadline must be positive")
        self._redis = client
        self.prefix = prefix
        self.deadline = deadline
        self._pipeline = Pipeliner(client, deadline)
        self._cleanups: set[asyncio.Task[None]] = set()

    def _script(self, script: str, keys: list[str], args: list[Any]) -> Awaitable[Any]:
        """``script`` run on ``keys`` and ``args``, in this turn's pipeline (``EVAL``: Redis
        keeps the compiled script, and a restarted Redis needs nothing loaded again)."""
        return self._pipeline.call("EVAL", script, len(keys), *keys, *args)

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        prefix: str = "touchstone:mrtr:",
        deadline: float = 1.0,
        max_connections: int = 64,
    ) -> AsyncRedisRequestStateStore:
        """A store on a new ``redis.asyncio`` client for ``url``: its sockets time out at
        ``deadline``, a failed pipeline is retried once, at once (a pooled connection that a
        restart of Redis closed), and at most ``max_connections`` connections are open, a
        pipeline beyond them awaiting a free one -- all within the deadline."""
        import redis.asyncio
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        pool = redis.asyncio.BlockingConnectionPool.from_url(
            url,
            max_connections=max_connections,
            timeout=deadline,
            socket_timeout=deadline,
            socket_connect_timeout=deadline,
            retry=Retry(NoBackoff(), 1),
        )
        client = redis.asyncio.Redis(connection_pool=pool)
        return cls(client, prefix=prefix, deadline=deadline)

    async def _call(self, what: str, call: Awaitable[_T]) -> _T:
        """``call`` under the deadline; any failure is one :class:`StoreUnavailableError`."""
        from redis.exceptions import RedisError

        try:
            async with asyncio.timeout(self.deadline):
                return await call
        except TimeoutError:
            raise StoreUnavailableError(
                f"the Redis store did not answer {what} within {self.deadline} s"
            ) from None
        except (RedisError, OSError) as exc:
            name = type(exc).__name__
            raise StoreUnavailableError(f"the Redis store failed {what}: {name}") from None

    def _keys(self, key: str, committed: str | None, claim: str) -> list[str]:
        done = committed if committed is not None else key
        return [f"{self.prefix}r:{key}", f"{self.prefix}r:{done}", f"{self.prefix}c:{claim}"]

    async def begin(
        self, key: str, *, claim: str, committed: str | None, now: int, exp: int
    ) -> Begun:
        """The stored final under ``key`` while ``exp > now``; else, when ``committed`` is given
        and that entry is live, ``committed``; else a claim on ``claim`` until ``exp`` if nobody
        holds one (``claimed``, with its token), or ``busy``.  One atomic script; an expired
        entry it finds is deleted.

        A ``begin`` that fails may still have written its claim (the reply lost, or the script
        run late); the claim is then released in the background, :data:`CLEANUP_TRIES` times
        a deadline apart, since no round runs under it."""
        token = secrets.token_hex(16)
        args = [now, token, max(exp, 1), "1" if committed is not None else "0"]
        keys = self._keys(key, committed, claim)
        try:
            found = await self._call("begin", self._script(_BEGIN, keys, args))
        except StoreUnavailableError:
            self._release_later(claim, token)
            raise
        outcome = _text(found[0])
        if outcome == "final":
            return Begun("final", text=json.loads(_text(found[1]))["text"])
        if outcome == "claimed":
            return Begun("claimed", token=token)
        return Begun("committed" if outcome == "committed" else "busy")

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
        """Replace the claim ``token`` holds by ``response`` under ``key`` until ``exp`` (and,
        when ``committed`` is given, mark the state committed), in one script.  A claim this
        token no longer holds (lost with Redis' data) stores nothing and raises
        :class:`StoreUnavailableError`."""
        marker = _entry(StoredResponse.of({}), exp)
        args = [token, _entry(response, exp), max(exp, 1), "1" if committed else "0", marker]
        keys = self._keys(key, committed, claim)
        stored = await self._call("commit", self._script(_COMMIT, keys, args))
        if not stored:
            raise StoreUnavailableError("the Redis store lost the claim of this round")

    def _release_later(self, claim: str, token: str) -> None:
        async def release() -> None:
            for _ in range(CLEANUP_TRIES):
                await asyncio.sleep(self.deadline)
                try:
                    await self.abandon(claim, token)
                except StoreUnavailableError:
                    continue

        task = asyncio.get_running_loop().create_task(release())
        self._cleanups.add(task)
        task.add_done_callback(self._cleanups.discard)

    async def abandon(self, claim: str, token: str) -> None:
        """Delete the claim ``token`` holds on ``claim`` (a round that did not commit)."""
        lock = f"{self.prefix}c:{claim}"
        await self._call("abandon", self._script(_RELEASE, [lock], [token]))

    async def aclose(self) -> None:
        """Stop the background releases and close the client and its connections."""
        for task in list(self._cleanups):
            task.cancel()
        self._pipeline.cancel()
        await self._redis.aclose(close_connection_pool=True)
