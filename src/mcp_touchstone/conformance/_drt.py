"""``touchstone drt``: differential random testing of an implementation against the reference.

Hypothesis generates inputs for one operation (:mod:`._strategies`); the reference harness (a
subprocess: this package never imports a semantic) computes the expected output and the live
implementation answers over harness protocol v1, both fed the same batch before either is read.
The search stops at the first batch with a difference; a second Hypothesis test then shrinks
that input *against the live implementation* (each shrink step is a new question to it), and
the minimal case is written as a candidate vector with ``origin: drt-shrunk``, ready to paste
into a vector file (CONF-DRT-1, CONF-DRT-2).

The live sessions (the reference and the implementation) are :mod:`._drt_session`'s.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcp_touchstone import serde_json
from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone.conformance._compare import outputs_match
from mcp_touchstone.conformance._drt_session import DrtError, Session, output, text
from mcp_touchstone.conformance._report import first_difference
from mcp_touchstone.conformance._runner import ProtocolError, default_command
from mcp_touchstone.serde_json import JSON

if TYPE_CHECKING:  # Hypothesis is imported on use: `drt` without it is one clear error.
    from mcp_touchstone.conformance._strategies import Drawn

# The rule a candidate vector cites until its author picks the precise one.
_DEFAULT_RULE = {
    "scope": "SCOPE-WIRE-1",
    "mrtr": "MRTR-HARNESS-1",
    "visibility": "VIS-HARN-2",
    "json": "HARNESS-JSON-1",
}
_PREFIX = {"visibility": "vis"}


GROUP = 4
"""Inputs per list element of the search: Hypothesis's cost is mostly per drawn element, not
per byte, so each element is one byte string for GROUP inputs."""
BATCH = 24
"""Most list elements per Hypothesis example (GROUP inputs each; one write to each side)."""
BATCH_MIN = 8
"""Fewest list elements per Hypothesis example: its per-example cost is spread over at least
this many (its lists average about twice their minimum size)."""


def _bytes_of(group: list[Drawn]) -> bytes:
    return b"".join(d.data for d in group)


class _Found(TouchstoneError):  # noqa: N818  # a signal that ends the search, not an error
    """The search met a difference."""


def _as_double_reads(d: Drawn) -> Drawn:
    """``d`` with its numbers as an IEEE-754 double holds them (CONF-DRT-5), same bytes."""
    from mcp_touchstone.conformance import _strategies
    from mcp_touchstone.conformance._js_numbers import as_double_reads

    value = as_double_reads(d.value)
    return _strategies.Drawn(d.data, text(value), value)


def _one_example(choice: bytes) -> Any:
    """An example database holding one entry: a single-choice example (the byte string a
    failing input was decoded from), so the shrink test starts from it.  It is offered as a
    *secondary* entry (a past non-minimal failure): one from the primary corpus counts as
    already shrunk, and Hypothesis would replay it without shrinking."""
    from hypothesis.database import ExampleDatabase, choices_to_bytes

    entry = choices_to_bytes((choice,))

    class OneExample(ExampleDatabase):
        def save(self, key: bytes, value: bytes) -> None:
            """Nothing is kept: the shrink's intermediate examples need no storing."""

        def fetch(self, key: bytes) -> Iterable[bytes]:
            """The one entry, under the secondary key."""
            return [entry] if key.endswith(b".secondary") else []

        def delete(self, key: bytes, value: bytes) -> None:
            """Nothing to delete."""

    return OneExample()


@dataclass
class DrtResult:
    """What a DRT run found."""

    operation: str
    cases: int = 0
    """Distinct cases generated and answered before the first difference (the search); a
    repeated input is answered from the cache and not counted."""
    shrink_cases: int = 0
    """Cases asked while shrinking."""
    seconds: float = 0.0
    shrink_seconds: float = 0.0
    candidate: dict[str, Any] | None = None
    actual: JSON = None
    where: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def cases_per_second(self) -> float:
        """Generated cases answered per second (the search phase, shrinking excluded)."""
        search = self.seconds - self.shrink_seconds
        return self.cases / search if search > 0 else 0.0


def _without_one(value: JSON) -> list[JSON]:
    """Every value that is ``value`` with one array element or object member removed, at any
    depth, outermost first."""
    out: list[JSON] = []
    if isinstance(value, list):
        out += [value[:i] + value[i + 1 :] for i in range(len(value))]
        for i, item in enumerate(value):
            out += [[*value[:i], sub, *value[i + 1 :]] for sub in _without_one(item)]
    elif isinstance(value, dict):
        out += [{k: v for k, v in value.items() if k != key} for key in value]
        for key, item in value.items():
            out += [{**value, key: sub} for sub in _without_one(item)]
    return out


