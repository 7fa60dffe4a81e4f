"""The keyring holds its own key derivations (MRTR-KEY-1, MRTR-KEY-2): no process-wide cache."""

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
