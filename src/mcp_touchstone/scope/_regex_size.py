"""Which patterns the pinned ``regex`` crate provably refuses at its size limit (SCOPE-HOSTED-RX-6).

``regex::Regex::new`` builds the forward Thompson NFA and checks, after every state it adds, that
``states.len() * size_of::<State>() + heap`` stays within 10 MiB (regex-automata 0.4.14,
``nfa/thompson/builder.rs``: ``Builder::add`` then ``check_size_limit``); past it the build stops
with ``CompiledTooBig``, whose ``Display`` is :data:`SIZE_LIMIT_TEXT`.  A builder ``State`` holds a
``Vec`` in two of its variants, so ``size_of::<State>()`` is at least 24 bytes, and any build that
adds more than :data:`REFUSED_STATES` states is refused, whatever the states are.

:func:`nfa_states_lower_bound` reads a small subset of the crate's syntax and counts, for it, a
number of states the compiler certainly adds; :func:`exceeds_size_limit` is then exact for the
patterns it says yes to, and says no to everything it does not read.  The subset: ASCII letters,
digits and ``_`` (a literal of one byte: one ``ByteRange`` state each), ``.``, ``\\d`` ``\\D``
``\\w`` ``\\W`` ``\\s`` ``\\S`` (a class that is never empty: at least one state), groups ``(…)``
and ``(?:…)`` with at least one piece, and the quantifiers ``*`` ``+`` ``?`` ``{n}`` ``{n,}``
``{n,m}`` (``n <= m``, digits only, a lazy ``?`` allowed after any of them; only counted
quantifiers stack).  No alternation, no anchors, no flags, no escapes of other kinds, at most
:data:`MAX_PATTERN_CHARS` characters, :data:`MAX_NESTING` groups and :data:`MAX_NESTING` levels of
nesting (well under the crate's nesting limit of 250), so every pattern read here parses.

Why the count is a lower bound, from ``nfa/thompson/compiler.rs``: ``c_exactly`` compiles its
expression ``n`` times, ``c_bounded`` ``m`` times (``n`` then ``m - n`` optional copies),
``c_at_least`` ``max(n, 1)`` times, ``*``, ``+`` and ``?`` once; ``c_literal`` adds one state per
byte, a class at least one, a capture group its expression's states (and two more).  The
translator's simplifications keep the count: ``{1}`` / ``{1,1}`` is the expression itself,
``{0}`` / ``{0,0}`` is empty (counted 0), and the clamp of a repetition whose expression can only
match the empty string never applies to an expression counted above 0.  Nothing is built before the
forward NFA that could answer instead: literal extraction gives a literal-only strategy only for an
exact prefix set of literals at most 100 bytes long (the extractor's default ``limit_literal_len``),
while the longest string such a pattern matches has at least as many characters as the count; the
pattern has no top-level alternation and no anchor.  The refusal is the first error the build
meets (the state-ID limit is 2^31 states).  ``tests/scope/test_regex_size.py`` checks every yes
against the linked crate.
"""

from __future__ import annotations

__all__ = [
    "MAX_NESTING",
    "MAX_PATTERN_CHARS",
    "REFUSED_STATES",
    "SIZE_LIMIT_BYTES",
    "SIZE_LIMIT_TEXT",
    "exceeds_size_limit",
    "nfa_states_lower_bound",
]

SIZE_LIMIT_BYTES = 10 * (1 << 20)
"""``regex::RegexBuilder``'s default ``size_limit``: 10 MiB."""
SIZE_LIMIT_TEXT = f"Compiled regex exceeds size limit of {SIZE_LIMIT_BYTES} bytes."
"""The crate's ``Display`` of ``Error::CompiledTooBig(10485760)``."""
MIN_STATE_BYTES = 24
"""A lower bound on ``size_of::<State>()`` of the Thompson builder: a ``Vec`` (24 bytes) is held
by its ``Sparse``, ``Union`` and ``UnionReverse`` variants."""
REFUSED_STATES = SIZE_LIMIT_BYTES // MIN_STATE_BYTES + 1
"""More states than the limit has room for (436,907 at 24 bytes each)."""
MAX_PATTERN_CHARS = 4096
"""Longer patterns are not read (the crate decides)."""
MAX_NESTING = 50
"""Deeper nesting of groups and quantifiers, or more groups, is not read (the crate's own nesting
limit is 250)."""

