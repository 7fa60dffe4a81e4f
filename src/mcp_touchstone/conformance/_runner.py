"""The conformance runner: drives an implementation through harness protocol v1 and scores it.

The implementation is a subprocess speaking the line protocol (the built-in reference by default,
started as ``python -m mcp_touchstone harness``).  Requests are written by a feeder thread while
responses are read with a deadline, so a slow or wedged implementation cannot hang the run.
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
from mcp_touchstone.conformance._vectors import Vector
from mcp_touchstone.serde_json import JSON


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


def default_command() -> list[str]:
    """The built-in reference, run as a harness subprocess with this interpreter."""
    return [sys.executable, "-m", "mcp_touchstone", "harness"]


class _Lines:
    """Read ``\\n``-terminated lines from a pipe with a deadline per line."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdout is not None
        self._fd = proc.stdout.fileno()
        self._sel = selectors.DefaultSelector()
        self._sel.register(self._fd, selectors.EVENT_READ)
        self._buf = bytearray()

    def next(self, timeout: float) -> bytes | None:
        """The next line, or ``None`` at end of output; raise TimeoutError past ``timeout``."""
        deadline = time.monotonic() + timeout
        scanned = 0  # Only new bytes are searched, so a long line costs linear time.
        while (end := self._buf.find(b"\n", scanned)) < 0:
            scanned = len(self._buf)
            left = deadline - time.monotonic()
            if left <= 0 or not self._sel.select(left):
                raise TimeoutError
            chunk = os.read(self._fd, 1 << 16)
            if not chunk:
                return None
            self._buf += chunk
        line = bytes(self._buf[:end])
        del self._buf[: end + 1]
        return line


def run_vectors(
    vectors: Sequence[Vector], command: Sequence[str], *, timeout: float = 30.0
) -> Report:
    """Run ``vectors`` through the implementation started by ``command``."""
    try:
        proc = subprocess.Popen(  # The command is the user's choice.
            list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
    except OSError as exc:
        raise ProtocolError(f"cannot start {command[0]}: {exc.strerror}") from None
    assert proc.stdin is not None
    lines = _Lines(proc)
    feeder: threading.Thread | None = None
    try:
        proc.stdin.write(b'{"cmd":"start","version":1}\n')
        proc.stdin.flush()
        hello = _read_json(lines, timeout, "start")
        version = hello.get("version") if isinstance(hello, dict) else None
        if not isinstance(hello, dict) or type(version) is not int or version != 1:
            raise ProtocolError(f"start answered with {_short(hello)}")
        implementation = hello.get("implementation")
        ops = hello.get("operations")
        feeder = _start_feeder(proc.stdin, vectors)
        results = _read_answers(lines, vectors, timeout)
    except BrokenPipeError:
        raise ProtocolError("the implementation exited before answering start") from None
    finally:
        _stop(proc, feeder)
    return Report(
        implementation=implementation if isinstance(implementation, dict) else {},
        results=tuple(results),
        operations=tuple(o for o in ops if isinstance(o, str)) if isinstance(ops, list) else (),
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


def _read_answers(lines: _Lines, vectors: Sequence[Vector], timeout: float) -> list[Result]:
    results: list[Result] = []
    for seq, vector in enumerate(vectors):
        try:
            response = _read_json(lines, timeout, f"case {vector.id}")
        except _NoAnswerError as exc:
            results.extend(Result(v, Verdict.ERROR, message=str(exc)) for v in vectors[seq:])
            break
        results.append(_score(vector, seq, response))
    return results


def _score(vector: Vector, seq: int, response: JSON) -> Result:
    # seq is echoed unchanged (HARNESS-MSG-2): the integer itself, not true, 0.0 or "0".
    echoed = response.get("seq") if isinstance(response, dict) else None
    if not isinstance(response, dict) or type(echoed) is not int or echoed != seq:
        raise ProtocolError(f"expected the answer to seq {seq}, got {_short(response)}")
    if response.get("skipped") is True:
        return Result(vector, Verdict.SKIP, message=str(response.get("message", "")))
    if response.get("errored") is True:
        return Result(vector, Verdict.ERROR, message=str(response.get("message", "")))
    if "output" not in response:
        raise ProtocolError(f"answer to seq {seq} has no output: {_short(response)}")
    output = response["output"]
    ok = outputs_match(vector.operation, vector.expected, output)
    return Result(vector, Verdict.PASS if ok else Verdict.FAIL, answer=output)


def _read_json(lines: _Lines, timeout: float, what: str) -> JSON:
    try:
        line = lines.next(timeout)
    except TimeoutError:
        raise _NoAnswerError(f"timed out after {timeout:g}s waiting for {what}") from None
    if line is None:
        raise _NoAnswerError(f"the implementation exited before answering {what}")
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
        proc.kill()
    else:
        try:
            if proc.stdin is not None and not proc.stdin.closed:
                proc.stdin.write(b'{"cmd":"stop"}\n')
                proc.stdin.close()
        except (OSError, ValueError):
            pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
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
    return text if len(text) <= limit else text[: limit - 3] + "..."


def render(report: Report, *, vectors_dir: str = "", width: int = 400) -> str:
    """The human-readable report: a table per semantic, then every non-passing vector."""
    impl = report.implementation
    name = f"{impl.get('name', '?')} {impl.get('version', '?')} ({impl.get('language', '?')})"
    out = ["mcp-touchstone conformance report", f"implementation: {name}"]
    if vectors_dir:
        out.append(f"vectors: {vectors_dir}")
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
    bad = [r for r in report.results if r.verdict is not Verdict.PASS]
    for r in bad:
        out.append("")
        out.append(f"{r.verdict.value.upper()} {r.vector.id}  ({r.vector.operation})")
        out.append(f"  why:      {r.vector.comment}")
        if r.verdict is Verdict.FAIL:
            out.append(f"  expected: {_short(r.vector.expected, width)}")
            out.append(f"  actual:   {_short(r.answer, width)}")
        else:
            out.append(f"  message:  {r.message}")
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
    return {
        "implementation": report.implementation,
        "conformant": report.conformant,
        "summary": summary,
        "results": results,
    }
