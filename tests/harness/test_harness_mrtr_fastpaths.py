"""The ``mrtr`` adapters' per-case shortcuts answer exactly as the general paths do:
the keyring table, the script's ``ask`` requests decoded once, and SHA-256 without hashlib."""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.conformance import default_vectors_dir, load_vectors
from mcp_touchstone.harness import _mrtr_keyring, _mrtr_round
from mcp_touchstone.harness._mrtr_keyring import CAPACITY, keyring
from mcp_touchstone.mrtr._binding import sha256
from mcp_touchstone.mrtr._errors import StateError
from mcp_touchstone.mrtr._payload import StatePayload
from mcp_touchstone.mrtr._state import Keyring, open_state, seal
from mcp_touchstone.serde_json import JSON
from tests.strategies.mrtr import json_values, kids, nonces, payloads, secrets


@given(st.binary(max_size=300))
def test_sha256_is_hashlibs(data: bytes) -> None:
    """The mrtr package's SHA-256 gives hashlib's digest for any bytes."""
    assert sha256(data).digest() == hashlib.sha256(data).digest()
    assert sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()


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


def _round_inputs() -> list[JSON]:
    root = default_vectors_dir()
    assert root is not None
    return [v.input for v in load_vectors(root) if v.operation == "mrtr.round"]


_ROUND_INPUTS = _round_inputs()


def _decoding_again(raw: JSON, monkeypatch: pytest.MonkeyPatch) -> JSON:
    """``mrtr.round`` with no request kept by the script check: every ask decodes its params
    when asked (the context's elicit / sample helpers), the general path."""
    check = _mrtr_round._check_script
    with monkeypatch.context() as patch:
        patch.setattr(_mrtr_round, "_check_script", lambda s, w, requests=None: check(s, w))
        return _mrtr_round.mrtr_round_parsed(raw)


def test_round_vectors_answer_alike_with_requests_decoded_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every shipped mrtr.round vector gets the same output when the script's ask requests are
    decoded once (at the check) as when each ask decodes them again."""
    assert len(_ROUND_INPUTS) > 300
    for raw in _ROUND_INPUTS:
        fast = _mrtr_round.mrtr_round_parsed(copy.deepcopy(raw))
        assert fast == _decoding_again(copy.deepcopy(raw), monkeypatch), raw


def _asks(steps: JSON) -> list[dict[str, JSON]]:
    found: list[dict[str, JSON]] = []
    if isinstance(steps, list):
        for step in steps:
            if isinstance(step, dict):
                if step.get("op") == "ask":
                    found.append(step)
                found += _asks(step.get("then")) + _asks(step.get("else"))
    return found


_WITH_ASKS = [raw for raw in _ROUND_INPUTS if isinstance(raw, dict) and _asks(raw.get("script"))]


@given(
    st.sampled_from(_WITH_ASKS),
    st.data(),
)
def test_round_with_drawn_ask_params_answers_alike(raw: JSON, data: st.DataObject) -> None:
    """A round whose ask steps carry drawn params and methods (valid, malformed, null) and
    whose request carries drawn answers gets the same output either way."""
    raw = copy.deepcopy(raw)
    assert isinstance(raw, dict)
    for step in _asks(raw.get("script")):
        step["method"] = data.draw(
            st.sampled_from(["elicitation/create", "sampling/createMessage", "roots/list"])
        )
        params = step.get("params")
        step["params"] = data.draw(
            st.one_of(st.just(params), json_values, st.just(None), st.just({}))
        )
        key = step.get("key")
        request = raw.get("request")
        if isinstance(key, str) and isinstance(request, dict):
            call = request.get("params")
            if isinstance(call, dict) and data.draw(st.booleans()):
                answers = call.setdefault("inputResponses", {})
                if isinstance(answers, dict):
                    answers[key] = data.draw(json_values)
    with pytest.MonkeyPatch.context() as patch:
        general = _decoding_again(copy.deepcopy(raw), patch)
    assert _mrtr_round.mrtr_round_parsed(copy.deepcopy(raw)) == general


def test_state_codec_uses_cryptographys_public_aead_class() -> None:
    """The AEAD class the state codec imports from cryptography's Rust bindings is the very
    class ``cryptography.hazmat.primitives.ciphers.aead`` exports."""
    from cryptography.hazmat.primitives.ciphers import aead

    assert type(Keyring("0", {"0": b"k"}).cipher(b"k")) is aead.ChaCha20Poly1305
