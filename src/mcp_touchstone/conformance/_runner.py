"""The conformance runner: drives an implementation through harness protocol v1 and scores it.

The implementation is a subprocess speaking the line protocol (the built-in reference by default,
started as ``python -m mcp_touchstone harness``); with ``jobs`` > 1, that many processes share the
cases (CONF-JOBS-1).  Each process is a :class:`~mcp_touchstone.conformance._worker.Worker`:
requests are written by a feeder thread while answers are read with a deadline, so a slow or wedged
implementation cannot hang the run; a process that exits or stalls at a case errors that case and
is restarted, within the bounds of :mod:`~mcp_touchstone.conformance._restarts` (CONF-RESTART-1);
it runs in a process group of its own, which is killed when the run ends, so nothing it started
outlives the run; an answer line is capped at :data:`MAX_LINE_BYTES` (HARNESS-RUN-3).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from mcp_touchstone.conformance._process import MAX_LINE_BYTES, STDERR_TAIL_BYTES, Lines
from mcp_touchstone.conformance._restarts import Ledger
from mcp_touchstone.conformance._results import (
    LineTooLongError,
    NoAnswerError,
    ProtocolError,
    Report,
    Result,
    Verdict,
)
from mcp_touchstone.conformance._vectors import Vector
from mcp_touchstone.conformance._worker import End, Share, Start, Worker
from mcp_touchstone.serde_json import JSON

__all__ = [
    "MAX_LINE_BYTES",
    "Implementation",
    "ProtocolError",
    "Report",
    "Result",
    "Verdict",
    "deal",
    "default_command",
    "run_vectors",
]

_Lines = Lines  # The DRT session reads its answers the same way.
_NoAnswerError = NoAnswerError
_LineTooLongError = LineTooLongError

_PROGRESS_EVERY = 0.1
"""Seconds between progress updates while several workers run."""


def default_command() -> list[str]:
    """The built-in reference, run as a harness subprocess with this interpreter."""
    import sys

    return [sys.executable, "-m", "mcp_touchstone", "harness"]


def deal(count: int, jobs: int) -> list[range]:
    """The seqs each of ``jobs`` workers answers: case ``seq`` goes to worker ``seq mod jobs``
    (round robin, as ``--shard`` slices), a fixed function of the count (CONF-JOBS-1)."""
    return [range(w, count, jobs) for w in range(jobs)]


def run_vectors(
    vectors: Sequence[Vector],
    command: Sequence[str],
    *,
    timeout: float = 30.0,
    max_line_bytes: int = MAX_LINE_BYTES,
    progress: Callable[[int, int], None] | None = None,
    jobs: int = 1,
) -> Report:
    """Run ``vectors`` through the implementation started by ``command``; the vectors of an
    operation the implementation does not announce in ``start`` are not sent (CONF-NA-1).
    ``progress(done, total)`` is called as answers arrive.  ``jobs`` processes share the cases
    (CONF-JOBS-1); the report is the one a single process gives."""
    with Implementation(command, jobs=jobs, max_line_bytes=max_line_bytes) as implementation:
        return implementation.run(vectors, timeout=timeout, progress=progress)


class Implementation:
    """The implementation processes of a run (``jobs`` of them at most, CONF-JOBS-1).  The first
    is started and sent ``start`` when this is made, so that its start-up overlaps what the
    caller does before :meth:`run` (``touchstone run`` loads the vectors meanwhile); the others,
    up to one per vector, when :meth:`run` knows the vectors.  Used as a context manager:
    leaving it by an exception (a usage error found after the start, ^C) kills every process,
    so a run that is never made leaves none behind (CONF-PROC-1)."""

    def __init__(
        self, command: Sequence[str], *, jobs: int = 1, max_line_bytes: int = MAX_LINE_BYTES
    ) -> None:
        if jobs < 1:
            raise ValueError("jobs must be at least 1")
        self.command = list(command)
        self.jobs = jobs
        self.max_line_bytes = max_line_bytes
        self.workers: list[Worker] = []
        self._add()

    def _add(self) -> None:
        """One more process, started and sent ``start``."""
        worker = Worker(self.command, self.max_line_bytes)
        self.workers.append(worker)
        worker.send_start()

    def __enter__(self) -> Implementation:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is not None:
            self.abort()

    def abort(self) -> None:
        """Kill every process now: the run is not made, or is over (a signal, a failure)."""
        for w in self.workers:
            w.abort()

    def run(
        self,
        vectors: Sequence[Vector],
        *,
        timeout: float = 30.0,
        progress: Callable[[int, int], None] | None = None,
    ) -> Report:
        """The report of ``vectors`` answered by ``jobs`` processes, never more than there are
        vectors (as :func:`run_vectors`).  Every process has ended when it returns."""
        jobs = max(1, min(self.jobs, len(vectors)))
        workers = self.workers
        threads: list[threading.Thread] = []
        failures: list[BaseException | None] = [None] * jobs
        try:
            while len(workers) < jobs:
                self._add()
            starts = _started(workers, timeout)
            implementation, ops = starts[0]
            if any(s != starts[0] for s in starts[1:]):
                raise ProtocolError(
                    f"the {jobs} implementation processes answered start differently"
                    f" (--jobs {jobs})"
                )
            announced = set(ops)
            sent = [v for v in vectors if v.operation in announced]
            shares = [Share(sent, seqs) for seqs in deal(len(sent), jobs)]
            ledger = Ledger(len(sent))
            ledger.workers = list(workers)
            outcomes: list[tuple[list[Result], End | None]] = [([], None)] * jobs
            for w, share in zip(workers, shares, strict=True):
                w.feed(share)
            if jobs == 1:
                tick = _ticker(progress, sent)
                outcomes[0] = workers[0].answers(shares[0], timeout, ledger, starts[0], tick)
            else:
                threads = _start_threads(
                    workers,
                    shares,
                    timeout,
                    ledger=ledger,
                    outcomes=outcomes,
                    failures=failures,
                    start=starts[0],
                )
                _wait(threads, workers, len(sent), progress)
        except BaseException:  # ^C, SIGTERM, a start that failed: no waiting for a polite stop.
            self.abort()
            raise
        finally:
            try:
                for t in threads:
                    t.join()
                if not threads:
                    for w in workers:
                        w.stop()
            except BaseException:  # A signal while waiting for them: every process goes now.
                self.abort()
                raise
        for failure in failures:
            if failure is not None:  # A reading thread failed: the run could not be made.
                raise failure
        return _merge(
            vectors,
            sent=sent,
            start=(implementation, ops),
            workers=workers,
            outcomes=outcomes,
            ledger=ledger,
        )


def _started(workers: list[Worker], timeout: float) -> list[Start]:
    """Each worker's answer to the ``start`` it was sent when it was made; a process that ends
    before answering is named with its exit status and stderr (CONF-START-1)."""
    starts: list[Start] = []
    for w in workers:
        try:
            starts.append(w.read_start(timeout))
        except NoAnswerError as exc:
            raise w.explained(exc) from None
    return starts


def _ticker(
    progress: Callable[[int, int], None] | None, sent: list[Vector]
) -> Callable[[int], None] | None:
    if progress is None:
        return None
    total = len(sent)
    return lambda done: progress(done, total)


def _start_threads(
    workers: list[Worker],
    shares: list[Share],
    timeout: float,
    *,
    ledger: Ledger,
    outcomes: list[tuple[list[Result], End | None]],
    failures: list[BaseException | None],
    start: tuple[dict[str, JSON], list[str]],
) -> list[threading.Thread]:
    """One reading thread per worker; each stops its worker when its share is read."""

    def read(index: int) -> None:
        worker = workers[index]
        try:
            outcomes[index] = worker.answers(shares[index], timeout, ledger, start)
        except BaseException as exc:  # Handed to the caller's thread, which raises it.
            failures[index] = exc
            for w in workers:
                w.abort()
        finally:
            worker.stop()

    threads = [threading.Thread(target=read, args=(i,), daemon=True) for i in range(len(workers))]
    for t in threads:
        t.start()
    return threads


def _wait(
    threads: list[threading.Thread],
    workers: list[Worker],
    total: int,
    progress: Callable[[int, int], None] | None,
) -> None:
    """Wait for the reading threads (interruptibly), drawing progress from the workers' counts."""
    for t in threads:
        while t.is_alive():
            t.join(_PROGRESS_EVERY)
            if progress is not None:
                progress(sum(w.done for w in workers), total)


