"""Chio's scope types as frozen value classes (rules ``SCOPE-SHAPE-*`` in ``spec/scope.md``).
Over 400 lines: every type a grant holds, beside the others, as Chio declares them in one file.

The field names follow Chio's own JSON keys.  Decoding from JSON lives in
:mod:`mcp_touchstone.scope._decode`; nothing here parses or validates.
Enums are plain :class:`enum.Enum` (not ``Literal``) so the proof tooling can target them.

Each class is a ``@dataclass(frozen=True, slots=True)``: immutable, compared and hashed by
its fields.

Length (~470 lines): one frozen dataclass per Chio constraint variant (24) plus the grants;
splitting the variants from their union would only scatter a flat list.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar, TypeAlias

__all__ = [
    "DECIDED_KINDS",
    "REFUSED_KINDS",
    "AudienceAllowlist",
    "ChioScope",
    "ColumnDenylist",
    "Constraint",
    "ConstraintKind",
    "ContentReviewTier",
    "CumulativeApprovalRootBinding",
    "CumulativeApprovalRootBindingBody",
    "Custom",
    "DomainExact",
    "DomainGlob",
    "GovernedAutonomyTier",
    "GovernedIntentRequired",
    "MaxArgsSize",
    "MaxLength",
    "MaxRowsReturned",
    "MaxTransactionAmountUsd",
    "MemoryStoreAllowlist",
    "MemoryWriteDenyPatterns",
    "MinimumAutonomyTier",
    "MinimumRuntimeAssurance",
    "ModelConstraint",
    "ModelSafetyTier",
    "MonetaryAmount",
    "Operation",
    "OperationClass",
    "PathPrefix",
    "PromptGrant",
    "RegexMatch",
    "RequireApprovalAbove",
    "RequireCumulativeApprovalAbove",
    "RequireDualApproval",
    "ResourceGrant",
    "ReviewTier",
    "RuntimeAssuranceTier",
    "SellerExact",
    "SigningAlgorithm",
    "SqlOperationClass",
    "TableAllowlist",
    "ToolGrant",
]


class Operation(Enum):
    """An operation a grant allows; the value is Chio's snake_case wire name."""

    INVOKE = "invoke"
    READ_RESULT = "read_result"
    READ = "read"
    SUBSCRIBE = "subscribe"
    GET = "get"
    DELEGATE = "delegate"


class RuntimeAssuranceTier(Enum):
    """Value of ``minimum_runtime_assurance``."""

    NONE = "none"
    BASIC = "basic"
    ATTESTED = "attested"
    VERIFIED = "verified"


class GovernedAutonomyTier(Enum):
    """Value of ``minimum_autonomy_tier``."""

    DIRECT = "direct"
    DELEGATED = "delegated"
    AUTONOMOUS = "autonomous"


class SqlOperationClass(Enum):
    """Value of ``operation_class``."""

    READ_ONLY = "read_only"
    READ_WRITE = "read_write"
    ADMIN = "admin"


class ReviewTier(Enum):
    """Value of ``content_review_tier`` (Chio's ``ContentReviewTier`` enum)."""

    NONE = "none"
    BASIC = "basic"
    STRICT = "strict"


class ModelSafetyTier(Enum):
    """``min_safety_tier`` of ``model_constraint``."""

    LOW = "low"
    STANDARD = "standard"
    HIGH = "high"
    RESTRICTED = "restricted"


class SigningAlgorithm(Enum):
    """``algorithm`` of a cumulative-approval root binding."""

    ED25519 = "ed25519"
    P256 = "p256"
    P384 = "p384"


class ConstraintKind(Enum):
    """The 24 constraint variants, in Chio's declaration order; the value is the serde tag."""

    PATH_PREFIX = "path_prefix"
    DOMAIN_EXACT = "domain_exact"
    DOMAIN_GLOB = "domain_glob"
    REGEX_MATCH = "regex_match"
    MAX_LENGTH = "max_length"
    MAX_ARGS_SIZE = "max_args_size"
    GOVERNED_INTENT_REQUIRED = "governed_intent_required"
    REQUIRE_APPROVAL_ABOVE = "require_approval_above"
    REQUIRE_CUMULATIVE_APPROVAL_ABOVE = "require_cumulative_approval_above"
    SELLER_EXACT = "seller_exact"
    MINIMUM_RUNTIME_ASSURANCE = "minimum_runtime_assurance"
    MINIMUM_AUTONOMY_TIER = "minimum_autonomy_tier"
    CUSTOM = "custom"
    TABLE_ALLOWLIST = "table_allowlist"
    COLUMN_DENYLIST = "column_denylist"
    MAX_ROWS_RETURNED = "max_rows_returned"
    OPERATION_CLASS = "operation_class"
    AUDIENCE_ALLOWLIST = "audience_allowlist"
    CONTENT_REVIEW_TIER = "content_review_tier"
    MAX_TRANSACTION_AMOUNT_USD = "max_transaction_amount_usd"
    REQUIRE_DUAL_APPROVAL = "require_dual_approval"
    MODEL_CONSTRAINT = "model_constraint"
    MEMORY_STORE_ALLOWLIST = "memory_store_allowlist"
    MEMORY_WRITE_DENY_PATTERNS = "memory_write_deny_patterns"


