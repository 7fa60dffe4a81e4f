"""How Chio's portable constraints read the call arguments (rules ``SCOPE-ARG-*``,
``SCOPE-PATH-*``, ``SCOPE-DOM-*``, ``SCOPE-LEN-*``, ``SCOPE-CUSTOM-*``, ``SCOPE-ALLOW-*``).

Upstream re-walks the arguments for every constraint it evaluates.  Here one
:class:`ArgumentFacts` per resolution walks them at most once per kind of fact, lazily, each
walk collecting only its fact (the string values, the path candidates, the string-valued
entries for ``Custom``, the strict audience / memory-store observations), and renders the
compact JSON at most once for ``MaxArgsSize``; most resolutions ask one kind.  Path and
domain candidates are derived once and deduplicated, and the PathPrefix / DomainExact /
DomainGlob verdicts are kept per prefix, expected domain or pattern, so a constraint repeated
across grants is decided once.
Every answer equals upstream's per-constraint walk: all of them are order-independent
``all``/``any`` questions over the same sets, and a verdict depends only on the constraint's
value and the arguments.

Length (~540 lines): the argument walks and the per-constraint verdicts they feed (paths,
domains, allowlists) share their caches; the Rust string semantics it used live in
:mod:`mcp_touchstone._rust`.
"""

from __future__ import annotations

from mcp_touchstone import serde_json
from mcp_touchstone._rust import ascii_lower, rust_trim
from mcp_touchstone.scope._record import draft, record
from mcp_touchstone.serde_json import JSON

TYPE_CHECKING = False  # typing's constant, without importing typing at run time (start-up)
if TYPE_CHECKING:
    from typing import Final

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

_DOMAIN_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-.")

PATH_KEYS: Final = frozenset({"file", "filepath", "dir", "directory", "root", "cwd"})
"""Exact (ASCII-lowercased) keys that make a leaf a path candidate, besides ``*path*``."""
AUDIENCE_KEYS: Final = frozenset(
    {"recipient", "recipients", "audience", "to", "channel", "channels"}
)
"""Keys (ASCII-lowercased) whose values the audience allowlist reads."""
MEMORY_STORE_KEYS: Final = frozenset({"store", "memory_store", "collection", "namespace"})
"""Keys (ASCII-lowercased) whose values the memory-store allowlist reads."""


# --------------------------------------------------------------------------- paths


def is_path_key(key: str) -> bool:
    """A key whose string values are path candidates (SCOPE-PATH-1)."""
    # ascii_lower, inlined: str.lower is ASCII lowercasing on ASCII text.
    lowered = key.lower() if key.isascii() else ascii_lower(key)
    return "path" in lowered or lowered in PATH_KEYS


def looks_like_path(value: str) -> bool:
    """A value with ``/`` or ``\\`` and no ``://`` is a path candidate (SCOPE-PATH-1)."""
    return "://" not in value and ("/" in value or "\\" in value)


@record
class NormalizedPath:
    """A lexically normalized path: absolute flag and segments."""

    is_absolute: bool
    segments: tuple[str, ...]


_Lexical = tuple[bool, tuple[str, ...]]
"""A normalized path as a plain pair ``(is_absolute, segments)``: the hot path's form."""


def _lexical(path: str) -> _Lexical | None:
    if "." not in path and "\\" not in path:
        # No "." or ".." segment and one separator: only the empty segments drop.
        return path.startswith("/"), tuple(filter(None, path.split("/")))
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
    return is_absolute, tuple(segments)


def normalize_path(path: str) -> NormalizedPath | None:
    """Lexical normalization: ``/`` and ``\\`` separate, ``.`` and empty segments drop,
    ``..`` pops; popping past the start yields ``None`` (SCOPE-PATH-2, SCOPE-PATH-3)."""
    lexical = _lexical(path)
    return None if lexical is None else NormalizedPath(*lexical)


