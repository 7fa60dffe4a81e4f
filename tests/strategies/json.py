"""Hypothesis strategies for JSON values as serde_json holds them."""

from __future__ import annotations

from hypothesis import strategies as st

from mcp_touchstone.serde_json import JSON

U64_MAX = (1 << 64) - 1
I64_MIN = -(1 << 63)

ints = st.integers(min_value=I64_MIN, max_value=U64_MAX)
floats = st.floats(allow_nan=False, allow_infinity=False)
# Text without lone surrogates (serde_json strings are valid Unicode).
texts = st.text(st.characters(codec="utf-8"), max_size=12)

scalars: st.SearchStrategy[JSON] = st.one_of(st.none(), st.booleans(), ints, floats, texts)
scalars_no_float: st.SearchStrategy[JSON] = st.one_of(st.none(), st.booleans(), ints, texts)


def values(leaves: st.SearchStrategy[JSON] = scalars) -> st.SearchStrategy[JSON]:
    """Nested JSON values built from ``leaves``."""
    return st.recursive(
        leaves,
        lambda children: st.one_of(
            st.lists(children, max_size=4), st.dictionaries(texts, children, max_size=4)
        ),
        max_leaves=16,
    )
