"""The state mechanics of the audit, pure: layouts, mutations per position class, splices,
readability (AUDIT-INT-*, AUDIT-CONF-1)."""

from __future__ import annotations

import base64
import json
import os

from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.audit._state import (
    TAMPER_SUFFIX,
    decode_segment,
    layout,
    mutations,
    readable,
    swaps,
)


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _sdk_token(plaintext_len: int = 40) -> str:
    return "v1." + _b64(os.urandom(4 + 12 + plaintext_len + 16))


def _neva_token() -> str:
    return f"v1.0.{_b64(os.urandom(12))}.{_b64(os.urandom(50))}"


def test_layouts_are_recognised_by_shape() -> None:
    """AUDIT-INT-1: the SDK's one-blob layout, neva's four segments, anything else."""
    assert layout(_sdk_token()) == "sdk"
    assert layout(_neva_token()) == "neva"
    assert layout("abc") == "segments"
    assert layout("v1." + _b64(b"short")) == "segments"


def test_sdk_mutations_cover_every_position_class() -> None:
    """AUDIT-INT-1: version, key id, nonce, ciphertext, tag, truncation, suffix; each differs
    from the state and keeps its unpadded base64url alphabet."""
    token = _sdk_token()
    found = mutations(token)
    positions = {m.position for m in found}
    assert {"version", "key id", "nonce", "ciphertext", "tag", "truncation", "suffix"} <= positions
    assert all(m.state != token for m in found)
    for m in found:
        if m.position in ("key id", "nonce", "ciphertext", "tag"):
            assert "=" not in m.state
            assert decode_segment(m.state.split(".")[1]) is not None
    assert any(m.state == token + TAMPER_SUFFIX for m in found)


def test_neva_mutations_cover_every_position_class() -> None:
    """AUDIT-INT-1: neva's token gets the same classes, per segment."""
    positions = {m.position for m in mutations(_neva_token())}
    assert {"version", "key id", "nonce", "ciphertext", "tag", "truncation"} <= positions


@given(st.binary(min_size=1, max_size=64))
def test_single_byte_mutations_change_exactly_one_bit(raw: bytes) -> None:
    """AUDIT-INT-1: a segment mutation decodes to the original bytes with one bit flipped (a
    lenient decoder cannot undo it)."""
    token = "x." + _b64(raw)
    for m in mutations(token):
        if m.position != "payload" or not m.description.startswith("segment 1"):
            continue
        changed = decode_segment(m.state.split(".")[1])
        assert changed is not None
        assert len(changed) == len(raw)
        diff = sum(bin(a ^ b).count("1") for a, b in zip(changed, raw, strict=True))
        assert diff == 1


def test_swaps_splice_two_states() -> None:
    """AUDIT-INT-2: the SDK layout swaps the nonce and the tag; segment layouts swap each
    differing segment; identical states give nothing."""
    a, b = _sdk_token(), _sdk_token()
    assert [m.description for m in swaps(a, b)] == [
        "nonce taken from a second state",
        "tag taken from a second state",
    ]
    assert swaps(a, a) == []
    assert len(swaps("p1.s1", "p2.s2")) == 2


def test_readable_states() -> None:
    """AUDIT-CONF-1 / AUDIT-INT-3: base64 of JSON, a signed-only token's payload segment and
    plain JSON are readable; sealed bytes are not; a readable state gets a forgery."""
    payload = {"tool": "purge", "exp": 1}
    plain = _b64(json.dumps(payload).encode())
    assert readable(plain) == payload
    assert readable(plain + "." + _b64(os.urandom(32))) == payload
    assert readable(json.dumps(payload)) == payload
    assert readable(_sdk_token()) is None
    forged = [m for m in mutations(plain) if m.position == "forgery"]
    assert forged
    assert readable(forged[0].state) == {**payload, "touchstone_forged": True}
