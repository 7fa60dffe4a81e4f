"""Hosted-matcher vectors for ``regex_match``, ``memory_write_deny_patterns`` and
``model_constraint`` (used by ``scope_hosted``).

Expected answers are the Rust ``regex`` crate's (1.12.3, as Chio's Cargo.lock pins it), stated by
hand from its documented syntax, and request_matching.rs @ 08876737's compile order; the comment
of each Rust-vs-Python case says what Python's ``re`` would do instead.  Case tables run past 400
lines; each row is one hand-written vector.
"""

from __future__ import annotations

from conformance.vectorgen._hosted_common import (
    JSON,
    NONE,
    c,
    case,
    deny_error,
    g,
    m,
    regex_error,
)

_LOOK = "error: look-around, including look-ahead and look-behind, is not supported"
_BACKREF = "error: backreferences are not supported"
_ESCAPE = "error: unrecognized escape sequence"
_FLAG = "error: unrecognized flag"
_SIZE = "Compiled regex exceeds size limit of 10485760 bytes."
_NEST = "error: exceed the maximum number of nested parentheses/brackets (250)"

# (slug, pattern, the crate's explanation (abbreviated), what Python's re does)
REFUSED: list[tuple[str, str, str, str]] = [
    ("lookahead", "(?=x)", _LOOK, "Python compiles lookahead"),
    ("negative-lookahead", "(?!x)y", _LOOK, "Python compiles it"),
    ("lookbehind", "(?<=x)a", _LOOK, "Python compiles lookbehind"),
    ("negative-lookbehind", "(?<!x)a", _LOOK, "Python compiles it"),
    ("backreference", "(a)\\1", _BACKREF, "Python compiles backreferences"),
    ("named-backreference", "(?P<q>a)(?P=q)", "error: unrecognized flag", "Python compiles it"),
    ("octal-zero", "\\0", _BACKREF, "Python reads \\0 as NUL"),
    ("octal-escape", "\\07", _BACKREF, "Python reads \\07 as BEL"),
    ("escape-big-z", "\\Z", _ESCAPE, "Python's end-of-string anchor"),
    ("escape-g", "\\G", _ESCAPE, "Python refuses it too"),
    ("escape-k", "\\K", _ESCAPE, "PCRE keep-out; Python refuses it too"),
    ("escape-h", "\\h", _ESCAPE, "Python refuses it too"),
    ("escape-e", "\\e", _ESCAPE, "PCRE escape; Python refuses it too"),
    ("escape-q", "\\Qa.b\\E", _ESCAPE, "PCRE quoting; Python refuses it too"),
    ("escape-x-cluster", "\\X", _ESCAPE, "grapheme cluster; Python refuses it"),
    ("escape-r-linebreak", "\\R", _ESCAPE, "PCRE linebreak; Python refuses it"),
    ("escape-control", "\\cA", _ESCAPE, "PCRE control escape; Python refuses it"),
    ("comment-group", "(?#note)x", _FLAG, "Python compiles inline comments"),
    ("atomic-group", "(?>a)", _FLAG, "Python 3.11 compiles atomic groups"),
    ("empty-lower-bound", "a{,3}", "error: repetition quantifier expects a valid decimal",
     "Python reads a{,3} as a{0,3}"),
    ("unclosed-group", "(", "error: unclosed group", "Python refuses it too"),
    ("unopened-group", "a)", "error: unopened group", "Python refuses it too"),
    ("unclosed-class", "[", "error: unclosed character class", "Python refuses it too"),
    ("bare-star", "*", "error: repetition operator missing expression", "Python refuses it too"),
    ("reversed-count", "a{2,1}", "error: invalid repetition count range", "Python refuses it"),
    ("reversed-class-range", "[z-a]", "error: invalid character class range",
     "Python refuses it too"),
    ("class-range-to-class", "[a-\\d]", "error: invalid range boundary, must be a literal",
     "Python refuses it too"),
    ("duplicate-name", "(?P<n>a)(?P<n>b)", "error: duplicate capture group name",
     "Python refuses it too"),
    ("digit-group-name", "(?P<1>a)", "error: invalid capture group character",
     "Python refuses it too"),
    ("unfinished-flags", "(?i", "error: expected flag but got end of regex", "Python refuses it"),
    ("dangling-negation", "(?-)", "error: dangling flag negation operator", "Python refuses it"),
    ("trailing-backslash", "\\", "error: incomplete escape sequence", "Python refuses it too"),
    ("short-hex", "\\x4", "error: incomplete escape sequence", "Python refuses it too"),
    ("bad-hex", "\\xZZ", "error: invalid hexadecimal digit", "Python refuses it too"),
    ("unknown-property", "\\p{Nope}", "error: Unicode property not found",
     "Python has no \\p at all"),
    ("unknown-short-property", "\\pX", "error: Unicode property not found", "Python has no \\p"),
    ("count-overflow", "x{4294967296}", "error: decimal literal invalid",
     "Python accepts large counts"),
    ("size-limit-nested-count", "a{1000}{1000}", _SIZE, "Python says multiple repeat"),
    ("size-limit-word", "\\w{100}{100}", _SIZE, "Python says multiple repeat"),
    ("size-limit-digit", "\\d{1000}{1000}", _SIZE, "Python says multiple repeat"),
    ("size-limit-dot", ".{100}{100}{100}", _SIZE, "Python says multiple repeat"),
    ("size-limit-at-the-bound", "a{436907}", _SIZE,
     "Python compiles it; 436,907 states of 24 bytes are past 10 MiB"),
    ("size-limit-grouped", "(?:ab){218454}", _SIZE, "Python compiles it"),
    ("size-limit-32-byte-states", "a{436000}", _SIZE,
     "Python compiles it; 436,000 states of 24 bytes would fit, the crate's are 32 bytes"),
    ("nest-limit", "(" * 251 + ")" * 251, _NEST, "Python compiles 251 nested groups"),
]  # fmt: skip

