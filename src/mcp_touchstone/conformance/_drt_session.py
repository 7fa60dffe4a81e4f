"""The live implementation a ``touchstone drt`` run asks (:mod:`._drt`): one process in a group of
its own, started with ``start``, fed batches of ``run`` lines in one write each and read in order,
ended as a run ends its implementation (CONF-PROC-1)."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Sequence

from mcp_touchstone import serde_json
from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone.conformance._process import descendants, kill_group
from mcp_touchstone.conformance._runner import ProtocolError, _Lines
from mcp_touchstone.conformance._text import short
from mcp_touchstone.serde_json import JSON

__all__ = ["DrtError", "Session", "output", "text"]


def text(value: JSON) -> str:
    return serde_json.to_string_ordered(value)


def output(line: bytes, seq: int) -> JSON:
    """The output an answer line carries for ``seq`` (an ``errored``/``skipped`` answer, or a
    line that is not JSON, stands in as a non-output that never matches an output).  An answer
    that is not an object echoing ``seq`` is a protocol break, as in a run (HARNESS-RUN-2)."""
    try:
        answer = serde_json.from_str(line.rstrip(b"\n"))
    except serde_json.JsonError as exc:
        return {"<not an output>": {"errored": True, "message": f"answer is not JSON: {exc}"}}
    echoed = answer.get("seq") if isinstance(answer, dict) else None
    if not isinstance(answer, dict) or type(echoed) is not int or echoed != seq:
        raise ProtocolError(f"expected the answer to seq {seq}, got {short(answer)}")
    if "output" in answer:
        return answer["output"]
    return {"<not an output>": answer}


class DrtError(TouchstoneError, RuntimeError):
    """The run could not be made (no strategy, the implementation broke the protocol)."""


class Session:
    """A live implementation answering one ``run`` at a time, in a process group of its own,
    ended as a run ends its implementation (CONF-PROC-1)."""

    def __init__(self, command: Sequence[str], timeout: float) -> None:
        try:
            self.proc = subprocess.Popen(
                list(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                start_new_session=True,  # Its own process group, killed as a whole at the end.
            )
        except OSError as exc:
            raise DrtError(f"cannot start {command[0]}: {exc.strerror}") from None
        self.timeout = timeout
        self.lines = _Lines(self.proc)
        self.seq = 0
        try:
            hello = self._ask({"cmd": "start", "version": 1})
        except BaseException:
            self.kill()
            raise
        ops = hello.get("operations") if isinstance(hello, dict) else None
        self.operations = {o for o in ops if isinstance(o, str)} if isinstance(ops, list) else None

    def _ask(self, request: dict[str, JSON]) -> JSON:
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        try:
            self.proc.stdin.write(serde_json.to_string_ordered(request).encode() + b"\n")
            self.proc.stdin.flush()
            line = self._line()
        except OSError as exc:
            raise DrtError(f"the implementation stopped: {exc}") from None
        if not line:
            raise DrtError("the implementation exited")
        try:
            return serde_json.from_str(line.rstrip(b"\n"))
        except serde_json.JsonError as exc:
            return {"errored": True, "message": f"answer is not JSON: {exc}"}

    def _line(self) -> bytes:
        """The next answer line (``b""`` at end of output); a stall past the timeout kills the
        implementation and ends the run."""
        try:
            line = self.lines.next(self.timeout)
        except TimeoutError:
            self.kill()
            raise DrtError(
                f"no answer within {self.timeout:g}s: the implementation was killed"
            ) from None
        return b"" if line is None else line + b"\n"

    def send(self, operation: str, texts: Sequence[str]) -> int:
        """Write a ``run`` line per input (given as its JSON text) in one go, so the
        implementation answers while the caller does something else; the first seq written."""
        assert self.proc.stdin is not None
        first = self.seq + 1
        head = b'{"cmd":"run","seq":'
        case = b',"case":{"operation":' + serde_json.to_string(operation).encode() + b',"input":'
        lines = []
        for text in texts:
            self.seq += 1
            # The input goes out unchanged, key order included (VEC-CASE-1).
            lines.append(b"%s%d%s%s}}\n" % (head, self.seq, case, text.encode()))
        try:
            self.proc.stdin.write(b"".join(lines))
            self.proc.stdin.flush()
        except OSError as exc:
            raise DrtError(f"the implementation stopped: {exc}") from None
        return first

    def receive(self, count: int) -> list[bytes]:
        """The next ``count`` answer lines, unparsed (see :func:`output`)."""
        lines: list[bytes] = []
        for _ in range(count):
            try:
                line = self._line()
            except OSError as exc:
                raise DrtError(f"the implementation stopped: {exc}") from None
            if not line:
                raise DrtError("the implementation exited")
            lines.append(line)
        return lines

    def run_batch(self, operation: str, values: Sequence[JSON]) -> list[JSON]:
        """The implementation's outputs for a batch of cases, written in one go, read in order."""
        first = self.send(operation, [text(v) for v in values])
        return [output(line, seq) for seq, line in enumerate(self.receive(len(values)), first)]

    def kill(self) -> None:
        """Kill the process group and every descendant, and reap the process."""
        kill_group(self.proc)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)

    def close(self) -> None:
        """Send ``stop`` and reap the process (killed if it lingers, or on a signal while
        waiting); whatever it started is killed too."""
        try:
            family = descendants(self.proc.pid)
            try:
                if self.proc.stdin is not None:
                    self.proc.stdin.write(b'{"cmd":"stop"}\n')
                    self.proc.stdin.close()
            except OSError:
                pass
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=5)
        except BaseException:
            self.kill()
            raise
        kill_group(self.proc, family)
        self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
