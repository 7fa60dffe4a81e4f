"""Unfocused DRT against the Node harness: nothing outside its baseline (CONF-DRT-5)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mcp_touchstone import serde_json
from mcp_touchstone._cli import main
from mcp_touchstone.conformance import _baseline
from mcp_touchstone.conformance._compare import outputs_match
from mcp_touchstone.conformance._drt import run_drt
from mcp_touchstone.conformance._js_numbers import as_double_reads
from mcp_touchstone.harness import reference_operations
from tests.conformance.test_node_harness import NODE_OPERATIONS

ROOT = Path(__file__).resolve().parents[2]
HARNESS = ROOT / "conformance" / "harnesses" / "node" / "harness.js"
NODE = ["node", str(HARNESS)]
BASELINE = ROOT / "conformance" / "harnesses" / "node" / "baseline.json"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


@pytest.mark.slow
@pytest.mark.parametrize("operation", NODE_OPERATIONS)
def test_unfocused_drt_finds_nothing_outside_the_baseline(operation: str) -> None:
    """CONF-DRT-5, CONF-NODE-1: seeded, unfocused DRT of each Node operation, with the baseline's
    vectors out of the corpus and numbers as a double holds them, finds no difference (what
    remains without --js-numbers is the next test's)."""
    known = frozenset(_baseline.load(BASELINE).ids)
    result = run_drt(NODE, operation, examples=3000, seed=0, leave_out=known, double_numbers=True)
    assert result.candidate is None, (result.where, result.candidate, result.actual)
    assert result.cases > 1000


@pytest.mark.slow
@pytest.mark.parametrize("operation", NODE_OPERATIONS)
def test_what_drt_finds_otherwise_is_the_double_reading(operation: str) -> None:
    """CONF-DRT-5, CONF-NODE-1: without --js-numbers, a difference DRT finds against the Node
    harness is one a double's reading explains: its input changes when read as doubles, and the
    reference answers the input read as doubles exactly as Node answered the input."""
    known = frozenset(_baseline.load(BASELINE).ids)
    result = run_drt(NODE, operation, examples=3000, seed=0, leave_out=known)
    if result.candidate is None:
        return
    value = result.candidate["input"]
    read = as_double_reads(value)
    assert serde_json.to_string(read) != serde_json.to_string(value), result.candidate
    reference = reference_operations()[operation]
    assert outputs_match(operation, reference(read), result.actual), result.candidate


def test_js_numbers_flag_looks_past_the_double_reading(capsys: pytest.CaptureFixture[str]) -> None:
    """CONF-DRT-5: `drt --js-numbers` against the Node harness's binding exits 0 where the same
    seeded search without it exits 1 on a number a double cannot hold."""
    common = ["drt", "--impl", f"node {HARNESS}", "--operation", "mrtr.request_binding"]
    common += ["--examples", "300", "--seed", "0", "--expected-failures", str(BASELINE)]
    assert main([*common, "--js-numbers"]) == 0, capsys.readouterr().out
    assert main(common) == 1
    assert "DIFFERENCE" in capsys.readouterr().out
