"""The sealed requestState codec: neva's state.rs unit tests re-expressed, known answers,
and properties (spec/mrtr.md MRTR-TOKEN-*, MRTR-KEY-*, MRTR-SEAL-*, MRTR-OPEN-*)."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_touchstone.mrtr import (
    CheckContext,
    Keyring,
    StateError,
    StatePayload,
    derive_key,
    open_state,
    request_binding,
    seal,
    verify,
)
from mcp_touchstone.mrtr._state import DEFAULT_TTL_SECS
from mcp_touchstone.serde_json import from_str
from tests.strategies.mrtr import keyrings, nonces, payloads

NOW = 1_800_000_000
NONCE = bytes(range(12))
SECRET = b"secret-key"
AUDIENCE = "https://weather.example.com/mcp"
KAT_TOKEN = (
    "v1.0.AAECAwQFBgcICQoL.pb7-HaK5loz83fJb3IpfTpkIW0f73jdQbpZb-qhykmBtDeEcLvZ5hfkzHDNXtwPtIbFfEKC"
    "aEof5f0fLxq4-Xa6sgCxVLU45gW6eqqCHncKq8uVT2Xg0W60IhIUzJY14sMK7JswV0OnoZGNLsGn-Op0fKjCQEm6CuOx"
    "94KpJYBVAFJKhfp5BrpEmDhnvgLfGRijaTE51"
)


def ring(secret: bytes = SECRET) -> Keyring:
    return Keyring.single(secret)


def payload(**changes: object) -> StatePayload:
    base: dict[str, object] = {
        "answers": {},
        "exp": NOW + DEFAULT_TTL_SECS,
        "req": request_binding("tools/call", {"name": "t"}),
        "principal": "alice",
    }
    base.update(changes)
    return StatePayload(**base)  # type: ignore[arg-type]  # test helper over known fields


def kat_payload(**changes: object) -> StatePayload:
    base: dict[str, object] = {
        "answers": {},
        "requested": ("ask_name",),
        "exp": 1800000000,
        "req": "tools/call:abc",
        "principal": "alice",
    }
    base.update(changes)
    return StatePayload(**base)  # type: ignore[arg-type]  # test helper over known fields


def raw_seal(
    plaintext: bytes, *, kid: str = "0", version: str = "v1", secret: bytes = SECRET
) -> str:
    """Seal arbitrary bytes the way the codec would (neva's test helper ``seal_json``)."""
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    header = f"{version}.{kid}"
    sealed = ChaCha20Poly1305(derive_key(secret)).encrypt(NONCE, plaintext, header.encode())

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    return f"{header}.{b64(NONCE)}.{b64(sealed)}"


def code_and_message(exc: pytest.ExceptionInfo[StateError]) -> tuple[int, str]:
    return exc.value.code, exc.value.message


# ------------------------------------------------------------------ known answers


def test_key_derivation_known_answer() -> None:
    """MRTR-KEY-1: SHA-256(label || 'secret-key') is neva's documented key."""
    assert derive_key(SECRET).hex() == (
        "86c8465f05c174e25400c5d04fe1b85cd4e949dfcf7c50f45320ea0dabd060ac"
    )


def test_seal_reproduces_the_neva_token_byte_for_byte() -> None:
    """MRTR-SEAL-3, MRTR-PAYLOAD-1, MRTR-TOKEN-1: fixed inputs give neva's exact token."""
    token = seal(kat_payload(), ring(), NONCE)
    assert token == KAT_TOKEN
    assert len(token) == 222


def test_the_neva_token_opens_here() -> None:
    """MRTR-OPEN-8, MRTR-TOKEN-3: a token sealed by neva opens to its payload."""
    assert open_state(KAT_TOKEN, ring()) == kat_payload()


def test_audience_bound_kat_prefix() -> None:
    """MRTR-TOKEN-2: the v2 KAT begins as neva's does (v2.0.AAECAwQFBgcICQoL.pb7-)."""
    token = seal(kat_payload(principal=None, aud=AUDIENCE), ring(), NONCE)
    assert token.startswith("v2.0.AAECAwQFBgcICQoL.pb7-")


# ------------------------------------------------------------------ neva's state.rs tests


def test_memos_and_effects_roundtrip() -> None:
    """MRTR-PAYLOAD-1: memos and effects survive seal and open (memos_and_effects_roundtrip)."""
    p = payload(memos={"quote": {"price": 42}}, effects=("charge",))
    got = open_state(seal(p, ring(), NONCE), ring())
    assert got.memos["quote"] == {"price": 42}
    assert "charge" in got.effects


def test_payload_without_memos_or_effects_decodes_with_defaults() -> None:
    """MRTR-PAYLOAD-2: an older payload schema decodes with defaults and no audience."""
    req = request_binding("tools/call", {"name": "t"})
    blob = raw_seal(f'{{"answers":{{}},"exp":{NOW + 300},"req":"{req}","principal":null}}'.encode())
    got = open_state(blob, ring())
    assert got.memos == {}
    assert got.effects == ()
    assert got.requested == ()
    assert got.aud is None


def test_the_audience_survives_the_seal() -> None:
    """MRTR-TOKEN-2: aud round-trips and is not readable in the token."""
    blob = seal(payload(aud=AUDIENCE), ring(), NONCE)
    assert open_state(blob, ring()).aud == AUDIENCE
    assert "weather.example.com" not in blob


def test_an_audience_bound_state_is_sealed_under_its_own_version() -> None:
    """MRTR-TOKEN-2: with aud the token is v2, without it v1, and both open."""
    bound = seal(payload(aud=AUDIENCE), ring(), NONCE)
    unbound = seal(payload(), ring(), NONCE)
    assert bound.startswith("v2.")
    assert unbound.startswith("v1.")
    open_state(bound, ring())
    open_state(unbound, ring())


def test_a_bound_state_cannot_be_relabelled_as_unbound() -> None:
    """MRTR-TOKEN-3: v2 rewritten to v1 fails the tag."""
    blob = seal(payload(aud=AUDIENCE), ring(), NONCE)
    with pytest.raises(StateError) as exc:
        open_state("v1" + blob.removeprefix("v2"), ring())
    assert code_and_message(exc) == (-32602, "requestState integrity check failed")


def test_memo_values_are_not_readable_from_the_wire_blob() -> None:
    """MRTR-TOKEN-1: no base64-decoded segment contains a memo's plaintext."""
    blob = seal(payload(memos={"token": "super-secret-value"}), ring(), NONCE)
    for segment in blob.split("."):
        try:
            data = base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
        except ValueError:
            data = b""
        assert b"super-secret-value" not in data
    assert open_state(blob, ring()).memos["token"] == "super-secret-value"


def test_encode_decode_roundtrips() -> None:
    """MRTR-PAYLOAD-1: exp, req, principal and empty answers are preserved."""
    p = payload()
    got = open_state(seal(p, ring(), NONCE), ring())
    assert (got.exp, got.req, got.principal, dict(got.answers)) == (p.exp, p.req, "alice", {})


def test_encode_writes_version_and_kid_segments() -> None:
    """MRTR-TOKEN-1: four segments, v1 then the default kid 0."""
    segments = seal(payload(), ring(), NONCE).split(".")
    assert len(segments) == 4
    assert segments[:2] == ["v1", "0"]


def test_tampered_blob_is_rejected() -> None:
    """MRTR-OPEN-6: appending a character is rejected (here: the segment becomes 1 mod 4)."""
    with pytest.raises(StateError) as exc:
        open_state(seal(payload(), ring(), NONCE) + "x", ring())
    assert exc.value.code == -32602


def test_wrong_key_is_rejected() -> None:
    """MRTR-OPEN-8: a ring with another secret cannot open the blob."""
    blob = seal(payload(), ring(b"key-a"), NONCE)
    with pytest.raises(StateError) as exc:
        open_state(blob, ring(b"key-b"))
    assert code_and_message(exc) == (-32602, "requestState integrity check failed")


def test_unknown_version_is_rejected() -> None:
    """MRTR-OPEN-3: v9 is unsupported."""
    blob = seal(payload(), ring(), NONCE)
    with pytest.raises(StateError) as exc:
        open_state("v9" + blob.removeprefix("v1"), ring())
    assert code_and_message(exc) == (-32602, "unsupported requestState version")


def test_unknown_kid_is_rejected() -> None:
    """MRTR-OPEN-4: a blob sealed under kid 9 is refused by a ring without it."""
    with pytest.raises(StateError) as exc:
        open_state(raw_seal(b"{}", kid="9"), ring())
    assert code_and_message(exc) == (-32602, "unknown requestState key id")


def test_legacy_two_segment_blob_is_rejected_as_malformed() -> None:
    """MRTR-OPEN-2: the pre-versioning nonce.ct format is malformed."""
    legacy = seal(payload(), ring(), NONCE).split(".", 2)[2]
    with pytest.raises(StateError) as exc:
        open_state(legacy, ring())
    assert code_and_message(exc) == (-32602, "malformed requestState")


def test_kid_transplant_fails_the_aad_binding() -> None:
    """MRTR-TOKEN-3: kids a and b share one secret; moving a blob from a to b fails the tag."""
    shared = Keyring("a", {"a": b"same-secret", "b": b"same-secret"})
    blob = seal(payload(), shared, NONCE)
    with pytest.raises(StateError) as exc:
        open_state("v1.b" + blob.removeprefix("v1.a"), shared)
    assert code_and_message(exc) == (-32602, "requestState integrity check failed")
    open_state(blob, shared)


def test_rotated_keyring_still_decodes_old_kid() -> None:
    """MRTR-KEY-2: old blobs open after rotation, new ones use the new kid, retired kids fail."""
    blob = seal(payload(), Keyring("1", {"1": b"old-secret"}), NONCE)
    rotated = Keyring("2", {"2": b"new-secret", "1": b"old-secret"})
    open_state(blob, rotated)
    assert seal(payload(), rotated, NONCE).startswith("v1.2.")
    with pytest.raises(StateError):
        open_state(blob, Keyring("2", {"2": b"new-secret"}))


def test_active_kid_missing_from_ring_fails_encode() -> None:
    """MRTR-SEAL-1: sealing with an active kid that has no key is -32603."""
    with pytest.raises(StateError) as exc:
        seal(payload(), Keyring("active", {"other": b"secret"}), NONCE)
    assert code_and_message(exc) == (-32603, "active requestState kid has no key in the keyring")


@pytest.mark.parametrize("kid", ["a.b", ""])
def test_kid_with_separator_fails_encode(kid: str) -> None:
    """MRTR-SEAL-2: a kid that is empty or contains '.' is refused with -32603."""
    with pytest.raises(StateError) as exc:
        seal(payload(), Keyring(kid, {kid: b"secret"}), NONCE)
    assert code_and_message(exc) == (
        -32603,
        "requestState kid must be non-empty and must not contain '.'",
    )


@pytest.mark.parametrize("kid", ["\ud800", "k\udfff", "a.\ud800"])
def test_a_lone_surrogate_kid_fails_encode_with_a_state_error(kid: str) -> None:
    """MRTR-SEAL-2: a kid UTF-8 cannot carry is -32603 (a '.' is told first), never a
    UnicodeEncodeError."""
    with pytest.raises(StateError) as exc:
        seal(payload(), Keyring(kid, {kid: b"secret"}), NONCE)
    expected = (
        "requestState kid must be non-empty and must not contain '.'"
        if "." in kid
        else "requestState kid must be valid UTF-8 text"
    )
    assert code_and_message(exc) == (-32603, expected)


def test_opening_with_a_lone_surrogate_kid_fails_authentication() -> None:
    """MRTR-SEAL-2: a token naming a ring's lone-surrogate kid is read (its header bytes
    surrogate-passing), and fails only its integrity check."""
    ring = Keyring("\ud800", {"\ud800": b"secret", "k": b"secret"})
    token = seal(payload(), Keyring("k", {"k": b"secret"}), NONCE)
    version, _, nonce_b64, sealed_b64 = token.split(".")
    with pytest.raises(StateError) as exc:
        open_state(f"{version}.\ud800.{nonce_b64}.{sealed_b64}", ring)
    assert code_and_message(exc) == (-32602, "requestState integrity check failed")


def test_outbound_size_cap() -> None:
    """MRTR-SEAL-4: a minted token over the cap is -32603 requestState too large."""
    token = seal(payload(), ring(), NONCE)
    assert seal(payload(), ring(), NONCE, max_state_bytes=len(token)) == token
    with pytest.raises(StateError) as exc:
        seal(payload(memos={"m": "x" * 2048}), ring(), NONCE, max_state_bytes=256)
    assert code_and_message(exc) == (-32603, "requestState too large")


def test_seal_rejects_a_wrong_length_nonce() -> None:
    """MRTR-SEAL-3: the injected nonce must be 12 bytes; anything else is a caller bug."""
    with pytest.raises(ValueError, match="12 bytes"):
        seal(payload(), ring(), b"short")


# ------------------------------------------------------------------ server-side checks


def check(**changes: object) -> CheckContext:
    base: dict[str, object] = {
        "method": "tools/call",
        "params": {"name": "t"},
        "now": NOW,
        "principal": "alice",
    }
    base.update(changes)
    return CheckContext(**base)  # type: ignore[arg-type]  # test helper over known fields


def test_verify_accepts_its_own_state() -> None:
    """MRTR-OPEN-10..13: the happy path returns the payload."""
    p = payload()
    assert verify(seal(p, ring(), NONCE), ring(), check()) == p


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"now": NOW + DEFAULT_TTL_SECS + 1}, "requestState expired"),
        ({"params": {"name": "u"}}, "requestState does not match this request"),
        ({"principal": "bob"}, "requestState principal mismatch"),
        ({"principal": None}, "requestState principal mismatch"),
        ({"audience": "svc"}, "requestState audience mismatch"),
        ({"max_state_bytes": 10}, "requestState exceeds the configured maximum size"),
    ],
)
def test_verify_checks_in_order(changes: dict[str, object], message: str) -> None:
    """MRTR-OPEN-1, MRTR-OPEN-10, MRTR-OPEN-11, MRTR-OPEN-12, MRTR-OPEN-13: each check's message."""
    with pytest.raises(StateError) as exc:
        verify(seal(payload(), ring(), NONCE), ring(), check(**changes))
    assert code_and_message(exc) == (-32602, message)


