"""The ``touchstone`` subcommands and their argument parsing (entered through
:func:`mcp_touchstone._cli.main`, which serves a bare ``touchstone harness`` without this module).

Exit status: 0 success; 1 a run that is not conformant; 2 bad usage or bad input (the message
names the problem on one line; no traceback); 130 on SIGINT and 143 on SIGTERM (the implementation
under test is ended first).

This module is over 400 lines because it holds every subcommand's argument parsing and its
one-line usage errors together (the argument types are in :mod:`mcp_touchstone._cli_types`); the
work itself lives in ``mcp_touchstone.conformance``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp_touchstone import __version__, _cli_types, serde_json
from mcp_touchstone._errors import TouchstoneError

if TYPE_CHECKING:
    from mcp_touchstone.conformance import Vector


class _UsageError(TouchstoneError):
    """A one-line problem with what the user asked for (exit status 2)."""


_EMPTY_VECTORS = "--vectors is empty (an unset variable?): name a vector directory"
_EMPTY_IMPL = "--impl names no command (it is empty: an unset variable?)"


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


_EVAL_USAGE = (
    "eval needs a case input: touchstone eval OPERATION case.json, or pipe it in "
    "(touchstone eval OPERATION < case.json), or pass - for reading the case input JSON "
    "from stdin as you type it (end it with Ctrl-D)"
)


def _read_input(source: str | None) -> serde_json.JSON:
    """The case input JSON from the file ``source``, or from stdin (``-``, or no file named
    when stdin is not a terminal: ``eval OP < case.json``)."""
    if source is None or source == "-":
        if sys.stdin is None:
            raise _UsageError("cannot read standard input: it is closed")
        if sys.stdin.isatty():
            if source is None:  # Nothing named and nothing piped: say how, do not wait.
                raise _UsageError(_EVAL_USAGE)
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
    if not data.strip():
        raise _UsageError(f"{where} is empty: {_EVAL_USAGE}")
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


def _select(args: argparse.Namespace) -> tuple[Path, list[Vector], list[Vector]]:
    """The vector tree, every vector in it, and the vectors ``run`` was asked for."""
    from mcp_touchstone.conformance import VectorError, default_vectors_dir, load_vectors

    if args.vectors is not None and not args.vectors.strip():
        raise _UsageError(_EMPTY_VECTORS)
    if getattr(args, "impl", None) is not None and not args.impl.strip():
        raise _UsageError(_EMPTY_IMPL)
    root = Path(args.vectors) if args.vectors is not None else default_vectors_dir()
    if root is None:
        raise _UsageError("no vectors installed: pass --vectors DIR")
    try:
        every = vectors = load_vectors(root)
    except VectorError as exc:
        raise _UsageError(str(exc)) from None
    if getattr(args, "semantic", None):
        known = sorted({v.semantic for v in vectors})
        unknown = [s for s in args.semantic if s not in known]
        if unknown:
            raise _UsageError(
                f"unknown semantic {', '.join(map(repr, unknown))} (known: {', '.join(known)})"
            )
        vectors = [v for v in vectors if v.semantic in args.semantic]
    if getattr(args, "match", None):
        vectors = [v for v in vectors if args.match in v.id]
    if getattr(args, "shard", None):
        index, count = args.shard
        vectors = [v for n, v in enumerate(vectors) if n % count == index - 1]
    if not vectors:
        raise _UsageError("no vectors selected")
    return root, every, vectors


def _command(impl: str | None) -> list[str]:
    from mcp_touchstone.conformance import default_command

    if impl is None:
        return default_command()
    if not impl.strip():
        raise _UsageError(_EMPTY_IMPL)
    try:
        command = shlex.split(impl)
    except ValueError as exc:
        raise _UsageError(f"--impl {impl!r}: {exc}") from None
    if not command:
        raise _UsageError("--impl names no command")
    return command


def _writable(path: str | None, what: str) -> Path | None:
    """``path`` checked before the run, so an unwritable output costs no run."""
    if path is None:
        return None
    from mcp_touchstone.conformance._files import check_target

    target = Path(path)
    parent = target.parent if str(target.parent) else Path(".")
    if not path.strip() or not parent.is_dir() or not os.access(parent, os.W_OK):
        raise _UsageError(f"cannot write {what} {path}")
    try:
        check_target(target)  # CONF-OUT-1: a link, FIFO or device is refused before the run.
    except OSError as exc:
        raise _UsageError(f"cannot write {what} {path}: {exc.strerror}") from None
    return target


class _Progress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal (CONF-REPORT-2)."""

    def __init__(self) -> None:
        self.on = sys.stderr is not None and sys.stderr.isatty()

    def __call__(self, done: int, total: int) -> None:
        if self.on and total:
            filled = 30 * done // total
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total}")
            sys.stderr.flush()

    def end(self) -> None:
        if self.on:
            sys.stderr.write("\r" + " " * 60 + "\r")
            sys.stderr.flush()