DECIDED_KINDS: frozenset[ConstraintKind] = frozenset(
    {
        ConstraintKind.PATH_PREFIX,
        ConstraintKind.DOMAIN_EXACT,
        ConstraintKind.DOMAIN_GLOB,
        ConstraintKind.MAX_LENGTH,
        ConstraintKind.MAX_ARGS_SIZE,
        ConstraintKind.CUSTOM,
        ConstraintKind.AUDIENCE_ALLOWLIST,
        ConstraintKind.MEMORY_STORE_ALLOWLIST,
    }
)
"""The 8 variants the portable matcher decides from the arguments (SCOPE-CON-1)."""

REFUSED_KINDS: frozenset[ConstraintKind] = frozenset(ConstraintKind) - DECIDED_KINDS
"""The 16 variants the portable matcher refuses with a constraint error (SCOPE-CON-2)."""


@dataclass(frozen=True, slots=True)
class MonetaryAmount:
    """``{"units": u64, "currency": str}``; unknown fields are rejected at decode."""

    units: int
    currency: str


@dataclass(frozen=True, slots=True)
class CumulativeApprovalRootBindingBody:
    """The signed body of a cumulative-approval root binding (shape only, never verified)."""

    schema: str
    root_capability_id: str
    root_capability_hash: str
    root_issuer: str
    root_subject: str
    root_scope_hash: str
    root_grant_hash: str
    approval_budget_id: str
    approval_budget_epoch: int
    threshold: MonetaryAmount
    root_expires_at: int


@dataclass(frozen=True, slots=True)
class CumulativeApprovalRootBinding:
    """A root binding carried by ``require_cumulative_approval_above`` (shape only)."""

    body: CumulativeApprovalRootBindingBody
    algorithm: SigningAlgorithm | None
    signature: str


# --------------------------------------------------------------------------- constraints


@dataclass(frozen=True, slots=True)
class PathPrefix:
    """Every path-like string leaf must sit under ``prefix`` (decided)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.PATH_PREFIX
    prefix: str


@dataclass(frozen=True, slots=True)
class DomainExact:
    """Every domain-like string leaf must equal ``domain`` after normalization (decided)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.DOMAIN_EXACT
    domain: str


@dataclass(frozen=True, slots=True)
class DomainGlob:
    """Every domain-like string leaf must match the ``*`` glob ``pattern`` (decided)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.DOMAIN_GLOB
    pattern: str


@dataclass(frozen=True, slots=True)
class RegexMatch:
    """A regular expression over the arguments (refused by the portable matcher)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.REGEX_MATCH
    pattern: str


@dataclass(frozen=True, slots=True)
class MaxLength:
    """Every string leaf is at most ``limit`` UTF-8 bytes (decided)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.MAX_LENGTH
    limit: int


@dataclass(frozen=True, slots=True)
class MaxArgsSize:
    """The compact serde_json rendering of the arguments is at most ``limit`` bytes (decided)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.MAX_ARGS_SIZE
    limit: int


@dataclass(frozen=True, slots=True)
class GovernedIntentRequired:
    """Requests must carry a governed intent (refused)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.GOVERNED_INTENT_REQUIRED


@dataclass(frozen=True, slots=True)
class RequireApprovalAbove:
    """Approval needed at or above ``threshold_units`` (refused)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.REQUIRE_APPROVAL_ABOVE
    threshold_units: int


@dataclass(frozen=True, slots=True)
class RequireCumulativeApprovalAbove:
    """Cumulative-spend approval (refused by the matcher; refused scope-wide by evaluate)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.REQUIRE_CUMULATIVE_APPROVAL_ABOVE
    threshold: MonetaryAmount
    approval_budget_id: str
    approval_budget_epoch: int
    cumulative_approval_root_binding: CumulativeApprovalRootBinding | None = None


@dataclass(frozen=True, slots=True)
class SellerExact:
    """Commerce approval for exactly ``seller`` (refused)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.SELLER_EXACT
    seller: str