def _reduce(
    value: JSON,
    expected: JSON,
    actual: JSON,
    ask: Callable[[JSON], tuple[JSON, JSON]],
    result: DrtResult,
    *,
    budget: int = 300,
) -> tuple[JSON, JSON, JSON]:
    """After Hypothesis: drop array elements and object members one at a time, against the live
    implementation, while the difference persists (a greedy pass Hypothesis's choice-sequence
    shrinker can miss, e.g. a passing grant before the failing one)."""
    operation = result.operation
    improved = True
    while improved and budget > 0:
        improved = False
        for smaller in _without_one(value):
            budget -= 1
            result.shrink_cases += 1
            want, got = ask(smaller)
            if not outputs_match(operation, want, got):
                value, expected, actual, improved = smaller, want, got, True
                break
            if budget <= 0:
                break
    return value, expected, actual


def candidate_vector(
    operation: str, value: JSON, expected: JSON, seed: int | None
) -> dict[str, Any]:
    """A vector for a shrunk mismatch, schema-valid, with a stable id from its input."""
    semantic = operation.split(".", maxsplit=1)[0]
    digest = hashlib.sha256(serde_json.to_string(value).encode()).hexdigest()[:10]
    return {
        "id": f"{_PREFIX.get(semantic, semantic)}-drt-{digest}",
        "comment": (
            f"drt-shrunk against a live implementation "
            f"({'derandomized' if seed is None else f'seed {seed}'}); say what it pins"
        ),
        "rules": [_DEFAULT_RULE.get(semantic, "HARNESS-OPS-1")],
        "flags": [],
        "origin": "drt-shrunk",
        "input": value,
        "expected": expected,
    }


def outside_rules(operation: str, prefixes: Sequence[str]) -> frozenset[str]:
    """The ids of ``operation``'s shipped vectors citing no rule id that starts with one of
    ``prefixes``: left out of the corpus, they focus a search on the rest (CONF-DRT-4).
    :class:`DrtError` when no vector of ``operation`` cites such a rule."""
    from mcp_touchstone.conformance import default_vectors_dir
    from mcp_touchstone.conformance._vectors import load_file

    root = default_vectors_dir()
    semantic = operation.split(".", maxsplit=1)[0]
    paths = [] if root is None else sorted(root.glob(f"{semantic}/*.json"))
    mine = [v for path in paths for v in load_file(path) if v.operation == operation]
    wanted = tuple(prefixes)
    off = frozenset(v.id for v in mine if not any(r.startswith(wanted) for r in v.rules))
    if len(off) == len(mine):
        raise DrtError(
            f"no shipped {operation} vector cites a rule starting with " + " or ".join(wanted)
        )
    return off


