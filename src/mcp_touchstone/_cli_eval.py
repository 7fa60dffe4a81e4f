"""``touchstone eval``: one case input through the reference, its output printed as JSON
(HARNESS-CLI-2)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mcp_touchstone import serde_json
from mcp_touchstone._cli_io import UsageError, write_stdout

__all__ = ["cmd_eval", "read_input"]


EVAL_USAGE = (
    "eval needs a case input: touchstone eval OPERATION case.json, or pipe it in "
    "(touchstone eval OPERATION < case.json), or pass - for reading the case input JSON "
    "from stdin as you type it (end it with Ctrl-D)"
)


def read_input(source: str | None) -> serde_json.JSON:
    """The case input JSON from the file ``source``, or from stdin (``-``, or no file named
    when stdin is not a terminal: ``eval OP < case.json``)."""
    if source is None or source == "-":
        if sys.stdin is None:
            raise UsageError("cannot read standard input: it is closed")
        if sys.stdin.isatty():
            if source is None:  # Nothing named and nothing piped: say how, do not wait.
                raise UsageError(EVAL_USAGE)
            print(
                "touchstone: reading the case input JSON from stdin (end it with Ctrl-D), "
                "or pass a file: touchstone eval OPERATION case.json",
                file=sys.stderr,
                flush=True,
            )
        try:
            data = sys.stdin.buffer.read()
        except OSError as exc:
            raise UsageError(f"cannot read standard input: {exc.strerror}") from None
        where = "standard input"
    else:
        try:
            data = Path(source).read_bytes()
        except OSError as exc:
            raise UsageError(f"cannot read {source}: {exc.strerror}") from None
        where = source
    if not data.strip():
        raise UsageError(f"{where} is empty: {EVAL_USAGE}")
    try:
        return serde_json.from_str(data)
    except serde_json.JsonError as exc:
        raise UsageError(f"{where} is not valid JSON: {exc}") from None


def cmd_eval(args: argparse.Namespace) -> int:
    """``touchstone eval``: the reference's output for one case input, as one JSON line."""
    from mcp_touchstone.harness._operation import V1_OPERATIONS
    from mcp_touchstone.harness._registry import reference_operations

    ops = reference_operations()
    op = ops.get(args.operation)
    if op is None:
        if args.operation in V1_OPERATIONS:
            raise UsageError(f"operation {args.operation} is not implemented yet")
        raise UsageError(f"unknown operation {args.operation!r} (known: {', '.join(sorted(ops))})")
    value = read_input(args.file)
    output = op(value)
    return 0 if write_stdout(serde_json.to_string(output) + "\n") else 1
