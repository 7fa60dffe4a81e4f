"""Vectors for ``scope.hosted_match``: Chio's hosted matcher profile (SCOPE-HOSTED-*).

Writes ``conformance/vectors/scope/hosted_*.json``.  Every expected answer is stated by hand from
seed 003 ("Constraint behavior by runtime"), ``shared/reference/chio.md`` §5 and bb-connor/arc
``request_matching.rs`` @ ``08876737`` (its tests, its per-variant arms, and the order in which
it compiles patterns); nothing is computed by ``mcp_touchstone``.  This module holds the variant,
ranking and wire files; ``_hosted_regex`` the regex, deny-pattern and model files.  It runs past
400 lines because it is case tables: each row is one hand-written vector.
"""

from __future__ import annotations

from conformance.vectorgen._hosted_common import (
    CUMULATIVE,
    INVALID,
    JSON,
    NONE,
    c,
    case,
    doc,
    g,
    m,
    raw_case,
    regex_error,
)
from conformance.vectorgen._hosted_regex import deny_tests, model_tests, regex_tests

# The 10 variants that are Ok(true) at the matcher, each with a value that "looks" restrictive.
PASS: list[tuple[str, str, JSON]] = [
    ("governed-intent", "governed_intent_required", None),
    ("approval-above", "require_approval_above", {"threshold_units": 0}),
    ("cumulative", "require_cumulative_approval_above", CUMULATIVE),
    ("seller", "seller_exact", "acme-only"),
    ("runtime-assurance", "minimum_runtime_assurance", "verified"),
    ("autonomy-tier", "minimum_autonomy_tier", "autonomous"),
    ("table-allowlist", "table_allowlist", []),
    ("column-denylist", "column_denylist", ["users.ssn"]),
    ("max-rows", "max_rows_returned", 0),
    ("operation-class", "operation_class", "read_only"),
]

# Arguments that a naive implementation might read against the Ok(true) variants.
TEMPTING: JSON = {
    "sql": "DROP TABLE users; SELECT ssn FROM users",
    "amount": 1000000,
    "seller": "evil-corp",
    "rows": 99999,
}

# The 3 variants that are Ok(false) without reading the value, with every value shape.
DROP: list[tuple[str, str, JSON]] = [
    ("review-none", "content_review_tier", "none"),
    ("review-basic", "content_review_tier", "basic"),
    ("review-strict", "content_review_tier", "strict"),
    ("amount-large", "max_transaction_amount_usd", "1000000.00"),
    ("amount-zero", "max_transaction_amount_usd", "0"),
    ("amount-not-decimal", "max_transaction_amount_usd", "lots"),
    ("dual-false", "require_dual_approval", False),
    ("dual-true", "require_dual_approval", True),
]

_VARIANT_NOTES = {
    "pass": (
        "QUIRK",
        "An Ok(true) variant passes the matcher whatever the arguments say; it is enforced by a "
        "later stage, so a matcher that reads it (or refuses it, as the portable kernel does) "
        "answers wrongly.",
    ),
    "drop": (
        "FAIL_CLOSED",
        "An Ok(false) variant drops its grant without reading its value (even `none` or "
        "`false`); it is a candidate drop, not an error, so a sibling may still admit the call.",
    ),
    "portable": (
        "BASIC",
        "The 8 portable variants decide exactly as in the portable kernel.",
    ),
    "target": (
        "EDGE_CASE",
        "Constraints of a grant that is not a target are never evaluated.",
    ),
    "seed-wins": (
        "QUIRK",
        "require_cumulative_approval_above is Ok(true) here (seed 003, arc 08876737); arc "
        "123cc792 still had Ok(false), and the seed wins.",
    ),
}


