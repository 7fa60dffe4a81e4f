"""The per-mutant test command of ``make mutants`` (``python -m assurance.kill PKG``).

cosmic-ray runs it once per mutant in the private tree copy, with the mutant applied to one
module. It exits non-zero (killed) at the first of:

1. a conformance vector of the package's semantic(s) answered wrongly by the reference, run
   in-process exactly as ``tests/test_vectors.py`` runs every vector (the operation table of
   ``reference_operations`` and the vector's own comparison);
2. a failing test among those of the package's selection that execute a mutated line in the
   unmutated run (``assurance/covmap.py``; all of the selection when a mutated line runs at
   import time), under ``pytest -x`` and the Hypothesis profile ``mutants``.

A test that never executes a mutated line behaves as it does unmutated, so leaving it out can
only let a mutant survive, never count one killed that is not. A line of a ``def``'s signature
after its first runs in no test (coverage records none), so a mutant there counts as touching
the first line of the body: the tests that call the function. ``--all`` runs the whole
selection (the baseline, which must pass).
"""

from __future__ import annotations

import ast
import difflib
import os
import sys
from pathlib import Path

from assurance import covmap
from assurance.mutants import PACKAGES, PRISTINE, covmap_path, package_modules, test_args

TREE = Path.cwd()


def mutated_lines(pkg: str) -> tuple[str, int, int] | None:
    """The module that differs from its pristine copy and the span of its changed lines (in the
    pristine numbering), or None when no module differs (the baseline)."""
    for rel in package_modules(pkg, TREE):
        now = (TREE / "src" / "mcp_touchstone" / rel).read_text(encoding="utf-8")
        was = (TREE / PRISTINE / rel).read_text(encoding="utf-8")
        if now == was:
            continue
        old, new = was.splitlines(), now.splitlines()
        spans = [
            (i1 + 1, max(i2, i1 + 1))
            for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, old, new).get_opcodes()
            if tag != "equal"
        ]
        first, last = min(s for s, _ in spans), max(e for _, e in spans)
        return rel, first, _past_signature(was, first, last)
    return None


def _past_signature(source: str, first: int, last: int) -> int:
    """``last``, or the line of a function's first statement (after its docstring) when
    ``first..last`` lies in the lines of its signature after the ``def`` line, which no test
    executes."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if ast.get_docstring(node, clean=False) is not None and len(body) > 1:
                body = body[1:]
            if node.lineno < first and last < node.body[0].lineno:
                return body[0].lineno
    return last


def run_vectors(pkg: str) -> str | None:
    """The id of the first vector the reference answers wrongly (or that raises), else None."""
    from mcp_touchstone.conformance import load_file, outputs_match
    from mcp_touchstone.harness import reference_operations

    ops = reference_operations()
    for semantic in PACKAGES[pkg].semantics:
        for path in sorted((TREE / "conformance" / "vectors" / semantic).glob("*.json")):
            for vector in load_file(path):
                try:
                    ok = outputs_match(
                        vector.operation, vector.expected, ops[vector.operation](vector.input)
                    )
                except Exception as exc:  # any raise is a wrong answer
                    return f"{vector.id} ({type(exc).__name__})"
                if not ok:
                    return vector.id
    return None


def main(argv: list[str]) -> int:
    """Exit 0 when the mutant survives, 1 when a vector or a test kills it."""
    pkg, whole = argv[0], "--all" in argv
    os.environ["HYPOTHESIS_PROFILE"] = "mutants"
    import mcp_touchstone

    if not Path(mcp_touchstone.__file__).resolve().is_relative_to(TREE.resolve()):
        print(f"mcp_touchstone is imported from {mcp_touchstone.__file__}, not this tree")
        return 3
    failed = run_vectors(pkg)
    if failed is not None:
        print(f"killed by vector {failed}")
        return 1
    tests: list[str] = list(PACKAGES[pkg].tests)
    where = None if whole else mutated_lines(pkg)
    if where is not None:
        cmap = covmap.load(covmap_path(pkg, TREE))
        chosen = covmap.tests_for(cmap, where[0], where[1], where[2])
        if chosen is not None:
            if not chosen:
                print("no test executes the mutated lines")
                return 0
            tests = chosen
    import pytest

    args = ["-x", "-q", *test_args(pkg), *tests]
    return int(pytest.main(args))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
