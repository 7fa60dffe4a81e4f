"""CrossHair contracts on the MRTR round engine's answer merge (PEP 316 docstrings)."""

from __future__ import annotations

from mcp_touchstone.mrtr._seed import merge_answers
from mcp_touchstone.serde_json import JSON


def _merge_spec(
    settled: dict[str, int], requested: list[str] | None, offered: dict[str, int]
) -> dict[str, int]:
    """MRTR-SEED-2..4 restated: settled keys keep their sealed answer; with a state only
    requested keys are accepted; without one every offered key is."""
    out = dict(settled)
    for key, value in offered.items():
        if key not in settled and (requested is None or key in requested):
            out[key] = value
    return out


def settled_answers_never_overwritten(
    settled: dict[str, int], requested: list[str] | None, offered: dict[str, int]
) -> object:
    """PROOF-MRTR-SETTLED: merging offered answers never overwrites a settled one, drops the
    unsolicited once a state says what was asked, and accepts the rest.

    pre: len(settled) <= 3 and len(offered) <= 3
    pre: requested is None or len(requested) <= 3
    post: __return__ == _merge_spec(settled, requested, offered)
    """
    wanted = None if requested is None else tuple(requested)
    return merge_answers(dict[str, JSON](settled), wanted, dict[str, JSON](offered))
