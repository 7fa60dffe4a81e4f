"""Decoding Chio's JSON shapes into the frozen types, and the API's typed errors."""

from __future__ import annotations

import pytest

from mcp_touchstone.scope import (
    DECIDED_KINDS,
    REFUSED_KINDS,
    ChioScope,
    ConstraintError,
    ConstraintKind,
    InvalidArgumentsError,
    MonetaryAmount,
    Operation,
    ScopeDecodeError,
    ToolGrant,
    constraint_name,
    decode_constraint,
    decode_scope,
    resolve_capability_grants,
    resolve_matching_grants,
)
from mcp_touchstone.scope import _types as types
from mcp_touchstone.scope._decode import _CONTENT
from mcp_touchstone.serde_json import JSON

_CANONICAL: dict[str, JSON] = {
    "path_prefix": "/data",
    "domain_exact": "example.com",
    "domain_glob": "*.example.com",
    "regex_match": ".*",
    "max_length": 3,
    "max_args_size": 100,
    "require_approval_above": {"threshold_units": 5},
    "require_cumulative_approval_above": {
        "threshold": {"units": 1, "currency": "USD"},
        "approval_budget_id": "b",
        "approval_budget_epoch": 0,
    },
    "seller_exact": "acme",
    "minimum_runtime_assurance": "verified",
    "minimum_autonomy_tier": "autonomous",
    "custom": ["k", "v"],
    "table_allowlist": ["t"],
    "column_denylist": ["t.c"],
    "max_rows_returned": 10,
    "operation_class": "admin",
    "audience_allowlist": ["#ops"],
    "content_review_tier": "basic",
    "max_transaction_amount_usd": "1.00",
    "require_dual_approval": True,
    "model_constraint": {"allowed_model_ids": ["m"], "min_safety_tier": "restricted"},
    "memory_store_allowlist": ["s"],
    "memory_write_deny_patterns": ["x"],
}


def test_variant_classification_is_exhaustive() -> None:
    """24 variants: 8 decided and 16 refused, disjoint and covering (SCOPE-CON-1, SCOPE-CON-3)."""
    assert len(ConstraintKind) == 24
    assert len(DECIDED_KINDS) == 8
    assert len(REFUSED_KINDS) == 16
    assert DECIDED_KINDS.isdisjoint(REFUSED_KINDS)
    assert frozenset(ConstraintKind) == DECIDED_KINDS | REFUSED_KINDS
    assert set(_CONTENT) == set(ConstraintKind)
    classes = [c for c in vars(types).values() if isinstance(c, type) and hasattr(c, "KIND")]
    assert sorted(c.KIND.value for c in classes) == sorted(k.value for k in ConstraintKind)


@pytest.mark.parametrize("kind", list(ConstraintKind), ids=[k.value for k in ConstraintKind])
def test_every_variant_decodes_and_is_named(kind: ConstraintKind) -> None:
    """Each tag decodes canonically and constraint_name returns it (SCOPE-SHAPE-4, SCOPE-CON-2)."""
    raw: dict[str, JSON] = {"type": kind.value}
    if kind is not ConstraintKind.GOVERNED_INTENT_REQUIRED:
        raw["value"] = _CANONICAL[kind.value]
    constraint = decode_constraint(raw)
    assert type(constraint).KIND is kind
    assert constraint_name(constraint) == kind.value


_REFUSED_SORTED = sorted(REFUSED_KINDS, key=lambda k: str(k.value))


@pytest.mark.parametrize("kind", _REFUSED_SORTED, ids=[k.value for k in _REFUSED_SORTED])
def test_refused_variants_refuse_with_exact_message(kind: ConstraintKind) -> None:
    """A refused variant on the target grant yields the exact refusal message (SCOPE-CON-2)."""
    raw: dict[str, JSON] = {"type": kind.value}
    if kind is not ConstraintKind.GOVERNED_INTENT_REQUIRED:
        raw["value"] = _CANONICAL[kind.value]
    s = decode_scope(
        {
            "grants": [
                {"server_id": "*", "tool_name": "*", "operations": ["invoke"], "constraints": [raw]}
            ]
        }
    )
    result = resolve_matching_grants(s, "t", "s", {"anything": ["goes", 1]})
    assert result == ConstraintError(f"portable kernel cannot safely evaluate {kind.value}")


