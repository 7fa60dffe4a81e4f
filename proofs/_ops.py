"""The backend switch of the single-source models (toolchain.md §3.1).

A model is written once against :class:`Ops`; with :data:`PY` it computes plain Python values
(the oracle the differential tests compare the real code with), with :data:`Z3` it builds the
terms the proofs reason about.  ``tests/proofs`` checks that the two backends agree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import z3


def _py_and(*xs: Any) -> bool:
    return all(xs)


def _py_or(*xs: Any) -> bool:
    return any(xs)


@dataclass(frozen=True)
class Ops:
    """The few operations a model may use besides ``==``, ``<``, ``+`` on its values."""

    name: str
    const: Callable[[int], Any]
    boolean: Callable[[bool], Any]
    ite: Callable[[Any, Any, Any], Any]
    and_: Callable[..., Any]
    or_: Callable[..., Any]
    not_: Callable[[Any], Any]
    implies: Callable[[Any, Any], Any]


PY = Ops(
    name="py",
    const=lambda v: v,
    boolean=lambda v: v,
    ite=lambda c, a, b: a if c else b,
    and_=_py_and,
    or_=_py_or,
    not_=lambda a: not a,
    implies=lambda a, b: (not a) or b,
)
Z3 = Ops(
    name="z3",
    const=z3.IntVal,
    boolean=z3.BoolVal,
    ite=z3.If,
    and_=lambda *xs: z3.And(*xs) if xs else z3.BoolVal(True),
    or_=lambda *xs: z3.Or(*xs) if xs else z3.BoolVal(False),
    not_=z3.Not,
    implies=z3.Implies,
)


class UnprovedError(AssertionError):
    """A Z3 obligation that is refuted, unknown or timed out (never a pass)."""


def prove(name: str, claim: Any, *assumptions: Any, timeout_ms: int = 20_000) -> None:
    """Check ``assumptions ∧ ¬claim`` is UNSAT; raise :class:`UnprovedError`
    otherwise (an unknown too)."""
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.set("random_seed", 0)
    solver.add(*assumptions, z3.Not(claim))
    result = solver.check()
    if result == z3.unsat:
        return
    if result == z3.sat:
        raise UnprovedError(f"{name}: refuted, counterexample {solver.model()}")
    raise UnprovedError(f"{name}: {result} ({solver.reason_unknown()})")


def ground(term: Any) -> bool:
    """Evaluate a ground Z3 boolean term to a Python bool (it must simplify to a literal)."""
    value = z3.simplify(term)
    if z3.is_true(value):
        return True
    if z3.is_false(value):
        return False
    raise UnprovedError(f"term did not simplify to a literal: {value}")
