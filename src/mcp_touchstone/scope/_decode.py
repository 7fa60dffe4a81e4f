"""Decode a parsed JSON value into a :class:`ChioScope` as Chio's serde derives do.

Rules ``SCOPE-SHAPE-*`` in ``spec/scope.md``.  This is a hand-written boundary decoder
rather than a pydantic model because serde's derived decoders accept shapes pydantic cannot
express exactly: structs written as positional arrays (``[grants, resource_grants, ...]``),
adjacently tagged enums whose ``type``/``value`` keys come in any order or as a two-element
array, unit enums written as a single-key map (``{"invoke": null}``), and per-type unknown-key
policies.  Every failure raises :class:`ScopeDecodeError` naming the offending place.

Length (~500 lines): one decoder per Chio type, mirroring the type list of ``_types``; the
shared serde forms and wording are in :mod:`mcp_touchstone._serde`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any, Final, TypeVar

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone._serde import (
    SerdeError,
    fewer_elements,
    integer_in,
    invalid_type,
    invalid_value,
    missing_field,
    sequence_fields,
)
from mcp_touchstone.scope._decode_fast import fast_scope
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

__all__ = ["ScopeDecodeError", "decode_constraint", "decode_scope", "decode_tool_grant"]

T = TypeVar("T")
E = TypeVar("E", bound=Enum)
R = TypeVar("R")


class ScopeDecodeError(TouchstoneError, ValueError):
    """A JSON value that Chio's serde decoder would reject; ``where`` names the place."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem


def _invalid_type(where: str, value: JSON, expected: str) -> ScopeDecodeError:
    return ScopeDecodeError(where, invalid_type(value, expected))


# --------------------------------------------------------------------------- primitives

Decoder = Callable[[JSON, str], Any]


def _string(value: JSON, where: str) -> str:
    if isinstance(value, str):
        return value
    raise _invalid_type(where, value, "a string")


def _bool(value: JSON, where: str) -> bool:
    if isinstance(value, bool):
        return value
    raise _invalid_type(where, value, "a boolean")


