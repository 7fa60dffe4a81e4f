"""Hypothesis strategies for the scope semantic (Chio scope matching).

The identifier and label alphabets and the case budget mirror upstream's
``scope_proptest.rs``: identifiers ``[a-z][a-z0-9_-]{0,10}``, domain labels
``[a-z][a-z0-9-]{0,10}``, 96 cases unless ``PROPTEST_CASES`` says otherwise.
"""

from __future__ import annotations

import os
import re

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from mcp_touchstone.serde_json import JSON

__all__ = [
    "DEFAULT_CASES",
    "constraint_json",
    "decided_constraint_json",
    "domain_labels",
    "grant_json",
    "identifiers",
    "json_values",
    "lowercase_values",
    "path_strings",
    "proptest_cases",
    "proptest_settings",
    "refused_constraint_json",
]

DEFAULT_CASES = 96
"""Upstream's ``proptest_config_for_lane(96)``."""


def proptest_cases(environ: dict[str, str] | None = None) -> int:
    """Case count: ``PROPTEST_CASES`` parsed as Rust parses a u32 (ASCII digits, optional
    leading ``+``), falling back to 96 when absent or unparsable."""
    raw = (os.environ if environ is None else environ).get("PROPTEST_CASES")
    if raw is None or re.fullmatch(r"\+?[0-9]+", raw) is None:
        return DEFAULT_CASES
    value = int(raw.lstrip("+"))
    return value if value <= 0xFFFF_FFFF else DEFAULT_CASES


def proptest_settings() -> settings:
    """Hypothesis settings equivalent to upstream's proptest lane configuration."""
    return settings(
        max_examples=max(proptest_cases(), 1),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


identifiers = st.from_regex(r"[a-z][a-z0-9_\-]{0,10}", fullmatch=True)
"""Upstream's identifier strategy."""

domain_labels = st.from_regex(r"[a-z][a-z0-9\-]{0,10}", fullmatch=True)
"""Upstream's domain-label strategy."""

lowercase_values = st.from_regex(r"[a-z]{1,24}", fullmatch=True)
"""Upstream's value strategy for the length boundary property."""

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(1 << 63), max_value=(1 << 64) - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(st.characters(exclude_categories=["Cs"]), max_size=12),
)

_interesting_keys = st.sampled_from(
    [
        "path",
        "FilePath",
        "dir",
        "to",
        "TO",
        "channel",
        "store",
        "Namespace",
        "env",
        "url",
        "file",
        "q",
        "sympathy",
        "recipients",
    ]
)

_interesting_strings = st.sampled_from(
    [
        "/data/a",
        "/data/../etc",
        "rel/a",
        "application/json",
        "https://api.example.com/x",
        "report.txt",
        "#ops",
        "case-notes",
        "prod",
        "2026-07-28",
        "",
        "\u00e9\u00e9",
        "localhost",
    ]
)


def json_values(max_leaves: int = 20) -> st.SearchStrategy[JSON]:
    """Arbitrary serde_json-representable values, biased toward keys and strings the
    constraints read."""
    leaves = st.one_of(_scalars, _interesting_strings)
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(st.one_of(_interesting_keys, st.text(max_size=5)), inner, max_size=4),
        ),
        max_leaves=max_leaves,
    )


path_strings = st.lists(
    st.sampled_from(["a", "ab", "b", ".", "..", "", "C:", "~", " "]), min_size=0, max_size=6
).flatmap(
    lambda segs: st.tuples(st.sampled_from(["", "/", "\\"]), st.sampled_from(["/", "\\"])).map(
        lambda lead_sep: lead_sep[0] + lead_sep[1].join(segs)
    )
)
"""Paths over a tiny segment alphabet including string-prefix names (``a``/``ab``)."""


def decided_constraint_json() -> st.SearchStrategy[JSON]:
    """One of the 8 decided constraints in canonical JSON form."""
    allowed = st.lists(st.sampled_from(["#ops", "case-notes", "prod", "", "a"]), max_size=3)
    return st.one_of(
        st.builds(
            lambda v: {"type": "path_prefix", "value": v},
            st.sampled_from(["/data", "/", "", "rel", "/data/.."]),
        ),
        st.builds(
            lambda v: {"type": "domain_exact", "value": v},
            st.sampled_from(
                ["example.com", "api.example.com", "localhost", "report.txt", " API.example.com."]
            ),
        ),
        st.builds(
            lambda v: {"type": "domain_glob", "value": v},
            # " API.example.com." and "report.txt" also appear as domain_exact values: the
            # same text decides differently as an expected domain and as a glob pattern.
            st.sampled_from(["*.example.com", "*", "api.*", "report.txt", " API.example.com."]),
        ),
        st.builds(lambda v: {"type": "max_length", "value": v}, st.integers(0, 40)),
        st.builds(lambda v: {"type": "max_args_size", "value": v}, st.integers(0, 400)),
        st.builds(
            lambda k, v: {"type": "custom", "value": [k, v]},
            _interesting_keys,
            _interesting_strings,
        ),
        st.builds(lambda v: {"type": "audience_allowlist", "value": v}, allowed),
        st.builds(lambda v: {"type": "memory_store_allowlist", "value": v}, allowed),
    )


_REFUSED_VALUES: list[tuple[str, JSON]] = [
    ("regex_match", ".*"),
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
    ("minimum_runtime_assurance", "basic"),
    ("minimum_autonomy_tier", "direct"),
    ("table_allowlist", ["t"]),
    ("column_denylist", []),
    ("max_rows_returned", 7),
    ("operation_class", "read_write"),
    ("content_review_tier", "none"),
    ("max_transaction_amount_usd", "1.00"),
    ("require_dual_approval", False),
    ("model_constraint", {"allowed_model_ids": []}),
    ("memory_write_deny_patterns", []),
    ("governed_intent_required", None),
]


def refused_constraint_json() -> st.SearchStrategy[tuple[str, JSON]]:
    """``(tag, constraint JSON)`` for one of the 16 refused variants."""
    return st.sampled_from(_REFUSED_VALUES).map(lambda tv: (tv[0], {"type": tv[0], "value": tv[1]}))


def constraint_json() -> st.SearchStrategy[JSON]:
    """Mostly decided constraints, occasionally a refused one."""
    return st.one_of(
        decided_constraint_json(),
        decided_constraint_json(),
        decided_constraint_json(),
        refused_constraint_json().map(lambda tc: tc[1]),
    )


def grant_json(
    constraints: st.SearchStrategy[JSON] | None = None,
) -> st.SearchStrategy[dict[str, JSON]]:
    """A tool grant over a tiny server/tool alphabet so that targets collide often."""
    cons = decided_constraint_json() if constraints is None else constraints
    return st.builds(
        lambda server, tool, ops, cs: {
            "server_id": server,
            "tool_name": tool,
            "operations": ops,
            "constraints": cs,
        },
        st.sampled_from(["*", "files", "mail", "*x"]),
        st.sampled_from(["*", "read", "send"]),
        st.lists(st.sampled_from(["invoke", "read", "get", "delegate"]), max_size=3, unique=True),
        st.lists(cons, max_size=3),
    )
