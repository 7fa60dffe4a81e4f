"""The keyring holds its own key derivations, no process-wide cache, no secret in its repr."""

from __future__ import annotations

import pytest

from mcp_touchstone.mrtr import Keyring, _state


def test_keyring_caches_its_cipher_per_secret() -> None:
    """A keyring derives each secret's AEAD once and keeps it; another keyring derives its own."""
    ring = Keyring.single(b"secret")
    assert ring.cipher(b"secret") is ring.cipher(b"secret")
    assert Keyring.single(b"secret").cipher(b"secret") is not ring.cipher(b"secret")


def test_no_module_level_cache_keyed_by_secrets() -> None:
    """The state module keeps no lru_cache of ciphers keyed by raw secrets."""
    assert not hasattr(_state, "_cipher")


def test_keyring_keys_are_read_only_and_compare_as_values() -> None:
    """A keyring's keys cannot be changed after construction; its cache never affects equality."""
    ring = Keyring.single(b"secret")
    with pytest.raises(TypeError):
        ring.keys["other"] = b"x"  # type: ignore[index]
    ring.cipher(b"secret")
    assert ring == Keyring.single(b"secret")


def test_keyring_repr_names_kids_never_secrets() -> None:
    """A keyring's repr, and a container's repr around it, show no secret (MRTR-KEY-3)."""
    ring = Keyring("k2", {"k1": b"first-secret", "k2": b"second-secret"})
    ring.cipher(b"first-secret")
    shown = repr(ring)
    assert shown == "Keyring(active_kid='k2', keys=<secrets for 'k1', 'k2'>)"
    for secret_text in ("first", "second", "secret'"):
        assert secret_text not in shown
    assert "first-secret" not in repr([ring])
    assert "first-secret" not in str(ring)
    assert repr(Keyring("k", {})) == "Keyring(active_kid='k', keys=<secrets for no kid>)"
