"""The hosted matcher profile (SCOPE-HOSTED-*): the upstream request_matching.rs tests under their
own names, a table over all 24 variants, and the regex, deny-pattern and model quirks."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from mcp_touchstone.scope import (
    HOSTED_BEHAVIOUR,
    HOSTED_DECIDED_KINDS,
    HOSTED_DROP_KINDS,
    HOSTED_PASS_KINDS,
    ConstraintKind,
    HostedBehaviour,
    HostedFacts,
    HostedOutOfScope,
    InvalidConstraint,
    MatchedGrant,
    ModelMetadata,
    ModelSafetyTier,
    decode_constraint,
    hosted_constraint_matches,
    resolve_hosted_matching_grants,
    resolve_required_hosted_matching_grants,
)
from mcp_touchstone.serde_json import JSON
from tests.scope._helpers import con, grant, scope


def _one(constraints: Sequence[JSON]) -> tuple[MatchedGrant, ...] | InvalidConstraint:
    """Resolve ``tool`` on ``srv`` against a one-grant scope carrying ``constraints``."""
    return resolve_hosted_matching_grants(
        scope(grant("srv", "tool", list(constraints))), "tool", "srv", {}
    )


def _matches(
    constraints: Sequence[JSON], arguments: JSON, meta: ModelMetadata | None = None
) -> bool:
    """Whether the one-grant scope covers ``tool@srv`` (fails on an error)."""
    found = resolve_hosted_matching_grants(
        scope(grant("srv", "tool", list(constraints))), "tool", "srv", arguments, meta
    )
    assert not isinstance(found, InvalidConstraint), found
    return bool(found)


def _error(constraints: Sequence[JSON], arguments: JSON) -> str:
    """The invalid_constraint message the one-grant scope gives."""
    found = resolve_hosted_matching_grants(
        scope(grant("srv", "tool", list(constraints))), "tool", "srv", arguments
    )
    assert isinstance(found, InvalidConstraint), found
    return found.message


# ----------------------------------------------------------------- upstream tests (same file)


def test_content_review_tier_fails_closed_without_review_guard_context() -> None:
    """Upstream: content_review_tier strict is false at the matcher (SCOPE-HOSTED-CON-3)."""
    args: JSON = {"text": "review this outbound message"}
    assert not _matches([con("content_review_tier", "strict")], args)


def test_governed_transaction_constraints_fail_closed_without_specialized_enforcement() -> None:
    """Upstream: max_transaction_amount_usd and require_dual_approval(true) are false."""
    for constraint in (
        con("max_transaction_amount_usd", "100.00"),
        con("require_dual_approval", True),
    ):
        assert not _matches([constraint], {"amount_usd": "25.00"})


def test_path_prefix_constraint_rejects_traversal_and_sibling_prefixes() -> None:
    """Upstream: the portable path semantics hold in the hosted profile (SCOPE-HOSTED-CON-1)."""
    prefix = [con("path_prefix", "/workspace/safe")]
    assert _matches(prefix, {"path": "/workspace/safe/report.txt"})
    assert not _matches(prefix, {"path": "/workspace/safe/../secret.txt"})
    assert not _matches(prefix, {"path": "/workspace/safeX/report.txt"})


def test_resolve_required_matching_grants_maps_empty_matches_to_out_of_scope() -> None:
    """Upstream: the required form turns no match into OutOfScope naming tool and server."""
    found = resolve_required_hosted_matching_grants(
        scope(grant("srv", "tool")), "other_tool", "srv", {"msg": "hello"}
    )
    assert found == HostedOutOfScope(tool="other_tool", server="srv")
    assert isinstance(found, HostedOutOfScope)
    assert found.message == "requested tool other_tool on server srv is not in capability scope"


def test_audience_allowlist_rejects_non_string_values() -> None:
    """Upstream: a string passes; an object or an empty array under `recipient(s)` fails."""
    allow = [con("audience_allowlist", ["#ops"])]
    assert _matches(allow, {"recipient": "#ops"})
    assert not _matches(allow, {"recipient": {"channel": "#ops"}})
    assert not _matches(allow, {"recipients": []})


def test_memory_store_allowlist_rejects_non_string_values() -> None:
    """Upstream: a string passes; an object or null under `store` fails."""
    allow = [con("memory_store_allowlist", ["session-cache"])]
    assert _matches(allow, {"store": "session-cache"})
    assert not _matches(allow, {"store": {"name": "session-cache"}})
    assert not _matches(allow, {"store": None})


def test_required_form_passes_matches_and_errors_through() -> None:
    """SCOPE-HOSTED-RES-2: a non-empty list and an invalid_constraint pass through unchanged."""
    ok = resolve_required_hosted_matching_grants(scope(grant("srv", "tool")), "tool", "srv", {})
    assert isinstance(ok, tuple)
    assert [m.index for m in ok] == [0]
    bad = scope(grant("srv", "tool", [con("regex_match", "(")]))
    err = resolve_required_hosted_matching_grants(bad, "tool", "srv", {})
    assert isinstance(err, InvalidConstraint)


# ----------------------------------------------------------------- the 24 variants

# (constraint JSON, arguments, expected verdict).  Arguments are chosen so that the decided
# variants go both ways and the Ok(true)/Ok(false) variants meet arguments that "look" relevant.
VARIANT_TABLE: list[tuple[str, JSON, JSON, bool]] = [
    ("path_prefix", "/data", {"path": "/data/a"}, True),
    ("path_prefix", "/data", {"q": "x"}, False),
    ("domain_exact", "example.com", {"u": "https://example.com/x"}, True),
    ("domain_exact", "example.com", {"u": "https://example.com", "f": "report.txt"}, False),
    ("domain_glob", "*.example.com", {"u": "https://a.b.example.com"}, True),
    ("domain_glob", "*.example.com", {"u": "https://example.com"}, False),
    ("regex_match", "^ab", {"k": "abc"}, True),
    ("regex_match", "^ab", {"k": "cab"}, False),
    ("max_length", 3, {"k": "abc"}, True),
    ("max_length", 2, {"k": "abc"}, False),
    ("max_args_size", 11, {"k": "abc"}, True),
    ("max_args_size", 10, {"k": "abc"}, False),
    ("governed_intent_required", None, {}, True),
    ("require_approval_above", {"threshold_units": 0}, {"amount": 10**6}, True),
    (
        "require_cumulative_approval_above",
        {
            "threshold": {"units": 0, "currency": "USD"},
            "approval_budget_id": "b",
            "approval_budget_epoch": 1,
        },
        {},
        True,
    ),
    ("seller_exact", "acme", {"seller": "evil"}, True),
    ("minimum_runtime_assurance", "verified", {}, True),
    ("minimum_autonomy_tier", "autonomous", {}, True),
    ("custom", ["env", "prod"], {"x": [{"env": "prod"}]}, True),
    ("custom", ["env", "prod"], {"env": "dev"}, False),
    ("table_allowlist", [], {"sql": "select * from secrets"}, True),
    ("column_denylist", ["users.ssn"], {"sql": "select ssn from users"}, True),
    ("max_rows_returned", 0, {}, True),
    ("operation_class", "read_only", {"sql": "drop table t"}, True),
    ("audience_allowlist", ["#ops"], {"to": "#ops"}, True),
    ("audience_allowlist", ["#ops"], {"to": None}, False),
    ("content_review_tier", "none", {}, False),
    ("content_review_tier", "basic", {"text": "hi"}, False),
    ("max_transaction_amount_usd", "1000000.00", {"amount_usd": "1.00"}, False),
    ("require_dual_approval", False, {}, False),
    ("model_constraint", {"allowed_model_ids": []}, {}, True),
    ("model_constraint", {"allowed_model_ids": ["m1"]}, {}, False),
    ("memory_store_allowlist", ["notes"], {"store": "notes"}, True),
    ("memory_store_allowlist", ["notes"], {"store": "other"}, False),
    ("memory_write_deny_patterns", ["secret"], {"v": "public"}, True),
    ("memory_write_deny_patterns", ["secret"], {"v": "top secret"}, False),
]


@pytest.mark.parametrize(("kind", "value", "arguments", "expected"), VARIANT_TABLE)
def test_variant_table(kind: str, value: JSON, arguments: JSON, expected: bool) -> None:
    """SCOPE-HOSTED-CON-1..3: each variant's verdict, through the matcher and one-by-one."""
    assert _matches([con(kind, value)], arguments) is expected
    facts = HostedFacts(arguments)
    assert hosted_constraint_matches(decode_constraint(con(kind, value)), facts) is expected


