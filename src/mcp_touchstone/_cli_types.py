"""The argument types of ``touchstone``'s subcommands (``--timeout``, ``--jobs``, ``--shard``,
positive counts) and its parser class: each bad value a one-line usage error, exit status 2."""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = ["MAX_TIMEOUT", "Parser", "Version", "jobs", "positive_int", "shard", "timeout"]

MAX_TIMEOUT = 86_400.0
"""The longest ``--timeout`` (a day): a wait the operating system's timers can still hold."""


def timeout(text: str) -> float:
    """``--timeout``: seconds, a positive finite number, at most :data:`MAX_TIMEOUT`."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds: {text!r}")
    if value > MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_TIMEOUT:g} seconds: {text!r}")
    return value


def positive_int(text: str) -> int:
    """A count: an integer >= 1."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer: {text!r}")
    return int(text)


def jobs(text: str) -> int:
    """``--jobs N``: N >= 1 processes; ``0`` or ``auto``: one per CPU (CONF-JOBS-1)."""
    if text != "auto" and not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"must be a number of processes, 0 or auto: {text!r}")
    count = 0 if text == "auto" else int(text)
    return count or os.cpu_count() or 1


def shard(text: str) -> tuple[int, int]:
    """``--shard I/N``: 1 <= I <= N."""
    index, _, count = text.partition("/")
    if not (index.isdigit() and count.isdigit() and 1 <= int(index) <= int(count)):
        raise argparse.ArgumentTypeError(f"must be I/N with 1 <= I <= N: {text!r}")
    return int(index), int(count)


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit status 2, like bad input."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"touchstone: {message} (see {self.prog} --help)\n")

    def print_help(self, file: SupportsWrite[str] | None = None) -> None:
        """Print the help to ``file`` (standard output); a write that fails there (a full disk,
        ``>/dev/full``) is exit status 2 with one line saying so, never a silent success."""
        self.emit(self.format_help(), file)

    def emit(self, text: str, file: SupportsWrite[str] | None = None) -> None:
        """Write ``text`` to ``file`` (standard output) and flush it, or exit 2 naming why not."""
        out = file if file is not None else sys.stdout
        if out is None:
            return
        try:
            out.write(text)
            if (flush := getattr(out, "flush", None)) is not None:
                flush()
        except OSError as exc:
            if out is sys.stdout:
                # Drop what is buffered, so the interpreter's flush at exit cannot fail again.
                os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
                with contextlib.suppress(OSError):
                    out.flush()
            self.exit(2, f"touchstone: cannot write to standard output: {exc.strerror}\n")


class Version(argparse.Action):
    """``--version``: print it, as :meth:`Parser.emit` does (a failed write is exit status 2)."""

    def __init__(self, option_strings: list[str], version: str, dest: str = "version") -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")
        self.version = version

    def __call__(self, parser: argparse.ArgumentParser, *_args: object, **_kwargs: object) -> None:
        assert isinstance(parser, Parser)
        parser.emit(self.version + "\n")
        parser.exit()
