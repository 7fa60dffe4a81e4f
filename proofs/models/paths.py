"""Lexical path normalization and the segment-wise prefix test over bounded segment codes.

Model of SCOPE-PATH-2..4.  A raw path is its absolute flag and its segment codes
(``0`` = ``""``, ``1`` = ``"."``, ``2`` = ``".."``, ``>= 3`` a name; equal codes are equal
names).  Normalization is the implementation's loop unrolled into a stack machine with an
``ok`` flag that drops to false when ``..`` pops an empty stack (no clamping, SCOPE-PATH-3).
Names are atomic here, so the ``/a`` versus ``/ab`` question lies below this model: the
string-level witnesses and the differential tests on real strings reach it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from proofs._ops import PY, Ops

EMPTY, DOT, DOTDOT = 0, 1, 2


@dataclass(frozen=True)
class Norm:
    """A normalized path: absolute flag, stack of codes (padded), depth, and no-underflow flag."""

    absolute: Any
    stack: tuple[Any, ...]
    depth: Any
    ok: Any


def normalize(absolute: Any, raw: Sequence[Any], cap: int, ops: Ops) -> Norm:
    """The unrolled normalization of ``raw`` into a stack of ``cap`` slots."""
    stack: list[Any] = [ops.const(0)] * cap
    depth = ops.const(0)
    ok = ops.boolean(True)
    for i, seg in enumerate(raw):
        is_name = seg >= 3
        stack = [
            ops.ite(ops.and_(is_name, depth == j), seg, stack[j]) if j <= i else stack[j]
            for j in range(cap)
        ]
        pop = seg == DOTDOT
        ok = ops.and_(ok, ops.not_(ops.and_(pop, depth == 0)))
        depth = ops.ite(is_name, depth + 1, ops.ite(ops.and_(pop, depth > 0), depth - 1, depth))
    return Norm(absolute, tuple(stack), depth, ok)


def under(candidate: Norm, prefix: Norm, ops: Ops) -> Any:
    """SCOPE-PATH-4: both normalize, same absoluteness, prefix's segments lead the candidate's."""
    slots = min(len(candidate.stack), len(prefix.stack))
    return ops.and_(
        candidate.ok,
        prefix.ok,
        candidate.absolute == prefix.absolute,
        prefix.depth <= candidate.depth,
        *[
            ops.implies(j < prefix.depth, prefix.stack[j] == candidate.stack[j])
            for j in range(slots)
        ],
    )


def encode(*paths: str) -> list[tuple[bool, list[int]]]:
    """Real strings to model inputs, through one interning table shared by all of them."""
    table = {"": EMPTY, ".": DOT, "..": DOTDOT}
    out = []
    for path in paths:
        segments = path.replace("\\", "/").split("/")
        codes = [table.setdefault(seg, len(table)) for seg in segments]
        out.append((path.startswith(("/", "\\")), codes))
    return out


def model_has_prefix(candidate: str, prefix: str, ops: Ops = PY) -> bool:
    """The model's verdict on real strings (PY backend, or the Z3 terms evaluated)."""
    (ca, cc), (pa, pc) = encode(candidate, prefix)
    cap = len(cc) + len(pc) + 1
    if ops is PY:
        return bool(under(normalize(ca, cc, cap, PY), normalize(pa, pc, cap, PY), PY))
    from proofs._ops import ground

    c = normalize(ops.boolean(ca), [ops.const(x) for x in cc], cap, ops)
    p = normalize(ops.boolean(pa), [ops.const(x) for x in pc], cap, ops)
    return ground(under(c, p, ops))


NAMES = "abcdefgh"


def decode(absolute: bool, codes: Sequence[int]) -> str:
    """Model inputs back to a real string (names ``a``..``h``)."""
    words = {EMPTY: "", DOT: ".", DOTDOT: ".."}
    body = "/".join(words.get(c, NAMES[(c - 3) % len(NAMES)]) for c in codes)
    return ("/" if absolute else "") + body
