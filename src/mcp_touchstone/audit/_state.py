"""Looking at a ``requestState`` from outside: its layout, its mutations, whether it is readable
(``spec/audit.md``, AUDIT-INT-*, AUDIT-CONF-*).  Pure: no I/O, no clock, no randomness.

The layout is inferred, never known: the audit holds no key.  Two sealed layouts are recognised
by shape -- the official SDK's ``v1.`` + one base64url blob of ``kid(4) || nonce(12) ||
ciphertext || tag(16)``, and neva's four segments ``version.kid.nonce.ciphertext||tag`` -- and
anything else is cut into its ``.``-separated segments, each mutated as bytes when it decodes as
base64 and as text otherwise.  Every mutation keeps the segment's own alphabet and padding, so a
lenient decoder cannot undo it.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import dataclass
from typing import Any

__all__ = ["Mutation", "decode_segment", "layout", "mutations", "readable", "swaps"]

_VERSION = re.compile(r"^v[0-9]+$")
_B64 = re.compile(r"^[A-Za-z0-9_\-+/]+={0,2}$")
_SDK_KID, _NONCE, _TAG = 4, 12, 16
TAMPER_SUFFIX = "-TAMPERED"


@dataclass(frozen=True)
class Mutation:
    """A changed state and the position class it attacks."""

    position: str
    """``version``, ``key id``, ``nonce``, ``ciphertext``, ``tag``, ``payload``, ``truncation``,
    ``suffix``, ``swap`` or ``forgery``."""
    description: str
    state: str


@dataclass(frozen=True)
class _Segment:
    text: str
    urlsafe: bool
    padded: bool


def decode_segment(text: str) -> bytes | None:
    """The bytes of a base64 / base64url segment (padded or not), ``None`` when it is not one."""
    if not text or not _B64.match(text) or len(text.rstrip("=")) % 4 == 1:
        return None
    core = text.rstrip("=")
    padded = core + "=" * (-len(core) % 4)
    try:
        if "-" in core or "_" in core:
            return base64.urlsafe_b64decode(padded)
        return base64.b64decode(padded, validate=True)
    except (binascii.Error, ValueError):
        return None


def _encode(raw: bytes, like: str) -> str:
    urlsafe = "-" in like or "_" in like or ("+" not in like and "/" not in like)
    text = (base64.urlsafe_b64encode(raw) if urlsafe else base64.b64encode(raw)).decode()
    return text if like.endswith("=") else text.rstrip("=")


def layout(state: str) -> str:
    """``sdk`` (``v1.`` + kid||nonce||ciphertext||tag), ``neva`` (four segments) or
    ``segments`` (anything else)."""
    parts = state.split(".")
    if len(parts) == 2 and _VERSION.match(parts[0]):
        raw = decode_segment(parts[1])
        if raw is not None and len(raw) > _SDK_KID + _NONCE + _TAG:
            return "sdk"
    if len(parts) == 4 and _VERSION.match(parts[0]):
        nonce = decode_segment(parts[2])
        blob = decode_segment(parts[3])
        if nonce is not None and len(nonce) == _NONCE and blob is not None and len(blob) > _TAG:
            return "neva"
    return "segments"


def _flip(raw: bytes, index: int) -> bytes:
    data = bytearray(raw)
    data[index] ^= 0x01
    return bytes(data)


def _flip_text(text: str) -> str:
    if not text:
        return "x"
    last = text[-1]
    return text[:-1] + ("B" if last == "A" else "A")


def _sdk(state: str) -> list[Mutation]:
    version, blob = state.split(".")
    raw = decode_segment(blob)
    assert raw is not None
    body = len(raw) - _TAG
    at = {
        "key id": 0,
        "nonce": _SDK_KID,
        "ciphertext": _SDK_KID + _NONCE,
        "tag": len(raw) - 1,
    }
    out = [Mutation("version", f"version {version} -> v9", "v9." + blob)]
    for position, index in at.items():
        out.append(
            Mutation(
                position,
                f"one bit of byte {index} ({position})",
                f"{version}.{_encode(_flip(raw, index), blob)}",
            )
        )
    middle = _SDK_KID + _NONCE + (body - _SDK_KID - _NONCE) // 2
    out.append(
        Mutation(
            "ciphertext",
            f"one bit of byte {middle} (ciphertext, middle)",
            f"{version}.{_encode(_flip(raw, middle), blob)}",
        )
    )
    out.append(Mutation("truncation", "last byte removed", f"{version}.{_encode(raw[:-1], blob)}"))
    out.append(Mutation("truncation", "tag removed", f"{version}.{_encode(raw[:body], blob)}"))
    return out


def _neva(state: str) -> list[Mutation]:
    version, kid, nonce_text, blob = state.split(".")
    nonce = decode_segment(nonce_text)
    raw = decode_segment(blob)
    assert nonce is not None
    assert raw is not None
    return [
        Mutation("version", f"version {version} -> v9", f"v9.{kid}.{nonce_text}.{blob}"),
        Mutation(
            "key id", f"key id {kid!r} changed", f"{version}.{_flip_text(kid)}.{nonce_text}.{blob}"
        ),
        Mutation(
            "nonce",
            "one bit of nonce byte 0",
            f"{version}.{kid}.{_encode(_flip(nonce, 0), nonce_text)}.{blob}",
        ),
        Mutation(
            "ciphertext",
            "one bit of ciphertext byte 0",
            f"{version}.{kid}.{nonce_text}.{_encode(_flip(raw, 0), blob)}",
        ),
        Mutation(
            "tag",
            "one bit of the last tag byte",
            f"{version}.{kid}.{nonce_text}.{_encode(_flip(raw, len(raw) - 1), blob)}",
        ),
        Mutation(
            "truncation",
            "last byte removed",
            f"{version}.{kid}.{nonce_text}.{_encode(raw[:-1], blob)}",
        ),
        Mutation("truncation", "last segment removed", f"{version}.{kid}.{nonce_text}"),
    ]


def _segments(state: str) -> list[Mutation]:
    parts = state.split(".")
    out: list[Mutation] = []
    for i, part in enumerate(parts):
        raw = decode_segment(part)
        position = "version" if i == 0 and _VERSION.match(part) else "payload"
        if position == "version":
            changed = "v9" if part != "v9" else "v8"
            out.append(
                Mutation(position, f"segment {i} {part} -> {changed}", _join(parts, i, changed))
            )
            continue
        if raw is None or not raw:
            out.append(
                Mutation(
                    position,
                    f"segment {i}: last character changed",
                    _join(parts, i, _flip_text(part)),
                )
            )
            continue
        out.append(
            Mutation(
                position,
                f"segment {i}: one bit of byte 0",
                _join(parts, i, _encode(_flip(raw, 0), part)),
            )
        )
        if len(raw) > 1:
            out.append(
                Mutation(
                    position,
                    f"segment {i}: one bit of its last byte",
                    _join(parts, i, _encode(_flip(raw, len(raw) - 1), part)),
                )
            )
    last = parts[-1]
    raw = decode_segment(last)
    if raw:
        out.append(
            Mutation(
                "truncation",
                "last byte removed",
                _join(parts, len(parts) - 1, _encode(raw[:-1], last)),
            )
        )
    else:
        out.append(Mutation("truncation", "last character removed", state[:-1]))
    if len(parts) > 1:
        out.append(Mutation("truncation", "last segment removed", ".".join(parts[:-1])))
    return out


def _join(parts: list[str], index: int, value: str) -> str:
    return ".".join(value if i == index else p for i, p in enumerate(parts))


def mutations(state: str) -> list[Mutation]:
    """Every single-byte, segment and truncation mutation of ``state`` for its layout, then the
    official suite's ``-TAMPERED`` suffix and the empty state (AUDIT-INT-1, AUDIT-INT-3)."""
    kind = layout(state)
    out = _sdk(state) if kind == "sdk" else _neva(state) if kind == "neva" else _segments(state)
    out.append(Mutation("truncation", "empty state", ""))
    out.append(Mutation("suffix", f"{TAMPER_SUFFIX!r} appended", state + TAMPER_SUFFIX))
    forged = forgery(state)
    if forged is not None:
        out.append(forged)
    return [m for m in out if m.state != state]


