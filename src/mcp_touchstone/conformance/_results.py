"""What a run produces: each vector's verdict and result, the whole report, and the ways a run
can break (shared by the runner, its worker processes, the baselines and the reports)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone.conformance._vectors import Vector
from mcp_touchstone.serde_json import JSON


class Verdict(Enum):
    """The outcome of one vector."""

    PASS = "pass"
    FAIL = "fail"
    SKIP = "skip"
    ERROR = "error"
    NOT_APPLICABLE = "not_applicable"
    """The implementation did not announce the vector's operation in ``start``: not sent, shown,
    not counted against it (CONF-NA-1)."""


@dataclass(frozen=True, slots=True)
class Result:
    """One vector's verdict, with what the implementation answered."""

    vector: Vector
    verdict: Verdict
    answer: JSON = None
    message: str = ""


@dataclass(frozen=True, slots=True)
class Report:
    """A whole run: the implementation's self-description and every vector's result."""

    implementation: dict[str, JSON]
    results: tuple[Result, ...]
    operations: tuple[str, ...] = field(default=())
    exit_status: int | None = None
    """How the implementation ended at its first death (in case order) when it exited before
    answering a case (CONF-RESTART-1)."""
    stderr_tail: str = ""
    """The end of the implementation's stderr (at most :data:`STDERR_TAIL_BYTES`)."""

    def counts(self) -> dict[str, dict[Verdict, int]]:
        """Verdict counts per semantic, semantics in name order."""
        table: dict[str, dict[Verdict, int]] = {}
        for r in self.results:
            row = table.setdefault(r.vector.semantic, dict.fromkeys(Verdict, 0))
            row[r.verdict] += 1
        return dict(sorted(table.items()))

    @property
    def conformant(self) -> bool:
        """True when every vector passed: a skip is never a pass (VEC-REPORT-1)."""
        return all(r.verdict in (Verdict.PASS, Verdict.NOT_APPLICABLE) for r in self.results)


class ProtocolError(TouchstoneError, RuntimeError):
    """The implementation did not start or broke the harness protocol.  When it ended before
    answering ``start``, ``exit_status`` and ``stderr_tail`` say how (CONF-START-1)."""

    def __init__(
        self, message: str, *, exit_status: int | None = None, stderr_tail: str = ""
    ) -> None:
        super().__init__(message)
        self.exit_status = exit_status
        self.stderr_tail = stderr_tail


class NoAnswerError(ProtocolError):
    """The implementation exited or stalled before answering: the case is errored and the
    implementation restarted (CONF-RESTART-1); at ``start``, the run cannot be made."""

    def __init__(
        self,
        message: str,
        *,
        exited: bool = False,
        exit_status: int | None = None,
        stderr_tail: str = "",
    ) -> None:
        super().__init__(message, exit_status=exit_status, stderr_tail=stderr_tail)
        self.exited = exited


class LineTooLongError(TouchstoneError):
    """An answer line longer than the cap: its case is errored and the line skipped."""

    def __init__(self, cap: int) -> None:
        super().__init__(f"the answer line is longer than {cap} bytes (the runner's cap)")
