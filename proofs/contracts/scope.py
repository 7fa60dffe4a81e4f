# ruff: noqa: PLR0917 - CrossHair builds every symbolic input as a positional argument.
"""CrossHair contracts on the Chio scope matcher (PEP 316 ``pre:``/``post:`` docstrings)."""

from __future__ import annotations

from typing import cast

from mcp_touchstone.scope import (
    REFUSED_KINDS,  # noqa: F401 - read by a ``pre:`` contract (ruff does not see docstrings)
    ChioScope,
    Constraint,
    ConstraintError,
    ConstraintKind,
    MonetaryAmount,
    Operation,
    ToolGrant,
    resolve_matching_grants,
)
from mcp_touchstone.scope._arguments import (
    AUDIENCE_KEYS,  # noqa: F401 - read by a ``pre:`` contract
    ascii_lower,  # noqa: F401 - read by a ``pre:`` contract
    normalize_path,
    path_has_prefix,
)
from mcp_touchstone.scope._types import (
    AudienceAllowlist,
    ColumnDenylist,
    ContentReviewTier,
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
    OperationClass,
    RegexMatch,
    RequireApprovalAbove,
    RequireCumulativeApprovalAbove,
    RequireDualApproval,
    ReviewTier,
    RuntimeAssuranceTier,
    SellerExact,
    SqlOperationClass,
    TableAllowlist,
)
from mcp_touchstone.serde_json import JSON


def uncovering_grant_no_match(
    server: str, tool: str, req_server: str, req_tool: str, invoke: bool, which: int
) -> bool:
    """PROOF-SCOPE-UNCOVERED: a grant whose server, tool or operations miss the call yields ().

    pre: 0 <= which <= 2
    pre: len(server) <= 2 and len(tool) <= 2 and len(req_server) <= 1 and len(req_tool) <= 1
    pre: which != 0 or (server != "*" and server != req_server)
    pre: which != 1 or (tool != "*" and tool != req_tool)
    pre: which != 2 or not invoke
    post: __return__
    """
    ops = (Operation.INVOKE,) if invoke else (Operation.READ,)
    scope = ChioScope(grants=(ToolGrant(server, tool, ops),))
    return resolve_matching_grants(scope, req_tool, req_server, None) == ()


def star_grant_single_zero_match(req_server: str, req_tool: str) -> bool:
    """PROOF-SCOPE-STAR: a lone ``*/*`` invoke grant yields exactly one match, (0, 0, 0).

    pre: req_server != "*" and req_tool != "*"
    post: __return__
    """
    scope = ChioScope(grants=(ToolGrant("*", "*", (Operation.INVOKE,)),))
    result = resolve_matching_grants(scope, req_tool, req_server, None)
    return (
        not isinstance(result, ConstraintError)
        and len(result) == 1
        and result[0].index == 0
        and result[0].specificity == (0, 0, 0)
    )


def max_length_inclusive(text: str, slack: int) -> bool:
    """PROOF-SCOPE-MAXLEN: MaxLength holds at limit == byte length, fails one below it.

    pre: -1 <= slack <= 1
    pre: len(text) <= 2
    pre: all(not ("\ud800" <= c <= "\udfff") for c in text)
    post: __return__
    """
    size = len(text.encode("utf-8"))
    scope = ChioScope(
        grants=(ToolGrant("s", "t", (Operation.INVOKE,), (MaxLength(size + slack),)),)
    )
    result = resolve_matching_grants(scope, "t", "s", {"v": text})
    return (result != ()) == (slack >= 0)


def max_args_size_inclusive(number: int, slack: int) -> bool:
    """PROOF-SCOPE-MAXARGS: MaxArgsSize holds at limit == rendered size, fails one below it.

    pre: -1 <= slack <= 1
    pre: -(2**63) <= number < 2**64
    post: __return__
    """
    size = len('{"n":' + str(number) + "}")
    grant = ToolGrant("s", "t", (Operation.INVOKE,), (MaxArgsSize(size + slack),))
    result = resolve_matching_grants(ChioScope(grants=(grant,)), "t", "s", {"n": number})
    return (result != ()) == (slack >= 0)


