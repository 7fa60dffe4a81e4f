"""A ``touchstone harness`` process ends without the interpreter's teardown, its every answer
written first (HARNESS-CLI-3)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from mcp_touchstone import serde_json
from mcp_touchstone.conformance import Vector, default_vectors_dir, load_vectors
from mcp_touchstone.conformance._worker import expected_line, request_line

_START = b'{"cmd":"start","version":1}\n'


def _cases() -> tuple[bytes, list[bytes]]:
    """Request lines for one shipped vector of every operation, and the answers they expect."""
    root = default_vectors_dir()
    assert root is not None
    seen: dict[str, Vector] = {}
    for vector in load_vectors(root):
        seen.setdefault(vector.operation, vector)
    chosen = list(seen.values())
    requests = b"".join(request_line(seq, v) for seq, v in enumerate(chosen))
    return requests, [expected_line(v, seq) for seq, v in enumerate(chosen)]


_ENTRY = "import sys; from mcp_touchstone._cli import main; sys.exit(main())"


@pytest.mark.parametrize("ending", [b'{"cmd":"stop"}\n', b""], ids=["stop", "end of input"])
@pytest.mark.parametrize(
    "command",
    [["-m", "mcp_touchstone", "harness"], ["-c", _ENTRY, "harness"]],
    ids=["-m", "console entry"],
)
def test_every_answer_is_written_before_the_fast_exit(ending: bytes, command: list[str]) -> None:
    """After ``stop`` or at the end of its input the process exits 0 at once, and every answer
    (one per operation, each semantic's adapter loaded) reached stdout before it did."""
    requests, expected = _cases()
    proc = subprocess.run(
        [sys.executable, *command],
        input=_START + requests + ending,
        capture_output=True,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == b""
    lines = proc.stdout.splitlines()
    hello = serde_json.from_str(lines[0])
    assert isinstance(hello, dict)
    assert hello["version"] == 1
    assert lines[1:] == expected


def test_a_full_stdout_still_exits_2_with_its_one_line() -> None:
    """The fast exit keeps HARNESS-CLI-2's status and message for a stdout that cannot be
    written (a full disk)."""
    with open("/dev/full", "wb") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "mcp_touchstone", "harness"],
            input=_START + b'{"cmd":"stop"}\n',
            stdout=full,
            stderr=subprocess.PIPE,
            check=False,
            timeout=60,
        )
    assert proc.returncode == 2
    assert proc.stderr.startswith(b"touchstone harness: cannot write to standard output:")
