"""How Chio's portable constraints read the call arguments (rules ``SCOPE-ARG-*``,
``SCOPE-PATH-*``, ``SCOPE-DOM-*``, ``SCOPE-LEN-*``, ``SCOPE-CUSTOM-*``, ``SCOPE-ALLOW-*``).

Upstream re-walks the arguments for every constraint it evaluates.  Here one
:class:`ArgumentFacts` per resolution walks them at most once, lazily, collecting everything
the decided constraints need (string leaves, string-valued entries for ``Custom``, and the
strict audience / memory-store observations), and renders the compact JSON at most once for
``MaxArgsSize``.  Every answer equals upstream's per-constraint walk: all of them are
order-independent ``all``/``any`` questions over the same sets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mcp_touchstone import serde_json
from mcp_touchstone.serde_json import JSON

__all__ = [
    "AUDIENCE_KEYS",
    "MEMORY_STORE_KEYS",
    "PATH_KEYS",
    "AllowlistObservation",
    "ArgumentFacts",
    "NormalizedPath",
    "ascii_lower",
    "is_path_key",
    "looks_like_path",
    "normalize_domain",
    "normalize_path",
    "parse_domain",
    "path_has_prefix",
    "rust_trim",
    "wildcard_matches",
]

# Rust's char::is_whitespace (Unicode White_Space), which str::trim strips.  Python's
# str.strip() would also strip U+001C..U+001F, which Rust keeps (SCOPE-DOM-2).
_RUST_WHITESPACE: Final = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
_ASCII_LOWER: Final = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_DOMAIN_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-.")

PATH_KEYS: Final = frozenset({"file", "filepath", "dir", "directory", "root", "cwd"})
"""Exact (ASCII-lowercased) keys that make a leaf a path candidate, besides ``*path*``."""
AUDIENCE_KEYS: Final = frozenset(
    {"recipient", "recipients", "audience", "to", "channel", "channels"}
)
"""Keys (ASCII-lowercased) whose values the audience allowlist reads."""
MEMORY_STORE_KEYS: Final = frozenset({"store", "memory_store", "collection", "namespace"})
"""Keys (ASCII-lowercased) whose values the memory-store allowlist reads."""


def ascii_lower(text: str) -> str:
    """Rust's ``to_ascii_lowercase``: only ``A``-``Z`` change (no Unicode case mapping)."""
    return text.lower() if text.isascii() else text.translate(_ASCII_LOWER)


def rust_trim(text: str) -> str:
    """Rust's ``str::trim``: strip Unicode White_Space from both ends."""
    return text.strip(_RUST_WHITESPACE)


# --------------------------------------------------------------------------- paths


def is_path_key(key: str) -> bool:
    """A key whose string values are path candidates (SCOPE-PATH-1)."""
    lowered = ascii_lower(key)
    return "path" in lowered or lowered in PATH_KEYS


def looks_like_path(value: str) -> bool:
    """A value with ``/`` or ``\\`` and no ``://`` is a path candidate (SCOPE-PATH-1)."""
    return "://" not in value and ("/" in value or "\\" in value)


@dataclass(frozen=True, slots=True)
class NormalizedPath:
    """A lexically normalized path: absolute flag and segments."""

    is_absolute: bool
    segments: tuple[str, ...]


def normalize_path(path: str) -> NormalizedPath | None:
    """Lexical normalization: ``/`` and ``\\`` separate, ``.`` and empty segments drop,
    ``..`` pops; popping past the start yields ``None`` (SCOPE-PATH-2, SCOPE-PATH-3)."""
    is_absolute = path.startswith(("/", "\\"))
    segments: list[str] = []
    for segment in path.replace("\\", "/").split("/"):
        if segment in ("", "."):
            continue
        if segment == "..":
            if not segments:
                return None
            segments.pop()
            continue
        segments.append(segment)
    return NormalizedPath(is_absolute, tuple(segments))


def _under(candidate: NormalizedPath | None, prefix: NormalizedPath | None) -> bool:
    if candidate is None or prefix is None:
        return False
    if candidate.is_absolute != prefix.is_absolute:
        return False
    n = len(prefix.segments)
    return n <= len(candidate.segments) and candidate.segments[:n] == prefix.segments


def path_has_prefix(candidate: str, prefix: str) -> bool:
    """Segment-wise prefix test after normalizing both sides (SCOPE-PATH-4)."""
    return _under(normalize_path(candidate), normalize_path(prefix))


# --------------------------------------------------------------------------- domains


