"""How Chio's portable constraints read the call arguments: the verdict of each decided variant
(rules ``SCOPE-ARG-*``, ``SCOPE-PATH-*``, ``SCOPE-DOM-*``, ``SCOPE-LEN-*``, ``SCOPE-CUSTOM-*``,
``SCOPE-ALLOW-*``).

Each function mirrors the function of the same name in Chio's portable matcher, bb-connor/arc
``crates/kernel/chio-kernel-core/src/scope.rs`` @ ``692e32a1``; each :class:`ArgumentFacts`
method is one arm of its ``constraint_matches``.  The walks of the arguments live in
:mod:`._walks`; the Rust string semantics (``trim``, ``to_ascii_lowercase``) in
:mod:`mcp_touchstone._rust`.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Final

from mcp_touchstone import serde_json
from mcp_touchstone._rust import ascii_lower, rust_trim
from mcp_touchstone.scope._walks import (
    AUDIENCE_KEYS,
    MEMORY_STORE_KEYS,
    StringLeaf,
    argument_contains_custom,
    audience_allowlist_matches,
    collect_string_leaves,
    memory_store_allowlist_matches,
)
from mcp_touchstone.serde_json import JSON

__all__ = [
    "AUDIENCE_KEYS",
    "MEMORY_STORE_KEYS",
    "PATH_KEYS",
    "ArgumentFacts",
    "NormalizedPath",
    "ascii_lower",
    "collect_domain_candidates",
    "is_path_key",
    "looks_like_path",
    "normalize_domain",
    "normalize_path",
    "parse_domain",
    "path_has_prefix",
    "rust_trim",
    "wildcard_matches",
]

PATH_KEYS: Final = frozenset({"file", "filepath", "dir", "directory", "root", "cwd"})
"""Exact (ASCII-lowercased) keys that make a leaf a path candidate, besides ``*path*``."""


# --------------------------------------------------------------------------- paths


def is_path_key(key: str) -> bool:
    """A key whose string values are path candidates (SCOPE-PATH-1)."""
    key = ascii_lower(key)
    return "path" in key or key in PATH_KEYS


def looks_like_path(value: str) -> bool:
    """A value with ``/`` or ``\\`` and no ``://`` is a path candidate (SCOPE-PATH-1)."""
    return "://" not in value and (
        value.startswith(("/", "./", "../", "~/")) or "/" in value or "\\" in value
    )


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


def path_has_prefix(candidate: str, prefix: str) -> bool:
    """Segment-wise prefix test after normalizing both sides (SCOPE-PATH-4)."""
    candidate_path = normalize_path(candidate)
    prefix_path = normalize_path(prefix)
    if candidate_path is None or prefix_path is None:
        return False
    if candidate_path.is_absolute != prefix_path.is_absolute:
        return False
    if len(prefix_path.segments) > len(candidate_path.segments):
        return False
    return all(
        expected == actual
        for expected, actual in zip(prefix_path.segments, candidate_path.segments, strict=False)
    )


# --------------------------------------------------------------------------- domains

_AUTHORITY_END: Final = re.compile(r"[/?#]")
_DOMAIN_CHARACTERS: Final = frozenset(string.ascii_letters + string.digits + "-.")


def normalize_domain(value: str) -> str:
    """Trim whitespace, then dots, then ASCII-lowercase (SCOPE-DOM-3)."""
    return ascii_lower(rust_trim(value).strip("."))


def parse_domain(value: str) -> str | None:
    """The domain a string leaf names, or ``None`` if it names none (SCOPE-DOM-1, -2)."""
    trimmed = rust_trim(value)
    if not trimmed:
        return None
    _, scheme, rest = trimmed.partition("://")
    host_port = rest if scheme else trimmed
    authority = _AUTHORITY_END.split(host_port, maxsplit=1)[0].rpartition("@")[2]
    host = authority.partition(":")[0].strip(".")
    normalized = normalize_domain(host)
    if normalized == "localhost" or (
        normalized
        and "." in normalized
        and all(character in _DOMAIN_CHARACTERS for character in normalized)
    ):
        return normalized
    return None


def collect_domain_candidates(string_leaves: tuple[StringLeaf, ...]) -> list[str]:
    """The domains ``parse_domain`` finds among the string leaves, whatever their keys
    (SCOPE-DOM-1)."""
    return [domain for leaf in string_leaves if (domain := parse_domain(leaf.value)) is not None]


