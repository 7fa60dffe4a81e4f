"""The conformance runner: drives an implementation through harness protocol v1 and scores it.

The implementation is a subprocess speaking the line protocol (the built-in reference by default,
started as ``python -m mcp_touchstone harness``).  Requests are written by a feeder thread while
responses are read with a deadline, so a slow or wedged implementation cannot hang the run.  The
implementation runs in a process group of its own, which is killed when the run ends, so nothing it
started outlives the run; an answer line is capped at :data:`MAX_LINE_BYTES` (HARNESS-RUN-3).

Over 400 lines: the runner and its text report still share this module while report formats are
reworked on the suite branch; the report half moves out with that work.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import IO

from mcp_touchstone import serde_json
from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone.conformance._compare import outputs_match
from mcp_touchstone.conformance._process import Tail, exit_status_of, kill_group
from mcp_touchstone.conformance._text import clean
from mcp_touchstone.conformance._vectors import Vector
from mcp_touchstone.serde_json import JSON

MAX_LINE_BYTES = 64 << 20
"""The longest answer line the runner reads (64 MiB); a longer one errors its case."""


class Verdict(Enum):
    """The outcome of one vector."""

    PASS = "pass"
    FAIL = "fail"
    SKIP = "skip"
    ERROR = "error"
    NOT_APPLICABLE = "not_applicable"
    """The implementation did not announce the vector's operation in ``start``: not sent, shown,
    not counted against it (CONF-NA-1)."""


@dataclass(frozen=True, slots=True)
class Result:
    """One vector's verdict, with what the implementation answered."""

    vector: Vector
    verdict: Verdict
    answer: JSON = None
    message: str = ""


@dataclass(frozen=True, slots=True)
class Report:
    """A whole run: the implementation's self-description and every vector's result."""

    implementation: dict[str, JSON]
    results: tuple[Result, ...]
    operations: tuple[str, ...] = field(default=())
    exit_status: int | None = None
    """How the implementation ended when it exited before answering every case."""
    stderr_tail: str = ""
    """The end of the implementation's stderr (at most :data:`STDERR_TAIL_BYTES`)."""

    def counts(self) -> dict[str, dict[Verdict, int]]:
        """Verdict counts per semantic, semantics in name order."""
        table: dict[str, dict[Verdict, int]] = {}
        for r in self.results:
            row = table.setdefault(r.vector.semantic, dict.fromkeys(Verdict, 0))
            row[r.verdict] += 1
        return dict(sorted(table.items()))

    @property
    def conformant(self) -> bool:
        """True when every vector passed: a skip is never a pass (VEC-REPORT-1)."""
        return all(r.verdict in (Verdict.PASS, Verdict.NOT_APPLICABLE) for r in self.results)


class ProtocolError(TouchstoneError, RuntimeError):
    """The implementation did not start or broke the harness protocol."""


class _NoAnswerError(ProtocolError):
    """The implementation exited or stalled before answering: its open cases are errored."""

    def __init__(self, message: str, *, exited: bool = False) -> None:
        super().__init__(message)
        self.exited = exited


class _LineTooLongError(TouchstoneError):
    """An answer line longer than the cap: its case is errored and the line skipped."""

    def __init__(self, cap: int) -> None:
        super().__init__(f"the answer line is longer than {cap} bytes (the runner's cap)")


def default_command() -> list[str]:
    """The built-in reference, run as a harness subprocess with this interpreter."""
    return [sys.executable, "-m", "mcp_touchstone", "harness"]


