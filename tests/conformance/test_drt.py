"""`touchstone drt`: Hypothesis inputs, the reference's answers, shrinking on a live harness."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import jsonschema
import pytest

from mcp_touchstone._cli import main
from mcp_touchstone.conformance._drt import run_drt
from mcp_touchstone.conformance._strategies import STRATEGIES
from mcp_touchstone.conformance._vectors import load_file
from mcp_touchstone.harness import reference_operations

ROOT = Path(__file__).resolve().parents[2]
NODE = ["node", str(ROOT / "conformance" / "harnesses" / "node" / "harness.js")]
REFERENCE = [sys.executable, "-m", "mcp_touchstone", "harness"]
SCHEMA = json.loads((ROOT / "conformance" / "schema" / "vectors.schema.json").read_text())


@pytest.mark.parametrize("operation", sorted(STRATEGIES))
def test_reference_agrees_with_itself(operation: str) -> None:
    """CONF-DRT-1: every strategy yields inputs the reference answers the same in-process and
    through the protocol (the plumbing works; inputs are valid JSON the runner can send)."""
    result = run_drt(REFERENCE, operation, examples=40)
    assert result.candidate is None, result.candidate
    assert result.cases > 0


def test_every_strategy_names_a_reference_operation() -> None:
    """CONF-DRT-1: the strategies cover operations the reference serves, under their names."""
    assert set(STRATEGIES) <= set(reference_operations())


@pytest.mark.slow
def test_planted_bug_is_found_and_shrunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """CONF-DRT-2: against the Node harness with a planted PathPrefix bug, drt reports a
    difference and writes a minimal, schema-valid candidate vector (origin drt-shrunk) whose
    expected answer is the reference's: one grant, one path_prefix constraint (about a minute
    of search on a loaded 2-core machine, hence slow; `make conformance` runs it too)."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")  # CI has node (.ci/run checks it).
    monkeypatch.setenv("TOUCHSTONE_NODE_PLANT", "path-prefix")
    result = run_drt(NODE, "scope.resolve_matching_grants", examples=3000)
    candidate = result.candidate
    assert candidate is not None
    assert candidate["origin"] == "drt-shrunk"
    grants = candidate["input"]["scope"]["grants"]
    assert len(grants) == 1
    assert [c["type"] for c in grants[0]["constraints"]] == ["path_prefix"]
    ref = reference_operations()["scope.resolve_matching_grants"]
    assert candidate["expected"] == ref(candidate["input"])
    doc = {
        "schema": "touchstone-vectors/1",
        "semantic": "scope",
        "operation": "scope.resolve_matching_grants",
        "title": "drt candidate",
        "notes": {},
        "tests": [candidate],
    }
    jsonschema.validate(doc, SCHEMA)
    path = tmp_path / "scope" / "drt.json"
    path.parent.mkdir()
    path.write_text(json.dumps(doc))
    assert load_file(path)


def test_drt_cli_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    """CONF-DRT-1: no difference exits 0; an operation without a strategy exits 2 with one line."""
    assert main(["drt", "--operation", "mrtr.input_responses_digest", "--examples", "20"]) == 0
    assert "no difference found" in capsys.readouterr().out
    assert main(["drt", "--operation", "mrtr.round"]) == 2
    assert "no input strategy for mrtr.round" in capsys.readouterr().err


def test_drt_kills_a_stalled_implementation(capsys: pytest.CaptureFixture[str]) -> None:
    """CONF-DRT-1: an implementation that stops answering is killed after --timeout and the run
    ends with exit 2 and one line, never a hang."""
    stall = f"{sys.executable} -c 'import sys, time; sys.stdin.readline(); time.sleep(600)'"
    status = main(["drt", "--impl", stall, "--operation", "json.to_string", "--timeout", "1"])
    assert status == 2
    assert "no answer within 1s" in capsys.readouterr().err