def _variant_tests() -> list[JSON]:
    tests: list[JSON] = []
    for slug, kind, value in PASS:
        tests.append(
            case(
                f"scope-hosted-pass-{slug}-alone",
                f"{kind} alone on the target grant passes the matcher (Ok(true)).",
                ["SCOPE-HOSTED-CON-2"],
                ["pass"],
                [g(constraints=[c(kind, value)])],
                TEMPTING,
                m((0, 1, 1, 1)),
            )
        )
        tests.append(
            case(
                f"scope-hosted-pass-{slug}-null-arguments",
                f"{kind} passes with null arguments: nothing is read.",
                ["SCOPE-HOSTED-CON-2"],
                ["pass"],
                [g(constraints=[c(kind, value)])],
                None,
                m((0, 1, 1, 1)),
            )
        )
        tests.append(
            case(
                f"scope-hosted-pass-{slug}-then-false",
                f"{kind} holds, then a max_length 1 that fails drops the grant; */* survives.",
                ["SCOPE-HOSTED-CON-2", "SCOPE-HOSTED-RES-1"],
                ["pass"],
                [g(constraints=[c(kind, value), c("max_length", 1)]), g("*", "*")],
                {"q": "too long"},
                m((1, 0, 0, 0)),
            )
        )
        tests.append(
            case(
                f"scope-hosted-pass-{slug}-outranks-unconstrained",
                f"The {kind} grant outranks an unconstrained exact sibling on a constraint "
                "checked later.",
                ["SCOPE-HOSTED-CON-2", "SCOPE-HOSTED-RANK-1"],
                ["pass"],
                [g(), g(constraints=[c(kind, value)])],
                {},
                m((1, 1, 1, 1), (0, 1, 1, 0)),
            )
        )
    for slug, kind, value in DROP:
        tests.append(
            case(
                f"scope-hosted-drop-{slug}-alone",
                f"{kind} {value!r} drops the only grant: an empty list, not an error.",
                ["SCOPE-HOSTED-CON-3"],
                ["drop"],
                [g(constraints=[c(kind, value)])],
                {"amount_usd": "1.00", "text": "hello", "approved_by": ["a", "b"]},
                NONE,
            )
        )
        tests.append(
            case(
                f"scope-hosted-drop-{slug}-sibling-admits",
                f"{kind} {value!r} drops the exact grant; the */* sibling after it admits.",
                ["SCOPE-HOSTED-CON-3"],
                ["drop"],
                [g(constraints=[c(kind, value)]), g("*", "*")],
                {},
                m((1, 0, 0, 0)),
            )
        )
        tests.append(
            case(
                f"scope-hosted-drop-{slug}-shields-bad-regex",
                f"{kind} {value!r} is false first, so the bad regex after it is never compiled.",
                ["SCOPE-HOSTED-CON-3", "SCOPE-HOSTED-RES-1", "SCOPE-HOSTED-RX-2"],
                ["drop"],
                [g(constraints=[c(kind, value), c("regex_match", "(?=x)")])],
                {"q": "x"},
                NONE,
            )
        )
    tests += [
        case(
            "scope-hosted-drop-after-bad-regex-errors",
            "The bad regex comes first, so it is compiled and aborts before the drop.",
            ["SCOPE-HOSTED-CON-3", "SCOPE-HOSTED-RES-1", "SCOPE-HOSTED-RX-2"],
            ["drop"],
            [g(constraints=[c("regex_match", "(?=x)"), c("require_dual_approval", False)])],
            {"q": "x"},
            regex_error("(?=x)", "error: look-around, including look-ahead and look-behind"),
        ),
        case(
            "scope-hosted-drop-on-non-target-ignored",
            "A dropped variant on another server's grant is never evaluated; the exact grant wins.",
            ["SCOPE-HOSTED-CON-3", "SCOPE-HOSTED-RES-1"],
            ["target"],
            [g("mail", "read", [c("content_review_tier", "none")]), g()],
            {},
            m((1, 1, 1, 0)),
        ),
        case(
            "scope-hosted-drop-every-candidate-empty",
            "Every target grant carries a dropped variant: the hosted answer is an empty list.",
            ["SCOPE-HOSTED-CON-3"],
            ["drop"],
            [
                g(constraints=[c("require_dual_approval", False)]),
                g("*", "*", [c("content_review_tier", "none")]),
                g("files", "*", [c("max_transaction_amount_usd", "0.01")]),
            ],
            {},
            NONE,
        ),
        case(
            "scope-hosted-cumulative-ok-true-seed-wins",
            "require_cumulative_approval_above passes the hosted matcher (Ok(true), enforced on "
            "the cumulative budget path); the portable kernel would refuse it.",
            ["SCOPE-HOSTED-CON-2", "SCOPE-HOSTED-SEED-1"],
            ["seed-wins"],
            [g(constraints=[c("require_cumulative_approval_above", CUMULATIVE)])],
            {"amount": 500},
            m((0, 1, 1, 1)),
        ),
        case(
            "scope-hosted-cumulative-with-binding-null",
            "A cumulative constraint with a null root binding also passes.",
            ["SCOPE-HOSTED-CON-2", "SCOPE-HOSTED-SEED-1"],
            ["seed-wins"],
            [
                g(
                    constraints=[
                        c(
                            "require_cumulative_approval_above",
                            {**CUMULATIVE, "cumulative_approval_root_binding": None},
                        )
                    ]
                )
            ],
            {},
            m((0, 1, 1, 1)),
        ),
        case(
            "scope-hosted-cumulative-not-refused-scope-wide",
            "The matcher has no scope-wide cumulative refusal: a cumulative grant elsewhere "
            "changes nothing, and the exact grant matches.",
            ["SCOPE-HOSTED-CON-2", "SCOPE-HOSTED-SEED-1", "SCOPE-HOSTED-RES-1"],
            ["seed-wins"],
            [g("mail", "send", [c("require_cumulative_approval_above", CUMULATIVE)]), g()],
            {},
            m((1, 1, 1, 0)),
        ),
        case(
            "scope-hosted-all-ten-pass-together",
            "A grant carrying all ten Ok(true) variants matches with constraint count 10.",
            ["SCOPE-HOSTED-CON-2", "SCOPE-HOSTED-RANK-1"],
            ["pass"],
            [g(constraints=[c(kind, value) for _, kind, value in PASS])],
            TEMPTING,
            m((0, 1, 1, 10)),
        ),
        case(
            "scope-hosted-ten-pass-then-one-drop",
            "Ten Ok(true) variants and then one Ok(false): the grant drops.",
            ["SCOPE-HOSTED-CON-2", "SCOPE-HOSTED-CON-3"],
            ["drop"],
            [
                g(
                    constraints=[
                        *(c(kind, value) for _, kind, value in PASS),
                        c("content_review_tier", "none"),
                    ]
                )
            ],
            {},
            NONE,
        ),
    ]
    tests += _portable_tests()
    return tests