# (slug, pattern, haystack, Rust verdict, what Python's re does)
COMPILED: list[tuple[str, str, str, bool, str]] = [
    ("named-group-angle", "(?<name>x)", "x", True, "Python 3.11 refuses (?<name>"),
    ("named-group-p", "(?P<name>x)", "x", True, "same in Python"),
    ("greek-property", "\\p{Greek}", "\u03b1", True, "Python has no \\p"),
    ("letter-property", "\\pL", "\u00e9", True, "Python has no \\p"),
    ("letter-property-digit", "\\pL", "1", False, "Python has no \\p"),
    ("class-difference", "[\\w--\\d]", "5", False, "Python refuses it (bad range)"),
    ("class-difference-letter", "[\\w--\\d]", "a", True, "Python refuses it"),
    ("class-intersection-empty", "[a&&b]", "a", False, "Python reads a set of a, &, b: true"),
    ("hex-brace", "\\x{41}", "A", True, "Python refuses \\x{"),
    ("hex-brace-astral", "\\x{1F600}", "\U0001f600", True, "Python refuses \\x{"),
    ("end-anchor-z", "ab\\z", "ab", True, "Python 3.11 refuses \\z"),
    ("end-anchor-z-newline", "ab\\z", "ab\n", False, "Python 3.11 refuses \\z"),
    ("nested-star", "a**", "aaa", True, "Python says multiple repeat"),
    ("star-of-anchor", "^*", "x", True, "Python says nothing to repeat"),
    ("word-start", "\\<foo", "foo", True, "Python reads \\< as a literal <: false"),
    ("word-end", "foo\\>", "foo bar", True, "Python reads \\> as a literal >: false"),
    ("word-start-braces", "\\b{start}foo", "foo", True, "Python reads {start} literally"),
    ("crlf-flag", "(?R)^a$", "a", True, "Python refuses (?R"),
    ("ungreedy-flag", "(?U)a+", "a", True, "Python refuses (?U"),
    ("posix-alpha", "[[:alpha:]]", "a", True, "Python reads [[:alph] then ]: false"),
    ("posix-alpha-ascii-only", "[[:alpha:]]", "\u00e9", False, "ASCII class in Rust"),
    ("posix-word", "[[:word:]]", "_", True, "Python: false"),
    ("posix-negated", "[[:^alpha:]]", "1", True, "Python: false"),
    ("posix-upper-case-insensitive", "(?i)[[:upper:]]", "a", True, "Python: false"),
    ("nest-250", "(" * 250 + ")" * 250, "", True, "compiles in both"),
    ("empty-pattern", "", "", True, "matches the empty leaf"),
    ("verbose", "(?x) a b # c", "ab", True, "same in Python"),
    ("unicode-escape", "\\u0041", "A", True, "same in Python"),
    ("vertical-tab", "\\v", "\x0b", True, "same in Python"),
    ("thousand-count", "a{1000}", "a" * 1000, True, "same in Python"),
    ("count-under-size-limit", "a{300000}", "b", False, "same in Python"),
]  # fmt: skip

