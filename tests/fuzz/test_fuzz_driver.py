"""The atheris driver's plan (assurance/fuzz.py): quotas, and what it leaves uninstrumented."""

from __future__ import annotations

import importlib

from assurance import fuzz, fuzz_targets


def test_every_target_has_a_quota_and_the_quotas_make_a_million() -> None:
    """`make fuzz` runs each target to its own quota, 1,000,000 inputs in all."""
    assert set(fuzz.RUNS) == set(fuzz_targets.TARGETS)
    assert sum(fuzz.RUNS.values()) == 1_000_000
    assert min(fuzz.RUNS.values()) > 0


def test_what_is_left_uninstrumented_is_a_real_module_and_no_parser() -> None:
    """UNINSTRUMENTED names importable modules, none of them a decoder a target fuzzes."""
    for name in fuzz.UNINSTRUMENTED:
        importlib.import_module(name)
        assert not name.endswith(("serde_json", "_decode", "_payload_reader", "_requests"))
