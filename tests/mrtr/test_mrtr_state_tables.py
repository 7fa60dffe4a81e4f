"""The sealed token's byte layout, its size caps at their edges and every check of open and
verify in neva's order, two faults at once (``types/mrtr/state.rs`` ``StateCodec``,
``app/mrtr.rs`` ``seed_mrtr_ctx``); every expectation is written by hand, and tokens are built
here with the AEAD directly, not with the code under test."""

from __future__ import annotations

import base64
import hashlib

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from mcp_touchstone.mrtr import CheckContext, Keyring, StateError, StatePayload
from mcp_touchstone.mrtr._state import (
    ACCEPTED_VERSIONS,
    DEFAULT_KID,
    DEFAULT_MAX_STATE_BYTES,
    DEFAULT_TTL_SECS,
    KEY_LABEL,
    NONCE_LEN,
    VERSION,
    VERSION_AUD,
    open_plaintext,
    open_state,
    seal,
    seal_plaintext,
    verify,
)

SECRET = b"table-secret"
RING = Keyring("k1", {"k1": SECRET})
NONCE = bytes(range(12))
NOW = 1_000
BINDING_PARAMS = {"name": "t"}
# request_binding("tools/call", {"name": "t"}): "tools/call:" + b64url(sha256('{"name":"t"}')).
REQ = "tools/call:" + base64.urlsafe_b64encode(hashlib.sha256(b'{"name":"t"}').digest()).rstrip(
    b"="
).decode("ascii")


