"""The RFC 6570 subset turbomcp matches resource URIs against (VIS-TPL-*)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TypeVar

_R = TypeVar("_R")

CACHED_TEMPLATE_CHARS = 1024
"""Only templates up to this many characters are memoized (VIS-TPL-6)."""
CACHE_ENTRIES = 1024
"""How many templates each memo keeps: at most ~1 M template characters in all."""


def _small_cache(fn: Callable[[str], _R]) -> Callable[[str], _R]:
    """Memoize ``fn`` for templates of at most :data:`CACHED_TEMPLATE_CHARS` characters only, so
    the memo's memory is bounded by size, not just by entry count (VIS-TPL-6)."""
    cached = functools.lru_cache(maxsize=CACHE_ENTRIES)(fn)

    @functools.wraps(fn)
    def run(template: str) -> _R:
        return cached(template) if len(template) <= CACHED_TEMPLATE_CHARS else fn(template)

    run.cache_info = cached.cache_info  # type: ignore[attr-defined]  # for tests
    return run


_LITERAL, _SEGMENT, _RESERVED = 0, 1, 2


@_small_cache
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
    if not uri_template_matches(template, uri):
        return None
    compiled = compile_uri_template(template)
    if compiled is None:
        return None
    pattern, names = compiled
    # fullmatch, not `$`: the upstream regex has no trailing-newline leniency.
    found = pattern.fullmatch(uri)
    if found is None:
        return None
    return tuple(zip(names, found.groups(), strict=True))


_EXPRESSION = re.compile(r"\{(\+?)([A-Za-z0-9_]+)\}")
"""The one expression form the subset reads: ``{name}``, or ``{+name}`` for reserved expansion."""


@_small_cache
def _tokens(template: str) -> tuple[tuple[int, str], ...] | None:
    """The template as (kind, text) tokens (literal text, ``{var}`` or ``{+var}`` with its
    name), or ``None`` when it is malformed (VIS-TPL-4, VIS-TPL-5).

    One split at the expressions: the template is malformed exactly when a ``{`` is left in
    the literal text between them (one that opens no well-formed expression)."""
    parts = _EXPRESSION.split(template)  # literal, "+" or "", name, literal, ..., literal
    literals = parts[0::3]
    if any("{" in text for text in literals):
        return None
    out: list[tuple[int, str]] = []
    for text, plus, name in zip(literals, parts[1::3], parts[2::3], strict=False):
        if text:
            out.append((_LITERAL, text))
        out.append((_RESERVED if plus else _SEGMENT, name))
    if literals[-1]:
        out.append((_LITERAL, literals[-1]))
    return tuple(out)


def _char_masks(uri: str, chars: set[str]) -> dict[str, int]:
    """For each of ``chars``, the bit set of the positions of ``uri`` holding it (bit ``i`` for
    ``uri[i]``).  Every position holds one character, so the scans take O(len(uri)) steps in all
    plus one C-level conversion per character."""
    masks: dict[str, int] = {}
    for ch in chars:
        at = uri.find(ch)
        if at < 0:
            masks[ch] = 0
            continue
        bits = bytearray(b"0") * len(uri)
        while at >= 0:
            bits[at] = 0x31
            at = uri.find(ch, at + 1)
        bits.reverse()
        masks[ch] = int(bits, 2)
    return masks


def _reach(start: int, allowed: int) -> int:
    """Every position reachable from a position of ``start`` by zero or more steps, a step from
    ``i`` to ``i + 1`` being allowed where bit ``i`` of ``allowed`` is set.  Adding a start bit to
    a run of allowed bits carries to the run's end, clearing the run: XOR with ``allowed`` sets
    exactly the positions from the lowest start of each run to the run's end."""
    return (((start & allowed) + allowed) ^ allowed) | start


def _steps(start: int, allowed: int, count: int) -> int:
    """The positions exactly ``count`` allowed steps after a position of ``start``, in
    O(log count) operations: ``block`` marks the positions from which ``width`` steps in a row
    are allowed, and ``count`` is taken one binary digit at a time."""
    block, width, out = allowed, 1, start
    while True:
        if count & 1:
            out = (out & block) << width
        count >>= 1
        if not count:
            return out
        block &= block >> width
        width *= 2


def uri_template_matches(template: str, uri: str) -> bool:
    """Whether ``uri`` matches ``template`` (same answer as :func:`match_uri_template`).

    Decided on bit sets of URI positions rather than by a backtracking regex (VIS-TPL-7): bit
    ``p`` of the set says the template read so far can consume ``uri[:p]``. A literal is a shift
    through the mask of the positions it occurs at (built once per distinct literal); a run of
    ``k`` adjacent variables of one kind is ``k`` steps (O(log k) operations) and then a carry-
    propagated reach over the positions the kind allows. Each template literal character and
    each run of like variables costs a fixed number of operations on ``len(uri)``-bit integers,
    which the interpreter performs a machine word (64 positions) at a time; building the masks
    takes one pass over the URI.
    """
    tokens = _tokens(template)
    if tokens is None:
        return False
    n = len(uri)
    chars = {ch for kind, text in tokens if kind == _LITERAL for ch in text}
    masks = _char_masks(uri, chars | {"/", "\n"})
    every = (1 << n) - 1
    allow = {_SEGMENT: every & ~masks["/"], _RESERVED: every & ~masks["\n"]}
    starts: dict[str, int] = {}  # each distinct literal: the positions it occurs at in ``uri``
    reachable = 1  # Position 0.
    i = 0
    while i < len(tokens):
        kind, text = tokens[i]
        if kind == _LITERAL:
            if text not in starts:
                starts[text] = _occurrences(text, masks)
            reachable = (reachable & starts[text]) << len(text)
            if not reachable:
                return False
            i += 1
            continue
        run = 1
        while i + run < len(tokens) and tokens[i + run][0] == kind:
            run += 1
        reachable = _reach(_steps(reachable, allow[kind], run), allow[kind])
        if not reachable:
            return False
        i += run
    return bool(reachable >> n & 1)


def _occurrences(text: str, masks: dict[str, int]) -> int:
    """The positions of the URI at which ``text`` occurs: bit ``p`` is set when every
    ``text[k]`` is at ``p + k``.  Stops early once no position is left."""
    found = -1
    for k, ch in enumerate(text):
        found &= masks[ch] >> k
        if not found:
            return 0
    return found
