"""Hypothesis strategies for harness-operation inputs, for ``touchstone drt`` (CONF-DRT-1).

One strategy per operation, generating the ``case.input`` JSON exactly as a vector would carry
it.  Every operation's strategy is built the same way, as a corpus-seeded mutator:

* a **base**, one of the shipped vectors' inputs for the operation (the corpus is weighted to the
  quirks, fail-closed paths and malformed input the spec documents), ordered smallest first;
* up to :data:`MAX_EDITS` **edits**, each replacing, deleting, inserting or tweaking one node of
  the input (any depth, chosen by position), with values from the operation's **quirk pool**: the
  hand-written quirks (path prefixes without a segment boundary, globs and domain parsing,
  serde_json's float layout ``1.0``, ``-0.0``, ``1e16``, ``1e-6``, integers beyond 2^53, Rust's
  whitespace set, hidden tags and declared scopes, key order) followed by every small subtree
  found in the corpus (so a grant, a constraint, a token or a script step moves between inputs);
  half the replacements draw from the hand-written quirks alone (:mod:`._strategies_quirks`).

Hypothesis draws each input as **one byte string** that this module decodes (``st.binary``
mapped through a decoder, as a structure-aware fuzzer reads its input): one choice per input
instead of the fifty-odd a tree of nested ``st.builds``/``st.recursive`` strategies makes,
which is what made drawing the bottleneck (6 ms per scope input).  The decoding is shrink-
friendly by construction: a missing byte reads as ``0``, index ``0`` is the simplest base, the
first quirk and the first edit kind, so Hypothesis shortening the bytes removes edits and
lowering them moves toward smaller bases and plainer values; the empty string is the smallest
corpus input unchanged.  Every float in a quirk pool reads back as itself through serde_json
(VEC-CASE-1), so a shrunk case is a valid vector.

An operation with no shipped vectors has no strategy and is refused by ``drt`` with a clear
message.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import overload

from hypothesis import strategies as st

from mcp_touchstone import serde_json
from mcp_touchstone.conformance._json_paths import Path, delete, get, paths, update
from mcp_touchstone.conformance._strategies_quirks import QUIRKS, SCALARS
from mcp_touchstone.conformance._vectors import default_vectors_dir, load_file
from mcp_touchstone.serde_json import JSON

MAX_EDITS = 3
"""Most edits applied to one base."""

_EDIT_BYTES = 3  # kind and a value's high bits, position, value's low byte
MAX_BYTES = 2 + 1 + MAX_EDITS * _EDIT_BYTES
"""The length of the byte string one input is decoded from: base (one byte when the corpus has
at most 256 inputs, else two), edit count, edits.  Hypothesis draws a byte string byte by byte,
so every byte is paid for on every input."""

# Edits per input by the count byte (modulo): mostly one or two; 0 only for 1 in 8, and a lower
# byte never means more edits, so shrinking the byte never adds one.
_EDIT_COUNTS = (0, 1, 1, 1, 2, 2, 3, 3)

_MAX_HARVEST = 160  # Longest serialized subtree taken from the corpus into a quirk pool.

# ------------------------------------------------------------------ edits

_STRING_TWEAKS: list[Callable[[str], str]] = [
    lambda s: s + "/",
    lambda s: s + "b",
    lambda s: s[:-1],
    lambda s: "/" + s,
    lambda s: s.upper(),
    lambda s: " " + s + "\u00a0",
    lambda s: s.replace("/", "\\"),
    lambda s: s + "/../x",
    lambda s: s + ".",
    lambda s: "*." + s,
    lambda s: s * 2,
    lambda s: s + "\u0000",
]


def _tweak_number(value: int | float, b: int) -> JSON:
    """A nearby number that serde_json reads back as itself (an i64/u64, or a finite float),
    else ``value`` unchanged."""
    new: int | float
    if isinstance(value, int):
        new = [value + 1, value - 1, -value, value + 2**53, value * 2**32, float(value)][b % 6]
    else:
        new = [-value, value + 0.5, value * 1e16, value / 1e7][b % 4]
    if isinstance(new, int):
        return new if -(2**63) <= new < 2**64 else value
    return new if math.isfinite(new) and _reads_back(new) else value


def _reads_back(x: float) -> bool:
    """Whether serde_json reads ``x``'s text back as ``x``: its float reader is not correctly
    rounded (JSON-NUM-3), so ``1e-13 / 1e7`` written and read back is another float."""
    back = serde_json.from_str(serde_json.to_string(x))
    return isinstance(back, float) and back == x and math.copysign(1, back) == math.copysign(1, x)


def _tweak(value: JSON, *, b: int) -> JSON:
    """A small change to ``value`` that keeps its kind where it can (key order included)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return _tweak_number(value, b)
    if isinstance(value, str):
        return _STRING_TWEAKS[b % len(_STRING_TWEAKS)](value)
    if isinstance(value, list):
        return value[::-1] if b % 2 == 0 else value + value[:1]
    if isinstance(value, dict):
        # Reversed key order: digests, bindings and serde's field order must not care (or must).
        return dict(reversed(value.items())) if b % 2 == 0 else {}
    return ""


