"""The built-in reference's operation table: every semantic's ``_harness.OPERATIONS``."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

from mcp_touchstone.conformance._operation import Operation


@cache
def reference_operations() -> Mapping[str, Operation]:
    """All operations the built-in reference implements, by name (HARNESS-OPS-2)."""
    from mcp_touchstone import _json_harness
    from mcp_touchstone.mrtr import _harness as mrtr
    from mcp_touchstone.scope import _harness as scope
    from mcp_touchstone.visibility import _harness as visibility

    table: dict[str, Operation] = {}
    for module in (scope, visibility, mrtr, _json_harness):
        for name, op in module.OPERATIONS.items():
            if name in table:  # pragma: no cover - a wiring bug, caught by the registry test
                raise RuntimeError(f"operation {name} registered twice")
            table[name] = op
    return MappingProxyType(dict(sorted(table.items())))