def test_table_covers_every_variant() -> None:
    """SCOPE-HOSTED-CON-4: the table above exercises all 24 variants."""
    assert {ConstraintKind(kind) for kind, *_ in VARIANT_TABLE} == set(ConstraintKind)


def test_behaviour_split_is_eleven_ten_three() -> None:
    """SCOPE-HOSTED-CON-4: the seed's 11 / 10 / 3 split partitions the 24 variants."""
    assert len(HOSTED_DECIDED_KINDS) == 11
    assert len(HOSTED_PASS_KINDS) == 10
    assert len(HOSTED_DROP_KINDS) == 3
    assert set(ConstraintKind) == HOSTED_DECIDED_KINDS | HOSTED_PASS_KINDS | HOSTED_DROP_KINDS
    assert len(HOSTED_BEHAVIOUR) == 24
    assert {k for k, b in HOSTED_BEHAVIOUR.items() if b is HostedBehaviour.DROPPED} == {
        ConstraintKind.CONTENT_REVIEW_TIER,
        ConstraintKind.MAX_TRANSACTION_AMOUNT_USD,
        ConstraintKind.REQUIRE_DUAL_APPROVAL,
    }
    assert ConstraintKind.REQUIRE_CUMULATIVE_APPROVAL_ABOVE in HOSTED_PASS_KINDS


