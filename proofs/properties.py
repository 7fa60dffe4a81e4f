# ruff: noqa: E501 - a data table: statements and the exact source texts of the planted bugs
# read best unwrapped (a mutant's ``old`` must match the source byte for byte).
"""The named properties: what each one states, which rules it proves, how it is checked,
within what bound, which vectors witness it, and the planted bug it must catch.

This table is the source of ``proofs/manifest.json`` (``python -m proofs.run --record`` and
``python -m proofs.mutants --record`` add the last results and the catches).
"""

from __future__ import annotations

from dataclasses import dataclass, field

SRC = "src/mcp_touchstone/"


@dataclass(frozen=True)
class Mutant:
    """A planted bug: in ``file`` (under ``src/mcp_touchstone/``), ``old`` becomes ``new``
    (``old`` must occur exactly once); ``function`` is the real function it breaks."""

    id: str
    file: str
    old: str
    new: str
    function: str
    why: str


@dataclass(frozen=True)
class Budget:
    """CrossHair's budget for one target: iterations, CPU seconds per condition and per path."""

    iters: int = 50
    cond_s: int = 6
    path_s: int = 3


@dataclass(frozen=True)
class Canary:
    """A planted function that violates the property's own statement: the check is run once
    more with its global ``replaces`` bound to ``proofs.canaries.<planted>``, and must fail."""

    replaces: str
    planted: str
    why: str


PROVE = Budget(iters=1_000_000, cond_s=120, path_s=10)
"""The budget of a property that claims proved: the search ends when every path is exhausted
("Confirmed over all paths"); ``cond_s`` is its deadline, past which the claim fails."""

CONFIRM = Budget(iters=100_000, cond_s=60, path_s=5)
"""The budget of a property that claims proved and confirms well within it: a smaller per-path
deadline than :data:`PROVE`, which its paths do not need."""

SEARCH = Budget(iters=2_000, cond_s=20, path_s=5)
"""The budget of a property that claims searched: no counterexample within 2,000 iterations
without progress and 20 CPU seconds."""

VERDICTS = ("searched", "bounded", "proved")
"""What a check can show, weakest first: no counterexample within a budget; a concrete
enumeration of a stated finite set; CrossHair confirmed over all paths or Z3 unsat over a
stated symbolic domain."""


@dataclass(frozen=True)
class Prop:
    """One named property."""

    id: str
    statement: str
    rules: tuple[str, ...]
    tool: str
    targets: tuple[str, ...]
    bound: str
    check: str
    """``crosshair:<module.function>`` or ``z3:<module>:<function>``."""
    vectors: tuple[str, ...]
    mutant: Mutant | None
    expect: str = "clean"
    """CrossHair only: ``confirmed`` (must be exhausted) or ``clean`` (no counterexample)."""
    budget: Budget = field(default_factory=Budget)
    canary: Canary | None = None
    claim: str = ""
    """The verdict the property must reach (see :data:`VERDICTS`); by default ``proved`` for a
    CrossHair check that must be confirmed, ``searched`` for one that need not, and
    ``bounded`` for a Z3 model tied to the code over a finite set."""

    @property
    def claimed(self) -> str:
        """The verdict claimed (explicit, or derived from the tool and ``expect``)."""
        if self.claim:
            return self.claim
        if self.tool == "crosshair":
            return "proved" if self.expect == "confirmed" else "searched"
        return "bounded"


M = "mcp_touchstone."
SM, SA = M + "scope._matcher.", M + "scope._arguments."
CH_SCOPE, CH_VIS, CH_MRTR = (
    "crosshair:proofs.contracts.scope.",
    "crosshair:proofs.contracts.visibility.",
    "crosshair:proofs.contracts.mrtr.",
)
CH_ADMIT, SCOPE_ADMIT = "crosshair:proofs.contracts.admission.", M + "scope._admission.admit"
ENUM_REQ, CH_REQ = "enumerate:proofs.contracts.requests.", "crosshair:proofs.contracts.requests."
CH_ENGINE, Z_ENGINE = "crosshair:proofs.contracts.engine.", "z3:proofs.checks_engine:"
Z_SCOPE, Z_VIS, Z_MRTR = (
    "z3:proofs.checks_scope:",
    "z3:proofs.checks_visibility:",
    "z3:proofs.checks_mrtr:",
)
PATH_BOUND = (
    "Z3: every raw path of 4 segment codes over '', '.', '..' and 8 names, either "
    "absoluteness; tie: every candidate of <= 3 and prefix of <= 2 segments from "
    "'', '.', '..', 'a', 'ab', 'a\\b', relative or absolute (44,548 pairs)"
)
GLOB_TIE = (
    "tie: every pattern of <= 4 characters over 'a . * ?' against every candidate of <= 4 "
    "characters over 'a . ?' (41,261 pairs)"
)
STR = "CrossHair bounded search over symbolic strings (no counterexample within the budget)"

