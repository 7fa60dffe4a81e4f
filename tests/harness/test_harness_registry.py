"""The reference's operation table (HARNESS-OPS-*): wiring, and totality on junk input."""

from __future__ import annotations

import pytest

from mcp_touchstone.harness import V1_OPERATIONS, reference_operations
from mcp_touchstone.harness._operation import PINNED_SECOND_WAVE
from mcp_touchstone.serde_json import JSON

# Additions: HARNESS-JSON-1, HARNESS-MRTR-CLIENT-1, HARNESS-ENTRY-1.
ADDED_OPERATIONS = {"json.to_string", "mrtr.client", "scope.evaluate_entry"}

JUNK: list[JSON] = [None, True, 0, -1.5, "", "x", [], [None], {}, {"unexpected": [1, {"a": None}]}]


def test_table_only_holds_known_operations() -> None:
    """HARNESS-OPS-2, HARNESS-OPS-3: each operation is pinned (v1 or later) or an addition."""
    known = set(V1_OPERATIONS) | set(PINNED_SECOND_WAVE) | ADDED_OPERATIONS
    assert set(reference_operations()) <= known


def test_hosted_match_is_served() -> None:
    """HARNESS-OPS-4: the pinned second-wave operation scope.hosted_match is in the table."""
    assert "scope.hosted_match" in PINNED_SECOND_WAVE
    assert "scope.hosted_match" in reference_operations()


def test_v1_names_are_the_pinned_twelve() -> None:
    """HARNESS-OPS-1: the pinned contract names twelve operations."""
    assert len(V1_OPERATIONS) == len(set(V1_OPERATIONS)) == 12


@pytest.mark.parametrize("name", sorted(reference_operations()))
def test_operations_are_total_on_junk(name: str) -> None:
    """HARNESS-MSG-3: malformed case input is answered with an output object, never raised."""
    op = reference_operations()[name]
    for junk in JUNK:
        out = op(junk)
        assert isinstance(out, dict), (name, junk)


def test_static_table_agrees_with_each_adapter() -> None:
    """HARNESS-OPS-2: the registry's static table names exactly what each adapter serves."""
    import importlib

    from mcp_touchstone.harness._registry import _ADAPTERS, adapter_modules

    served: dict[str, str] = {}
    for module in adapter_modules():
        ops = importlib.import_module(f"mcp_touchstone.harness.{module}").OPERATIONS
        for name in ops:
            assert name not in served, f"{name} served by {served[name]} and {module}"
            served[name] = module
    assert served == dict(_ADAPTERS)