# (slug, pattern, haystack, Rust verdict, note)
SEMANTICS: list[tuple[str, str, str, bool, str]] = [
    ("word-unicode", "\\w", "\u00e9", True, "\\w is Unicode-aware"),
    ("word-cjk", "^\\w+$", "\u65e5\u672c", True, "\\w is Unicode-aware"),
    ("digit-arabic-indic", "\\d", "\u0663", True, "\\d is Unicode Nd"),
    ("digit-fullwidth", "\\d", "\uff11", True, "\\d is Unicode Nd"),
    ("non-digit-arabic-indic", "\\D", "\u0663", False, "\\D is the complement of Nd"),
    ("word-ascii-flag", "(?-u:\\w)", "\u00e9", False, "ASCII-only word class"),
    ("boundary-unicode", "\\bfoo\\b", "\u00e9foo", False, "\u00e9 is a word character"),
    ("underscore-is-word", "\\W", "_", False, "_ is a word character"),
    ("kelvin-folds", "(?i)k", "\u212a", True, "simple case folding includes the Kelvin sign"),
    ("sharp-s-folds", "(?i)\u00df", "\u1e9e", True, "\u00df folds with capital sharp s"),
    ("no-multichar-fold", "(?i)stra\u00dfe", "STRASSE", False, "no multi-character folding"),
    ("ligature-no-fold", "(?i)\ufb00", "FF", False, "no multi-character folding"),
    ("sigma-folds", "(?i)\u03c3", "\u03c2", True, "final sigma folds with sigma"),
    ("titlecase-folds", "(?i)\u01c5", "\u01c4", True, "titlecase folds"),
    ("space-not-file-separator", "\\s", "\x1c", False, "Python's \\s matches U+001C"),
    ("space-nel", "\\s", "\x85", True, "NEL is White_Space"),
    ("space-not-zwsp", "^\\s$", "\u200b", False, "U+200B is not White_Space"),
    ("dollar-not-before-newline", "^a$", "a\n", False, "Python's $ matches before a final \\n"),
    ("dollar-end-only", "a$", "a\n", False, "Python: true"),
    ("multiline-caret", "(?m)^b", "a\nb", True, "multi-line mode"),
    ("dot-not-newline", ".", "\n", False, "dot excludes \\n"),
    ("dot-all", "(?s).", "\n", True, "s flag"),
    ("dot-is-a-char", "^.$", "\U0001f600", True, "a char, not a byte"),
    ("negated-class-astral", "[^a]", "\U0001f600", True, "a char, not a byte"),
    ("unanchored", "b", "abc", True, "is_match searches anywhere"),
    ("anchored-start", "^b", "abc", False, "^ anchors"),
    ("case-sensitive-default", "SECRET", "secret", False, "case-sensitive unless (?i)"),
    ("alternation", "cat|dog", "hotdog", True, "leftmost alternation, unanchored"),
]


def _rx(pattern: str) -> list[JSON]:
    return [g(constraints=[c("regex_match", pattern)])]


_RX_NOTES = {
    "rust-refuses": (
        "FAIL_CLOSED",
        "The Rust regex crate refuses this pattern (Python's re may accept it): the grant's "
        "regex_match is an invalid_constraint error that aborts the call.",
    ),
    "rust-compiles": (
        "QUIRK",
        "The Rust regex crate compiles this pattern (Python's re may refuse or read it "
        "differently); the verdict is the crate's.",
    ),
    "semantics": (
        "QUIRK",
        "Matching follows the Rust crate's Unicode classes, simple case folding, and $ / \\s "
        "definitions, unanchored (Regex::is_match).",
    ),
    "leaves": (
        "EDGE_CASE",
        "regex_match reads every string leaf (keys and non-strings are not leaves); with no "
        "leaf it is false, but the pattern is compiled first.",
    ),
}