def _unsigned(name: str) -> Decoder:
    def decode(value: JSON, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _invalid_type(where, value, name)
        if not integer_in(value, name):
            raise ScopeDecodeError(where, invalid_value(value, name))
        return value

    return decode


_u32 = _unsigned("u32")
_u64 = _unsigned("u64")
_usize = _unsigned("usize")


def _option(inner: Decoder) -> Decoder:
    def decode(value: JSON, where: str) -> Any:
        return None if value is None else inner(value, where)

    return decode


def _seq(inner: Decoder) -> Decoder:
    def decode(value: JSON, where: str) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise _invalid_type(where, value, "a sequence")
        return tuple(inner(item, f"{where}[{i}]") for i, item in enumerate(value))

    return decode


def _unit_enum(cls: type[E], type_name: str) -> Decoder:
    """A serde unit-only enum: a variant name, or a single-key map whose value is null."""
    by_name = {member.value: member for member in cls}
    expected = ", ".join(f"`{name}`" for name in by_name)

    def decode(value: JSON, where: str) -> E:
        if isinstance(value, str):
            name = value
        elif isinstance(value, dict):
            if len(value) != 1:
                raise ScopeDecodeError(where, "invalid value: map, expected map with a single key")
            ((name, content),) = value.items()
        else:
            raise _invalid_type(where, value, f"string or map ({type_name})")
        member = by_name.get(name)
        if member is None:
            raise ScopeDecodeError(where, f"unknown variant `{name}`, expected one of {expected}")
        if isinstance(value, dict) and content is not None:
            raise _invalid_type(f"{where}.{name}", content, "unit variant")
        return member

    return decode


# --------------------------------------------------------------------------- structs

_REQUIRED: Final = object()
"""Field marker: missing in map form is ``missing field``; missing in array form too."""
_OPTIONAL: Final = object()
"""Field marker: an ``Option`` without ``#[serde(default)]``: None when the map lacks it,
but still required positionally."""


def _struct(
    name: str,
    fields: Sequence[tuple[str, Decoder, object]],
    *,
    deny_unknown: bool,
) -> Callable[[JSON, str], dict[str, Any]]:
    """A serde-derived struct decoder: a map by field name, or an array by position."""
    names = tuple(f for f, _, _ in fields)
    decoders = {f: dec for f, dec, _ in fields}
    defaulted = frozenset(f for f, _, d in fields if d is not _REQUIRED and d is not _OPTIONAL)
    expected_names = " or ".join(f"`{n}`" for n in names)

    def decode(value: JSON, where: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if isinstance(value, dict):
            if deny_unknown:
                for key in value:
                    if key not in names:
                        raise ScopeDecodeError(
                            where, f"unknown field `{key}`, expected {expected_names}"
                        )
            for fname, dec, default in fields:
                if fname in value:
                    out[fname] = dec(value[fname], f"{where}.{fname}")
                elif default is _REQUIRED:
                    raise ScopeDecodeError(where, missing_field(fname))
                elif default is _OPTIONAL:
                    out[fname] = None
                else:
                    out[fname] = default
            return out
        if isinstance(value, list):
            if len(value) > len(fields):
                # Checked before the elements, as this decoder always has; serde reads the
                # elements first (an element's error would win). Unverified against Chio.
                raise ScopeDecodeError(where, fewer_elements(len(value)))

            def element(fname: str, i: int, item: JSON) -> None:
                out[fname] = decoders[fname](item, f"{where}[{i}]")

            try:
                sequence_fields(value, name, names, defaulted, element)
            except SerdeError as exc:
                raise ScopeDecodeError(where, exc.message) from None
            for fname, _, default in fields:
                if fname not in out:
                    out[fname] = default
            return out
        raise _invalid_type(where, value, f"struct {name}")

    return decode


def _record(
    cls: type[R],
    fields: Sequence[tuple[str, Decoder, object]],
    *,
    deny_unknown: bool,
) -> Callable[[JSON, str], R]:
    """A serde-derived struct decoder that builds ``cls`` from the decoded fields."""
    as_struct = _struct(cls.__name__, fields, deny_unknown=deny_unknown)

    def decode(value: JSON, where: str) -> R:
        return cls(**as_struct(value, where))

    return decode


_operations = _seq(_unit_enum(Operation, "Operation"))

_monetary = _record(
    MonetaryAmount,
    [("units", _u64, _REQUIRED), ("currency", _string, _REQUIRED)],
    deny_unknown=True,
)


_binding_body = _record(
    CumulativeApprovalRootBindingBody,
    [
        ("schema", _string, _REQUIRED),
        ("root_capability_id", _string, _REQUIRED),
        ("root_capability_hash", _string, _REQUIRED),
        ("root_issuer", _string, _REQUIRED),
        ("root_subject", _string, _REQUIRED),
        ("root_scope_hash", _string, _REQUIRED),
        ("root_grant_hash", _string, _REQUIRED),
        ("approval_budget_id", _string, _REQUIRED),
        ("approval_budget_epoch", _u64, _REQUIRED),
        ("threshold", _monetary, _REQUIRED),
        ("root_expires_at", _u64, _REQUIRED),
    ],
    deny_unknown=True,
)


_binding = _record(
    CumulativeApprovalRootBinding,
    [
        ("body", _binding_body, _REQUIRED),
        ("algorithm", _option(_unit_enum(SigningAlgorithm, "SigningAlgorithm")), None),
        ("signature", _string, _REQUIRED),
    ],
    deny_unknown=True,
)


# --------------------------------------------------------------------------- constraints


def _struct_variant(
    variant: str, fields: Sequence[tuple[str, Decoder, object]]
) -> Callable[[JSON, str], dict[str, Any]]:
    """A struct variant inside an adjacently tagged enum: a map only, unknown keys denied."""
    as_struct = _struct(variant, fields, deny_unknown=True)

    def decode(value: JSON, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise _invalid_type(where, value, f"struct variant {variant}")
        return as_struct(value, where)

    return decode


_approval_fields = _struct_variant(
    "Constraint::RequireApprovalAbove", [("threshold_units", _u64, _REQUIRED)]
)
_cumulative_fields = _struct_variant(
    "Constraint::RequireCumulativeApprovalAbove",
    [
        ("threshold", _monetary, _REQUIRED),
        ("approval_budget_id", _string, _REQUIRED),
        ("approval_budget_epoch", _u64, _REQUIRED),
        ("cumulative_approval_root_binding", _option(_binding), None),
    ],
)
_model_fields = _struct_variant(
    "Constraint::ModelConstraint",
    [
        ("allowed_model_ids", _seq(_string), _REQUIRED),
        ("min_safety_tier", _option(_unit_enum(ModelSafetyTier, "ModelSafetyTier")), _OPTIONAL),
    ],
)
_strings = _seq(_string)


def _custom(value: JSON, where: str) -> Custom:
    if not isinstance(value, list):
        raise _invalid_type(where, value, "tuple variant Constraint::Custom")
    if len(value) < 2:
        raise ScopeDecodeError(
            where,
            f"invalid length {len(value)}, expected tuple variant Constraint::Custom "
            "with 2 elements",
        )
    if len(value) > 2:
        raise ScopeDecodeError(where, f"invalid length {len(value)}, expected 2 elements")
    return Custom(_string(value[0], f"{where}[0]"), _string(value[1], f"{where}[1]"))


def _unit_content(value: JSON, where: str) -> GovernedIntentRequired:
    if value is not None:
        raise _invalid_type(where, value, "unit variant Constraint::GovernedIntentRequired")
    return GovernedIntentRequired()


_CONTENT: Final[dict[ConstraintKind, Callable[[JSON, str], Constraint]]] = {
    ConstraintKind.PATH_PREFIX: lambda v, w: PathPrefix(_string(v, w)),
    ConstraintKind.DOMAIN_EXACT: lambda v, w: DomainExact(_string(v, w)),
    ConstraintKind.DOMAIN_GLOB: lambda v, w: DomainGlob(_string(v, w)),
    ConstraintKind.REGEX_MATCH: lambda v, w: RegexMatch(_string(v, w)),
    ConstraintKind.MAX_LENGTH: lambda v, w: MaxLength(_usize(v, w)),
    ConstraintKind.MAX_ARGS_SIZE: lambda v, w: MaxArgsSize(_usize(v, w)),
    ConstraintKind.GOVERNED_INTENT_REQUIRED: _unit_content,
    ConstraintKind.REQUIRE_APPROVAL_ABOVE: lambda v, w: RequireApprovalAbove(
        **_approval_fields(v, w)
    ),
    ConstraintKind.REQUIRE_CUMULATIVE_APPROVAL_ABOVE: lambda v, w: RequireCumulativeApprovalAbove(
        **_cumulative_fields(v, w)
    ),
    ConstraintKind.SELLER_EXACT: lambda v, w: SellerExact(_string(v, w)),
    ConstraintKind.MINIMUM_RUNTIME_ASSURANCE: lambda v, w: MinimumRuntimeAssurance(
        _unit_enum(RuntimeAssuranceTier, "RuntimeAssuranceTier")(v, w)
    ),
    ConstraintKind.MINIMUM_AUTONOMY_TIER: lambda v, w: MinimumAutonomyTier(
        _unit_enum(GovernedAutonomyTier, "GovernedAutonomyTier")(v, w)
    ),
    ConstraintKind.CUSTOM: _custom,
    ConstraintKind.TABLE_ALLOWLIST: lambda v, w: TableAllowlist(_strings(v, w)),
    ConstraintKind.COLUMN_DENYLIST: lambda v, w: ColumnDenylist(_strings(v, w)),
    ConstraintKind.MAX_ROWS_RETURNED: lambda v, w: MaxRowsReturned(_u64(v, w)),
    ConstraintKind.OPERATION_CLASS: lambda v, w: OperationClass(
        _unit_enum(SqlOperationClass, "SqlOperationClass")(v, w)
    ),
    ConstraintKind.AUDIENCE_ALLOWLIST: lambda v, w: AudienceAllowlist(_strings(v, w)),
    ConstraintKind.CONTENT_REVIEW_TIER: lambda v, w: ContentReviewTier(
        _unit_enum(ReviewTier, "ContentReviewTier")(v, w)
    ),
    ConstraintKind.MAX_TRANSACTION_AMOUNT_USD: lambda v, w: MaxTransactionAmountUsd(_string(v, w)),
    ConstraintKind.REQUIRE_DUAL_APPROVAL: lambda v, w: RequireDualApproval(_bool(v, w)),
    ConstraintKind.MODEL_CONSTRAINT: lambda v, w: ModelConstraint(**_model_fields(v, w)),
    ConstraintKind.MEMORY_STORE_ALLOWLIST: lambda v, w: MemoryStoreAllowlist(_strings(v, w)),
    ConstraintKind.MEMORY_WRITE_DENY_PATTERNS: lambda v, w: MemoryWriteDenyPatterns(_strings(v, w)),
}
_TAGS: Final = {kind.value: kind for kind in ConstraintKind}
_TAG_LIST: Final = ", ".join(f"`{kind.value}`" for kind in ConstraintKind)


def _tag(value: JSON, where: str, *, as_enum: bool) -> ConstraintKind:
    """The variant named by a tag.  In the map form serde reads the tag as a unit enum
    (``deserialize_enum``), so ``{"max_length": null}`` names a variant as well as
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
        raise _invalid_type(where, value, expected)
    kind = _TAGS.get(name)
    if kind is None:
        raise ScopeDecodeError(where, f"unknown variant `{name}`, expected one of {_TAG_LIST}")
    if content is not None:
        raise _invalid_type(f"{where}.{name}", content, "unit value")
    return kind


def decode_constraint(value: JSON, where: str = "constraint") -> Constraint:
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
        kind = _tag(value["type"], f"{where}.type", as_enum=True)
        if "value" not in value:
            if kind is ConstraintKind.GOVERNED_INTENT_REQUIRED:
                return GovernedIntentRequired()
            raise ScopeDecodeError(where, "missing field `value`")
        return _CONTENT[kind](value["value"], f"{where}.value")
    if isinstance(value, list):
        if not value:
            raise ScopeDecodeError(
                where, "invalid length 0, expected adjacently tagged enum Constraint"
            )
        kind = _tag(value[0], f"{where}[0]", as_enum=False)
        if len(value) < 2:
            raise ScopeDecodeError(
                where, "invalid length 1, expected adjacently tagged enum Constraint"
            )
        if len(value) > 2:
            raise ScopeDecodeError(
                where, f"invalid length {len(value)}, expected fewer elements in array"
            )
        return _CONTENT[kind](value[1], f"{where}[1]")
    raise _invalid_type(where, value, "adjacently tagged enum Constraint")


# --------------------------------------------------------------------------- grants

_constraints = _seq(decode_constraint)

_tool_grant = _record(
    ToolGrant,
    [
        ("server_id", _string, _REQUIRED),
        ("tool_name", _string, _REQUIRED),
        ("operations", _operations, _REQUIRED),
        ("constraints", _constraints, ()),
        ("max_invocations", _option(_u32), None),
        ("max_cost_per_invocation", _option(_monetary), None),
        ("max_total_cost", _option(_monetary), None),
        ("dpop_required", _option(_bool), None),
    ],
    deny_unknown=False,
)


def decode_tool_grant(value: JSON, where: str = "grant") -> ToolGrant:
    """Decode one ``ToolGrant`` (SCOPE-SHAPE-2); unknown keys are ignored."""
    return _tool_grant(value, where)


_resource = _record(
    ResourceGrant,
    [("uri_pattern", _string, _REQUIRED), ("operations", _operations, _REQUIRED)],
    deny_unknown=False,
)
_prompt = _record(
    PromptGrant,
    [("prompt_name", _string, _REQUIRED), ("operations", _operations, _REQUIRED)],
    deny_unknown=False,
)


_scope = _record(
    ChioScope,
    [
        ("grants", _seq(decode_tool_grant), ()),
        ("resource_grants", _seq(_resource), ()),
        ("prompt_grants", _seq(_prompt), ()),
    ],
    deny_unknown=False,
)


def decode_scope(value: JSON, where: str = "scope") -> ChioScope:
    """Decode a ``ChioScope`` from a parsed JSON value exactly as Chio's serde types accept it.

    Raises :class:`ScopeDecodeError` (a ``ValueError``) naming the offending place, e.g.
    ``scope.grants[0].operations[0]: unknown variant `Invoke`, expected one of ...``.

    The common map shapes are read in one pass (:func:`._decode_fast.fast_scope`); anything
    else, every error included, is decided by the general serde-shaped decoder below.
    """
    fast = fast_scope(value)
    if fast is not None:
        return fast
    return _scope(value, where)
