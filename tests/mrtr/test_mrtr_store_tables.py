"""The final-response store at every expiry edge (``exp == now``, ``now + 1``), its sweep, its
capacity at its edge, its LRU order and its reservation locks (``app/mrtr_store.rs``
``InMemoryStateStore``, MRTR-STORE-*); expectations written by hand."""

from __future__ import annotations

import threading
import time

import pytest

from mcp_touchstone.mrtr._store import (
    DEFAULT_STORE_CAPACITY,
    InMemoryRequestStateStore,
    StoredResponse,
)

R1 = StoredResponse('{"id":1,"jsonrpc":"2.0","result":{"a":1}}')
R2 = StoredResponse('{"id":2,"jsonrpc":"2.0","result":{"b":2}}')


def keys(store: InMemoryRequestStateStore) -> list[tuple[str, int]]:
    """The store's (key, exp) pairs, least recently used first."""
    return [(k, e) for k, _, e in store.items()]


@pytest.mark.parametrize(
    ("exp", "now", "hit"),
    [(11, 10, True), (10, 10, False), (9, 10, False), (1, 0, True), (0, 0, False)],
)
def test_get_hits_only_while_exp_is_after_now(exp: int, now: int, hit: bool) -> None:
    """MRTR-STORE-2: a hit needs exp > now; an entry with exp <= now is removed and missed."""
    store = InMemoryRequestStateStore()
    store.load("t", R1, exp)
    assert store.get("t", now) == (R1 if hit else None)
    assert ("t" in store) is hit
    assert len(store) == (1 if hit else 0)


def test_get_of_an_absent_key_changes_nothing() -> None:
    """MRTR-STORE-2: a miss on another key leaves every entry in place."""
    store = InMemoryRequestStateStore()
    store.load("t", R1, 5)
    assert store.get("u", 100) is None
    assert keys(store) == [("t", 5)]


@pytest.mark.parametrize(("exp", "kept"), [(9, False), (10, False), (11, True), (12, True)])
def test_put_sweeps_entries_expired_at_the_clock(exp: int, kept: bool) -> None:
    """MRTR-STORE-3: each put first removes every entry with exp <= now (neva's retain)."""
    store = InMemoryRequestStateStore()
    store.load("old", R1, exp)
    store.put("new", R2, 100, now=10)
    assert keys(store) == ([("old", exp)] if kept else []) + [("new", 100)]


def test_put_sweeps_at_the_latest_clock_shown() -> None:
    """MRTR-STORE-3: without its own now, put sweeps at the latest clock a get or put showed."""
    store = InMemoryRequestStateStore()
    store.load("a", R1, 10)
    store.load("b", R1, 11)
    assert store.get("zz", 10) is None
    assert store.get("zz", 3) is None  # an earlier clock never winds the store's back
    store.put("c", R2, 50)
    assert keys(store) == [("b", 11), ("c", 50)]
    store.put("d", R2, 60, now=5)  # an earlier now does not wind it back either
    assert keys(store) == [("b", 11), ("c", 50), ("d", 60)]
    store.put("e", R2, 70, now=11)
    assert keys(store) == [("c", 50), ("d", 60), ("e", 70)]


def test_a_fresh_store_sweeps_nothing_live() -> None:
    """MRTR-STORE-3: a store never shown a clock sweeps at 0: only exp <= 0 goes."""
    store = InMemoryRequestStateStore()
    store.load("zero", R1, 0)
    store.load("one", R1, 1)
    store.put("x", R2, 5)
    assert keys(store) == [("one", 1), ("x", 5)]


def test_put_replaces_and_renews_an_entry() -> None:
    """MRTR-STORE-3: a put under a stored key replaces it and makes it the most recent."""
    store = InMemoryRequestStateStore()
    store.put("a", R1, 10)
    store.put("b", R1, 10)
    store.put("a", R2, 20)
    assert keys(store) == [("b", 10), ("a", 20)]
    assert store.get("a", 0) == R2


def test_capacity_bounds() -> None:
    """MRTR-STORE-6: capacity 1 is the least allowed; the default keeps 10,000."""
    assert DEFAULT_STORE_CAPACITY == 10_000
    assert InMemoryRequestStateStore().capacity == 10_000
    assert InMemoryRequestStateStore(1).capacity == 1
    for bad in (0, -1):
        with pytest.raises(ValueError, match=r"^capacity must be at least 1$"):
            InMemoryRequestStateStore(bad)


def test_put_at_capacity_evicts_the_least_recent() -> None:
    """MRTR-STORE-6: a put into a full store evicts exactly the least recently used entry."""
    store = InMemoryRequestStateStore(2)
    store.put("a", R1, 10)
    store.put("b", R1, 10)
    assert keys(store) == [("a", 10), ("b", 10)]  # exactly at capacity: nothing evicted
    assert store.get("a", 0) == R1  # a hit is a use
    store.put("c", R1, 10)
    assert keys(store) == [("a", 10), ("c", 10)]
    store.put("c", R2, 11)  # a replace in a full store evicts nothing else
    assert keys(store) == [("a", 10), ("c", 11)]


