"""Test-suite configuration: Hypothesis profiles.

``dev`` (default) explores randomly; ``ci`` (selected when ``CI`` is set, as ``.ci/run`` runs) is
derandomized so a CI verdict is reproducible. Neither has a deadline: a 2-core CI machine under load
makes per-example timing meaningless. ``HYPOTHESIS_PROFILE`` overrides the choice.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("dev", deadline=None)
settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# ``mutants``: the kill command of `make mutants` (assurance/mutants.py) runs every test subset once
# per mutant; fewer, derandomized examples keep one run affordable (docs/assurance.md).
settings.register_profile(
    "mutants",
    deadline=None,
    derandomize=True,
    database=None,
    max_examples=10,
    suppress_health_check=list(HealthCheck),
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
