"""Tests added in session 6 to kill surviving mutants of `make mutants` (docs/assurance.md).

Every expectation is stated by hand from seed 003, ``/work/shared/reference/chio.md`` (the 24
constraint variants, the leaf walk, ``parse_domain``) and spec/scope.md; none is computed by
calling the code under test.
"""

from __future__ import annotations

import pytest

from mcp_touchstone._rust import U64_MAX, USIZE_MAX
from mcp_touchstone.scope import (
    ArgumentFacts,
    InvalidArgumentsError,
    ScopeDecodeError,
    constraint_matches,
    decode_constraint,
    decode_scope,
    resolve_matching_grants,
)
from mcp_touchstone.scope import _types as t
from mcp_touchstone.scope._arguments import parse_domain
from mcp_touchstone.scope._decode_fast import fast_scope
from mcp_touchstone.scope._regex import RegexCache
from mcp_touchstone.scope._types import (
    Constraint,
    ContentReviewTier,
    Custom,
    DomainExact,
    DomainGlob,
    GovernedAutonomyTier,
    GovernedIntentRequired,
    MaxArgsSize,
    MaxLength,
    MaxRowsReturned,
    MaxTransactionAmountUsd,
    MinimumAutonomyTier,
    MinimumRuntimeAssurance,
    OperationClass,
    PathPrefix,
    RegexMatch,
    RequireDualApproval,
    ReviewTier,
    RuntimeAssuranceTier,
    SellerExact,
    SqlOperationClass,
)
from mcp_touchstone.serde_json import JSON


def _one_grant(constraint: JSON) -> dict[str, JSON]:
    return {
        "grants": [
            {
                "server_id": "files",
                "tool_name": "read",
                "operations": ["invoke"],
                "constraints": [constraint],
            }
        ]
    }


# (tag, content, the constraint Chio's serde builds from it): every variant whose content is a
# string, an integer, a boolean, null, a tier or class named as a string, or a string list, in
# chio.md's table order; the tiers with each of their names.
_PLAIN: list[tuple[str, JSON, Constraint]] = [
    ("path_prefix", "/srv/data", PathPrefix("/srv/data")),
    ("domain_exact", "api.example.com", DomainExact("api.example.com")),
    ("domain_glob", "*.example.com", DomainGlob("*.example.com")),
    ("regex_match", "^a+$", RegexMatch("^a+$")),
    ("max_length", 3, MaxLength(3)),
    ("max_args_size", 0, MaxArgsSize(0)),
    ("governed_intent_required", None, GovernedIntentRequired()),
    ("seller_exact", "acme", SellerExact("acme")),
    ("minimum_runtime_assurance", "none", MinimumRuntimeAssurance(RuntimeAssuranceTier.NONE)),
    ("minimum_runtime_assurance", "basic", MinimumRuntimeAssurance(RuntimeAssuranceTier.BASIC)),
    (
        "minimum_runtime_assurance",
        "attested",
        MinimumRuntimeAssurance(RuntimeAssuranceTier.ATTESTED),
    ),
    (
        "minimum_runtime_assurance",
        "verified",
        MinimumRuntimeAssurance(RuntimeAssuranceTier.VERIFIED),
    ),
    ("minimum_autonomy_tier", "direct", MinimumAutonomyTier(GovernedAutonomyTier.DIRECT)),
    ("minimum_autonomy_tier", "delegated", MinimumAutonomyTier(GovernedAutonomyTier.DELEGATED)),
    ("minimum_autonomy_tier", "autonomous", MinimumAutonomyTier(GovernedAutonomyTier.AUTONOMOUS)),
    ("custom", ["region", "eu"], Custom("region", "eu")),
    ("table_allowlist", ["users"], t.TableAllowlist(("users",))),
    ("column_denylist", ["users.ssn"], t.ColumnDenylist(("users.ssn",))),
    ("max_rows_returned", 100, MaxRowsReturned(100)),
    ("operation_class", "read_only", OperationClass(SqlOperationClass.READ_ONLY)),
    ("operation_class", "read_write", OperationClass(SqlOperationClass.READ_WRITE)),
    ("operation_class", "admin", OperationClass(SqlOperationClass.ADMIN)),
    ("audience_allowlist", ["ops"], t.AudienceAllowlist(("ops",))),
    ("content_review_tier", "none", ContentReviewTier(ReviewTier.NONE)),
    ("content_review_tier", "basic", ContentReviewTier(ReviewTier.BASIC)),
    ("content_review_tier", "strict", ContentReviewTier(ReviewTier.STRICT)),
    ("max_transaction_amount_usd", "100.00", MaxTransactionAmountUsd("100.00")),
    ("require_dual_approval", True, RequireDualApproval(True)),
    ("require_dual_approval", False, RequireDualApproval(False)),
    ("memory_store_allowlist", ["notes"], t.MemoryStoreAllowlist(("notes",))),
    ("memory_write_deny_patterns", ["^secret"], t.MemoryWriteDenyPatterns(("^secret",))),
]


