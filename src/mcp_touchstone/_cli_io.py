"""What every ``touchstone`` subcommand shares (:mod:`mcp_touchstone._cli_commands`): the
one-line usage error (exit status 2), writing standard output and files, checking an output path
before the work, and the implementation command ``--impl`` names."""

from __future__ import annotations

import contextlib
import os
import shlex
import sys
from pathlib import Path

from mcp_touchstone._errors import TouchstoneError

__all__ = [
    "EMPTY_IMPL",
    "EMPTY_VECTORS",
    "UsageError",
    "impl_command",
    "writable",
    "write_file",
    "write_stdout",
]


class UsageError(TouchstoneError):
    """A one-line problem with what the user asked for (exit status 2)."""


EMPTY_VECTORS = "--vectors is empty (an unset variable?): name a vector directory"
EMPTY_IMPL = "--impl names no command (it is empty: an unset variable?)"


def write_stdout(text: str) -> bool:
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
        raise UsageError(f"cannot write to standard output: {exc.strerror}") from None
    return True


def impl_command(impl: str | None) -> list[str]:
    """The command ``--impl`` names, split as a shell would (default: the built-in reference)."""
    from mcp_touchstone.conformance import default_command

    if impl is None:
        return default_command()
    if not impl.strip():
        raise UsageError(EMPTY_IMPL)
    try:
        command = shlex.split(impl)
    except ValueError as exc:
        raise UsageError(f"--impl {impl!r}: {exc}") from None
    if not command:
        raise UsageError("--impl names no command")
    return command


def writable(path: str | None, what: str) -> Path | None:
    """``path`` checked before the run, so an unwritable output costs no run."""
    if path is None:
        return None
    from mcp_touchstone.conformance._files import check_target

    target = Path(path)
    parent = target.parent if str(target.parent) else Path(".")
    if not path.strip() or not parent.is_dir() or not os.access(parent, os.W_OK):
        raise UsageError(f"cannot write {what} {path}")
    try:
        check_target(target)  # CONF-OUT-1: a link, FIFO or device is refused before the run.
    except OSError as exc:
        raise UsageError(f"cannot write {what} {path}: {exc.strerror}") from None
    return target


def write_file(path: Path, what: str, text: str) -> None:
    from mcp_touchstone.conformance._files import write_atomic

    try:
        write_atomic(path, text)
    except OSError as exc:
        raise UsageError(f"cannot write {what} {path}: {exc.strerror}") from None