def b64(data: bytes) -> str:
    """Unpadded base64url, written with the standard library."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def hand_seal(
    plaintext: bytes,
    *,
    version: str = "v1",
    kid: str = "k1",
    secret: bytes = SECRET,
    aad: str | None = None,
    nonce: bytes = NONCE,
) -> str:
    """A token sealed with the AEAD directly, under ``SHA-256(label || secret)``."""
    key = hashlib.sha256(b"neva:mrtr:requestState:v1" + secret).digest()
    header = f"{version}.{kid}"
    sealed = ChaCha20Poly1305(key).encrypt(
        nonce, plaintext, (header if aad is None else aad).encode()
    )
    return f"{header}.{b64(nonce)}.{b64(sealed)}"


def plain(exp: int = NOW, principal: str | None = None, aud: str | None = None) -> bytes:
    """A payload's plaintext, as neva's serde writes it."""
    p = "null" if principal is None else f'"{principal}"'
    a = "null" if aud is None else f'"{aud}"'
    return (
        f'{{"answers":{{}},"requested":[],"memos":{{}},"effects":[],"exp":{exp},'
        f'"req":"{REQ}","principal":{p},"aud":{a}}}'
    ).encode()


def fault(token: str, ring: Keyring = RING) -> tuple[int, str]:
    """The (code, message) open_state raises for ``token``."""
    with pytest.raises(StateError) as exc:
        open_state(token, ring)
    return exc.value.code, exc.value.message


def test_token_constants_are_nevas() -> None:
    """MRTR-TOKEN-2, MRTR-KEY-1: versions, default kid, key label, nonce length, cap and ttl."""
    assert (VERSION, VERSION_AUD, ACCEPTED_VERSIONS) == ("v1", "v2", ("v1", "v2"))
    assert DEFAULT_KID == "0"
    assert KEY_LABEL == b"neva:mrtr:requestState:v1"
    assert NONCE_LEN == 12
    assert DEFAULT_MAX_STATE_BYTES == 8192
    assert DEFAULT_TTL_SECS == 300


def test_check_context_defaults() -> None:
    """MRTR-OPEN-1: an unconfigured check has no principal, no audience and the 8 KiB cap."""
    ctx = CheckContext(method="m", params=None, now=0)
    assert (ctx.principal, ctx.audience, ctx.max_state_bytes) == (None, None, 8192)


def test_single_keyring_seals_under_kid_zero() -> None:
    """MRTR-KEY-2: with_request_state_secret is the ring {"0": secret}, active "0"."""
    ring = Keyring.single(SECRET)
    assert ring.active_kid == "0"
    assert dict(ring.keys) == {"0": SECRET}
    p = StatePayload(answers={}, exp=NOW, req=REQ)
    assert seal(p, ring, NONCE) == hand_seal(plain(), kid="0")


@pytest.mark.parametrize(("aud", "version"), [(None, "v1"), ("svc", "v2")])
def test_seal_is_the_hand_built_token(aud: str | None, version: str) -> None:
    """MRTR-TOKEN-1, MRTR-TOKEN-2: `{v}.{kid}.{b64 nonce}.{b64 ct||tag}`, header as AAD."""
    p = StatePayload(answers={}, exp=NOW, req=REQ, aud=aud)
    token = seal(p, RING, NONCE)
    assert token == hand_seal(plain(aud=aud), version=version)
    parts = token.split(".")
    assert parts[:3] == [version, "k1", b64(NONCE)]
    assert len(parts[2]) == 16
    # The last segment is the ciphertext (as long as the plaintext) and a 16-byte tag.
    assert len(base64.urlsafe_b64decode(parts[3] + "==")) == len(plain(aud=aud)) + 16


def test_seal_plaintext_carries_any_plaintext() -> None:
    """MRTR-TOKEN-1: the token layer seals arbitrary bytes under v1 or v2 as asked."""
    assert seal_plaintext(b"xyz", RING, NONCE, audience_bound=False) == hand_seal(b"xyz")
    assert seal_plaintext(b"xyz", RING, NONCE, audience_bound=True) == hand_seal(
        b"xyz", version="v2"
    )
    assert open_plaintext(hand_seal(b"xyz", version="v2"), RING) == b"xyz"


@pytest.mark.parametrize("length", [0, 11, 13, 16])
def test_nonce_length_message(length: int) -> None:
    """MRTR-SEAL-3: a nonce of any length but 12 is a ValueError naming both lengths."""
    with pytest.raises(ValueError, match=rf"^nonce must be 12 bytes, got {length}$"):
        seal_plaintext(b"x", RING, bytes(length), audience_bound=False)


def test_outbound_cap_at_its_edge() -> None:
    """MRTR-SEAL-4: a token exactly at the cap seals; one byte under the length is refused."""
    p = StatePayload(answers={}, exp=NOW, req=REQ)
    size = len(hand_seal(plain()))
    assert seal(p, RING, NONCE, max_state_bytes=size) == hand_seal(plain())
    assert seal(p, RING, NONCE, max_state_bytes=None) == hand_seal(plain())
    with pytest.raises(StateError) as exc:
        seal(p, RING, NONCE, max_state_bytes=size - 1)
    assert (exc.value.code, exc.value.message) == (-32603, "requestState too large")


def test_mrtr_seal_4_seal_takes_its_inputs_by_position_or_name_and_the_cap_by_name() -> None:
    """MRTR-SEAL-4 through the public signature ``seal(payload, keyring, nonce, *,
    max_state_bytes=None)``: the inputs may be named, the cap only by name."""
    p = StatePayload(answers={}, exp=NOW, req=REQ)
    assert seal(payload=p, keyring=RING, nonce=NONCE) == hand_seal(plain())
    with pytest.raises(TypeError):
        seal(p, RING, NONCE, 10)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("ring", "message"),
    [
        (Keyring("gone", {"k1": SECRET}), "active requestState kid has no key in the keyring"),
        (Keyring("", {"": SECRET}), "requestState kid must be non-empty and must not contain '.'"),
        (
            Keyring("a.b", {"a.b": SECRET}),
            "requestState kid must be non-empty and must not contain '.'",
        ),
        # Both faults: the missing key is found first (`active()` before the kid check).
        (Keyring("", {"k1": SECRET}), "active requestState kid has no key in the keyring"),
    ],
)
def test_seal_key_faults_in_order(ring: Keyring, message: str) -> None:
    """MRTR-SEAL-1, MRTR-SEAL-2: each key fault is -32603 with neva's whole message."""
    for bound in (False, True):
        with pytest.raises(StateError) as exc:
            seal_plaintext(b"x", ring, NONCE, audience_bound=bound)
        assert (exc.value.code, exc.value.message) == (-32603, message)


def test_keyring_repr_names_kids_only() -> None:
    """MRTR-KEY-3: the repr shows kids, never a secret, and says so when the ring is empty."""
    assert repr(RING) == "Keyring(active_kid='k1', keys=<secrets for 'k1'>)"
    assert repr(Keyring("x")) == "Keyring(active_kid='x', keys=<secrets for no kid>)"
    two = Keyring("a", {"a": b"s", "b": b"t"})
    assert repr(two) == "Keyring(active_kid='a', keys=<secrets for 'a', 'b'>)"


GOOD = hand_seal(plain())
_, _, GOOD_NONCE, GOOD_SEALED = GOOD.split(".")


