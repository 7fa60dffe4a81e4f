"""The shape every harness operation has, and the pinned v1 operation names."""

from __future__ import annotations

from collections.abc import Callable

from mcp_touchstone.serde_json import JSON

HarnessOperation = Callable[[JSON], dict[str, JSON]]
"""A harness operation: raw ``case.input`` in, output object out; total (never raises).

Named apart from scope's grant operation enum (``mcp_touchstone.scope.Operation``)."""

V1_OPERATIONS: tuple[str, ...] = (
    "scope.resolve_matching_grants",
    "scope.resolve_capability_grants",
    "mrtr.request_binding",
    "mrtr.input_responses_digest",
    "mrtr.state.seal",
    "mrtr.state.open",
    "mrtr.capabilities",
    "mrtr.allows",
    "visibility.granted_scopes",
    "visibility.is_visible",
    "visibility.match_uri_template",
    "visibility.dispatch",
)
"""The operations pinned by ``shared/protocol/harness-v1.md`` (HARNESS-OPS-1)."""

PINNED_SECOND_WAVE: tuple[str, ...] = (
    "mrtr.round",
    "scope.hosted_match",
    "scope.admit",
    "scope.bind_event",
)
"""Operations pinned after v1: ``mrtr.round`` by its own contract
(``shared/protocol/mrtr-round.md``), ``scope.hosted_match``, ``scope.admit`` and
``scope.bind_event`` by the second-wave sections of ``harness-v1.md`` (HARNESS-OPS-3,
HARNESS-OPS-4; ``spec/scope.md`` SCOPE-ADMIT-*, SCOPE-AGUI-*)."""
