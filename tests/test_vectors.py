"""The vector suite itself: schema-valid, stable ids, and passing against the reference."""

from __future__ import annotations

import json
import math
from pathlib import Path

import jsonschema
import pytest

from mcp_touchstone.conformance import (
    Vector,
    default_vectors_dir,
    load_file,
    load_vectors,
    outputs_match,
)
from mcp_touchstone.harness import reference_operations
from mcp_touchstone.serde_json import from_str, to_string

ROOT = Path(__file__).resolve().parents[1]
VECTORS = ROOT / "conformance" / "vectors"
SCHEMA = json.loads((ROOT / "conformance" / "schema" / "vectors.schema.json").read_text())
FILES = sorted(VECTORS.glob("*/*.json"))


def test_default_dir_is_the_repo_tree() -> None:
    """VEC-FILE-1: the runner finds conformance/vectors by default."""
    assert default_vectors_dir() == VECTORS


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_file_matches_schema(path: Path) -> None:
    """VEC-FILE-1, VEC-FLAG-1: each file validates against the published JSON Schema."""
    doc = json.loads(path.read_text())
    jsonschema.validate(doc, SCHEMA)
    assert path.parent.name == doc["semantic"]
    assert all(t["id"].startswith(_prefix(doc["semantic"])) for t in doc["tests"])
    assert load_file(path)


def _prefix(semantic: str) -> str:
    return {"visibility": "vis-"}.get(semantic, f"{semantic}-")


def test_ids_unique_and_never_reused() -> None:
    """VEC-ID-1: ids are unique across the suite and none is a retired id."""
    ids = [v.id for v in load_vectors(VECTORS)]
    assert len(ids) == len(set(ids))
    retired_file = ROOT / "conformance" / "retired.txt"
    retired = {
        line.strip()
        for line in retired_file.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert not retired & set(ids)


ALL = load_vectors(VECTORS)


@pytest.mark.parametrize("vector", ALL, ids=[v.id for v in ALL])
def test_vector(vector: Vector) -> None:
    """VEC-CASE-1: the reference's operation answers the vector as expected, in-process."""
    op = reference_operations().get(vector.operation)
    assert op is not None, f"operation {vector.operation} not implemented"
    actual = op(vector.input)
    assert outputs_match(vector.operation, vector.expected, actual), (vector.expected, actual)


def test_every_operation_has_vectors() -> None:
    """Every operation the reference serves is pinned by vectors of its own (VEC-FILE-1,
    SCOPE-WIRE-1, VIS-HARN-1, MRTR-HARNESS-1), and the suite is broad for each semantic."""
    assert {v.operation for v in ALL} == set(reference_operations())
    per_semantic = {s: sum(v.semantic == s for v in ALL) for s in ("scope", "visibility", "mrtr")}
    assert min(per_semantic.values()) >= 150, per_semantic


ORIGINS = ("handwritten", "upstream-kat", "seed", "z3-model", "crosshair-cex", "drt-shrunk")


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_origins_are_known(path: Path) -> None:
    """VEC-ORIGIN-1: every origin is one of the documented kinds."""
    for test in json.loads(path.read_text())["tests"]:
        origin = test.get("origin", "handwritten")
        assert origin in ORIGINS or origin.startswith("upstream-test:"), (test["id"], origin)


def _floats(value: object) -> list[float]:
    if isinstance(value, float):
        return [value]
    if isinstance(value, list):
        return [f for item in value for f in _floats(item)]
    if isinstance(value, dict):
        return [f for item in value.values() for f in _floats(item)]
    return []


def _reads_back(x: float) -> bool:
    back = from_str(to_string(x))
    if not isinstance(back, float):
        return False
    return back == x and math.copysign(1.0, back) == math.copysign(1.0, x)


def test_input_floats_reach_the_implementation_unchanged() -> None:
    """VEC-CASE-1: every float in a vector input reads back as itself after the runner writes it
    (serde_json's parse is not correctly rounded: 2.7715077941825975e-163 would not)."""
    unstable = [(v.id, x) for v in ALL for x in _floats(v.input) if not _reads_back(x)]
    assert not unstable, unstable[:5]
    assert not _reads_back(2.7715077941825975e-163)