PROPERTIES: tuple[Prop, ...] = (
    # ------------------------------------------------------------------ scope: resolution
    Prop(
        "PROOF-SCOPE-UNCOVERED",
        "A grant whose server or tool pattern misses the call, or that lacks invoke, yields no match.",
        ("SCOPE-RES-1", "SCOPE-RES-5"),
        "crosshair",
        (SM + "resolve_matching_grants", SM + "grant_targets"),
        "CrossHair, confirmed over all paths: grant server and tool any strings of <= 2 characters, request server and tool any strings of <= 1 character, server, tool or operations the missing part",
        CH_SCOPE + "uncovering_grant_no_match",
        ("scope-res-kani-uncovering-grant-empty", "scope-res-invoke-required"),
        Mutant(
            "scope-invoke-not-required",
            "scope/_matcher.py",
            "        and Operation.INVOKE in grant.operations\n",
            "        and (Operation.INVOKE in grant.operations or bool(grant.operations) or True)\n",
            SM + "grant_targets",
            "the operations check is dropped",
        ),
        canary=Canary(
            "resolve_matching_grants",
            "trailing_star_prefix",
            "a pattern ending in '*' matches by prefix",
        ),
        expect="confirmed",
        budget=CONFIRM,
    ),
    Prop(
        "PROOF-SCOPE-STAR",
        "A lone */* invoke grant yields exactly one match, index 0, specificity (0, 0, 0).",
        ("SCOPE-RANK-1", "SCOPE-RES-1"),
        "crosshair",
        (SM + "resolve_matching_grants",),
        "exhaustive (CrossHair: confirmed over all paths) for every request server and tool other than '*'",
        CH_SCOPE + "star_grant_single_zero_match",
        ("scope-res-kani-wildcard-single-match",),
        Mutant(
            "scope-specificity-counts-wildcard",
            "scope/_matcher.py",
            "        int(grant.server_id == server_id),\n",
            '        int(grant.server_id in (server_id, "*")),\n',
            SM + "resolve_matching_grants",
            "specificity scores 'a pattern matched' instead of 'the pattern is exact'",
        ),
        expect="confirmed",
        canary=Canary(
            "resolve_matching_grants", "star_scores_as_exact", "a matching '*' scores as exact"
        ),
    ),
    Prop(
        "PROOF-SCOPE-REFUSAL",
        "A refused constraint reached on a target grant aborts the call with its exact "
        "ConstraintError, whatever matched before it or follows it.",
        ("SCOPE-RES-4", "SCOPE-CON-2"),
        "crosshair",
        (SM + "resolve_matching_grants",),
        "CrossHair, confirmed over all paths: every one of the 16 refused kinds; server and tool any strings of <= 1 character; with and without an earlier */* match, a later exact grant and a * target server",
        CH_SCOPE + "refusal_on_target_aborts",
        ("scope-res-refused-target-aborts-despite-wildcard", "scope-res-error-after-earlier-match"),
        Mutant(
            "scope-refusal-drops-grant",
            "scope/_matcher.py",
            "        if isinstance(matched, ConstraintError):\n            return matched\n",
            "        if isinstance(matched, ConstraintError):\n            return False\n",
            SM + "resolve_matching_grants",
            "a refused constraint drops its grant instead of aborting",
        ),
        canary=Canary(
            "resolve_matching_grants",
            "refusal_drops_grant",
            "a refused constraint drops its grant instead of aborting",
        ),
        expect="confirmed",
        budget=CONFIRM,
    ),
    Prop(
        "PROOF-SCOPE-NONMATCH",
        "Inserting a grant that does not target the call, even one carrying a refused "
        "constraint, never changes the ranked answer.",
        ("SCOPE-RES-2", "SCOPE-RES-1"),
        "crosshair",
        (SM + "resolve_matching_grants",),
        STR + "; every refused kind, every insertion position 0..2",
        CH_SCOPE + "non_target_grant_changes_nothing",
        ("scope-res-refused-*-ignored",),
        Mutant(
            "scope-non-target-constraints-evaluated",
            "scope/_matcher.py",
            "    if not grant_targets(grant, tool_name, server_id):\n        return False\n",
            "    if not grant_targets(grant, tool_name, server_id):\n"
            "        covered = constraints_match(grant.constraints, facts)\n"
            "        return covered if isinstance(covered, ConstraintError) else False\n",
            SM + "resolve_matching_grants",
            "constraints of non-target grants are evaluated (a refusal there aborts)",
        ),
        canary=Canary(
            "resolve_matching_grants",
            "non_targets_read",
            "the constraints of non-target grants are evaluated",
        ),
    ),
    # ------------------------------------------------------------------ scope: ranking
    Prop(
        "PROOF-SCOPE-RANK-TOTAL",
        "The ranking is a strict total order: irreflexive, asymmetric, transitive, and total on "
        "distinct indices; the real sort key puts a match first exactly when its specificity is "
        "greater, or equal with a lower index.",
        ("SCOPE-RANK-2",),
        "crosshair",
        (SM + "_rank_key",),
        "CrossHair, confirmed over all paths: three matches, each server and tool exactness any "
        "bool, constraint count and index any integer >= 0 (unbounded)",
        CH_SCOPE + "rank_key_strict_total",
        ("scope-z3-rank-*", "scope-res-full-tie-keeps-order"),
        Mutant(
            "scope-rank-no-index-tiebreak",
            "scope/_matcher.py",
            "    return (-server_exact, -tool_exact, -constraint_count, match.index)\n",
            "    return (-server_exact, -tool_exact, -constraint_count, 0)\n",
            SM + "_rank_key",
            "the key drops the index tie-break (not a total order)",
        ),
        canary=Canary("_rank_key", "rank_key_no_index", "the sort key drops the index tie-break"),
        expect="confirmed",
        budget=PROVE,
    ),
    Prop(
        "PROOF-SCOPE-RANK-EXACT",
        "An exact server-and-tool match ranks ahead of every wildcard match whatever the "
        "constraint counts; equal specificities rank by ascending index.",
        ("SCOPE-RANK-1", "SCOPE-RANK-2"),
        "crosshair",
        (SM + "resolve_matching_grants",),
        "CrossHair, confirmed over all paths: two covering grants, each server and tool '*' or "
        "exact (any bool), each holding 0..2 constraints",
        CH_SCOPE + "exact_first_then_index",
        ("scope-z3-rank-*", "scope-res-exact-ahead-of-wildcard"),
        Mutant(
            "scope-rank-constraints-first",
            "scope/_matcher.py",
            "    return (-server_exact, -tool_exact, -constraint_count, match.index)\n",
            "    return (-constraint_count, -server_exact, -tool_exact, match.index)\n",
            SM + "resolve_matching_grants",
            "constraint count outranks exactness",
        ),
        canary=Canary(
            "resolve_matching_grants",
            "rank_constraints_first",
            "the constraint count outranks exactness",
        ),
        expect="confirmed",
        budget=PROVE,
    ),
    # ------------------------------------------------------------------ scope: lengths
    Prop(
        "PROOF-SCOPE-MAXLEN",
        "MaxLength holds when the limit equals the leaf's UTF-8 byte length and fails one below it.",
        ("SCOPE-LEN-1",),
        "crosshair",
        (SA + "ArgumentFacts.max_length",),
        "CrossHair, confirmed over all paths: the leaf any string of <= 2 characters (any code point but a lone surrogate); limit = size - 1, size, size + 1",
        CH_SCOPE + "max_length_inclusive",
        ("scope-len-len-*",),
        Mutant(
            "scope-maxlen-exclusive",
            "scope/_arguments.py",
            "        return all(len(leaf.value.encode()) <= limit for leaf in self.string_leaves)\n",
            "        return all(len(leaf.value.encode()) < limit for leaf in self.string_leaves)\n",
            SA + "ArgumentFacts.max_length",
            "the limit is exclusive",
        ),
        canary=Canary("resolve_matching_grants", "exclusive_limits", "the limit is exclusive"),
        expect="confirmed",
        budget=PROVE,
    ),
    Prop(
        "PROOF-SCOPE-MAXARGS",
        "MaxArgsSize holds when the limit equals the compact rendering's byte length and fails one below it.",
        ("SCOPE-LEN-3",),
        "crosshair",
        (SA + "ArgumentFacts.max_args_size",),
        "CrossHair, confirmed over all paths: the argument any integer of the i64/u64 range; limit = size - 1, size, size + 1",
        CH_SCOPE + "max_args_size_inclusive",
        ("scope-len-size-*",),
        Mutant(
            "scope-maxargs-exclusive",
            "scope/_arguments.py",
            "        return len(serde_json.to_string(self.arguments).encode()) <= limit\n",
            "        return len(serde_json.to_string(self.arguments).encode()) < limit\n",
            SA + "ArgumentFacts.max_args_size",
            "the limit is exclusive",
        ),
        canary=Canary("resolve_matching_grants", "exclusive_limits", "the limit is exclusive"),
        expect="confirmed",
        budget=PROVE,
    ),
    # ------------------------------------------------------------------ scope: allowlists
    Prop(
        "PROOF-SCOPE-AUD-STRICT",
        "An audience value passes iff it is an allowed string or a non-empty array of allowed "
        "strings: null, [], booleans, numbers and mixed or null-holding arrays fail closed.",
        ("SCOPE-ALLOW-2", "SCOPE-ALLOW-3"),
        "crosshair",
        (SA + "ArgumentFacts.audience_allowlist", SM + "resolve_matching_grants"),
        "CrossHair, confirmed over all paths: the value null, a bool, an i64/u64 integer, a string of <= 1 character (any code point but a lone surrogate), or an array of <= 2 of those",
        CH_SCOPE + "audience_strict",
        ("scope-allow-aud-null", "scope-allow-aud-*"),
        Mutant(
            "scope-audience-empty-array-passes",
            "scope/_walks.py",
            "                if not valid or len(observed.values) == before:\n",
            "                if not valid:\n",
            SA + "ArgumentFacts.audience_allowlist",
            "an empty array counts as 'nothing to check' (vacuous all)",
        ),
        canary=Canary(
            "resolve_matching_grants",
            "audience_null_skipped",
            "a null in an audience value is skipped",
        ),
        expect="confirmed",
        budget=PROVE,
    ),
    Prop(
        "PROOF-SCOPE-AUD-ABSENT",
        "With no audience key in the arguments the audience allowlist holds (absent allows).",
        ("SCOPE-ALLOW-1", "SCOPE-ALLOW-3"),
        "crosshair",
        (SA + "ArgumentFacts.audience_allowlist",),
        STR
        + " for the key; every value of the bounded alias (arrays of <= 2 leaves, strings of <= 1 character)",
        CH_SCOPE + "absent_key_allows",
        ("scope-allow-aud-absent",),
        Mutant(
            "scope-audience-absent-denies",
            "scope/_walks.py",
            "    if not observed.saw_relevant_key:\n        return True\n",
            "    if not observed.saw_relevant_key:\n        return False\n",
            SA + "ArgumentFacts.audience_allowlist",
            "an absent key fails closed too",
        ),
        canary=Canary(
            "resolve_matching_grants",
            "absent_audience_denies",
            "an absent audience key fails closed",
        ),
    ),
    Prop(
        "PROOF-SCOPE-STORE-STRICT",
        "A memory-store value passes iff it is an allowed string or a non-empty array of allowed "
        "strings; null under a store key fails closed rather than reading as absent.",
        ("SCOPE-ALLOW-2", "SCOPE-ALLOW-3"),
        "crosshair",
        (SA + "ArgumentFacts.memory_store_allowlist",),
        "CrossHair, confirmed over all paths: the value null, a bool, an i64/u64 integer, a string of <= 1 character (any code point but a lone surrogate), or an array of <= 2 of those",
        CH_SCOPE + "store_strict",
        ("scope-allow-mem-*", "scope-allow-upstream-mem-*"),
        Mutant(
            "scope-store-null-as-absent",
            "scope/_walks.py",
            "            if is_relevant_key(key):\n",
            "            if is_relevant_key(key) and (value is not None or is_relevant_key is is_audience_key):\n",
            SA + "ArgumentFacts.memory_store_allowlist",
            "a null store value is read as an absent key",
        ),
        canary=Canary(
            "resolve_matching_grants", "store_null_as_absent", "a null store value reads as absent"
        ),
        expect="confirmed",
        budget=PROVE,
    ),
    # ------------------------------------------------------------------ scope: paths
    Prop(
        "PROOF-SCOPE-PATH-DESC",
        "A path prefix is under itself, and so is a path one segment below it.",
        ("SCOPE-PATH-2", "SCOPE-PATH-4"),
        "crosshair",
        (SA + "path_has_prefix", SA + "normalize_path"),
        "CrossHair, confirmed over all paths: the prefix any string of <= 2 characters that "
        "normalizes, the segment below it any string of <= 1 character but a separator ('' and "
        "'.' included)",
        CH_SCOPE + "descendant_is_under",
        ("scope-z3-path-descendant-*",),
        Mutant(
            "scope-path-equal-only",
            "scope/_arguments.py",
            "    if len(prefix_path.segments) > len(candidate_path.segments):\n",
            "    if len(prefix_path.segments) != len(candidate_path.segments):\n",
            SA + "path_has_prefix",
            "only the prefix itself is under the prefix",
        ),
        canary=Canary("path_has_prefix", "strict_descendants_only", "a path is not under itself"),
        expect="confirmed",
        budget=PROVE,
    ),
    Prop(
        "PROOF-SCOPE-PATH-SIBLING",
        "A sibling of a path prefix is not under it: neither p/../c nor the string-prefix sibling "
        "(/data vs /database).",
        ("SCOPE-PATH-4",),
        "crosshair",
        (SA + "path_has_prefix",),
        "CrossHair, confirmed over all paths: the prefix any string of <= 2 characters not "
        "ending in a separator, the climbed-to name any string of 1 character but '.' or a "
        "separator, the extending character any but a separator",
        CH_SCOPE + "sibling_not_under",
        ("scope-z3-path-sibling-*", "scope-z3-path-string-sibling-*"),
        Mutant(
            "scope-path-string-prefix",
            "scope/_arguments.py",
            "    return all(\n        expected == actual\n"
            "        for expected, actual in zip(prefix_path.segments, candidate_path.segments, strict=False)\n"
            "    )\n",
            '    return "/".join(candidate_path.segments).startswith("/".join(prefix_path.segments))\n',
            SA + "path_has_prefix",
            "a string prefix test instead of a segment-wise one (/a admits /ab)",
        ),
        canary=Canary("path_has_prefix", "string_prefix_paths", "paths nest by string prefix"),
        expect="confirmed",
        budget=PROVE,
    ),
    Prop(
        "PROOF-SCOPE-PATH-DOTDOT",
        "A path whose '..' climbs above its start is under nothing and nothing is under it "
        "(no clamping at the root).",
        ("SCOPE-PATH-3", "SCOPE-PATH-4"),
        "z3",
        (SA + "path_has_prefix", SA + "normalize_path"),
        PATH_BOUND,
        Z_SCOPE + "prop_path_dotdot",
        ("scope-z3-path-dotdot-*",),
        Mutant(
            "scope-path-clamp-at-root",
            "scope/_arguments.py",
            "            if not segments:\n                return None\n            segments.pop()\n",
            "            if segments:\n                segments.pop()\n",
            SA + "normalize_path",
            "'..' at the root is clamped instead of failing",
        ),
        canary=Canary(
            "path_has_prefix", "dotdot_clamped_at_root", "'..' above the root is clamped"
        ),
    ),
    Prop(
        "PROOF-SCOPE-PATH-NORMAL",
        "A normalized path holds no empty, '.' or '..' segment and no separator, and keeps its "
        "input's absoluteness.",
        ("SCOPE-PATH-2",),
        "crosshair",
        (SA + "normalize_path",),
        "CrossHair, confirmed over all paths: the path any string of <= 3 characters",
        CH_SCOPE + "normalized_segments_clean",
        ("scope-path-*",),
        Mutant(
            "scope-path-keeps-dot",
            "scope/_arguments.py",
            '        if segment in ("", "."):\n            continue\n        if segment == "..":\n            if not segments:',
            '        if segment == "":\n            continue\n        if segment == "..":\n            if not segments:',
            SA + "normalize_path",
            "'.' segments are kept",
        ),
        canary=Canary("normalize_path", "dots_kept", "'.' segments are kept"),
        expect="confirmed",
        budget=PROVE,
    ),
    Prop(
        "PROOF-SCOPE-PATH-ABS",
        "An absolute path is never under a relative prefix, nor a relative path under an absolute one.",
        ("SCOPE-PATH-4",),
        "crosshair",
        (SA + "path_has_prefix",),
        "CrossHair, confirmed over all paths: an absolute path of <= 2 characters and a relative one of <= 2 (any characters)",
        CH_SCOPE + "absolute_never_under_relative",
        ("scope-path-*",),
        Mutant(
            "scope-path-ignores-absoluteness",
            "scope/_arguments.py",
            "    if candidate_path.is_absolute != prefix_path.is_absolute:\n        return False\n",
            "",
            SA + "path_has_prefix",
            "absoluteness is not compared",
        ),
        canary=Canary("path_has_prefix", "absoluteness_ignored", "absoluteness is ignored"),
        expect="confirmed",
        budget=PROVE,
    ),
    # ------------------------------------------------------------------ scope: globs
    Prop(
        "PROOF-SCOPE-GLOB-EQUIV",
        "The backtracking wildcard_matches decides exactly the regular language of the glob "
        "('*' any run, dots included); runs of stars mean one star.",
        ("SCOPE-DOM-5",),
        "crosshair",
        (SA + "wildcard_matches",),
        "CrossHair, confirmed over all paths: the pattern and the candidate any strings of <= 3 "
        "characters, against the glob's language by structural recursion",
        CH_SCOPE + "glob_decides_its_language",
        ("scope-z3-glob-*",),
        Mutant(
            "scope-glob-no-backtrack",
            "scope/_arguments.py",
            "            pattern_idx = star_idx + 1\n            match_idx += 1\n"
            "            candidate_idx = match_idx\n",
            "            return False\n",
            SA + "wildcard_matches",
            "a mismatch after a star fails instead of letting the star take one more character",
        ),
        canary=Canary("wildcard_matches", "question_mark_wildcard", "'?' matches any character"),
        expect="confirmed",
        budget=PROVE,
    ),
    Prop(
        "PROOF-SCOPE-GLOB-SUBDOMAIN",
        "A '*.D' domain glob admits every subdomain L.D (L non-empty) and never the base domain D.",
        ("SCOPE-DOM-4", "SCOPE-DOM-5"),
        "crosshair",
        (SA + "wildcard_matches",),
        "CrossHair, confirmed over all paths: the label L any string of 1 character, the domain "
        "D any string of <= 2 characters",
        CH_SCOPE + "subdomain_glob_not_apex",
        ("scope-z3-glob-subdomain-*", "scope-z3-glob-apex-*"),
        Mutant(
            "scope-glob-admits-apex",
            "scope/_arguments.py",
            "    pattern_idx = candidate_idx = 0\n",
            '    if pattern.startswith("*.") and candidate == pattern[2:]:\n'
            "        return True\n"
            "    pattern_idx = candidate_idx = 0\n",
            SA + "wildcard_matches",
            "'*.example.com' also admits example.com",
        ),
        canary=Canary("wildcard_matches", "star_dot_covers_apex", "'*.d' covers 'd'"),
        expect="confirmed",
        budget=PROVE,
    ),
    Prop(
        "PROOF-SCOPE-GLOB-TRAILDOT",
        "A domain glob ending in '.' matches no domain candidate (candidates are normalized "
        "without a trailing dot; the pattern is not).",
        ("SCOPE-DOM-2", "SCOPE-DOM-4"),
        "z3",
        (SA + "wildcard_matches", SA + "parse_domain"),
        "Z3: every pattern of <= 4 characters over 'a . *' ending in '.', all strings not ending "
        "in '.'; tie: parse_domain on every leaf of <= 5 characters over 'a . B / : space' "
        "(9,331 leaves), and " + GLOB_TIE,
        Z_SCOPE + "prop_glob_trailing_dot",
        ("scope-z3-glob-trailing-dot-*", "scope-dom-glob-trailing-dot-pattern"),
        Mutant(
            "scope-domain-keeps-trailing-dot",
            "scope/_arguments.py",
            '    host = authority.partition(":")[0].strip(".")\n    normalized = normalize_domain(host)\n',
            '    host = authority.partition(":")[0].lstrip(".")\n    normalized = ascii_lower(rust_trim(host).lstrip("."))\n',
            SA + "parse_domain",
            "a candidate keeps its trailing dot",
        ),
        canary=Canary("parse_domain", "trailing_dot_kept", "a trailing dot stays on the domain"),
    ),
    Prop(
        "PROOF-SCOPE-GLOB-LITERAL",
        "A glob without '*' matches only itself: '?' and every other character are literal.",
        ("SCOPE-DOM-5",),
        "crosshair",
        (SA + "wildcard_matches",),
        "CrossHair, confirmed over all paths: the pattern any string of <= 3 characters without "
        "'*', the candidate any string of <= 3 characters",
        CH_SCOPE + "star_free_glob_literal",
        ("scope-z3-glob-literal-*",),
        Mutant(
            "scope-glob-question-wildcard",
            "scope/_arguments.py",
            'pattern[pattern_idx] in ("*", candidate[candidate_idx]):\n',
            'pattern[pattern_idx] in ("*", "?", candidate[candidate_idx]):\n',
            SA + "wildcard_matches",
            "'?' matches any one character",
        ),
        canary=Canary("wildcard_matches", "question_mark_wildcard", "'?' matches any character"),
        expect="confirmed",
        budget=PROVE,
    ),
    Prop(
        "PROOF-SCOPE-ALL-NONEMPTY",
        "PathPrefix, DomainExact and DomainGlob fail when the arguments hold no candidate (never "
        "vacuously true).",
        ("SCOPE-PATH-5", "SCOPE-DOM-3", "SCOPE-DOM-4"),
        "z3",
        (
            SA + "ArgumentFacts.path_prefix",
            SA + "ArgumentFacts.domain_glob",
            SA + "ArgumentFacts.domain_exact",
        ),
        "Z3: quantified form equals the unrolled one for n = 0..8, empty never passes, for all n; "
        "tie: every candidate list of <= 3 from 5 paths and from 4 domains (241 lists) and 5 "
        "candidate-free arguments",
        Z_SCOPE + "prop_all_nonempty",
        ("scope-z3-all-empty-*", "scope-path-no-candidate"),
        Mutant(
            "scope-glob-vacuous",
            "scope/_arguments.py",
            "        return bool(domains) and all(wildcard_matches(pattern, domain) for domain in domains)\n",
            "        return all(wildcard_matches(pattern, domain) for domain in domains)\n",
            SA + "ArgumentFacts.domain_glob",
            "DomainGlob holds vacuously with no candidate",
        ),
        canary=Canary("ArgumentFacts", "VacuousFacts", "no candidate passes (a vacuous all)"),
    ),
    Prop(
        "PROOF-SCOPE-ALL-EVERY",
        "PathPrefix, DomainExact and DomainGlob hold only when every candidate fits: one bad "
        "candidate among good ones rejects.",
        ("SCOPE-PATH-5", "SCOPE-DOM-3", "SCOPE-DOM-4"),
        "z3",
        (
            SA + "ArgumentFacts.path_prefix",
            SA + "ArgumentFacts.domain_glob",
            SA + "ArgumentFacts.domain_exact",
        ),
        "Z3: one failing index rejects, for all n; tie as in PROOF-SCOPE-ALL-NONEMPTY",
        Z_SCOPE + "prop_all_every",
        ("scope-z3-all-mixed-*",),
        Mutant(
            "scope-path-any-candidate",
            "scope/_arguments.py",
            "        return bool(candidates) and all(path_has_prefix(path, prefix) for path in candidates)\n",
            "        return bool(candidates) and any(path_has_prefix(path, prefix) for path in candidates)\n",
            SA + "ArgumentFacts.path_prefix",
            "one fitting candidate is enough",
        ),
        canary=Canary("ArgumentFacts", "AnyFacts", "one matching candidate is enough"),
    ),
    Prop(
        "PROOF-SCOPE-ADMIT-NEVER-REFUSED",
        "The admission loop never selects a refused candidate: a selected or pending candidate "
        "passed the durable filter, governed, guard and runtime, and its budget authorized "
        "(or asked for approval).",
        ("SCOPE-ADMIT-2", "SCOPE-ADMIT-4", "SCOPE-ADMIT-5", "SCOPE-ADMIT-6"),
        "crosshair",
        (SCOPE_ADMIT,),
        "up to 3 candidates, each any of the 64 stage-outcome combinations and 4 cost-cap shapes, "
        "5 durable shapes (CrossHair; no counterexample within the budget)",
        CH_ADMIT + "never_selects_a_refused_candidate",
        ("scope-admit-*",),
        Mutant(
            "scope-admit-guard-denial-continues",
            "scope/_admission.py",
            "            if guard_denial is None:\n                guard_denial = candidate.guard\n            continue\n",
            "            if guard_denial is None:\n                guard_denial = candidate.guard\n",
            SCOPE_ADMIT,
            "a guard denial is recorded but the candidate goes on to the budget",
        ),
        canary=Canary(
            "admit", "admit_ignores_guard", "a guard denial does not refuse its candidate"
        ),
    ),
    Prop(
        "PROOF-SCOPE-ADMIT-PRECEDENCE",
        "When every candidate is passed over, the deny is the first budget error if any, else the "
        "first guard denial, else the first governed error (budget > guard > governed).",
        ("SCOPE-ADMIT-7",),
        "crosshair",
        (SCOPE_ADMIT,),
        "exhaustive (confirmed over all paths): every sequence of 1..3 passed-over candidates, "
        "each a governed error, a guard denial or a released exhausted budget",
        CH_ADMIT + "final_precedence",
        ("scope-admit-*",),
        Mutant(
            "scope-admit-governed-before-guard",
            "scope/_admission.py",
            "    if guard_denial is not None:\n        return AdmissionDeny(guard, guard_denial, final)\n"
            "    if governed_error is not None:\n        return AdmissionDeny(governed, governed_error, final)\n",
            "    if governed_error is not None:\n        return AdmissionDeny(governed, governed_error, final)\n"
            "    if guard_denial is not None:\n        return AdmissionDeny(guard, guard_denial, final)\n",
            SCOPE_ADMIT,
            "the final precedence puts a governed error ahead of a guard denial",
        ),
        expect="confirmed",
        canary=Canary("admit", "admit_governed_first", "a governed error outranks a guard denial"),
    ),
    # ------------------------------------------------------------------ visibility
    Prop(
        "PROOF-VIS-LIST-ABSENT",
        "A hidden component is absent from its list for every list method, protocol revision and "
        "profile; visible ones stay, in order.",
        ("VIS-LIST-1", "VIS-LIST-3", "VIS-PROP-1"),
        "crosshair",
        (M + "visibility._dispatch.dispatch", M + "visibility._hiddenness.filter_entries"),
        "exhaustive (confirmed over all paths): 4 list methods x 3 revisions x 2 profiles x 2 orders",
        CH_VIS + "hidden_absent_from_lists",
        ("vis-dispatch-tag-hides-from-list", "vis-dispatch-*-filtered"),
        Mutant(
            "vis-prompts-unfiltered",
            "visibility/_hiddenness.py",
            "        return tuple(e for e in items if admission.admits(e.meta))\n",
            "        return tuple(\n            e for e in items if admission.admits(e.meta) or kind is ComponentKind.PROMPT\n        )\n",
            M + "visibility._hiddenness.filter_entries",
            "prompt lists are not filtered",
        ),
        expect="confirmed",
        canary=Canary("dispatch", "lists_unfiltered", "lists come back unfiltered"),
    ),
    Prop(
        "PROOF-VIS-CALL-REFUSAL",
        "Calling a hidden component answers exactly the refusal a nonexistent one gets, for every "
        "call method, revision, profile and id type; in the strict profile a nonexistent one gets "
        "that same answer.",
        ("VIS-REFUSE-1", "VIS-REFUSE-2", "VIS-REFUSE-3", "VIS-PROP-1", "VIS-STRICT-2"),
        "crosshair",
        (M + "visibility._dispatch.dispatch", M + "visibility._hiddenness.is_hidden"),
        "exhaustive (confirmed over all paths): 3 call methods x 3 revisions x 2 profiles x 2 id types",
        CH_VIS + "hidden_refused_as_nonexistent",
        ("vis-dispatch-hidden-*", "vis-dispatch-parse-hidden-same-as-unknown"),
        Mutant(
            "vis-hidden-forbidden",
            "visibility/_dispatch.py",
            "        if is_hidden(catalog, policy, kind, key, ctx, profile=profile):\n            return refusal(kind, key, request.id, version)\n",
            "        if is_hidden(catalog, policy, kind, key, ctx, profile=profile):\n"
            '            return Refused(error_response(request.id, RpcError(-32603, "forbidden")))\n',
            M + "visibility._dispatch.dispatch",
            "a hidden component answers 'forbidden', which tells it exists",
        ),
        expect="confirmed",
        canary=Canary(
            "dispatch", "hidden_answered_differently", "a hidden component gets a distinct error"
        ),
        budget=PROVE,
    ),
    Prop(
        "PROOF-VIS-BARE",
        "The bare policy Visibility() hides nothing, whatever tags and scopes a component "
        "declares and whoever asks.",
        ("VIS-POL-1",),
        "crosshair",
        (M + "visibility._policy.Visibility.is_visible",),
        "CrossHair, confirmed over all paths: every component kind; tag and scope lists of <= 2 strings of <= 1 character; subject null or a string of <= 1 character",
        CH_VIS + "bare_policy_hides_nothing",
        ("vis-visible-bare-policy",),
        Mutant(
            "vis-scope-check-always-on",
            "visibility/_policy.py",
            "        if self.declared_scopes:\n",
            "        if self.declared_scopes or not self.hidden_tags:\n",
            M + "visibility._policy.Visibility.is_visible",
            "the declared-scope check runs without being switched on",
        ),
        canary=Canary("Visibility", "HidesTagged", "a bare policy hides tagged components"),
        expect="confirmed",
        budget=PROVE,
    ),
    Prop(
        "PROOF-VIS-EMPTY-SCOPES",
        "An empty scope requirement is met by every caller, anonymous included.",
        ("VIS-ID-4", "VIS-POL-3"),
        "crosshair",
        (M + "visibility._identity.has_scopes", M + "visibility._policy.Visibility.is_visible"),
        "exhaustive (confirmed over all paths): every kind, subject present or not, any scope claim",
        CH_VIS + "empty_scope_requirement_met",
        ("vis-visible-undeclared-empty-scope", "vis-visible-undeclared-anonymous"),
        Mutant(
            "vis-anonymous-never-has-scopes",
            "visibility/_identity.py",
            "    needed = tuple(required)\n    if not needed:\n        return True\n",
            "    needed = tuple(required)\n    if identity.subject is None:\n        return False\n    if not needed:\n        return True\n",
            M + "visibility._identity.has_scopes",
            "an anonymous caller never meets a requirement, even an empty one",
        ),
        expect="confirmed",
        canary=Canary("has_scopes", "scopes_need_one", "an empty requirement is never met"),
    ),
    Prop(
        "PROOF-VIS-TPL-SEGMENT",
        "A {v} variable never matches across '/': no URI a template L{v}R accepts has a '/' "
        "between L and R.",
        ("VIS-TPL-1",),
        "z3",
        (
            M + "visibility._template.uri_template_matches",
            M + "visibility._template.match_uri_template",
        ),
        "Z3: every L, R of <= 2 characters over 'a /', all URI strings; tie: 182 templates (one or "
        "two variables, {v} and {+v}) against every URI of <= 4 characters over 'a / newline' "
        "(121 URIs)",
        Z_VIS + "prop_template_segment",
        ("vis-tpl-segment-stops-at-slash", "vis-tpl-z3-segment-*"),
        Mutant(
            "vis-segment-var-spans-slash",
            "visibility/_template.py",
            '    allow = {_SEGMENT: every & ~masks["/"], _RESERVED: every & ~masks["\\n"]}\n',
            '    allow = {_SEGMENT: every & ~masks["\\n"], _RESERVED: every & ~masks["\\n"]}\n',
            M + "visibility._template.uri_template_matches",
            "{v} runs to the end of the line, across '/'",
        ),
        canary=Canary(
            "uri_template_matches",
            "template_unanchored",
            "'{v}' spans '/' and the match is unanchored",
        ),
    ),
    Prop(
        "PROOF-VIS-TPL-ANCHORED",
        "The template matcher is anchored: an accepted URI starts with the template's leading "
        "literal and ends with its trailing one, and must be consumed whole.",
        ("VIS-TPL-3",),
        "z3",
        (M + "visibility._template.uri_template_matches",),
        "Z3: every template of the bound, all URI strings; tie as in PROOF-VIS-TPL-SEGMENT",
        Z_VIS + "prop_template_anchored",
        ("vis-tpl-anchored-start", "vis-tpl-anchored-end", "vis-tpl-z3-anchored-*"),
        Mutant(
            "vis-template-prefix-match",
            "visibility/_template.py",
            "    return bool(reachable >> n & 1)\n",
            "    return bool(reachable)\n",
            M + "visibility._template.uri_template_matches",
            "a template matching a prefix of the URI accepts it",
        ),
        canary=Canary(
            "uri_template_matches",
            "template_unanchored",
            "'{v}' spans '/' and the match is unanchored",
        ),
    ),
    # ------------------------------------------------------------------ MRTR
    Prop(
        "PROOF-MRTR-ROUNDTRIP",
        "open(seal(p)) = p: under an ideal AEAD the sealed payload is recovered, and the real codec "
        "returns every payload it sealed.",
        ("MRTR-TOKEN-1", "MRTR-TOKEN-3", "MRTR-PAYLOAD-1"),
        "z3",
        (M + "mrtr._state.seal", M + "mrtr._state.open_state"),
        "Z3: all keys, nonces, headers and plaintexts (ideal AEAD as uninterpreted functions); tie: "
        "24 payloads x 2 keyrings (a rotated kid included)",
        Z_MRTR + "prop_roundtrip",
        ("mrtr-open-kat", "mrtr-open-v2", "mrtr-open-full"),
        Mutant(
            "mrtr-open-header-off-by-one",
            "mrtr/_state.py",
            "    header = token[: len(version) + 1 + len(kid)].encode(",
            "    header = token[: len(version) + len(kid)].encode(",
            M + "mrtr._state.open_state",
            "the associated data read back is one character short",
        ),
        canary=Canary("open_state", "open_drops_audience", "opening loses the audience"),
    ),
    Prop(
        "PROOF-MRTR-TAMPER",
        "Every single-character modification of a sealed token is rejected.",
        ("MRTR-OPEN-8", "MRTR-B64-1"),
        "z3",
        (M + "mrtr._state.open_state", M + "mrtr._b64.b64url_decode"),
        "Z3: ideal AEAD with injective canonical base64, all texts; tie: 3 tokens (both "
        "trailing-bit remainders), every position, every one of 129 replacement characters "
        "(ASCII and two non-ASCII)",
        Z_MRTR + "prop_tamper",
        ("mrtr-open-tag-bit-flip", "mrtr-open-payload-trailing-bits"),
        Mutant(
            "mrtr-b64-slack-bits-ignored",
            "mrtr/_b64.py",
            "    if rem == 2 and _VALUE[text[-1]] & 0x0F:\n",
            "    if rem == 2 and _VALUE[text[-1]] & 0x00:\n",
            M + "mrtr._b64.b64url_decode",
            "non-zero slack bits are accepted (two texts decode alike)",
        ),
        canary=Canary(
            "open_state", "open_case_folds_version", "the version is compared case-insensitively"
        ),
    ),
    Prop(
        "PROOF-MRTR-SIZE-FIRST",
        "A token over the size cap is refused for its size whatever its content: the cap is "
        "checked before any decoding.",
        ("MRTR-OPEN-1",),
        "crosshair",
        (M + "mrtr._state.verify",),
        "CrossHair, confirmed over all paths: the token any string of <= 2 characters (lone "
        "surrogates included) or any ASCII string of <= 12, every cap from 0 to one below its "
        "UTF-8 length",
        CH_MRTR + "size_checked_first",
        ("mrtr-verify-size-before-decode", "mrtr-verify-size-garbage"),
        Mutant(
            "mrtr-size-after-open",
            "mrtr/_state.py",
            '    if size > check.max_state_bytes:\n        raise _invalid("requestState exceeds the configured maximum size")\n    payload = open_state(token, keyring)\n',
            '    payload = open_state(token, keyring)\n    if size > check.max_state_bytes:\n        raise _invalid("requestState exceeds the configured maximum size")\n',
            M + "mrtr._state.verify",
            "the size cap is checked after decoding",
        ),
        canary=Canary(
            "verify", "decode_before_size", "the token is opened before its size is checked"
        ),
        expect="confirmed",
        budget=PROVE,
    ),
    Prop(
        "PROOF-MRTR-ORDER",
        "Each of the 13 server checks fires only when every earlier one passed: the error is the "
        "first failing check's, whichever later checks also fail.",
        (
            "MRTR-OPEN-1",
            "MRTR-OPEN-9",
            "MRTR-OPEN-10",
            "MRTR-OPEN-11",
            "MRTR-OPEN-12",
            "MRTR-OPEN-13",
        ),
        "z3",
        (M + "mrtr._state.verify", M + "mrtr._state.open_state"),
        "Z3: all 2^13 failure combinations; tie: each check failed with each of the 16 "
        "combinations of the post-open checks (208 real tokens)",
        Z_MRTR + "prop_check_order",
        ("mrtr-verify-*-before-*", "mrtr-open-*-before-*"),
        Mutant(
            "mrtr-principal-before-binding",
            "mrtr/_state.py",
            '    if payload.req != request_binding(check.method, check.params):\n        raise _invalid("requestState does not match this request")\n    if payload.principal != check.principal:\n        raise _invalid("requestState principal mismatch")\n',
            '    if payload.principal != check.principal:\n        raise _invalid("requestState principal mismatch")\n    if payload.req != request_binding(check.method, check.params):\n        raise _invalid("requestState does not match this request")\n',
            M + "mrtr._state.verify",
            "the principal is checked before the binding",
        ),
        canary=Canary("verify", "binding_before_expiry", "the binding is checked before expiry"),
    ),
    Prop(
        "PROOF-MRTR-EXPIRY",
        "A state is live at exp == now and expired from exp == now - 1.",
        ("MRTR-OPEN-10",),
        "z3",
        (M + "mrtr._state.verify",),
        "Z3: all integers; tie: exp = now - 3 .. now + 3",
        Z_MRTR + "prop_expiry",
        ("mrtr-verify-exp-equals-now", "mrtr-verify-expired"),
        Mutant(
            "mrtr-expiry-inclusive",
            "mrtr/_state.py",
            "    if payload.exp < check.now:\n",
            "    if payload.exp <= check.now:\n",
            M + "mrtr._state.verify",
            "a state expires at exp == now",
        ),
        canary=Canary("verify", "expiry_inclusive", "exp == now is expired"),
    ),
    Prop(
        "PROOF-MRTR-ALLOWS",
        "ClientMrtrCapabilities.allows holds iff the declared capabilities admit the request: an "
        "unnamed mode set admits every mode, a named one only its own, a mode-less elicitation is a form.",
        ("MRTR-CAP-4", "MRTR-CAP-5"),
        "crosshair",
        (M + "mrtr._capabilities.ClientMrtrCapabilities.allows",),
        "exhaustive (confirmed over all paths): 3 kinds x 3 modes x 2^5 declarations",
        CH_MRTR + "allows_iff_declared",
        ("mrtr-allows-*",),
        Mutant(
            "mrtr-modeless-is-url",
            "mrtr/_capabilities.py",
            "            mode = request.mode or ElicitationMode.FORM\n            return self.elicitation is not None",
            "            mode = request.mode or ElicitationMode.URL\n            return self.elicitation is not None",
            M + "mrtr._capabilities.ClientMrtrCapabilities.allows",
            "an elicitation without a mode is gated as a URL elicitation",
        ),
        expect="confirmed",
        canary=Canary(
            "_caps", "caps_url_as_form", "a form-only client is taken to accept URL mode"
        ),
    ),
    Prop(
        "PROOF-MRTR-CAP-ROUND",
        "One undeclared input kind fails the whole round, and the error names the first such "
        "request in ask order.",
        ("MRTR-CAP-7",),
        "crosshair",
        (M + "mrtr._capabilities.missing_capability_error",),
        "CrossHair, confirmed over all paths: every list of <= 3 input kinds, every declaration of sampling, roots and elicitation",
        CH_MRTR + "one_undeclared_kind_fails_the_round",
        ("mrtr-allows-*-undeclared",),
        Mutant(
            "mrtr-round-checks-first-only",
            "mrtr/_capabilities.py",
            "    for request in requests:\n        if not capabilities.allows(request):\n",
            "    for request in requests[:1]:\n        if not capabilities.allows(request):\n",
            M + "mrtr._capabilities.missing_capability_error",
            "only the first request of a round is gated",
        ),
        canary=Canary(
            "missing_capability_error",
            "last_missing_named",
            "the error names the last refused request",
        ),
        expect="confirmed",
        budget=PROVE,
    ),
    Prop(
        "PROOF-MRTR-BIND",
        "The request binding is independent of params key order and of top-level _meta, "
        "inputResponses and requestState.",
        ("MRTR-BIND-1", "MRTR-BIND-2", "MRTR-BIND-3"),
        "crosshair",
        (M + "mrtr._binding.salient_params", M + "mrtr._binding.request_binding"),
        STR
        + " for a key and a name, every i53 integer; the digest step by the known-answer vectors",
        CH_MRTR + "binding_ignores_order_and_unbound_keys",
        ("mrtr-bind-key-order", "mrtr-bind-kat-stripped-keys"),
        Mutant(
            "mrtr-binding-keeps-request-state",
            "mrtr/_binding.py",
            'UNBOUND_KEYS: frozenset[str] = frozenset({"_meta", "inputResponses", "requestState"})\n',
            'UNBOUND_KEYS: frozenset[str] = frozenset({"_meta", "inputResponses"})\n',
            M + "mrtr._binding.request_binding",
            "requestState is bound into the request binding",
        ),
        canary=Canary(
            "salient_params", "salient_keeps_input_responses", "inputResponses stays in the binding"
        ),
    ),
    Prop(
        "PROOF-MRTR-SETTLED",
        "Merging a retry's answers never overwrites a settled (sealed) answer; with a state only "
        "requested keys are accepted, without one every offered key is.",
        ("MRTR-SEED-2", "MRTR-SEED-3", "MRTR-SEED-4"),
        "crosshair",
        (M + "mrtr._seed.merge_answers",),
        "CrossHair, confirmed over all paths: two keys, every presence pattern of settled and offered answers, any integer answers, with and without a state and every asked set",
        CH_ENGINE + "settled_answers_never_overwritten",
        ("mrtr-round-merge-*",),
        Mutant(
            "mrtr-settled-overwritten-when-requested",
            "mrtr/_seed.py",
            "        if key in answers:\n            continue  # settled: a later answer never overwrites a sealed one\n",
            "        if key in answers and requested is None:\n            continue  # settled: a later answer never overwrites a sealed one\n",
            M + "mrtr._seed.merge_answers",
            "a re-answered settled key that the state lists as requested overwrites the sealed answer",
        ),
        canary=Canary(
            "merge_answers", "merge_overwrites", "an offered answer overwrites a settled one"
        ),
        expect="confirmed",
        budget=PROVE,
    ),
    Prop(
        "PROOF-MRTR-REPLAY",
        "A committed final is replayed, never re-run: once a round of a verified state commits, "
        "every identical retry returns the stored response (only the id replaced) without "
        "running the handler; rounds before the first commit run.",
        ("MRTR-STORE-2", "MRTR-STORE-4", "MRTR-STORE-5"),
        "z3",
        (M + "mrtr._engine.dispatch",),
        "Z3: every commit pattern of up to 6 identical retries; tie: every pattern of 1..4 "
        "retries (30) through the real dispatch and in-memory store, counting handler runs",
        Z_ENGINE + "prop_final_replayed",
        ("mrtr-round-hit-*", "mrtr-round-miss-puts"),
        Mutant(
            "mrtr-store-never-consulted",
            "mrtr/_engine.py",
            "            cached = store.get(tag, now)\n",
            "            cached = None\n",
            M + "mrtr._engine.dispatch",
            "the final-response store is never read, so a committed final runs again",
        ),
        canary=Canary(
            "InMemoryRequestStateStore",
            "ForgetfulStore",
            "the store never returns a committed final",
        ),
    ),
    # ------------------------------------------------------------------ mrtr: verify, symbolic request side
    Prop(
        "PROOF-MRTR-PRINCIPAL",
        "verify accepts iff the sealed principal equals the caller's; None equals only None, so "
        "a null on either side alone fails closed.",
        ("MRTR-OPEN-12",),
        "crosshair",
        (M + "mrtr._state.verify",),
        "CrossHair, confirmed over all paths: the caller's principal None or any string (no "
        "length bound); the sealed principal each of None, '', 'a', 'é', 'alice' "
        "(real tokens sealed once at import; verify, ChaCha20-Poly1305 included, runs on every path)",
        CH_MRTR + "principal_must_equal",
        ("mrtr-verify-principal-dropped", "mrtr-verify-principal-added"),
        Mutant(
            "mrtr-anonymous-state-accepted",
            "mrtr/_state.py",
            "    if payload.principal != check.principal:\n",
            "    if payload.principal is not None and payload.principal != check.principal:\n",
            M + "mrtr._state.verify",
            "a state minted for nobody is accepted from any principal",
        ),
        canary=Canary(
            "verify", "null_principal_open", "a state sealed without a principal opens for anyone"
        ),
        expect="confirmed",
        budget=PROVE,
    ),
    Prop(
        "PROOF-MRTR-AUDIENCE",
        "verify accepts iff the sealed audience equals the configured one; a null or absent "
        "audience on either side alone fails closed.",
        ("MRTR-OPEN-13", "MRTR-TOKEN-2"),
        "crosshair",
        (M + "mrtr._state.verify",),
        "CrossHair, confirmed over all paths: the configured audience None or any string (no "
        "length bound); the sealed audience each of None (a v1 token), '', 'a', 'é', 'alice' "
        "(v2 tokens) "
        "(real tokens sealed once at import; verify, ChaCha20-Poly1305 included, runs on every path)",
        CH_MRTR + "audience_must_equal",
        ("mrtr-verify-audience-unbound-demanded", "mrtr-verify-audience-bound-unconfigured"),
        Mutant(
            "mrtr-unbound-audience-accepted",
            "mrtr/_state.py",
            "    if payload.aud != check.audience:\n",
            "    if payload.aud is not None and payload.aud != check.audience:\n",
            M + "mrtr._state.verify",
            "an unbound (null-audience) state is accepted by an audience-bound server",
        ),
        canary=Canary(
            "verify", "null_audience_open", "no configured audience accepts a bound state"
        ),
        expect="confirmed",
        budget=PROVE,
    ),
    Prop(
        "PROOF-MRTR-EXPIRES",
        "A state is live through exp == now and expired from now + 1.",
        ("MRTR-OPEN-10",),
        "crosshair",
        (M + "mrtr._state.verify",),
        "CrossHair, confirmed over all paths: now any integer; exp each of 0, 1000, 2^64 - 1 "
        "(real tokens sealed once at import; verify, ChaCha20-Poly1305 included, runs on every path)",
        CH_MRTR + "expiry_inclusive_of_now",
        ("mrtr-verify-exp-equals-now", "mrtr-verify-expired"),
        Mutant(
            "mrtr-clock-truncated",
            "mrtr/_state.py",
            "    if payload.exp < check.now:\n",
            "    if payload.exp < check.now % 2**32:\n",
            M + "mrtr._state.verify",
            "the clock is read modulo 2^32, so a state expired long ago opens again",
        ),
        canary=Canary("verify", "expiry_inclusive", "exp == now is expired"),
        expect="confirmed",
        budget=PROVE,
    ),
    # ------------------------------------------------------------------ mrtr: verify, enumerated
    Prop(
        "PROOF-MRTR-OTHER-REQUEST",
        "A state minted for request A never opens for a request B with other salient params or "
        "another method, and opens for A whatever its _meta.",
        ("MRTR-OPEN-11", "MRTR-BIND-1", "MRTR-BIND-2"),
        "enumerate",
        (M + "mrtr._state.verify", M + "mrtr._binding.request_binding"),
        "every pair of params from absent, {name: t}, {name: u}, {name: t, _meta: {}} under "
        "the same or another method (32 real sealed tokens)",
        ENUM_REQ + "state_for_one_request_only",
        ("mrtr-verify-binding-*",),
        None,
        canary=Canary("verify", "binding_ignored", "the request binding is not checked"),
    ),
    Prop(
        "PROOF-MRTR-WRONG-KEY",
        "A state opens only under the secret it was sealed with, whatever key id the opening "
        "ring files another secret under.",
        ("MRTR-OPEN-8", "MRTR-KEY-1"),
        "enumerate",
        (M + "mrtr._state.verify", M + "mrtr._state.open_state"),
        "every pair of sealing and opening secrets from b'k1', b'k2', b'', b'k1 ' (prefix and "
        "empty secrets), the opening secret under the token's kid or another (32 real tokens)",
        ENUM_REQ + "wrong_key_never_opens",
        ("mrtr-open-tag-bit-flip",),
        None,
        canary=Canary("verify", "any_ring_secret_opens", "a wrong secret is tried until one opens"),
    ),
    # ------------------------------------------------------------------ requests, symbolic
    Prop(
        "PROOF-SCOPE-TARGETS",
        "A grant without constraints is matched exactly when its server and tool are '*' or the "
        "request's and it grants invoke; a match has index 0 and specificity (server exact, "
        "tool exact, 0).",
        ("SCOPE-RES-1", "SCOPE-RANK-1"),
        "crosshair",
        (SM + "resolve_matching_grants", SM + "grant_targets", SM + "specificity"),
        "CrossHair, confirmed over all paths: grant server and tool any strings of <= 2 "
        "characters, request server and tool any strings of <= 1 character, invoke granted or not",
        CH_REQ + "grant_matches_iff_target",
        ("scope-res-kani-uncovering-grant-empty", "scope-res-invoke-required"),
        None,
        canary=Canary(
            "resolve_matching_grants",
            "trailing_star_prefix",
            "a pattern ending in '*' matches by prefix",
        ),
        expect="confirmed",
        budget=CONFIRM,
    ),
    Prop(
        "PROOF-SCOPE-NARROW",
        "Adding a constraint to a grant never adds a match: with it the call is matched only if "
        "it is matched without it (or the call is refused).",
        ("SCOPE-RES-3", "SCOPE-CON-1"),
        "crosshair",
        (SM + "resolve_matching_grants", SM + "constraint_matches"),
        "CrossHair search (no counterexample within the budget): each of the 8 decided variants and one refused variant; the argument "
        "{key: value} with key path, to, store, k or url and value any string of <= 2 "
        "characters; a grant that targets the call and one that does not",
        CH_REQ + "constraint_never_widens",
        ("scope-res-*",),
        None,
        canary=Canary(
            "resolve_matching_grants",
            "constraints_bypass_target",
            "a grant whose constraints hold covers any target",
        ),
        budget=SEARCH,
    ),
    Prop(
        "PROOF-SCOPE-MONOTONE",
        "Adding a grant, before or after, never removes a match: every grant matched before is "
        "matched after, with the same specificity.",
        ("SCOPE-RES-1", "SCOPE-RES-2"),
        "crosshair",
        (SM + "resolve_matching_grants",),
        "CrossHair search (no counterexample within the budget): a kept grant of 6 target shapes (wildcard, exact or another name for "
        "server and tool), with or without a false constraint; an added grant of the same shapes, "
        "invoke or not, with or without the constraint, before or after",
        CH_REQ + "added_grant_keeps_matches",
        ("scope-res-*",),
        None,
        canary=Canary(
            "resolve_matching_grants",
            "first_per_target",
            "grants with the same target shadow each other",
        ),
        budget=SEARCH,
    ),
    Prop(
        "PROOF-SCOPE-OUT-OF-SCOPE",
        "When no grant targets the call the answer is empty, whatever constraints the grants "
        "carry (refused ones included) and whatever the arguments.",
        ("SCOPE-RES-2", "SCOPE-RES-5"),
        "crosshair",
        (SM + "resolve_matching_grants",),
        "CrossHair search (no counterexample within the budget): two grants of 6 target shapes, invoke or not, each with one of 9 constraints "
        "(8 decided, 1 refused); the argument {key: value}, 5 keys, value any string of <= 1 "
        "character",
        CH_REQ + "out_of_scope_is_empty",
        ("scope-res-kani-uncovering-grant-empty", "scope-res-refused-*-ignored"),
        None,
        canary=Canary(
            "resolve_matching_grants",
            "non_targets_read",
            "the constraints of non-target grants are evaluated",
        ),
        budget=SEARCH,
    ),
    Prop(
        "PROOF-VIS-BARE-ANY",
        "A bare Visibility() admits every component, whatever tags and scopes it declares and "
        "whoever asks.",
        ("VIS-POL-1",),
        "crosshair",
        (M + "visibility._policy.Visibility.is_visible",),
        "CrossHair: every kind; 0..2 declared tags and scopes from secret, Secret, other; "
        "anonymous or signed-in caller",
        CH_REQ + "bare_policy_admits",
        ("vis-visible-bare-policy",),
        None,
        canary=Canary("Visibility", "HidesTagged", "a bare policy hides tagged components"),
        expect="confirmed",
        budget=CONFIRM,
    ),
    Prop(
        "PROOF-VIS-WIRE",
        "In the strict profile a call to a hidden component answers, byte for byte on the wire, "
        "what the same call answers when the component does not exist.",
        ("VIS-STRICT-2", "VIS-REFUSE-1", "VIS-REFUSE-2", "VIS-REFUSE-3"),
        "crosshair",
        (M + "visibility._dispatch.dispatch", M + "visibility._hiddenness.is_hidden"),
        "CrossHair search (no counterexample within the budget): any name of <= 1 character; tools/call, prompts/get, resources/read; every "
        "revision; integer or string id; the hidden entry on the first or the second page",
        CH_REQ + "hidden_same_bytes_as_missing",
        ("vis-dispatch-hidden-*",),
        None,
        canary=Canary(
            "dispatch", "hidden_answered_differently", "a hidden component gets a distinct error"
        ),
        budget=SEARCH,
    ),
)
