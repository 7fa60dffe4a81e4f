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
    wildcard_matches,
)
from mcp_touchstone.scope._matcher import MatchedGrant, _rank_key
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


# ----------------------------------------------------------------------------- globs


def _glob_language(pattern: str, text: str) -> bool:
    """SCOPE-DOM-5 restated as the glob's regular language, by structural recursion: ``*``
    is any run (empty included), every other character itself."""
    if not pattern:
        return not text
    if pattern[0] == "*":
        return _glob_language(pattern[1:], text) or (
            bool(text) and _glob_language(pattern, text[1:])
        )
    return bool(text) and pattern[0] == text[0] and _glob_language(pattern[1:], text[1:])


def glob_decides_its_language(pattern: str, text: str) -> bool:
    """PROOF-SCOPE-GLOB-EQUIV: the backtracking matcher decides the glob's regular language.

    pre: len(pattern) <= 3 and len(text) <= 3
    post: __return__ == _glob_language(pattern, text)
    """
    return wildcard_matches(pattern, text)


def star_free_glob_literal(pattern: str, text: str) -> bool:
    """PROOF-SCOPE-GLOB-LITERAL: a glob without ``*`` matches exactly itself.

    pre: len(pattern) <= 3 and len(text) <= 3
    pre: "*" not in pattern
    post: __return__ == (pattern == text)
    """
    return wildcard_matches(pattern, text)


def subdomain_glob_not_apex(label: str, domain: str) -> bool:
    """PROOF-SCOPE-GLOB-SUBDOMAIN: ``*.D`` admits ``L.D`` for a non-empty ``L``, never ``D``.

    pre: 1 <= len(label) <= 1 and len(domain) <= 2
    post: __return__
    """
    pattern = "*." + domain
    return wildcard_matches(pattern, label + "." + domain) and not wildcard_matches(pattern, domain)


# ----------------------------------------------------------------------------- ranking

RANKED = ToolGrant("s", "t", (Operation.INVOKE,))
"""The grant of every ranked match (the key reads the specificity and the index only)."""


def _key(server_exact: bool, tool_exact: bool, count: int, index: int) -> tuple[int, ...]:
    return _rank_key(MatchedGrant(index, RANKED, (int(server_exact), int(tool_exact), count)))


def rank_key_strict_total(
    a_server: bool,
    a_tool: bool,
    a_count: int,
    a_index: int,
    b_server: bool,
    b_tool: bool,
    b_count: int,
    b_index: int,
    c_server: bool,
    c_tool: bool,
    c_count: int,
    c_index: int,
) -> bool:
    """PROOF-SCOPE-RANK-TOTAL: the sort key is a strict total order on distinct indices, and
    puts ``a`` first exactly when its specificity is greater, or equal with a lower index.

    pre: a_count >= 0 and b_count >= 0 and c_count >= 0
    pre: a_index >= 0 and b_index >= 0 and c_index >= 0
    post: __return__
    """
    a = _key(a_server, a_tool, a_count, a_index)
    b = _key(b_server, b_tool, b_count, b_index)
    c = _key(c_server, c_tool, c_count, c_index)
    a_rank = (int(a_server), int(a_tool), a_count)
    b_rank = (int(b_server), int(b_tool), b_count)
    return (
        not a < a  # noqa: PLR0124 - irreflexivity is the claim
        and not (a < b < a)
        and (not (a < b < c) or a < c)
        and (a_index == b_index or a < b or b < a)
        and (a < b) == (a_rank > b_rank or (a_rank == b_rank and a_index < b_index))
    )


HOLDING = (MaxLength(10**6), MaxLength(10**6))
"""Constraints that hold on every call here (they only count toward the specificity)."""


def _holding(count: int) -> tuple[Constraint, ...]:
    """``count`` holding constraints, each length a concrete slice (a symbolic slice makes
    CrossHair's paths explode)."""
    if count == 0:
        return ()
    if count == 1:
        return HOLDING[:1]
    return HOLDING


def _ranked_grant(server_exact: bool, tool_exact: bool, count: int) -> ToolGrant:
    return ToolGrant(
        "s" if server_exact else "*",
        "t" if tool_exact else "*",
        (Operation.INVOKE,),
        _holding(count),
    )


def exact_first_then_index(
    first_server: bool,
    first_tool: bool,
    first_count: int,
    second_server: bool,
    second_tool: bool,
    second_count: int,
) -> bool:
    """PROOF-SCOPE-RANK-EXACT: an exact server-and-tool match ranks ahead of a wildcard one
    whatever the constraint counts; equal specificities keep their grant order.

    pre: 0 <= first_count <= 2 and 0 <= second_count <= 2
    post: __return__
    """
    grants = (
        _ranked_grant(first_server, first_tool, first_count),
        _ranked_grant(second_server, second_tool, second_count),
    )
    result = resolve_matching_grants(ChioScope(grants=grants), "t", "s", None)
    if isinstance(result, ConstraintError) or len(result) != 2:
        return False
    head, tail = result
    if head.specificity == tail.specificity:
        return head.index < tail.index
    head_exact = head.specificity[:2] == (1, 1)
    tail_exact = tail.specificity[:2] == (1, 1)
    return head_exact or not tail_exact


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


def descendant_is_under(prefix: str, tail: str) -> bool:
    r"""PROOF-SCOPE-PATH-DESC: a normalizable prefix is under itself, and so is the path one
    segment below it.

    pre: len(prefix) <= 2 and len(tail) <= 1
    pre: tail not in ("/", "\\")
    post: __return__
    """
    if normalize_path(prefix) is None:
        return True
    below = prefix + "/" + tail if prefix else tail
    return path_has_prefix(prefix, prefix) and path_has_prefix(below, prefix)


def sibling_not_under(prefix: str, name: str, extra: str) -> bool:
    r"""PROOF-SCOPE-PATH-SIBLING: a sibling of a prefix is not under it, neither the sibling
    reached by climbing (``p/../c``, ``c`` another name than ``p``'s last segment) nor the one
    whose name merely extends the last segment (``/data`` against ``/database``).

    pre: len(prefix) <= 2 and len(name) <= 1 and len(extra) == 1
    pre: name not in ("", ".", "/", "\\") and extra not in ("/", "\\")
    pre: not prefix.endswith(("/", "\\"))
    post: __return__
    """
    norm = normalize_path(prefix)
    if norm is None or not norm.segments:
        return True
    climbed = prefix + "/../" + name
    return (name == norm.segments[-1] or not path_has_prefix(climbed, prefix)) and not (
        path_has_prefix(prefix + extra, prefix)
    )
