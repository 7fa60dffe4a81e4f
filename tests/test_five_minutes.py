"""The README's five-minute path, run as written from the built wheel in a fresh venv in an
empty directory: no checkout, nothing but what `pip install` brings (issue: the examples, the
Node.js harness and the pytest plugin ship in the wheel)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SECTION = README.split("## Run it against your SDK in five minutes", 1)[1].split("\n## ", 1)[0]
EVAL_OUTPUT = '{"matches":[{"index":1,"specificity":[1,1,0]},{"index":0,"specificity":[0,0,0]}]}'


def _sh_lines(text: str) -> list[str]:
    """The commands of the text's ```sh blocks, comments dropped, continuations joined."""
    out = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.DOTALL):
        joined = re.sub(r"\\\n\s*", " ", block)
        for line in joined.splitlines():
            command = line.split("  #", 1)[0].strip()
            if command:
                out.append(command)
    return out


@pytest.mark.slow
def test_readme_five_minute_path_from_the_wheel(tmp_path: Path) -> None:
    """SETUP-2: every command of the five-minute block, then the pytest plugin's, exits 0 and says
    what the README says it does."""
    first, *rest = _sh_lines(SECTION)
    assert first == "pip install mcp-touchstone"
    plugin = next(c for c in rest if c.startswith("pytest --touchstone-impl"))
    path = rest[: next(i for i, c in enumerate(rest) if c.startswith("touchstone run --impl"))]
    path.append(next(c for c in rest if c.startswith("touchstone run --impl")))

    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", str(ROOT), "-w", str(dist)],
        check=True,
        capture_output=True,
    )
    (wheel,) = dist.glob("*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bin_dir = venv / "bin"
    subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheel), "pytest"],
        check=True,
        capture_output=True,
    )
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"

    def sh(command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", "-c", command],
            cwd=empty,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )

    outputs = {}
    for command in path:
        done = sh(command)
        assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        outputs[command] = done.stdout
    assert "conformant: yes" in outputs["touchstone run"]
    listed = outputs["touchstone example"]
    for name in ("scope", "server", "client", "node-harness", "node-baseline"):
        assert re.search(rf"^{name}\s", listed, re.MULTILINE), listed
    evaluated = next(c for c in path if "touchstone eval" in c)
    assert outputs[evaluated].strip() == EVAL_OUTPUT
    assert EVAL_OUTPUT in README
    assert (empty / "harness.js").stat().st_size > 10_000
    ran = outputs[path[-1]]
    assert "conformant: yes" in ran
    assert "touchstone-node-harness" in ran
    # The pytest plugin, from the wheel's entry point (cache off: the directory stays empty).
    done = sh(plugin + " -q -p no:cacheprovider")
    assert done.returncode == 0, done.stdout[-3000:]
    assert re.search(r"\d{4} passed, \d+ xfailed", done.stdout), done.stdout[-500:]
    # The example server ships as a module, the same file `touchstone example server` prints.
    where = sh("touchstone example server --path").stdout.strip()
    assert where.startswith(str(venv))
    assert sh("python -c 'import mcp_touchstone.examples'").returncode == 0
