"""The conformance runner: drives an implementation through harness protocol v1 and scores it.

The implementation is a subprocess speaking the line protocol (the built-in reference by default,
started as ``python -m mcp_touchstone harness``); with ``jobs`` > 1, that many processes share the
cases (CONF-JOBS-1).  Each process is a :class:`~mcp_touchstone.conformance._worker.Worker`:
requests are written by a feeder thread while answers are read with a deadline, so a slow or wedged
implementation cannot hang the run; it runs in a process group of its own, which is killed when
the run ends, so nothing it started outlives the run; an answer line is capped at
:data:`MAX_LINE_BYTES` (HARNESS-RUN-3).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from mcp_touchstone.conformance._process import MAX_LINE_BYTES, STDERR_TAIL_BYTES, Lines
from mcp_touchstone.conformance._results import (
    LineTooLongError,
    NoAnswerError,
    ProtocolError,
    Report,
    Result,
    Verdict,
)
from mcp_touchstone.conformance._vectors import Vector
from mcp_touchstone.conformance._worker import Cutoff, End, Share, Worker
from mcp_touchstone.serde_json import JSON

__all__ = [
    "MAX_LINE_BYTES",
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
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    jobs = max(1, min(jobs, len(vectors)))
    workers: list[Worker] = []
    threads: list[threading.Thread] = []
    failures: list[BaseException | None] = [None] * jobs
    try:
        for _ in range(jobs):
            workers.append(Worker(command, max_line_bytes))
        for w in workers:
            w.send_start()
        starts = [w.read_start(timeout) for w in workers]
        implementation, ops = starts[0]
        if any(s != starts[0] for s in starts[1:]):
            raise ProtocolError(
                f"the {jobs} implementation processes answered start differently (--jobs {jobs})"
            )
        announced = set(ops)
        sent = [v for v in vectors if v.operation in announced]
        shares = [Share(sent, seqs) for seqs in deal(len(sent), jobs)]
        cutoff = Cutoff(len(sent))
        cutoff.workers = workers
        outcomes: list[tuple[list[Result], End | None]] = [([], None)] * jobs
        for w, share in zip(workers, shares, strict=True):
            w.feed(share)
        if jobs == 1:
            outcomes[0] = workers[0].answers(shares[0], timeout, cutoff, _ticker(progress, sent))
        else:
            threads = _start_threads(
                workers, shares, timeout, cutoff=cutoff, outcomes=outcomes, failures=failures
            )
            _wait(threads, workers, len(sent), progress)
    except BaseException:  # ^C, SIGTERM, a start that failed: no waiting for a polite stop.
        for w in workers:
            w.kill()
        raise
    finally:
        for t in threads:
            t.join()
        if not threads:
            for w in workers:
                w.stop()
    for failure in failures:
        if failure is not None:  # A reading thread failed: the run could not be made.
            raise failure
    return _merge(
        vectors, sent=sent, start=(implementation, ops), workers=workers, outcomes=outcomes
    )


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
    cutoff: Cutoff,
    outcomes: list[tuple[list[Result], End | None]],
    failures: list[BaseException | None],
) -> list[threading.Thread]:
    """One reading thread per worker; each stops its worker when its share is read."""

    def read(index: int) -> None:
        worker = workers[index]
        try:
            outcomes[index] = worker.answers(shares[index], timeout, cutoff)
        except BaseException as exc:  # Handed to the caller's thread, which raises it.
            failures[index] = exc
            for w in workers:
                w.kill()
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
) -> Report:
    """The workers' results in seq order, cut at the first case where one ended the run: from
    there on every case is errored with that worker's message, as a single process would have
    left them; a protocol break there is raised (HARNESS-RUN-2)."""
    implementation, ops = start
    announced = set(ops)
    jobs = len(workers)
    by_seq: list[Result | None] = [None] * len(sent)
    ends: list[tuple[End, Worker]] = []
    for index, (seqs, (answered_here, end)) in enumerate(
        zip(deal(len(sent), jobs), outcomes, strict=True)
    ):
        for seq, result in zip(seqs, answered_here, strict=False):
            by_seq[seq] = result
        if end is not None:
            ends.append((end, workers[index]))
    exit_status: int | None = None
    tails = [w.tail.text() for w in workers]
    stderr_tail = "".join(tails)[-STDERR_TAIL_BYTES:] if jobs > 1 else tails[0]
    if ends:
        first, ender = min(ends, key=lambda e: e[0].seq)
        if not isinstance(first.error, NoAnswerError):
            raise first.error
        message = str(first.error)
        for s in range(first.seq, len(sent)):
            by_seq[s] = Result(sent[s], Verdict.ERROR, message=message)
        exit_status = first.exit_status
        stderr_tail = ender.tail.text()
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
