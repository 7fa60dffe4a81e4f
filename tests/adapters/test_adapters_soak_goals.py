"""The soak's capacity goal (``bench/soak.py``, docs/performance.md "Soak"): judged on a one-sided
95% interval of the per-round ratios, it fails when the rounds show the guard below 0.9x bare,
and a run too noisy to tell is reported, not failed."""

import math

import pytest
from bench.soak import capacity_ratio, capacity_verdict


def test_the_capacity_ratio_is_the_geometric_mean_of_the_rounds() -> None:
    mean, low, high = capacity_ratio([0.8, 1.25])
    assert mean == pytest.approx(1.0)
    assert low < 1.0 < high
    assert math.log(high) == pytest.approx(-math.log(low))


@pytest.mark.parametrize(
    ("rounds", "verdict"),
    [
        ([0.70, 0.72, 0.68, 0.75, 0.71], "missed"),
        ([0.95, 1.02, 0.98, 1.01, 0.97], "met"),
        ([0.85, 1.10, 0.80, 1.05, 0.95], "not shown"),
        ([0.87, 0.89, 1.05], "not shown"),
    ],
)
def test_the_capacity_goal_is_missed_only_when_the_rounds_show_it(
    rounds: list[float], verdict: str
) -> None:
    assert capacity_verdict(*capacity_ratio(rounds)) == verdict
