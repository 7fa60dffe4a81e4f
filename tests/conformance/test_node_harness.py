"""The Node.js harness: a second language run through `touchstone run`, as an SDK team adopts it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from mcp_touchstone._cli import main
from mcp_touchstone.harness import reference_operations

ROOT = Path(__file__).resolve().parents[2]
NODE_DIR = ROOT / "conformance" / "harnesses" / "node"
HARNESS = f"node {NODE_DIR / 'harness.js'}"
BASELINE = str(NODE_DIR / "baseline.json")
NODE_OPERATIONS = (
    "scope.resolve_matching_grants",
    "mrtr.request_binding",
    "mrtr.input_responses_digest",
    "mrtr.state.seal",
    "mrtr.state.open",
    "visibility.is_visible",
)
"""The operations the Node harness announces (CONF-NODE-1)."""


@pytest.fixture(autouse=True)
def _node() -> None:
    """Node is required in CI (`.ci/run` checks `node --version`); elsewhere its absence skips."""
    if shutil.which("node") is None:
        if os.environ.get("CI"):
            pytest.fail("node is not installed, and CI needs it")
        pytest.skip("node is not installed")


def test_node_harness_passes_with_its_baseline(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """CONF-NODE-1, CONF-BASE-2: the Node harness passes everything it announces except the
    baselined vectors, each with a reason; none of them is stale."""
    report = tmp_path / "node.json"
    status = main(
        ["run", "--impl", HARNESS, "--expected-failures", BASELINE, "--report", str(report)]
    )
    out = capsys.readouterr().out
    assert status == 0, out[-3000:]
    doc = json.loads(report.read_text())
    verdicts: dict[str, set[str]] = {r["operation"]: set() for r in doc["results"]}
    for r in doc["results"]:
        verdicts[r["operation"]].add(r["verdict"])
    announced = set(NODE_OPERATIONS)
    assert {op for op, v in verdicts.items() if "pass" in v} == announced
    assert all(v == {"not_applicable"} for op, v in verdicts.items() if op not in announced)


def test_node_baseline_entries_all_have_reasons() -> None:
    """CONF-BASE-1: every entry of the Node baseline names a vector and says why it fails."""
    doc = json.loads(Path(BASELINE).read_text())
    assert doc["schema"] == "touchstone-baseline/1"
    assert all(
        len(e["reason"]) > 20 and "write-baseline" not in e["reason"] for e in doc["entries"]
    )


@pytest.mark.parametrize(
    ("plant", "needle"),
    [
        ("path-prefix", "FAIL scope-path-"),
        ("digest", "FAIL mrtr-digest-"),
    ],
)
def test_broken_node_harness_fails_with_a_readable_diff(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    plant: str,
    needle: str,
) -> None:
    """CONF-NODE-2, CONF-DIFF-1: a planted bug fails the run (exit 1) even with the baseline,
    and the report names the vector and the first differing JSON path."""
    monkeypatch.setenv("TOUCHSTONE_NODE_PLANT", plant)
    status = main(["run", "--impl", HARNESS, "--expected-failures", BASELINE])
    out = capsys.readouterr().out
    assert status == 1
    assert needle in out
    assert "  at:       $." in out
    assert "conformant: no" in out


def _node_call(operation: str, value: dict[str, Any]) -> dict[str, Any]:
    request = {"cmd": "run", "seq": 0, "case": {"operation": operation, "input": value}}
    proc = subprocess.run(
        ["node", str(NODE_DIR / "harness.js")],
        input=json.dumps(request) + "\n",
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    answer: dict[str, Any] = json.loads(proc.stdout.splitlines()[0])
    output: dict[str, Any] = answer["output"]
    return output


KEYS: list[Any] = [{"kid": "k2", "secret_hex": "00112233445566778899aabbccddeeff"}]
PAYLOADS = [
    {
        "answers": {"ask": {"action": "accept", "content": {"name": "Ada"}}},
        "requested": ["ask"],
        "memos": {"m": [1, "two", None]},
        "effects": ["e1"],
        "exp": 1900000000,
        "req": "tools/call:abc",
        "principal": "alice",
        "aud": None,
    },
    {
        "answers": {},
        "requested": [],
        "memos": {},
        "effects": [],
        "exp": 0,
        "req": "prompts/get:x",
        "principal": None,
        "aud": "srv-1",
    },
]


@pytest.mark.parametrize("payload", PAYLOADS, ids=["v1-principal", "v2-audience"])
def test_tokens_interoperate_both_ways(payload: dict[str, Any]) -> None:
    """CONF-NODE-3, MRTR-TOKEN-1: a token sealed by the Node harness opens in the reference to
    the same payload, a token sealed by the reference opens in Node, and the two are identical."""
    seal_input = {"keys": KEYS, "active_kid": "k2", "nonce_hex": "0a" * 12, "payload": payload}
    ops = reference_operations()
    node_token = _node_call("mrtr.state.seal", seal_input)["token"]
    ref_token = ops["mrtr.state.seal"](seal_input)["token"]  # type: ignore[arg-type]
    assert node_token == ref_token
    expected = {**payload, "effects": sorted(payload["effects"])}
    opened_here = ops["mrtr.state.open"]({"token": node_token, "keys": KEYS})
    assert opened_here == {"payload": expected}
    other = {**seal_input, "nonce_hex": "0b" * 12}
    ref_token_2 = ops["mrtr.state.seal"](other)["token"]  # type: ignore[arg-type]
    assert _node_call("mrtr.state.open", {"token": ref_token_2, "keys": KEYS}) == {
        "payload": expected
    }