def _under(candidate: _Lexical | None, prefix: _Lexical | None) -> bool:
    if candidate is None or prefix is None or candidate[0] != prefix[0]:
        return False
    segments, wanted = candidate[1], prefix[1]
    n = len(wanted)
    return n <= len(segments) and segments[:n] == wanted


def path_has_prefix(candidate: str, prefix: str) -> bool:
    """Segment-wise prefix test after normalizing both sides (SCOPE-PATH-4)."""
    return _under(_lexical(candidate), _lexical(prefix))


# --------------------------------------------------------------------------- domains


def normalize_domain(value: str) -> str:
    """Trim whitespace, then dots, then ASCII-lowercase (SCOPE-DOM-3)."""
    trimmed = rust_trim(value).strip(".")
    # ascii_lower, inlined: str.lower is ASCII lowercasing on ASCII text.
    return trimmed.lower() if trimmed.isascii() else ascii_lower(trimmed)


def parse_domain(value: str) -> str | None:
    """The domain a string leaf names, or ``None`` if it names none (SCOPE-DOM-1, -2)."""
    if "." not in value and (len(value) < 9 or "localhost" not in value.lower()):
        # Fast reject: a result without a dot must be "localhost", whose letters
        # str.lower() folds at least as widely as the ASCII folding below.
        return None
    if value.startswith("/") and "://" not in value:
        # Fast reject: nothing to trim at the front, no scheme, so the authority (what
        # precedes the first "/") is empty.
        return None
    trimmed = rust_trim(value)
    if not trimmed:
        return None
    _, sep, rest = trimmed.partition("://")
    authority = rest if sep else trimmed
    for stop in "/?#":
        # Cut at each stop in turn: what is left ends before the earliest of the three.
        if stop in authority:
            authority = authority.partition(stop)[0]
    if "@" in authority:
        authority = authority.rpartition("@")[2]
    host = authority.partition(":")[0].strip(".")
    normalized = normalize_domain(host)
    if normalized == "localhost":
        return normalized
    if normalized and "." in normalized and _DOMAIN_CHARS.issuperset(normalized):
        return normalized
    return None


def wildcard_matches(pattern: str, candidate: str) -> bool:
    """Chio's ``*`` glob over the whole string: ``*`` matches any run, dots included, and every
    other character, ``?`` included, is literal (SCOPE-DOM-5).

    Upstream runs a greedy matcher with one backtrack point.  This gives the same answers
    by splitting the pattern at its stars: the first piece must start the candidate, the last
    must end it, and the pieces between are found left to right, each at its earliest place,
    without overlapping the ends (the earliest place never loses, since any later match of a
    piece leaves less room for the rest).
    """
    pieces = pattern.split("*")
    if len(pieces) == 1:
        return pattern == candidate
    head, tail = pieces[0], pieces[-1]
    end = len(candidate) - len(tail)
    if end < len(head) or not candidate.startswith(head) or not candidate.endswith(tail):
        return False
    at = len(head)
    for piece in pieces[1:-1]:
        found = candidate.find(piece, at, end)
        if found < 0:
            return False
        at = found + len(piece)
    return True


# --------------------------------------------------------------------------- the walk


@record
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


_ObservationDraft: Final = draft(AllowlistObservation)


class _Observer:
    __slots__ = ("frozen", "invalid", "saw", "values")

    def __init__(self) -> None:
        self.saw = False
        self.invalid = False
        self.values: list[str] = []
        self.frozen: AllowlistObservation | None = None

    def observe(self, value: JSON) -> None:
        self.saw = True
        before = len(self.values)
        if not _collect_strict(value, self.values) or len(self.values) == before:
            self.invalid = True

    def freeze(self) -> AllowlistObservation:
        # AllowlistObservation(saw, invalid, values) by slot stores (see _record.draft).
        made = _ObservationDraft()
        made.saw_relevant_key = self.saw
        made.invalid = self.invalid
        made.values = frozenset(self.values)
        made.__class__ = AllowlistObservation
        observation: AllowlistObservation = made
        return observation