def regex_tests() -> tuple[dict[str, tuple[str, str]], list[JSON]]:
    """The hosted_regex.json notes and tests."""
    tests: list[JSON] = []
    for slug, pattern, explanation, python in REFUSED:
        tests.append(
            case(
                f"scope-hosted-rx-refuses-{slug}",
                f"The Rust crate refuses {pattern[:40]!r} ({python}).",
                ["SCOPE-HOSTED-RX-1", "SCOPE-HOSTED-RX-3"]
                + (["SCOPE-HOSTED-RX-6"] if slug.startswith("size-limit") else []),
                ["rust-refuses"],
                _rx(pattern),
                {"text": "x"},
                regex_error(pattern, explanation),
            )
        )
    for slug, pattern, haystack, verdict, python in COMPILED:
        tests.append(
            case(
                f"scope-hosted-rx-compiles-{slug}",
                f"The Rust crate compiles {pattern[:40]!r}; on {haystack[:20]!r} it is "
                f"{'a match' if verdict else 'no match'} ({python}).",
                ["SCOPE-HOSTED-RX-1", "SCOPE-HOSTED-RX-4"]
                + (["SCOPE-HOSTED-RX-6"] if "size-limit" in slug else []),
                ["rust-compiles"],
                _rx(pattern),
                {"text": haystack},
                m((0, 1, 1, 1)) if verdict else NONE,
            )
        )
    for slug, pattern, haystack, verdict, note in SEMANTICS:
        tests.append(
            case(
                f"scope-hosted-rx-match-{slug}",
                f"{pattern!r} on {haystack!r}: {'match' if verdict else 'no match'} ({note}).",
                ["SCOPE-HOSTED-RX-1", "SCOPE-HOSTED-RX-4"],
                ["semantics"],
                _rx(pattern),
                {"text": haystack},
                m((0, 1, 1, 1)) if verdict else NONE,
            )
        )
    hit = m((0, 1, 1, 1))
    leaf_rows: list[tuple[str, str, str, JSON, JSON]] = [
        ("any-leaf-deep", "One deep string leaf matching is enough.", "^secret$",
         {"a": [1, {"b": ["x", "secret"]}]}, hit),
        ("keys-not-leaves", "Object keys are not leaves.", "^secret$", {"secret": 1}, NONE),
        ("numbers-not-leaves", "Numbers are not leaves.", "\\d", {"n": 123}, NONE),
        ("bools-nulls-not-leaves", "Booleans and nulls are not leaves.", "true|null",
         {"a": True, "b": None}, NONE),
        ("no-leaf-empty-pattern", "No leaf: even the empty pattern is false.", "", {"n": 1},
         NONE),
        ("null-arguments", "Null arguments have no leaf: false.", "", None, NONE),
        ("top-level-string", "A top-level string is a leaf.", "^hi$", "hi", hit),
        ("array-of-strings", "Strings in a top-level array are leaves.", "b", ["a", "b"], hit),
        ("empty-string-leaf", "An empty string is a leaf the empty pattern matches.", "^$",
         {"a": ""}, hit),
    ]  # fmt: skip
    for slug, comment, pattern, args, expected in leaf_rows:
        tests.append(
            case(
                f"scope-hosted-rx-leaves-{slug}",
                comment,
                ["SCOPE-HOSTED-RX-4"],
                ["leaves"],
                _rx(pattern),
                args,
                expected,
            )
        )
    tests += [
        case(
            "scope-hosted-rx-compiled-before-leaves-empty-args",
            "A bad pattern is an error even with no string leaf: it is compiled first.",
            ["SCOPE-HOSTED-RX-2"],
            ["leaves"],
            _rx("(?=x)"),
            {},
            regex_error("(?=x)", _LOOK),
        ),
        case(
            "scope-hosted-rx-compiled-before-leaves-null-args",
            "Null arguments: the bad pattern is still compiled and refused.",
            ["SCOPE-HOSTED-RX-2"],
            ["leaves"],
            _rx("\\Z"),
            None,
            regex_error("\\Z", _ESCAPE),
        ),
        case(
            "scope-hosted-rx-pattern-quoted-raw",
            "The message quotes the pattern raw, quotes and backslashes unescaped.",
            ["SCOPE-HOSTED-RX-3"],
            ["rust-refuses"],
            _rx('"(?=\\"'),
            {},
            regex_error('"(?=\\"', _LOOK),
        ),
        case(
            "scope-hosted-rx-two-patterns-both-hold",
            "Two regex_match constraints on one grant must both hold.",
            ["SCOPE-HOSTED-RX-4", "SCOPE-HOSTED-RES-1"],
            ["semantics"],
            [g(constraints=[c("regex_match", "^a"), c("regex_match", "z$")])],
            {"x": "abc", "y": "xyz"},
            m((0, 1, 1, 2)),
        ),
        case(
            "scope-hosted-rx-second-fails",
            "The second regex_match finds no leaf: the grant drops.",
            ["SCOPE-HOSTED-RX-4", "SCOPE-HOSTED-RES-1"],
            ["semantics"],
            [g(constraints=[c("regex_match", "^a"), c("regex_match", "^q")])],
            {"x": "abc", "y": "xyz"},
            NONE,
        ),
    ]
    return _RX_NOTES, tests


