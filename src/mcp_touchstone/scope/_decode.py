"""Decode a parsed JSON value into a :class:`ChioScope` as Chio's serde derives do.

Rules ``SCOPE-SHAPE-*`` in ``spec/scope.md``.  This is a hand-written boundary decoder
rather than a pydantic model because serde's derived decoders accept shapes pydantic cannot
express exactly: structs written as positional arrays (``[grants, resource_grants, ...]``),
adjacently tagged enums whose ``type``/``value`` keys come in any order or as a two-element
array, unit enums written as a single-key map (``{"invoke": null}``), and per-type unknown-key
policies.  Every failure raises :class:`ScopeDecodeError` naming the offending place.

One decoder per Chio type, mirroring the type list of ``_types``, assembled from the serde
forms of :mod:`._decode_forms` (whose wording comes from :mod:`mcp_touchstone._serde`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from mcp_touchstone.scope._decode_forms import (
    OPTIONAL,
    REQUIRED,
    ScopeDecodeError,
    Where,
    bool_,
    invalid_type_error,
    option,
    record,
    seq,
    string,
    struct_variant,
    u32,
    u64,
    unit_enum,
    usize,
)
from mcp_touchstone.scope._types import (
    AudienceAllowlist,
    ChioScope,
    ColumnDenylist,
    Constraint,
    ConstraintKind,
    ContentReviewTier,
    CumulativeApprovalRootBinding,
    CumulativeApprovalRootBindingBody,
    Custom,
    DomainExact,
    DomainGlob,
    GovernedAutonomyTier,
    GovernedIntentRequired,
    MaxArgsSize,
    MaxLength,
    MaxRowsReturned,
    MaxTransactionAmountUsd,
    MemoryStoreAllowlist,
    MemoryWriteDenyPatterns,
    MinimumAutonomyTier,
    MinimumRuntimeAssurance,
    ModelConstraint,
    ModelSafetyTier,
    MonetaryAmount,
    Operation,
    OperationClass,
    PathPrefix,
    PromptGrant,
    RegexMatch,
    RequireApprovalAbove,
    RequireCumulativeApprovalAbove,
    RequireDualApproval,
    ResourceGrant,
    ReviewTier,
    RuntimeAssuranceTier,
    SellerExact,
    SigningAlgorithm,
    SqlOperationClass,
    TableAllowlist,
    ToolGrant,
)
from mcp_touchstone.serde_json import JSON

__all__ = [
    "ScopeDecodeError",
    "decode_constraint",
    "decode_scope",
    "decode_tool_grant",
]

_operations = seq(unit_enum(Operation, "Operation"))

_monetary = record(
    MonetaryAmount,
    [("units", u64, REQUIRED), ("currency", string, REQUIRED)],
    deny_unknown=True,
)


_binding_body = record(
    CumulativeApprovalRootBindingBody,
    [
        ("schema", string, REQUIRED),
        ("root_capability_id", string, REQUIRED),
        ("root_capability_hash", string, REQUIRED),
        ("root_issuer", string, REQUIRED),
        ("root_subject", string, REQUIRED),
        ("root_scope_hash", string, REQUIRED),
        ("root_grant_hash", string, REQUIRED),
        ("approval_budget_id", string, REQUIRED),
        ("approval_budget_epoch", u64, REQUIRED),
        ("threshold", _monetary, REQUIRED),
        ("root_expires_at", u64, REQUIRED),
    ],
    deny_unknown=True,
)


_binding = record(
    CumulativeApprovalRootBinding,
    [
        ("body", _binding_body, REQUIRED),
        ("algorithm", option(unit_enum(SigningAlgorithm, "SigningAlgorithm")), None),
        ("signature", string, REQUIRED),
    ],
    deny_unknown=True,
)


# --------------------------------------------------------------------------- constraints


_approval_fields = struct_variant(
    "Constraint::RequireApprovalAbove", [("threshold_units", u64, REQUIRED)]
)
_cumulative_fields = struct_variant(
    "Constraint::RequireCumulativeApprovalAbove",
    [
        ("threshold", _monetary, REQUIRED),
        ("approval_budget_id", string, REQUIRED),
        ("approval_budget_epoch", u64, REQUIRED),
        ("cumulative_approval_root_binding", option(_binding), None),
    ],
)
_model_fields = struct_variant(
    "Constraint::ModelConstraint",
    [
        ("allowed_model_ids", seq(string), REQUIRED),
        ("min_safety_tier", option(unit_enum(ModelSafetyTier, "ModelSafetyTier")), OPTIONAL),
    ],
)
_strings = seq(string)
_runtime_tier = unit_enum(RuntimeAssuranceTier, "RuntimeAssuranceTier")
_autonomy_tier = unit_enum(GovernedAutonomyTier, "GovernedAutonomyTier")
_sql_class = unit_enum(SqlOperationClass, "SqlOperationClass")
_review_tier = unit_enum(ReviewTier, "ContentReviewTier")


def _custom(value: JSON, where: Where) -> Custom:
    if not isinstance(value, list):
        raise invalid_type_error(where, value, "tuple variant Constraint::Custom")
    if len(value) < 2:
        raise ScopeDecodeError(
            where,
            f"invalid length {len(value)}, expected tuple variant Constraint::Custom "
            "with 2 elements",
        )
    if len(value) > 2:
        raise ScopeDecodeError(where, f"invalid length {len(value)}, expected 2 elements")
    return Custom(string(value[0], (where, 0)), string(value[1], (where, 1)))


def _unit_content(value: JSON, where: Where) -> GovernedIntentRequired:
    if value is not None:
        raise invalid_type_error(where, value, "unit variant Constraint::GovernedIntentRequired")
    return GovernedIntentRequired()


_CONTENT: Final[dict[ConstraintKind, Callable[[JSON, Where], Constraint]]] = {
    ConstraintKind.PATH_PREFIX: lambda v, w: PathPrefix(string(v, w)),
    ConstraintKind.DOMAIN_EXACT: lambda v, w: DomainExact(string(v, w)),
    ConstraintKind.DOMAIN_GLOB: lambda v, w: DomainGlob(string(v, w)),
    ConstraintKind.REGEX_MATCH: lambda v, w: RegexMatch(string(v, w)),
    ConstraintKind.MAX_LENGTH: lambda v, w: MaxLength(usize(v, w)),
    ConstraintKind.MAX_ARGS_SIZE: lambda v, w: MaxArgsSize(usize(v, w)),
    ConstraintKind.GOVERNED_INTENT_REQUIRED: _unit_content,
    ConstraintKind.REQUIRE_APPROVAL_ABOVE: lambda v, w: RequireApprovalAbove(
        **_approval_fields(v, w)
    ),
    ConstraintKind.REQUIRE_CUMULATIVE_APPROVAL_ABOVE: lambda v, w: RequireCumulativeApprovalAbove(
        **_cumulative_fields(v, w)
    ),
    ConstraintKind.SELLER_EXACT: lambda v, w: SellerExact(string(v, w)),
    ConstraintKind.MINIMUM_RUNTIME_ASSURANCE: lambda v, w: MinimumRuntimeAssurance(
        _runtime_tier(v, w)
    ),
    ConstraintKind.MINIMUM_AUTONOMY_TIER: lambda v, w: MinimumAutonomyTier(_autonomy_tier(v, w)),
    ConstraintKind.CUSTOM: _custom,
    ConstraintKind.TABLE_ALLOWLIST: lambda v, w: TableAllowlist(_strings(v, w)),
    ConstraintKind.COLUMN_DENYLIST: lambda v, w: ColumnDenylist(_strings(v, w)),
    ConstraintKind.MAX_ROWS_RETURNED: lambda v, w: MaxRowsReturned(u64(v, w)),
    ConstraintKind.OPERATION_CLASS: lambda v, w: OperationClass(_sql_class(v, w)),
    ConstraintKind.AUDIENCE_ALLOWLIST: lambda v, w: AudienceAllowlist(_strings(v, w)),
    ConstraintKind.CONTENT_REVIEW_TIER: lambda v, w: ContentReviewTier(_review_tier(v, w)),
    ConstraintKind.MAX_TRANSACTION_AMOUNT_USD: lambda v, w: MaxTransactionAmountUsd(string(v, w)),
    ConstraintKind.REQUIRE_DUAL_APPROVAL: lambda v, w: RequireDualApproval(bool_(v, w)),
    ConstraintKind.MODEL_CONSTRAINT: lambda v, w: ModelConstraint(**_model_fields(v, w)),
    ConstraintKind.MEMORY_STORE_ALLOWLIST: lambda v, w: MemoryStoreAllowlist(_strings(v, w)),
    ConstraintKind.MEMORY_WRITE_DENY_PATTERNS: lambda v, w: MemoryWriteDenyPatterns(_strings(v, w)),
}
_CONTENT_BY_TAG: Final = {kind.value: _CONTENT[kind] for kind in ConstraintKind}
"""``_CONTENT`` keyed by the tag text a scope spells (``"path_prefix"``)."""
_TAG_LIST: Final = ", ".join(f"`{kind.value}`" for kind in ConstraintKind)


def _tag(value: JSON, where: Where, *, as_enum: bool) -> str:
    """The variant named by a tag, as its tag text.  In the map form serde reads the tag as a
    unit enum (``deserialize_enum``), so ``{"max_length": null}`` names a variant as well as
    ``"max_length"``; in the array form it is a bare identifier (a string only)."""
    content: JSON = None
    if as_enum and isinstance(value, dict):
        if len(value) != 1:
            raise ScopeDecodeError(where, "invalid value: map, expected map with a single key")
        ((name, content),) = value.items()
    elif isinstance(value, str):
        name = value
    else:
        expected = "string or map" if as_enum else "variant identifier"
        raise invalid_type_error(where, value, expected)
    if name not in _CONTENT_BY_TAG:
        raise ScopeDecodeError(where, f"unknown variant `{name}`, expected one of {_TAG_LIST}")
    if content is not None:
        raise invalid_type_error((where, f".{name}"), content, "unit")
    return name


def decode_constraint(value: JSON, where: Where = "constraint") -> Constraint:
    """Decode one adjacently tagged ``{"type": ..., "value": ...}`` constraint (SCOPE-SHAPE-4).

    Keys may come in any order and any other key is rejected.  The two-element array form
    ``[tag, content]`` is accepted too.  In the map form the tag may also be a single-key
    map with a null value, since serde reads it with ``deserialize_enum``.  The unit variant
    ``governed_intent_required`` takes no ``value`` or ``null``.
    Raises :class:`ScopeDecodeError`.
    """
    if isinstance(value, dict):
        for key in value:
            if key not in ("type", "value"):
                raise ScopeDecodeError(
                    where, f'invalid value: string "{key}", expected "type" or "value"'
                )
        if "type" not in value:
            raise ScopeDecodeError(where, "missing field `type`")
        tag = _tag(value["type"], (where, ".type"), as_enum=True)
        if "value" not in value:
            if tag == "governed_intent_required":
                return GovernedIntentRequired()
            raise ScopeDecodeError(where, "missing field `value`")
        return _CONTENT_BY_TAG[tag](value["value"], (where, ".value"))
    if isinstance(value, list):
        if not value:
            raise ScopeDecodeError(
                where, "invalid length 0, expected adjacently tagged enum Constraint"
            )
        tag = _tag(value[0], (where, 0), as_enum=False)
        if len(value) < 2:
            raise ScopeDecodeError(
                where, "invalid length 1, expected adjacently tagged enum Constraint"
            )
        if len(value) > 2:
            raise ScopeDecodeError(
                where, f"invalid length {len(value)}, expected fewer elements in array"
            )
        return _CONTENT_BY_TAG[tag](value[1], (where, 1))
    raise invalid_type_error(where, value, "adjacently tagged enum Constraint")


# --------------------------------------------------------------------------- grants

_constraints = seq(decode_constraint)

_tool_grant = record(
    ToolGrant,
    [
        ("server_id", string, REQUIRED),
        ("tool_name", string, REQUIRED),
        ("operations", _operations, REQUIRED),
        ("constraints", _constraints, ()),
        ("max_invocations", option(u32), None),
        ("max_cost_per_invocation", option(_monetary), None),
        ("max_total_cost", option(_monetary), None),
        ("dpop_required", option(bool_), None),
    ],
    deny_unknown=False,
)


def decode_tool_grant(value: JSON, where: Where = "grant") -> ToolGrant:
    """Decode one ``ToolGrant`` (SCOPE-SHAPE-2); unknown keys are ignored."""
    return _tool_grant(value, where)


_resource = record(
    ResourceGrant,
    [("uri_pattern", string, REQUIRED), ("operations", _operations, REQUIRED)],
    deny_unknown=False,
)
_prompt = record(
    PromptGrant,
    [("prompt_name", string, REQUIRED), ("operations", _operations, REQUIRED)],
    deny_unknown=False,
)


_scope = record(
    ChioScope,
    [
        ("grants", seq(decode_tool_grant), ()),
        ("resource_grants", seq(_resource), ()),
        ("prompt_grants", seq(_prompt), ()),
    ],
    deny_unknown=False,
)


def decode_scope(value: JSON, where: Where = "scope") -> ChioScope:
    """Decode a ``ChioScope`` from a parsed JSON value exactly as Chio's serde types accept it.

    Raises :class:`ScopeDecodeError` (a ``ValueError``) naming the offending place, e.g.
    ``scope.grants[0].operations[0]: unknown variant `Invoke`, expected one of ...``.
    """
    return _scope(value, where)
