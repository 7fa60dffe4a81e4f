"""The ``touchstone`` console script's entry point.

A bare ``touchstone harness`` (what a conformance runner starts, once per run or per restart) is
served straight away: no argument parser, no subcommand module, so the harness answers ``start``
after importing only the line server and the operation table.  Every other command line goes to
:mod:`mcp_touchstone._cli_commands`, which parses it (``touchstone harness --help`` included).

Exit status: 0 success; 1 a run that is not conformant; 2 bad usage or bad input; 130 on SIGINT
and 143 on SIGTERM (see :data:`mcp_touchstone._cli_commands.EXIT_CODES`).
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Sequence

__all__ = ["main", "serve_harness"]

_TERMINATED: list[bool] = []
"""Set by the SIGTERM handler, which then raises KeyboardInterrupt: SIGTERM unwinds a run (and
ends its implementation) exactly as SIGINT does, and exits 143 instead of 130."""


def serve_harness() -> int:
    """``touchstone harness``: serve the built-in reference on stdin and stdout."""
    from mcp_touchstone.harness._registry import reference_operations
    from mcp_touchstone.harness._server import main as serve

    return serve(reference_operations())


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``touchstone`` console script."""
    args = list(sys.argv[1:] if argv is None else argv)
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        if args == ["harness"]:
            status = serve_harness()
            if argv is None:  # The program itself (console script or -m), not a caller's call.
                _exit_now(status)
            return status
        from mcp_touchstone._cli_commands import run

        if argv is None:
            return _as_program(run, args)
        return run(args)
    except KeyboardInterrupt:
        return 128 + signal.SIGTERM if _TERMINATED else 130
    finally:
        signal.signal(signal.SIGTERM, previous)


def _as_program(run: Callable[[list[str]], int], args: list[str]) -> int:
    """Run a command as the ``touchstone`` program: the reaper of every process it starts,
    all of which are killed when it ends, however it ends (CONF-PROC-1).  A library caller
    (``main(argv)``) keeps its own process as it is."""
    from mcp_touchstone.conformance._process import become_subreaper, end_descendants

    become_subreaper()
    try:
        return run(args)
    finally:
        end_descendants()


def _exit_now(status: int) -> None:
    """End a ``touchstone harness`` process that has answered ``stop`` (or read its input to the
    end) without the interpreter's teardown: its answers are flushed, it holds no other
    resource, and unloading every module it imported cost a runner ~20 ms of waiting per
    process (HARNESS-CLI-3).  Exits with ``status`` (HARNESS-WIRE-2)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # A reader already gone: as the interpreter's flush.
            pass
    os._exit(status)


def _on_sigterm(signum: int, frame: object) -> None:
    del signum, frame
    _TERMINATED.append(True)
    raise KeyboardInterrupt
