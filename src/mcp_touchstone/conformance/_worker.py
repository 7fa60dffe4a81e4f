"""One implementation process of a run: started, asked ``start``, fed its share of the cases by a
feeder thread and read with a deadline per answer (HARNESS-RUN-1..3), then stopped.

A run has one worker per ``--jobs`` (CONF-JOBS-1).  Each case keeps the ``seq`` it has in the
whole run, so a worker's requests, its answers and every message about them are the ones a
single process would see.  A worker that exits, stalls or breaks the protocol ends the run *at
that case* (:class:`Cutoff`): the cases after it are not read from any worker, exactly as a
single process would never have reached them.
"""

from __future__ import annotations

import contextlib
import subprocess
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO

from mcp_touchstone import serde_json
from mcp_touchstone.conformance._compare import outputs_match
from mcp_touchstone.conformance._process import Lines, Tail, exit_status_of, kill_group
from mcp_touchstone.conformance._results import (
    LineTooLongError,
    NoAnswerError,
    ProtocolError,
    Result,
    Verdict,
)
from mcp_touchstone.conformance._text import clean
from mcp_touchstone.conformance._vectors import Vector
from mcp_touchstone.serde_json import JSON

Case = tuple[int, Vector]
"""A case of the run: its ``seq`` (its position among the vectors sent) and its vector."""


@dataclass(frozen=True, slots=True)
class Share:
    """The cases one worker answers: the vectors sent at ``seqs``.  Cases are made as they are
    iterated, so a run holds no object per case beyond its result (thousands of long-lived
    tuples cost the runner a full garbage collection, about 25 ms, CONF-PERF-2)."""

    sent: Sequence[Vector]
    seqs: range

    def __iter__(self) -> Iterator[Case]:
        sent = self.sent
        for seq in self.seqs:
            yield seq, sent[seq]


@dataclass(frozen=True, slots=True)
class End:
    """Why a worker stopped before its last case: at ``seq``, ``error`` (a
    :class:`NoAnswerError` when it exited or stalled, else the protocol break)."""

    seq: int
    error: ProtocolError
    exit_status: int | None = None


class Cutoff:
    """The first case at which some worker ended the run; no worker reads past it.

    A worker publishes the case it is about to read (``position``) and then checks the cutoff;
    :meth:`end_at` lowers the cutoff and then kills every other worker already past it, so each
    worker either sees the new cutoff or is killed out of its wait (CONF-JOBS-1)."""

    def __init__(self, cases: int) -> None:
        self.seq = cases
        self.workers: list[Worker] = []
        self._lock = threading.Lock()

    def end_at(self, seq: int, worker: Worker) -> None:
        with self._lock:
            self.seq = min(self.seq, seq)
            late = [w for w in self.workers if w is not worker and w.position > self.seq]
        for other in late:
            other.cut = True
            other.kill()