def _portable_tests() -> list[JSON]:
    """The 8 portable variants, each way, plus the upstream path test."""
    rows: list[tuple[str, str, JSON, JSON, bool]] = [
        ("path-under", "path_prefix", "/data", {"path": "/data/a/../b"}, True),
        ("path-traversal", "path_prefix", "/data", {"path": "/data/../etc"}, False),
        ("path-no-candidate", "path_prefix", "/data", {"q": "hello"}, False),
        ("path-mime-candidate", "path_prefix", "/data", {"p": "/data/x", "ct": "a/b"}, False),
        ("domain-exact", "domain_exact", "Example.COM.", {"u": "https://example.com:8/x"}, True),
        ("domain-exact-dotted-token", "domain_exact", "example.com",
         {"u": "https://example.com", "f": "report.txt"}, False),
        ("domain-glob-crosses-dots", "domain_glob", "*.example.com", {"u": "a.b.example.com"},
         True),
        ("domain-glob-base", "domain_glob", "*.example.com", {"u": "example.com"}, False),
        ("max-length-bytes", "max_length", 4, {"k": "éé"}, True),
        ("max-length-over", "max_length", 3, {"k": "éé"}, False),
        ("max-length-vacuous", "max_length", 0, {"n": 1}, True),
        ("max-args-size-at", "max_args_size", 17, {"b": 1, "a": "xyz"}, True),
        ("max-args-size-over", "max_args_size", 16, {"b": 1, "a": "xyz"}, False),
        ("custom-deep", "custom", ["env", "prod"], {"x": [{"env": "prod"}], "env": "dev"}, True),
        ("custom-number", "custom", ["n", "5"], {"n": 5}, False),
        ("audience-absent", "audience_allowlist", ["#ops"], {"x": 1}, True),
        ("audience-null", "audience_allowlist", ["#ops"], {"audience": None}, False),
        ("audience-date-under-to", "audience_allowlist", ["#ops"], {"to": "2026-07-28"}, False),
        ("store-ok", "memory_store_allowlist", ["notes"], {"Namespace": "notes"}, True),
        ("store-mixed-null", "memory_store_allowlist", ["notes"], {"store": ["notes", None]},
         False),
    ]  # fmt: skip
    tests = [
        case(
            f"scope-hosted-portable-{slug}",
            f"{kind} decides as in the portable kernel ({'match' if ok else 'no match'}).",
            ["SCOPE-HOSTED-CON-1"],
            ["portable"],
            [g(constraints=[c(kind, value)])],
            args,
            m((0, 1, 1, 1)) if ok else NONE,
        )
        for slug, kind, value, args, ok in rows
    ]
    prefix = [g("srv", "tool", [c("path_prefix", "/workspace/safe")])]
    upstream = "upstream-test:path_prefix_constraint_rejects_traversal_and_sibling_prefixes"
    for slug, path, ok in [
        ("report", "/workspace/safe/report.txt", True),
        ("traversal", "/workspace/safe/../secret.txt", False),
        ("sibling", "/workspace/safeX/report.txt", False),
    ]:
        tests.append(
            case(
                f"scope-hosted-upstream-path-{slug}",
                f"request_matching.rs: {path} against prefix /workspace/safe.",
                ["SCOPE-HOSTED-CON-1"],
                ["portable"],
                prefix,
                {"path": path},
                m((0, 1, 1, 1)) if ok else NONE,
                tool="tool",
                server="srv",
                origin=upstream,
            )
        )
    for slug, args, ok in [
        ("recipient-string", {"recipient": "#ops"}, True),
        ("recipient-object", {"recipient": {"channel": "#ops"}}, False),
        ("recipients-empty", {"recipients": []}, False),
    ]:
        tests.append(
            case(
                f"scope-hosted-upstream-audience-{slug}",
                "request_matching.rs audience_allowlist_rejects_non_string_values.",
                ["SCOPE-HOSTED-CON-1"],
                ["portable"],
                [g("srv", "tool", [c("audience_allowlist", ["#ops"])])],
                args,
                m((0, 1, 1, 1)) if ok else NONE,
                tool="tool",
                server="srv",
                origin="upstream-test:audience_allowlist_rejects_non_string_values",
            )
        )
    for slug, args, ok in [
        ("string", {"store": "session-cache"}, True),
        ("object", {"store": {"name": "session-cache"}}, False),
        ("null", {"store": None}, False),
    ]:
        tests.append(
            case(
                f"scope-hosted-upstream-store-{slug}",
                "request_matching.rs memory_store_allowlist_rejects_non_string_values.",
                ["SCOPE-HOSTED-CON-1"],
                ["portable"],
                [g("srv", "tool", [c("memory_store_allowlist", ["session-cache"])])],
                args,
                m((0, 1, 1, 1)) if ok else NONE,
                tool="tool",
                server="srv",
                origin="upstream-test:memory_store_allowlist_rejects_non_string_values",
            )
        )
    tests += [
        case(
            "scope-hosted-upstream-content-review-strict",
            "request_matching.rs: content_review_tier strict fails closed without guard context.",
            ["SCOPE-HOSTED-CON-3"],
            ["drop"],
            [g("srv", "tool", [c("content_review_tier", "strict")])],
            {"text": "review this outbound message"},
            NONE,
            tool="tool",
            server="srv",
            origin="upstream-test:content_review_tier_fails_closed_without_review_guard_context",
        ),
        *(
            case(
                f"scope-hosted-upstream-governed-{slug}",
                f"request_matching.rs: {kind} fails closed without its dedicated path.",
                ["SCOPE-HOSTED-CON-3"],
                ["drop"],
                [g("srv", "tool", [c(kind, value)])],
                {"amount_usd": "25.00"},
                NONE,
                tool="tool",
                server="srv",
                origin="upstream-test:governed_transaction_constraints_fail_closed_without_"
                "specialized_enforcement",
            )
            for slug, kind, value in [
                ("amount", "max_transaction_amount_usd", "100.00"),
                ("dual", "require_dual_approval", True),
            ]
        ),
        case(
            "scope-hosted-upstream-required-empty",
            "request_matching.rs: the unmatched request other_tool on srv gives no match "
            "(the required form's OutOfScope is not part of this operation).",
            ["SCOPE-HOSTED-RES-2"],
            ["target"],
            [g("srv", "tool")],
            {"msg": "hello"},
            NONE,
            tool="other_tool",
            server="srv",
            origin="upstream-test:resolve_required_matching_grants_maps_empty_matches_to_out_of_scope",
        ),
    ]
    return tests


