"""Gate canaries: contracts that are false of the real code, so the gate must refute them.

A gate that passed these would be silently broken (toolchain.md §1.8); ``python -m
proofs.run`` checks them on every full run and fails unless each is refuted.
"""

from __future__ import annotations

from mcp_touchstone.scope._arguments import path_has_prefix, wildcard_matches


def canary_prefix_is_string_prefix(prefix: str, rest: str) -> bool:
    """False on purpose: '/a' is a string prefix of '/ab' but not a path prefix of it.

    pre: prefix.startswith("/")
    post: __return__
    """
    return path_has_prefix(prefix + rest, prefix)


def canary_star_needs_a_character(text: str) -> bool:
    """False on purpose: '*' matches the empty string too.

    post: __return__ == (len(text) > 0)
    """
    return wildcard_matches("*", text)
