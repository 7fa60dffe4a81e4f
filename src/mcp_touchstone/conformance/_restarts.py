"""Where a run ends, shared by its workers: the implementation's deaths, their bounds, and the
first protocol break (CONF-RESTART-1, CONF-JOBS-1).

A worker whose process exits or stalls at a case errors that case, records the death here and
restarts the process for its next case.  The bounds are counted over the *whole run in seq
order*, never per process, so that where a run ends is a function of which cases kill the
implementation, the same at every ``--jobs`` count:

* :data:`RESTARTS_IN_A_ROW` failed restarts in a row -- that many cases right after a death, by
  seq, each killing the implementation too -- end the run at the last of them;
* the death after :data:`MAX_RESTARTS` restarts ends the run at its case.

The cases after the end are errored with :meth:`Ledger.limit`'s message.  A protocol break ends
the run at its case too (status 2).  No worker reads past :attr:`Ledger.seq`, the lowest end
known so far: it only falls, so a worker that stopped short stays past the final end.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass
from typing import Protocol

RESTARTS_IN_A_ROW = 3
"""Failed restarts in a row (each new process dying at its first case, or before answering
``start``) after which the remaining cases are errored (CONF-RESTART-1)."""

MAX_RESTARTS = 100
"""Restarts a run allows in all: the next death ends the run (CONF-RESTART-1)."""


class _Killable(Protocol):
    position: int
    cut: bool

    def kill(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Death:
    """How the implementation died at a case: its exit status (``None``: it stalled and was
    killed) and the end of its stderr."""

    status: int | None
    tail: str


class Ledger:
    """The deaths of a run's processes by seq, and the lowest seq at which the run ends.

    A worker publishes the case it is about to read (``position``) and then checks :attr:`seq`;
    lowering :attr:`seq` kills every other worker already past it, so each worker either sees the
    new end or is killed out of its wait (CONF-JOBS-1)."""

    def __init__(self, cases: int) -> None:
        self.seq = cases
        self.workers: list[_Killable] = []
        self.deaths: dict[int, Death] = {}
        self._lock = threading.Lock()

    def died(self, seq: int, death: Death, worker: _Killable) -> None:
        """The implementation died at ``seq``; the run ends there if that exhausts a bound."""
        with self._lock:
            self.deaths[seq] = death
            limit = self.limit()
        if limit is not None:
            self.end_at(limit[0], worker)

    def end_at(self, seq: int, worker: _Killable) -> None:
        """The run ends at ``seq`` at the latest: stop the workers already past it."""
        with self._lock:
            self.seq = min(self.seq, seq)
            late = [w for w in self.workers if w is not worker and w.position > self.seq]
        for other in late:
            other.cut = True
            other.kill()

    def limit(self) -> tuple[int, str] | None:
        """The first seq at which the deaths recorded exhaust a bound, with the message for the
        cases after it; ``None`` while they do not."""
        seqs = sorted(self.deaths)
        ends: list[tuple[int, str]] = []
        if len(seqs) > MAX_RESTARTS:
            ends.append(
                (
                    seqs[MAX_RESTARTS],
                    f"not run: the implementation died {MAX_RESTARTS + 1} times and the "
                    f"runner restarts it at most {MAX_RESTARTS} times in a run",
                )
            )
        row = 1
        for before, seq in itertools.pairwise(seqs):
            row = row + 1 if seq == before + 1 else 1
            if row == RESTARTS_IN_A_ROW + 1:
                ends.append(
                    (
                        seq,
                        f"not run: the implementation died at {row} cases in a row and the "
                        f"runner gives up after {RESTARTS_IN_A_ROW} failed restarts in a row",
                    )
                )
                break
        return min(ends) if ends else None

    def first_death(self, upto: int) -> Death | None:
        """The death at the lowest seq up to ``upto``, if any."""
        seqs = [s for s in self.deaths if s <= upto]
        return self.deaths[min(seqs)] if seqs else None