_RANK_NOTES = {
    "rank": (
        "QUIRK",
        "The hosted matcher reuses the portable specificity tuple, whose third key counts every "
        "constraint, including Ok(true) ones it does not check at this stage.",
    ),
    "abort": (
        "FAIL_CLOSED",
        "The first invalid_constraint on a target grant aborts the whole call, discarding "
        "matches already found.",
    ),
    "target": (
        "EDGE_CASE",
        "Target test and short-circuit walk are the portable ones.",
    ),
}


def _ranking_tests() -> list[JSON]:
    seller = c("seller_exact", "s")
    return [
        case(
            "scope-hosted-rank-pass-outranks-decided",
            "Two Ok(true) constraints outrank one decided constraint that actually held.",
            ["SCOPE-HOSTED-RANK-1"],
            ["rank"],
            [
                g(constraints=[c("max_length", 100)]),
                g(constraints=[seller, c("max_rows_returned", 1)]),
            ],
            {"q": "a"},
            m((1, 1, 1, 2), (0, 1, 1, 1)),
        ),
        case(
            "scope-hosted-rank-pass-on-wildcard-below-exact",
            "Constraint count ranks only after exactness: an exact grant beats a wildcard one "
            "carrying five Ok(true) constraints.",
            ["SCOPE-HOSTED-RANK-1"],
            ["rank"],
            [g("*", "*", [seller] * 5), g()],
            {},
            m((1, 1, 1, 0), (0, 0, 0, 5)),
        ),
        case(
            "scope-hosted-rank-worked",
            "The reference's worked ranking, with Ok(true) constraints on the exact grants.",
            ["SCOPE-HOSTED-RANK-1", "SCOPE-HOSTED-RES-1"],
            ["rank"],
            [
                g("*", "*"),
                g("files", "*"),
                g(constraints=[seller, c("operation_class", "admin")]),
                g(constraints=[c("governed_intent_required")]),
                g("*", "read"),
                g(operations=["read"]),
            ],
            {},
            m((2, 1, 1, 2), (3, 1, 1, 1), (1, 1, 0, 0), (4, 0, 1, 0), (0, 0, 0, 0)),
        ),
        case(
            "scope-hosted-rank-full-tie-keeps-order",
            "Equal specificity keeps list order.",
            ["SCOPE-HOSTED-RANK-1"],
            ["rank"],
            [g(constraints=[seller]), g(constraints=[c("table_allowlist", ["t"])])],
            {},
            m((0, 1, 1, 1), (1, 1, 1, 1)),
        ),
        case(
            "scope-hosted-rank-exact-ahead-of-wildcard",
            "exact_grants_sort_ahead_of_wildcard_fallbacks, in the hosted profile.",
            ["SCOPE-HOSTED-RANK-1"],
            ["rank"],
            [g("*", "*"), g()],
            {},
            m((1, 1, 1, 0), (0, 0, 0, 0)),
            origin="upstream-test:exact_grants_sort_ahead_of_wildcard_fallbacks",
        ),
        case(
            "scope-hosted-rank-literal-star-request",
            "A request whose server and tool are literally `*` is matched only by `*` patterns, "
            "which then score exact.",
            ["SCOPE-HOSTED-RANK-1", "SCOPE-HOSTED-RES-1"],
            ["target"],
            [g("*", "*", [seller]), g("files", "*"), g()],
            {},
            m((0, 1, 1, 1)),
            tool="*",
            server="*",
        ),
        case(
            "scope-hosted-rank-dropped-best-leaves-fallback",
            "The most specific grant drops on an Ok(false) variant; the ranked list holds the "
            "less specific ones only.",
            ["SCOPE-HOSTED-RANK-1", "SCOPE-HOSTED-CON-3"],
            ["rank"],
            [
                g("*", "*"),
                g(constraints=[seller, c("require_dual_approval", True)]),
                g("files", "*"),
            ],
            {},
            m((2, 1, 0, 0), (0, 0, 0, 0)),
        ),
        case(
            "scope-hosted-abort-after-earlier-match",
            "*/* matched first, then the exact grant's regex does not compile: the error wins.",
            ["SCOPE-HOSTED-RES-1", "SCOPE-HOSTED-RX-2"],
            ["abort"],
            [g("*", "*"), g(constraints=[c("regex_match", "(a)\\1")])],
            {"q": "aa"},
            regex_error("(a)\\1", "error: backreferences are not supported"),
        ),
        case(
            "scope-hosted-abort-later-grants-unseen",
            "The error on grant 0 is returned before grant 1 (another bad pattern) is looked at.",
            ["SCOPE-HOSTED-RES-1", "SCOPE-HOSTED-RX-2"],
            ["abort"],
            [g(constraints=[c("regex_match", "[")]), g(constraints=[c("regex_match", "(")])],
            {},
            regex_error("[", "error: unclosed character class"),
        ),
        case(
            "scope-hosted-bad-regex-non-target-server",
            "A bad pattern on another server's grant is never compiled.",
            ["SCOPE-HOSTED-RES-1"],
            ["target"],
            [g("mail", "read", [c("regex_match", "(")]), g()],
            {},
            m((1, 1, 1, 0)),
        ),
        case(
            "scope-hosted-bad-regex-non-target-tool",
            "A bad pattern on another tool's grant is never compiled.",
            ["SCOPE-HOSTED-RES-1"],
            ["target"],
            [g("files", "write", [c("memory_write_deny_patterns", ["("])]), g("*", "*")],
            {},
            m((1, 0, 0, 0)),
        ),
        case(
            "scope-hosted-bad-regex-without-invoke",
            "A bad pattern on a grant without invoke is never compiled.",
            ["SCOPE-HOSTED-RES-1"],
            ["target"],
            [g(constraints=[c("regex_match", "(")], operations=["read", "get"])],
            {},
            NONE,
        ),
        case(
            "scope-hosted-no-prefix-glob",
            "`fil*` is a literal server pattern for tool grants: no match.",
            ["SCOPE-HOSTED-RES-1"],
            ["target"],
            [g("fil*", "read")],
            {},
            NONE,
        ),
        case(
            "scope-hosted-empty-scope",
            "An empty scope gives an empty list, never an error.",
            ["SCOPE-HOSTED-RES-2"],
            ["target"],
            [],
            {},
            NONE,
        ),
        case(
            "scope-hosted-false-first-hides-error",
            "A failing path_prefix before a bad regex drops the grant without compiling it.",
            ["SCOPE-HOSTED-RES-1", "SCOPE-HOSTED-RX-2"],
            ["abort"],
            [g(constraints=[c("path_prefix", "/data"), c("regex_match", "(")])],
            {"path": "/etc/passwd"},
            NONE,
        ),
        case(
            "scope-hosted-pass-before-error-still-errors",
            "Ok(true) variants before a bad regex do not stop the walk: the error is reached.",
            ["SCOPE-HOSTED-RES-1", "SCOPE-HOSTED-CON-2"],
            ["abort"],
            [g(constraints=[seller, c("governed_intent_required"), c("regex_match", "\\Z")])],
            {},
            regex_error("\\Z", "error: unrecognized escape sequence"),
        ),
    ]