class _Lines:
    """Read ``\\n``-terminated lines from a pipe with a deadline per line and a length cap."""

    def __init__(self, proc: subprocess.Popen[bytes], max_line: int = MAX_LINE_BYTES) -> None:
        assert proc.stdout is not None
        self._fd = proc.stdout.fileno()
        self._sel = selectors.DefaultSelector()
        self._sel.register(self._fd, selectors.EVENT_READ)
        self._buf = bytearray()
        self._max = max_line
        self._skipping = False  # Inside an over-long line: drop bytes up to its newline.

    def next(self, timeout: float) -> bytes | None:
        """The next line, or ``None`` at end of output; raise TimeoutError past ``timeout`` and
        _LineTooLongError for a line longer than the cap (never holding more than the cap)."""
        deadline = time.monotonic() + timeout
        scanned = 0  # Only new bytes are searched, so a long line costs linear time.
        while True:
            end = self._buf.find(b"\n", scanned)
            if end >= 0 and self._skipping:
                del self._buf[: end + 1]
                self._skipping = False
                scanned = 0
                continue
            if end >= 0:
                line = bytes(self._buf[:end])
                del self._buf[: end + 1]
                if len(line) > self._max:
                    raise _LineTooLongError(self._max)
                return line
            if self._skipping:
                self._buf.clear()
            elif len(self._buf) > self._max:
                self._buf.clear()
                self._skipping = True
                raise _LineTooLongError(self._max)
            scanned = len(self._buf)
            left = deadline - time.monotonic()
            if left <= 0 or not self._sel.select(left):
                raise TimeoutError
            chunk = os.read(self._fd, 1 << 16)
            if not chunk:
                return None
            self._buf += chunk


def _check_start(hello: JSON) -> tuple[dict[str, JSON], list[str]]:
    """The implementation and operations of a start answer, or ProtocolError (HARNESS-MSG-1):
    ``version`` the integer 1, ``implementation`` with string ``name``, ``version`` and
    ``language`` (``homepage`` optional, a string), ``operations`` a list of strings."""
    bad = ProtocolError(f"start answered with {_short(hello)}")
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


def run_vectors(
    vectors: Sequence[Vector],
    command: Sequence[str],
    *,
    timeout: float = 30.0,
    max_line_bytes: int = MAX_LINE_BYTES,
    progress: Callable[[int, int], None] | None = None,
) -> Report:
    """Run ``vectors`` through the implementation started by ``command``; the vectors of an
    operation the implementation does not announce in ``start`` are not sent (CONF-NA-1).
    ``progress(done, total)`` is called as answers arrive."""
    try:
        proc = subprocess.Popen(  # The command is the user's choice.
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # Its own process group, killed as a whole at the end.
        )
    except OSError as exc:
        raise ProtocolError(f"cannot start {command[0]}: {exc.strerror}") from None
    assert proc.stdin is not None
    tail = Tail(proc.stderr)
    lines = _Lines(proc, max_line_bytes)
    feeder: threading.Thread | None = None
    exit_status: int | None = None
    try:
        proc.stdin.write(b'{"cmd":"start","version":1}\n')
        proc.stdin.flush()
        implementation, ops = _check_start(_read_json(lines, timeout, "start"))
        announced = set(ops)
        sent = [v for v in vectors if v.operation in announced]
        feeder = _start_feeder(proc.stdin, sent)
        answers, ended = _read_answers(lines, sent, timeout, progress)
        answered = iter(answers)
        results = [
            next(answered)
            if v.operation in announced
            # An unannounced operation's vector was not sent: not applicable (CONF-NA-1).
            else Result(v, Verdict.NOT_APPLICABLE, message="operation not announced in start")
            for v in vectors
        ]
        if ended == "exited":
            exit_status = exit_status_of(proc)
        elif ended == "stalled":  # It answers nothing more: no polite stop (HARNESS-RUN-3).
            kill_group(proc)
    except BrokenPipeError:
        raise ProtocolError("the implementation exited before answering start") from None
    except BaseException:  # ^C, SIGTERM, a protocol break: no waiting for a polite stop.
        kill_group(proc)
        raise
    finally:
        _stop(proc, feeder)
    return Report(
        implementation=implementation,
        results=tuple(results),
        operations=tuple(ops),
        exit_status=exit_status,
        stderr_tail=tail.text(),
    )


def _start_feeder(stdin: IO[bytes], vectors: Sequence[Vector]) -> threading.Thread:
    """Write every vector as a ``run`` request on a thread of its own, so that an implementation
    that answers while it reads can never block the reader (HARNESS-RUN-1)."""

    def feed() -> None:
        try:
            for seq, v in enumerate(vectors):
                case: dict[str, JSON] = {"operation": v.operation, "input": v.input}
                request: dict[str, JSON] = {"cmd": "run", "seq": seq, "case": case}
                # VEC-CASE-1: the input goes out unchanged, object key order included
                # (turbomcp builds serde_json with preserve_order; order can change answers).
                line = serde_json.to_string_ordered(request)
                stdin.write(line.encode("utf-8") + b"\n")
            stdin.flush()
        except (OSError, ValueError):
            pass  # The implementation died; the reader reports the unanswered cases.

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    return feeder


