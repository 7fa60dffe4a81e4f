"""Hypothesis strategies for the ``mrtr`` semantic (spec/mrtr.md)."""

from __future__ import annotations

from hypothesis import strategies as st

from mcp_touchstone.mrtr._payload import StatePayload
from mcp_touchstone.mrtr._state import Keyring
from mcp_touchstone.serde_json import JSON

__all__ = [
    "b64url_texts",
    "json_values",
    "keyrings",
    "kids",
    "nonces",
    "payloads",
    "secrets",
]

_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"]),  # no lone surrogates
    max_size=12,
)

json_scalars: st.SearchStrategy[JSON] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(1 << 63), max_value=(1 << 64) - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    _TEXT,
)
"""A JSON scalar serde_json can hold."""

json_values: st.SearchStrategy[JSON] = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(_TEXT, children, max_size=4),
    ),
    max_leaves=12,
)
"""A JSON value serde_json can hold (nesting kept shallow)."""

kids = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="."),
    min_size=1,
    max_size=6,
)
"""A kid neva accepts for sealing: non-empty, no '.'."""

secrets = st.binary(min_size=0, max_size=40)
"""A secret of any length."""

nonces = st.binary(min_size=12, max_size=12)
"""A 12-byte ChaCha20-Poly1305 nonce."""


@st.composite
def keyrings(draw: st.DrawFn) -> Keyring:
    """A ring of one to three kids whose active kid has a key."""
    ring = draw(st.dictionaries(kids, secrets, min_size=1, max_size=3))
    active = draw(st.sampled_from(sorted(ring)))
    return Keyring(active, ring)


@st.composite
def payloads(draw: st.DrawFn) -> StatePayload:
    """Any payload neva could seal."""
    return StatePayload(
        answers=draw(st.dictionaries(_TEXT, json_values, max_size=3)),
        exp=draw(st.integers(min_value=0, max_value=(1 << 64) - 1)),
        req=draw(_TEXT),
        requested=tuple(draw(st.lists(_TEXT, max_size=3))),
        memos=draw(st.dictionaries(_TEXT, json_values, max_size=3)),
        effects=tuple(draw(st.lists(_TEXT, max_size=3, unique=True))),
        principal=draw(st.none() | _TEXT),
        aud=draw(st.none() | _TEXT),
    )


b64url_texts = st.text(
    alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/ .",
    max_size=24,
)
"""Texts near the base64url alphabet (with padding, standard-alphabet and stray characters)."""