_WIRE_NOTES = {
    "malformed": (
        "MALFORMED_INPUT",
        "Bad input is answered with invalid_input, never a crash.",
    ),
    "metadata": (
        "EDGE_CASE",
        "model_metadata decodes as Chio's serde derive: optional, null allowed, unknown keys "
        "ignored, tier names snake_case only.",
    ),
}


def _wire_tests() -> list[JSON]:
    def inp(**over: JSON) -> JSON:
        base: dict[str, JSON] = {
            "scope": {"grants": [g()]},
            "tool_name": "read",
            "server_id": "files",
            "arguments": {},
        }
        base.update(over)
        return base

    bad: list[tuple[str, str, JSON]] = [
        ("not-object", "The input is an array.", ["scope"]),
        ("missing-scope", "The scope key is missing.", {"tool_name": "read", "server_id": "files",
                                                        "arguments": {}}),
        ("missing-arguments", "The arguments key is missing.",
         {"scope": {}, "tool_name": "read", "server_id": "files"}),
        ("tool-not-string", "tool_name is a number.", inp(tool_name=1)),
        ("server-null", "server_id is null.", inp(server_id=None)),
        ("scope-null", "The scope is null.", inp(scope=None)),
        ("regex-value-number", "A regex_match value that is not a string does not decode.",
         inp(scope={"grants": [g(constraints=[c("regex_match", 5)])]})),
        ("deny-value-string", "memory_write_deny_patterns must be an array of strings.",
         inp(scope={"grants": [g(constraints=[c("memory_write_deny_patterns", "secret")])]})),
        ("deny-value-null-entry", "A null deny pattern does not decode.",
         inp(scope={"grants": [g(constraints=[c("memory_write_deny_patterns", ["a", None])])]})),
        ("model-constraint-extra-field", "model_constraint rejects unknown fields.",
         inp(scope={"grants": [g(constraints=[c("model_constraint",
                                                {"allowed_model_ids": [], "x": 1})])]})),
        ("later-variant-tag", "output_digest_sha256 is not a variant of this version.",
         inp(scope={"grants": [g(constraints=[c("output_digest_sha256", "ab")])]})),
        ("metadata-number", "model_metadata is a number.", inp(model_metadata=5)),
        ("metadata-string", "model_metadata is a string.", inp(model_metadata="m1")),
        ("metadata-no-model-id", "model_metadata without model_id.", inp(model_metadata={})),
        ("metadata-model-id-null", "model_id is null.", inp(model_metadata={"model_id": None})),
        ("metadata-tier-cased", "safety_tier is snake_case only.",
         inp(model_metadata={"model_id": "m", "safety_tier": "High"})),
        ("metadata-tier-unknown", "safety_tier must be a known tier.",
         inp(model_metadata={"model_id": "m", "safety_tier": "critical"})),
        ("metadata-provider-number", "provider must be a string.",
         inp(model_metadata={"model_id": "m", "provider": 7})),
        ("metadata-provenance-null", "provenance_class is not optional when present.",
         inp(model_metadata={"model_id": "m", "provenance_class": None})),
        ("metadata-provenance-unknown", "provenance_class must be asserted, observed or verified.",
         inp(model_metadata={"model_id": "m", "provenance_class": "inferred"})),
    ]  # fmt: skip
    tests = [
        raw_case(f"scope-hosted-wire-{slug}", comment, ["SCOPE-HOSTED-WIRE-2"], ["malformed"],
                 raw, INVALID)
        for slug, comment, raw in bad
    ]  # fmt: skip
    tests += [
        raw_case(
            "scope-hosted-wire-metadata-null",
            "model_metadata null is no metadata.",
            ["SCOPE-HOSTED-WIRE-2"],
            ["metadata"],
            inp(model_metadata=None),
            m((0, 1, 1, 0)),
        ),
        raw_case(
            "scope-hosted-wire-metadata-extra-keys-ignored",
            "Unknown keys in model_metadata are ignored.",
            ["SCOPE-HOSTED-WIRE-2"],
            ["metadata"],
            inp(model_metadata={"model_id": "m", "vendor": {"x": [1]}, "provider": None}),
            m((0, 1, 1, 0)),
        ),
        raw_case(
            "scope-hosted-wire-extra-input-keys-ignored",
            "Extra keys in the input are ignored.",
            ["SCOPE-HOSTED-WIRE-1"],
            ["metadata"],
            inp(trace_id="t-1", model="m1"),
            m((0, 1, 1, 0)),
        ),
        raw_case(
            "scope-hosted-wire-metadata-provenance-observed",
            "provenance_class observed decodes and is never matched.",
            ["SCOPE-HOSTED-WIRE-2"],
            ["metadata"],
            inp(model_metadata={"model_id": "m", "provenance_class": "observed"}),
            m((0, 1, 1, 0)),
        ),
    ]
    return tests