# ----------------------------------------------------------------- resolution and ranking


def test_dropped_candidate_lets_a_sibling_admit() -> None:
    """SCOPE-HOSTED-CON-3: an Ok(false) variant drops its grant, not the call; */* survives."""
    sc = scope(grant("srv", "tool", [con("require_dual_approval", False)]), grant("*", "*"))
    found = resolve_hosted_matching_grants(sc, "tool", "srv", {})
    assert isinstance(found, tuple)
    assert [(m.index, m.specificity) for m in found] == [(1, (0, 0, 0))]


def test_pass_variants_outrank_on_constraints_checked_later() -> None:
    """SCOPE-HOSTED-RANK-1: unchecked Ok(true) constraints still count in the third key."""
    sc = scope(
        grant("srv", "tool", [con("max_length", 100)]),
        grant("srv", "tool", [con("seller_exact", "x"), con("operation_class", "admin")]),
    )
    found = resolve_hosted_matching_grants(sc, "tool", "srv", {"q": "a"})
    assert isinstance(found, tuple)
    assert [(m.index, m.specificity) for m in found] == [(1, (1, 1, 2)), (0, (1, 1, 1))]


def test_false_before_bad_regex_never_compiles_it() -> None:
    """SCOPE-HOSTED-RES-1: the walk short-circuits, so a bad pattern behind a false one is
    never reached; in the other order the error aborts everything."""
    assert _one([con("require_dual_approval", True), con("regex_match", "(")]) == ()
    assert isinstance(
        _one([con("regex_match", "("), con("require_dual_approval", True)]), InvalidConstraint
    )


def test_error_discards_earlier_matches_and_skips_non_targets() -> None:
    """SCOPE-HOSTED-RES-1: an error on a later target aborts; on a non-target it is never seen."""
    sc = scope(grant("*", "*"), grant("srv", "tool", [con("regex_match", "(?=x)")]))
    assert isinstance(resolve_hosted_matching_grants(sc, "tool", "srv", {}), InvalidConstraint)
    sc2 = scope(grant("*", "*"), grant("other", "tool", [con("regex_match", "(?=x)")]))
    assert resolve_hosted_matching_grants(sc2, "tool", "srv", {}) != ()
    sc3 = scope(grant("srv", "tool", [con("regex_match", "(")], operations=["read"]))
    assert resolve_hosted_matching_grants(sc3, "tool", "srv", {}) == ()


