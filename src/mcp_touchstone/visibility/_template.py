"""The RFC 6570 subset turbomcp matches resource URIs against (VIS-TPL-*)."""

from __future__ import annotations

import functools
import re

_VAR_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_LITERAL, _SEGMENT, _RESERVED = 0, 1, 2


@functools.lru_cache(maxsize=4096)
def compile_uri_template(template: str) -> tuple[re.Pattern[str], tuple[str, ...]] | None:
    """Compile ``template`` to a fully anchored pattern and its variable names, or ``None``
    when it is malformed (VIS-TPL-4).

    Literal spans match themselves; ``{var}`` matches one or more characters other than
    ``/`` (VIS-TPL-1); ``{+var}`` matches one or more characters other than a newline
    (VIS-TPL-2).  A variable name is one or more ASCII letters, digits or ``_``; any other
    expression (``{?q}``, ``{/p}``, ``{#f}``, ``{a,b}``, ``{x*}``, ``{}``) and a ``{`` without
    a later ``}`` make the template malformed.  A ``}`` outside an expression is a literal
    (VIS-TPL-5).
    """
    tokens = _tokens(template)
    if tokens is None:
        return None
    parts: list[str] = []
    names: list[str] = []
    for kind, text in tokens:
        if kind == _LITERAL:
            parts.append(re.escape(text))
        else:
            names.append(text)
            parts.append("([^/]+)" if kind == _SEGMENT else "(.+)")
    return re.compile("".join(parts)), tuple(names)


def match_uri_template(template: str, uri: str) -> tuple[tuple[str, str], ...] | None:
    """The variables ``uri`` binds in ``template`` (in template order), or ``None`` when the
    template is malformed or does not match the whole of ``uri`` (VIS-TPL-3)."""
    compiled = compile_uri_template(template)
    if compiled is None or not uri_template_matches(template, uri):
        return None
    pattern, names = compiled
    # fullmatch, not `$`: the upstream regex has no trailing-newline leniency.
    found = pattern.fullmatch(uri)
    if found is None:
        return None
    return tuple(zip(names, found.groups(), strict=True))


@functools.lru_cache(maxsize=4096)
def _tokens(template: str) -> tuple[tuple[int, str], ...] | None:
    """The template as (kind, text) tokens (literal text, ``{var}`` or ``{+var}`` with its
    name), or ``None`` when it is malformed (VIS-TPL-4, VIS-TPL-5)."""
    out: list[tuple[int, str]] = []
    rest = template
    while (open_at := rest.find("{")) != -1:
        if open_at:
            out.append((_LITERAL, rest[:open_at]))
        close_at = rest.find("}", open_at)
        if close_at == -1:
            return None
        var = rest[open_at + 1 : close_at]
        reserved = var.startswith("+")
        if reserved:
            var = var[1:]
        if not var or any(ch not in _VAR_CHARS for ch in var):
            return None
        out.append((_RESERVED if reserved else _SEGMENT, var))
        rest = rest[close_at + 1 :]
    if rest:
        out.append((_LITERAL, rest))
    return tuple(out)


def _run_ends(uri: str, stop: str) -> list[int]:
    """For each position ``p``, the end of the longest run from ``p`` free of ``stop``."""
    ends = [0] * (len(uri) + 1)
    ends[len(uri)] = len(uri)
    for p in range(len(uri) - 1, -1, -1):
        ends[p] = p if uri[p] == stop else ends[p + 1]
    return ends


def uri_template_matches(template: str, uri: str) -> bool:
    """Whether ``uri`` matches ``template`` (same answer as :func:`match_uri_template`).

    Decided by a position-set sweep rather than a backtracking regex, so it takes time linear
    in ``len(uri)`` per template expression whatever the input (as the upstream's
    finite-automaton regex does).
    """
    tokens = _tokens(template)
    if tokens is None:
        return False
    reachable = [0]
    seg_ends: list[int] | None = None
    res_ends: list[int] | None = None
    for kind, text in tokens:
        if kind == _LITERAL:
            reachable = [p + len(text) for p in reachable if uri.startswith(text, p)]
        else:
            if kind == _SEGMENT:
                seg_ends = seg_ends or _run_ends(uri, "/")
                ends = seg_ends
            else:
                res_ends = res_ends or _run_ends(uri, "\n")
                ends = res_ends
            # Each p reaches (p, ends[p]]; merge the intervals in one sweep.
            merged: list[int] = []
            high = -1
            for p in reachable:
                low = max(p + 1, high + 1)
                top = ends[p]
                if top >= low:
                    merged.extend(range(low, top + 1))
                    high = top
            reachable = merged
        if not reachable:
            return False
    return len(uri) in reachable
