"""The Rust ``regex`` crate, as Chio's hosted matcher uses it (rules ``SCOPE-HOSTED-RX-*``).

Chio compiles ``regex_match`` and ``memory_write_deny_patterns`` patterns with
``regex::Regex::new`` (default limits: 10 MiB compiled size, nesting depth 250) and asks
``Regex::is_match`` (unanchored search).  Python's :mod:`re` is a different language (it has
lookarounds and backreferences, lacks ``\\p{Greek}`` and ``\\z``, treats ``$`` and ``\\s``
differently), so it is never used here.  The engine is the ``paula`` binding, which links
regex 1.12.3 / regex-automata 0.4.14 / regex-syntax 0.8.10, the versions in Chio's
``Cargo.lock``; ``spec/scope.md`` records why it was chosen over the other bindings.

The binding is imported on first use, so ``import mcp_touchstone.scope`` does not load it.
A compile failure is a value (:class:`RegexCompileError`) carrying the crate's own ``Display``
text, never an exception.

**The one stateful seam of ``scope/`` (SCOPE-HOSTED-RX-5).**  :func:`compile_rust_regex` keeps
a process-wide, bounded compile cache (:class:`RegexCache`, :data:`CACHE_MAX_ENTRIES` patterns,
least recently used evicted first; patterns longer than :data:`CACHE_MAX_PATTERN_CHARS` are
compiled every time and never held), as Python's own :mod:`re` does.  It is mutable module
state on purpose: the hosted matcher runs inline in a server and compiles the same grant
patterns on every call, and a refusal at the crate's 10 MiB size limit costs the crate about
0.1 s each time (``spec/scope.md``, "The compile cache").  It is invisible to callers:
``Regex::new`` is a deterministic function of the pattern (the linked crate is pinned), so a
cached answer is the answer a fresh compile gives, refusals included (same ``Display`` text),
and a ``RustRegex`` is read-only.  No I/O, no clock, no randomness; a lock makes it safe to
share between threads.  :func:`compile_rust_regex_uncached` is the crate call itself, except
for the patterns :mod:`._regex_size` proves the crate refuses at its size limit: those get the
crate's refusal text without the build (SCOPE-HOSTED-RX-6).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Protocol

from mcp_touchstone.scope._regex_size import SIZE_LIMIT_TEXT, exceeds_size_limit

__all__ = [
    "CACHE_MAX_ENTRIES",
    "CACHE_MAX_PATTERN_CHARS",
    "RegexCache",
    "RegexCompileError",
    "RustRegex",
    "compile_rust_regex",
    "compile_rust_regex_uncached",
    "engine_version",
]

CACHE_MAX_ENTRIES = 256
"""How many patterns the process-wide compile cache holds (Python's :mod:`re` holds 512)."""

CACHE_MAX_PATTERN_CHARS = 4096
"""Longer patterns are compiled every time and never cached, so the cache's keys stay small."""


class _Engine(Protocol):
    """The two things the matcher needs from a compiled ``regex::Regex``."""

    def is_match(self, haystack: str) -> bool: ...  # pragma: no cover - protocol


@dataclass(frozen=True, slots=True)
class RegexCompileError:
    """``Regex::new`` refused the pattern; ``detail`` is the crate's ``Display`` of the error."""

    pattern: str
    detail: str


@dataclass(frozen=True, slots=True, eq=False)
class RustRegex:
    """A pattern compiled by the Rust ``regex`` crate."""

    pattern: str
    _engine: _Engine

    def is_match(self, haystack: str) -> bool:
        """``Regex::is_match``: does the pattern match anywhere in ``haystack`` (unanchored)."""
        return self._engine.is_match(haystack)


def _is_scalar_text(text: str) -> bool:
    """Whether ``text`` is a Rust ``&str``: no lone surrogate code points."""
    return text.isascii() or not any(0xD800 <= ord(ch) <= 0xDFFF for ch in text)


def compile_rust_regex_uncached(pattern: str) -> RustRegex | RegexCompileError:
    """``regex::Regex::new(pattern)``, compiled now: the compiled regex, or the crate's error
    (a pattern :func:`._regex_size.exceeds_size_limit` proves too big is refused as the crate
    refuses it, without compiling).

    Raises :class:`ValueError` only for API misuse: a ``pattern`` with a lone surrogate, which
    no Rust ``String`` (and no JSON text serde_json accepts) can hold.
    """
    if not _is_scalar_text(pattern):
        raise ValueError("regex pattern is not valid Unicode text (lone surrogate)")
    if exceeds_size_limit(pattern):  # the crate's own refusal, without building 10 MiB first
        return RegexCompileError(pattern, SIZE_LIMIT_TEXT)
    import paula  # The Rust regex crate; first use only (SCOPE-HOSTED-RX-1).

    try:
        engine = paula.Regex(pattern)
    except ValueError as exc:
        return RegexCompileError(pattern, str(exc))
    return RustRegex(pattern, engine)


class RegexCache:
    """A bounded compile cache keyed by the pattern string, holding compiled regexes and compile
    errors alike: at most ``max_entries`` patterns, the least recently used evicted first, and
    patterns longer than ``max_pattern_chars`` compiled every time, never held
    (SCOPE-HOSTED-RX-5).  :meth:`compile` answers exactly as
    :func:`compile_rust_regex_uncached`."""

    __slots__ = ("_entries", "_lock", "max_entries", "max_pattern_chars")

    def __init__(
        self,
        max_entries: int = CACHE_MAX_ENTRIES,
        max_pattern_chars: int = CACHE_MAX_PATTERN_CHARS,
    ) -> None:
        if max_entries < 1 or max_pattern_chars < 0:
            raise ValueError("a regex cache holds at least one pattern")
        self.max_entries = max_entries
        self.max_pattern_chars = max_pattern_chars
        self._entries: OrderedDict[str, RustRegex | RegexCompileError] = OrderedDict()
        self._lock = threading.Lock()

    def compile(self, pattern: str) -> RustRegex | RegexCompileError:
        """``regex::Regex::new(pattern)``, from the cache when this pattern was compiled lately."""
        if len(pattern) > self.max_pattern_chars:
            return compile_rust_regex_uncached(pattern)
        with self._lock:
            found = self._entries.get(pattern)
            if found is not None:
                self._entries.move_to_end(pattern)
                return found
        # Compiled outside the lock: a slow compile never holds up a cached pattern.  Two threads
        # compiling the same pattern at once get equal answers; the later one is kept.
        compiled = compile_rust_regex_uncached(pattern)
        with self._lock:
            self._entries[pattern] = compiled
            self._entries.move_to_end(pattern)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)
        return compiled

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, pattern: object) -> bool:
        return pattern in self._entries

    def clear(self) -> None:
        """Forget every pattern."""
        with self._lock:
            self._entries.clear()


_CACHE = RegexCache()
"""The process-wide cache behind :func:`compile_rust_regex` (the seam described above)."""


def compile_rust_regex(pattern: str) -> RustRegex | RegexCompileError:
    """``regex::Regex::new(pattern)``: the compiled regex, or the crate's compile error, through
    the process-wide bounded cache (SCOPE-HOSTED-RX-5); the same answer as
    :func:`compile_rust_regex_uncached`.

    Raises :class:`ValueError` only for API misuse: a ``pattern`` with a lone surrogate, which
    no Rust ``String`` (and no JSON text serde_json accepts) can hold (never cached).
    """
    return _CACHE.compile(pattern)


def engine_version() -> str:
    """The binding's distribution version (it fixes the linked regex crate version)."""
    from importlib.metadata import version

    return "paula " + version("paula")