def files() -> dict[str, JSON]:
    """The hosted_*.json files."""
    rx_notes, rx_tests = regex_tests()
    deny_notes, deny = deny_tests()
    model_notes, model = model_tests()
    return {
        "scope/hosted_variants.json": doc(
            "Hosted matcher: the 24 variants as 11 decided, 10 Ok(true), 3 Ok(false)",
            _VARIANT_NOTES,
            _variant_tests(),
        ),
        "scope/hosted_ranking.json": doc(
            "Hosted matcher: target test, short-circuit walk, first-error abort and ranking",
            _RANK_NOTES,
            _ranking_tests(),
        ),
        "scope/hosted_regex.json": doc(
            "Hosted matcher: regex_match under the Rust regex crate (not Python's re)",
            rx_notes,
            rx_tests,
        ),
        "scope/hosted_deny.json": doc(
            "Hosted matcher: memory_write_deny_patterns compiled in list order",
            deny_notes,
            deny,
        ),
        "scope/hosted_model.json": doc(
            "Hosted matcher: model_constraint's five ordered rules over model_metadata",
            model_notes,
            model,
        ),
        "scope/hosted_wire.json": doc(
            "scope.hosted_match: input shapes, model_metadata decoding and invalid_input",
            _WIRE_NOTES,
            _wire_tests(),
        ),
    }
