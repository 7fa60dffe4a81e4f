"""The sealed plaintext ``StatePayload`` and its serde_json-exact encode/decode pair.

Encoding writes neva's declared field order compactly (MRTR-PAYLOAD-1). Decoding
mirrors ``serde_json::from_slice::<StatePayload>`` (MRTR-PAYLOAD-2..8): the struct
reads from a JSON object *or* a JSON array (serde's sequence form), unknown members
are skipped syntactically, a repeated known member is an error, defaulted fields
accept absence but not ``null``, ``exp`` is a u64, and only whitespace may trail.
Every failure is a :class:`PayloadError`, which the codec reports as ``-32700``.

The reader is :mod:`mcp_touchstone.mrtr._payload_reader`; :meth:`StatePayload.from_json` reads
a payload given as a JSON value under the same field rules.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import cast

from mcp_touchstone._serde import (
    expecting_struct,
    fewer_elements,
    invalid_length,
    invalid_type,
)
from mcp_touchstone.mrtr._payload_fields import FIELD_ORDER, PayloadError, check_field
from mcp_touchstone.mrtr._payload_reader import PayloadReader
from mcp_touchstone.serde_json import JSON, canonical, frozen_object

__all__ = ["FIELD_ORDER", "PayloadError", "StatePayload", "plain_object"]

_encode_str: Callable[[str], str] = json.encoder.encode_basestring
"""A JSON string as serde_json writes it: raw UTF-8, the same escapes (C-accelerated)."""


_FIELD_NAMES = frozenset(FIELD_ORDER)


def _invalid_type(value: JSON, expected: str) -> str:
    return invalid_type(value, expected)


def plain_object(value: Mapping[str, JSON]) -> dict[str, JSON]:
    """A fresh ``dict`` of a payload map's members: a read-only view over a ``dict`` is copied
    with the dict's own ``copy`` (``dict(view)`` goes through the mapping protocol, several
    times slower); any other mapping through ``dict``."""
    if type(value) is MappingProxyType:
        plain = value.copy()
        if type(plain) is dict:
            return plain
    return dict(value)


@dataclass(frozen=True, slots=True)
class StatePayload:
    """What a ``requestState`` seals: the replay log and its bindings.

    ``effects`` has set semantics (duplicates removed, first occurrence kept); its
    order only matters for the bytes a seal produces, as in neva where it is a hash
    set. ``principal`` and ``aud`` are ``None`` when unbound.
    """

    answers: Mapping[str, JSON]
    exp: int
    req: str
    requested: tuple[str, ...] = ()
    memos: Mapping[str, JSON] = field(default_factory=dict)
    effects: tuple[str, ...] = ()
    principal: str | None = None
    aud: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "answers", frozen_object(self.answers))
        object.__setattr__(self, "memos", frozen_object(self.memos))
        deduped = tuple(dict.fromkeys(self.effects))
        if deduped != self.effects:
            object.__setattr__(self, "effects", deduped)

    def to_json(self) -> dict[str, JSON]:
        """The payload as a JSON object in declared field order, every field written."""
        return {
            "answers": plain_object(self.answers),
            "requested": list(self.requested),
            "memos": plain_object(self.memos),
            "effects": list(self.effects),
            "exp": self.exp,
            "req": self.req,
            "principal": self.principal,
            "aud": self.aud,
        }

    def encode(self) -> bytes:
        """Compact UTF-8 JSON in declared field order: what ``serde_json::to_vec`` writes.

        ``answers`` and ``memos`` hold ``serde_json::Value``s, whose objects are B-tree maps
        in neva's build (no ``preserve_order``): their keys are written sorted at every
        depth. The two maps themselves are hash maps in neva, written in an order of their
        own; here they are written sorted too, so a seal depends on the payload's value
        alone (MRTR-PAYLOAD-1, MRTR-PAYLOAD-5).
        """
        text = "".join(
            (
                '{"answers":',
                canonical(plain_object(self.answers)) if self.answers else "{}",
                ',"requested":[',
                ",".join(map(_encode_str, self.requested)),
                '],"memos":',
                canonical(plain_object(self.memos)) if self.memos else "{}",
                ',"effects":[',
                ",".join(map(_encode_str, self.effects)),
                '],"exp":',
                str(self.exp),
                ',"req":',
                _encode_str(self.req),
                ',"principal":',
                "null" if self.principal is None else _encode_str(self.principal),
                ',"aud":',
                "null" if self.aud is None else _encode_str(self.aud),
                "}",
            )
        )
        return text.encode("utf-8")

    @classmethod
    def from_json(cls, value: JSON) -> StatePayload:
        """Read a payload from a JSON value under the same typed rules as :meth:`decode`."""
        if isinstance(value, dict):
            fields: dict[str, JSON] = {k: v for k, v in value.items() if k in _FIELD_NAMES}
            seq_len = None
        elif isinstance(value, list):
            if len(value) > len(FIELD_ORDER):
                raise PayloadError(fewer_elements(len(value)))
            fields = dict(zip(FIELD_ORDER, value, strict=False))
            seq_len = len(value)
        else:
            raise PayloadError(_invalid_type(value, "struct StatePayload"))
        for name, field_value in fields.items():
            check_field(name, field_value)
        return _build(fields, seq_len)

    @classmethod
    def decode(cls, data: bytes) -> StatePayload:
        """Decode plaintext bytes as ``serde_json::from_slice::<StatePayload>`` would, every
        refusal in serde's wording at its position (MRTR-PAYLOAD-2..8)."""
        return PayloadReader(data).payload(_build)


_REQUIRED = frozenset({"answers", "exp", "req"})
"""The fields an object must name: the rest have ``#[serde(default)]`` or are an ``Option``,
which serde reads as ``None`` when a map leaves it out."""
_REQUIRED_IN_SEQUENCE = _REQUIRED | {"principal"}
"""The fields serde's sequence form must reach: an ``Option`` without ``#[serde(default)]``
(``principal``) is required there too."""


def _build(fields: dict[str, JSON], seq_len: int | None) -> StatePayload:
    """Assemble a payload from fields whose types :func:`check_field` has checked, or refuse
    it for a missing field; ``seq_len`` is set for serde's array form."""
    required = _REQUIRED if seq_len is None else _REQUIRED_IN_SEQUENCE
    missing = required - fields.keys()
    if missing:
        index = min(map(FIELD_ORDER.index, missing))  # the first in declared order
        name = FIELD_ORDER[index]
        if seq_len is not None:
            raise PayloadError(
                invalid_length(index, expecting_struct("StatePayload", len(FIELD_ORDER)))
            )
        raise PayloadError(f"missing field `{name}`")
    answers = fields["answers"]
    memos = fields.get("memos", {})
    exp = fields["exp"]
    req = fields["req"]
    principal = fields.get("principal")
    aud = fields.get("aud")
    # The caller checked the types with check_field; the casts only inform the type checker.
    return StatePayload(
        answers=cast("dict[str, JSON]", answers),
        exp=cast("int", exp),
        req=cast("str", req),
        requested=tuple(cast("list[str]", fields.get("requested", ()))),
        memos=cast("dict[str, JSON]", memos),
        effects=tuple(cast("list[str]", fields.get("effects", ()))),
        principal=cast("str | None", principal),
        aud=cast("str | None", aud),
    )
