"""The final-response store over a run of identical retries (MRTR-STORE-2, -4, -5).

Retries of one verified state with the same answers share a tag.  Round ``i`` runs the handler
unless the tag is stored; a round that runs and commits a final stores it; a stored tag is
replayed.  :func:`rounds` is written once over :class:`proofs._ops.Ops`: given whether each
round's handler *would* commit, it answers, per round, whether the handler ran.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from proofs._ops import Ops


def rounds(would_commit: Sequence[Any], ops: Ops) -> list[Any]:
    """Per round, whether the handler ran (``False``: the stored final was replayed)."""
    stored = ops.boolean(False)
    ran = []
    for final in would_commit:
        runs = ops.not_(stored)
        ran.append(runs)
        stored = ops.or_(stored, ops.and_(runs, final))
    return ran
