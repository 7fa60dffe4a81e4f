"""Seeding a round from a request: neva's ``seed_mrtr_ctx`` (rules MRTR-SEED-*).

The state is verified in full (size cap, codec, expiry, request binding, principal, audience;
``_state.verify``) and only then are the offered answers merged, key by key: a key already
settled in the state's answers is dropped, a key the state did not ask for is dropped as
unsolicited, everything else is accepted, so with no state every offered answer is accepted.
Nothing in the merge is ever an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from mcp_touchstone.mrtr._capabilities import ClientMrtrCapabilities
from mcp_touchstone.mrtr._context import RoundState
from mcp_touchstone.mrtr._meta import (
    MetaReading,
    client_capabilities,
    input_responses,
    read_request_meta,
    request_state,
)
from mcp_touchstone.mrtr._payload import StatePayload, plain_object
from mcp_touchstone.mrtr._state import CheckContext, Keyring, verify
from mcp_touchstone.serde_json import JSON

__all__ = ["Seeded", "merge_answers", "seed_round"]


@dataclass(frozen=True, slots=True)
class Seeded:
    """A seeded round: its state, and the verified inbound token (``None`` when none was sent)."""

    round: RoundState
    token: str | None


def merge_answers(
    settled: dict[str, JSON],
    requested: tuple[str, ...] | None,
    offered: dict[str, JSON] | None,
) -> dict[str, JSON]:
    """The replay log after merging ``offered`` into ``settled`` (MRTR-SEED-2..4).

    ``requested`` is the verified state's ``requested`` (``None`` without a state).
    """
    answers = dict(settled)
    for key, value in (offered or {}).items():
        if key in answers:
            continue  # settled: a later answer never overwrites a sealed one
        if requested is not None and key not in requested:
            continue  # unsolicited once a state says what was asked
        answers[key] = value
    return answers


def seed_round(
    method: str,
    params: JSON,
    keyring: Keyring,
    check: CheckContext,
    capabilities: ClientMrtrCapabilities | None = None,
    *,
    reading: MetaReading | None = None,
) -> Seeded:
    """Seed an MRTR-method round, or raise the verify failure as a ``StateError``.

    ``check`` carries ``method``, ``params``, ``now``, the principal, the audience and the size
    cap. ``capabilities`` defaults to the typed ``_meta`` read (MRTR-SEED-1); ``reading`` is
    ``read_request_meta(params)`` when the caller has it (else the ``_meta`` is read here).
    """
    if reading is None:
        reading = read_request_meta(params)
    token = request_state(params, reading)
    settled: dict[str, JSON] = {}
    memos: dict[str, JSON] = {}
    effects: list[str] = []
    requested: tuple[str, ...] | None = None
    if token is not None:
        payload: StatePayload = verify(token, keyring, check)
        settled = plain_object(payload.answers)
        memos = plain_object(payload.memos)
        effects = list(payload.effects)
        requested = payload.requested
    answers = merge_answers(settled, requested, input_responses(params, reading))
    return Seeded(
        round=RoundState(
            answers=answers,
            capabilities=capabilities
            if capabilities is not None
            else client_capabilities(params, reading),
            memos=memos,
            effects=effects,
            requested=requested,
        ),
        token=token,
    )
