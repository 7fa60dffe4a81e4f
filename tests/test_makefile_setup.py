"""`make test` installs what its tests start, or says in one line what is missing (the
`redis-server` and `chromium` targets it depends on)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _make(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    make = shutil.which("make")
    assert make is not None, "make is a prerequisite"
    return subprocess.run(
        [make, "--no-print-directory", "-C", str(ROOT), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_present_programs_need_nothing() -> None:
    """SETUP-1: with redis-server and Chromium installed (as `make test` leaves them) the targets
    are silent no-ops."""
    done = _make("redis-server", "chromium")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize(
    ("target", "override", "named"),
    [
        ("redis-server", "REDIS_SERVER=no-such-redis-server", "redis-server is needed"),
        ("chromium", "CHROMIUM_NAMES=no-such-browser", "Chromium is needed"),
    ],
)
def test_missing_program_without_root_is_one_line(
    tmp_path: Path, target: str, override: str, named: str
) -> None:
    """SETUP-1: not root (an `id` answering 1000 first on PATH), a missing program stops the target
    with one line naming it and how to install it; nothing is attempted."""
    fake = tmp_path / "id"
    fake.write_text("#!/bin/sh\necho 1000\n")
    fake.chmod(0o755)
    env = {**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}"}
    env.pop("CHROMIUM", None)
    done = _make(target, override, env=env)
    assert done.returncode != 0
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, done.stdout
    assert lines[0].startswith(f"make: {named}")
    assert "apt-get install" in lines[0]