@dataclass(frozen=True, slots=True)
class MinimumRuntimeAssurance:
    """Runtime attestation at or above ``tier`` (refused)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.MINIMUM_RUNTIME_ASSURANCE
    tier: RuntimeAssuranceTier


@dataclass(frozen=True, slots=True)
class MinimumAutonomyTier:
    """Autonomy context at or above ``tier`` (refused)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.MINIMUM_AUTONOMY_TIER
    tier: GovernedAutonomyTier


@dataclass(frozen=True, slots=True)
class Custom:
    """Some object entry ``key`` anywhere in the arguments holds the string ``expected``."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.CUSTOM
    key: str
    expected: str


@dataclass(frozen=True, slots=True)
class TableAllowlist:
    """Database tables the grant may reference (refused)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.TABLE_ALLOWLIST
    tables: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ColumnDenylist:
    """Forbidden ``table.column`` names (refused)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.COLUMN_DENYLIST
    columns: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MaxRowsReturned:
    """Row cap on query results (refused)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.MAX_ROWS_RETURNED
    limit: int


@dataclass(frozen=True, slots=True)
class OperationClass:
    """SQL operation class (refused)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.OPERATION_CLASS
    operation_class: SqlOperationClass


@dataclass(frozen=True, slots=True)
class AudienceAllowlist:
    """Every value under an audience key must be one of ``allowed`` (decided, strict)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.AUDIENCE_ALLOWLIST
    allowed: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ContentReviewTier:
    """Content review demanded of downstream guards (refused)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.CONTENT_REVIEW_TIER
    tier: ReviewTier


@dataclass(frozen=True, slots=True)
class MaxTransactionAmountUsd:
    """Decimal string cap in USD, never validated as a number (refused)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.MAX_TRANSACTION_AMOUNT_USD
    amount: str


@dataclass(frozen=True, slots=True)
class RequireDualApproval:
    """Dual approval flag (refused, whatever its value)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.REQUIRE_DUAL_APPROVAL
    required: bool


@dataclass(frozen=True, slots=True)
class ModelConstraint:
    """Model allowlist and safety floor (refused)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.MODEL_CONSTRAINT
    allowed_model_ids: tuple[str, ...]
    min_safety_tier: ModelSafetyTier | None = None


@dataclass(frozen=True, slots=True)
class MemoryStoreAllowlist:
    """Every value under a memory-store key must be one of ``allowed`` (decided, strict)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.MEMORY_STORE_ALLOWLIST
    allowed: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MemoryWriteDenyPatterns:
    """Regexes that block memory writes (refused)."""

    KIND: ClassVar[ConstraintKind] = ConstraintKind.MEMORY_WRITE_DENY_PATTERNS
    patterns: tuple[str, ...]


Constraint: TypeAlias = (
    PathPrefix
    | DomainExact
    | DomainGlob
    | RegexMatch
    | MaxLength
    | MaxArgsSize
    | GovernedIntentRequired
    | RequireApprovalAbove
    | RequireCumulativeApprovalAbove
    | SellerExact
    | MinimumRuntimeAssurance
    | MinimumAutonomyTier
    | Custom
    | TableAllowlist
    | ColumnDenylist
    | MaxRowsReturned
    | OperationClass
    | AudienceAllowlist
    | ContentReviewTier
    | MaxTransactionAmountUsd
    | RequireDualApproval
    | ModelConstraint
    | MemoryStoreAllowlist
    | MemoryWriteDenyPatterns
)
"""One of the 24 constraint variants; ``type(c).KIND`` names it."""


# --------------------------------------------------------------------------- grants


@dataclass(frozen=True, slots=True)
class ToolGrant:
    """Authorization for one tool on one server (``"*"`` is the only wildcard)."""

    server_id: str
    tool_name: str
    operations: tuple[Operation, ...]
    constraints: tuple[Constraint, ...] = ()
    max_invocations: int | None = None
    max_cost_per_invocation: MonetaryAmount | None = None
    max_total_cost: MonetaryAmount | None = None
    dpop_required: bool | None = None


@dataclass(frozen=True, slots=True)
class ResourceGrant:
    """A resource grant; decoded and validated, never read by the tool matcher."""

    uri_pattern: str
    operations: tuple[Operation, ...]


@dataclass(frozen=True, slots=True)
class PromptGrant:
    """A prompt grant; decoded and validated, never read by the tool matcher."""

    prompt_name: str
    operations: tuple[Operation, ...]


@dataclass(frozen=True, slots=True)
class ChioScope:
    """What a capability token authorizes; only ``grants`` takes part in tool matching."""

    grants: tuple[ToolGrant, ...] = ()
    resource_grants: tuple[ResourceGrant, ...] = ()
    prompt_grants: tuple[PromptGrant, ...] = ()