@pytest.mark.parametrize(
    ("token", "message"),
    [
        # segment count
        ("", "malformed requestState"),
        ("v1.k1.nonce", "malformed requestState"),
        (GOOD + ".", "malformed requestState"),
        (f"v9.zz.!.!.{GOOD_SEALED}", "malformed requestState"),
        # version before kid
        (f"v3.k1.{GOOD_NONCE}.{GOOD_SEALED}", "unsupported requestState version"),
        ("V1.zz.!.!", "unsupported requestState version"),
        (f"v1 .k1.{GOOD_NONCE}.{GOOD_SEALED}", "unsupported requestState version"),
        # kid before any base64
        ("v1.zz.!.!", "unknown requestState key id"),
        (f"v1.K1.{GOOD_NONCE}.{GOOD_SEALED}", "unknown requestState key id"),
        # the nonce's base64 before the payload's
        ("v1.k1.!.!", "bad requestState nonce"),
        (f"v1.k1.{GOOD_NONCE[:-1]}=.!", "bad requestState nonce"),
        (f"v1.k1.A.{GOOD_SEALED}", "bad requestState nonce"),
        # the payload's base64 before the nonce's length
        ("v1.k1.AAAA.!", "bad requestState payload"),
        (f"v1.k1.AAAA.{GOOD_SEALED}=", "bad requestState payload"),
        (f"v1.k1.{GOOD_NONCE}.{GOOD_SEALED}=", "bad requestState payload"),
        (f"v1.k1.{GOOD_NONCE}.A", "bad requestState payload"),
        (f"v1.k1.{GOOD_NONCE}.{GOOD_SEALED}A", "bad requestState payload"),
        # the nonce's length: 11 and 13 bytes, and none
        (f"v1.k1.{b64(bytes(11))}.{GOOD_SEALED}", "bad requestState nonce"),
        (f"v1.k1.{b64(bytes(13))}.{GOOD_SEALED}", "bad requestState nonce"),
        (f"v1.k1..{GOOD_SEALED}", "bad requestState nonce"),
        # the tag: any other nonce, header, key or ciphertext
        (f"v1.k1.{b64(bytes(12))}.{GOOD_SEALED}", "requestState integrity check failed"),
        (f"v2.k1.{GOOD_NONCE}.{GOOD_SEALED}", "requestState integrity check failed"),
        (f"v1.k1.{GOOD_NONCE}.", "requestState integrity check failed"),
        (f"v1.k1.{GOOD_NONCE}.{GOOD_SEALED[:-4]}", "requestState integrity check failed"),
        (hand_seal(plain(), secret=b"other"), "requestState integrity check failed"),
        (hand_seal(plain(), aad="v1.k2"), "requestState integrity check failed"),
    ],
)
def test_open_checks_in_nevas_order(token: str, message: str) -> None:
    """MRTR-OPEN-2..7: with several faults the earliest check in neva's order answers, -32602."""
    assert fault(token) == (-32602, message)


def test_open_accepts_every_kid_in_the_ring() -> None:
    """MRTR-KEY-2: a kid that is not the active one opens (rotation), an empty kid too."""
    ring = Keyring("k1", {"k1": SECRET, "old": b"old-secret", "": b"empty"})
    old = hand_seal(plain(), kid="old", secret=b"old-secret")
    assert open_plaintext(old, ring) == plain()
    assert open_plaintext(hand_seal(b"e", kid="", secret=b"empty"), ring) == b"e"
    assert fault(old, RING) == (-32602, "unknown requestState key id")


@pytest.mark.parametrize("text", [b"", b"not json", b"[]", b'{"answers":{}}', b"{}"])
def test_authentic_non_payload_is_a_parse_error(text: bytes) -> None:
    """MRTR-OPEN-8, MRTR-OPEN-9: an authentic plaintext that is no payload is -32700."""
    code, _ = fault(hand_seal(text))
    assert code == -32700


def test_authentic_payload_message_is_serdes() -> None:
    """MRTR-OPEN-9: the -32700 message is serde_json's, position included."""
    assert fault(hand_seal(b"{}")) == (-32700, "missing field `answers` at line 1 column 2")


# ------------------------------------------------------------------ verify


def ctx(**changes: object) -> CheckContext:
    """A check for tools/call {"name": "t"} at NOW with no principal and no audience."""
    base: dict[str, object] = {"method": "tools/call", "params": BINDING_PARAMS, "now": NOW}
    base.update(changes)
    return CheckContext(**base)  # type: ignore[arg-type]  # test helper over known fields


def verdict(token: str, check: CheckContext) -> str:
    """'ok', verify's message for a -32602, or the code and message of any other failure."""
    try:
        verify(token, RING, check)
    except StateError as exc:
        return exc.message if exc.code == -32602 else f"{exc.code}: {exc.message}"
    return "ok"


def test_inbound_cap_at_its_edge() -> None:
    """MRTR-OPEN-1: a token exactly at the cap is checked further; one byte over is refused."""
    size = len(GOOD)
    assert verdict(GOOD, ctx(max_state_bytes=size)) == "ok"
    assert verdict(GOOD, ctx(max_state_bytes=size - 1)) == (
        "requestState exceeds the configured maximum size"
    )
    assert verdict("x" * 8192, ctx()) == "malformed requestState"
    assert verdict("x" * 8193, ctx()) == "requestState exceeds the configured maximum size"


