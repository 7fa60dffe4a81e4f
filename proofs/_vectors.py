"""Replay committed vectors against the real code, in process (the witnesses of a property)."""

from __future__ import annotations

import fnmatch
from functools import cache
from pathlib import Path

from mcp_touchstone.conformance import Vector, load_vectors, outputs_match
from mcp_touchstone.harness._registry import reference_operations

ROOT = Path(__file__).resolve().parents[1]
VECTORS = ROOT / "conformance" / "vectors"


@cache
def all_vectors() -> tuple[Vector, ...]:
    """Every vector of the committed suite."""
    return tuple(load_vectors(VECTORS))


def select(patterns: tuple[str, ...]) -> list[Vector]:
    """The vectors whose ids match any of ``patterns`` (``*`` allowed)."""
    return [v for v in all_vectors() if any(fnmatch.fnmatchcase(v.id, p) for p in patterns)]


def replay(patterns: tuple[str, ...]) -> list[str]:
    """Run the selected vectors through the real operations; the ids that fail (or a note
    that a pattern selects nothing)."""
    chosen = select(patterns)
    failures = [f"no vector matches {p}" for p in patterns if not select((p,))]
    ops = reference_operations()
    for vector in chosen:
        actual = ops[vector.operation](vector.input)
        if not outputs_match(vector.operation, vector.expected, actual):
            failures.append(f"vector {vector.id}: expected {vector.expected}, got {actual}")
    return failures