def wildcard_matches(pattern: str, candidate: str) -> bool:
    """Chio's ``*`` glob over the whole string: ``*`` matches any run, dots included, and every
    other character, ``?`` included, is literal (SCOPE-DOM-5).

    Upstream's greedy matcher over characters with one backtrack point: on a mismatch after a
    ``*``, the star takes one more character and matching resumes just after it.
    """
    pattern_idx = candidate_idx = 0
    star_idx: int | None = None
    match_idx = 0
    while candidate_idx < len(candidate):
        if pattern_idx < len(pattern) and pattern[pattern_idx] in ("*", candidate[candidate_idx]):
            if pattern[pattern_idx] == "*":
                star_idx = pattern_idx
                match_idx = candidate_idx
                pattern_idx += 1
            else:
                pattern_idx += 1
                candidate_idx += 1
        elif star_idx is not None:
            pattern_idx = star_idx + 1
            match_idx += 1
            candidate_idx = match_idx
        else:
            return False
    while pattern_idx < len(pattern) and pattern[pattern_idx] == "*":
        pattern_idx += 1
    return pattern_idx == len(pattern)


# --------------------------------------------------------------------------- verdicts


class ArgumentFacts:
    """One call's ``arguments`` as the 8 decided constraints read them.

    Upstream collects the string leaves afresh for every constraint it evaluates; here they are
    collected on first use and kept for the rest of one resolution.  The walk is pure, so every
    verdict is the one a fresh walk gives (SCOPE-ARG-3).  The value is never mutated.
    """

    __slots__ = ("_string_leaves", "arguments")

    def __init__(self, arguments: JSON) -> None:
        self.arguments = arguments
        self._string_leaves: tuple[StringLeaf, ...] | None = None

    @property
    def string_leaves(self) -> tuple[StringLeaf, ...]:
        """Every JSON string of the arguments with its nearest enclosing key (SCOPE-ARG-1)."""
        if self._string_leaves is None:
            self._string_leaves = collect_string_leaves(self.arguments)
        return self._string_leaves

    def path_prefix(self, prefix: str) -> bool:
        """``PathPrefix``: at least one path candidate, all under ``prefix`` (SCOPE-PATH-5)."""
        candidates = [
            leaf.value
            for leaf in self.string_leaves
            if (leaf.key is not None and is_path_key(leaf.key)) or looks_like_path(leaf.value)
        ]
        return bool(candidates) and all(path_has_prefix(path, prefix) for path in candidates)

    def domain_exact(self, expected: str) -> bool:
        """``DomainExact``: at least one domain candidate, all equal to ``expected``
        normalized (SCOPE-DOM-3)."""
        expected = normalize_domain(expected)
        domains = collect_domain_candidates(self.string_leaves)
        return bool(domains) and all(domain == expected for domain in domains)

    def domain_glob(self, pattern: str) -> bool:
        """``DomainGlob``: at least one domain candidate, all matching the ASCII-lowercased
        glob (SCOPE-DOM-4)."""
        pattern = ascii_lower(pattern)
        domains = collect_domain_candidates(self.string_leaves)
        return bool(domains) and all(wildcard_matches(pattern, domain) for domain in domains)

    def max_length(self, limit: int) -> bool:
        """``MaxLength``: every leaf at most ``limit`` UTF-8 bytes; vacuous (SCOPE-LEN-1)."""
        return all(len(leaf.value.encode()) <= limit for leaf in self.string_leaves)

    def max_args_size(self, limit: int) -> bool:
        """``MaxArgsSize``: compact serde_json rendering at most ``limit`` bytes (SCOPE-LEN-3)."""
        return len(serde_json.to_string(self.arguments).encode()) <= limit

    def custom(self, key: str, expected: str) -> bool:
        """``Custom``: some object entry ``key`` holds the string ``expected`` (SCOPE-CUSTOM-1)."""
        return argument_contains_custom(self.arguments, key, expected)

    def audience_allowlist(self, allowed: tuple[str, ...]) -> bool:
        """``AudienceAllowlist`` under the strict collector (SCOPE-ALLOW-1..3)."""
        return audience_allowlist_matches(self.arguments, allowed)

    def memory_store_allowlist(self, allowed: tuple[str, ...]) -> bool:
        """``MemoryStoreAllowlist`` under the strict collector (SCOPE-ALLOW-1..3)."""
        return memory_store_allowlist_matches(self.arguments, allowed)
