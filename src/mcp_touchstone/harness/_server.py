"""The harness-protocol v1 server: serves an operation table on a line stream.

One JSON object per line in, one per line out, flushed per line (HARNESS-WIRE-*).  The server never
dies on bad input: a line that is not a JSON object, an unknown ``cmd`` or a malformed ``run`` is
answered with ``errored`` and serving goes on; an operation that raises is ``errored`` for that case
only; ``stop`` or end of input ends it with status 0.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from mcp_touchstone import __version__, serde_json
from mcp_touchstone.harness._operation import HarnessOperation
from mcp_touchstone.serde_json import JSON

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


def line_text(line: bytes | str) -> str | bytes:
    """A request line without its line end, decoded once; bytes that are not UTF-8 come back as
    they are (without the line end), for the JSON layer to name the fault."""
    if isinstance(line, str):
        return line.rstrip("\r\n")
    end = len(line)
    while end and line[end - 1] in b"\r\n":
        end -= 1
    try:
        return str(memoryview(line)[:end], "utf-8")  # no intermediate copy of the bytes
    except UnicodeDecodeError:
        return line[:end]


def read_request(text: str | bytes) -> dict[str, JSON] | str:
    """The request object a line holds (parsed with ``serde_json.from_str``), or the message of
    the ``errored`` answer to a line that is not a JSON object (HARNESS-MSG-4)."""
    try:
        request = serde_json.from_str(text)
    except serde_json.JsonError as exc:
        return f"request line is not JSON: {exc}"
    if not isinstance(request, dict):
        return "request line is not a JSON object"
    return request


def answer(line: bytes | str, operations: Mapping[str, HarnessOperation]) -> dict[str, JSON] | None:
    """The response to one request line, or ``None`` for ``stop`` (HARNESS-MSG-*)."""
    return answer_request(read_request(line_text(line)), operations)


def answer_request(
    request: dict[str, JSON] | str, operations: Mapping[str, HarnessOperation]
) -> dict[str, JSON] | None:
    """The response to one read request (or the message :func:`read_request` gave a line it
    could not read), or ``None`` for ``stop``: a ``run`` calls the named operation on the
    case's input (an unknown name is ``skipped``, a raising operation ``errored`` for that case
    only); ``start`` announces the table when it asks for protocol version 1 and is
    ``errored``, naming the supported version, for any other (or none); anything else is
    ``errored``."""
    if isinstance(request, str):
        return _errored(request)
    cmd = request.get("cmd")
    if cmd == "run":
        seq = request.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool):
            return _errored("run needs an integer seq")
        case = request.get("case")
        if not isinstance(case, dict):
            return _errored("run needs a case object", seq)
        operation = case.get("operation")
        if not isinstance(operation, str):
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
        version = request.get("version")
        if version != PROTOCOL_VERSION or isinstance(version, bool | float):
            return _errored(
                f"unsupported harness protocol version {serde_json.to_string(version)}:"
                f" this implementation speaks version {PROTOCOL_VERSION}"
            )
        return {
            "version": PROTOCOL_VERSION,
            "implementation": dict(IMPLEMENTATION),
            "operations": list(operations),
        }
    problem = f"unknown cmd {cmd!r}" if isinstance(cmd, str) else "request has no cmd"
    return _errored(problem, _seq_of(request))


def _encode(response: dict[str, JSON]) -> bytes:
    """One response line; an output that cannot be written as JSON text is ``errored`` instead
    (HARNESS-MSG-5), so a bad output never ends the server."""
    try:
        return serde_json.to_string(response).encode("utf-8") + b"\n"
    except Exception as exc:  # JsonError, a lone surrogate (UnicodeEncodeError), RecursionError
        fallback = _errored(f"output is not JSON: {type(exc).__name__}: {exc}", _seq_of(response))
        return serde_json.to_string(fallback).encode("utf-8", "replace") + b"\n"


def serve(lines: Iterable[bytes], out: BinaryIO, operations: Mapping[str, HarnessOperation]) -> int:
    """Answer each line of ``lines`` on ``out`` until ``stop``, the end of input, or the reader
    closing ``out`` (the runner is gone: as at end of input); return 0 (HARNESS-WIRE-2).
    Each response is written and flushed as its own line (HARNESS-WIRE-1)."""
    for line in lines:
        # Each form of the request is dropped once the next is made: the line once decoded,
        # the text once parsed, so a long line is held about twice at most, never all at once.
        text = line_text(line)
        del line
        request = read_request(text)
        del text
        starting = isinstance(request, dict) and request.get("cmd") == "start"
        response = answer_request(request, operations)
        del request
        if response is None:
            break
        try:
            out.write(_encode(response))
            out.flush()
        except BrokenPipeError:
            break
        if starting and "operations" in response:
            _prepare(operations)
    return 0


def _prepare(operations: Mapping[str, HarnessOperation]) -> None:
    """Look every operation up once, right after ``start`` is answered: the reference's table
    imports its adapters then (HARNESS-OPS-2), while the runner prepares its cases, instead of
    at each adapter's first case."""
    for name in operations:
        operations.get(name)


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