def _merge(
    vectors: Sequence[Vector],
    *,
    sent: list[Vector],
    start: tuple[dict[str, JSON], list[str]],
    workers: list[Worker],
    outcomes: list[tuple[list[Result], End | None]],
    ledger: Ledger,
) -> Report:
    """The workers' results in seq order, up to the first case where the run ended: a protocol
    break there is raised (HARNESS-RUN-2); after a restart bound ran out there, every later case
    is errored with its message (CONF-RESTART-1), as a single process would have left them."""
    implementation, ops = start
    announced = set(ops)
    jobs = len(workers)
    by_seq: list[Result | None] = [None] * len(sent)
    breaks: list[End] = []
    for seqs, (answered_here, end) in zip(deal(len(sent), jobs), outcomes, strict=True):
        for seq, result in zip(seqs, answered_here, strict=False):
            by_seq[seq] = result
        if end is not None:
            breaks.append(end)
    first_break = min(breaks, key=lambda e: e.seq) if breaks else None
    limit = ledger.limit()
    if first_break is not None and (limit is None or first_break.seq < limit[0]):
        raise first_break.error
    last = len(sent) - 1
    if limit is not None:
        last, message = limit
        for s in range(last + 1, len(sent)):
            by_seq[s] = Result(sent[s], Verdict.ERROR, message=message)
    exit_status: int | None = None
    tails = [w.tail.text() for w in workers]
    stderr_tail = "".join(tails)[-STDERR_TAIL_BYTES:] if jobs > 1 else tails[0]
    if (death := ledger.first_death(last)) is not None:
        exit_status, stderr_tail = death.status, death.tail
    answered = iter(by_seq)
    results: list[Result] = []
    for v in vectors:
        if v.operation in announced:
            got = next(answered)
            assert got is not None  # every seq is answered or errored above
            results.append(got)
        else:  # An unannounced operation's vector was not sent: not applicable (CONF-NA-1).
            results.append(
                Result(v, Verdict.NOT_APPLICABLE, message="operation not announced in start")
            )
    return Report(
        implementation=implementation,
        results=tuple(results),
        operations=tuple(ops),
        exit_status=exit_status,
        stderr_tail=stderr_tail,
    )