def normalize_domain(value: str) -> str:
    """Trim whitespace, then dots, then ASCII-lowercase (SCOPE-DOM-3)."""
    return ascii_lower(rust_trim(value).strip("."))


def parse_domain(value: str) -> str | None:
    """The domain a string leaf names, or ``None`` if it names none (SCOPE-DOM-1, -2)."""
    if "." not in value and "localhost" not in value.lower():
        # Fast reject: a result without a dot must be "localhost", whose letters
        # str.lower() folds at least as widely as the ASCII folding below.
        return None
    trimmed = rust_trim(value)
    if not trimmed:
        return None
    _, sep, rest = trimmed.partition("://")
    host_port = rest if sep else trimmed
    end = len(host_port)
    for stop in "/?#":
        at = host_port.find(stop)
        if at != -1 and at < end:
            end = at
    authority = host_port[:end].rpartition("@")[2]
    host = authority.partition(":")[0].strip(".")
    normalized = normalize_domain(host)
    if normalized == "localhost":
        return normalized
    if normalized and "." in normalized and _DOMAIN_CHARS.issuperset(normalized):
        return normalized
    return None


def wildcard_matches(pattern: str, candidate: str) -> bool:
    """Chio's greedy ``*`` matcher with one backtrack point; ``*`` crosses dots and every
    other character, ``?`` included, is literal (SCOPE-DOM-5)."""
    p = c = 0
    star = -1
    mark = 0
    np, nc = len(pattern), len(candidate)
    while c < nc:
        if p < np and pattern[p] == "*":
            star = p
            mark = c
            p += 1
        elif p < np and pattern[p] == candidate[c]:
            p += 1
            c += 1
        elif star >= 0:
            p = star + 1
            mark += 1
            c = mark
        else:
            return False
    while p < np and pattern[p] == "*":
        p += 1
    return p == np


# --------------------------------------------------------------------------- the walk


@dataclass(frozen=True, slots=True)
class AllowlistObservation:
    """What the strict allowlist walk saw: any relevant key, any invalid value, the strings."""

    saw_relevant_key: bool
    invalid: bool
    values: frozenset[str]

    def admits(self, allowed: tuple[str, ...]) -> bool:
        """The allowlist verdict for ``allowed`` (SCOPE-ALLOW-3)."""
        if self.invalid:
            return False
        if not self.saw_relevant_key:
            return True
        return self.values.issubset(allowed)


class _Observer:
    __slots__ = ("invalid", "saw", "values")

    def __init__(self) -> None:
        self.saw = False
        self.invalid = False
        self.values: list[str] = []

    def observe(self, value: JSON) -> None:
        self.saw = True
        before = len(self.values)
        if not _collect_strict(value, self.values) or len(self.values) == before:
            self.invalid = True

    def freeze(self) -> AllowlistObservation:
        return AllowlistObservation(self.saw, self.invalid, frozenset(self.values))


def _collect_strict(value: JSON, out: list[str]) -> bool:
    """Strings are collected; arrays recurse; anything else poisons (SCOPE-ALLOW-2)."""
    if isinstance(value, str):
        out.append(value)
        return True
    if isinstance(value, list):
        return all(_collect_strict(item, out) for item in value)
    return False


class _Walk:
    __slots__ = ("audience", "entries", "leaves", "memory")

    def __init__(self) -> None:
        self.leaves: list[tuple[str | None, str]] = []
        self.entries: set[tuple[str, str]] = set()
        self.audience = _Observer()
        self.memory = _Observer()

    def visit(self, value: JSON, key: str | None, audience_live: bool, memory_live: bool) -> None:
        if isinstance(value, str):
            self.leaves.append((key, value))
        elif isinstance(value, list):
            for item in value:
                self.visit(item, key, audience_live, memory_live)
        elif isinstance(value, dict):
            for entry_key, item in value.items():
                if isinstance(item, str):
                    self.entries.add((entry_key, item))
                audience_here, memory_here = audience_live, memory_live
                if audience_live or memory_live:
                    lowered = ascii_lower(entry_key)
                    if audience_live and lowered in AUDIENCE_KEYS:
                        self.audience.observe(item)
                        audience_here = False
                    if memory_live and lowered in MEMORY_STORE_KEYS:
                        self.memory.observe(item)
                        memory_here = False
                self.visit(item, entry_key, audience_here, memory_here)