def test_fast_path_reads_every_plain_content_variant() -> None:
    """The one-pass decoder reads the plain ``{"type", "value"}`` form of every variant whose
    content is not a struct (21 of the 24, every tier name included), building the value
    Chio's serde builds, as the general decoder does (kills scope/_decode_fast.py's table keys
    changed, e.g. ``regex_match``, ``seller_exact``, ``minimum_runtime_assurance``: a missing
    key only sends the scope down the general path, so only the fast path's reach shows it)."""
    tags = {tag for tag, _, _ in _PLAIN}
    assert len(tags) == 21
    assert tags.isdisjoint(
        {"require_approval_above", "require_cumulative_approval_above", "model_constraint"}
    )
    for tag, content, expected in _PLAIN:
        value = _one_grant({"type": tag, "value": content})
        fast = fast_scope(value)
        assert fast is not None, (tag, content)
        assert fast.grants[0].constraints == (expected,), (tag, content)
        assert repr(fast.grants[0].constraints[0]) == repr(expected), (tag, content)
        assert decode_scope(value).grants[0].constraints == (expected,), (tag, content)


def test_unit_enum_refusals_inside_struct_fields_name_their_type() -> None:
    """SCOPE-SHAPE-6 / -9: a root binding's ``algorithm`` and a model constraint's
    ``min_safety_tier`` given a number are refused with the invalid-type message naming their
    enum, ``SigningAlgorithm`` and ``ModelSafetyTier`` (kills scope/_decode.py's two type names
    changed)."""
    body: dict[str, JSON] = {
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
    cumulative: JSON = {
        "type": "require_cumulative_approval_above",
        "value": {
            "threshold": {"units": 1000, "currency": "USD"},
            "approval_budget_id": "b",
            "approval_budget_epoch": 1,
            "cumulative_approval_root_binding": {"body": body, "algorithm": 5, "signature": "ee"},
        },
    }
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
            decode_scope(_one_grant(constraint))
        assert str(exc.value) == f"scope.grants[0].constraints[0].{message}"


def test_root_binding_rejects_an_unknown_key() -> None:
    """SCOPE-SHAPE-6: a root binding whose body is complete but which carries a key of its own
    it does not declare is refused at the binding (Chio's ``deny_unknown_fields``), not
    decoded (kills scope/_decode.py's binding ``deny_unknown=True`` -> ``False``)."""
    body: dict[str, JSON] = {
        "schema": "s",
        "root_capability_id": "c",
        "root_capability_hash": "h",
        "root_issuer": "i",
        "root_subject": "j",
        "root_scope_hash": "k",
        "root_grant_hash": "g",
        "approval_budget_id": "b",
        "approval_budget_epoch": 1,
        "threshold": {"units": 1, "currency": "USD"},
        "root_expires_at": 2,
    }
    binding: dict[str, JSON] = {"body": body, "signature": "ee"}
    value: dict[str, JSON] = {
        "threshold": {"units": 1, "currency": "USD"},
        "approval_budget_id": "b",
        "approval_budget_epoch": 1,
        "cumulative_approval_root_binding": binding,
    }
    constraint: JSON = {"type": "require_cumulative_approval_above", "value": value}
    decoded = decode_constraint(constraint)  # the binding as it is decodes
    assert isinstance(decoded, t.RequireCumulativeApprovalAbove)
    binding["x"] = 1
    with pytest.raises(ScopeDecodeError) as exc:
        decode_constraint(constraint)
    assert exc.value.where == "constraint.value.cumulative_approval_root_binding"
    assert exc.value.problem.startswith("unknown field `x`, expected ")


def test_a_constraint_without_type_is_missing_field_type() -> None:
    """SCOPE-SHAPE-4: an adjacently tagged constraint map without its tag is refused with
    serde's exact ``missing field `type``` (kills scope/_decode.py's message changed: the
    earlier tests matched it as a substring)."""
    untagged: list[JSON] = [{"value": "/data"}, {}]
    for constraint in untagged:
        with pytest.raises(ScopeDecodeError) as exc:
            decode_constraint(constraint)
        assert str(exc.value) == "constraint: missing field `type`"
        with pytest.raises(ScopeDecodeError) as exc:
            decode_scope(_one_grant(constraint))
        assert str(exc.value) == "scope.grants[0].constraints[0]: missing field `type`"


def test_regex_cache_bounds_accept_zero_pattern_chars() -> None:
    """SCOPE-HOSTED-RX-5: a cache whose pattern bound is 0 is valid (it holds only the empty
    pattern; every other is compiled each time), a negative bound or no entries is refused
    (kills scope/_regex.py's ``max_pattern_chars < 0`` -> ``<= 0``)."""
    cache = RegexCache(max_entries=1, max_pattern_chars=0)
    assert cache.max_pattern_chars == 0
    assert cache.compile("") is cache.compile("")  # held
    assert cache.compile("a") is not cache.compile("a")  # longer than the bound: never held
    for entries, chars in ((1, -1), (0, 0)):
        with pytest.raises(ValueError, match=r"^a regex cache holds at least one pattern$"):
            RegexCache(max_entries=entries, max_pattern_chars=chars)


def test_leaves_of_top_level_strings_have_no_path_key() -> None:
    """SCOPE-ARG-1 / SCOPE-PATH-1: a top-level string, or a string of a top-level array, has no
    key, so only a separator in its value makes it a path candidate (kills scope/_arguments.py's
    root walk started with ``path_key=True``; the vectors ``scope-path-top-level-*`` too)."""
    assert ArgumentFacts("note").path_candidates == ()
    assert ArgumentFacts(["/data/a", "note"]).path_candidates == ((True, ("data", "a")),)
    assert constraint_matches(PathPrefix(""), ArgumentFacts("note")) is False
    assert constraint_matches(PathPrefix("/data"), ArgumentFacts(["/data/a", "note"])) is True


def test_a_backslash_alone_makes_a_path_candidate() -> None:
    """SCOPE-PATH-1: a value whose only separator is ``\\``, under a key that is no path key, is
    a candidate (kills scope/_arguments.py's ``"\\\\" in value`` changed)."""
    assert ArgumentFacts({"note": "\\data\\a"}).path_candidates == ((True, ("data", "a")),)
    assert ArgumentFacts({"note": "a\\b"}).path_candidates == ((False, ("a", "b")),)
    assert constraint_matches(PathPrefix("/data"), ArgumentFacts({"note": "\\data\\a"})) is True
    assert (
        constraint_matches(PathPrefix("/data"), ArgumentFacts({"path": "/data/a", "note": "a\\b"}))
        is False
    )


def test_parse_domain_keeps_what_follows_the_first_scheme_after_a_leading_slash() -> None:
    """SCOPE-DOM-2 step 2: a value that starts with ``/`` but holds ``://`` names the host after
    the first ``://`` (Chio's ``split_once("://")``); only a leading ``/`` with no ``://`` has an
    empty authority (kills scope/_arguments.py's fast reject ``"://" not in`` -> ``in``)."""
    table = {
        "/go://a.example.com/x": "a.example.com",
        "/r?to=x://API.example.com:1/": "api.example.com",
        "//a.example.com": None,
        "/a.example.com": None,
    }
    for value, domain in table.items():
        assert parse_domain(value) == domain, value
    assert (
        constraint_matches(
            DomainExact("a.example.com"), ArgumentFacts({"u": "/go://a.example.com/x"})
        )
        is True
    )


def test_a_denied_field_of_a_wide_struct_lists_one_of_the_fields() -> None:
    """SCOPE-SHAPE-6: serde words a denied field of a struct with three or more fields
    ``expected one of `a`, `b`, `c``` (serde's ``OneOf``), two fields ``expected `a` or `b```;
    the decoder once wrote ``expected `a` or `b` or `c``` for every width."""
    binding: dict[str, JSON] = {"body": {}, "signature": "ee", "x": 1}
    value: dict[str, JSON] = {
        "threshold": {"units": 1, "currency": "USD"},
        "approval_budget_id": "b",
        "approval_budget_epoch": 1,
        "cumulative_approval_root_binding": binding,
    }
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


def test_fast_path_reads_integer_contents_at_their_bounds() -> None:
    """The one-pass decoder reads ``max_length`` and ``max_args_size`` (usize) at 0 and
    ``usize::MAX`` and ``max_rows_returned`` (u64) at 0 and ``u64::MAX``, and leaves one past
    the bound to the general decoder, which refuses it (kills scope/_decode_fast.py's
    ``0 <= content`` -> ``0 < content``: only the fast path's reach shows it)."""
    for tag, make, top in (
        ("max_length", MaxLength, USIZE_MAX),
        ("max_args_size", MaxArgsSize, USIZE_MAX),
        ("max_rows_returned", MaxRowsReturned, U64_MAX),
    ):
        for content in (0, top):
            fast = fast_scope(_one_grant({"type": tag, "value": content}))
            assert fast is not None, (tag, content)
            assert fast.grants[0].constraints == (make(content),), (tag, content)
        assert fast_scope(_one_grant({"type": tag, "value": top + 1})) is None, tag
        assert fast_scope(_one_grant({"type": tag, "value": -1})) is None, tag
        with pytest.raises(ScopeDecodeError):
            decode_scope(_one_grant({"type": tag, "value": -1}))


def test_non_json_arguments_are_refused_naming_arguments() -> None:
    """SCOPE-ARG-1: arguments serde_json could not hold (a NaN, a set) are refused before any
    grant is read, the message naming the place ``arguments`` (kills scope/_matcher.py's
    ``where="arguments"`` changed)."""
    scope = decode_scope({"grants": []})
    with pytest.raises(InvalidArgumentsError) as exc:
        resolve_matching_grants(scope, "t", "s", float("nan"))
    assert str(exc.value) == "arguments: non-finite float nan"
    with pytest.raises(InvalidArgumentsError) as exc:
        resolve_matching_grants(scope, "t", "s", {1, 2})  # type: ignore[arg-type]
    assert str(exc.value) == "arguments: set is not a JSON value"