# ----------------------------------------------------------------------------- allowlists

Leaf = None | bool | int | str
J1 = Leaf | list[Leaf]
"""A bounded, non-recursive JSON alias (CrossHair crashes on recursive aliases)."""


def _json_ok(value: J1) -> bool:
    """A value of the bounded domain: arrays of <= 2 leaves, strings of <= 1 character (any
    code point but a lone surrogate), integers within i64/u64."""
    leaves = value if isinstance(value, list) else [value]
    return len(leaves) <= 2 and all(
        (not isinstance(x, int) or isinstance(x, bool) or -(2**63) <= x < 2**64)
        and (not isinstance(x, str) or len(x) <= 1)
        and (not isinstance(x, str) or all(not ("\ud800" <= c <= "\udfff") for c in x))
        for x in leaves
    )


def _strict_spec(value: J1, allowed: tuple[str, ...]) -> bool:
    """SCOPE-ALLOW-2/3 restated: a string, or a non-empty array of strings, all allowed."""
    if isinstance(value, str):
        return value in allowed
    if isinstance(value, list) and value and all(isinstance(x, str) for x in value):
        return all(x in allowed for x in value)
    return False


def _allowlist_verdict(constraint: Constraint, key: str, value: J1) -> bool:
    grant = ToolGrant("s", "t", (Operation.INVOKE,), (constraint,))
    arguments = cast("JSON", {key: value})
    return resolve_matching_grants(ChioScope(grants=(grant,)), "t", "s", arguments) != ()


def audience_strict(value: J1) -> bool:
    """PROOF-SCOPE-AUD-STRICT: an audience value passes iff it is an allowed string or a
    non-empty array of allowed strings; null, [], non-strings and mixed arrays fail closed.

    pre: _json_ok(value)
    post: __return__ == _strict_spec(value, ("ops", "dev"))
    """
    return _allowlist_verdict(AudienceAllowlist(("ops", "dev")), "To", value)


def store_strict(value: J1) -> bool:
    """PROOF-SCOPE-STORE-STRICT: the same strict verdict for memory-store values.

    pre: _json_ok(value)
    post: __return__ == _strict_spec(value, ("notes",))
    """
    return _allowlist_verdict(MemoryStoreAllowlist(("notes",)), "store", value)


def absent_key_allows(key: str, value: J1) -> bool:
    """PROOF-SCOPE-AUD-ABSENT: with no audience key anywhere the allowlist holds.

    pre: _json_ok(value)
    pre: ascii_lower(key) not in AUDIENCE_KEYS
    post: __return__
    """
    return _allowlist_verdict(AudienceAllowlist(("ops",)), key, value)


# ----------------------------------------------------------------------------- paths


def normalized_segments_clean(path: str) -> bool:
    """PROOF-SCOPE-PATH-NORMAL: a normalized path holds no empty, ``.`` or ``..`` segment and
    no separator, and keeps the absolute flag of its input.

    pre: len(path) <= 3
    post: __return__
    """
    norm = normalize_path(path)
    if norm is None:
        return True
    return norm.is_absolute == path.startswith(("/", "\\")) and all(
        seg not in ("", ".", "..") and "/" not in seg and "\\" not in seg for seg in norm.segments
    )


def absolute_never_under_relative(absolute: str, relative: str) -> bool:
    """PROOF-SCOPE-PATH-ABS: an absolute path is never under a relative one, nor the reverse.

    pre: len(absolute) <= 2 and len(relative) <= 2
    pre: absolute.startswith("/")
    pre: not relative.startswith(("/", "\\"))
    post: __return__
    """
    return not path_has_prefix(absolute, relative) and not path_has_prefix(relative, absolute)


# ----------------------------------------------------------------------------- refusals