_DENY_NOTES = {
    "order": (
        "QUIRK",
        "Deny patterns are compiled one at a time in list order, each tried on every leaf before "
        "the next is compiled: a bad pattern after one that matched is never compiled.",
    ),
    "deny": (
        "BASIC",
        "Any leaf matching any deny pattern drops the grant; none matching passes.",
    ),
    "fail-closed": (
        "FAIL_CLOSED",
        "A deny pattern the Rust crate refuses, once reached, is an invalid_constraint error.",
    ),
}


def deny_tests() -> tuple[dict[str, tuple[str, str]], list[JSON]]:
    """The hosted_deny.json notes and tests."""

    def deny(patterns: list[str]) -> list[JSON]:
        return [g(constraints=[c("memory_write_deny_patterns", patterns)])]

    hit = m((0, 1, 1, 1))
    rows: list[tuple[str, str, list[str], JSON, JSON, list[str]]] = [
        ("match-then-bad", "The first pattern matches: false; the bad second is never compiled.",
         ["secret", "("], {"v": "my secret"}, NONE, ["order"]),
        ("miss-then-bad", "The first pattern misses, so the bad second is compiled: error.",
         ["secret", "("], {"v": "public"}, deny_error("(", "error: unclosed group"),
         ["order", "fail-closed"]),
        ("bad-then-match", "A bad first pattern errors even though the second would match.",
         ["(?=x)", "secret"], {"v": "secret"}, deny_error("(?=x)", _LOOK),
         ["order", "fail-closed"]),
        ("match-then-bad-lookbehind", "First matches, so a lookbehind second is never compiled.",
         ["^ok", "(?<=x)y"], {"v": "ok"}, NONE, ["order"]),
        ("match-then-two-bad", "Only the first pattern is compiled when it matches.",
         ["a", "(", "["], {"v": "a"}, NONE, ["order"]),
        ("miss-miss-bad", "Two misses, then the bad third is compiled: error.",
         ["x", "y", "["], {"v": "a"}, deny_error("[", "error: unclosed character class"),
         ["order", "fail-closed"]),
        ("second-bad-of-three-after-miss", "A miss, then the bad second errors before the third.",
         ["x", "\\Z", "a"], {"v": "a"}, deny_error("\\Z", _ESCAPE), ["order", "fail-closed"]),
        ("no-leaves-compiles-all", "No string leaf: nothing matches, so every pattern is "
         "compiled and the bad last one errors.", ["a", "b", "(a)\\1"], {"n": 1},
         deny_error("(a)\\1", _BACKREF), ["order", "fail-closed"]),
        ("null-args-compiles-all", "Null arguments: every pattern is compiled.",
         ["a", "a{,3}"], None,
         deny_error("a{,3}", "error: repetition quantifier expects a valid decimal"),
         ["order", "fail-closed"]),
        ("no-leaves-all-good", "No string leaf and good patterns: true.", ["a", "b"], {"n": 1},
         hit, ["deny"]),
        ("empty-list", "An empty deny list is true.", [], {"v": "secret"}, hit, ["deny"]),
        ("empty-list-no-args", "An empty deny list with null arguments is true.", [], None, hit,
         ["deny"]),
        ("none-match", "No pattern matches any leaf: true.", ["secret", "^pw"],
         {"v": "public", "w": ["a", "b"]}, hit, ["deny"]),
        ("any-leaf-deep", "A deep leaf matching drops the grant.", ["token"],
         {"a": {"b": [{"c": "my token"}]}}, NONE, ["deny"]),
        ("unanchored", "Patterns search anywhere in a leaf.", ["cre"], {"v": "secret"}, NONE,
         ["deny"]),
        ("keys-not-leaves", "A key that matches is not a leaf.", ["secret"], {"secret": 1}, hit,
         ["deny"]),
        ("case-sensitive", "Matching is case-sensitive by default.", ["SECRET"],
         {"v": "secret"}, hit, ["deny"]),
        ("case-insensitive-flag", "(?i) folds case.", ["(?i)SECRET"], {"v": "secret"}, NONE,
         ["deny"]),
        ("kelvin-fold", "(?i)k matches the Kelvin sign (Unicode simple folding).", ["(?i)k"],
         {"v": "\u212a"}, NONE, ["deny"]),
        ("dollar-strict", "$ does not match before a final newline.", ["^x$"], {"v": "x\n"},
         hit, ["deny"]),
        ("rust-syntax-ok", "A Rust-only class (difference) compiles and denies a letter.",
         ["[\\w--\\d]"], {"v": "a"}, NONE, ["deny"]),
        ("rust-syntax-ok-digit", "The class difference does not match a digit: true.",
         ["[\\w--\\d]"], {"v": "5"}, hit, ["deny"]),
        ("empty-pattern-denies", "The empty pattern matches every leaf: false.", [""],
         {"v": "x"}, NONE, ["deny"]),
        ("match-then-size-limit", "The first pattern matches, so an oversize second is never "
         "compiled.", ["^x", "a{1000}{1000}"], {"v": "xyz"}, NONE, ["order"]),
        ("match-in-second-leaf-then-bad", "The first pattern matches the second leaf only; the "
         "bad second pattern is still never compiled.", ["pw", "(?=x)"],
         {"a": "fine", "b": ["ok", "my pw"]}, NONE, ["order"]),
        ("case-fold-match-then-bad", "(?i) first pattern matches; the backreference after it "
         "is never compiled.", ["(?i)TOKEN", "(a)\\1"], {"v": "token"}, NONE, ["order"]),
        ("top-level-string-then-bad", "A top-level string matched by the first pattern shields "
         "the bad second.", ["^s", "["], "secret", NONE, ["order"]),
        ("size-limit", "A pattern over the compiled-size limit is an error.",
         ["a{1000}{1000}"], {"v": "a"}, deny_error("a{1000}{1000}", _SIZE), ["fail-closed"]),
    ]  # fmt: skip
    tests = [
        case(
            f"scope-hosted-deny-{slug}",
            comment,
            ["SCOPE-HOSTED-DENY-1", "SCOPE-HOSTED-DENY-2"],
            flags,
            deny(patterns),
            args,
            expected,
        )
        for slug, comment, patterns, args, expected, flags in rows
    ]
    tests += [
        case(
            "scope-hosted-deny-drop-sibling-admits",
            "A deny hit drops the exact grant; the */* sibling admits the call.",
            ["SCOPE-HOSTED-DENY-1"],
            ["deny"],
            [g(constraints=[c("memory_write_deny_patterns", ["secret"])]), g("*", "*")],
            {"v": "secret"},
            m((1, 0, 0, 0)),
        ),
        case(
            "scope-hosted-deny-error-aborts-earlier-match",
            "A deny compile error on a later target grant discards the earlier */* match.",
            ["SCOPE-HOSTED-DENY-1", "SCOPE-HOSTED-RES-1"],
            ["fail-closed"],
            [g("*", "*"), g(constraints=[c("memory_write_deny_patterns", ["x", "("])])],
            {"v": "a"},
            deny_error("(", "error: unclosed group"),
        ),
        case(
            "scope-hosted-deny-hit-shields-later-regex",
            "A deny hit drops the grant before its bad regex_match is reached.",
            ["SCOPE-HOSTED-DENY-1", "SCOPE-HOSTED-RES-1"],
            ["order"],
            [g(constraints=[c("memory_write_deny_patterns", ["a"]), c("regex_match", "(")])],
            {"v": "a"},
            NONE,
        ),
        case(
            "scope-hosted-deny-miss-reaches-later-regex",
            "A deny miss passes, so the bad regex_match after it is reached: its own message.",
            ["SCOPE-HOSTED-DENY-1", "SCOPE-HOSTED-RX-3"],
            ["order", "fail-closed"],
            [g(constraints=[c("memory_write_deny_patterns", ["z"]), c("regex_match", "(")])],
            {"v": "a"},
            regex_error("(", "error: unclosed group"),
        ),
        case(
            "scope-hosted-deny-same-pattern-as-regex",
            "The same pattern as regex_match (true: a leaf matches) and as deny (false).",
            ["SCOPE-HOSTED-DENY-1", "SCOPE-HOSTED-RX-4"],
            ["deny"],
            [
                g(constraints=[c("regex_match", "^a")]),
                g(constraints=[c("memory_write_deny_patterns", ["^a"])]),
            ],
            {"v": "abc"},
            m((0, 1, 1, 1)),
        ),
    ]
    return _DENY_NOTES, tests


