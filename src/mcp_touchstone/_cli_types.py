"""The argument types of ``touchstone``'s subcommands (``--timeout``, ``--jobs``, ``--shard``,
positive counts) and its parser class: each bad value a one-line usage error, exit status 2."""

from __future__ import annotations

import argparse
import math
import os
from typing import NoReturn

__all__ = ["Parser", "jobs", "positive_int", "shard", "timeout"]


def timeout(text: str) -> float:
    """``--timeout``: seconds, a positive finite number."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds: {text!r}")
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