_NOTHING_OBSERVED: Final = AllowlistObservation(False, False, frozenset())
"""The observation of a walk that met no relevant key."""


def _observed(observer: _Observer | None) -> AllowlistObservation:
    """The frozen observation of one allowlist's walk (frozen once, on first use)."""
    if observer is None:
        return _NOTHING_OBSERVED
    if observer.frozen is None:
        observer.frozen = observer.freeze()
    return observer.frozen


def _collect_strict(value: JSON, out: list[str]) -> bool:
    """Strings are collected; arrays recurse; anything else poisons (SCOPE-ALLOW-2)."""
    if isinstance(value, str):
        out.append(value)
        return True
    if isinstance(value, list):
        return all(_collect_strict(item, out) for item in value)
    return False


def _string_values(value: JSON, out: list[str]) -> None:
    """Every JSON string of ``value`` in document order: the string leaves without their keys,
    all that the domain and length facts read (SCOPE-ARG-1)."""
    if isinstance(value, str):
        out.append(value)
        return
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for item in items:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, (dict, list)):  # a number, boolean or null holds no leaf
            _string_values(item, out)


def _path_values(value: JSON, path_key: bool, seen: dict[str, None]) -> None:
    """The path candidates among the strings of ``value``, in document order, into ``seen``:
    a string whose nearest enclosing key is a path key, or one that looks like a path
    (SCOPE-PATH-1); ``path_key`` is that test for the key ``value`` sits under."""
    if isinstance(value, str):
        if path_key or looks_like_path(value):
            seen[value] = None
    elif isinstance(value, dict):
        for entry_key, item in value.items():
            if isinstance(item, str):
                # looks_like_path, inlined, then the key: both are pure, so the order is free.
                if ("://" not in item and ("/" in item or "\\" in item)) or is_path_key(entry_key):
                    seen[item] = None
            elif isinstance(item, (dict, list)):
                _path_values(item, is_path_key(entry_key), seen)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, str):
                if path_key or ("://" not in item and ("/" in item or "\\" in item)):
                    seen[item] = None
            elif isinstance(item, (dict, list)):
                _path_values(item, path_key, seen)


def _string_entries(value: JSON, out: set[tuple[str, str]]) -> None:
    """Every object entry of ``value``, at any depth, whose value is a string, as
    ``(key, value)``: what ``Custom`` reads (SCOPE-CUSTOM-1)."""
    if isinstance(value, dict):
        for entry_key, item in value.items():
            if isinstance(item, str):
                out.add((entry_key, item))
            elif isinstance(item, (dict, list)):
                _string_entries(item, out)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, (dict, list)):
                _string_entries(item, out)


def _leaves(value: JSON, key: str | None, out: list[tuple[str | None, str]]) -> None:
    """Every JSON string with its nearest enclosing key (arrays inherit it), in document order."""
    if isinstance(value, str):
        out.append((key, value))
    elif isinstance(value, dict):
        for entry_key, item in value.items():
            _leaves(item, entry_key, out)
    elif isinstance(value, list):
        for item in value:
            _leaves(item, key, out)


