"""turbomcp's URI templates (VIS-TPL-1..3) as anchored regular expressions, two backends.

A literal span matches itself, ``{v}`` one or more characters other than ``/``, ``{+v}`` one
or more characters other than a newline, and the whole URI must be consumed.  The real
``uri_template_matches`` is a position-set sweep, held equal to this by differential tests.
"""

from __future__ import annotations

import re
from typing import Any

import z3

_VAR = re.compile(r"\{(\+?)([A-Za-z0-9_]+)\}")


def tokens(template: str) -> list[tuple[str, str]] | None:
    """``(kind, text)`` with kind ``lit``, ``seg`` or ``res``; ``None`` for an expression this
    bounded model does not cover (malformed templates are out of its scope)."""
    out: list[tuple[str, str]] = []
    at = 0
    for found in _VAR.finditer(template):
        if found.start() > at:
            out.append(("lit", template[at : found.start()]))
        out.append(("res" if found.group(1) else "seg", found.group(2)))
        at = found.end()
    if at < len(template):
        out.append(("lit", template[at:]))
    if any(kind == "lit" and ("{" in text or "}" in text) for kind, text in out):
        return None
    return out


def py_pattern(template: str) -> str | None:
    """The Python backend: an ``re`` pattern for ``fullmatch``."""
    toks = tokens(template)
    if toks is None:
        return None
    return "".join(
        re.escape(t) if k == "lit" else ("[^/]+" if k == "seg" else "[^\n]+") for k, t in toks
    )


def _plus_not(ch: str) -> Any:
    every = z3.AllChar(z3.ReSort(z3.StringSort()))
    other = z3.Intersect(every, z3.Complement(z3.Re(z3.StringVal(ch))))
    return z3.Plus(other)


def z3_regex(template: str) -> Any:
    """The Z3 backend: the same language as a Z3 regex."""
    toks = tokens(template)
    assert toks is not None
    parts = [
        z3.Re(z3.StringVal(t)) if k == "lit" else _plus_not("/" if k == "seg" else "\n")
        for k, t in toks
    ]
    if not parts:
        return z3.Re(z3.StringVal(""))
    return parts[0] if len(parts) == 1 else z3.Concat(*parts)


def model_matches(template: str, uri: str) -> bool | None:
    """The model's verdict (Python backend), ``None`` outside the model's scope."""
    pattern = py_pattern(template)
    if pattern is None:
        return None
    return re.fullmatch(pattern, uri, re.DOTALL) is not None
