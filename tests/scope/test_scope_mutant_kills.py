"""Tests added to kill surviving mutants of `make mutants` (docs/assurance.md, "Survivors")."""

from __future__ import annotations

from mcp_touchstone.scope import HOSTED_BEHAVIOUR, HostedBehaviour, OutOfScope

HB = HostedBehaviour


def test_hosted_behaviour_values_are_the_public_labels() -> None:
    """The public ``HostedBehaviour`` labels are ``decided``/``ok_true``/``ok_false`` and the
    table gives 11 / 10 / 3 variants (kills scope/_hosted.py:113 "decided")."""
    assert [b.value for b in HostedBehaviour] == ["decided", "ok_true", "ok_false"]
    counts = {b: sum(1 for v in HOSTED_BEHAVIOUR.values() if v is b) for b in HB}
    assert counts == {HB.DECIDED: 11, HB.ENFORCED_LATER: 10, HB.DROPPED: 3}


def test_out_of_scope_is_a_hashable_value() -> None:
    """``OutOfScope`` is a frozen value: hashable and equal to any other (kills
    scope/_matcher.py:65 frozen=True -> False, which would make it unhashable)."""
    assert hash(OutOfScope()) == hash(OutOfScope())
    assert {OutOfScope(), OutOfScope()} == {OutOfScope()}
