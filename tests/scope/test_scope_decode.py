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


def test_decode_refusals_are_worded_exactly() -> None:
    """SCOPE-SHAPE-3: serde's whole messages for an unknown operation (the expected names joined
    by ``, ``) and for a value given to the unit variant ``governed_intent_required``."""
    with pytest.raises(ScopeDecodeError) as exc:
        decode_scope({"grants": [{"server_id": "s", "tool_name": "t", "operations": ["exec"]}]})
    assert str(exc.value) == (
        "scope.grants[0].operations[0]: unknown variant `exec`, expected one of `invoke`, "
        "`read_result`, `read`, `subscribe`, `get`, `delegate`"
    )
    with pytest.raises(ScopeDecodeError) as exc:
        decode_constraint({"type": "governed_intent_required", "value": 5})
    assert str(exc.value) == (
        "constraint.value: invalid type: integer `5`, expected unit variant "
        "Constraint::GovernedIntentRequired"
    )


def _grant_with(**fields: JSON) -> JSON:
    return {"grants": [{"server_id": "s", "tool_name": "t", "operations": ["invoke"], **fields}]}


def test_custom_constraint_needs_two_strings() -> None:
    """SCOPE-SHAPE-8: ``custom`` is serde's ``Custom(String, String)``, so a number in either
    place of the pair is refused at that place."""
    cases: list[tuple[JSON, int]] = [([5, "v"], 0), (["k", 5], 1)]
    for item, where in cases:
        with pytest.raises(ScopeDecodeError) as exc:
            decode_scope(_grant_with(constraints=[{"type": "custom", "value": item}]))
        assert str(exc.value) == (
            f"scope.grants[0].constraints[0].value[{where}]: invalid type: integer `5`, "
            "expected a string"
        )
    got = decode_scope(_grant_with(constraints=[{"type": "custom", "value": ["k", "v"]}]))
    assert got.grants[0].constraints == (types.Custom("k", "v"),)


def test_boolean_fields_are_kept_as_written() -> None:
    """SCOPE-SHAPE-5: ``require_dual_approval``'s ``required`` and a grant's ``dpop_required``
    decode to the boolean written, beside a monetary amount."""
    for flag in (True, False):
        value = _grant_with(
            constraints=[{"type": "require_dual_approval", "value": flag}],
            max_total_cost={"units": 5, "currency": "USD"},
            dpop_required=flag,
        )
        grant = decode_scope(value).grants[0]
        assert grant.constraints == (types.RequireDualApproval(flag),)
        assert repr(grant.constraints[0]) == f"RequireDualApproval(required={flag})"
        assert grant.dpop_required is flag
        assert grant.max_total_cost == MonetaryAmount(5, "USD")


# (tag, content, the constraint Chio's serde builds from it): every variant whose content is a
# string, an integer, a boolean, null, a tier or class named as a string, or a string list, in
# chio.md's table order; the tiers with each of their names.
_PLAIN_CONTENTS: list[tuple[str, JSON, types.Constraint]] = [
    ("path_prefix", "/srv/data", types.PathPrefix("/srv/data")),
    ("domain_exact", "api.example.com", types.DomainExact("api.example.com")),
    ("domain_glob", "*.example.com", types.DomainGlob("*.example.com")),
    ("regex_match", "^a+$", types.RegexMatch("^a+$")),
    ("max_length", 3, types.MaxLength(3)),
    ("max_args_size", 0, types.MaxArgsSize(0)),
    ("governed_intent_required", None, types.GovernedIntentRequired()),
    ("seller_exact", "acme", types.SellerExact("acme")),
    *(
        ("minimum_runtime_assurance", tier.value, types.MinimumRuntimeAssurance(tier))
        for tier in types.RuntimeAssuranceTier
    ),
    *(
        ("minimum_autonomy_tier", tier.value, types.MinimumAutonomyTier(tier))
        for tier in types.GovernedAutonomyTier
    ),
    ("custom", ["region", "eu"], types.Custom("region", "eu")),
    ("table_allowlist", ["users"], types.TableAllowlist(("users",))),
    ("column_denylist", ["users.ssn"], types.ColumnDenylist(("users.ssn",))),
    ("max_rows_returned", 100, types.MaxRowsReturned(100)),
    *(
        ("operation_class", kind.value, types.OperationClass(kind))
        for kind in types.SqlOperationClass
    ),
    ("audience_allowlist", ["ops"], types.AudienceAllowlist(("ops",))),
    *(
        ("content_review_tier", tier.value, types.ContentReviewTier(tier))
        for tier in types.ReviewTier
    ),
    ("max_transaction_amount_usd", "100.00", types.MaxTransactionAmountUsd("100.00")),
    ("require_dual_approval", True, types.RequireDualApproval(True)),
    ("require_dual_approval", False, types.RequireDualApproval(False)),
    ("memory_store_allowlist", ["notes"], types.MemoryStoreAllowlist(("notes",))),
    ("memory_write_deny_patterns", ["^secret"], types.MemoryWriteDenyPatterns(("^secret",))),
]


