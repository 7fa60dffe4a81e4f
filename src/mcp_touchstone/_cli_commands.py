"""The ``touchstone`` subcommands and their argument parsing (entered through
:func:`mcp_touchstone._cli.main`, which serves a bare ``touchstone harness`` without this module).

Exit status: 0 success; 1 a run that is not conformant; 2 bad usage or bad input (the message
names the problem on one line; no traceback); 130 on SIGINT and 143 on SIGTERM (the implementation
under test is ended first).

This module holds every subcommand's argument parsing (the argument types are in
:mod:`mcp_touchstone._cli_types`); each command is its own module (``_cli_run``: ``run`` and
``vectors``; ``_cli_eval``; ``_cli_drt``; ``audit`` and ``example`` in their packages), what they
share is :mod:`mcp_touchstone._cli_io`, and the work itself lives in ``mcp_touchstone.conformance``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from mcp_touchstone import __version__, _cli_types
from mcp_touchstone._cli_drt import cmd_drt
from mcp_touchstone._cli_eval import cmd_eval
from mcp_touchstone._cli_io import UsageError
from mcp_touchstone._cli_run import cmd_run, cmd_vectors

EXIT_CODES = """exit status:
  0    success (run: every selected vector passed)
  1    run: not conformant (a vector failed, was skipped or errored)
  2    bad usage or bad input, an implementation that broke the protocol, or output that
       could not be written (one line on stderr, no traceback)
  130  interrupted (SIGINT); 143 terminated (SIGTERM)"""


def _cmd_harness(_args: argparse.Namespace) -> int:
    # As mcp_touchstone._cli.serve_harness (a bare `touchstone harness` is served from there).
    from mcp_touchstone.harness._registry import reference_operations
    from mcp_touchstone.harness._server import main

    return main(reference_operations())


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
    a.add_argument("--format", choices=("table", "json", "markdown", "html"), default="table")
    a.add_argument("--report", help="also write the JSON report to this file")
    a.add_argument("--max-requests", type=int, default=300, help="request budget (default 300)")
    a.add_argument("--ttl-wait", type=float, default=0.0, help="seconds to wait for TTL-1 (≤ 900)")
    a.add_argument("--probe", action="append", help="only this probe ID (repeatable)")
    a.add_argument(
        "--timeout", type=float, default=15.0, help="seconds per answer, to its last byte (15)"
    )
    a.add_argument(
        "--deadline", type=float, default=600.0, help="seconds for the whole audit (600)"
    )
    a.set_defaults(func=_cmd_audit)


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
    p = _cli_types.Parser(
        prog="touchstone",
        description="Reference oracle for MCP server security semantics.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action=_cli_types.Version, version=f"touchstone {__version__}")
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
    e.add_argument(
        "file", nargs="?", help="case input JSON file, or - for stdin (default: stdin when piped)"
    )
    e.set_defaults(func=cmd_eval)

    r = sub.add_parser(
        "run",
        help="run the conformance vectors against an implementation",
        epilog=_wrapped("semantics: ", semantics) + "\n\n" + EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    r.add_argument("--impl", help="command starting the implementation's harness (default: ours)")
    r.add_argument("--vectors", help="vector tree (default: the vectors this package ships)")
    r.add_argument(
        "--semantic",
        action="append",
        help=f"only this semantic (repeatable): {', '.join(semantics)}",
    )
    r.add_argument("-k", "--match", help="only vectors whose id contains this text")
    r.add_argument(
        "--shard", type=_cli_types.shard, metavar="I/N", help="only the I-th of N slices (1-based)"
    )
    r.add_argument(
        "--timeout",
        type=_cli_types.timeout,
        default=30.0,
        help="seconds to wait for each answer (default: %(default)g)",
    )
    r.add_argument(
        "-j",
        "--jobs",
        type=_cli_types.jobs,
        default=1,
        metavar="N",
        help="run N implementation processes side by side; 0 or auto: one per CPU (default: 1)",
    )
    r.add_argument("--format", choices=("table", "json", "markdown", "html"), default="table")
    r.add_argument("--report", help="also write the JSON report to this file (atomically)")
    r.add_argument("--badge", metavar="DIR", help="write shields.io endpoint JSON per semantic")
    r.add_argument("--expected-failures", metavar="FILE", help="baseline of known failures")
    r.add_argument("--write-baseline", metavar="FILE", help="write a baseline from this run")
    r.set_defaults(func=cmd_run)

    v = sub.add_parser("vectors", help="lint the vectors, regenerate the manifest, print the path")
    v.add_argument("action", choices=("lint", "manifest", "path"))
    v.add_argument("--vectors", help="vector tree (default: the vectors this package ships)")
    v.add_argument("--check", action="store_true", help="manifest: report, do not write")
    v.add_argument("--no-reference", action="store_true", help="lint: skip the reference run")
    v.set_defaults(func=cmd_vectors)

    d = sub.add_parser("drt", help="differential random testing of one operation, shrunk cases")
    d.add_argument("--impl", help="command starting the implementation's harness (default: ours)")
    d.add_argument("--operation", required=True, help="operation to test")
    d.add_argument(
        "--examples", type=_cli_types.positive_int, default=1000, help="about this many cases"
    )
    d.add_argument("--seed", type=int, help="Hypothesis seed (default: derandomized)")
    d.add_argument(
        "--timeout", type=_cli_types.timeout, default=30.0, help="seconds to wait per answer"
    )
    d.add_argument("--out", metavar="FILE", help="also write the candidate vector to FILE")
    d.add_argument(
        "--expected-failures",
        metavar="FILE",
        help="baseline: its vectors are left out of the corpus the inputs are mutated from",
    )
    d.add_argument(
        "--rule",
        action="append",
        metavar="PREFIX",
        help="seed the search only from vectors citing a rule id starting with PREFIX (repeatable)",
    )
    d.add_argument(
        "--js-numbers",
        action="store_true",
        help="the implementation reads JSON numbers as doubles (JavaScript): generate only "
        "inputs whose numbers a double holds exactly (1.0 becomes 1, 2^53+1 becomes 2^53)",
    )
    d.set_defaults(func=cmd_drt)
    _add_audit(sub)
    from mcp_touchstone.examples import add_parser as add_example

    add_example(sub)
    return p


def run(argv: Sequence[str]) -> int:
    """Parse ``argv`` and run its subcommand; a usage error is one line on stderr, status 2.
    (:func:`mcp_touchstone._cli.main` wraps this with the SIGINT/SIGTERM exit statuses.)"""
    args = _parser().parse_args(argv)
    try:
        return int(args.func(args))
    except UsageError as exc:
        print(f"touchstone: {exc}", file=sys.stderr)
        return 2
