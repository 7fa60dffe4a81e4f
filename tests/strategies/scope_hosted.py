"""Hypothesis strategies for the hosted matcher profile (``SCOPE-HOSTED-*``)."""

from __future__ import annotations

from hypothesis import strategies as st

from mcp_touchstone.serde_json import JSON

__all__ = [
    "DROP_VALUES",
    "PASS_VALUES",
    "counted_patterns",
    "drop_constraint_json",
    "hosted_constraint_json",
    "model_metadata_json",
    "near_counted_patterns",
    "pass_constraint_json",
    "regex_patterns",
]

PASS_VALUES: list[tuple[str, JSON]] = [
    ("governed_intent_required", None),
    ("require_approval_above", {"threshold_units": 1}),
    (
        "require_cumulative_approval_above",
        {
            "threshold": {"units": 1, "currency": "USD"},
            "approval_budget_id": "b",
            "approval_budget_epoch": 0,
        },
    ),
    ("seller_exact", "s"),
    ("minimum_runtime_assurance", "verified"),
    ("minimum_autonomy_tier", "autonomous"),
    ("table_allowlist", []),
    ("column_denylist", ["users.ssn"]),
    ("max_rows_returned", 0),
    ("operation_class", "admin"),
]
"""One value for each of the 10 variants the hosted matcher passes (``Ok(true)``)."""

DROP_VALUES: list[tuple[str, JSON]] = [
    ("content_review_tier", "none"),
    ("content_review_tier", "strict"),
    ("max_transaction_amount_usd", "100.00"),
    ("max_transaction_amount_usd", "not a number"),
    ("require_dual_approval", False),
    ("require_dual_approval", True),
]
"""Values for the 3 variants the hosted matcher drops (``Ok(false)``), harmless ones included."""


def pass_constraint_json() -> st.SearchStrategy[JSON]:
    """One of the 10 enforced-later variants."""
    return st.sampled_from(PASS_VALUES).map(lambda tv: {"type": tv[0], "value": tv[1]})


def drop_constraint_json() -> st.SearchStrategy[JSON]:
    """One of the 3 dropped variants."""
    return st.sampled_from(DROP_VALUES).map(lambda tv: {"type": tv[0], "value": tv[1]})


regex_patterns = st.sampled_from(
    ["", "a", "^a", "a$", r"\d", r"\w+", "(?i)SECRET", "x|y", "[[:alpha:]]", r"\p{Greek}", "^$"]
)
"""Patterns the Rust regex crate compiles."""


def model_metadata_json() -> st.SearchStrategy[JSON]:
    """A request's model metadata, or null."""
    return st.one_of(
        st.none(),
        st.builds(
            lambda model, tier: {"model_id": model, "safety_tier": tier},
            st.sampled_from(["m1", "m2", "M1", ""]),
            st.sampled_from([None, "low", "standard", "high", "restricted"]),
        ),
    )


def hosted_constraint_json() -> st.SearchStrategy[JSON]:
    """A constraint of one of the three hosted-decided variants that the portable kernel refuses."""
    return st.one_of(
        regex_patterns.map(lambda p: {"type": "regex_match", "value": p}),
        st.lists(regex_patterns, max_size=3).map(
            lambda ps: {"type": "memory_write_deny_patterns", "value": ps}
        ),
        st.builds(
            lambda ids, tier: {
                "type": "model_constraint",
                "value": {"allowed_model_ids": ids, "min_safety_tier": tier},
            },
            st.lists(st.sampled_from(["m1", "m2"]), max_size=2),
            st.sampled_from([None, "low", "standard", "high", "restricted"]),
        ),
    )


_COUNTS = st.sampled_from([0, 1, 2, 10, 11, 100, 661, 1000, 436_906, 436_907]) | st.integers(
    0, 2_000
)
_COUNTED = st.one_of(
    _COUNTS.map(lambda n: f"{{{n}}}"),
    _COUNTS.map(lambda n: f"{{{n},}}"),
    st.tuples(_COUNTS, _COUNTS).map(lambda nm: f"{{{min(nm)},{max(nm)}}}"),
).flatmap(lambda q: st.sampled_from([q, q + "?"]))
_QUANTIFIERS = st.one_of(
    st.just(""),
    st.sampled_from(["*", "+", "?", "*?", "+?", "??"]),
    st.lists(_COUNTED, min_size=1, max_size=3).map("".join),
)
_ATOMS = st.sampled_from(["a", "Z", "_", "7", ".", "\\d", "\\w", "\\s", "\\D", "\\W", "\\S"])


def _sequence(pieces: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.lists(st.tuples(pieces, _QUANTIFIERS).map("".join), min_size=1, max_size=3).map(
        "".join
    )


counted_patterns: st.SearchStrategy[str] = st.recursive(
    _sequence(_ATOMS),
    lambda inner: _sequence(
        st.tuples(st.sampled_from(["(", "(?:"]), inner).map(lambda g: g[0] + g[1] + ")")
    ),
    max_leaves=6,
)
"""Patterns of the subset ``scope/_regex_size.py`` reads (SCOPE-HOSTED-RX-6): literals, ``.``
and Perl classes, groups, and quantifiers with counts up to past the size limit."""

_OUTSIDE = st.sampled_from(
    ["|", "^", "$", "(?i)", "\\b", "[a]", "{", "}", "(", ")", ",", " ", "{,3}", "ß", "\\p{L}", "-"]
)
near_counted_patterns: st.SearchStrategy[str] = st.tuples(
    counted_patterns, _OUTSIDE, st.integers(0, 64)
).map(lambda t: t[0][: t[2]] + t[1] + t[0][t[2] :])
"""A counted pattern with one piece from outside the subset inserted somewhere."""
