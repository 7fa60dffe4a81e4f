"""The request binding's definition and a keyring's cached sealer (MRTR-BIND-1, MRTR-BIND-2,
MRTR-SEAL-1..3): the binding is the hash of the canonical salient params, and a keyring seals
what a fresh one seals, seal after seal."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.mrtr import Keyring, StateError, StatePayload, request_binding
from mcp_touchstone.mrtr._b64 import b64url_encode
from mcp_touchstone.mrtr._binding import salient_params
from mcp_touchstone.serde_json import JSON, canonical
from tests.strategies.mrtr import json_values, nonces, payloads

_PARAMS = st.one_of(
    st.none(),
    json_values,
    st.dictionaries(
        st.sampled_from(["_meta", "inputResponses", "requestState", "name", "arguments", "x"]),
        json_values,
        max_size=5,
    ),
)


@given(st.text(max_size=8), _PARAMS)
def test_binding_is_the_salient_hash(method: str, params: JSON) -> None:
    """MRTR-BIND-1, MRTR-BIND-2: request_binding is the hash of the canonical salient params,
    and leaves params unchanged."""
    before = canonical(params) if params is not None else None
    digest = hashlib.sha256(canonical(salient_params(params)).encode("utf-8")).digest()
    assert request_binding(method, params) == f"{method}:{b64url_encode(digest)}"
    assert (canonical(params) if params is not None else None) == before


@given(payloads(), nonces, st.booleans())
def test_cached_sealer_seals_what_a_fresh_keyring_seals(
    p: StatePayload, nonce: bytes, bound: bool
) -> None:
    """MRTR-SEAL-1..3: a keyring's cached sealing header and AEAD give the token a fresh
    keyring gives, seal after seal, for both header versions."""
    ring = Keyring("k", {"k": b"secret", "old": b"other"})
    first = ring.sealer(bound)
    assert ring.sealer(bound) is first
    plaintext = p.encode()
    fresh = Keyring("k", {"k": b"secret"})
    from mcp_touchstone.mrtr._state import seal_plaintext

    again = seal_plaintext(plaintext, ring, nonce, audience_bound=bound)
    assert again == seal_plaintext(plaintext, fresh, nonce, audience_bound=bound)
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    from mcp_touchstone.mrtr._state import derive_key

    header = ("v2" if bound else "v1") + ".k"
    sealed = ChaCha20Poly1305(derive_key(b"secret")).encrypt(nonce, plaintext, header.encode())
    assert again == f"{header}.{b64url_encode(nonce)}.{b64url_encode(sealed)}"


@pytest.mark.parametrize(
    ("ring", "message"),
    [
        (Keyring("missing", {"k": b"s"}), "active requestState kid has no key in the keyring"),
        (Keyring("", {"": b"s"}), "requestState kid must be non-empty and must not contain '.'"),
        (
            Keyring("a.b", {"a.b": b"s"}),
            "requestState kid must be non-empty and must not contain '.'",
        ),
    ],
)
def test_sealer_errors_are_raised_every_time(ring: Keyring, message: str) -> None:
    """MRTR-SEAL-2, MRTR-SEAL-3: a keyring that cannot seal fails each seal alike (a failure
    is never cached)."""
    for _ in range(2):
        with pytest.raises(StateError) as err:
            ring.sealer(True)
        assert err.value.error.code == -32603
        assert err.value.error.message == message


def test_a_mutable_secret_is_read_afresh() -> None:
    """MRTR-SEAL-1: a bytearray secret changed after the keyring was built seals under its new
    value (only an immutable secret is cached)."""
    secret = bytearray(b"one")
    ring = Keyring("k", {"k": secret})  # type: ignore[dict-item]  # a caller's bytearray
    nonce = bytes(12)
    from mcp_touchstone.mrtr._state import seal_plaintext

    def sealed(keyring: Keyring) -> str:
        return seal_plaintext(b"{}", keyring, nonce, audience_bound=False)

    first = sealed(ring)
    secret[:] = b"two"
    second = sealed(ring)
    assert first == sealed(Keyring("k", {"k": b"one"}))
    assert second == sealed(Keyring("k", {"k": b"two"}))