# ----------------------------------------------------------------- regex: the Rust crate


@pytest.mark.parametrize(
    "pattern",
    [r"(?=x)", r"(?!x)", r"(?<=x)a", r"(?<!x)a", r"(a)\1", r"\Z", r"(?#c)", r"(?>a)", r"a{,3}",
     r"\K", r"\h", r"(", "a{2,1}", r"[a-\d]", "a{1000}{1000}", "(" * 251 + ")" * 251],
)  # fmt: skip
def test_rust_refuses_what_python_may_accept(pattern: str) -> None:
    """SCOPE-HOSTED-RX-1: lookaround, backreferences, Python-only escapes, oversize programs and
    deep nesting do not compile in the Rust crate; the message names the pattern."""
    message = _error([con("regex_match", pattern)], {"k": "x"})
    assert message.startswith(
        f'invalid capability constraint: regex "{pattern}" failed to compile: '
    )


@pytest.mark.parametrize(
    "pattern",
    [r"(?<name>x)", r"(?P<name>x)", r"\p{Greek}", r"\pL", r"[\w--\d]", r"\x{41}", r"\z", "a**",
     r"[[:alpha:]]", r"\b{start}", "(" * 250 + ")" * 250, "a{1000}", ""],
)  # fmt: skip
def test_rust_compiles_what_python_may_refuse(pattern: str) -> None:
    """SCOPE-HOSTED-RX-1: Rust-only syntax compiles (no error, a verdict)."""
    assert isinstance(_one([con("regex_match", pattern)]), tuple)


@pytest.mark.parametrize(
    ("pattern", "text", "expected"),
    [
        (r"\w", "é", True),
        (r"\d", "٣", True),
        (r"(?i)k", "\u212a", True),
        (r"\s", "\x1c", False),
        ("^a$", "a\n", False),
        (r"[[:alpha:]]", "é", False),
        (r"\p{Greek}", "\u03b1", True),  # GREEK SMALL LETTER ALPHA
        (r"(?-u:\w)", "é", False),
        ("b", "abc", True),
        ("^b", "abc", False),
        ("", "", True),
    ],
)
def test_rust_matching_semantics(pattern: str, text: str, expected: bool) -> None:
    """SCOPE-HOSTED-RX-1, SCOPE-HOSTED-RX-4: Unicode classes, case folding, `$` and `\\s` are
    the crate's; the match is unanchored."""
    assert _matches([con("regex_match", pattern)], {"k": text}) is expected


def test_regex_match_reads_any_string_leaf_and_needs_one() -> None:
    """SCOPE-HOSTED-RX-4: any string leaf at any depth, keys not included; no leaf is false."""
    rx = [con("regex_match", "^secret$")]
    assert _matches(rx, {"a": [1, {"b": ["x", "secret"]}]})
    assert not _matches(rx, {"secret": 1})
    assert not _matches([con("regex_match", "")], {"n": 5, "b": True, "z": None})
    assert _matches([con("regex_match", "")], "top-level string")


def test_bad_regex_is_an_error_even_without_leaves() -> None:
    """SCOPE-HOSTED-RX-2: the pattern is compiled before any leaf is read."""
    assert _error([con("regex_match", "(")], {}).startswith(
        'invalid capability constraint: regex "(" failed to compile: '
    )


def test_error_message_carries_the_crate_text() -> None:
    """SCOPE-HOSTED-RX-3: the detail is the Rust crate's Display of the error."""
    message = _error([con("regex_match", "(?=x)")], {})
    assert message.endswith(
        "error: look-around, including look-ahead and look-behind, is not supported"
    )
    big = _error([con("regex_match", "a{1000}{1000}")], {})
    assert big.endswith("failed to compile: Compiled regex exceeds size limit of 10485760 bytes.")


# ----------------------------------------------------------------- memory_write_deny_patterns


