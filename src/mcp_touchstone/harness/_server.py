"""The harness-protocol v1 server: serves an operation table on a line stream.

One JSON object per line in, one per line out, flushed per line (HARNESS-WIRE-*).  The server never
dies on bad input: a line that is not a JSON object, an unknown ``cmd`` or a malformed ``run`` is
answered with ``errored`` and serving goes on; an operation that raises is ``errored`` for that case
only; ``stop`` or end of input ends it with status 0.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterable, Mapping

from mcp_touchstone import __version__, serde_json
from mcp_touchstone.harness._operation import EncodedOutput, HarnessOperation, TextOperation
from mcp_touchstone.serde_json import JSON

TYPE_CHECKING = False  # typing's constant, without importing typing at run time (start-up)
if TYPE_CHECKING:
    from typing import BinaryIO


PROTOCOL_VERSION = 1

IMPLEMENTATION: dict[str, JSON] = {
    "name": "mcp-touchstone",
    "version": __version__,
    "language": "python",
    "homepage": "https://example.invalid/mcp-touchstone",
}


def _errored(message: str, seq: int | None = None) -> dict[str, JSON]:
    out: dict[str, JSON] = {"errored": True, "message": message}
    if seq is not None:
        out = {"seq": seq, **out}
    return out


def _seq_of(request: dict[str, JSON]) -> int | None:
    seq = request.get("seq")
    return seq if isinstance(seq, int) and not isinstance(seq, bool) else None


def answer(line: bytes | str, operations: Mapping[str, HarnessOperation]) -> dict[str, JSON] | None:
    """The response to one request line, or ``None`` for ``stop`` (HARNESS-MSG-*)."""
    try:
        request = serde_json.from_str(line)
    except serde_json.JsonError as exc:
        return _errored(f"request line is not JSON: {exc}")
    return _answer_request(request, operations)


def _answer_request(
    request: JSON, operations: Mapping[str, HarnessOperation]
) -> dict[str, JSON] | None:
    """:func:`answer` for a line that parsed as ``request``."""
    if type(request) is not dict:
        return _errored("request line is not a JSON object")
    cmd = request.get("cmd")
    if cmd == "run":  # The common line first; each test below is the one the order needs.
        seq = request.get("seq")
        if type(seq) is not int:  # from_str makes exact ints; a bool is not one
            return _errored("run needs an integer seq")
        case = request.get("case")
        if type(case) is not dict:
            return _errored("run needs a case object", seq)
        operation = case.get("operation")
        if type(operation) is not str:
            return _errored("case needs an operation name", seq)
        op = operations.get(operation)
        if op is None:
            return {
                "seq": seq,
                "skipped": True,
                "message": f"operation {operation} is not supported",
            }
        try:
            output = op(case.get("input"))
        except Exception as exc:  # HARNESS-MSG-5: a crash is reported, never fatal.
            return _errored(f"{operation} failed: {type(exc).__name__}: {exc}", seq)
        return {"seq": seq, "output": output}
    if cmd == "stop":
        return None
    if cmd == "start":
        return {
            "version": PROTOCOL_VERSION,
            "implementation": dict(IMPLEMENTATION),
            "operations": list(operations),
        }
    problem = f"unknown cmd {cmd!r}" if isinstance(cmd, str) else "request has no cmd"
    return _errored(problem, _seq_of(request))


def _encode(response: dict[str, JSON]) -> bytes:
    """One response line; an output that cannot be written as JSON text is ``errored`` instead
    (HARNESS-MSG-5), so a bad output never ends the server.  An :class:`EncodedOutput` of a
    ``{"seq", "output"}`` response is written from its text (the keys in sorted order)."""
    try:
        output, seq = response.get("output"), response.get("seq")
        if type(output) is EncodedOutput and type(seq) is int and len(response) == 2:
            return _output_line(output.text, seq)
        return serde_json.to_string(response).encode("utf-8") + b"\n"
    except Exception as exc:  # JsonError, a lone surrogate (UnicodeEncodeError), RecursionError
        return _unwritable(exc, _seq_of(response))


def _output_line(text: str, seq: int) -> bytes:
    """The line of ``{"seq": seq, "output": <the object text is the JSON text of>}``."""
    return f'{{"output":{text},"seq":{seq}}}\n'.encode()


def _unwritable(exc: Exception, seq: int | None) -> bytes:
    """The ``errored`` line for an output that could not be written (``exc``)."""
    fallback = _errored(f"output is not JSON: {type(exc).__name__}: {exc}", seq)
    return serde_json.to_string(fallback).encode("utf-8", "replace") + b"\n"


def _respond(
    line: bytes,
    operations: Mapping[str, HarnessOperation],
    found: dict[str, HarnessOperation],
) -> bytes | None:
    """``_encode(answer(line, operations))``, or ``None`` for ``stop``.  The common line, a run
    of a known operation, is answered here as :func:`_answer_request` answers it (every test it
    passes is one that function makes, in its order, and the operation is called once), with
    the operation looked up in ``found`` (a plain dict of those already asked for) and the
    output of a :class:`TextOperation` asked for as its text alone, written as ``_encode``
    writes its :class:`EncodedOutput`; any other line goes to :func:`_answer_request`, which
    gives every refusal."""
    try:
        request = serde_json.from_str(line)
    except serde_json.JsonError as exc:
        return _encode(_errored(f"request line is not JSON: {exc}"))
    if type(request) is dict and request.get("cmd") == "run":
        seq, case = request.get("seq"), request.get("case")
        if type(seq) is int and type(case) is dict:
            operation = case.get("operation")
            if type(operation) is str:
                op = found.get(operation)
                if op is None and (op := operations.get(operation)) is not None:
                    found[operation] = op
                if op is not None:
                    try:
                        if type(op) is TextOperation:
                            text = op.text(case.get("input"))
                        else:
                            output = op(case.get("input"))
                    except Exception as exc:  # HARNESS-MSG-5, as _answer_request words it
                        return _encode(
                            _errored(f"{operation} failed: {type(exc).__name__}: {exc}", seq)
                        )
                    if type(op) is not TextOperation:
                        return _encode({"seq": seq, "output": output})
                    try:  # _output_line written out (a call costs more than the line)
                        return f'{{"output":{text},"seq":{seq}}}\n'.encode()
                    except Exception as exc:  # as _encode words its EncodedOutput's failure
                        return _unwritable(exc, seq)
    response = _answer_request(request, operations)
    return None if response is None else _encode(response)


def _raw_file(out: BinaryIO) -> io.FileIO | None:
    """The file under ``out`` when ``out`` is a buffered writer on a file descriptor (stdout),
    else ``None``."""
    raw = getattr(out, "raw", None)
    return raw if type(out) is io.BufferedWriter and type(raw) is io.FileIO else None


def serve(lines: Iterable[bytes], out: BinaryIO, operations: Mapping[str, HarnessOperation]) -> int:
    """Answer each line of ``lines`` on ``out`` until ``stop``, the end of input, or the reader
    closing ``out`` (the runner is gone: as at end of input); return 0 (HARNESS-WIRE-2).

    Each response is flushed as its own line (HARNESS-WIRE-1): on a buffered writer over a file
    descriptor it goes to the file in one ``write`` (the writer's buffer, flushed first, stays
    empty, so nothing is reordered; a short write hands the rest to the writer, which finishes
    it), elsewhere through ``out.write`` and ``out.flush``."""
    write, flush = out.write, out.flush
    raw = _raw_file(out)
    if raw is not None:
        flush()
    raw_write = None if raw is None else raw.write
    found: dict[str, HarnessOperation] = {}
    for line in lines:
        data = _respond(line.rstrip(b"\r\n"), operations, found)
        if data is None:
            break
        try:
            if raw_write is not None:
                written = raw_write(data)
                if written == len(data):
                    continue
                data = data[written or 0 :]  # None: a non-blocking file that took nothing
            write(data)
            flush()
        except BrokenPipeError:
            break
    return 0


def main(operations: Mapping[str, HarnessOperation]) -> int:
    """Serve ``operations`` on this process's stdin and stdout."""
    if sys.stdin is None or sys.stdout is None:
        return 0  # A closed stdin is an empty input; a closed stdout, a reader already gone.
    try:
        status = serve(sys.stdin.buffer, sys.stdout.buffer, operations)
        sys.stdout.flush()
    except BrokenPipeError:
        # The runner closed the pipe: point stdout at /dev/null so the interpreter's own flush
        # at exit stays quiet (nothing but protocol lines ever goes to stdout).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # A full disk: one line on stderr, never a traceback (HARNESS-CLI-1).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print(
            f"touchstone harness: cannot write to standard output: {exc.strerror}", file=sys.stderr
        )
        return 2
    return status