class Worker:
    """One implementation process, in a process group of its own (HARNESS-RUN-3)."""

    def __init__(self, command: Sequence[str], max_line_bytes: int) -> None:
        try:
            self.proc = subprocess.Popen(  # The command is the user's choice.
                list(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,  # Its own process group, killed as a whole at the end.
            )
        except OSError as exc:
            raise ProtocolError(f"cannot start {command[0]}: {exc.strerror}") from None
        self.tail = Tail(self.proc.stderr)
        self.lines = Lines(self.proc, max_line_bytes)
        self.feeder: threading.Thread | None = None
        self.position = -1
        """The seq of the case being read (published before the cutoff is checked)."""
        self.done = 0
        """How many answers have been read (for the progress bar)."""
        self.cut = False
        """Killed because another worker ended the run at an earlier case."""

    def send_start(self) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(b'{"cmd":"start","version":1}\n')
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise ProtocolError("the implementation exited before answering start") from None

    def read_start(self, timeout: float) -> tuple[dict[str, JSON], list[str]]:
        return check_start(_parse(_read_line(self.lines, timeout, "start"), "start"))

    def feed(self, cases: Iterable[Case]) -> None:
        """Write the cases as ``run`` requests on a thread of its own, so that an implementation
        that answers while it reads can never block the reader (HARNESS-RUN-1)."""
        assert self.proc.stdin is not None
        self.feeder = threading.Thread(target=_feed, args=(self.proc.stdin, cases), daemon=True)
        self.feeder.start()

    def answers(
        self,
        cases: Iterable[Case],
        timeout: float,
        cutoff: Cutoff,
        tick: Callable[[int], None] | None = None,
    ) -> tuple[list[Result], End | None]:
        """The results of ``cases`` in order, up to the cutoff, and how the worker ended early."""
        results: list[Result] = []
        lines = self.lines
        for seq, vector in cases:
            self.position = seq
            if seq > cutoff.seq or self.cut:
                return results, None  # Another worker ended the run at an earlier case.
            if tick is not None and self.done % 256 == 0:
                tick(self.done)
            try:
                line = _read_line(lines, timeout, f"case {vector.id}")
            except LineTooLongError as exc:
                results.append(Result(vector, Verdict.ERROR, message=str(exc)))
                self.done += 1
                continue
            except NoAnswerError as exc:
                return results, self._ended(seq, exc, cutoff)
            self.done += 1
            if line == expected_line(vector, seq):
                # The exact text the reference writes for a passing answer: parsing it would
                # give this seq and an output whose canonical form is the expected one
                # (CONF-PERF-1).
                results.append(Result(vector, Verdict.PASS, answer=vector.expected))
                continue
            try:
                response = _parse(line, f"case {vector.id}")
            except ProtocolError as exc:  # Garbage for one case errors that case, not the run.
                results.append(Result(vector, Verdict.ERROR, message=str(exc)))
                continue
            try:
                results.append(_score(vector, seq, response))
            except ProtocolError as exc:  # An answer to another seq, or not a response.
                return results, self._ended(seq, exc, cutoff)
        return results, None

    def _ended(self, seq: int, exc: ProtocolError, cutoff: Cutoff) -> End:
        if self.cut:  # Killed by the cutoff, not an end of its own (its seq is past it).
            return End(seq, exc)
        cutoff.end_at(seq, self)
        status = None
        if isinstance(exc, NoAnswerError) and exc.exited:
            status = exit_status_of(self.proc)
        else:  # It answers nothing more, or broke the protocol: no polite stop.
            self.kill()
        return End(seq, exc, status)

    def kill(self) -> None:
        kill_group(self.proc)

    def stop(self) -> None:
        """End the implementation: ``stop`` when it still reads, else kill it (HARNESS-RUN-1).

        A feeder still blocked writing to an implementation that has stopped reading holds the
        pipe's lock, so writing ``stop`` (or closing the pipe) would block behind it for ever:
        such an implementation is killed instead, which also releases the feeder."""
        proc, feeder = self.proc, self.feeder
        if feeder is not None:
            feeder.join(timeout=1)
        if feeder is not None and feeder.is_alive():
            kill_group(proc)
        else:
            try:
                if proc.stdin is not None and not proc.stdin.closed:
                    proc.stdin.write(b'{"cmd":"stop"}\n')
                    proc.stdin.close()
            except (OSError, ValueError):
                pass
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        kill_group(proc)  # Whatever it started goes too (HARNESS-RUN-3).
        proc.wait()
        if feeder is not None:
            feeder.join(timeout=5)
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None and not (feeder is not None and feeder.is_alive()):
                with contextlib.suppress(OSError, ValueError):
                    pipe.close()


def request_line(seq: int, vector: Vector) -> bytes:
    """The ``run`` request for a case: the input goes out unchanged, object key order included
    (VEC-CASE-1; turbomcp builds serde_json with preserve_order, so order can change answers)."""
    case: dict[str, JSON] = {"operation": vector.operation, "input": vector.input}
    request: dict[str, JSON] = {"cmd": "run", "seq": seq, "case": case}
    return serde_json.to_string_ordered(request).encode("utf-8") + b"\n"


def _feed(stdin: IO[bytes], cases: Iterable[Case]) -> None:
    try:
        for seq, vector in cases:
            stdin.write(request_line(seq, vector))
        stdin.flush()
    except (OSError, ValueError):
        pass  # The implementation died; the reader reports the unanswered cases.


def expected_line(vector: Vector, seq: int) -> bytes:
    """``{"output":<expected, canonical>,"seq":N}``: a passing answer as serde_json writes it."""
    try:
        output = serde_json.canonical(vector.expected)
    except serde_json.JsonError:
        return b""
    return f'{{"output":{output},"seq":{seq}}}'.encode()


def check_start(hello: JSON) -> tuple[dict[str, JSON], list[str]]:
    """The implementation and operations of a start answer, or ProtocolError (HARNESS-MSG-1):
    ``version`` the integer 1, ``implementation`` with string ``name``, ``version`` and
    ``language`` (``homepage`` optional, a string), ``operations`` a list of strings."""
    bad = ProtocolError(f"start answered with {short(hello)}")
    if not isinstance(hello, dict):
        raise bad
    version = hello.get("version")
    if type(version) is not int or version != 1:
        raise bad
    impl, ops = hello.get("implementation"), hello.get("operations")
    if not isinstance(impl, dict) or not isinstance(ops, list):
        raise bad
    if not all(isinstance(impl.get(k), str) for k in ("name", "version", "language")):
        raise bad
    if "homepage" in impl and not isinstance(impl["homepage"], str):
        raise bad
    if not all(isinstance(o, str) for o in ops):
        raise bad
    return impl, [str(o) for o in ops]


def _score(vector: Vector, seq: int, response: JSON) -> Result:
    # seq is echoed unchanged (HARNESS-MSG-2): the integer itself, not true, 0.0 or "0".
    echoed = response.get("seq") if isinstance(response, dict) else None
    if not isinstance(response, dict) or type(echoed) is not int or echoed != seq:
        raise ProtocolError(f"expected the answer to seq {seq}, got {short(response)}")
    # HARNESS-MSG-3: exactly one of output, errored and skipped; the last two are `true`
    # with a string message.
    kinds = [k for k in ("output", "errored", "skipped") if k in response]
    if len(kinds) != 1:
        raise ProtocolError(
            f"answer to seq {seq} must carry exactly one of output, errored, skipped: "
            f"{short(response)}"
        )
    (kind,) = kinds
    if kind != "output":
        message = response.get("message")
        if response[kind] is not True or not isinstance(message, str):
            raise ProtocolError(
                f"answer to seq {seq} needs {kind}: true and a string message: {short(response)}"
            )
        verdict = Verdict.SKIP if kind == "skipped" else Verdict.ERROR
        return Result(vector, verdict, message=message)
    output = response["output"]
    ok = outputs_match(vector.operation, vector.expected, output)
    return Result(vector, Verdict.PASS if ok else Verdict.FAIL, answer=output)


def _read_line(lines: Lines, timeout: float, what: str) -> bytes:
    try:
        line = lines.next(timeout)
    except TimeoutError:
        raise NoAnswerError(f"timed out after {timeout:g}s waiting for {what}") from None
    if line is None:
        raise NoAnswerError(f"the implementation exited before answering {what}", exited=True)
    return line


def _parse(line: bytes, what: str) -> JSON:
    try:
        return serde_json.from_str(line)
    except serde_json.JsonError as exc:
        raise ProtocolError(f"answer to {what} is not JSON ({exc}): {short(line)}") from None


def short(value: object, limit: int = 200) -> str:
    """``value`` for a one-line protocol error message, cut and made safe to print."""
    if isinstance(value, bytes):
        text = value.decode("utf-8", "replace")
    else:
        try:
            text = serde_json.to_string(value)  # type: ignore[arg-type]  # best effort rendering
        except serde_json.JsonError:
            text = repr(value)
    text = text if len(text) <= limit else text[: limit - 3] + "..."
    return clean(text, limit)
