"""Which tests execute which source lines: the test selection of ``make mutants``.

Two halves. As a pytest plugin (``pytest -p assurance.covmap``, with ``COVMAP_OUT`` and
``COVMAP_SOURCE`` in the environment) it runs the package's test subset once, unmutated, under
coverage.py with one dynamic context per test (its node id), and writes ``{file: {line: [node
ids]}}`` for the files under ``COVMAP_SOURCE``; a line executed outside any test (at import or
collection: module-level code, ``def`` and class bodies) is recorded under the id ``""``.
As a library, :func:`tests_for` answers, for a mutant's line range, the tests to run first:
``None`` when the range holds import-time code (the edit can reach any test: run them all).

The selection only orders the work. A mutant that the selected tests do not kill is then run
against the whole subset, so a survivor is exactly what it was without the map (the harness
tests start subprocesses, whose lines coverage does not see); a kill is a real test failing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

_COV: Any = None

CovMap = dict[str, dict[int, list[str]]]
"""source-relative file -> line -> node ids of the tests executing it (``""``: import time)."""


def pytest_configure(config: pytest.Config) -> None:
    """Start coverage before the test modules (and so the package) are imported."""
    global _COV  # noqa: PLW0603 - one coverage session per pytest process, by design
    import coverage

    source = os.environ["COVMAP_SOURCE"]
    _COV = coverage.Coverage(data_file=None, source=[source], branch=False)
    _COV.start()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, None, None]:
    """Attribute the lines a test executes (setup, call, teardown) to its node id."""
    _COV.switch_context(item.nodeid)
    yield
    _COV.switch_context("")


def pytest_unconfigure(config: pytest.Config) -> None:
    """Write the map: source-relative file -> line -> the node ids that executed it."""
    _COV.stop()
    data = _COV.get_data()
    source = Path(os.environ["COVMAP_SOURCE"])
    out: dict[str, dict[str, list[str]]] = {}
    for path in data.measured_files():
        rel = str(Path(path).resolve().relative_to(source.resolve()))
        by_line = data.contexts_by_lineno(path)
        out[rel] = {str(line): sorted(ids) for line, ids in by_line.items()}
    Path(os.environ["COVMAP_OUT"]).write_text(json.dumps(out), encoding="utf-8")


def load(path: Path) -> CovMap:
    """The map written by the plugin, with integer line numbers."""
    raw: dict[str, dict[str, list[str]]] = json.loads(path.read_text(encoding="utf-8"))
    return {f: {int(k): v for k, v in lines.items()} for f, lines in raw.items()}


def tests_for(cmap: CovMap, rel: str, first: int, last: int) -> list[str] | None:
    """The node ids executing any line of ``rel`` in ``first..last``; ``None`` (run everything)
    when one of those lines runs at import time or the file was never measured."""
    lines = cmap.get(rel)
    if lines is None:
        return None
    ids: set[str] = set()
    for line in range(first, last + 1):
        for nodeid in lines.get(line, []):
            if nodeid == "":
                return None
            ids.add(nodeid)
    return sorted(ids)


__all__ = ["CovMap", "load", "tests_for"]
