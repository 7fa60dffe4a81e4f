"""The ``touchstone`` command: harness server, one-case evaluation, conformance runner.

Exit status: 0 success; 1 a run that is not conformant; 2 bad usage or bad input (the message
names the problem on one line; no traceback); 130 on SIGINT and 143 on SIGTERM (the implementation
under test is ended first).
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import shlex
import signal
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from mcp_touchstone import __version__, serde_json
from mcp_touchstone._errors import TouchstoneError


class _UsageError(TouchstoneError):
    """A one-line problem with what the user asked for (exit status 2)."""


_TERMINATED: list[bool] = []
"""Set by the SIGTERM handler, which then raises KeyboardInterrupt: SIGTERM unwinds a run (and
ends its implementation) exactly as SIGINT does, and exits 143 instead of 130."""


EXIT_CODES = """exit status:
  0    success (run: every selected vector passed)
  1    run: not conformant (a vector failed, was skipped or errored)
  2    bad usage or bad input, an implementation that broke the protocol, or output that
       could not be written (one line on stderr, no traceback)
  130  interrupted (SIGINT); 143 terminated (SIGTERM)"""


def _cmd_harness(_args: argparse.Namespace) -> int:
    from mcp_touchstone.harness._registry import reference_operations
    from mcp_touchstone.harness._server import main

    return main(reference_operations())


def _write_stdout(text: str) -> bool:
    """Write ``text`` to stdout; ``False`` when stdout is closed or its reader has gone (e.g.
    ``touchstone run | head -1``), after which stdout is quietly pointed at /dev/null.  Any
    other write failure (a full disk) is a one-line usage error (HARNESS-CLI-1)."""
    if sys.stdout is None:
        return False
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return False
    except OSError as exc:
        # Drop what is buffered, so the interpreter's flush at exit has nothing to fail on.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        with contextlib.suppress(OSError):
            sys.stdout.flush()
        raise _UsageError(f"cannot write to standard output: {exc.strerror}") from None
    return True


def _read_input(source: str) -> serde_json.JSON:
    if source == "-":
        if sys.stdin is None:
            raise _UsageError("cannot read standard input: it is closed")
        if sys.stdin.isatty():
            print(
                "touchstone: reading the case input JSON from stdin (end it with Ctrl-D), "
                "or pass a file: touchstone eval OPERATION case.json",
                file=sys.stderr,
                flush=True,
            )
        try:
            data = sys.stdin.buffer.read()
        except OSError as exc:
            raise _UsageError(f"cannot read standard input: {exc.strerror}") from None
        where = "standard input"
    else:
        try:
            data = Path(source).read_bytes()
        except OSError as exc:
            raise _UsageError(f"cannot read {source}: {exc.strerror}") from None
        where = source
    try:
        return serde_json.from_str(data)
    except serde_json.JsonError as exc:
        raise _UsageError(f"{where} is not valid JSON: {exc}") from None


def _cmd_eval(args: argparse.Namespace) -> int:
    from mcp_touchstone.harness._operation import V1_OPERATIONS
    from mcp_touchstone.harness._registry import reference_operations

    ops = reference_operations()
    op = ops.get(args.operation)
    if op is None:
        if args.operation in V1_OPERATIONS:
            raise _UsageError(f"operation {args.operation} is not implemented yet")
        raise _UsageError(f"unknown operation {args.operation!r} (known: {', '.join(sorted(ops))})")
    value = _read_input(args.file)
    output = op(value)
    return 0 if _write_stdout(serde_json.to_string(output) + "\n") else 1


def _cmd_run(args: argparse.Namespace) -> int:
    from mcp_touchstone.conformance import (
        ProtocolError,
        VectorError,
        default_command,
        default_vectors_dir,
        load_vectors,
        render,
        run_vectors,
        to_json,
    )

    if args.vectors is not None and not args.vectors.strip():
        raise _UsageError("--vectors is empty (an unset variable?): name a vector directory")
    if args.impl is not None and not args.impl.strip():
        raise _UsageError("--impl names no command (it is empty: an unset variable?)")
    root = Path(args.vectors) if args.vectors is not None else default_vectors_dir()
    if root is None:
        raise _UsageError("no vectors found: pass --vectors DIR (conformance/vectors in the repo)")
    try:
        vectors = load_vectors(root)
    except VectorError as exc:
        raise _UsageError(str(exc)) from None
    if args.semantic:
        known = sorted({v.semantic for v in vectors})
        unknown = [s for s in args.semantic if s not in known]
        if unknown:
            raise _UsageError(
                f"unknown semantic {', '.join(map(repr, unknown))} (known: {', '.join(known)})"
            )
        vectors = [v for v in vectors if v.semantic in args.semantic]
    if args.match:
        vectors = [v for v in vectors if args.match in v.id]
    if not vectors:
        raise _UsageError("no vectors selected")
    try:
        command = shlex.split(args.impl) if args.impl is not None else default_command()
    except ValueError as exc:
        raise _UsageError(f"--impl {args.impl!r}: {exc}") from None
    if not command:
        raise _UsageError("--impl names no command")
    report_tmp = _report_tmp(args.report) if args.report else None
    try:
        try:
            report = run_vectors(vectors, command, timeout=args.timeout)
        except ProtocolError as exc:
            raise _UsageError(f"implementation {' '.join(command)}: {exc}") from None
        if report_tmp is not None:
            # VEC-REPORT-4: the report is written whole, then renamed over the old one.
            try:
                with open(report_tmp, "w", encoding="utf-8") as out:
                    out.write(serde_json.to_string(to_json(report)) + "\n")
                os.replace(report_tmp, args.report)
            except OSError as exc:
                raise _UsageError(f"cannot write report {args.report}: {exc.strerror}") from None
            report_tmp = None
        # VEC-REPORT-2: the verdict stands even when nobody reads the table (run | head -1).
        _write_stdout(render(report, vectors_dir=str(root)) + "\n")
    finally:
        if report_tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(report_tmp)
    return 0 if report.conformant else 1


def _cmd_audit(args: argparse.Namespace) -> int:
    from mcp_touchstone.audit._run import main as audit_main

    return audit_main(args)


def _add_audit(sub: Any) -> None:
    """``touchstone audit`` (spec/audit.md); the work is imported only when it runs."""
    a = sub.add_parser(
        "audit",
        help="black-box security audit of a live MCP server",
        epilog="exit status: 0 nothing at or above --fail-on, 1 a finding that is, "
        "2 the audit could not be made",
    )
    a.add_argument("--url", help="the server's streamable HTTP endpoint")
    a.add_argument("--command", help="a command starting the server on stdio")
    a.add_argument("--token", help="bearer token of the main caller")
    a.add_argument("--other-token", help="a second caller (principal binding, existence)")
    a.add_argument("--peer-url", help="a second server sharing keys (audience)")
    a.add_argument("--tool", help="the tool answering input_required (default: found)")
    a.add_argument("--arguments", help="its arguments, a JSON object")
    a.add_argument("--era", choices=("2025-11-25", "2026-07-28", "both"), default="both")
    a.add_argument(
        "--fail-on", default="medium", help="lowest severity that fails (default medium)"
    )
    a.add_argument("--format", choices=("table", "json", "markdown"), default="table")
    a.add_argument("--report", help="also write the JSON report to this file")
    a.add_argument("--max-requests", type=int, default=300, help="request budget (default 300)")
    a.add_argument("--ttl-wait", type=float, default=0.0, help="seconds to wait for TTL-1 (≤ 900)")
    a.add_argument("--probe", action="append", help="only this probe ID (repeatable)")
    a.set_defaults(func=_cmd_audit)


def _report_tmp(report: str) -> str:
    """A fresh temporary file beside ``report``, made before the run so that an unwritable
    report path costs no run (VEC-REPORT-4)."""
    target = Path(report)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise _UsageError(f"cannot write report {report}: {exc.strerror}") from None
    os.close(fd)
    return tmp


def _timeout(text: str) -> float:
    """``--timeout``: seconds, a positive finite number."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds: {text!r}")
    return value


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit status 2, like bad input."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"touchstone: {message} (see {self.prog} --help)\n")


