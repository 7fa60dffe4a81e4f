"""Hypothesis strategies for the hosted admission loop (``mcp_touchstone.scope.admit``)."""

from __future__ import annotations

from hypothesis import strategies as st

from mcp_touchstone.scope import (
    AdmissionCandidate,
    BudgetOutcome,
    BudgetOutcomeKind,
    DurableAdmission,
    RuntimeOutcome,
)

__all__ = ["OPERATION_ID", "candidate_lists", "candidates", "durables", "explicit_durables"]

OPERATION_ID = "op-1"
"""The operation id every generated hold id is built from."""

_caps = st.sampled_from([None, 0, 5])
_messages = st.sampled_from(["m-a", "m-b", ""])


def candidates(
    indices: st.SearchStrategy[int] | None = None,
) -> st.SearchStrategy[AdmissionCandidate]:
    """One candidate with arbitrary caps and stage outcomes (small alphabets, so collisions and
    every branch are common)."""
    return st.builds(
        AdmissionCandidate,
        index=st.integers(0, 4) if indices is None else indices,
        max_cost_per_invocation=_caps,
        max_total_cost=_caps,
        governed=st.one_of(st.none(), st.none(), _messages),
        guard=st.one_of(st.none(), st.none(), _messages),
        runtime=st.builds(
            RuntimeOutcome,
            allowed=st.booleans() | st.just(True),
            reason=st.one_of(st.none(), _messages),
        ),
        budget=st.builds(
            BudgetOutcome,
            kind=st.sampled_from(list(BudgetOutcomeKind)),
            message=_messages,
            released=st.booleans(),
        ),
    )


def candidate_lists(
    min_size: int = 1, max_size: int = 5
) -> st.SearchStrategy[list[AdmissionCandidate]]:
    """A ranked candidate list."""
    return st.lists(candidates(), min_size=min_size, max_size=max_size)


def _holds() -> st.SearchStrategy[str | None]:
    return st.one_of(
        st.none(),
        st.integers(0, 4).map(lambda i: f"admission-budget:{OPERATION_ID}:{i}"),
        st.just("admission-budget:other-op:0"),
    )


def explicit_durables() -> st.SearchStrategy[DurableAdmission | None]:
    """No durable admission, or one whose payment requirement is given (not derived)."""
    return st.one_of(
        st.none(),
        st.builds(DurableAdmission, recorded_hold_id=_holds(), requires_payment=st.booleans()),
    )


def durables() -> st.SearchStrategy[DurableAdmission | None]:
    """Any durable admission, the derived payment rule included."""
    return st.one_of(
        explicit_durables(),
        st.builds(DurableAdmission, recorded_hold_id=_holds(), requires_payment=st.none()),
    )
