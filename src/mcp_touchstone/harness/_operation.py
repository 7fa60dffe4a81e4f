"""The shape every harness operation has, and the pinned v1 operation names."""

from __future__ import annotations

from collections.abc import Callable

from mcp_touchstone.serde_json import JSON

HarnessOperation = Callable[[JSON], dict[str, JSON]]
"""A harness operation: raw ``case.input`` in, output object out; total (never raises).

Named apart from scope's grant operation enum (``mcp_touchstone.scope.Operation``)."""

Operation = HarnessOperation
"""The former name of :data:`HarnessOperation`, kept so adapter modules importing it still work."""


class EncodedOutput(dict[str, JSON]):
    """An output object that carries its own JSON text: ``text`` is what
    ``serde_json.to_string`` writes for the object (compact, keys sorted).  The line server
    writes ``text`` instead of encoding the object again; an adapter makes one where it can
    write its small answer directly (``harness/_scope.py``), sets ``text`` once and never
    changes the object afterwards.  Equal to the plain object (``dict`` equality)."""

    __slots__ = ("text",)

    text: str


class TextOperation:
    """A harness operation that can also write its output as JSON text: ``op(raw)`` is the
    output object, ``op.text(raw)`` what ``serde_json.to_string`` writes for it, made without
    the object (the line server writes only the text).  ``text`` raises exactly when the
    object's operation does, with the same exception."""

    __slots__ = ("_object", "text")

    def __init__(self, object_: HarnessOperation, text: Callable[[JSON], str]) -> None:
        self._object = object_
        self.text = text

    def __call__(self, raw: JSON) -> dict[str, JSON]:
        return self._object(raw)


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