def _operations() -> list[str]:
    from mcp_touchstone.harness._registry import reference_operations

    return sorted(reference_operations())


def _wrapped(prefix: str, words: list[str]) -> str:
    lines, line = [], prefix
    for word in words:
        if len(line) + len(word) + 2 > 92:
            lines.append(line.rstrip())
            line = "  "
        line += word + ", "
    lines.append(line.rstrip(", "))
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    ops = _operations()
    semantics = sorted({op.split(".", 1)[0] for op in ops})
    p = _Parser(
        prog="touchstone",
        description="Reference oracle for MCP server security semantics.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"touchstone {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    h = sub.add_parser("harness", help="serve harness protocol v1 on stdin/stdout")
    h.set_defaults(func=_cmd_harness)

    e = sub.add_parser(
        "eval",
        help="evaluate one case input with the reference, print the output",
        epilog=_wrapped("operations: ", ops) + "\n\n" + EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    e.add_argument("operation", help="operation name, e.g. scope.resolve_matching_grants")
    e.add_argument("file", nargs="?", default="-", help="case input JSON file, or - for stdin")
    e.set_defaults(func=_cmd_eval)

    r = sub.add_parser(
        "run",
        help="run the conformance vectors against an implementation",
        epilog=_wrapped("semantics: ", semantics) + "\n\n" + EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    r.add_argument("--impl", help="command starting the implementation's harness (default: ours)")
    r.add_argument("--vectors", help="vector tree (default: conformance/vectors)")
    r.add_argument(
        "--semantic",
        action="append",
        help=f"only this semantic (repeatable): {', '.join(semantics)}",
    )
    r.add_argument("-k", "--match", help="only vectors whose id contains this text")
    r.add_argument(
        "--timeout",
        type=_timeout,
        default=30.0,
        help="seconds to wait for each answer (default: %(default)g)",
    )
    r.add_argument("--report", help="also write the JSON report to this file")
    r.set_defaults(func=_cmd_run)
    _add_audit(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``touchstone`` console script."""
    args = _parser().parse_args(argv)
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        return int(args.func(args))
    except _UsageError as exc:
        print(f"touchstone: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 128 + signal.SIGTERM if _TERMINATED else 130
    finally:
        signal.signal(signal.SIGTERM, previous)


def _on_sigterm(signum: int, frame: object) -> None:
    del signum, frame
    _TERMINATED.append(True)
    raise KeyboardInterrupt
