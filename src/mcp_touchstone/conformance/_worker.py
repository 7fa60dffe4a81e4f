"""One worker of a run: an implementation process started, asked ``start``, fed its share of the
cases by a feeder thread and read with a deadline per answer (HARNESS-RUN-1..3), then stopped.

A run has one worker per ``--jobs`` (CONF-JOBS-1).  Each case keeps the ``seq`` it has in the
whole run, so a worker's requests, its answers and every message about them are the ones a
single process would see.  A process that exits or stalls at a case errors that case and is
replaced by a fresh one (``start`` again, answered as the first time), which is sent the share's
cases from the next one on (CONF-RESTART-1); the bounds on restarts and a protocol break end the
run *at that case* (:class:`~mcp_touchstone.conformance._restarts.Ledger`): the cases after it
are not read from any worker, exactly as a single process would never have reached them.
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
from mcp_touchstone.conformance._process import (
    Family,
    Lines,
    Tail,
    descendants,
    describe_exit,
    exit_status_of,
    kill_group,
)
from mcp_touchstone.conformance._restarts import Death, Ledger
from mcp_touchstone.conformance._results import (
    LineTooLongError,
    NoAnswerError,
    ProtocolError,
    Result,
    Verdict,
)
from mcp_touchstone.conformance._text import short
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
    """Why a worker stopped before its last case: the protocol break ``error`` at ``seq``."""

    seq: int
    error: ProtocolError


Start = tuple[dict[str, JSON], list[str]]
"""A ``start`` answer's implementation and operations."""


