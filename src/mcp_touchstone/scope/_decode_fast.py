"""One-pass decoding of the common ``ChioScope`` shapes (a fast path of :mod:`._decode`).

The general decoder in :mod:`._decode` is built from serde-shaped combinators: every struct
field is looked up through a generic field table and every place gets its ``where`` text
formatted in case it fails.  Nearly every scope that reaches the matcher has the plain map
shapes, though: a ``{"grants": [...]}`` object whose grants are maps with string patterns, an
``operations`` array of variant names and constraints written ``{"type": tag, "value": v}``
(or ``[tag, v]``, or ``{"type": "governed_intent_required"}``) whose content is a string, an
integer, a boolean, ``null``, a tier or class named as a string, an array of strings, or one
of the three struct variants in map form (monetary amounts and bindings included).

:func:`fast_scope` reads exactly those shapes in one pass and returns the value the general
decoder would build, or ``None`` for anything else (a grant as an array, a tag or unit
variant written as a map, a struct as an array, a monetary amount on a grant, a wrong type
anywhere, ...).  It never
raises and never words an error: on ``None`` the caller runs the general decoder on the same
value, so every error message, and every value of an unusual shape, comes from one place.

Every check here is the general decoder's own acceptance condition, made stricter where that
was simpler (``type(x) is str`` instead of ``isinstance``: a ``str`` subclass takes the general
path).  ``tests/scope/test_scope_decode_fast.py`` checks the two against each other with
Hypothesis over well-formed and malformed scopes.

Length (~440 lines): the readers of every constraint shape the general decoder accepts in the
common forms; split elsewhere, the two lists of variants would drift apart.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

from mcp_touchstone._rust import U32_MAX, U64_MAX, USIZE_MAX
from mcp_touchstone.scope._record import draft, record_fields
from mcp_touchstone.scope._types import (
    AudienceAllowlist,
    ChioScope,
    ColumnDenylist,
    Constraint,
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

TYPE_CHECKING = False  # typing's constant, without importing typing at run time (start-up)
if TYPE_CHECKING:
    from typing import Any, Final, TypeVar

    C = TypeVar("C")

__all__ = ["fast_scope"]


_new = object.__new__


def _setters(cls: type) -> tuple[Callable[[object, object], None], ...]:
    """The slot setters of a frozen slotted record (:mod:`._record`), in field order.

    The values built here are made as ``object.__new__`` plus one slot store per field, which
    is what the generated ``__init__`` does (``object.__setattr__`` per field) without its
    call and per-field attribute lookups; no type here has a ``__post_init__``.  The
    differential test compares every field (``==`` and ``repr``), so a field missed here
    would fail it."""
    return tuple(cls.__dict__[name].__set__ for name in record_fields(cls))


def _one_field(cls: type[C]) -> Callable[[Any], C]:
    (set_value,) = _setters(cls)

    def make(value: Any) -> C:
        obj = _new(cls)
        set_value(obj, value)
        return obj

    return make


_ToolGrantDraft: Final = draft(ToolGrant)
_ChioScopeDraft: Final = draft(ChioScope)
"""Mutable stand-ins with the slots of :class:`ToolGrant` and :class:`ChioScope`: a value is
made as a draft with every field stored, then given its class (:func:`._record.draft`), about a
third of the cost of one ``object.__setattr__`` call per field."""

_OPERATIONS: Final[dict[str, Operation]] = {member.value: member for member in Operation}
_INVOKE_ONLY: Final = (Operation.INVOKE,)
"""The operations of nearly every grant, ``["invoke"]``, decoded once (a tuple is immutable)."""

_STRING_KINDS: Final[dict[str, Callable[[str], Constraint]]] = {
    "path_prefix": _one_field(PathPrefix),
    "domain_exact": _one_field(DomainExact),
    "domain_glob": _one_field(DomainGlob),
    "regex_match": _one_field(RegexMatch),
    "seller_exact": _one_field(SellerExact),
    "max_transaction_amount_usd": _one_field(MaxTransactionAmountUsd),
}
"""Tags whose content is one string."""

_USIZE_KINDS: Final[dict[str, Callable[[int], Constraint]]] = {
    "max_length": _one_field(MaxLength),
    "max_args_size": _one_field(MaxArgsSize),
}
_MAKE_MAX_ROWS: Final = _one_field(MaxRowsReturned)
"""``max_rows_returned``: a u64."""
_MAKE_DUAL_APPROVAL: Final = _one_field(RequireDualApproval)
"""``require_dual_approval``: a boolean."""


def _unit_variants(make: Callable[[Any], Constraint], members: type[Enum]) -> dict[str, Constraint]:
    return {member.value: make(member) for member in members}


_TIER_KINDS: Final[dict[str, dict[str, Constraint]]] = {
    "minimum_runtime_assurance": _unit_variants(
        _one_field(MinimumRuntimeAssurance), RuntimeAssuranceTier
    ),
    "minimum_autonomy_tier": _unit_variants(_one_field(MinimumAutonomyTier), GovernedAutonomyTier),
    "operation_class": _unit_variants(_one_field(OperationClass), SqlOperationClass),
    "content_review_tier": _unit_variants(_one_field(ContentReviewTier), ReviewTier),
}
"""Tags whose content is a unit variant written as its name: the constraint for each name (a
frozen value, so one per name serves every scope)."""
_GOVERNED_INTENT: Final = GovernedIntentRequired()
_STRINGS_KINDS: Final[dict[str, Callable[[tuple[str, ...]], Constraint]]] = {
    "table_allowlist": _one_field(TableAllowlist),
    "column_denylist": _one_field(ColumnDenylist),
    "audience_allowlist": _one_field(AudienceAllowlist),
    "memory_store_allowlist": _one_field(MemoryStoreAllowlist),
    "memory_write_deny_patterns": _one_field(MemoryWriteDenyPatterns),
}
"""Tags whose content is a sequence of strings."""


def _strings(value: JSON) -> tuple[str, ...] | None:
    if type(value) is not list:
        return None
    for item in value:
        if type(item) is not str:
            return None
    return tuple(value)  # type: ignore[arg-type]  # every item checked above


def _operations(value: JSON) -> tuple[Operation, ...] | None:
    if type(value) is not list:
        return None
    out: list[Operation] = []
    for name in value:
        member = _OPERATIONS.get(name) if type(name) is str else None
        if member is None:
            return None
        out.append(member)
    return tuple(out)


def _u64(value: JSON) -> int | None:
    """``value`` when it is a u64, else ``None``."""
    return value if type(value) is int and 0 <= value <= U64_MAX else None


def _money(value: JSON) -> MonetaryAmount | None:
    """A ``MonetaryAmount`` map: ``units`` (u64) and ``currency`` (string), no other key."""
    if type(value) is not dict or len(value) != 2:
        return None
    units, currency = _u64(value.get("units")), value.get("currency")
    # Two keys, both found with their types: no unknown key (the struct denies them).
    if units is None or type(currency) is not str:
        return None
    return MonetaryAmount(units=units, currency=currency)


_BODY_STRINGS: Final = (
    "schema",
    "root_capability_id",
    "root_capability_hash",
    "root_issuer",
    "root_subject",
    "root_scope_hash",
    "root_grant_hash",
    "approval_budget_id",
)
"""The string fields of ``CumulativeApprovalRootBindingBody``; its other three are
``approval_budget_epoch`` and ``root_expires_at`` (u64) and ``threshold`` (an amount)."""
_ALGORITHMS: Final = {member.value: member for member in SigningAlgorithm}
_SAFETY_TIERS: Final = {member.value: member for member in ModelSafetyTier}


def _binding(value: JSON) -> CumulativeApprovalRootBinding | None:
    """A ``CumulativeApprovalRootBinding`` map: ``body`` (all 11 fields), ``signature``, and
    ``algorithm`` (absent, null or a name), no other key, in the body either."""
    if type(value) is not dict:
        return None
    body, signature = value.get("body"), value.get("signature")
    if type(body) is not dict or len(body) != 11 or type(signature) is not str:
        return None
    algorithm: SigningAlgorithm | None = None
    known = 2
    if "algorithm" in value:
        known = 3
        name = value["algorithm"]
        if name is not None:
            algorithm = _ALGORITHMS.get(name) if type(name) is str else None
            if algorithm is None:
                return None
    if len(value) != known:
        return None
    strings: dict[str, Any] = {key: body.get(key) for key in _BODY_STRINGS}
    for text in strings.values():
        if type(text) is not str:
            return None
    epoch, expires = _u64(body.get("approval_budget_epoch")), _u64(body.get("root_expires_at"))
    threshold = _money(body.get("threshold"))
    # Eleven keys, each found with its type: no unknown key.
    if threshold is None or epoch is None or expires is None:
        return None
    made = CumulativeApprovalRootBindingBody(
        **strings, approval_budget_epoch=epoch, threshold=threshold, root_expires_at=expires
    )
    return CumulativeApprovalRootBinding(body=made, algorithm=algorithm, signature=signature)


def _approval(value: dict[str, JSON]) -> Constraint | None:
    """``require_approval_above``: ``{"threshold_units": u64}``, no other key."""
    units = _u64(value.get("threshold_units"))
    if len(value) != 1 or units is None:
        return None
    return RequireApprovalAbove(threshold_units=units)


def _cumulative(value: dict[str, JSON]) -> Constraint | None:
    """``require_cumulative_approval_above``: an amount, a budget id and epoch, and an
    optional binding (absent or null: none), no other key."""
    threshold = _money(value.get("threshold"))
    budget_id, epoch = value.get("approval_budget_id"), _u64(value.get("approval_budget_epoch"))
    if threshold is None or type(budget_id) is not str or epoch is None:
        return None
    binding: CumulativeApprovalRootBinding | None = None
    known = 3
    if "cumulative_approval_root_binding" in value:
        known = 4
        raw = value["cumulative_approval_root_binding"]
        if raw is not None:
            binding = _binding(raw)
            if binding is None:
                return None
    if len(value) != known:
        return None
    return RequireCumulativeApprovalAbove(
        threshold=threshold,
        approval_budget_id=budget_id,
        approval_budget_epoch=epoch,
        cumulative_approval_root_binding=binding,
    )


def _model(value: dict[str, JSON]) -> Constraint | None:
    """``model_constraint``: a string list and an optional tier name (absent or null: none),
    no other key."""
    allowed = _strings(value.get("allowed_model_ids"))
    if allowed is None:
        return None
    tier: ModelSafetyTier | None = None
    known = 1
    if "min_safety_tier" in value:
        known = 2
        name = value["min_safety_tier"]
        if name is not None:
            tier = _SAFETY_TIERS.get(name) if type(name) is str else None
            if tier is None:
                return None
    if len(value) != known:
        return None
    return ModelConstraint(allowed_model_ids=allowed, min_safety_tier=tier)


_STRUCT_KINDS: Final[dict[str, Callable[[dict[str, JSON]], Constraint | None]]] = {
    "require_approval_above": _approval,
    "require_cumulative_approval_above": _cumulative,
    "model_constraint": _model,
}
"""The three struct variants, each read from its map form (the general decoder's ``record``
also takes a struct as an array: that form, and the unit enums written as maps, are left to
it)."""


def _constraint(value: JSON) -> Constraint | None:
    """A constraint written ``{"type": tag, "value": content}`` (keys in any order),
    ``{"type": "governed_intent_required"}`` or ``[tag, content]``, with ``tag`` a string and
    content of a shape read here, else ``None``."""
    if type(value) is dict:
        if "type" not in value:
            return None
        tag = value["type"]
        if len(value) == 1:  # only the unit variant may leave its content out
            return _GOVERNED_INTENT if tag == "governed_intent_required" else None
        if len(value) != 2 or "value" not in value:
            return None
        content = value["value"]
    elif type(value) is list and len(value) == 2:  # the sequence form: the same content
        tag, content = value
    else:
        return None
    if type(tag) is not str:
        return None
    if type(content) is str:
        make_str = _STRING_KINDS.get(tag)
        if make_str is not None:
            return make_str(content)
        variants = _TIER_KINDS.get(tag)
        return None if variants is None else variants.get(content)
    if type(content) is int:
        make_int = _USIZE_KINDS.get(tag)
        if make_int is not None and 0 <= content <= USIZE_MAX:
            return make_int(content)
        if tag == "max_rows_returned" and 0 <= content <= U64_MAX:
            return _MAKE_MAX_ROWS(content)
        return None
    if type(content) is bool:
        return _MAKE_DUAL_APPROVAL(content) if tag == "require_dual_approval" else None
    if content is None:
        return _GOVERNED_INTENT if tag == "governed_intent_required" else None
    if type(content) is list:
        if tag == "custom":
            if len(content) == 2 and type(content[0]) is str and type(content[1]) is str:
                return Custom(content[0], content[1])
            return None
        make_seq = _STRINGS_KINDS.get(tag)
        if make_seq is None:
            return None
        strings = _strings(content)
        return None if strings is None else make_seq(strings)
    if type(content) is dict:
        make_struct = _STRUCT_KINDS.get(tag)
        return None if make_struct is None else make_struct(content)
    return None


def _tool_grant(value: JSON) -> ToolGrant | None:
    if type(value) is not dict:
        return None
    server_id = value.get("server_id")
    tool_name = value.get("tool_name")
    if type(server_id) is not str or type(tool_name) is not str:
        return None
    raw_operations = value.get("operations")
    if type(raw_operations) is list and len(raw_operations) == 1 and raw_operations[0] == "invoke":
        operations: tuple[Operation, ...] | None = _INVOKE_ONLY  # what _operations gives
    else:
        operations = _operations(raw_operations)
        if operations is None:
            return None
    constraints: tuple[Constraint, ...] = ()
    has_constraints = "constraints" in value
    if has_constraints:
        raw = value["constraints"]
        if type(raw) is not list:
            return None
        if len(raw) == 1:  # the common grant: its one constraint, without a list to build
            constraint = _constraint(raw[0])
            if constraint is None:
                return None
            constraints = (constraint,)
        else:
            decoded: list[Constraint] = []
            for item in raw:
                constraint = _constraint(item)
                if constraint is None:
                    return None
                decoded.append(constraint)
            constraints = tuple(decoded)
    max_invocations: JSON = None  # an int or None once checked
    dpop_required: JSON = None  # a bool or None once checked
    if len(value) != 3 + has_constraints:  # keys besides the three read above and constraints
        max_invocations = value.get("max_invocations")
        if max_invocations is not None and not (
            type(max_invocations) is int and 0 <= max_invocations <= U32_MAX
        ):
            return None
        # A monetary amount (a struct with its own unknown-key rule) takes the general path.
        if (
            value.get("max_cost_per_invocation") is not None
            or value.get("max_total_cost") is not None
        ):
            return None
        dpop_required = value.get("dpop_required")
        if dpop_required is not None and type(dpop_required) is not bool:
            return None
    grant = _ToolGrantDraft()
    grant.server_id = server_id
    grant.tool_name = tool_name
    grant.operations = operations
    grant.constraints = constraints
    grant.max_invocations = max_invocations
    grant.max_cost_per_invocation = None
    grant.max_total_cost = None
    grant.dpop_required = dpop_required
    grant.__class__ = ToolGrant
    grant_value: ToolGrant = grant
    return grant_value


def _named_grants(value: JSON, name_key: str) -> list[tuple[str, tuple[Operation, ...]]] | None:
    """A resource or prompt grant array: maps with a string ``name_key`` and ``operations``."""
    if type(value) is not list:
        return None
    out: list[tuple[str, tuple[Operation, ...]]] = []
    for item in value:
        if type(item) is not dict:
            return None
        name = item.get(name_key)
        if type(name) is not str:
            return None
        operations = _operations(item.get("operations"))
        if operations is None:
            return None
        out.append((name, operations))
    return out


def fast_scope(value: JSON) -> ChioScope | None:
    """The :class:`ChioScope` the general decoder builds from ``value`` when ``value`` has
    the common map shapes, else ``None`` (then the general decoder decides).  Never raises."""
    if type(value) is not dict:
        return None
    grants: tuple[ToolGrant, ...] = ()
    if "grants" in value:
        raw = value["grants"]
        if type(raw) is not list:
            return None
        if len(raw) == 1:  # the common scope: its one grant, without a list to build
            grant = _tool_grant(raw[0])
            if grant is None:
                return None
            grants = (grant,)
        else:
            decoded: list[ToolGrant] = []
            for item in raw:
                grant = _tool_grant(item)
                if grant is None:
                    return None
                decoded.append(grant)
            grants = tuple(decoded)
    resources: tuple[ResourceGrant, ...] = ()
    if "resource_grants" in value:
        named = _named_grants(value["resource_grants"], "uri_pattern")
        if named is None:
            return None
        resources = tuple(ResourceGrant(name, ops) for name, ops in named)
    prompts: tuple[PromptGrant, ...] = ()
    if "prompt_grants" in value:
        named = _named_grants(value["prompt_grants"], "prompt_name")
        if named is None:
            return None
        prompts = tuple(PromptGrant(name, ops) for name, ops in named)
    scope = _ChioScopeDraft()
    scope.grants = grants
    scope.resource_grants = resources
    scope.prompt_grants = prompts
    scope.__class__ = ChioScope
    made: ChioScope = scope
    return made
