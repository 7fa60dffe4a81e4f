"""The CrossHair gate is not silently broken: it refutes canaries and fails crashes."""

from __future__ import annotations

import pytest
from proofs.properties import Budget

from proofs import gate


@pytest.mark.proof
def test_gate_refutes_a_false_contract() -> None:
    """A contract false of the real code is reported refuted, with a concrete replay."""
    out = gate.check("proofs.contracts.canary.canary_star_needs_a_character", "clean", Budget())
    assert out.verdict == "refuted"
    assert not out.ok


@pytest.mark.proof
def test_gate_fails_a_missing_target() -> None:
    """A target that does not exist is a crash, never a pass (CrossHair's rc alone would be 1)."""
    out = gate.check("proofs.contracts.canary.no_such_function", "clean", Budget(iters=5, cond_s=2))
    assert out.verdict in ("crash", "nothing-checked")
    assert not out.ok


def test_replay_tells_a_real_counterexample() -> None:
    """The replayer re-runs a reported call concretely and finds the broken postcondition."""
    real, why = gate.replay(
        "proofs.contracts.canary.canary_star_needs_a_character",
        "error: false when calling canary_star_needs_a_character('') (which returns True)",
    )
    assert real, why


def test_replay_tells_a_false_positive() -> None:
    """A reported call whose postconditions all hold concretely is not a failure of the code."""
    real, why = gate.replay(
        "proofs.contracts.canary.canary_star_needs_a_character",
        "error: false when calling canary_star_needs_a_character('a')",
    )
    assert not real
    assert "false positive" in why
