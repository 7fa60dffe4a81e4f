"""``touchstone drt``: differential random testing of one operation against the reference, the
first difference shrunk into a candidate vector (:mod:`mcp_touchstone.conformance._drt`)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from mcp_touchstone._cli_io import UsageError, impl_command, writable, write_file, write_stdout

__all__ = ["cmd_drt"]


def cmd_drt(args: argparse.Namespace) -> int:
    """``touchstone drt``: search, shrink, print the candidate vector; 1 when one is found."""
    from mcp_touchstone.conformance._drt import outside_rules, run_drt
    from mcp_touchstone.conformance._drt_session import DrtError
    from mcp_touchstone.conformance._text import short

    command = impl_command(args.impl)
    out_path = writable(args.out, "candidate vector")
    leave_out: frozenset[str] = frozenset()
    if args.expected_failures:
        from mcp_touchstone.conformance import _baseline

        try:
            known = _baseline.load(Path(args.expected_failures))
        except _baseline.BaselineError as exc:
            raise UsageError(f"drt: {exc}") from None
        if args.operation in known.operations:
            raise UsageError(
                f"drt: the baseline expects {args.operation} to fail as a whole: "
                f"{known.operations[args.operation]}"
            )
        leave_out = frozenset(known.ids)
    if args.rule:
        try:
            leave_out |= outside_rules(args.operation, args.rule)
        except DrtError as exc:
            raise UsageError(f"drt: {exc}") from None
    try:
        result = run_drt(
            command,
            args.operation,
            examples=args.examples,
            seed=args.seed,
            timeout=args.timeout,
            leave_out=leave_out,
            double_numbers=args.js_numbers,
        )
    except DrtError as exc:
        raise UsageError(f"drt: {exc}") from None
    lines = [
        f"drt {result.operation}: {result.cases} cases in {result.seconds:.2f} s "
        f"({result.cases_per_second:,.0f} cases/s searching)"
    ]
    if result.candidate is None:
        lines.append("no difference found")
        write_stdout("\n".join(lines) + "\n")
        return 0
    text = json.dumps(result.candidate, indent=2, ensure_ascii=False) + "\n"
    lines += [
        f"DIFFERENCE at {result.where}, shrunk in {result.shrink_seconds:.2f} s "
        f"({result.shrink_cases} cases asked while shrinking)",
        f"  actual:   {short(result.actual, 400)}",
        "candidate vector (origin drt-shrunk; paste into a vector file, then set rules):",
    ]
    write_stdout("\n".join(lines) + "\n" + text)
    if out_path is not None:
        write_file(out_path, "candidate vector", text)
    return 1