def swaps(a: str, b: str) -> list[Mutation]:
    """Two states of the same request spliced into one (AUDIT-INT-2): ``a``'s ciphertext with
    ``b``'s nonce, and ``a``'s ciphertext with ``b``'s tag."""
    if a == b or layout(a) != layout(b):
        return []
    kind = layout(a)
    if kind == "sdk":
        va, blob_a = a.split(".")
        raw_a, raw_b = decode_segment(blob_a), decode_segment(b.split(".")[1])
        assert raw_a is not None
        assert raw_b is not None
        n0, n1 = _SDK_KID, _SDK_KID + _NONCE
        nonce_swap = raw_a[:n0] + raw_b[n0:n1] + raw_a[n1:]
        tag_swap = raw_a[:-_TAG] + raw_b[-_TAG:]
        return [
            Mutation(
                "swap", "nonce taken from a second state", f"{va}.{_encode(nonce_swap, blob_a)}"
            ),
            Mutation("swap", "tag taken from a second state", f"{va}.{_encode(tag_swap, blob_a)}"),
        ]
    pa, pb = a.split("."), b.split(".")
    if len(pa) != len(pb) or len(pa) < 2:
        return []
    out = []
    for i in range(len(pa)):
        if pa[i] != pb[i]:
            out.append(
                Mutation("swap", f"segment {i} taken from a second state", _join(pa, i, pb[i]))
            )
    return out[:3]


def readable(state: str) -> Any | None:
    """The JSON a client can read out of ``state`` without a key (the whole state or one of
    its segments as base64 of JSON, or plain JSON), ``None`` when nothing decodes."""
    candidates = [state, *state.split(".")]
    for text in candidates:
        for raw in (text.encode(), decode_segment(text)):
            if not raw:
                continue
            try:
                value = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                continue
            if isinstance(value, (dict, list)):
                return value
    return None


def forgery(state: str) -> Mutation | None:
    """For a readable state: the same state with one readable value changed and re-encoded in
    place, signature untouched (AUDIT-INT-3)."""
    parts = state.split(".")
    for i, part in enumerate(parts):
        raw = decode_segment(part)
        if not raw:
            continue
        try:
            value = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            continue
        if not isinstance(value, dict) or not value:
            continue
        changed = dict(value)
        changed["touchstone_forged"] = True
        text = json.dumps(changed, separators=(",", ":")).encode()
        return Mutation(
            "forgery",
            f"segment {i}: readable JSON re-encoded with a member added",
            _join(parts, i, _encode(text, part)),
        )
    return None
