"""``RedisRequestStateStore``: the MRTR final-response store shared by several server processes
(``spec/adapters.md``, ADAPT-STORE-*).

neva leaves a shared store to the deployer; this is one on Redis, implementing the round
engine's :class:`~mcp_touchstone.mrtr.RequestStateStore` protocol:

* ``get(key, now)`` answers the response stored under ``key`` while its ``exp > now``
  (strictly, with the injected ``now``), deleting an entry it finds expired;
* ``put(key, response, exp)`` stores it, the Redis key expiring at ``exp`` itself (``EXAT``), so
  nothing outlives the state it answers;
* ``reserve(key)`` is a real distributed lock: ``SET lock NX PX ttl`` with a random token, and a
  release that deletes the lock only while it still holds that token (a Lua compare-and-delete),
  so a holder whose lock expired can never release another holder's.  The lock's own expiry
  (``lock_ttl``) frees a key whose holder died; it must exceed the longest final round, or a
  second process may run that round too.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone.mrtr._store import StoredResponse

__all__ = ["RedisRequestStateStore", "ReservationTimeoutError"]

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
