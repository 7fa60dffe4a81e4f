"""The MRTR adapters' keyring table (``harness/_mrtr_keyring.py``, MRTR-HARNESS-1): a keyring
from the table seals and opens exactly as a fresh ``Keyring`` does, and the table is keyed by the
active kid and the ordered key table and bounded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.harness import _mrtr_keyring
from mcp_touchstone.harness._mrtr_keyring import CAPACITY, keyring
from mcp_touchstone.mrtr import Keyring, StateError, StatePayload, open_state, seal
from tests.strategies.mrtr import kids, nonces, payloads, secrets


def _outcome(call: Callable[..., Any], *args: Any) -> Any:
    try:
        return ("ok", call(*args))
    except StateError as exc:
        return ("error", exc.code, exc.message)


@given(
    st.dictionaries(kids, secrets, min_size=1, max_size=3),
    st.data(),
    payloads(),
    nonces,
)
def test_table_keyring_seals_and_opens_as_a_fresh_one(
    ring: dict[str, bytes], data: st.DataObject, payload: StatePayload, nonce: bytes
) -> None:
    """A keyring from the table (first use and reuse) seals and opens as a new Keyring does,
    errors included (an active kid without a key, a token under another ring)."""
    active = data.draw(st.sampled_from([*sorted(ring), "", "missing", "a.b"]))
    fresh = Keyring(active, dict(ring))
    other_keys = {kid: secret + b"x" for kid, secret in ring.items()}
    for cached in (keyring(active, dict(ring)), keyring(active, dict(ring))):
        assert cached == fresh
        sealed = _outcome(seal, payload, cached, nonce)
        assert sealed == _outcome(seal, payload, fresh, nonce)
        if sealed[0] == "ok":
            token = sealed[1]
            assert _outcome(open_state, token, cached) == _outcome(open_state, token, fresh)
            other = keyring("", other_keys)
            assert _outcome(open_state, token, other) == _outcome(
                open_state, token, Keyring("", other_keys)
            )


def test_keyring_table_is_keyed_by_kid_and_ordered_keys_and_bounded() -> None:
    """The same kid and key table give the same keyring; another kid, secret or key order a
    different one; the table never holds more than CAPACITY key sets."""
    first = keyring("a", {"a": b"1", "b": b"2"})
    assert keyring("a", {"a": b"1", "b": b"2"}) is first
    assert keyring("b", {"a": b"1", "b": b"2"}) is not first
    assert keyring("a", {"a": b"1", "b": b"3"}) is not first
    assert keyring("a", {"b": b"2", "a": b"1"}) is not first
    for n in range(2 * CAPACITY):
        keyring("k", {"k": n.to_bytes(2, "big")})
    assert len(_mrtr_keyring._KEYRINGS) == CAPACITY
    assert keyring("a", {"a": b"1", "b": b"2"}) == first  # rebuilt after eviction: equal