def test_capacity_one_keeps_the_latest() -> None:
    """MRTR-STORE-6: with capacity 1 every put of a new key evicts the one entry."""
    store = InMemoryRequestStateStore(1)
    store.put("a", R1, 10)
    store.put("b", R2, 10)
    assert keys(store) == [("b", 10)]


def test_a_miss_is_not_a_use() -> None:
    """MRTR-STORE-6: an expired get removes its entry and renews nothing else."""
    store = InMemoryRequestStateStore(2)
    store.load("a", R1, 100)
    store.load("b", R1, 5)
    assert store.get("b", 5) is None
    store.put("c", R1, 100, now=5)
    store.put("d", R1, 100, now=5)
    assert keys(store) == [("c", 100), ("d", 100)]


def test_load_does_not_sweep_but_respects_capacity() -> None:
    """MRTR-STORE-6: seeding keeps expired entries and drops the oldest beyond capacity."""
    store = InMemoryRequestStateStore(2)
    store.load("a", R1, 0)
    store.load("b", R1, 0)
    assert keys(store) == [("a", 0), ("b", 0)]
    store.load("c", R1, 0)
    assert keys(store) == [("b", 0), ("c", 0)]


def test_items_is_a_snapshot() -> None:
    """MRTR-STORE-1: items() does not change with the store after it is taken."""
    store = InMemoryRequestStateStore()
    store.put("a", R1, 10)
    snap = store.items()
    store.put("b", R2, 10)
    assert list(snap) == [("a", R1, 10)]


def test_reservation_locks_are_counted_and_swept_when_idle() -> None:
    """MRTR-STORE-4: a held lock survives a put's sweep; a released one is dropped by it."""
    store = InMemoryRequestStateStore()
    assert store.lock_count() == 0
    outer = store.reserve("k")
    assert store.lock_count() == 0  # reserving takes nothing until entered
    with outer:
        assert store.lock_count() == 1
        store.put("x", R1, 10)
        assert store.lock_count() == 1
        with store.reserve("other"):
            assert store.lock_count() == 2
    assert store.lock_count() == 2  # released, kept until the next put
    store.put("y", R1, 10)
    assert store.lock_count() == 0


def test_a_reservation_can_be_entered_again_after_exit() -> None:
    """MRTR-STORE-4: exit releases, so the same key reserves again without blocking."""
    store = InMemoryRequestStateStore()
    lock = store.reserve("k")
    with lock:
        pass
    lock.__exit__(None, None, None)  # a second exit is a no-op
    with lock as held:  # entering answers the reservation itself (the `as` target)
        assert held is lock
    with store.reserve("k"), store.reserve("j"):
        assert store.lock_count() == 2


def test_stored_response_freezes_canonical_text() -> None:
    """MRTR-STORE-5: of() keeps sorted compact JSON; with_id replaces the id and nothing else."""
    stored = StoredResponse.of({"result": {"z": 1, "a": [1, 2]}, "jsonrpc": "2.0", "id": 7})
    assert stored.text == '{"id":7,"jsonrpc":"2.0","result":{"a":[1,2],"z":1}}'
    assert stored.with_id("s") == {"id": "s", "jsonrpc": "2.0", "result": {"a": [1, 2], "z": 1}}
    assert stored.with_id(None) == {"id": None, "jsonrpc": "2.0", "result": {"a": [1, 2], "z": 1}}
    first = stored.to_json()
    assert isinstance(first, dict)
    first["id"] = 99
    assert stored.to_json() == {"id": 7, "jsonrpc": "2.0", "result": {"a": [1, 2], "z": 1}}
    assert StoredResponse.of([1]).with_id(5) == [1]


def test_a_waiting_holder_keeps_its_lock_through_a_sweep() -> None:
    """MRTR-STORE-4: a lock with a holder waiting on it is not idle: a put keeps it."""
    store = InMemoryRequestStateStore()
    first = store.reserve("k")
    first.__enter__()
    seen: list[int] = []

    def second() -> None:
        with store.reserve("k"):
            store.put("x", R1, 10)  # swept while this holder has the lock: kept
            seen.append(store.lock_count())

    worker = threading.Thread(target=second)
    worker.start()
    deadline = time.monotonic() + 5
    while not _waiting(store, "k") and time.monotonic() < deadline:
        time.sleep(0.001)
    assert _waiting(store, "k")
    first.__exit__(None, None, None)
    worker.join()
    assert seen == [1]
    assert store.lock_count() == 1  # released by both, idle until the next put
    store.put("y", R1, 10)
    assert store.lock_count() == 0


def _waiting(store: InMemoryRequestStateStore, key: str) -> bool:
    """Whether two parties (a holder and a waiter) are registered on ``key``'s lock."""
    return store._locks.get(key, (None, 0))[1] == 2  # the count is the subject
