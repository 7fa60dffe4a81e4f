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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["RegexCompileError", "RustRegex", "compile_rust_regex", "engine_version"]


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


def compile_rust_regex(pattern: str) -> RustRegex | RegexCompileError:
    """``regex::Regex::new(pattern)``: the compiled regex, or the crate's compile error.

    Raises :class:`ValueError` only for API misuse: a ``pattern`` with a lone surrogate, which
    no Rust ``String`` (and no JSON text serde_json accepts) can hold.
    """
    if not _is_scalar_text(pattern):
        raise ValueError("regex pattern is not valid Unicode text (lone surrogate)")
    import paula  # The Rust regex crate; first use only (SCOPE-HOSTED-RX-1).

    try:
        engine = paula.Regex(pattern)
    except ValueError as exc:
        return RegexCompileError(pattern, str(exc))
    return RustRegex(pattern, engine)


def engine_version() -> str:
    """The binding's distribution version (it fixes the linked regex crate version)."""
    from importlib.metadata import version

    return "paula " + version("paula")
