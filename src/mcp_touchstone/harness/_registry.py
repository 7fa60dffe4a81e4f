"""The built-in reference's operation table.

Every operation name maps to the adapter module that serves it.  The table is static, so ``start``
can announce every operation without importing a single semantic; an adapter module (and the
semantic behind it) is imported the first time one of its operations is asked for.  A test checks
that the table and each adapter's ``OPERATIONS`` agree (HARNESS-OPS-2).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from functools import cache
from types import MappingProxyType

from mcp_touchstone.harness._operation import HarnessOperation

_ADAPTERS: Mapping[str, str] = MappingProxyType(
    {
        "json.to_string": "_json",
        "mrtr.allows": "_mrtr",
        "mrtr.capabilities": "_mrtr",
        "mrtr.client": "_mrtr",
        "mrtr.input_responses_digest": "_mrtr",
        "mrtr.request_binding": "_mrtr",
        "mrtr.round": "_mrtr",
        "mrtr.state.open": "_mrtr",
        "mrtr.state.seal": "_mrtr",
        "scope.admit": "_scope_admission",
        "scope.bind_event": "_scope_admission",
        "scope.evaluate_entry": "_scope_admission",
        "scope.hosted_match": "_scope_hosted",
        "scope.resolve_capability_grants": "_scope",
        "scope.resolve_matching_grants": "_scope",
        "visibility.dispatch": "_visibility",
        "visibility.granted_scopes": "_visibility",
        "visibility.is_visible": "_visibility",
        "visibility.match_uri_template": "_visibility",
    }
)
"""HarnessOperation name -> the ``mcp_touchstone.harness`` adapter module that serves it."""


def adapter_modules() -> tuple[str, ...]:
    """The adapter modules named by the table, each once, in name order."""
    return tuple(sorted(set(_ADAPTERS.values())))


@cache
def _operation(name: str) -> HarnessOperation:
    """The operation ``name`` (a key of the table), its adapter module imported on first use;
    each name is looked up once, here, for every caller."""
    adapter = importlib.import_module(f"mcp_touchstone.harness.{_ADAPTERS[name]}")
    operations: Mapping[str, HarnessOperation] = adapter.OPERATIONS
    return operations[name]


class _LazyOperations(Mapping[str, HarnessOperation]):
    """A read-only operation table that imports an adapter on first use of one of its names."""

    def __getitem__(self, name: str) -> HarnessOperation:
        return _operation(name)

    def __iter__(self) -> Iterator[str]:
        return iter(_ADAPTERS)

    def __len__(self) -> int:
        return len(_ADAPTERS)


@cache
def reference_operations() -> Mapping[str, HarnessOperation]:
    """All operations the built-in reference implements, by name, in name order (HARNESS-OPS-2)."""
    return _LazyOperations()