def _cmd_run(args: argparse.Namespace) -> int:
    from mcp_touchstone.conformance import ProtocolError, Verdict, _baseline, _report, run_vectors
    from mcp_touchstone.conformance._results import NoAnswerError

    root, every, vectors = _select(args)
    command = _command(args.impl)
    baseline = _baseline.EMPTY
    if args.expected_failures:
        try:
            baseline = _baseline.load(Path(args.expected_failures))
            _baseline.check_known(baseline, Path(args.expected_failures), every)
        except _baseline.BaselineError as exc:
            raise _UsageError(str(exc)) from None
    report_path = _writable(args.report, "report")
    baseline_out = _writable(args.write_baseline, "baseline")
    if args.badge is not None and (not args.badge.strip() or Path(args.badge).is_file()):
        raise _UsageError(f"cannot write badges into {args.badge!r}: not a directory")
    progress = _Progress()
    try:
        report = run_vectors(
            vectors, command, timeout=args.timeout, progress=progress, jobs=args.jobs
        )
    except ProtocolError as exc:
        message = f"implementation {' '.join(command)}: {exc}"
        if report_path is not None and isinstance(exc, NoAnswerError):
            # It never answered start: the report is where a CI looks for why (CONF-START-1).
            failed = _report.failed_json(message, exc.exit_status, exc.stderr_tail)
            _write_file(report_path, "report", serde_json.to_string(failed) + "\n")
        raise _UsageError(message) from None
    finally:
        progress.end()
    if not any(r.verdict is not Verdict.NOT_APPLICABLE for r in report.results):
        # Nothing run is no verdict: the run could not be made (CONF-START-1).
        ops = sorted(report.operations)
        listed = ", ".join(ops[:6]) + (", ..." if len(ops) > 6 else "") if ops else "none"
        message = (
            f"implementation {' '.join(command)}: it announces none of the selected vectors' "
            f"operations in start (it announces {len(ops)}: {listed}), so nothing was run"
        )
        raise _UsageError(message)
    assessment = _baseline.assess(report, baseline)
    # VEC-REPORT-4: only a run that was made writes its files, each whole, then renamed over the
    # old one; they are written before the verdict is printed, so a full stdout loses no report.
    if report_path is not None:
        _write_file(report_path, "report", serde_json.to_string(_report.to_json(assessment)) + "\n")
    if baseline_out is not None:
        doc = _baseline.from_run(report, baseline)
        text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
        _write_file(baseline_out, "baseline", text)
    if args.badge is not None:
        try:
            _report.write_badges(Path(args.badge), assessment)
        except OSError as exc:
            raise _UsageError(f"cannot write badges into {args.badge}: {exc.strerror}") from None
    # VEC-REPORT-2: the verdict stands even when nobody reads the table (run | head -1).
    if args.format == "html":  # One self-contained page (mcp_touchstone.conformance._html_report).
        from mcp_touchstone.conformance._html_report import render_run

        text = render_run(assessment, vectors_dir=str(root))
    else:
        text = _report.render(assessment, args.format, vectors_dir=str(root))
    _write_stdout(text + "\n")
    if baseline_out is not None:
        # CONF-BASE-1: recording a baseline is what was asked; it succeeded.
        n = len(doc["entries"])
        listed = f"{n} {'entry' if n == 1 else 'entries'}"
        print(f"touchstone: wrote baseline {baseline_out} ({listed})", file=sys.stderr)
        return 0
    return 0 if assessment.conformant else 1