class _Walk:
    """The strict allowlist walk: one :class:`_Observer` per allowlist, made at its first
    relevant key; below a relevant key that allowlist's walk stops (SCOPE-ALLOW-1)."""

    __slots__ = ("audience", "memory")

    def __init__(self) -> None:
        self.audience: _Observer | None = None  # created at the first relevant key
        self.memory: _Observer | None = None

    def visit(self, value: JSON, audience_live: bool, memory_live: bool) -> None:
        if isinstance(value, dict):
            for entry_key, item in value.items():
                # ascii_lower, inlined: str.lower is ASCII lowercasing on ASCII text.
                lowered = entry_key.lower() if entry_key.isascii() else ascii_lower(entry_key)
                audience_here, memory_here = audience_live, memory_live
                if audience_live and lowered in AUDIENCE_KEYS:
                    if self.audience is None:
                        self.audience = _Observer()
                    self.audience.observe(item)
                    audience_here = False
                if memory_live and lowered in MEMORY_STORE_KEYS:
                    if self.memory is None:
                        self.memory = _Observer()
                    self.memory.observe(item)
                    memory_here = False
                if isinstance(item, (dict, list)):  # only objects hold keys
                    self.visit(item, audience_here, memory_here)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, (dict, list)):
                    self.visit(item, audience_live, memory_live)