def test_every_plain_content_variant_decodes_to_chios_value() -> None:
    """SCOPE-SHAPE-5: the plain ``{"type", "value"}`` form of each of the 21 variants whose
    content is not a struct, every tier name included, decodes to the value Chio's serde
    builds."""
    tags = {tag for tag, _, _ in _PLAIN_CONTENTS}
    assert len(tags) == 21
    assert len(_PLAIN_CONTENTS) == 31
    for tag, content, expected in _PLAIN_CONTENTS:
        decoded = decode_scope(_grant_with(constraints=[{"type": tag, "value": content}]))
        assert decoded.grants[0].constraints == (expected,), (tag, content)
        assert repr(decoded.grants[0].constraints[0]) == repr(expected), (tag, content)


def test_integer_contents_decode_at_their_bounds() -> None:
    """SCOPE-SHAPE-5: ``max_length`` and ``max_args_size`` (usize) and ``max_rows_returned``
    (u64) decode at 0 and at their maximum, and one past either end is refused."""
    from mcp_touchstone._rust import U64_MAX, USIZE_MAX

    for tag, make, top in (
        ("max_length", types.MaxLength, USIZE_MAX),
        ("max_args_size", types.MaxArgsSize, USIZE_MAX),
        ("max_rows_returned", types.MaxRowsReturned, U64_MAX),
    ):
        for content in (0, top):
            decoded = decode_scope(_grant_with(constraints=[{"type": tag, "value": content}]))
            assert decoded.grants[0].constraints == (make(content),), (tag, content)
        for outside in (-1, top + 1):
            with pytest.raises(ScopeDecodeError):
                decode_scope(_grant_with(constraints=[{"type": tag, "value": outside}]))


@pytest.mark.parametrize("count", [0, 1, (1 << 32) - 1])
def test_every_u32_invocation_count_decodes(count: int) -> None:
    """SCOPE-SHAPE-2: ``max_invocations`` is a ``u32``, read over its whole range."""
    decoded = decode_scope(_grant_with(max_invocations=count))
    assert decoded.grants[0].max_invocations == count
    with pytest.raises(ScopeDecodeError):
        decode_scope(_grant_with(max_invocations=1 << 32))


def _cumulative_body() -> dict[str, JSON]:
    return {
        "schema": "chio.cumulative-approval-root.v1",
        "root_capability_id": "cap-1",
        "root_capability_hash": "00",
        "root_issuer": "aa",
        "root_subject": "bb",
        "root_scope_hash": "cc",
        "root_grant_hash": "dd",
        "approval_budget_id": "b",
        "approval_budget_epoch": 1,
        "threshold": {"units": 1000, "currency": "USD"},
        "root_expires_at": 1900000000,
    }


def _cumulative(binding: dict[str, JSON]) -> dict[str, JSON]:
    return {
        "threshold": {"units": 1000, "currency": "USD"},
        "approval_budget_id": "b",
        "approval_budget_epoch": 1,
        "cumulative_approval_root_binding": binding,
    }


def test_unit_enum_refusals_inside_struct_fields_name_their_type() -> None:
    """SCOPE-SHAPE-6: a root binding's ``algorithm`` and a model constraint's
    ``min_safety_tier`` given a number are refused naming their enum."""
    binding: dict[str, JSON] = {"body": _cumulative_body(), "algorithm": 5, "signature": "ee"}
    cumulative: JSON = {"type": "require_cumulative_approval_above", "value": _cumulative(binding)}
    model: JSON = {
        "type": "model_constraint",
        "value": {"allowed_model_ids": ["m"], "min_safety_tier": 5},
    }
    cases = [
        (
            cumulative,
            "value.cumulative_approval_root_binding.algorithm: invalid type: integer `5`, "
            "expected string or map (SigningAlgorithm)",
        ),
        (
            model,
            "value.min_safety_tier: invalid type: integer `5`, expected string or map "
            "(ModelSafetyTier)",
        ),
    ]
    for constraint, message in cases:
        with pytest.raises(ScopeDecodeError) as exc:
            decode_constraint(constraint)
        assert str(exc.value) == f"constraint.{message}"
        with pytest.raises(ScopeDecodeError) as exc:
            decode_scope(_grant_with(constraints=[constraint]))
        assert str(exc.value) == f"scope.grants[0].constraints[0].{message}"