# ------------------------------------------------------------------ the decoder


class _Bytes:
    """Reads a drawn byte string as choices; past its end every byte reads as ``0``."""

    __slots__ = ("_data", "_i")

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._i = 0

    def byte(self) -> int:
        i = self._i
        self._i = i + 1
        return self._data[i] if i < len(self._data) else 0

    def index(self, n: int) -> int:
        """An index below ``n`` (one byte, two when ``n`` is over 256)."""
        if n <= 256:
            return self.byte() % n
        return ((self.byte() << 8) | self.byte()) % n


class Drawn:
    """One drawn input: the byte string Hypothesis chose, the input's JSON text (keys in
    order, written once) and the input; shown by its text, cut short."""

    __slots__ = ("data", "text", "value")

    def __init__(self, data: bytes, text: str, value: JSON) -> None:
        self.data = data
        self.text = text
        self.value = value

    def __repr__(self) -> str:
        return self.text if len(self.text) <= 200 else self.text[:197] + "..."


class _Pool:
    """An operation's corpus (bases), quirk values and object keys."""

    __slots__ = ("_base_paths", "bases", "hand", "keys", "quirks", "size")

    def __init__(self, bases: list[JSON], quirks: list[JSON], hand: int, keys: list[str]) -> None:
        self.bases = bases
        self.quirks = quirks
        self.hand = hand
        """How many of ``quirks`` (the first) are the hand-written ones."""
        self.keys = keys
        self.size = MAX_BYTES - (len(bases) <= 256)
        """The length of the byte strings decoded."""
        self._base_paths: dict[int, list[Path]] = {}  # A base's node paths, found once.

    def drawn(self, data: bytes) -> Drawn:
        """The input ``data`` stands for, with its JSON text."""
        value = self.decode(data)
        return Drawn(data, serde_json.to_string_ordered(value), value)

    def decode(self, data: bytes) -> JSON:
        """The input ``data`` stands for: a base, then edits while bytes remain."""
        src = _Bytes(data)
        base = src.index(len(self.bases))
        value = self.bases[base]
        for edit in range(_EDIT_COUNTS[src.byte() % len(_EDIT_COUNTS)]):
            head = src.byte()
            kind, high = head % 4, head // 4
            if edit == 0:
                nodes = self._base_paths.get(base) or self._base_paths.setdefault(
                    base, paths(value)
                )
            else:
                nodes = paths(value)
            path = nodes[src.byte() % len(nodes)]
            low = src.byte()
            if kind == 0:  # replace with a quirk: half the time a hand-written one
                if high < 32:
                    quirk = self.quirks[low % self.hand]
                else:
                    quirk = self.quirks[(((high - 32) << 8) | low) % len(self.quirks)]
                value = update(value, path, functools.partial(_replace, quirk))
            elif kind == 1:  # tweak in place
                value = update(value, path, functools.partial(_tweak, b=low))
            elif kind == 2:  # delete (the root stays)
                value = delete(value, path)
            else:  # insert a quirk into an array or under a key of an object
                quirk = self.quirks[low % len(self.quirks)]
                key = self.keys[high % len(self.keys)]
                value = update(value, path, functools.partial(_insert, key=key, item=quirk))
        return value


def _replace(new: JSON, _old: JSON) -> JSON:
    return new


