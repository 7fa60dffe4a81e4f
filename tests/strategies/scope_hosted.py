"""Hypothesis strategies for the hosted matcher profile (``SCOPE-HOSTED-*``)."""

from __future__ import annotations

from hypothesis import strategies as st

from mcp_touchstone.serde_json import JSON

__all__ = [
    "DROP_VALUES",
    "PASS_VALUES",
    "drop_constraint_json",
    "hosted_constraint_json",
    "model_metadata_json",
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
