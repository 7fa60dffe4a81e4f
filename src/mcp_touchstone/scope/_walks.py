"""The walks of the call arguments that Chio's portable constraints read (rules ``SCOPE-ARG-1``,
``SCOPE-CUSTOM-1``, ``SCOPE-ALLOW-*``).

Each function mirrors the recursive function of the same name in Chio's portable matcher,
bb-connor/arc ``crates/kernel/chio-kernel-core/src/scope.rs`` @ ``692e32a1`` (the version
``spec/scope.md`` follows): ``collect_string_leaves``, ``argument_contains_custom`` and the
strict allowlist walk over ``collect_string_values_strict``.  A JSON value is what
``serde_json.from_str`` gives: ``dict``, ``list``, ``str``, numbers, booleans and ``None``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from mcp_touchstone._rust import ascii_lower
from mcp_touchstone.serde_json import JSON

__all__ = [
    "AUDIENCE_KEYS",
    "MEMORY_STORE_KEYS",
    "AllowlistObservation",
    "StringLeaf",
    "argument_contains_custom",
    "audience_allowlist_matches",
    "collect_allowlist_values",
    "collect_string_leaves",
    "collect_string_values_strict",
    "is_audience_key",
    "is_memory_store_key",
    "memory_store_allowlist_matches",
]

AUDIENCE_KEYS: Final = frozenset(
    {"recipient", "recipients", "audience", "to", "channel", "channels"}
)
"""Keys (ASCII-lowercased) whose values the audience allowlist reads."""
MEMORY_STORE_KEYS: Final = frozenset({"store", "memory_store", "collection", "namespace"})
"""Keys (ASCII-lowercased) whose values the memory-store allowlist reads."""


# --------------------------------------------------------------------------- string leaves


@dataclass(frozen=True, slots=True)
class StringLeaf:
    """A JSON string of the arguments with its nearest enclosing object key (``None`` at the
    top level or in a top-level array; an array's elements inherit the key it sits under)."""

    key: str | None
    value: str


def collect_string_leaves(arguments: JSON) -> tuple[StringLeaf, ...]:
    """Every JSON string of ``arguments``, in document order, with its key (SCOPE-ARG-1)."""
    leaves: list[StringLeaf] = []
    _collect_string_leaves_inner(arguments, None, leaves)
    return tuple(leaves)


def _collect_string_leaves_inner(
    arguments: JSON, current_key: str | None, leaves: list[StringLeaf]
) -> None:
    if isinstance(arguments, str):
        leaves.append(StringLeaf(current_key, arguments))
    elif isinstance(arguments, list):
        for value in arguments:
            _collect_string_leaves_inner(value, current_key, leaves)
    elif isinstance(arguments, dict):
        for key, value in arguments.items():
            _collect_string_leaves_inner(value, key, leaves)


# --------------------------------------------------------------------------- Custom


def argument_contains_custom(arguments: JSON, key: str, expected: str) -> bool:
    """Some object entry ``key`` at any depth holds exactly the string ``expected``
    (SCOPE-CUSTOM-1)."""
    if isinstance(arguments, dict):
        return any(
            (entry_key == key and isinstance(value, str) and value == expected)
            or argument_contains_custom(value, key, expected)
            for entry_key, value in arguments.items()
        )
    if isinstance(arguments, list):
        return any(argument_contains_custom(value, key, expected) for value in arguments)
    return False


# --------------------------------------------------------------------------- allowlists


def is_audience_key(key: str) -> bool:
    """A key the audience allowlist reads (SCOPE-ALLOW-1)."""
    return ascii_lower(key) in AUDIENCE_KEYS


def is_memory_store_key(key: str) -> bool:
    """A key the memory-store allowlist reads (SCOPE-ALLOW-1)."""
    return ascii_lower(key) in MEMORY_STORE_KEYS


class AllowlistObservation:
    """What the strict allowlist walk has seen so far: the strings collected under relevant
    keys, whether any relevant key appeared, and whether any relevant value was invalid.  The
    walk fills it in place; it never leaves :func:`_allowlist_matches`."""

    __slots__ = ("invalid", "saw_relevant_key", "values")

    def __init__(self) -> None:
        self.values: list[str] = []
        self.saw_relevant_key = False
        self.invalid = False


def collect_string_values_strict(value: JSON, out: list[str]) -> bool:
    """A string is collected; an array is valid when every element is, recursively; anything
    else is invalid (SCOPE-ALLOW-2)."""
    if isinstance(value, str):
        out.append(value)
        return True
    if isinstance(value, list):
        return all(collect_string_values_strict(item, out) for item in value)
    return False


def collect_allowlist_values(
    arguments: JSON, is_relevant_key: Callable[[str], bool], observed: AllowlistObservation
) -> None:
    """Find the relevant keys at any depth; under each, collect strictly and do not walk on
    (SCOPE-ALLOW-1, SCOPE-ALLOW-2).  A relevant value that is invalid, or that yields no
    string, marks the observation invalid."""
    if isinstance(arguments, dict):
        for key, value in arguments.items():
            if is_relevant_key(key):
                observed.saw_relevant_key = True
                before = len(observed.values)
                valid = collect_string_values_strict(value, observed.values)
                if not valid or len(observed.values) == before:
                    observed.invalid = True
            else:
                collect_allowlist_values(value, is_relevant_key, observed)
    elif isinstance(arguments, list):
        for value in arguments:
            collect_allowlist_values(value, is_relevant_key, observed)


def _allowlist_matches(
    arguments: JSON, is_relevant_key: Callable[[str], bool], allowed: tuple[str, ...]
) -> bool:
    """Invalid fails; no relevant key passes; otherwise every collected string must be listed,
    compared exactly (SCOPE-ALLOW-3)."""
    observed = AllowlistObservation()
    collect_allowlist_values(arguments, is_relevant_key, observed)
    if observed.invalid:
        return False
    if not observed.saw_relevant_key:
        return True
    return all(value in allowed for value in observed.values)


def audience_allowlist_matches(arguments: JSON, allowed: tuple[str, ...]) -> bool:
    """``AudienceAllowlist`` under the strict collector (SCOPE-ALLOW-1..3)."""
    return _allowlist_matches(arguments, is_audience_key, allowed)


def memory_store_allowlist_matches(arguments: JSON, allowed: tuple[str, ...]) -> bool:
    """``MemoryStoreAllowlist`` under the strict collector (SCOPE-ALLOW-1..3)."""
    return _allowlist_matches(arguments, is_memory_store_key, allowed)
