"""The README's examples run as written, and it agrees with the Makefile."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _commands(prefix: str) -> list[str]:
    """The README's shell lines starting with ``prefix`` (comments after ``#`` dropped)."""
    blocks = re.findall(r"```sh\n(.*?)```", README, re.DOTALL)
    lines = [line.split("  #", 1)[0].strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if prefix in line]


@pytest.mark.parametrize("command", _commands("touchstone eval"))
def test_readme_eval_examples_run_as_written(command: str, tmp_path: Path) -> None:
    """HARNESS-CLI-2: each `touchstone eval` line of the README exits 0 in an empty directory,
    with this interpreter's `touchstone` first on PATH."""
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    out = subprocess.run(
        ["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("{")


def test_readme_report_example_leaves_the_tree_clean() -> None:
    """VEC-REPORT-4: the README's --report example writes outside the repository."""
    reports = list(_commands("--report"))
    assert reports
    for command in reports:
        target = command.split("--report", 1)[1].split()[0]
        assert Path(target).is_absolute()
        assert not Path(target).is_relative_to(ROOT)


def test_readme_and_makefile_agree_on_the_slow_budget() -> None:
    """The `make slow` budget reads the same in the README and the Makefile."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    budget = re.search(r"## slow:.*?~(\d+) min", makefile)
    assert budget is not None
    assert f"about {budget.group(1)} minutes on 2 cores" in README
