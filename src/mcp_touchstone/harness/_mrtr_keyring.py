"""The ``mrtr`` adapters' keyrings: one :class:`~mcp_touchstone.mrtr.Keyring` per distinct key
set, kept for the process (a cache at the harness boundary).

A suite's ``mrtr.round``, ``mrtr.state.seal`` and ``mrtr.state.open`` cases name a handful of
key sets, each hundreds of times; a fresh keyring per case derives each secret's AEAD key again.
A keyring is a value whose only state besides its fields is a cache of what its fields
determine, so the same key set gets the same answers from the same keyring object as from a new
one.  The key is the active kid and the key table's items in their order; the table is bounded
(:data:`CAPACITY`, oldest entry out first), so a long-running harness never holds more than that
many key sets.  ``tests/harness/test_harness_keyring.py`` checks that a cached keyring seals and
opens exactly as a fresh one does.
"""

from __future__ import annotations

from mcp_touchstone.mrtr import Keyring

__all__ = ["CAPACITY", "keyring"]

CAPACITY = 64
"""How many key sets the table keeps."""

_KEYRINGS: dict[tuple[str, tuple[tuple[str, bytes], ...]], Keyring] = {}


def keyring(active_kid: str, keys: dict[str, bytes]) -> Keyring:
    """``Keyring(active_kid, keys)``, the same object for the same kid and key table."""
    key = (active_kid, tuple(keys.items()))
    found = _KEYRINGS.get(key)
    if found is None:
        if len(_KEYRINGS) >= CAPACITY:
            del _KEYRINGS[next(iter(_KEYRINGS))]
        found = _KEYRINGS[key] = Keyring(active_kid, keys)
    return found
