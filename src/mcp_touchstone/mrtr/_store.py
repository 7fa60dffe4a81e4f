"""The final-response store: neva's ``RequestStateStore`` (rules MRTR-STORE-*).

The sealed state cannot make the *final* round idempotent: that round mints no new state, so a
lost response plus a retry would run the handler and its commits again. The store closes that gap
by caching a committed final response under a tag and replaying it verbatim (only the JSON-RPC id
replaced) to an identical retry.

The protocol, as built (an implementation on Redis or any shared store provides the same three
calls):

``get(key: str, now: int) -> StoredResponse | None``
    The response stored under ``key`` while its ``exp > now`` (strictly). An entry found with
    ``exp <= now`` is removed and ``None`` answered (neva's ``get``). ``now`` is injected: the store
    reads no clock.
``put(key: str, response: StoredResponse, exp: int) -> None``
    Store ``response`` under ``key`` until ``exp`` (Unix seconds), replacing an entry there.
``reserve(key: str) -> Reservation``
    A per-key lock. The returned :class:`Reservation` is a context manager: the lock is acquired on
    ``__enter__`` (blocking while another holder has the same key) and released on ``__exit__``.
    The engine holds it across get -> handler -> commits -> put, so identical concurrent retries
    run the handler once (MRTR-STORE-4). A store shared by several processes needs a distributed
    lock here; a store that cannot lock may return a no-op reservation (neva's trait default),
    which gives up only that guarantee.

:class:`StoredResponse` is an immutable value: the whole JSON-RPC response (``jsonrpc``, ``id`` and
``result`` or ``error``) held as its compact canonical JSON text, so no caller can mutate a cached
entry; :meth:`StoredResponse.with_id` is the replay.

**Deviation** (MRTR-STORE-6): neva's ``InMemoryStateStore`` has no bound apart from expiry.
:class:`InMemoryRequestStateStore` takes a ``capacity`` and evicts the least recently used entry
(a ``get`` hit or a ``put`` counts as a use) when a ``put`` would exceed it, after neva's sweep
of expired entries. An eviction can only cost a re-run of a final round older than every other
cached one; it never replays a wrong response.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from types import TracebackType
from typing import Protocol, runtime_checkable

from mcp_touchstone.serde_json import JSON, canonical, from_str

__all__ = [
    "DEFAULT_STORE_CAPACITY",
    "InMemoryRequestStateStore",
    "RequestStateStore",
    "Reservation",
    "StoredResponse",
]

DEFAULT_STORE_CAPACITY = 10_000
"""How many final responses the in-memory store keeps before evicting the least recently used."""


@dataclass(frozen=True, slots=True)
class StoredResponse:
    """An immutable JSON-RPC response, held as canonical JSON text (its id is not significant)."""

    text: str

    @staticmethod
    def of(response: JSON) -> StoredResponse:
        """Freeze a JSON-RPC response object."""
        return StoredResponse(canonical(response))

    def to_json(self) -> JSON:
        """A fresh copy of the response as stored (the id of the request that produced it)."""
        return from_str(self.text)

    def with_id(self, request_id: JSON) -> JSON:
        """The replay: the stored response with only ``id`` replaced (MRTR-STORE-5)."""
        response = self.to_json()
        if isinstance(response, dict):
            response["id"] = request_id
        return response


@runtime_checkable
class Reservation(Protocol):
    """A held per-key lock: acquired on enter, released on exit."""

    def __enter__(self) -> object: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


@runtime_checkable
class RequestStateStore(Protocol):
    """Where committed final responses are cached (see the module docstring for the contract)."""

    def get(self, key: str, now: int) -> StoredResponse | None:
        """The live entry under ``key`` (``exp > now``), removing an expired one."""
        ...

    def put(self, key: str, response: StoredResponse, exp: int) -> None:
        """Store ``response`` under ``key`` until ``exp``."""
        ...

    def reserve(self, key: str) -> Reservation:
        """The per-key lock held across get -> run -> put."""
        ...


class _KeyLock:
    """A reservation on one key of an :class:`InMemoryRequestStateStore`."""

    __slots__ = ("_key", "_lock", "_store")

    def __init__(self, store: InMemoryRequestStateStore, key: str) -> None:
        self._store = store
        self._key = key
        self._lock: threading.Lock | None = None

    def __enter__(self) -> _KeyLock:
        self._lock = self._store._acquire(self._key)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._lock is not None:
            self._store._release(self._key, self._lock)
            self._lock = None


class InMemoryRequestStateStore:
    """The default store: per process, thread-safe, bounded by ``capacity`` with LRU eviction.

    Mirrors neva's ``InMemoryStateStore`` otherwise: ``get`` hits only while ``exp > now`` and
    removes an expired entry it finds; each ``put`` first sweeps every expired entry (against the
    ``exp`` being written's clock, see :meth:`put`) and every reservation lock nobody holds.
    """

    def __init__(self, capacity: int = DEFAULT_STORE_CAPACITY) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self._entries: OrderedDict[str, tuple[StoredResponse, int]] = OrderedDict()
        self._mutex = threading.Lock()
        # key -> (lock, number of holders and waiters); an entry with count 0 is idle.
        self._locks: dict[str, tuple[threading.Lock, int]] = {}
        self._now = 0

    # ------------------------------------------------------------------ protocol
    def get(self, key: str, now: int) -> StoredResponse | None:
        """The entry under ``key`` when ``exp > now``; an expired entry is removed."""
        with self._mutex:
            self._now = max(self._now, now)
            entry = self._entries.get(key)
            if entry is None:
                return None
            response, exp = entry
            if exp > now:
                self._entries.move_to_end(key)
                return response
            del self._entries[key]
            return None

    def put(self, key: str, response: StoredResponse, exp: int, now: int | None = None) -> None:
        """Store ``response`` under ``key`` until ``exp``.

        Before storing, entries with ``exp <= now`` are swept (``now`` defaults to the latest
        clock this store was shown by a ``get`` or ``put``, since the protocol's ``put`` carries
        none), idle reservation locks are dropped, and then, if the store is full, the least
        recently used entries are evicted.
        """
        with self._mutex:
            if now is not None:
                self._now = max(self._now, now)
            clock = self._now
            for stale in [k for k, (_, e) in self._entries.items() if e <= clock]:
                del self._entries[stale]
            for idle in [k for k, (_, n) in self._locks.items() if n == 0]:
                del self._locks[idle]
            self._entries.pop(key, None)
            while len(self._entries) >= self.capacity:
                self._entries.popitem(last=False)
            self._entries[key] = (response, exp)

    def reserve(self, key: str) -> Reservation:
        """A reservation on ``key``; enter it to acquire, exit to release."""
        return _KeyLock(self, key)

    # ------------------------------------------------------------------ inspection
    def __len__(self) -> int:
        with self._mutex:
            return len(self._entries)

    def __contains__(self, key: object) -> bool:
        with self._mutex:
            return key in self._entries

    def items(self) -> Iterator[tuple[str, StoredResponse, int]]:
        """A snapshot of every entry as ``(key, response, exp)``, least recently used first."""
        with self._mutex:
            snapshot = [(k, r, e) for k, (r, e) in self._entries.items()]
        return iter(snapshot)

    def lock_count(self) -> int:
        """How many reservation locks the store currently keeps (held, awaited or idle)."""
        with self._mutex:
            return len(self._locks)

    def load(self, key: str, response: StoredResponse, exp: int) -> None:
        """Insert an entry as it stood before a round, with no sweep (the harness's seeding)."""
        with self._mutex:
            self._entries[key] = (response, exp)
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)

    # ------------------------------------------------------------------ locks
    def _acquire(self, key: str) -> threading.Lock:
        with self._mutex:
            lock, count = self._locks.get(key, (None, 0))
            if lock is None:
                lock = threading.Lock()
            self._locks[key] = (lock, count + 1)
        lock.acquire()
        return lock

    def _release(self, key: str, lock: threading.Lock) -> None:
        lock.release()
        with self._mutex:
            held, count = self._locks.get(key, (lock, 1))
            if held is lock:
                self._locks[key] = (lock, max(count - 1, 0))