class Worker:
    """One implementation process at a time, each in a process group of its own (HARNESS-RUN-3)."""

    def __init__(self, command: Sequence[str], max_line_bytes: int) -> None:
        self.command = list(command)
        self.max_line_bytes = max_line_bytes
        self.position = -1
        """The seq of the case being read (published before the end is checked)."""
        self.done = 0
        """How many answers have been read (for the progress bar)."""
        self.cut = False
        """Killed because the run ends at an earlier case."""
        self._spawn()

    def _spawn(self) -> None:
        try:
            proc = subprocess.Popen(  # The command is the user's choice.
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,  # Its own process group, killed as a whole at the end.
            )
        except OSError as exc:
            raise ProtocolError(f"cannot start {self.command[0]}: {exc.strerror}") from None
        self.proc = proc
        self.tail = Tail(proc.stderr)
        self.lines = Lines(proc, self.max_line_bytes)
        self.feeder: threading.Thread | None = None
        if self.cut:  # Cut while it started: the kill may have missed this process.
            kill_group(proc)

    def send_start(self) -> None:
        """Ask ``start``; a process already gone is reported by :meth:`read_start`, which finds
        no answer."""
        assert self.proc.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            self.proc.stdin.write(b'{"cmd":"start","version":1}\n')
            self.proc.stdin.flush()

    def read_start(self, timeout: float) -> Start:
        return check_start(_parse(_read_line(self.lines, timeout, "start"), "start"))

    def explained(self, exc: NoAnswerError) -> NoAnswerError:
        """``exc`` (no answer to the first ``start``) with how the process ended: its exit
        status and the end of its stderr, in the message and as attributes (CONF-START-1)."""
        status = exit_status_of(self.proc) if exc.exited else None
        self.kill()
        tail = self.tail.text()
        message = str(exc)
        if status is not None:
            message += f" ({describe_exit(status)})"
        if last := tail.strip()[-_TAIL_IN_MESSAGE:]:
            message += f"; its stderr ends: {last}"
        return NoAnswerError(message, exited=exc.exited, exit_status=status, stderr_tail=tail)

    def feed(self, cases: Iterable[Case]) -> None:
        """Write the cases as ``run`` requests on a thread of its own, so that an implementation
        that answers while it reads can never block the reader (HARNESS-RUN-1)."""
        assert self.proc.stdin is not None
        self.feeder = threading.Thread(target=_feed, args=(self.proc.stdin, cases), daemon=True)
        self.feeder.start()

    def answers(
        self,
        share: Share,
        timeout: float,
        ledger: Ledger,
        start: Start,
        tick: Callable[[int], None] | None = None,
    ) -> tuple[list[Result], End | None]:
        """The results of the share's cases in order, up to the run's end, and the protocol
        break that ended it here, if one did."""
        results: list[Result] = []
        lines = self.lines
        sent = share.sent
        dead = False
        for seq in share.seqs:
            vector = sent[seq]
            self.position = seq
            if seq > ledger.seq or self.cut:
                return results, None  # The run ends at an earlier case.
            if dead:
                try:
                    self._restart(share, seq, timeout, start)
                except NoAnswerError as exc:
                    if self.was_cut():
                        return results, None
                    note = f"restarted for this case, {exc}"
                    results.append(self._died(seq, vector, note, exc.exited, ledger))
                    continue
                except ProtocolError as exc:
                    return results, self._ended(seq, exc, ledger)
                dead = False
                lines = self.lines
            if tick is not None and self.done % 256 == 0:
                tick(self.done)
            try:
                line = _read_line(lines, timeout, f"case {vector.id}")
            except LineTooLongError as exc:
                results.append(Result(vector, Verdict.ERROR, message=str(exc)))
                self.done += 1
                continue
            except NoAnswerError as exc:
                if self.was_cut():  # Killed by the end of the run, not a death of its own.
                    return results, None
                if exc.exited:
                    note = "the implementation exited before answering this case"
                else:
                    note = f"timed out after {timeout:g}s waiting for this case; killed"
                results.append(self._died(seq, vector, note, exc.exited, ledger))
                dead = True
                continue
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
                return results, self._ended(seq, exc, ledger)
        return results, None

    def was_cut(self) -> bool:
        """Whether the run's end killed it (another thread sets :attr:`cut`)."""
        return self.cut

    def _restart(self, share: Share, seq: int, timeout: float, start: Start) -> None:
        """A fresh process, ``start`` answered as the first time, fed the share from ``seq``."""
        self._spawn()
        self.send_start()
        again = self.read_start(timeout)
        if again != start:
            raise ProtocolError(
                "the restarted implementation answered start differently from the first time"
            )
        seqs = share.seqs
        self.feed(Share(share.sent, seqs[seqs.index(seq) :]))

    def _died(self, seq: int, vector: Vector, message: str, exited: bool, ledger: Ledger) -> Result:
        """The process exited or stalled at ``seq``: end it, record the death, error the case
        with its exit status and the end of its stderr (CONF-RESTART-1)."""
        proc = self.proc
        status = exit_status_of(proc) if exited else None
        self._retire()
        tail = self.tail.text()
        if status is not None:
            message += f" ({describe_exit(status)})"
        if last := tail.strip()[-_TAIL_IN_MESSAGE:]:
            message += f"; its stderr ends: {last}"
        ledger.died(seq, Death(status, tail), self)
        return Result(vector, Verdict.ERROR, message=message)

    def _retire(self, family: Family | None = None) -> None:
        """Kill the current process's group and descendants (and ``family``, found while it
        lived), reap it, and let its feeder and pipes go."""
        proc, feeder = self.proc, self.feeder
        kill_group(proc, family)  # A stalled one now; whatever a dead one started, too.
        proc.wait()
        if feeder is not None:
            feeder.join(timeout=5)
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None and not (feeder is not None and feeder.is_alive()):
                with contextlib.suppress(OSError, ValueError):
                    pipe.close()

    def _ended(self, seq: int, exc: ProtocolError, ledger: Ledger) -> End:
        if not self.cut:  # When cut, its seq is past the end: not an end of its own.
            ledger.end_at(seq, self)
        self.kill()  # It broke the protocol: no polite stop.
        return End(seq, exc)

    def kill(self) -> None:
        kill_group(self.proc)

    def abort(self) -> None:
        """The run is over (a signal, a failure elsewhere): mark it cut, so its reader takes
        the kill for the end it is and not for a crash to restart from, and kill it."""
        self.cut = True
        kill_group(self.proc)

    def stop(self) -> None:
        """End the implementation: ``stop`` when it still reads, else kill it (HARNESS-RUN-1).

        A feeder still blocked writing to an implementation that has stopped reading holds the
        pipe's lock, so writing ``stop`` (or closing the pipe) would block behind it for ever:
        such an implementation is killed instead, which also releases the feeder.  Whatever it
        started is found before it is asked to stop, and killed after (CONF-PROC-1); a signal
        during the wait kills it at once."""
        proc, feeder = self.proc, self.feeder
        try:
            family = descendants(proc.pid)
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
        except BaseException:
            self.abort()
            raise
        self._retire(family)  # Whatever it started goes too (HARNESS-RUN-3).


_TAIL_IN_MESSAGE = 300
"""How much of a dead process's stderr its case's message quotes."""


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
