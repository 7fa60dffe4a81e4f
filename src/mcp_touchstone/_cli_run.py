"""``touchstone run`` and ``touchstone vectors``: the vector tree selected, run against an
implementation, assessed against a baseline and reported; the tree linted or its manifest
written."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from mcp_touchstone import serde_json
from mcp_touchstone._cli_io import (
    EMPTY_VECTORS,
    UsageError,
    impl_command,
    writable,
    write_file,
    write_stdout,
)

if TYPE_CHECKING:
    from mcp_touchstone.conformance import Vector

__all__ = ["cmd_run", "cmd_vectors", "select"]


def select(args: argparse.Namespace) -> tuple[Path, list[Vector], list[Vector]]:
    """The vector tree, every vector in it, and the vectors ``run`` was asked for (``--vectors``
    is checked not to be empty before)."""
    from mcp_touchstone.conformance import VectorError, default_vectors_dir, load_vectors

    root = Path(args.vectors) if args.vectors is not None else default_vectors_dir()
    if root is None:
        raise UsageError("no vectors installed: pass --vectors DIR")
    try:
        every = vectors = load_vectors(root)
    except VectorError as exc:
        raise UsageError(str(exc)) from None
    if getattr(args, "semantic", None):
        known = sorted({v.semantic for v in vectors})
        unknown = [s for s in args.semantic if s not in known]
        if unknown:
            raise UsageError(
                f"unknown semantic {', '.join(map(repr, unknown))} (known: {', '.join(known)})"
            )
        vectors = [v for v in vectors if v.semantic in args.semantic]
    if getattr(args, "match", None):
        vectors = [v for v in vectors if args.match in v.id]
    if getattr(args, "shard", None):
        index, count = args.shard
        vectors = [v for n, v in enumerate(vectors) if n % count == index - 1]
    if not vectors:
        raise UsageError("no vectors selected")
    return root, every, vectors


class Progress:
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


def cmd_run(args: argparse.Namespace) -> int:
    """``touchstone run``: the selected vectors against the implementation, reported; 1 when
    the run is not conformant.  The implementation is started first, so that its start-up
    overlaps the loading of the vectors; a usage error found after it ends it (CONF-PROC-1)."""
    from mcp_touchstone.conformance import ProtocolError, Verdict, _baseline, _report
    from mcp_touchstone.conformance._results import NoAnswerError
    from mcp_touchstone.conformance._runner import Implementation

    if args.vectors is not None and not args.vectors.strip():
        raise UsageError(EMPTY_VECTORS)
    command = impl_command(args.impl)
    report_path: Path | None = None
    progress = Progress()
    try:
        with Implementation(command, jobs=args.jobs) as implementation:
            root, every, vectors = select(args)
            baseline = _baseline.EMPTY
            if args.expected_failures:
                try:
                    baseline = _baseline.load(Path(args.expected_failures))
                    _baseline.check_known(baseline, Path(args.expected_failures), every)
                except _baseline.BaselineError as exc:
                    raise UsageError(str(exc)) from None
            report_path = writable(args.report, "report")
            baseline_out = writable(args.write_baseline, "baseline")
            if args.badge is not None and (not args.badge.strip() or Path(args.badge).is_file()):
                raise UsageError(f"cannot write badges into {args.badge!r}: not a directory")
            report = implementation.run(vectors, timeout=args.timeout, progress=progress)
    except ProtocolError as exc:
        message = f"implementation {' '.join(command)}: {exc}"
        if report_path is not None and isinstance(exc, NoAnswerError):
            # It never answered start: the report is where a CI looks for why (CONF-START-1).
            failed = _report.failed_json(message, exc.exit_status, exc.stderr_tail)
            write_file(report_path, "report", serde_json.to_string(failed) + "\n")
        raise UsageError(message) from None
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
        raise UsageError(message)
    assessment = _baseline.assess(report, baseline)
    # VEC-REPORT-4: only a run that was made writes its files, each whole, then renamed over the
    # old one; they are written before the verdict is printed, so a full stdout loses no report.
    if report_path is not None:
        write_file(report_path, "report", serde_json.to_string(_report.to_json(assessment)) + "\n")
    if baseline_out is not None:
        doc = _baseline.from_run(report, baseline)
        text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
        write_file(baseline_out, "baseline", text)
    if args.badge is not None:
        try:
            _report.write_badges(Path(args.badge), assessment)
        except OSError as exc:
            raise UsageError(f"cannot write badges into {args.badge}: {exc.strerror}") from None
    # VEC-REPORT-2: the verdict stands even when nobody reads the table (run | head -1).
    if args.format == "html":  # One self-contained page (mcp_touchstone.conformance._html_report).
        from mcp_touchstone.conformance._html_report import render_run

        text = render_run(assessment, vectors_dir=str(root))
    else:
        text = _report.render(assessment, args.format, vectors_dir=str(root))
    write_stdout(text + "\n")
    if baseline_out is not None:
        # CONF-BASE-1: recording a baseline is what was asked; it succeeded.
        n = len(doc["entries"])
        listed = f"{n} {'entry' if n == 1 else 'entries'}"
        print(f"touchstone: wrote baseline {baseline_out} ({listed})", file=sys.stderr)
        return 0
    return 0 if assessment.conformant else 1


def cmd_vectors(args: argparse.Namespace) -> int:
    """``touchstone vectors lint|manifest|path``."""
    from mcp_touchstone.conformance import _lint, _manifest, default_vectors_dir

    if args.vectors is not None and not args.vectors.strip():
        raise UsageError(EMPTY_VECTORS)
    root = Path(args.vectors) if args.vectors else default_vectors_dir()
    if root is None or not root.is_dir():
        raise UsageError(f"no vectors directory {root or ''}".strip())
    if args.action == "path":
        return 0 if write_stdout(f"{root}\n") else 1
    if args.action == "manifest":
        if args.check:
            problems = _manifest.check(root)
            write_stdout("".join(f"{p}\n" for p in problems) or "manifest: current\n")
            return 1 if problems else 0
        changed = _manifest.write(root)
        write_stdout(f"{'wrote' if changed else 'unchanged'} {root / _manifest.MANIFEST}\n")
        return 0
    report = _lint.lint(root, run_reference=not args.no_reference)
    write_stdout(_lint.render(report) + "\n")
    return 0 if report.ok else 1