class ArgumentFacts:
    """The facts the 8 decided constraints read from one ``arguments`` value.

    Each fact is computed on first use and kept for the rest of the resolution, so a scope
    with many constrained grants walks the arguments at most once per kind of fact
    (SCOPE-ARG-3): the string values (domains, lengths), the path candidates, the string
    entries (``Custom``) and the allowlist observations each have their own walk, which
    collects only that fact.  Pure: the value is never mutated and the same arguments always
    give the same facts.
    """

    __slots__ = (
        "_allowlists",
        "_arguments",
        "_domain_verdicts",
        "_domains",
        "_entries",
        "_longest",
        "_path_verdicts",
        "_paths",
        "_size",
        "_values",
    )

    def __init__(self, arguments: JSON) -> None:
        self._arguments = arguments
        self._values: list[str] | None = None
        self._paths: tuple[_Lexical | None, ...] | None = None
        self._entries: set[tuple[str, str]] | None = None
        self._allowlists: _Walk | None = None
        self._domains: tuple[str, ...] | None = None
        self._size: int | None = None
        self._longest: int | None = None
        self._path_verdicts: dict[str, bool] | None = None
        self._domain_verdicts: dict[tuple[bool, str], bool] | None = None

    @property
    def string_values(self) -> list[str]:
        """Every JSON string of the arguments, in document order (the string leaves without
        their keys: what the domain, length and hosted regex facts read)."""
        if self._values is None:
            values: list[str] = []
            _string_values(self._arguments, values)
            self._values = values
        return self._values

    def _walked(self) -> _Walk:
        if self._allowlists is None:
            walk = _Walk()
            walk.visit(self._arguments, True, True)
            self._allowlists = walk
        return self._allowlists

    @property
    def string_leaves(self) -> list[tuple[str | None, str]]:
        """Every JSON string with its nearest enclosing key (SCOPE-ARG-1)."""
        leaves: list[tuple[str | None, str]] = []
        _leaves(self._arguments, None, leaves)
        return leaves

    @property
    def path_candidates(self) -> tuple[_Lexical | None, ...]:
        """The distinct path candidates as ``(is_absolute, segments)``; ``None`` marks one
        that climbed above its root.  Duplicates are dropped: PathPrefix asks whether *all*
        of them sit under it."""
        if self._paths is None:
            seen: dict[str, None] = {}
            _path_values(self._arguments, False, seen)
            self._paths = tuple(map(_lexical, seen))
        return self._paths

    @property
    def domain_candidates(self) -> tuple[str, ...]:
        """The distinct domains ``parse_domain`` accepts among the string leaves (SCOPE-DOM-1).
        Duplicates are dropped: both domain constraints ask whether *all* of them fit."""
        if self._domains is None:
            domains: dict[str, None] = {}
            for value in self.string_values:
                if "." not in value and (len(value) < 9 or "localhost" not in value.lower()):
                    continue  # parse_domain's first reject (None), without the call
                parsed = parse_domain(value)
                if parsed is not None:
                    domains[parsed] = None
            self._domains = tuple(domains)
        return self._domains

    @property
    def args_size(self) -> int:
        """Byte length of serde_json's compact rendering of the arguments (SCOPE-LEN-3)."""
        if self._size is None:
            text = serde_json.to_string(self._arguments)
            self._size = len(text) if text.isascii() else len(text.encode("utf-8"))
        return self._size

    def path_prefix(self, prefix: str) -> bool:
        """``PathPrefix``: at least one candidate, all under ``prefix`` (SCOPE-PATH-5).
        The verdict is kept per prefix for the rest of the resolution."""
        verdicts = self._path_verdicts
        if verdicts is None:
            verdicts = self._path_verdicts = {}
        elif prefix in verdicts:
            return verdicts[prefix]
        candidates = self.path_candidates
        normalized = _lexical(prefix)
        if len(candidates) == 1:  # all() over one candidate, without the generator
            verdict = _under(candidates[0], normalized)
        else:
            verdict = bool(candidates) and all(
                _under(candidate, normalized) for candidate in candidates
            )
        verdicts[prefix] = verdict
        return verdict

    def domain_exact(self, expected: str) -> bool:
        """``DomainExact``: at least one candidate, all equal (SCOPE-DOM-3)."""
        verdicts = self._domain_verdicts
        if verdicts is None:
            verdicts = self._domain_verdicts = {}
        elif (True, expected) in verdicts:
            return verdicts[(True, expected)]
        domains = self.domain_candidates
        target = normalize_domain(expected)
        if len(domains) == 1:  # all() over one candidate, without the generator
            verdict = domains[0] == target
        else:
            verdict = bool(domains) and all(domain == target for domain in domains)
        verdicts[(True, expected)] = verdict
        return verdict

    def domain_glob(self, pattern: str) -> bool:
        """``DomainGlob``: at least one candidate, all match the glob (SCOPE-DOM-4)."""
        verdicts = self._domain_verdicts
        if verdicts is None:
            verdicts = self._domain_verdicts = {}
        elif (False, pattern) in verdicts:
            return verdicts[(False, pattern)]
        domains = self.domain_candidates
        lowered = ascii_lower(pattern)
        if len(domains) == 1:  # all() over one candidate, without the generator
            verdict = wildcard_matches(lowered, domains[0])
        else:
            verdict = bool(domains) and all(wildcard_matches(lowered, d) for d in domains)
        verdicts[(False, pattern)] = verdict
        return verdict

    @property
    def longest_leaf(self) -> int:
        """The largest UTF-8 byte length among the string leaves (0 with none)."""
        if self._longest is None:
            values = self.string_values
            if "".join(values).isascii():
                self._longest = max(map(len, values), default=0)
            else:
                self._longest = max((len(v.encode("utf-8")) for v in values), default=0)
        return self._longest

    def max_length(self, limit: int) -> bool:
        """``MaxLength``: every leaf at most ``limit`` UTF-8 bytes; vacuous (SCOPE-LEN-1)."""
        return self.longest_leaf <= limit

    def max_args_size(self, limit: int) -> bool:
        """``MaxArgsSize``: compact rendering at most ``limit`` bytes (SCOPE-LEN-3)."""
        return self.args_size <= limit

    def custom(self, key: str, expected: str) -> bool:
        """``Custom``: some object entry ``key`` holds the string ``expected`` (SCOPE-CUSTOM-1)."""
        if self._entries is None:
            entries: set[tuple[str, str]] = set()
            _string_entries(self._arguments, entries)
            self._entries = entries
        return (key, expected) in self._entries

    def audience_allowlist(self, allowed: tuple[str, ...]) -> bool:
        """``AudienceAllowlist`` under the strict collector (SCOPE-ALLOW-1..3)."""
        return _observed(self._walked().audience).admits(allowed)

    def memory_store_allowlist(self, allowed: tuple[str, ...]) -> bool:
        """``MemoryStoreAllowlist`` under the strict collector (SCOPE-ALLOW-1..3)."""
        return _observed(self._walked().memory).admits(allowed)