_LITERALS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_CLASS_ESCAPES = frozenset("dDwWsS")
_DIGITS = frozenset("0123456789")
_MAX_COUNT_DIGITS = 9  # below u32::MAX, the crate's bound on a repetition count


def _count(pattern: str, at: int) -> tuple[int, int] | None:
    """A decimal at ``at`` (no sign, no leading zero but ``0``, at most 9 digits) and the index
    after it; ``None`` for anything else."""
    end = at
    while end < len(pattern) and pattern[end] in _DIGITS:
        end += 1
    digits = pattern[at:end]
    if not digits or len(digits) > _MAX_COUNT_DIGITS or (len(digits) > 1 and digits[0] == "0"):
        return None
    return int(digits), end


def _quantified(pattern: str, at: int, states: int) -> tuple[int, int, int] | None:
    """The states of the atom just read (``states`` of them) under the quantifiers at ``at``,
    the index after them and how many there are (each is one level of nesting); ``None`` when
    they are outside the subset."""
    levels = 0
    counted_last = True  # whether another quantifier may follow
    while at < len(pattern) and pattern[at] in "*+?{":
        if not counted_last:
            return None
        levels += 1
        if pattern[at] == "{":
            low = _count(pattern, at + 1)
            if low is None:
                return None
            copies, at = low  # {n}: c_exactly
            if at < len(pattern) and pattern[at] == ",":
                if at + 1 < len(pattern) and pattern[at + 1] == "}":
                    copies, at = max(copies, 1), at + 1  # {n,}: c_at_least
                else:
                    high = _count(pattern, at + 1)
                    if high is None or high[0] < copies:  # n > m: a syntax error
                        return None
                    copies, at = high  # {n,m}: c_bounded
            if at >= len(pattern) or pattern[at] != "}":
                return None
            at += 1
            states *= copies
        else:  # *, + and ?: the expression once
            at += 1
            counted_last = False
        if at < len(pattern) and pattern[at] == "?":
            at += 1  # lazy: the same states
    return states, at, levels


def _sequence(pattern: str, at: int) -> tuple[int, int, int] | None:
    """The states of the pieces from ``at`` up to a ``)`` or the end, the index there, and the
    nesting depth of the sequence (a concatenation, a group and a quantifier are one level each,
    as the crate's nesting limit counts them); ``None`` outside the subset."""
    start = at
    total = 0
    deepest = 0
    while at < len(pattern) and pattern[at] != ")":
        char = pattern[at]
        nested = 0
        if char in _LITERALS or char == ".":
            states, at = 1, at + 1
        elif char == "\\":
            if at + 1 >= len(pattern) or pattern[at + 1] not in _CLASS_ESCAPES:
                return None
            states, at = 1, at + 2
        elif char == "(":
            at += 3 if pattern.startswith("(?:", at) else 1  # "(?" then not ":" reads no atom
            group = _sequence(pattern, at)
            if group is None or group[1] == len(pattern):  # outside, or unclosed
                return None
            states, at, inner = group
            at += 1
            nested = inner + 1
        else:
            return None
        piece = _quantified(pattern, at, states)
        if piece is None:
            return None
        states, at, levels = piece
        total += states
        deepest = max(deepest, nested + levels)
    if at == start:
        return None  # an empty group or pattern
    return total, at, deepest + 1


def nfa_states_lower_bound(pattern: str) -> int | None:
    """A number of states ``regex::Regex::new(pattern)`` certainly adds to its forward NFA when
    ``pattern`` is in the subset described above, else ``None``.  Never raises."""
    if len(pattern) > MAX_PATTERN_CHARS or pattern.count("(") > MAX_NESTING:
        return None  # the second test also bounds the recursion below
    read = _sequence(pattern, 0)
    if read is None:
        return None
    states, at, depth = read
    if at != len(pattern) or depth > MAX_NESTING:  # a ")" left over is a syntax error
        return None
    return states


def exceeds_size_limit(pattern: str) -> bool:
    """Whether ``pattern`` is certainly refused by ``regex::Regex::new`` with
    :data:`SIZE_LIMIT_TEXT`: true only for a pattern of the subset whose forward NFA needs more
    than :data:`REFUSED_STATES` states (SCOPE-HOSTED-RX-6)."""
    states = nfa_states_lower_bound(pattern)
    return states is not None and states >= REFUSED_STATES
