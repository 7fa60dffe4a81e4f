"""The ranking of matches (SCOPE-RANK-1, SCOPE-RANK-2) as a lexicographic order.

A match is ``(server_exact, tool_exact, constraints, index)``; it ranks ahead of another when
its specificity is larger, compared lexicographically, and on a full tie when its index is
smaller.  ``precedes`` is written once over :class:`proofs._ops.Ops`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from proofs._ops import PY, Ops

Key = tuple[Any, Any, Any, Any]


def precedes(a: Key, b: Key, ops: Ops) -> Any:
    """Whether match ``a`` ranks strictly ahead of match ``b``."""
    wanted = [(a[0], b[0], True), (a[1], b[1], True), (a[2], b[2], True), (a[3], b[3], False)]
    result = ops.boolean(False)
    for x, y, descending in reversed(wanted):
        ahead = x > y if descending else x < y
        result = ops.or_(ahead, ops.and_(x == y, result))
    return result


def model_order(keys: Sequence[Key]) -> list[Key]:
    """The model's ranked list (Python backend): sorted by :func:`precedes`."""

    def cmp(a: Key, b: Key) -> int:
        if precedes(a, b, PY):
            return -1
        return 1 if precedes(b, a, PY) else 0

    return sorted(keys, key=functools.cmp_to_key(cmp))
