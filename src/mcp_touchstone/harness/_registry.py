"""The built-in reference's operation table.

Every operation name maps to the adapter module that serves it.  The table is static, so ``start``
can announce every operation without importing a single semantic; an adapter module (and the
semantic behind it) is imported the first time one of its operations is asked for.  A test checks
that the table and each adapter's ``OPERATIONS`` agree (HARNESS-OPS-2).
"""

from __future__ import annotations

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


def _load(module: str, *, parsed: bool = False) -> Mapping[str, HarnessOperation]:
    # __import__ with a from-list returns the submodule itself, as importlib.import_module
    # does, without importing importlib (and warnings) at start-up.
    adapter = __import__(f"mcp_touchstone.harness.{module}", fromlist=("OPERATIONS",))
    ops: Mapping[str, HarnessOperation] = adapter.OPERATIONS
    if parsed:
        # An adapter's PARSED_OPERATIONS (harness/_parsed.py) stand in for the operations they
        # name; the others are served as they are.
        ops = {**ops, **getattr(adapter, "PARSED_OPERATIONS", {})}
    return ops


class _LazyOperations(Mapping[str, HarnessOperation]):
    """A read-only operation table that imports an adapter on first use of one of its names."""

    def __init__(self, *, parsed: bool = False) -> None:
        self._loaded: dict[str, Mapping[str, HarnessOperation]] = {}
        self._parsed = parsed
        self._found: dict[str, HarnessOperation] = {}
        """Operations already looked up, by name: the line server asks once per case."""

    def __getitem__(self, name: str) -> HarnessOperation:
        found = self._found.get(name)
        if found is not None:
            return found
        module = _ADAPTERS[name]
        ops = self._loaded.get(module)
        if ops is None:
            ops = self._loaded[module] = _load(module, parsed=self._parsed)
        found = self._found[name] = ops[name]
        return found

    def get(  # type: ignore[override]  # Mapping.get's overloads, as one signature
        self, name: str, default: HarnessOperation | None = None
    ) -> HarnessOperation | None:
        """As ``Mapping.get``, without its ``try``/``__getitem__`` detour for a known name."""
        found = self._found.get(name)
        if found is not None:
            return found
        if name not in _ADAPTERS:
            return default
        return self[name]

    def __iter__(self) -> Iterator[str]:
        return iter(_ADAPTERS)

    def __len__(self) -> int:
        return len(_ADAPTERS)


@cache
def reference_operations() -> Mapping[str, HarnessOperation]:
    """All operations the built-in reference implements, by name, in name order (HARNESS-OPS-2)."""
    return _LazyOperations()


@cache
def parsed_input_operations() -> Mapping[str, HarnessOperation]:
    """The reference's operations for input ``serde_json.from_str`` parsed, what the harness
    server hands them (HARNESS-OPS-2): the same answers as :func:`reference_operations`, without
    re-validating a value that is JSON by construction (harness/_parsed.py)."""
    return _LazyOperations(parsed=True)