def test_root_binding_rejects_an_unknown_key() -> None:
    """SCOPE-SHAPE-6: a complete root binding carrying a key it does not declare is refused at
    the binding (Chio's ``deny_unknown_fields``)."""
    binding: dict[str, JSON] = {"body": _cumulative_body(), "signature": "ee"}
    constraint: JSON = {"type": "require_cumulative_approval_above", "value": _cumulative(binding)}
    decoded = decode_constraint(constraint)
    assert isinstance(decoded, types.RequireCumulativeApprovalAbove)
    binding["x"] = 1
    with pytest.raises(ScopeDecodeError) as exc:
        decode_constraint(constraint)
    assert exc.value.where == "constraint.value.cumulative_approval_root_binding"
    assert exc.value.problem.startswith("unknown field `x`, expected ")


def test_a_denied_field_of_a_wide_struct_lists_one_of_the_fields() -> None:
    """SCOPE-SHAPE-6: serde words a denied field of a struct of three or more fields
    ``expected one of `a`, `b`, `c```."""
    binding: dict[str, JSON] = {"body": {}, "signature": "ee", "x": 1}
    value = _cumulative(binding)
    constraint: JSON = {"type": "require_cumulative_approval_above", "value": value}
    with pytest.raises(ScopeDecodeError) as exc:
        decode_constraint(constraint)
    assert exc.value.problem == (
        "unknown field `x`, expected one of `body`, `algorithm`, `signature`"
    )
    del binding["x"]
    value["y"] = 2
    with pytest.raises(ScopeDecodeError) as exc:
        decode_constraint(constraint)
    assert str(exc.value) == (
        "constraint.value: unknown field `y`, expected one of `threshold`, `approval_budget_id`, "
        "`approval_budget_epoch`, `cumulative_approval_root_binding`"
    )


def test_a_constraint_without_type_is_missing_field_type() -> None:
    """SCOPE-SHAPE-4: an adjacently tagged constraint map without its tag is refused with
    serde's exact ``missing field `type```."""
    untagged: list[JSON] = [{"value": "/data"}, {}]
    for constraint in untagged:
        with pytest.raises(ScopeDecodeError) as exc:
            decode_constraint(constraint)
        assert str(exc.value) == "constraint: missing field `type`"
        with pytest.raises(ScopeDecodeError) as exc:
            decode_scope(_grant_with(constraints=[constraint]))
        assert str(exc.value) == "scope.grants[0].constraints[0]: missing field `type`"


@pytest.mark.parametrize("value", [5, "max_length", None, True])
def test_a_constraint_that_is_neither_map_nor_array_names_serdes_expectation(
    value: object,
) -> None:
    """SCOPE-SHAPE-4: a constraint written as a scalar is refused with serde's invalid-type
    message for an adjacently tagged enum."""
    with pytest.raises(ScopeDecodeError) as exc:
        decode_constraint(value)  # type: ignore[arg-type]  # the bad input under test
    assert str(exc.value).endswith(", expected adjacently tagged enum Constraint")
    assert str(exc.value).startswith("constraint: invalid type: ")


def test_resource_and_prompt_grants_ignore_unknown_keys() -> None:
    """SCOPE-SHAPE-2: neither ``ResourceGrant`` nor ``PromptGrant`` denies unknown fields."""
    decoded = decode_scope(
        {
            "resource_grants": [{"uri_pattern": "file:///*", "operations": ["read"], "x": 1}],
            "prompt_grants": [{"prompt_name": "p", "operations": ["get"], "note": "n"}],
        }
    )
    assert decoded.resource_grants == (types.ResourceGrant("file:///*", (Operation.READ,)),)
    assert decoded.prompt_grants == (types.PromptGrant("p", (Operation.GET,)),)


_SINGLE_KEY_REFUSAL = "invalid value: map, expected map with a single key"


@pytest.mark.parametrize(
    "value",
    [
        {"type": "minimum_runtime_assurance", "value": {}},
        {"type": "operation_class", "value": {"read": None, "admin": None}},
    ],
)
def test_a_tier_written_as_a_map_needs_exactly_one_key(value: JSON) -> None:
    """SCOPE-SHAPE-5: a unit variant written as a map of zero or two keys is serde's single-key
    refusal at its place."""
    with pytest.raises(ScopeDecodeError) as caught:
        decode_constraint(value)
    assert str(caught.value) == f"constraint.value: {_SINGLE_KEY_REFUSAL}"


def test_an_operation_written_as_an_empty_map_needs_exactly_one_key() -> None:
    """SCOPE-SHAPE-3: a grant's operation written as ``{}`` is serde's single-key refusal at the
    operation's place."""
    value: JSON = {"grants": [{"server_id": "s", "tool_name": "t", "operations": [{}]}]}
    with pytest.raises(ScopeDecodeError) as caught:
        decode_scope(value)
    assert str(caught.value) == f"scope.grants[0].operations[0]: {_SINGLE_KEY_REFUSAL}"