def run_drt(
    command: Sequence[str],
    operation: str,
    *,
    examples: int = 1000,
    seed: int | None = None,
    timeout: float = 30.0,
    leave_out: frozenset[str] = frozenset(),
    double_numbers: bool = False,
) -> DrtResult:
    """Search ``examples`` inputs of ``operation`` for a difference; shrink the first found.
    ``leave_out``: vector ids (the implementation's baseline) kept out of the corpus;
    ``double_numbers``: every input's numbers as a double holds them (CONF-DRT-5)."""
    try:
        from hypothesis import HealthCheck, Phase, given, settings
        from hypothesis import seed as hypothesis_seed
        from hypothesis import strategies as st
        from hypothesis.database import choices_to_bytes  # noqa: F401  # 6.124+, for the shrink
    except ImportError:  # pragma: no cover - hypothesis ships with the drt extra
        raise DrtError(
            "touchstone drt needs Hypothesis 6.124 or later: pip install 'mcp-touchstone[drt]'"
        ) from None
    from mcp_touchstone.conformance import _strategies

    have = _strategies.operations()
    if operation not in have:
        raise DrtError(f"no input strategy for {operation} (have: {', '.join(have)})")
    try:
        strategy = _strategies.drawn(operation, leave_out)
        groups = _strategies.drawn(operation, leave_out, GROUP)
    except ValueError as exc:
        raise DrtError(str(exc)) from None
    if double_numbers:
        strategy = strategy.map(_as_double_reads)
        groups = groups.map(lambda group: [_as_double_reads(d) for d in group])
    # The reference answers over the wire too, as its own subprocess: the conformance tooling
    # never imports a semantic (tests/test_layering.py).  It runs beside the implementation:
    # both get a batch before either is read.
    reference = Session(default_command(), timeout)
    try:
        session = Session(command, timeout)
    except BaseException:
        reference.kill()
        raise
    result = DrtResult(operation)
    for who, s in (("the implementation", session), ("the reference", reference)):
        if s.operations is not None and operation not in s.operations:
            session.close()
            reference.close()
            raise DrtError(f"{who} does not announce {operation}")
    state: dict[str, Any] = {"first_failure": None, "last": None, "bytes": None}
    # Answer lines (and whether they differ) by input text: a shrink step changes one input of
    # a batch, so only that one is asked again.
    answers: dict[str, tuple[tuple[bytes, int, bytes, int], bool]] = {}

    def ask_both(texts: Sequence[str]) -> list[tuple[bytes, int, bytes, int]]:
        """Both sides' answer lines (and the seqs they answer) for inputs given as text: both
        get the whole batch before either is read, so the two run side by side."""
        first_impl = session.send(operation, texts)
        first_ref = reference.send(operation, texts)
        got = session.receive(len(texts))
        want = reference.receive(len(texts))
        return [
            (w, first_ref + i, g, first_impl + i)
            for i, (w, g) in enumerate(zip(want, got, strict=True))
        ]

    def differs(line: tuple[bytes, int, bytes, int]) -> bool:
        want, want_seq, got, got_seq = line
        # The same bytes for the same seq are the same answer: only a differing line is parsed.
        if want == got and want_seq == got_seq:
            return False
        return not outputs_match(operation, output(want, want_seq), output(got, got_seq))

    def ask_fresh(drawn: Sequence[Drawn]) -> None:
        fresh = {d.text: None for d in drawn if d.text not in answers}
        if state["first_failure"] is None:
            result.cases += len(fresh)
        else:
            result.shrink_cases += len(fresh)
        if fresh:
            for text, line in zip(fresh, ask_both(list(fresh)), strict=True):
                answers[text] = (line, differs(line))

    def found(d: Drawn) -> None:
        want, want_seq, got, got_seq = answers[d.text][0]
        state["last"] = (d.value, output(want, want_seq), output(got, got_seq))
        state["bytes"] = d.data

    def search(groups: list[list[Drawn]]) -> None:
        drawn = [d for group in groups for d in group]
        ask_fresh(drawn)
        failing = [d for d in drawn if answers[d.text][1]]
        if failing:
            state["first_failure"] = time.perf_counter()
            found(min(failing, key=lambda d: len(d.text)))
            raise _Found

    def one(d: Drawn) -> None:
        ask_fresh([d])
        if answers[d.text][1]:
            found(d)
            raise AssertionError("differs")

    def ask(value: JSON) -> tuple[JSON, JSON]:
        want, want_seq, got, got_seq = ask_both([text(value)])[0]
        return output(want, want_seq), output(got, got_seq)

    # The search: each Hypothesis example is a batch of BATCH_MIN to BATCH distinct byte
    # strings, GROUP inputs each, sent in one write to each side, so the round trip and
    # Hypothesis's own per-example cost are paid per batch.  It stops at the first batch with a
    # difference.
    batch = max(1, min(BATCH, examples // GROUP))
    low = min(BATCH_MIN, batch)
    mean = GROUP * min(max(2 * low, low + 5), (low + batch) // 2)  # Hypothesis's mean list size
    common: dict[str, Any] = {
        "deadline": None,
        "derandomize": seed is None,
        "suppress_health_check": list(HealthCheck),
        "report_multiple_bugs": False,
    }
    searching = settings(
        max_examples=max(1, -(-examples // mean)),
        database=None,
        phases=[Phase.generate],
        **common,
    )(given(st.lists(groups, min_size=low, max_size=batch, unique_by=_bytes_of))(search))
    if seed is not None:
        searching = hypothesis_seed(seed)(searching)
    started = time.perf_counter()
    try:
        with contextlib.suppress(_Found):
            searching()
        if state["bytes"] is not None:
            # The shrink: a second Hypothesis test over one input, whose database holds only
            # the failing input's choice (one byte string), replayed and shrunk by Hypothesis
            # against the live implementation; each step asks only inputs not seen before.
            # Hypothesis refuses a database on a derandomized test, and its seed decorator drops
            # the database, so the shrink is seeded first (the run's seed, else 0: as
            # reproducible) and given its settings, database included, after.
            shrinking = settings(
                max_examples=1,
                database=_one_example(state["bytes"]),
                phases=[Phase.reuse, Phase.shrink],
                **{**common, "derandomize": False},
            )(hypothesis_seed(0 if seed is None else seed)(given(strategy)(one)))
            with contextlib.suppress(AssertionError):
                shrinking()
        if state["last"] is not None:
            value, expected, actual = state["last"]
            value, expected, actual = _reduce(value, expected, actual, ask, result)
            result.shrink_seconds = time.perf_counter() - state["first_failure"]
            result.candidate = candidate_vector(operation, value, expected, seed)
            result.actual = actual
            result.where = first_difference(operation, expected, actual)[0]
    except ProtocolError as exc:
        session.kill()
        reference.kill()
        raise DrtError(f"the implementation broke the protocol: {exc}") from None
    except BaseException:  # ^C, SIGTERM, a failure: no waiting for a polite stop.
        session.kill()
        reference.kill()
        raise
    finally:
        result.seconds = time.perf_counter() - started
    session.close()
    reference.close()
    result.seconds = time.perf_counter() - started
    return result
