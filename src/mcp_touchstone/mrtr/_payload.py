"""The sealed plaintext ``StatePayload`` and its serde_json-exact encode/decode pair.

Encoding writes neva's declared field order compactly (MRTR-PAYLOAD-1). Decoding
mirrors ``serde_json::from_slice::<StatePayload>`` (MRTR-PAYLOAD-2..8): the struct
reads from a JSON object *or* a JSON array (serde's sequence form), unknown members
are skipped syntactically, a repeated known member is an error, defaulted fields
accept absence but not ``null``, ``exp`` is a u64, and only whitespace may trail.
Every failure is a :class:`PayloadError`, which the codec reports as ``-32700``.

The byte reader is :mod:`mcp_touchstone.mrtr._payload_reader`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import cast

from mcp_touchstone._serde import (
    U64_MAX,
    expecting_struct,
    fewer_elements,
    invalid_length,
    invalid_type,
)
from mcp_touchstone.mrtr._payload_reader import (
    FIELD_ORDER,
    PayloadError,
    PayloadReader,
    check_field,
)
from mcp_touchstone.mrtr._plain_json import parse_plain
from mcp_touchstone.serde_json import JSON, JsonError, canonical, from_str, frozen_object

__all__ = ["FIELD_ORDER", "PayloadError", "StatePayload", "plain_object"]

_encode_str: Callable[[str], str] = json.encoder.encode_basestring
"""A JSON string as serde_json writes it: raw UTF-8, the same escapes (C-accelerated)."""


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
            fields: dict[str, JSON] = {k: v for k, v in value.items() if k in FIELD_ORDER}
            return _build(fields, seq_len=None)
        if isinstance(value, list):
            if len(value) > len(FIELD_ORDER):
                raise PayloadError(fewer_elements(len(value)))
            return _build(dict(zip(FIELD_ORDER, value, strict=False)), seq_len=len(value))
        raise PayloadError(_invalid_type(value, "struct StatePayload"))

    @classmethod
    def decode(cls, data: bytes) -> StatePayload:
        """Decode plaintext bytes as ``serde_json::from_slice::<StatePayload>`` would."""
        fast = _decode_fast(data)
        return fast if fast is not None else PayloadReader(data).payload(_build)


_QUOTED_NAMES: tuple[bytes, ...] = tuple(b'"' + n.encode() + b'"' for n in FIELD_ORDER)

_SLOT_SETTERS = tuple(
    StatePayload.__dict__[name].__set__
    for name in ("answers", "exp", "req", "requested", "memos", "effects", "principal", "aud")
)
"""The slot setters of :class:`StatePayload`'s fields (a frozen class refuses ``setattr``)."""
_new_payload = object.__new__


def _assemble(  # noqa: PLR0917 - the eight fields positionally: one call on the hot decode path
    answers: Mapping[str, JSON],
    exp: int,
    req: str,
    requested: tuple[str, ...],
    memos: Mapping[str, JSON],
    effects: tuple[str, ...],
    principal: str | None,
    aud: str | None,
) -> StatePayload:
    """The :class:`StatePayload` of fields already in the shape ``__post_init__`` gives them
    (both maps read-only, ``effects`` free of repeats), without running it: the same value,
    field for field (tests/mrtr/test_mrtr_payload.py holds the differential)."""
    payload = _new_payload(StatePayload)
    set_answers, set_exp, set_req, set_requested, set_memos, set_effects, set_p, set_aud = (
        _SLOT_SETTERS
    )
    set_answers(payload, answers)
    set_exp(payload, exp)
    set_req(payload, req)
    set_requested(payload, requested)
    set_memos(payload, memos)
    set_effects(payload, effects)
    set_p(payload, principal)
    set_aud(payload, aud)
    return payload


def _decode_fast(data: bytes) -> StatePayload | None:
    """The common case at C speed, or ``None`` to defer to the exact byte reader.

    A text the strict JSON layer accepts is one serde_json's reader accepts too (the layer
    is at least as strict; see MRTR-PAYLOAD-8), so only two things remain to be decided:
    a repeated top-level field, which the layer's last-wins parse hides, and the field
    types. Repeats are ruled out cheaply when no escape appears and no field name occurs
    twice anywhere in the text (a name that also occurs nested defers, conservatively);
    anything else (and every failure, so that its message carries serde's position) goes
    to the byte reader.
    """
    value = parse_plain(data)  # from_str's value where the text is plain, else None
    if value is None:
        if b"\\" in data:
            return None
        try:
            value = from_str(data)
        except JsonError:
            return None
    if type(value) is dict:
        count = data.count
        for quoted in _QUOTED_NAMES:
            if count(quoted) > 1:
                return None
        return _from_object_fast(value)
    if isinstance(value, list):
        try:
            return StatePayload.from_json(value)
        except PayloadError:
            return None
    return None


def _from_object_fast(obj: dict[str, JSON]) -> StatePayload | None:
    """The payload of an object the typed reader accepts, or ``None`` for any object it
    refuses (its message is then the byte reader's). Same verdicts as :func:`_build`."""
    if len(obj) == len(FIELD_ORDER) and tuple(obj) == FIELD_ORDER:
        # Every field once, in declared order (what a seal writes): one unpacking reads them.
        answers, requested, memos, effects, exp, req, principal, aud = obj.values()
    else:
        get = obj.get
        answers = get("answers")
        requested = get("requested", [])
        memos = get("memos", {})
        effects = get("effects", [])
        exp = get("exp")
        req = get("req")
        principal = get("principal")
        aud = get("aud")
    if (
        type(answers) is not dict
        or type(memos) is not dict
        or type(exp) is not int
        or type(req) is not str
        or type(requested) is not list
        or type(effects) is not list
        or (principal is not None and type(principal) is not str)
        or (aud is not None and type(aud) is not str)
        or not 0 <= exp <= U64_MAX
    ):
        return None
    for item in requested:
        if type(item) is not str:
            return None
    for item in effects:
        if type(item) is not str:
            return None
    # The two maps are fresh from the parser and referenced nowhere else, so they are wrapped
    # read-only as they are (frozen_object would copy them first); effects has set semantics,
    # as __post_init__ gives it.
    names = cast("list[str]", effects)
    return _assemble(
        MappingProxyType(answers),
        exp,
        req,
        tuple(cast("list[str]", requested)),
        MappingProxyType(memos),
        tuple(names if len(names) < 2 else dict.fromkeys(names)),
        principal,
        aud,
    )


def _build(fields: dict[str, JSON], seq_len: int | None) -> StatePayload:
    """Assemble a payload from checked fields; ``seq_len`` is set for serde's array form."""
    for name, value in fields.items():
        check_field(name, value)
    required = (
        ("answers", "exp", "req", "principal") if seq_len is not None else ("answers", "exp", "req")
    )
    for index, name in enumerate(FIELD_ORDER):
        if name in required and name not in fields:
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
    # The types were checked by check_field above; the casts only inform the type checker.
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