REFUSED: dict[ConstraintKind, Constraint] = {
    ConstraintKind.REGEX_MATCH: RegexMatch(".*"),
    ConstraintKind.GOVERNED_INTENT_REQUIRED: GovernedIntentRequired(),
    ConstraintKind.REQUIRE_APPROVAL_ABOVE: RequireApprovalAbove(1),
    ConstraintKind.REQUIRE_CUMULATIVE_APPROVAL_ABOVE: RequireCumulativeApprovalAbove(
        MonetaryAmount(1, "USD"), "budget", 0
    ),
    ConstraintKind.SELLER_EXACT: SellerExact("s"),
    ConstraintKind.MINIMUM_RUNTIME_ASSURANCE: MinimumRuntimeAssurance(RuntimeAssuranceTier.NONE),
    ConstraintKind.MINIMUM_AUTONOMY_TIER: MinimumAutonomyTier(GovernedAutonomyTier.DIRECT),
    ConstraintKind.TABLE_ALLOWLIST: TableAllowlist(()),
    ConstraintKind.COLUMN_DENYLIST: ColumnDenylist(()),
    ConstraintKind.MAX_ROWS_RETURNED: MaxRowsReturned(1),
    ConstraintKind.OPERATION_CLASS: OperationClass(SqlOperationClass.READ_ONLY),
    ConstraintKind.CONTENT_REVIEW_TIER: ContentReviewTier(ReviewTier.NONE),
    ConstraintKind.MAX_TRANSACTION_AMOUNT_USD: MaxTransactionAmountUsd("1"),
    ConstraintKind.REQUIRE_DUAL_APPROVAL: RequireDualApproval(False),
    ConstraintKind.MODEL_CONSTRAINT: ModelConstraint(()),
    ConstraintKind.MEMORY_WRITE_DENY_PATTERNS: MemoryWriteDenyPatterns(()),
}
"""One instance of each of the 16 refused variants (values the matcher never reads)."""


def refusal_on_target_aborts(
    kind: ConstraintKind, server: str, tool: str, earlier: bool, later: bool, star: bool
) -> bool:
    """PROOF-SCOPE-REFUSAL: a refused constraint reached on a target grant aborts the call with
    its exact error, whatever matched before and whatever follows.

    pre: kind in REFUSED_KINDS
    pre: len(server) <= 1 and len(tool) <= 1
    post: __return__
    """
    target = ToolGrant(
        "*" if star else server, tool, (Operation.INVOKE,), (MaxLength(10**6), REFUSED[kind])
    )
    grants: tuple[ToolGrant, ...] = (ToolGrant("*", "*", (Operation.INVOKE,)),) if earlier else ()
    grants += (target,)
    if later:
        grants += (ToolGrant(server, tool, (Operation.INVOKE,)),)
    result = resolve_matching_grants(ChioScope(grants=grants), tool, server, None)
    return result == ConstraintError("portable kernel cannot safely evaluate " + kind.value)


def non_target_grant_changes_nothing(
    server: str, tool: str, other: str, kind: ConstraintKind, at: int, exact: bool
) -> bool:
    """PROOF-SCOPE-NONMATCH: inserting a grant that does not target the call (even one
    carrying a refused constraint) leaves the ranked answer unchanged.

    pre: kind in REFUSED_KINDS
    pre: 0 <= at <= 2
    pre: len(server) <= 1 and len(tool) <= 1 and len(other) <= 1
    pre: other != "*" and other != server
    post: __return__
    """
    base = (
        ToolGrant("*", "*", (Operation.INVOKE,)),
        ToolGrant(server, tool if exact else "*", (Operation.INVOKE,), (MaxLength(10**6),)),
    )
    extra = ToolGrant(other, tool, (Operation.INVOKE,), (REFUSED[kind],))
    grown = (*base[:at], extra, *base[at:])
    before = resolve_matching_grants(ChioScope(grants=base), tool, server, None)
    after = resolve_matching_grants(ChioScope(grants=grown), tool, server, None)
    if isinstance(before, ConstraintError) or isinstance(after, ConstraintError):
        return False
    return [(m.grant, m.specificity) for m in before] == [(m.grant, m.specificity) for m in after]
