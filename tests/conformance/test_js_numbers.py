"""`drt --js-numbers`: inputs' numbers as an IEEE-754 double holds them (CONF-DRT-5)."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcp_touchstone import serde_json
from mcp_touchstone.conformance._js_numbers import as_double_reads
from mcp_touchstone.harness import reference_operations
from mcp_touchstone.serde_json import JSON
from tests.strategies.json import values

ROOT = Path(__file__).resolve().parents[2]
HARNESS = ROOT / "conformance" / "harnesses" / "node" / "harness.js"

# Numbers as the harness tests draw them, beyond serde_json's integer range too.
_numbers = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([1.0, -0.0, 0.0, 1e16, 2.0**53, 2.0**63, 2.0**64, -(2.0**63), 1e-7, 1.5e300]),
)
_leaves: st.SearchStrategy[JSON] = st.one_of(
    st.none(), st.booleans(), st.text(max_size=3), _numbers
)


def _numbers_in(value: JSON) -> list[int | float]:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return []
    if isinstance(value, int | float):
        return [value]
    items = value if isinstance(value, list) else list(value.values())
    return [n for item in items for n in _numbers_in(item)]


def _double_exact(n: int | float) -> bool:
    """Whether a double tells ``n``'s literal apart from every other one serde_json reads
    differently."""
    if isinstance(n, int):
        return -(2**63) <= n < 2**64 and float(n) == n
    integral_in_range = n.is_integer() and -(2.0**63) <= n < 2.0**64
    return not integral_in_range or (n == 0 and math.copysign(1.0, n) < 0)


@pytest.mark.parametrize(
    ("given_", "read"),
    [
        (1.0, 1),
        (-1.0, -1),
        (0.0, 0),
        (1e16, 10**16),
        (-0.0, -0.0),
        (0.5, 0.5),
        (1e300, 1e300),
        (2**53, 2**53),
        (2**53 + 1, 2**53),
        (2**64 - 1, 2.0**64),
        (2**64, 2.0**64),
        (-(2**63), -(2**63)),
        (-(2**63) - 1, -(2**63)),
        (True, True),
        ("1.0", "1.0"),
    ],
)
def test_known_readings(given_: JSON, read: JSON) -> None:
    """CONF-DRT-5: integral floats in serde_json's integer range become integers, integers no
    double holds become the nearest double (read back the same way); the rest is unchanged."""
    got = as_double_reads(given_)
    assert type(got) is type(read)
    assert got == read
    if isinstance(read, float):
        assert math.copysign(1.0, got) == math.copysign(1.0, read)  # type: ignore[arg-type]


@given(values(_leaves))
def test_every_number_read_is_one_a_double_holds(value: JSON) -> None:
    """CONF-DRT-5: every number of the result is double-exact, a value already double-exact is
    unchanged, and reading twice is reading once."""
    read = as_double_reads(value)
    assert all(_double_exact(n) for n in _numbers_in(read))
    assert serde_json.to_string(as_double_reads(read)) == serde_json.to_string(read)
    if all(_double_exact(n) for n in _numbers_in(value)):
        assert serde_json.to_string(read) == serde_json.to_string(value)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
# One Node process per example, so a batch per example (generating a batch is slow: too_slow off).
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.dictionaries(st.text(max_size=3), values(_leaves), max_size=3), max_size=20))
def test_node_writes_what_the_reference_writes_for_the_double(batch: list[dict[str, JSON]]) -> None:
    """CONF-DRT-5, CONF-NODE-1: the Node harness's answers digest of any responses equals the
    reference's digest of the same responses read as doubles: its number writer is
    serde_json's wherever a double can say it (-0.0, float layout, integers beyond u64)."""
    lines = [json.dumps({"cmd": "start"})]
    lines += [
        serde_json.to_string(
            {
                "cmd": "run",
                "seq": i,
                "case": {"operation": "mrtr.input_responses_digest", "input": {"responses": r}},
            }
        )
        for i, r in enumerate(batch)
    ]
    lines.append(json.dumps({"cmd": "stop"}))
    done = subprocess.run(
        ["node", str(HARNESS)],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()[1:]]
    digest = reference_operations()["mrtr.input_responses_digest"]
    for responses, answer in zip(batch, answers, strict=True):
        assert answer["output"] == digest({"responses": as_double_reads(responses)}), responses
