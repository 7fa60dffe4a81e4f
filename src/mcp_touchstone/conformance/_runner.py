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
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import IO

from mcp_touchstone import serde_json
from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone.conformance._compare import outputs_match
from mcp_touchstone.conformance._process import Tail, describe_exit, exit_status_of, kill_group
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
        return all(r.verdict is Verdict.PASS for r in self.results)


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
) -> Report:
    """Run ``vectors`` through the implementation started by ``command``."""
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
        feeder = _start_feeder(proc.stdin, vectors)
        results, ended = _read_answers(lines, vectors, timeout)
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
    lines: _Lines, vectors: Sequence[Vector], timeout: float
) -> tuple[list[Result], str]:
    """Every vector's result, and ``"exited"`` or ``"stalled"`` when the implementation exited or
    timed out before answering them all (else ``""``)."""
    results: list[Result] = []
    for seq, vector in enumerate(vectors):
        try:
            response = _read_json(lines, timeout, f"case {vector.id}")
        except _LineTooLongError as exc:
            results.append(Result(vector, Verdict.ERROR, message=str(exc)))
            continue
        except _NoAnswerError as exc:
            results.extend(Result(v, Verdict.ERROR, message=str(exc)) for v in vectors[seq:])
            return results, "exited" if exc.exited else "stalled"
        results.append(_score(vector, seq, response))
    return results, ""


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
    try:
        line = lines.next(timeout)
    except TimeoutError:
        raise _NoAnswerError(f"timed out after {timeout:g}s waiting for {what}") from None
    if line is None:
        raise _NoAnswerError(f"the implementation exited before answering {what}", exited=True)
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
    if isinstance(value, bytes):
        text = value.decode("utf-8", "replace")
    else:
        try:
            text = serde_json.to_string(value)  # type: ignore[arg-type]  # best effort rendering
        except serde_json.JsonError:
            text = repr(value)
    text = text if len(text) <= limit else text[: limit - 3] + "..."
    return clean(text, limit)


def _groups(results: Sequence[Result]) -> list[list[Result]]:
    """The non-passing results, errored ones with the same message grouped (first-seen order)."""
    groups: list[list[Result]] = []
    by_message: dict[str, list[Result]] = {}
    for r in results:
        if r.verdict is Verdict.PASS:
            continue
        if r.verdict is Verdict.ERROR:
            if r.message in by_message:
                by_message[r.message].append(r)
                continue
            by_message[r.message] = [r]
            groups.append(by_message[r.message])
        else:
            groups.append([r])
    return groups


def render(report: Report, *, vectors_dir: str = "", width: int = 400) -> str:
    """The human-readable report: a table per semantic, then every non-passing vector (errored
    vectors sharing a message as one entry), then how the implementation exited."""
    impl = report.implementation
    name = (
        " ".join(clean(str(impl.get(k, "?")), 100) for k in ("name", "version"))
        + f" ({clean(str(impl.get('language', '?')), 100)})"
    )
    out = ["mcp-touchstone conformance report", f"implementation: {name}"]
    if vectors_dir:
        out.append(f"vectors: {clean(vectors_dir)}")
    out.append("")
    header = f"{'semantic':<12}{'vectors':>9}{'passed':>9}{'failed':>9}{'skipped':>9}{'errored':>9}"
    out += [header, "-" * len(header)]
    total = dict.fromkeys(Verdict, 0)
    for semantic, row in report.counts().items():
        n = sum(row.values())
        out.append(
            f"{semantic:<12}{n:>9}{row[Verdict.PASS]:>9}{row[Verdict.FAIL]:>9}"
            f"{row[Verdict.SKIP]:>9}{row[Verdict.ERROR]:>9}"
        )
        for k in total:
            total[k] += row[k]
    out.append("-" * len(header))
    out.append(
        f"{'total':<12}{sum(total.values()):>9}{total[Verdict.PASS]:>9}{total[Verdict.FAIL]:>9}"
        f"{total[Verdict.SKIP]:>9}{total[Verdict.ERROR]:>9}"
    )
    out.append("")
    out.append(f"conformant: {'yes' if report.conformant else 'no'}")
    for group in _groups(report.results):
        r = group[0]
        out.append("")
        if len(group) > 1:
            ids = ", ".join(g.vector.id for g in group[:10])
            more = f", and {len(group) - 10} more" if len(group) > 10 else ""
            out.append(f"{r.verdict.value.upper()} {len(group)} vectors: {ids}{more}")
            out.append(f"  message:  {clean(r.message)}")
            continue
        out.append(f"{r.verdict.value.upper()} {r.vector.id}  ({r.vector.operation})")
        out.append(f"  why:      {clean(r.vector.comment)}")
        if r.verdict is Verdict.FAIL:
            out.append(f"  expected: {_short(r.vector.expected, width)}")
            out.append(f"  actual:   {_short(r.answer, width)}")
        else:
            out.append(f"  message:  {clean(r.message)}")
    if report.exit_status is not None:
        out.append("")
        out.append(f"the implementation exited early: {describe_exit(report.exit_status)}")
    if report.stderr_tail and any(r.verdict is Verdict.ERROR for r in report.results):
        out.append("")
        out.append("the end of its stderr:")
        out += [f"  | {clean(line, 400)}" for line in report.stderr_tail.splitlines()[-20:]]
    return "\n".join(out)


def to_json(report: Report) -> dict[str, JSON]:
    """The machine-readable report (written by ``touchstone run --report FILE``)."""
    summary: dict[str, JSON] = {
        semantic: {v.value: n for v, n in row.items()} for semantic, row in report.counts().items()
    }
    results: list[JSON] = []
    for r in report.results:
        entry: dict[str, JSON] = {
            "id": r.vector.id,
            "semantic": r.vector.semantic,
            "operation": r.vector.operation,
            "verdict": r.verdict.value,
        }
        if r.verdict is Verdict.FAIL:
            entry["expected"] = r.vector.expected
            entry["actual"] = r.answer
        elif r.verdict is not Verdict.PASS:
            entry["message"] = r.message
        results.append(entry)
    out: dict[str, JSON] = {
        "implementation": report.implementation,
        "conformant": report.conformant,
        "summary": summary,
        "results": results,
    }
    if report.exit_status is not None:
        out["exit_status"] = report.exit_status
    if report.stderr_tail:
        out["stderr_tail"] = report.stderr_tail
    return out