class ArgumentFacts:
    """The facts the 8 decided constraints read from one ``arguments`` value.

    Each fact is computed on first use and kept for the rest of the resolution, so a scope
    with many constrained grants walks the arguments once (SCOPE-ARG-3).  Pure: the value is
    never mutated and the same arguments always give the same facts.
    """

    __slots__ = (
        "_arguments",
        "_audience",
        "_domains",
        "_entries",
        "_leaves",
        "_longest",
        "_memory",
        "_paths",
        "_size",
    )

    def __init__(self, arguments: JSON) -> None:
        self._arguments = arguments
        self._leaves: list[tuple[str | None, str]] | None = None
        self._entries: set[tuple[str, str]] = set()
        self._audience = AllowlistObservation(False, False, frozenset())
        self._memory = AllowlistObservation(False, False, frozenset())
        self._paths: list[NormalizedPath | None] | None = None
        self._domains: list[str] | None = None
        self._size: int | None = None
        self._longest: int | None = None

    def _walk(self) -> list[tuple[str | None, str]]:
        if self._leaves is None:
            walk = _Walk()
            walk.visit(self._arguments, None, True, True)
            self._entries = walk.entries
            self._audience = walk.audience.freeze()
            self._memory = walk.memory.freeze()
            self._leaves = walk.leaves
        return self._leaves

    @property
    def string_leaves(self) -> list[tuple[str | None, str]]:
        """Every JSON string with its nearest enclosing key (SCOPE-ARG-1)."""
        return self._walk()

    @property
    def path_candidates(self) -> list[NormalizedPath | None]:
        """Normalized path candidates; ``None`` marks one that climbed above its root."""
        if self._paths is None:
            self._paths = [
                normalize_path(value)
                for key, value in self._walk()
                if (key is not None and is_path_key(key)) or looks_like_path(value)
            ]
        return self._paths

    @property
    def domain_candidates(self) -> list[str]:
        """Every string leaf ``parse_domain`` accepts, parsed (SCOPE-DOM-1)."""
        if self._domains is None:
            domains: list[str] = []
            for _, value in self._walk():
                parsed = parse_domain(value)
                if parsed is not None:
                    domains.append(parsed)
            self._domains = domains
        return self._domains

    @property
    def args_size(self) -> int:
        """Byte length of serde_json's compact rendering of the arguments (SCOPE-LEN-3)."""
        if self._size is None:
            text = serde_json.to_string(self._arguments)
            self._size = len(text) if text.isascii() else len(text.encode("utf-8"))
        return self._size

    def path_prefix(self, prefix: str) -> bool:
        """``PathPrefix``: at least one candidate, all under ``prefix`` (SCOPE-PATH-5)."""
        candidates = self.path_candidates
        if not candidates:
            return False
        normalized = normalize_path(prefix)
        return all(_under(candidate, normalized) for candidate in candidates)

    def domain_exact(self, expected: str) -> bool:
        """``DomainExact``: at least one candidate, all equal (SCOPE-DOM-3)."""
        domains = self.domain_candidates
        target = normalize_domain(expected)
        return bool(domains) and all(domain == target for domain in domains)

    def domain_glob(self, pattern: str) -> bool:
        """``DomainGlob``: at least one candidate, all match the glob (SCOPE-DOM-4)."""
        domains = self.domain_candidates
        lowered = ascii_lower(pattern)
        return bool(domains) and all(wildcard_matches(lowered, domain) for domain in domains)

    @property
    def longest_leaf(self) -> int:
        """The largest UTF-8 byte length among the string leaves (0 with none)."""
        if self._longest is None:
            self._longest = max(
                (len(v) if v.isascii() else len(v.encode("utf-8")) for _, v in self._walk()),
                default=0,
            )
        return self._longest

    def max_length(self, limit: int) -> bool:
        """``MaxLength``: every leaf at most ``limit`` UTF-8 bytes; vacuous (SCOPE-LEN-1)."""
        return self.longest_leaf <= limit

    def max_args_size(self, limit: int) -> bool:
        """``MaxArgsSize``: compact rendering at most ``limit`` bytes (SCOPE-LEN-3)."""
        return self.args_size <= limit

    def custom(self, key: str, expected: str) -> bool:
        """``Custom``: some object entry ``key`` holds the string ``expected`` (SCOPE-CUSTOM-1)."""
        self._walk()
        return (key, expected) in self._entries

    def audience_allowlist(self, allowed: tuple[str, ...]) -> bool:
        """``AudienceAllowlist`` under the strict collector (SCOPE-ALLOW-1..3)."""
        self._walk()
        return self._audience.admits(allowed)

    def memory_store_allowlist(self, allowed: tuple[str, ...]) -> bool:
        """``MemoryStoreAllowlist`` under the strict collector (SCOPE-ALLOW-1..3)."""
        self._walk()
        return self._memory.admits(allowed)
