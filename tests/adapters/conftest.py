"""Fixtures of the adapter tests: a real Redis server for the whole session."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.adapters._redis import redis_server


@pytest.fixture(scope="session")
def redis_port() -> Iterator[int]:
    """The port of a ``redis-server`` started for this test session on 127.0.0.1."""
    with redis_server() as port:
        yield port


@pytest.fixture
def redis_client(redis_port: int) -> Iterator[Any]:
    """A client of the session's Redis, flushed before and after the test."""
    import redis

    client = redis.Redis(host="127.0.0.1", port=redis_port)
    client.flushall()
    yield client
    client.flushall()
    client.close()


@pytest.fixture
def own_redis() -> Iterator[Any]:
    """A durable ``redis-server`` of this test's own, to kill, restart, stop and continue."""
    from tests.adapters._redis import redis_process

    with redis_process() as server:
        yield server
