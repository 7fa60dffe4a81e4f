"""The ``touchstone`` command: harness server, one-case evaluation, conformance runner.

Exit status: 0 success; 1 a run that is not conformant; 2 bad usage or bad input (the message
names the problem on one line; no traceback).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

from mcp_touchstone import __version__, serde_json


class _UsageError(Exception):
    """A one-line problem with what the user asked for (exit status 2)."""


def _cmd_harness(_args: argparse.Namespace) -> int:
    from mcp_touchstone.conformance._registry import reference_operations
    from mcp_touchstone.conformance._server import main

    return main(reference_operations())


def _read_input(source: str) -> serde_json.JSON:
    if source == "-":
        data = sys.stdin.buffer.read()
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
    from mcp_touchstone.conformance._operation import V1_OPERATIONS
    from mcp_touchstone.conformance._registry import reference_operations

    ops = reference_operations()
    op = ops.get(args.operation)
    if op is None:
        if args.operation in V1_OPERATIONS:
            raise _UsageError(f"operation {args.operation} is not implemented yet")
        raise _UsageError(f"unknown operation {args.operation!r} (known: {', '.join(sorted(ops))})")
    value = _read_input(args.file)
    output = op(value)
    sys.stdout.write(serde_json.to_string(output) + "\n")
    return 0


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

    root = Path(args.vectors) if args.vectors else default_vectors_dir()
    if root is None:
        raise _UsageError("no vectors found: pass --vectors DIR (conformance/vectors in the repo)")
    try:
        vectors = load_vectors(root)
    except VectorError as exc:
        raise _UsageError(str(exc)) from None
    if args.semantic:
        vectors = [v for v in vectors if v.semantic in args.semantic]
    if args.match:
        vectors = [v for v in vectors if args.match in v.id]
    if not vectors:
        raise _UsageError("no vectors selected")
    command = shlex.split(args.impl) if args.impl else default_command()
    try:
        report = run_vectors(vectors, command, timeout=args.timeout)
    except ProtocolError as exc:
        raise _UsageError(f"implementation {' '.join(command)}: {exc}") from None
    print(render(report, vectors_dir=str(root)))
    if args.report:
        Path(args.report).write_text(serde_json.to_string(to_json(report)) + "\n")
    return 0 if report.conformant else 1


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="touchstone",
        description="Reference oracle for MCP server security semantics.",
    )
    p.add_argument("--version", action="version", version=f"touchstone {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    h = sub.add_parser("harness", help="serve harness protocol v1 on stdin/stdout")
    h.set_defaults(func=_cmd_harness)

    e = sub.add_parser("eval", help="evaluate one case input with the reference, print the output")
    e.add_argument("operation", help="operation name, e.g. scope.resolve_matching_grants")
    e.add_argument("file", nargs="?", default="-", help="case input JSON file, or - for stdin")
    e.set_defaults(func=_cmd_eval)

    r = sub.add_parser("run", help="run the conformance vectors against an implementation")
    r.add_argument("--impl", help="command starting the implementation's harness (default: ours)")
    r.add_argument("--vectors", help="vector tree (default: conformance/vectors)")
    r.add_argument("--semantic", action="append", help="only this semantic (repeatable)")
    r.add_argument("-k", "--match", help="only vectors whose id contains this text")
    r.add_argument("--timeout", type=float, default=30.0, help="seconds to wait per answer")
    r.add_argument("--report", help="also write the JSON report to this file")
    r.set_defaults(func=_cmd_run)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``touchstone`` console script."""
    args = _parser().parse_args(argv)
    try:
        return int(args.func(args))
    except _UsageError as exc:
        print(f"touchstone: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