def _read_answers(
    lines: _Lines,
    vectors: Sequence[Vector],
    timeout: float,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[Result], str]:
    """Every vector's result, and ``"exited"`` or ``"stalled"`` when the implementation exited or
    timed out before answering them all (else ``""``)."""
    results: list[Result] = []
    for seq, vector in enumerate(vectors):
        if progress is not None and seq % 256 == 0:
            progress(seq, len(vectors))
        try:
            line = _read_line(lines, timeout, f"case {vector.id}")
        except _LineTooLongError as exc:
            results.append(Result(vector, Verdict.ERROR, message=str(exc)))
            continue
        except _NoAnswerError as exc:
            results.extend(Result(v, Verdict.ERROR, message=str(exc)) for v in vectors[seq:])
            return results, "exited" if exc.exited else "stalled"
        if line == _expected_line(vector, seq):
            # The exact text the reference writes for a passing answer: parsing it would give
            # this seq and an output whose canonical form is the expected one (CONF-PERF-1).
            results.append(Result(vector, Verdict.PASS, answer=vector.expected))
            continue
        try:
            response = _parse(line, f"case {vector.id}")
        except ProtocolError as exc:  # Garbage for one case errors that case, not the run.
            results.append(Result(vector, Verdict.ERROR, message=str(exc)))
            continue
        results.append(_score(vector, seq, response))
    return results, ""


def _expected_line(vector: Vector, seq: int) -> bytes:
    """``{"output":<expected, canonical>,"seq":N}``: a passing answer as serde_json writes it."""
    try:
        output = serde_json.canonical(vector.expected)
    except serde_json.JsonError:
        return b""
    return b'{"output":' + output.encode("utf-8") + b',"seq":' + str(seq).encode() + b"}"


def _score(vector: Vector, seq: int, response: JSON) -> Result:
    # seq is echoed unchanged (HARNESS-MSG-2): the integer itself, not true, 0.0 or "0".
    echoed = response.get("seq") if isinstance(response, dict) else None
    if not isinstance(response, dict) or type(echoed) is not int or echoed != seq:
        raise ProtocolError(f"expected the answer to seq {seq}, got {_short(response)}")
    # HARNESS-MSG-3: exactly one of output, errored and skipped; the last two are `true`
    # with a string message.
    kinds = [k for k in ("output", "errored", "skipped") if k in response]
    if len(kinds) != 1:
        raise ProtocolError(
            f"answer to seq {seq} must carry exactly one of output, errored, skipped: "
            f"{_short(response)}"
        )
    (kind,) = kinds
    if kind != "output":
        message = response.get("message")
        if response[kind] is not True or not isinstance(message, str):
            raise ProtocolError(
                f"answer to seq {seq} needs {kind}: true and a string message: {_short(response)}"
            )
        verdict = Verdict.SKIP if kind == "skipped" else Verdict.ERROR
        return Result(vector, verdict, message=message)
    output = response["output"]
    ok = outputs_match(vector.operation, vector.expected, output)
    return Result(vector, Verdict.PASS if ok else Verdict.FAIL, answer=output)


def _read_json(lines: _Lines, timeout: float, what: str) -> JSON:
    return _parse(_read_line(lines, timeout, what), what)


def _read_line(lines: _Lines, timeout: float, what: str) -> bytes:
    try:
        line = lines.next(timeout)
    except TimeoutError:
        raise _NoAnswerError(f"timed out after {timeout:g}s waiting for {what}") from None
    if line is None:
        raise _NoAnswerError(f"the implementation exited before answering {what}", exited=True)
    return line


def _parse(line: bytes, what: str) -> JSON:
    try:
        return serde_json.from_str(line)
    except serde_json.JsonError as exc:
        raise ProtocolError(f"answer to {what} is not JSON ({exc}): {_short(line)}") from None


def _stop(proc: subprocess.Popen[bytes], feeder: threading.Thread | None) -> None:
    """End the implementation: ``stop`` when it still reads, else kill it (HARNESS-RUN-1).

    A feeder still blocked writing to an implementation that has stopped reading holds the pipe's
    lock, so writing ``stop`` (or closing the pipe) would block behind it for ever: such an
    implementation is killed instead, which also releases the feeder."""
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


def _short(value: object, limit: int = 200) -> str:
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