def test_inbound_cap_counts_utf8_bytes() -> None:
    """MRTR-OPEN-1: the cap is on the UTF-8 length (`str::len`), not on characters."""
    token = "é" * 5  # 5 characters, 10 bytes
    assert verdict(token, ctx(max_state_bytes=10)) == "malformed requestState"
    assert verdict(token, ctx(max_state_bytes=9)) == (
        "requestState exceeds the configured maximum size"
    )
    lone = "\ud800" * 3  # 3 bytes each as WTF-8
    assert verdict(lone, ctx(max_state_bytes=9)) == "malformed requestState"
    assert verdict(lone, ctx(max_state_bytes=8)) == (
        "requestState exceeds the configured maximum size"
    )


@pytest.mark.parametrize(
    ("exp", "now", "expected"),
    [
        (NOW, NOW, "ok"),
        (NOW + 1, NOW, "ok"),
        (NOW - 1, NOW, "requestState expired"),
        (0, 0, "ok"),
        (0, 1, "requestState expired"),
        (2**64 - 1, 2**64 - 1, "ok"),
    ],
)
def test_expiry_edges(exp: int, now: int, expected: str) -> None:
    """MRTR-OPEN-10: `exp < now` is expired; exp == now and exp == now + 1 are live."""
    assert verdict(hand_seal(plain(exp=exp)), ctx(now=now)) == expected


@pytest.mark.parametrize(
    ("token", "changes", "expected"),
    [
        # size before the codec
        ("v1.k1.!.!", {"max_state_bytes": 3}, "requestState exceeds the configured maximum size"),
        # the codec before expiry
        ("v1.k1.!.!", {"now": 10**9}, "bad requestState nonce"),
        # expiry before the binding
        (hand_seal(plain(exp=NOW - 1)), {"params": {"name": "u"}}, "requestState expired"),
        # the binding before the principal
        (
            hand_seal(plain()),
            {"params": None, "principal": "bob"},
            "requestState does not match this request",
        ),
        (
            hand_seal(plain()),
            {"method": "prompts/get", "audience": "svc"},
            "requestState does not match this request",
        ),
        # the principal before the audience, both directions
        (
            hand_seal(plain()),
            {"principal": "bob", "audience": "svc"},
            "requestState principal mismatch",
        ),
        (hand_seal(plain(principal="al")), {"audience": "svc"}, "requestState principal mismatch"),
        (hand_seal(plain(principal="al")), {"principal": "Al"}, "requestState principal mismatch"),
        (hand_seal(plain(principal="al")), {"principal": "al"}, "ok"),
        # the audience, both directions
        (hand_seal(plain(aud="svc"), version="v2"), {}, "requestState audience mismatch"),
        (hand_seal(plain()), {"audience": "svc"}, "requestState audience mismatch"),
        (
            hand_seal(plain(aud="svc"), version="v2"),
            {"audience": "svc2"},
            "requestState audience mismatch",
        ),
        (hand_seal(plain(aud="svc"), version="v2"), {"audience": "svc"}, "ok"),
        # the binding ignores _meta, inputResponses and requestState
        (
            hand_seal(plain()),
            {"params": {"name": "t", "_meta": {}, "inputResponses": {}, "requestState": "x"}},
            "ok",
        ),
    ],
)
def test_verify_two_faults_earliest_wins(
    token: str, changes: dict[str, object], expected: str
) -> None:
    """MRTR-OPEN-1, MRTR-OPEN-10..13: size, codec, expiry, binding, principal, audience."""
    assert verdict(token, ctx(**changes)) == expected


def test_verify_returns_the_payload() -> None:
    """MRTR-OPEN-13: a state passing every check is returned, fields as sealed."""
    p = verify(
        hand_seal(plain(principal="al", aud="svc"), version="v2"),
        RING,
        ctx(principal="al", audience="svc"),
    )
    assert (p.exp, p.req, p.principal, p.aud) == (NOW, REQ, "al", "svc")


def test_a_keyrings_cipher_cache_is_not_part_of_its_value() -> None:
    """MRTR-KEY-1: a keyring that has sealed (its AEAD cache filled) still equals a fresh
    keyring of the same keys; the cache never shows in its repr."""
    used = Keyring("k1", {"k1": SECRET})
    seal(StatePayload(answers={}, exp=NOW + 60, req=REQ), used, NONCE)
    fresh = Keyring("k1", {"k1": SECRET})
    assert used == fresh
    assert repr(used) == repr(fresh)