def test_decode_builds_frozen_types() -> None:
    """A grant decodes into the frozen dataclasses with defaults filled (SCOPE-SHAPE-2)."""
    s = decode_scope(
        {
            "grants": [
                {
                    "server_id": "files",
                    "tool_name": "read",
                    "operations": ["invoke", "read_result"],
                    "max_cost_per_invocation": [5, "USD"],
                    "ignored": True,
                }
            ]
        }
    )
    assert s == ChioScope(
        grants=(
            ToolGrant(
                server_id="files",
                tool_name="read",
                operations=(Operation.INVOKE, Operation.READ_RESULT),
                max_cost_per_invocation=MonetaryAmount(5, "USD"),
            ),
        )
    )
    with pytest.raises(AttributeError):
        s.grants[0].server_id = "x"  # type: ignore[misc]  # frozen: the assignment must fail


@pytest.mark.parametrize(
    ("raw", "where"),
    [
        (
            {"grants": [{"server_id": "f", "tool_name": "t", "operations": ["Invoke"]}]},
            "scope.grants[0].operations[0]",
        ),
        ({"grants": [{"server_id": "f", "tool_name": "t"}]}, "scope.grants[0]"),
        (
            {
                "grants": [
                    {
                        "server_id": "f",
                        "tool_name": "t",
                        "operations": [],
                        "constraints": [{"type": "max_length", "value": 1.5}],
                    }
                ]
            },
            "scope.grants[0].constraints[0].value",
        ),
        (
            {
                "grants": [
                    {
                        "server_id": "f",
                        "tool_name": "t",
                        "operations": [],
                        "max_total_cost": {"units": 1, "currency": "USD", "x": 1},
                    }
                ]
            },
            "scope.grants[0].max_total_cost",
        ),
        ({"grants": None}, "scope.grants"),
    ],
)
def test_decode_errors_name_the_place(raw: JSON, where: str) -> None:
    """A decode failure is a ScopeDecodeError naming the offending place (SCOPE-WIRE-2)."""
    with pytest.raises(ScopeDecodeError) as info:
        decode_scope(raw)
    assert info.value.where == where
    assert str(info.value).startswith(where + ": ")


def test_constraint_key_order_and_array_form_are_equivalent() -> None:
    """value-first, type-first and [tag, value] decode alike (SCOPE-SHAPE-4)."""
    a = decode_constraint({"type": "custom", "value": ["k", "v"]})
    b = decode_constraint({"value": ["k", "v"], "type": "custom"})
    c = decode_constraint(["custom", ["k", "v"]])
    assert a == b == c == types.Custom("k", "v")


def test_unit_enum_single_key_map() -> None:
    """serde reads a unit enum from {"name": null} as well as "name" (SCOPE-SHAPE-3)."""
    s = decode_scope(
        {"grants": [{"server_id": "f", "tool_name": "t", "operations": [{"delegate": None}]}]}
    )
    assert s.grants[0].operations == (Operation.DELEGATE,)


def test_invalid_arguments_raise_typed_error() -> None:
    """Arguments serde_json could not hold raise InvalidArgumentsError (SCOPE-WIRE-2)."""
    with pytest.raises(InvalidArgumentsError, match="non-finite"):
        resolve_matching_grants(ChioScope(), "t", "s", {"x": float("nan")})
    with pytest.raises(InvalidArgumentsError, match="out of i64/u64 range"):
        resolve_capability_grants(ChioScope(), "t", "s", [1 << 70])


def test_matched_grant_borrows_the_grant() -> None:
    """MatchedGrant carries the very grant object, index and specificity (SCOPE-RANK-1)."""
    s = decode_scope({"grants": [{"server_id": "*", "tool_name": "t", "operations": ["invoke"]}]})
    result = resolve_matching_grants(s, "t", "s", None)
    assert isinstance(result, tuple)
    (m,) = result
    assert m.grant is s.grants[0]
    assert (m.index, m.specificity) == (0, (0, 1, 0))
