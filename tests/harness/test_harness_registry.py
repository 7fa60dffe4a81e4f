"""The reference's operation table (HARNESS-OPS-*): wiring, and totality on junk input."""

from __future__ import annotations

import pytest

from mcp_touchstone.harness import SECOND_WAVE_OPERATIONS, V1_OPERATIONS, reference_operations
from mcp_touchstone.serde_json import JSON

ADDED_OPERATIONS = {"json.to_string"}

JUNK: list[JSON] = [None, True, 0, -1.5, "", "x", [], [None], {}, {"unexpected": [1, {"a": None}]}]


def test_table_only_holds_known_operations() -> None:
    """HARNESS-OPS-2: every registered operation is pinned (v1 or second wave) or an addition."""
    pinned = set(V1_OPERATIONS) | set(SECOND_WAVE_OPERATIONS)
    assert set(reference_operations()) <= pinned | ADDED_OPERATIONS


def test_hosted_match_is_served() -> None:
    """HARNESS-OPS-3: the pinned second-wave operation scope.hosted_match is in the table."""
    assert "scope.hosted_match" in SECOND_WAVE_OPERATIONS
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