def test_expiry_is_strict() -> None:
    """MRTR-OPEN-10: exp == now is valid (expired_request_state_is_rejected uses now - 1)."""
    p = payload(exp=NOW)
    assert verify(seal(p, ring(), NONCE), ring(), check()) == p
    with pytest.raises(StateError, match="expired"):
        verify(seal(payload(exp=NOW - 1), ring(), NONCE), ring(), check())


# ------------------------------------------------------------------ properties


@settings(max_examples=60, deadline=None)
@given(p=payloads(), keyring=keyrings(), nonce=nonces)
def test_seal_open_roundtrip(p: StatePayload, keyring: Keyring, nonce: bytes) -> None:
    """MRTR-SEAL-3, MRTR-OPEN-8: open(seal(p)) reads back p as serde_json would parse its text."""
    opened = open_state(seal(p, keyring, nonce), keyring)
    expected = from_str(p.encode())
    assert isinstance(expected, dict)
    assert opened.to_json() == expected
    assert opened.effects == p.effects


@settings(max_examples=80, deadline=None)
@given(p=payloads(), nonce=nonces, data=st.data())
def test_any_single_character_change_is_rejected(
    p: StatePayload, nonce: bytes, data: st.DataObject
) -> None:
    """MRTR-OPEN-2..8: changing any one character of any segment never opens to a payload."""
    keyring = Keyring("k1", {"k1": b"secret", "k2": b"secret"})
    token = seal(p, keyring, nonce)
    index = data.draw(st.integers(min_value=0, max_value=len(token) - 1))
    replacement = data.draw(
        st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/v12k")
    )
    if replacement == token[index]:
        return
    tampered = token[:index] + replacement + token[index + 1 :]
    with pytest.raises(StateError) as exc:
        open_state(tampered, keyring)
    assert exc.value.code == -32602


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(max_size=60)
    | st.from_regex(r"v[12]\.0\.[A-Za-z0-9_=+/-]{0,20}\.[A-Za-z0-9_-]{0,40}")
)
def test_open_never_raises_anything_but_state_error(text: str) -> None:
    """MRTR-OPEN-2..9: on arbitrary strings open either returns a payload or raises StateError."""
    codes: list[int] = []
    try:
        open_state(text, ring())
    except StateError as exc:
        codes.append(exc.code)
    assert set(codes) <= {-32602, -32700}
