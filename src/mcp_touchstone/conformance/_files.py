"""Output files (reports, baselines, badges, candidate vectors): written whole and renamed into
place, to regular files only, with the permissions the umask gives (CONF-OUT-1).

A reader sees the old file or the whole new one: the text goes to a temporary file in the same
directory, is synced, and replaces the target with ``os.replace``.  Whatever already stands at
the target and is not a regular file -- a symbolic link, a FIFO, a device, a socket -- is left
alone and refused: a rename would turn it into a regular file (as root, ``/dev/full`` included).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

from mcp_touchstone._errors import TouchstoneError

__all__ = ["NotRegularFileError", "check_target", "write_atomic"]


class NotRegularFileError(TouchstoneError, OSError):
    """The target exists and is not a regular file; its ``strerror`` says so in one line."""


def check_target(path: Path) -> None:
    """:class:`NotRegularFileError` when something other than a regular file is at ``path``
    (a symbolic link is refused whatever it points at)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        kind = (
            "a symbolic link"
            if stat.S_ISLNK(mode)
            else "a FIFO"
            if stat.S_ISFIFO(mode)
            else "a directory"
            if stat.S_ISDIR(mode)
            else "a device or socket"
        )
        raise NotRegularFileError(
            errno.EEXIST, f"it is {kind}, not a regular file (only regular files are replaced)"
        )


def _umask() -> int:
    """The process's umask (read by setting it and putting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the whole new one; the
    new file gets mode ``0o666`` less the umask, as ``open`` would give it."""
    check_target(path)
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            os.fchmod(f.fileno(), 0o666 & ~_umask())
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        check_target(path)  # Still nothing but a regular file there, right before the rename.
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
