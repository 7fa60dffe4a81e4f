""" "Every candidate must match, and there must be one" (SCOPE-PATH-5, SCOPE-DOM-3, -4).

``fail_closed`` is the unrolled form over ``n`` verdicts; :func:`quantified` is the same
statement with a quantifier over an array, which the proofs hold equal to it for ``n <= 8``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import z3

from proofs._ops import Ops


def fail_closed(verdicts: Sequence[Any], ops: Ops) -> Any:
    """At least one candidate, and every candidate's verdict holds."""
    return ops.and_(ops.boolean(len(verdicts) > 0), *verdicts)


def quantified(verdict: Any, n: Any) -> Any:
    """``n > 0 ∧ ∀ i ∈ [0, n): verdict[i]`` over a Z3 array of booleans."""
    i = z3.Int("i")
    return z3.And(n > 0, z3.ForAll([i], z3.Implies(z3.And(i >= 0, i < n), verdict[i])))