def _insert(container: JSON, *, key: str, item: JSON) -> JSON:
    if isinstance(container, list):
        return [item, *container]
    if isinstance(container, dict):
        return {**container, key: item}
    return [container, item]


def _harvest(inputs: Sequence[JSON]) -> tuple[list[JSON], list[str]]:
    """Every distinct small subtree and every object key of the corpus, smallest first."""
    seen: dict[str, JSON] = {}
    keys: dict[str, None] = {}
    for value in inputs:
        for path in paths(value):
            node = get(value, path)
            if isinstance(node, dict):
                keys.update(dict.fromkeys(node))
            text = serde_json.to_string_ordered(node)
            if len(text) <= _MAX_HARVEST:
                seen.setdefault(text, node)
    ordered = sorted(seen.items(), key=lambda kv: (len(kv[0]), kv[0]))
    return [node for _, node in ordered], sorted(keys)


@functools.cache
def pool(operation: str, leave_out: frozenset[str] = frozenset()) -> _Pool | None:
    """The shipped corpus of ``operation`` with its quirks, or ``None`` when it has no vectors;
    the vectors whose ids are in ``leave_out`` (an implementation's baseline: differences it
    already knows) are neither bases nor harvested."""
    root = default_vectors_dir()
    if root is None:
        return None
    semantic = operation.split(".", maxsplit=1)[0]
    needle = f'"operation": "{operation}"'.encode()
    inputs: list[JSON] = []
    for path in sorted(root.glob(f"{semantic}/*.json")):
        if needle in path.read_bytes()[:4096]:
            inputs.extend(
                v.input
                for v in load_file(path)
                if v.operation == operation and v.id not in leave_out
            )
    if not inputs:
        return None
    distinct = {serde_json.to_string_ordered(v): v for v in inputs}
    bases = [distinct[k] for k in sorted(distinct, key=lambda k: (len(k), k))]
    harvested, keys = _harvest(bases)
    hand = QUIRKS.get(semantic, [])
    quirks = [*SCALARS, *hand]
    known = {serde_json.to_string_ordered(q) for q in quirks}
    written = len(quirks)
    quirks += [h for h in harvested if serde_json.to_string_ordered(h) not in known]
    return _Pool(bases, quirks, written, keys or ["x"])


def inputs(operation: str, leave_out: frozenset[str] = frozenset()) -> st.SearchStrategy[JSON]:
    """``operation``'s input strategy: one drawn byte string decoded into a mutated corpus
    input (ValueError when the operation has no shipped vectors to seed it)."""
    found = pool(operation, leave_out)
    if found is None:
        raise ValueError(f"no shipped vectors seed a strategy for {operation}")
    return st.binary(min_size=found.size, max_size=found.size).map(found.decode)


@overload
def drawn(operation: str, leave_out: frozenset[str] = ...) -> st.SearchStrategy[Drawn]: ...
@overload
def drawn(
    operation: str, leave_out: frozenset[str], group: int
) -> st.SearchStrategy[list[Drawn]]: ...
def drawn(
    operation: str, leave_out: frozenset[str] = frozenset(), group: int = 0
) -> st.SearchStrategy[Drawn] | st.SearchStrategy[list[Drawn]]:
    """:func:`inputs` as :class:`Drawn` (the text written once, the bytes kept so a difference
    can be replayed and shrunk); with ``group``, lists of that many drawn as one byte string
    (Hypothesis's cost is per drawn element far more than per byte)."""
    found = pool(operation, leave_out)
    if found is None:
        raise ValueError(f"no shipped vectors seed a strategy for {operation}")
    size = found.size
    if not group:
        return st.binary(min_size=size, max_size=size).map(found.drawn)

    def split(data: bytes) -> list[Drawn]:
        return [found.drawn(data[i : i + size]) for i in range(0, group * size, size)]

    return st.binary(min_size=group * size, max_size=group * size).map(split)


def operations() -> list[str]:
    """The operations that have a strategy: those with shipped vectors, in name order."""
    root = default_vectors_dir()
    if root is None:
        return []
    found: set[str] = set()
    for path in root.glob("*/*.json"):
        head = path.read_bytes()[:4096]
        start = head.find(b'"operation": "')
        if start >= 0:
            end = head.find(b'"', start + 14)
            found.add(head[start + 14 : end].decode())
    return sorted(found)
