"""The one-pass scope decoder against the general serde-shaped decoder (SCOPE-SHAPE-*).

:func:`fast_scope` may decline any value (``None``); whenever it answers, the general decoder
must accept the same value and build an equal value (compared by ``==`` and by ``repr``, so
``1`` against ``True`` or a list against a tuple would show), and :func:`decode_scope` must
give the general decoder's outcome, error message included, for every value.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_touchstone.scope import ScopeDecodeError, decode_scope
from mcp_touchstone.scope._decode import _scope
from mcp_touchstone.scope._decode_fast import fast_scope
from mcp_touchstone.serde_json import JSON
from tests.strategies.scope import constraint_json, grant_json, json_values

_REFUSED_CANONICAL: list[JSON] = [
    {"type": "regex_match", "value": ".*"},
    {"type": "seller_exact", "value": "acme"},
    {"type": "max_transaction_amount_usd", "value": "1.00"},
    {"type": "table_allowlist", "value": ["t"]},
    {"type": "column_denylist", "value": []},
    {"type": "memory_write_deny_patterns", "value": ["x"]},
    {"type": "max_rows_returned", "value": 7},
    {"type": "require_dual_approval", "value": False},
    {"type": "operation_class", "value": "admin"},
    {"type": "governed_intent_required"},
    {"type": "governed_intent_required", "value": None},
    {"value": "/data", "type": "path_prefix"},
    ["path_prefix", "/data"],
    {"type": {"max_length": None}, "value": 3},
    {"type": "custom", "value": ["k", "v", "w"]},
    {"type": "max_length", "value": (1 << 64) - 1},
    {"type": "max_length", "value": 1 << 64},
    {"type": "max_length", "value": -1},
    {"type": "max_length", "value": True},
    {"type": "max_length", "value": 3.0},
]
"""Constraint shapes the fast path must either read exactly or leave to the general path."""

_BODY: dict[str, JSON] = {
    "schema": "chio.binding.v1",
    "root_capability_id": "cap-1",
    "root_capability_hash": "h1",
    "root_issuer": "iss",
    "root_subject": "sub",
    "root_scope_hash": "h2",
    "root_grant_hash": "h3",
    "approval_budget_id": "b",
    "approval_budget_epoch": 1,
    "threshold": {"units": 1000, "currency": "USD"},
    "root_expires_at": 1 << 40,
}
_CUMULATIVE: dict[str, JSON] = {
    "threshold": {"currency": "USD", "units": 5000},
    "approval_budget_id": "b-1",
    "approval_budget_epoch": 3,
}
_STRUCT_CANONICAL: list[JSON] = [
    {"type": "require_approval_above", "value": {"threshold_units": 100}},
    {"type": "require_approval_above", "value": {"threshold_units": (1 << 64) - 1}},
    {"value": {"threshold_units": 0}, "type": "require_approval_above"},
    {"type": "require_cumulative_approval_above", "value": _CUMULATIVE},
    {
        "type": "require_cumulative_approval_above",
        "value": {**_CUMULATIVE, "cumulative_approval_root_binding": None},
    },
    {
        "type": "require_cumulative_approval_above",
        "value": {
            **_CUMULATIVE,
            "cumulative_approval_root_binding": {"body": _BODY, "signature": "sig"},
        },
    },
    {
        "type": "require_cumulative_approval_above",
        "value": {
            **_CUMULATIVE,
            "cumulative_approval_root_binding": {
                "algorithm": "p256",
                "body": _BODY,
                "signature": "sig",
            },
        },
    },
    {
        "type": "require_cumulative_approval_above",
        "value": {
            **_CUMULATIVE,
            "cumulative_approval_root_binding": {"body": _BODY, "algorithm": None, "signature": ""},
        },
    },
    {"type": "model_constraint", "value": {"allowed_model_ids": ["m"]}},
    {"type": "model_constraint", "value": {"allowed_model_ids": [], "min_safety_tier": "high"}},
    {"type": "model_constraint", "value": {"allowed_model_ids": ["a"], "min_safety_tier": None}},
    ["governed_intent_required", None],
    ["max_length", 3],
    ["require_approval_above", {"threshold_units": 1}],
    ["model_constraint", {"allowed_model_ids": ["m"]}],
]
"""Struct-content and sequence-form constraints the fast path reads (each must decode on it)."""
_STRUCT_GENERAL: list[JSON] = [
    {"type": "require_cumulative_approval_above", "value": {**_CUMULATIVE, "threshold": [5, "U"]}},
    {
        "type": "model_constraint",
        "value": {"allowed_model_ids": ["m"], "min_safety_tier": {"high": None}},
    },
    {"type": "minimum_runtime_assurance", "value": {"attested": None}},
]
"""Shapes the general decoder accepts that the fast path leaves to it (a struct as an array, a
unit variant as a map)."""

_OPERATION_NAMES = st.sampled_from(
    ["invoke", "read", "read_result", "get", "delegate", "subscribe", "Invoke", ""]
)
_OPERATIONS: st.SearchStrategy[JSON] = st.one_of(
    st.lists(_OPERATION_NAMES, max_size=3),
    st.lists(st.one_of(_OPERATION_NAMES, st.just({"invoke": None}), st.none()), max_size=2),
)
_MONEY: st.SearchStrategy[JSON] = st.one_of(
    st.none(),
    st.just({"units": 5, "currency": "USD"}),
    st.just([5, "USD"]),
    st.just({"units": -1, "currency": "USD"}),
)
_OPTIONAL_FIELDS: st.SearchStrategy[dict[str, JSON]] = st.fixed_dictionaries(
    {},
    optional={
        "max_invocations": st.one_of(
            st.none(), st.integers(-1, (1 << 32)), st.booleans(), st.just(2.0)
        ),
        "max_cost_per_invocation": _MONEY,
        "max_total_cost": _MONEY,
        "dpop_required": st.one_of(st.none(), st.booleans(), st.just(0)),
        "ignored": json_values(4),
    },
)


def _grant() -> st.SearchStrategy[JSON]:
    constraints = st.one_of(
        constraint_json(),
        st.sampled_from(_REFUSED_CANONICAL + _STRUCT_CANONICAL + _STRUCT_GENERAL),
    )
    return st.builds(
        lambda grant, ops, extra: {**grant, "operations": ops, **extra},
        grant_json(constraints),
        _OPERATIONS,
        _OPTIONAL_FIELDS,
    )


def _named(key: str) -> st.SearchStrategy[JSON]:
    return st.lists(
        st.one_of(
            st.builds(lambda n, ops: {key: n, "operations": ops}, st.text(max_size=3), _OPERATIONS),
            st.builds(lambda n, ops: [n, ops], st.text(max_size=3), _OPERATIONS),
        ),
        max_size=2,
    )


_SCOPES: st.SearchStrategy[JSON] = st.builds(
    lambda grants, extra: {**({} if grants is None else {"grants": grants}), **extra},
    st.one_of(st.none(), st.lists(_grant(), max_size=3)),
    st.fixed_dictionaries(
        {},
        optional={
            "resource_grants": _named("uri_pattern"),
            "prompt_grants": _named("prompt_name"),
            "other": json_values(3),
        },
    ),
)
"""Scopes of the shapes the vectors hold, with the optional fields and unusual forms mixed in."""


def _paths(value: JSON, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [here]
    if isinstance(value, dict):
        for key, item in value.items():
            out.extend(_paths(item, (*here, key)))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out.extend(_paths(item, (*here, i)))
    return out


@st.composite
def _malformed(draw: st.DrawFn) -> JSON:
    """A well-shaped scope with one place replaced, dropped or given an extra key."""
    value = copy.deepcopy(draw(_SCOPES))  # sampled constants are shared: never mutate them
    path = draw(st.sampled_from(_paths(value)))
    replacement = draw(json_values(4))
    if not path:
        return replacement
    _corrupt(draw, value, path, replacement, ["type", "value", "x", "grants", "operations"])
    return value


def _corrupt(
    draw: st.DrawFn, value: Any, path: tuple[Any, ...], replacement: JSON, extra_keys: list[str]
) -> None:
    """Replace or drop the place at ``path`` in ``value``, or give its parent one more entry
    (a key from ``extra_keys`` for an object)."""
    parent: Any = value
    for step in path[:-1]:
        parent = parent[step]
    action = draw(st.sampled_from(["replace", "drop", "extra"]))
    if action == "replace":
        parent[path[-1]] = replacement
    elif action == "drop":
        del parent[path[-1]]
    elif isinstance(parent, dict):
        parent[draw(st.sampled_from(extra_keys))] = replacement
    else:
        parent.append(replacement)


def _general(value: JSON) -> tuple[str, object]:
    try:
        return ("ok", _scope(value, "scope"))
    except ScopeDecodeError as exc:
        return ("error", str(exc))


def _check(value: JSON) -> bool:
    general = _general(value)
    fast = fast_scope(value)
    if fast is not None:
        assert general[0] == "ok", (value, general)
        assert fast == general[1]
        assert repr(fast) == repr(general[1])
    try:
        outcome: tuple[str, object] = ("ok", decode_scope(value, "scope"))
    except ScopeDecodeError as exc:
        outcome = ("error", str(exc))
    assert outcome == general
    assert repr(outcome) == repr(general)
    return fast is not None


@settings(max_examples=300)
@given(_SCOPES)
def test_fast_path_equals_general_on_scope_shapes(value: JSON) -> None:
    """On scope-shaped values (optional fields, odd forms and bad fields mixed in) the fast
    path answers only what the general decoder answers, and decode_scope equals it."""
    _check(value)


@settings(max_examples=300)
@given(_malformed())
def test_fast_path_equals_general_on_malformed_scopes(value: JSON) -> None:
    """A scope with one place replaced, dropped or extended: the same outcome and message."""
    _check(value)


@given(json_values())
def test_fast_path_equals_general_on_any_value(value: JSON) -> None:
    """Arbitrary JSON values (nearly all refused): the same outcome and message."""
    _check(value)


@given(st.lists(grant_json(), max_size=4))
def test_fast_path_reads_the_common_shapes(grants: list[JSON]) -> None:
    """Non-vacuity: scopes of decided constraints (the common case) take the fast path."""
    assert _check({"grants": grants})


def test_fast_path_reads_struct_content_and_sequence_forms() -> None:
    """Non-vacuity: every struct-content and sequence-form constraint of the list takes the fast
    path and decodes to the general decoder's value; the general-only forms are declined."""
    for constraint in _STRUCT_CANONICAL:
        value: JSON = {
            "grants": [
                {
                    "server_id": "s",
                    "tool_name": "t",
                    "operations": ["invoke"],
                    "constraints": [constraint],
                }
            ]
        }
        assert _check(value), constraint
    for constraint in _STRUCT_GENERAL:
        value = {
            "grants": [
                {
                    "server_id": "s",
                    "tool_name": "t",
                    "operations": ["invoke"],
                    "constraints": [constraint],
                }
            ]
        }
        assert not _check(value), constraint
        assert _general(value)[0] == "ok", constraint


@st.composite
def _malformed_constraint(draw: st.DrawFn, constraint: JSON) -> JSON:
    value = copy.deepcopy(constraint)
    path = draw(st.sampled_from(_paths(value)[1:]))
    replacement = draw(
        st.one_of(
            json_values(3),
            st.sampled_from([-1, 1 << 64, (1 << 64) - 1, True, 2.0, "p384", "x", None, {}]),
        )
    )
    _corrupt(draw, value, path, replacement, ["x", "algorithm", "units", "body", "value"])
    return {
        "grants": [
            {"server_id": "s", "tool_name": "t", "operations": ["invoke"], "constraints": [value]}
        ]
    }


@settings(max_examples=300)
@given(st.sampled_from(_STRUCT_CANONICAL).flatmap(_malformed_constraint))
def test_fast_path_equals_general_on_malformed_struct_content(value: JSON) -> None:
    """A struct-content constraint with one place replaced, dropped or given an extra key (an
    unknown key, a wrong type, a bound crossed): the same outcome and message on both paths."""
    _check(value)
