"""The asyncio Redis store's calls, sent as pipelines: every call made in one turn of the event
loop goes to Redis in one write, its replies read in one pass, on one pooled connection
(``spec/adapters.md``, ADAPT-STORE-10).

Under load each final round makes two calls and many rounds make them in the same turn; sent one
by one, each takes a connection from the pool, a write, a wake-up for its reply and a read, which
is most of what the store costs the server's CPU.  Pipelined, the calls are the same commands in
the same order on the connection: each script is atomic in Redis by itself, and a round's second
call is made only after its first has answered, so no guarantee depends on how calls are framed.
A call whose caller stopped waiting (its deadline passed) before its turn is not sent; a pipeline
that fails fails every call in it; and a pipeline is itself bounded by the store's deadline.
"""

from __future__ import annotations

import asyncio
from typing import Any

_Queued = tuple[tuple[Any, ...], asyncio.Future[Any]]


class Pipeliner:
    """Send ``call``\\ s through ``client`` (a ``redis.asyncio.Redis``), one pipeline per turn of
    the event loop, each pipeline bounded by ``deadline`` seconds."""

    def __init__(self, client: Any, deadline: float) -> None:
        self._client = client
        self._deadline = deadline
        self._queued: list[_Queued] = []
        self._sending: set[asyncio.Task[None]] = set()

    def call(self, *command: Any) -> asyncio.Future[Any]:
        """Queue ``command`` for this turn's pipeline; the future answers its reply (a Redis
        error reply, or the pipeline's failure, as the exception)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        if not self._queued:
            loop.call_soon(self._flush)
        self._queued.append((command, future))
        return future

    def _flush(self) -> None:
        batch = [queued for queued in self._queued if not queued[1].done()]
        self._queued = []
        if batch:
            task = asyncio.get_running_loop().create_task(self._send(batch))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)

    async def _send(self, batch: list[_Queued]) -> None:
        pipe = self._client.pipeline(transaction=False)
        for command, _ in batch:
            pipe.execute_command(*command)
        try:
            async with asyncio.timeout(self._deadline):
                replies = await pipe.execute(raise_on_error=False)
        except Exception as exc:
            for _, future in batch:
                if not future.done():
                    future.set_exception(exc)
            return
        except BaseException:
            for _, future in batch:
                future.cancel()
            raise
        for (_, future), reply in zip(batch, replies, strict=True):
            if future.done():
                continue
            if isinstance(reply, Exception):
                future.set_exception(reply)
            else:
                future.set_result(reply)

    def cancel(self) -> None:
        """Cancel the pipelines in flight (their callers see a cancellation)."""
        for task in list(self._sending):
            task.cancel()
        for _, future in self._queued:
            future.cancel()
        self._queued = []