_MODEL_NOTES = {
    "rules": (
        "QUIRK",
        "model_constraint's rules apply in order: no requirement is true even without metadata; "
        "otherwise no metadata is false; then the allowlist; then the tier floor.",
    ),
    "tiers": (
        "EDGE_CASE",
        "Tiers order low < standard < high < restricted; an absent tier fails any floor.",
    ),
    "metadata": (
        "EDGE_CASE",
        "Only model_id and safety_tier are read; provider and provenance_class never matter.",
    ),
}


def model_tests() -> tuple[dict[str, tuple[str, str]], list[JSON]]:
    """The hosted_model.json notes and tests."""

    def mc(ids: list[str], tier: str | None = None, *, omit_tier: bool = False) -> list[JSON]:
        value: dict[str, JSON] = {"allowed_model_ids": ids}
        if not omit_tier:
            value["min_safety_tier"] = tier
        return [g(constraints=[c("model_constraint", value)])]

    hit = m((0, 1, 1, 1))
    absent = object()
    rows: list[tuple[str, str, list[JSON], JSON, JSON]] = [
        ("rule1-no-metadata", "Empty allowlist, no tier: true without metadata.",
         mc([], omit_tier=True), absent, hit),
        ("rule1-null-metadata", "Empty allowlist, tier null: true with null metadata.",
         mc([]), None, hit),
        ("rule1-any-metadata", "No requirement: true whatever the model.",
         mc([]), {"model_id": "anything", "safety_tier": "low"}, hit),
        ("rule1-before-metadata-check", "Tier null and empty allowlist hold before metadata "
         "is looked at (absent).", mc([], None), absent, hit),
        ("rule1-positional-empty-metadata", "No requirement: true with minimal positional "
         "metadata.", mc([], omit_tier=True), ["m"], hit),
        ("rule2-allowlist-no-metadata", "An allowlist and no metadata: false.",
         mc(["m1"]), absent, NONE),
        ("rule2-tier-no-metadata", "A tier floor and no metadata: false.",
         mc([], "low"), None, NONE),
        ("rule3-not-listed", "A model outside the allowlist: false, whatever its tier.",
         mc(["m1"]), {"model_id": "m2", "safety_tier": "restricted"}, NONE),
        ("rule3-case-sensitive", "Model ids compare exactly: M1 is not m1.",
         mc(["m1"]), {"model_id": "M1"}, NONE),
        ("rule3-no-trim", "Model ids compare exactly: ' m1' is not m1.",
         mc(["m1"]), {"model_id": " m1"}, NONE),
        ("rule3-listed", "A listed model with no floor: true.",
         mc(["m1", "m2"]), {"model_id": "m2"}, hit),
        ("rule3-before-rule4", "Not listed fails before the tier is looked at.",
         mc(["m1"], "low"), {"model_id": "m2", "safety_tier": "high"}, NONE),
        ("rule4-listed-no-tier", "A listed model without a tier fails a floor.",
         mc(["m1"], "low"), {"model_id": "m1"}, NONE),
        ("rule4-listed-null-tier", "A null tier fails a floor.",
         mc(["m1"], "low"), {"model_id": "m1", "safety_tier": None}, NONE),
        ("rule5-listed-tier-ok", "Listed and at the floor: true.",
         mc(["m1"], "high"), {"model_id": "m1", "safety_tier": "high"}, hit),
        ("empty-id-listed", "The empty model id can be listed.",
         mc([""]), {"model_id": ""}, hit),
        ("provider-ignored", "provider is never read.",
         mc(["m1"]), {"model_id": "m1", "provider": "someone-else"}, hit),
        ("provenance-ignored", "provenance_class is never read.",
         mc(["m1"], "low"), {"model_id": "m1", "safety_tier": "low",
                             "provenance_class": "asserted"}, hit),
        ("positional-metadata", "Metadata in serde's positional form [model_id, tier].",
         mc(["m1"], "standard"), ["m1", "restricted"], hit),
    ]  # fmt: skip
    tests: list[JSON] = []
    for slug, comment, grants, meta, expected in rows:
        extra = {} if meta is absent else {"model": meta}
        tests.append(
            case(
                f"scope-hosted-model-{slug}",
                comment,
                ["SCOPE-HOSTED-MODEL-1"],
                ["metadata" if "ignored" in slug or "positional" in slug else "rules"],
                grants,
                {},
                expected,
                **extra,
            )
        )
    order = ["low", "standard", "high", "restricted"]
    for floor_rank, floor in enumerate(order):
        for tier_rank, tier in enumerate(order):
            ok = tier_rank >= floor_rank
            tests.append(
                case(
                    f"scope-hosted-model-tier-{tier}-floor-{floor}",
                    f"Tier {tier} against floor {floor}: {'passes' if ok else 'fails'}.",
                    ["SCOPE-HOSTED-MODEL-1"],
                    ["tiers"],
                    mc([], floor),
                    {},
                    hit if ok else NONE,
                    model={"model_id": "any", "safety_tier": tier},
                )
            )
    tests += [
        case(
            "scope-hosted-model-rule1-beside-failing-sibling",
            "Without metadata the unconstrained model grant matches and the allowlisted one drops.",
            ["SCOPE-HOSTED-MODEL-1"],
            ["rules"],
            [
                g(constraints=[c("model_constraint", {"allowed_model_ids": ["m1"]})]),
                g(constraints=[c("model_constraint", {"allowed_model_ids": []})]),
            ],
            {},
            m((1, 1, 1, 1)),
        ),
        case(
            "scope-hosted-model-args-never-read",
            "A model id in the arguments does not stand in for missing metadata.",
            ["SCOPE-HOSTED-MODEL-1"],
            ["metadata"],
            mc(["m1"]),
            {"model_id": "m1", "model_metadata": {"model_id": "m1"}},
            NONE,
        ),
        case(
            "scope-hosted-model-drop-sibling-admits",
            "The model-constrained grant drops without metadata; the */* sibling admits.",
            ["SCOPE-HOSTED-MODEL-1"],
            ["rules"],
            [*mc(["m1"]), g("*", "*")],
            {},
            m((1, 0, 0, 0)),
        ),
        case(
            "scope-hosted-model-best-of-two",
            "Two model grants: only the one the model satisfies is ranked.",
            ["SCOPE-HOSTED-MODEL-1"],
            ["rules"],
            [
                g(constraints=[c("model_constraint", {"allowed_model_ids": ["m1"]})]),
                g(constraints=[c("model_constraint", {"allowed_model_ids": ["m2"]})]),
            ],
            {},
            m((1, 1, 1, 1)),
            model={"model_id": "m2"},
        ),
    ]
    return _MODEL_NOTES, tests
