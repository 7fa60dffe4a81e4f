# ruff: noqa: PLR0917 - CrossHair builds every symbolic input as a positional argument.
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


def _present(pairs: tuple[tuple[str, int | None], ...]) -> dict[str, int]:
    return {k: v for k, v in pairs if v is not None}


def settled_answers_never_overwritten(
    settled_a: int | None,
    settled_b: int | None,
    offered_a: int | None,
    offered_b: int | None,
    has_state: bool,
    asked_a: bool,
    asked_b: bool,
) -> bool:
    """PROOF-MRTR-SETTLED: merging offered answers never overwrites a settled one, drops the
    unsolicited once a state says what was asked, and accepts the rest (two keys, every
    presence pattern, any integer answers).

    post: __return__
    """
    settled = _present((("a", settled_a), ("b", settled_b)))
    offered = _present((("a", offered_a), ("b", offered_b)))
    asked = [k for k, f in (("a", asked_a), ("b", asked_b)) if f]
    requested = tuple(asked) if has_state else None
    merged = merge_answers(dict[str, JSON](settled), requested, dict[str, JSON](offered))
    want = _merge_spec(settled, None if requested is None else list(requested), offered)
    return merged == want and all(merged[k] == v for k, v in settled.items())
