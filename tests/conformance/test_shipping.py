"""The vectors ship twice: inside the wheel, and as plain files with a manifest (CONF-SHIP-*)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mcp_touchstone.conformance import _manifest, default_vectors_dir

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "conformance" / "vectors"


def test_manifest_is_current() -> None:
    """CONF-SHIP-2: MANIFEST.json matches the tree (sha256 per file, counts); `make vectors`
    regenerates it when a file or an operation is added."""
    assert _manifest.check(VECTORS) == []


def test_manifest_counts_follow_the_tree() -> None:
    """CONF-SHIP-2: the manifest's counts are the tree's own, per operation, semantic and rule."""
    manifest = json.loads((VECTORS / _manifest.MANIFEST).read_text())
    files = sorted(VECTORS.glob("*/*.json"))
    ops: dict[str, int] = {}
    for path in files:
        doc = json.loads(path.read_text())
        ops[doc["operation"]] = ops.get(doc["operation"], 0) + len(doc["tests"])
    assert manifest["counts"]["operation"] == dict(sorted(ops.items()))
    assert manifest["vectors"] == sum(ops.values())
    assert len(manifest["files"]) == len(files)


def test_manifest_check_names_a_changed_file(tmp_path: Path) -> None:
    """CONF-SHIP-2: editing a vector file without regenerating the manifest is reported."""
    tree = tmp_path / "vectors"
    shutil.copytree(VECTORS, tree)
    path = tree / "json" / "to_string.json"
    path.write_text(path.read_text().replace('"title": "', '"title": "x', 1))
    problems = _manifest.check(tree)
    assert any("json/to_string.json" in p for p in problems), problems
    assert _manifest.write(tree)
    assert _manifest.check(tree) == []


def test_canonical_text_keeps_number_literals() -> None:
    """CONF-FMT-1: canonical text keeps `-0` and `1.50` as written (Python's json would not)."""
    text = '{"a":[-0,1.50,1E2],"b":{}}'
    assert _manifest.canonical_text(text) == (
        '{\n  "a": [\n    -0,\n    1.50,\n    1E2\n  ],\n  "b": {}\n}\n'
    )


def test_default_vectors_ignore_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CONF-SHIP-1: a `conformance/vectors` in the working directory is not what `run` uses."""
    (tmp_path / "conformance" / "vectors").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    assert default_vectors_dir() == VECTORS


@pytest.mark.slow
def test_installed_wheel_runs_from_an_empty_directory(tmp_path: Path) -> None:
    """CONF-SHIP-1: build the wheel, install it in a fresh venv, and `touchstone run` in an empty
    directory runs every shipped vector against the reference and passes; the installed lint
    passes too."""
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", str(ROOT), "-w", str(dist)],
        check=True,
        capture_output=True,
    )
    (wheel,) = dist.glob("*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    subprocess.run(
        [str(py), "-m", "pip", "install", "-q", str(wheel)], check=True, capture_output=True
    )
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    run = subprocess.run(
        [str(venv / "bin" / "touchstone"), "run", "--format", "json"],
        cwd=empty,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    report = json.loads(run.stdout)
    manifest = json.loads((VECTORS / _manifest.MANIFEST).read_text())
    assert report["conformant"] is True
    assert len(report["results"]) == manifest["vectors"]
    where = subprocess.run(
        [str(venv / "bin" / "touchstone"), "vectors", "path"],
        cwd=empty,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert "_vectors_data" in where
    assert str(venv) in where
    lint = subprocess.run(
        [str(venv / "bin" / "touchstone"), "vectors", "lint"],
        cwd=empty,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert lint.returncode == 0, lint.stdout[-2000:]