def _write_file(path: Path, what: str, text: str) -> None:
    from mcp_touchstone.conformance._files import write_atomic

    try:
        write_atomic(path, text)
    except OSError as exc:
        raise _UsageError(f"cannot write {what} {path}: {exc.strerror}") from None


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


def _cmd_vectors(args: argparse.Namespace) -> int:
    from mcp_touchstone.conformance import _lint, _manifest, default_vectors_dir

    if args.vectors is not None and not args.vectors.strip():
        raise _UsageError(_EMPTY_VECTORS)
    root = Path(args.vectors) if args.vectors else default_vectors_dir()
    if root is None or not root.is_dir():
        raise _UsageError(f"no vectors directory {root or ''}".strip())
    if args.action == "path":
        return 0 if _write_stdout(f"{root}\n") else 1
    if args.action == "manifest":
        if args.check:
            problems = _manifest.check(root)
            _write_stdout("".join(f"{p}\n" for p in problems) or "manifest: current\n")
            return 1 if problems else 0
        changed = _manifest.write(root)
        _write_stdout(f"{'wrote' if changed else 'unchanged'} {root / _manifest.MANIFEST}\n")
        return 0
    report = _lint.lint(root, run_reference=not args.no_reference)
    _write_stdout(_lint.render(report) + "\n")
    return 0 if report.ok else 1


def _cmd_drt(args: argparse.Namespace) -> int:
    from mcp_touchstone.conformance._drt import DrtError, outside_rules, run_drt
    from mcp_touchstone.conformance._text import short

    command = _command(args.impl)
    out_path = _writable(args.out, "candidate vector")
    leave_out: frozenset[str] = frozenset()
    if args.expected_failures:
        from mcp_touchstone.conformance import _baseline

        try:
            known = _baseline.load(Path(args.expected_failures))
        except _baseline.BaselineError as exc:
            raise _UsageError(f"drt: {exc}") from None
        if args.operation in known.operations:
            raise _UsageError(
                f"drt: the baseline expects {args.operation} to fail as a whole: "
                f"{known.operations[args.operation]}"
            )
        leave_out = frozenset(known.ids)
    if args.rule:
        try:
            leave_out |= outside_rules(args.operation, args.rule)
        except DrtError as exc:
            raise _UsageError(f"drt: {exc}") from None
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
        raise _UsageError(f"drt: {exc}") from None
    lines = [
        f"drt {result.operation}: {result.cases} cases in {result.seconds:.2f} s "
        f"({result.cases_per_second:,.0f} cases/s searching)"
    ]
    if result.candidate is None:
        lines.append("no difference found")
        _write_stdout("\n".join(lines) + "\n")
        return 0
    text = json.dumps(result.candidate, indent=2, ensure_ascii=False) + "\n"
    lines += [
        f"DIFFERENCE at {result.where}, shrunk in {result.shrink_seconds:.2f} s "
        f"({result.shrink_cases} cases asked while shrinking)",
        f"  actual:   {short(result.actual, 400)}",
        "candidate vector (origin drt-shrunk; paste into a vector file, then set rules):",
    ]
    _write_stdout("\n".join(lines) + "\n" + text)
    if out_path is not None:
        _write_file(out_path, "candidate vector", text)
    return 1


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
    e.set_defaults(func=_cmd_eval)

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
    r.set_defaults(func=_cmd_run)

    v = sub.add_parser("vectors", help="lint the vectors, regenerate the manifest, print the path")
    v.add_argument("action", choices=("lint", "manifest", "path"))
    v.add_argument("--vectors", help="vector tree (default: the vectors this package ships)")
    v.add_argument("--check", action="store_true", help="manifest: report, do not write")
    v.add_argument("--no-reference", action="store_true", help="lint: skip the reference run")
    v.set_defaults(func=_cmd_vectors)

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
    d.set_defaults(func=_cmd_drt)
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
    except _UsageError as exc:
        print(f"touchstone: {exc}", file=sys.stderr)
        return 2