def test_deny_patterns_compile_in_order_and_stop_at_first_hit() -> None:
    """SCOPE-HOSTED-DENY-1: a later bad pattern is never compiled once an earlier one matched."""
    deny = [con("memory_write_deny_patterns", ["secret", "("])]
    assert not _matches(deny, {"v": "my secret"})
    message = _error(deny, {"v": "public"})
    assert message.startswith(
        'invalid capability constraint: memory write deny pattern "(" failed to compile: '
    )


def test_deny_patterns_bad_first_pattern_errors_even_when_a_later_one_matches() -> None:
    """SCOPE-HOSTED-DENY-1: a bad first pattern errors before the later one is tried."""
    assert 'deny pattern "("' in _error(
        [con("memory_write_deny_patterns", ["(", "secret"])], {"v": "secret"}
    )


def test_deny_patterns_without_leaves_compile_every_pattern() -> None:
    """SCOPE-HOSTED-DENY-2: with no string leaf nothing matches, so every pattern is compiled."""
    assert _error([con("memory_write_deny_patterns", ["a", "b", "(?=x)"])], {"n": 1})
    assert _matches([con("memory_write_deny_patterns", ["a", "b"])], {"n": 1})


def test_deny_patterns_empty_list_and_unanchored() -> None:
    """SCOPE-HOSTED-DENY-2: an empty list is true; patterns search anywhere in any leaf."""
    assert _matches([con("memory_write_deny_patterns", [])], {"v": "anything"})
    assert not _matches([con("memory_write_deny_patterns", ["x", "cre"])], {"a": ["ok", "secret"]})


# ----------------------------------------------------------------- model_constraint


def _meta(model: str, tier: str | None = None) -> ModelMetadata:
    return ModelMetadata(model, None if tier is None else ModelSafetyTier(tier))


@pytest.mark.parametrize(
    ("value", "meta", "expected"),
    [
        ({"allowed_model_ids": []}, None, True),  # rule 1
        ({"allowed_model_ids": [], "min_safety_tier": None}, _meta("x"), True),  # rule 1
        ({"allowed_model_ids": ["m1"]}, None, False),  # rule 2
        ({"allowed_model_ids": [], "min_safety_tier": "low"}, None, False),  # rule 2
        ({"allowed_model_ids": ["m1"]}, _meta("m2", "restricted"), False),  # rule 3
        ({"allowed_model_ids": ["m1"]}, _meta("M1"), False),  # rule 3: case-sensitive
        ({"allowed_model_ids": ["m1"]}, _meta("m1"), True),  # rule 5
        ({"allowed_model_ids": ["m1"], "min_safety_tier": "high"}, _meta("m1"), False),  # 4
        ({"allowed_model_ids": [], "min_safety_tier": "high"}, _meta("m", "standard"), False),
        ({"allowed_model_ids": [], "min_safety_tier": "high"}, _meta("m", "high"), True),
        ({"allowed_model_ids": [], "min_safety_tier": "high"}, _meta("m", "restricted"), True),
        ({"allowed_model_ids": [], "min_safety_tier": "restricted"}, _meta("m", "high"), False),
        ({"allowed_model_ids": [], "min_safety_tier": "low"}, _meta("m", "low"), True),
        ({"allowed_model_ids": ["m2"], "min_safety_tier": "low"}, _meta("m1", "low"), False),
    ],
)
def test_model_constraint_rules_in_order(
    value: JSON, meta: ModelMetadata | None, expected: bool
) -> None:
    """SCOPE-HOSTED-MODEL-1: the five ordered rules over the request's model metadata."""
    assert _matches([con("model_constraint", value)], {}, meta) is expected


def test_model_metadata_reaches_only_model_constraint() -> None:
    """SCOPE-HOSTED-MODEL-1: metadata never satisfies an argument constraint."""
    assert not _matches([con("custom", ["model_id", "m1"])], {}, _meta("m1"))


# ----------------------------------------------------------------- the engine


