"""Expected-failure baselines (``--expected-failures FILE``, ``--write-baseline FILE``).

A baseline is how a team adopts the suite before it passes everything: a JSON file

    {"schema": "touchstone-baseline/1",
     "entries": [{"id": "<vector id>", "reason": "..."},
                 {"operation": "<operation>", "reason": "..."}]}

Every entry needs a non-empty reason (CONF-BASE-1).  A listed vector that fails, errors or is
skipped is an *expected failure*: shown, not counted against the implementation.  A listed vector
that now passes is a *stale* entry and fails the run, so baselines only shrink; an operation
entry is stale when none of that operation's run vectors still fails (CONF-BASE-2).  Entries whose
vectors were not run (``-k``, ``--semantic``, ``--shard``, not applicable) are neither.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone.conformance._report import Assessment, first_difference
from mcp_touchstone.conformance._runner import Report, Verdict
from mcp_touchstone.conformance._vectors import Vector

SCHEMA = "touchstone-baseline/1"


class BaselineError(TouchstoneError, ValueError):
    """A baseline file that cannot be used; the message names the file and the entry."""


@dataclass(frozen=True)
class Baseline:
    """Vector ids and operations expected to fail, each with its reason."""

    ids: dict[str, str]
    operations: dict[str, str]


EMPTY = Baseline({}, {})


def load(path: Path) -> Baseline:
    """Read and check a baseline file (CONF-BASE-1)."""
    try:
        doc: Any = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BaselineError(f"cannot read baseline {path}: {exc.strerror}") from None
    except ValueError as exc:
        raise BaselineError(f"baseline {path} is not JSON: {exc}") from None
    except RecursionError:
        raise BaselineError(f"baseline {path}: nested too deeply to be a baseline") from None
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise BaselineError(f"baseline {path}: must be an object with schema {SCHEMA!r}")
    entries = doc.get("entries")
    if not isinstance(entries, list):
        raise BaselineError(f"baseline {path}: entries must be an array")
    ids: dict[str, str] = {}
    operations: dict[str, str] = {}
    for i, entry in enumerate(entries):
        at = f"baseline {path}: entries[{i}]"
        if not isinstance(entry, dict):
            raise BaselineError(f"{at}: must be an object")
        reason = entry.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise BaselineError(f"{at}: needs a non-empty reason")
        keys = {"id", "operation"} & entry.keys()
        if len(keys) != 1 or set(entry) - {"id", "operation", "reason"}:
            raise BaselineError(f"{at}: needs exactly one of id or operation, and a reason")
        key = keys.pop()
        value = entry[key]
        if not isinstance(value, str) or not value:
            raise BaselineError(f"{at}: {key} must be a non-empty string")
        table = ids if key == "id" else operations
        if value in table:
            raise BaselineError(f"{at}: {key} {value} is listed twice")
        table[value] = reason
    return Baseline(ids, operations)


def check_known(baseline: Baseline, path: Path, vectors: Iterable[Vector]) -> None:
    """Every entry names a vector id or an operation of the vector tree ``vectors``: a typo
    would otherwise baseline nothing, silently (CONF-BASE-1)."""
    ids: set[str] = set()
    operations: set[str] = set()
    for v in vectors:
        ids.add(v.id)
        operations.add(v.operation)
    for vid in baseline.ids:
        if vid not in ids:
            raise BaselineError(f"baseline {path}: no vector has the id {vid!r}")
    for op in baseline.operations:
        if op not in operations:
            raise BaselineError(f"baseline {path}: no vector has the operation {op!r}")


def assess(report: Report, baseline: Baseline = EMPTY) -> Assessment:
    """Apply ``baseline`` to ``report`` (CONF-BASE-2)."""
    failing = {Verdict.FAIL, Verdict.ERROR, Verdict.SKIP}
    expected: set[str] = set()
    reasons: dict[str, str] = {}
    stale: list[str] = []
    still_failing_ops: set[str] = set()
    ran_ops: set[str] = set()
    for r in report.results:
        if r.verdict is Verdict.NOT_APPLICABLE:
            continue
        vid, op = r.vector.id, r.vector.operation
        ran_ops.add(op)
        reason = baseline.ids.get(vid, baseline.operations.get(op))
        if reason is None:
            continue
        if r.verdict in failing:
            expected.add(vid)
            reasons[vid] = reason
            if vid not in baseline.ids:
                still_failing_ops.add(op)
        elif vid in baseline.ids:
            stale.append(f"{vid}: listed as failing ({reason}) but passes: remove it")
    stale += [
        f"operation {op}: listed as failing ({reason}) but every vector passes: remove it"
        for op, reason in sorted(baseline.operations.items())
        if op in ran_ops and op not in still_failing_ops
    ]
    return Assessment(report, frozenset(expected), tuple(stale), reasons)


def from_run(report: Report, previous: Baseline = EMPTY) -> dict[str, Any]:
    """A baseline listing every vector that does not pass in ``report``; a reason already given
    in ``previous`` is kept, a new one states the first difference (edit it to say why)."""
    entries: list[dict[str, str]] = []
    for r in report.results:
        if r.verdict not in (Verdict.FAIL, Verdict.ERROR, Verdict.SKIP):
            continue
        reason = previous.ids.get(r.vector.id) or previous.operations.get(r.vector.operation)
        if reason is None:
            if r.verdict is Verdict.FAIL:
                path, _, _ = first_difference(r.vector.operation, r.vector.expected, r.answer)
                reason = f"differs at {path} (recorded by --write-baseline: say why)"
            else:
                reason = f"{r.verdict.value}: {r.message[:120]} (recorded by --write-baseline)"
        entries.append({"id": r.vector.id, "reason": reason})
    return {"schema": SCHEMA, "entries": entries}
