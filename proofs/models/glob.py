"""Chio's ``*`` glob (SCOPE-DOM-5) as a regular expression: one definition, two backends.

``*`` is any run of characters, dots included; every other character, ``?`` included, is
literal.  The :class:`Regex` backend builds a Z3 regex (``InRe``); the Python backend builds
an anchored ``re`` pattern.  The real ``wildcard_matches`` is a greedy matcher with one
backtrack point, which the differential tests hold equal to this.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import z3


@dataclass(frozen=True)
class Regex:
    """The regex operations the glob model uses."""

    lit: Callable[[str], Any]
    any_run: Callable[[], Any]
    concat: Callable[[list[Any]], Any]


def _z3_concat(parts: list[Any]) -> Any:
    if not parts:
        return z3.Re(z3.StringVal(""))
    return parts[0] if len(parts) == 1 else z3.Concat(*parts)


PY_RE = Regex(lit=re.escape, any_run=lambda: ".*", concat="".join)
Z3_RE = Regex(
    lit=lambda s: z3.Re(z3.StringVal(s)),
    any_run=lambda: z3.Star(z3.AllChar(z3.ReSort(z3.StringSort()))),
    concat=_z3_concat,
)


def glob(pattern: str, rx: Regex) -> Any:
    """The language of ``pattern``: its star-separated pieces, ``any_run`` between them."""
    parts: list[Any] = []
    for i, piece in enumerate(pattern.split("*")):
        if i:
            parts.append(rx.any_run())
        if piece:
            parts.append(rx.lit(piece))
    return rx.concat(parts)


def model_matches(pattern: str, text: str) -> bool:
    """The model's verdict with the Python backend."""
    return re.fullmatch(glob(pattern, PY_RE), text, re.DOTALL) is not None


def z3_matches(pattern: str, text: str) -> bool:
    """The model's verdict from the very Z3 regex the proofs use."""
    from proofs._ops import ground

    return ground(z3.InRe(z3.StringVal(text), glob(pattern, Z3_RE)))