def test_engine_is_the_pinned_binding_imported_on_first_use() -> None:
    """SCOPE-HOSTED-RX-1: the engine is paula 1.0.5 (regex 1.12.3), and importing the scope
    package does not load it."""
    import subprocess
    import sys

    from mcp_touchstone.scope._regex import engine_version

    assert engine_version() == "paula 1.0.5"
    probe = "import sys, mcp_touchstone.scope\nprint('paula' in sys.modules)\n"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_compile_is_a_value_and_misuse_raises() -> None:
    """SCOPE-HOSTED-RX-3: a refused pattern is a RegexCompileError value; a pattern no Rust
    string can hold (a lone surrogate) is API misuse and raises ValueError."""
    from mcp_touchstone.scope._regex import RegexCompileError, RustRegex, compile_rust_regex

    bad = compile_rust_regex("(")
    assert isinstance(bad, RegexCompileError)
    assert bad.detail.endswith("error: unclosed group")
    good = compile_rust_regex("b")
    assert isinstance(good, RustRegex)
    assert good.is_match("abc")
    with pytest.raises(ValueError, match="lone surrogate"):
        compile_rust_regex("\ud800")


def test_hosted_behaviour_values_are_the_public_labels() -> None:
    """SCOPE-HOSTED-CON-4: the ``HostedBehaviour`` labels are ``decided``, ``ok_true`` and
    ``ok_false``, and the table gives 11, 10 and 3 variants."""
    assert [b.value for b in HostedBehaviour] == ["decided", "ok_true", "ok_false"]
    counts = {b: sum(1 for v in HOSTED_BEHAVIOUR.values() if v is b) for b in HostedBehaviour}
    assert counts == {
        HostedBehaviour.DECIDED: 11,
        HostedBehaviour.ENFORCED_LATER: 10,
        HostedBehaviour.DROPPED: 3,
    }


def test_regex_with_a_lone_surrogate_is_api_misuse_said_plainly() -> None:
    """SCOPE-HOSTED-RX-1: a pattern no Rust ``String`` can hold is a ``ValueError`` saying
    why."""
    from mcp_touchstone.scope._regex import compile_rust_regex

    with pytest.raises(ValueError, match=r"^regex pattern is not valid") as exc:
        compile_rust_regex("a\ud800")
    assert str(exc.value) == "regex pattern is not valid Unicode text (lone surrogate)"


@pytest.mark.parametrize(
    "pattern", [chr(0xD800), "a" + chr(0xDBFF), chr(0xDC00) + "b", chr(0xDFFF)]
)
def test_every_lone_surrogate_is_api_misuse(pattern: str) -> None:
    """SCOPE-HOSTED-RX-1: a pattern holding any code point of U+D800..U+DFFF is no Rust
    ``String``: a ``ValueError``, never handed to the crate."""
    from mcp_touchstone.scope._regex import compile_rust_regex

    with pytest.raises(ValueError, match="lone surrogate"):
        compile_rust_regex(pattern)


def test_the_code_point_after_the_surrogates_is_a_pattern() -> None:
    """SCOPE-HOSTED-RX-1: U+E000, just past the surrogate block, is ordinary pattern text."""
    from mcp_touchstone.scope._regex import compile_rust_regex

    assert compile_rust_regex("\ue000").is_match("x\ue000")  # type: ignore[union-attr]


def test_model_metadata_enum_refusals_name_their_type() -> None:
    """SCOPE-HOSTED-WIRE-2: a ``provenance_class`` or ``safety_tier`` that is neither a string
    nor a map is refused with serde's invalid-type message naming the enum."""
    from mcp_touchstone.scope import ScopeDecodeError
    from mcp_touchstone.scope._hosted_decode import decode_model_metadata

    for field, name in (
        ("provenance_class", "ProvenanceEvidenceClass"),
        ("safety_tier", "ModelSafetyTier"),
    ):
        with pytest.raises(ScopeDecodeError) as exc:
            decode_model_metadata({"model_id": "m", field: 5})
        assert str(exc.value) == (
            f"model_metadata.{field}: invalid type: integer `5`, expected string or map ({name})"
        )
