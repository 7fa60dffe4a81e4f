"""Table tests for the quirks of the seed's "Argument reading" section and chio.md section 4."""

from __future__ import annotations

import pytest

from mcp_touchstone.scope import resolve_matching_grants
from mcp_touchstone.scope._arguments import (
    ArgumentFacts,
    NormalizedPath,
    ascii_lower,
    collect_domain_candidates,
    is_path_key,
    looks_like_path,
    normalize_domain,
    normalize_path,
    parse_domain,
    path_has_prefix,
    rust_trim,
    wildcard_matches,
)
from mcp_touchstone.serde_json import JSON
from tests.scope._helpers import con, grant, scope


def _matches(constraint: dict[str, JSON], args: JSON) -> bool:
    result = resolve_matching_grants(scope(grant(constraints=[constraint])), "read", "files", args)
    assert isinstance(result, tuple)
    return len(result) == 1


# --------------------------------------------------------------------------- the seed's table


def test_report_txt_is_a_domain_candidate() -> None:
    """report.txt next to a URL drops a domain_exact grant (SCOPE-DOM-1, SCOPE-ARG-2)."""
    args: JSON = {"url": "https://example.com/a", "attachment": "report.txt"}
    assert not _matches(con("domain_exact", "example.com"), args)
    assert _matches(con("domain_exact", "example.com"), {"url": "https://example.com/a"})


def test_application_json_is_a_path_candidate() -> None:
    """An incidental application/json must sit under the prefix too (SCOPE-PATH-1, SCOPE-ARG-2)."""
    args: JSON = {"path": "/data/in.json", "content_type": "application/json"}
    assert not _matches(con("path_prefix", "/data"), args)
    assert _matches(con("path_prefix", "/data"), {"path": "/data/in.json"})


def test_date_range_to_is_an_audience_value() -> None:
    """{"to": "2026-07-28"} is an observed audience value and fails (SCOPE-ALLOW-1)."""
    assert not _matches(
        con("audience_allowlist", ["#ops"]), {"from": "2026-07-01", "to": "2026-07-28"}
    )


def test_trailing_star_glob_is_a_raw_prefix() -> None:
    """larkfield.example* admits larkfield.example.example.net (SCOPE-DOM-5)."""
    args: JSON = {"url": "https://larkfield.example.example.net/"}
    assert _matches(con("domain_glob", "larkfield.example*"), args)


def test_scope_dom_5_the_glob_reads_patterns_of_any_length() -> None:
    """SCOPE-DOM-5 past 256 characters: the glob compares positions as numbers, so a long
    pattern matches itself, a trailing ``*`` is still a raw prefix and a leading one a suffix."""
    long = "a" * 300
    assert wildcard_matches(long, long)
    assert wildcard_matches(long + "*", long + "xyz")
    assert wildcard_matches("*" + long, "b" + long)
    assert not wildcard_matches(long, long + "b")


def test_star_crosses_dots() -> None:
    """*.larkfield.example admits a.b.larkfield.example (SCOPE-DOM-5)."""
    assert _matches(con("domain_glob", "*.larkfield.example"), {"u": "a.b.larkfield.example"})


def test_trailing_dot_pattern_never_matches() -> None:
    """A glob pattern written with a trailing dot never matches (SCOPE-DOM-4)."""
    assert not _matches(con("domain_glob", "larkfield.example."), {"u": "larkfield.example."})


def test_paths_are_symlink_blind() -> None:
    """A link inside the prefix pointing outside still satisfies PathPrefix (SCOPE-PATH-2)."""
    assert _matches(con("path_prefix", "/srv/app"), {"path": "/srv/app/link-to-root/etc/passwd"})


def test_dotdot_above_root_is_none_not_clamped() -> None:
    """/../x is unnormalizable, so it is under nothing, not even / (SCOPE-PATH-3)."""
    assert normalize_path("/../x") is None
    assert not path_has_prefix("/../x", "/")
    assert not _matches(con("path_prefix", "/"), {"path": "/../x"})


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("https://user:pw@API.example.com.:8443/p?q#f", "api.example.com"),
        ("https://user@evil.com@a.example.com/", "a.example.com"),
        ("mailto:ops@example.com", "example.com"),
        ("ops@example.com", "example.com"),
        ("http://localhost:8080/", "localhost"),
        ("LOCALHOST.", "localhost"),
        ("127.0.0.1", "127.0.0.1"),
        ("https:// a.com :80/x", "a.com"),
        ("\u00a0a.com", "a.com"),
        ("report.txt", "report.txt"),
        ("v1.2.3", "v1.2.3"),
        ("3.14", "3.14"),
        ("e.g.", "e.g"),
        ("docs.v2/readme", "docs.v2"),
        ("a..b", "a..b"),
        ("2026-07-28", None),
        ("intranet", None),
        ("/etc/passwd", None),
        ("Mr. Smith", None),
        ("...", None),
        ("b\u00fccher.de", None),
        ("\u212a.com", None),
        ("\u001ca.com", None),
        ("http://[::1]:80/", None),
        ("", None),
        ("   ", None),
    ],
)
def test_parse_domain_table(value: str, expected: str | None) -> None:
    """parse_domain's worked table (SCOPE-DOM-1, SCOPE-DOM-2)."""
    assert parse_domain(value) == expected


@pytest.mark.parametrize(
    ("pattern", "candidate", "expected"),
    [
        ("*.example.com", "a.b.example.com", True),
        ("*.example.com", "example.com", False),
        ("*example.com", "badexample.com", True),
        ("larkfield.example*", "larkfield.example.example.net", True),
        ("example.com.", "example.com", False),
        (" example.com", "example.com", False),
        ("a?.com", "ab.com", False),
        ("a?.com", "a?.com", True),
        ("a*b*c.com", "axxbyyc.com", True),
        ("*", "x.y", True),
        ("", "a.b", False),
        ("", "", True),
        ("**", "", True),
        ("a*", "b", False),
    ],
)
def test_wildcard_table(pattern: str, candidate: str, expected: bool) -> None:
    """wildcard_matches' worked table (SCOPE-DOM-5)."""
    assert wildcard_matches(pattern, candidate) is expected


def test_domain_exact_expected_is_normalized_not_parsed() -> None:
    """The expected domain is trimmed, dot-trimmed, lowercased, never URL-parsed (SCOPE-DOM-3)."""
    assert normalize_domain(" A.com. ") == "a.com"
    assert _matches(con("domain_exact", " A.com. "), {"u": "a.com"})
    assert not _matches(con("domain_exact", "https://a.com"), {"u": "https://a.com"})


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("path", True),
        ("FilePath", True),
        ("sympathy", True),
        ("xpathy", True),
        ("Dir", True),
        ("directory", True),
        ("root", True),
        ("cwd", True),
        ("file", True),
        ("files", False),
        ("folder", False),
        ("rootDir", False),
        ("PATH\u212a", True),
        ("p\u0430th", False),
    ],
)
def test_path_keys(key: str, expected: bool) -> None:
    """Which keys make a leaf a path candidate (SCOPE-PATH-1)."""
    assert is_path_key(key) is expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("/abs", True),
        ("./rel", True),
        ("../up", True),
        ("~/home", True),
        ("a\\b", True),
        ("application/json", True),
        ("https://x.com/a", False),
        ("file:///etc/x", False),
        ("plain", False),
        ("", False),
    ],
)
def test_looks_like_path(value: str, expected: bool) -> None:
    """Value-based path candidates: a slash or backslash and no :// (SCOPE-PATH-1)."""
    assert looks_like_path(value) is expected


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/srv/safe/./a/../b.txt", NormalizedPath(True, ("srv", "safe", "b.txt"))),
        ("\\data\\a", NormalizedPath(True, ("data", "a"))),
        ("C:\\x", NormalizedPath(False, ("C:", "x"))),
        ("~/x", NormalizedPath(False, ("~", "x"))),
        ("", NormalizedPath(False, ())),
        (".", NormalizedPath(False, ())),
        ("/", NormalizedPath(True, ())),
        ("/a/ ", NormalizedPath(True, ("a", " "))),
        ("/data/../../x", None),
        ("../a", None),
        ("a/b/../../..", None),
    ],
)
def test_normalize_path_table(path: str, expected: NormalizedPath | None) -> None:
    """Lexical normalization (SCOPE-PATH-2, SCOPE-PATH-3)."""
    assert normalize_path(path) == expected


def test_rust_trim_and_ascii_lower_differ_from_python() -> None:
    """Rust trim keeps U+001C..U+001F; ASCII lowercasing leaves KELVIN SIGN (SCOPE-DOM-2)."""
    assert rust_trim("\u001cx\u001f") == "\u001cx\u001f"
    assert "\u001cx\u001f".strip() == "x"
    assert rust_trim("\u3000\u2028x\u0085") == "x"
    assert ascii_lower("\u212aEY") == "\u212aey"
    assert "\u212aEY".lower() == "key"


def test_max_length_counts_bytes() -> None:
    """MaxLength counts UTF-8 bytes and is vacuous without strings (SCOPE-LEN-1, SCOPE-LEN-2)."""
    facts = ArgumentFacts({"s": "\u00e9\u00e9\u00e9", "n": 1})
    assert facts.max_length(6)
    assert not facts.max_length(5)
    assert ArgumentFacts({"n": 1, "b": [True, None]}).max_length(0)


def test_max_args_size_uses_serde_json_layout() -> None:
    """MaxArgsSize counts serde_json's compact bytes, not json.dumps' (SCOPE-LEN-4)."""
    facts = ArgumentFacts({"x": 0.00001, "s": "\u00e9"})
    size = len('{"s":"\u00e9","x":0.00001}'.encode())
    assert facts.max_args_size(size)
    assert not facts.max_args_size(size - 1)


def test_custom_has_no_reserved_keys() -> None:
    """Later first-class names are ordinary Custom keys in this version (SCOPE-CUSTOM-2)."""
    assert _matches(con("custom", ["output_digest_sha256", "ab"]), {"output_digest_sha256": "ab"})


def test_path_has_prefix_answers_a_bool_both_ways() -> None:
    """SCOPE-PATH-4: ``path_has_prefix`` is ``True`` for a segment-wise prefix after
    normalization and ``False`` otherwise, a real bool either way."""
    assert path_has_prefix("/data/./reports/q1.csv", "/data/reports") is True
    assert path_has_prefix("/data\\reports", "/data/") is True
    assert path_has_prefix("/data/reportsX", "/data/reports") is False
    assert path_has_prefix("data/reports", "/data") is False  # relative vs absolute


def test_constraint_matches_refuses_an_undecided_variant_by_its_tag() -> None:
    """SCOPE-CON-2: a variant outside the portable eight is refused with Chio's ``portable
    kernel cannot safely evaluate <tag>`` whatever the arguments."""
    from mcp_touchstone.scope import ConstraintError, constraint_matches, decode_constraint

    facts = ArgumentFacts({"q": "abc"})
    cases: list[tuple[str, JSON]] = [
        ("regex_match", "x"),
        ("seller_exact", "s"),
        ("max_rows_returned", 0),
    ]
    for tag, value in cases:
        got = constraint_matches(decode_constraint({"type": tag, "value": value}), facts)
        assert got == ConstraintError(f"portable kernel cannot safely evaluate {tag}")
    assert constraint_matches(decode_constraint({"type": "max_length", "value": 3}), facts)


def test_parse_domain_cuts_the_authority_only_at_slash_query_or_fragment() -> None:
    """SCOPE-DOM-2: the authority ends at the first ``/``, ``?`` or ``#`` and at no other
    character, and an upper-case host is read whole and folded."""
    assert parse_domain("https://EXAMPLE.COM/X") == "example.com"
    assert parse_domain("eXample.com") == "example.com"
    assert parse_domain("user@HOST.Xyz:8080/p?q#f") == "host.xyz"
    assert parse_domain("XX.example.com?X#X") == "xx.example.com"
    assert parse_domain("a.example.com#frag/more") == "a.example.com"


def test_parse_domain_keeps_what_follows_the_first_scheme_after_a_leading_slash() -> None:
    """SCOPE-DOM-2: a value that starts with ``/`` but holds ``://`` names the host after the
    first ``://``; only a leading ``/`` without ``://`` has no authority."""
    from mcp_touchstone.scope import constraint_matches
    from mcp_touchstone.scope._types import DomainExact

    table = {
        "/go://a.example.com/x": "a.example.com",
        "/r?to=x://API.example.com:1/": "api.example.com",
        "//a.example.com": None,
        "/a.example.com": None,
    }
    for value, domain in table.items():
        assert parse_domain(value) == domain, value
    facts = ArgumentFacts({"u": "/go://a.example.com/x"})
    assert constraint_matches(DomainExact("a.example.com"), facts) is True


def test_leaves_of_top_level_strings_have_no_path_key() -> None:
    """SCOPE-PATH-1: a top-level string, or a string of a top-level array, has no key, so only a
    separator in its value makes it a path candidate."""
    from mcp_touchstone.scope import constraint_matches
    from mcp_touchstone.scope._types import PathPrefix
    from mcp_touchstone.scope._walks import StringLeaf

    assert ArgumentFacts(["/data/a", "note"]).string_leaves == (
        StringLeaf(None, "/data/a"),
        StringLeaf(None, "note"),
    )
    assert not looks_like_path("note")
    assert constraint_matches(PathPrefix(""), ArgumentFacts("note")) is False
    assert constraint_matches(PathPrefix("/data"), ArgumentFacts(["/data/a", "note"])) is True


def test_a_backslash_alone_makes_a_path_candidate() -> None:
    """SCOPE-PATH-1: a value whose only separator is ``\\``, under a key that is no path key, is
    a path candidate."""
    from mcp_touchstone.scope import constraint_matches
    from mcp_touchstone.scope._types import PathPrefix

    assert not is_path_key("note")
    assert looks_like_path("\\data\\a")
    assert looks_like_path("a\\b")
    assert constraint_matches(PathPrefix("/data"), ArgumentFacts({"note": "\\data\\a"})) is True
    mixed = ArgumentFacts({"path": "/data/a", "note": "a\\b"})
    assert constraint_matches(PathPrefix("/data"), mixed) is False


def test_domain_exact_is_false_when_two_domains_both_differ() -> None:
    """SCOPE-DOM-3: DomainExact over two distinct domain candidates, neither the expected one,
    does not hold."""
    facts = ArgumentFacts({"u": "b.com", "v": "c.com"})
    assert collect_domain_candidates(facts.string_leaves) == ["b.com", "c.com"]
    assert not facts.domain_exact("a.com")
    assert not facts.domain_exact("b.com")


def test_non_json_arguments_are_refused_naming_arguments() -> None:
    """SCOPE-ARG-1: arguments serde_json could not hold (a NaN, a set) are refused before any
    grant is read, the message naming the place ``arguments``."""
    from mcp_touchstone.scope import InvalidArgumentsError, decode_scope

    empty = decode_scope({"grants": []})
    with pytest.raises(InvalidArgumentsError) as exc:
        resolve_matching_grants(empty, "t", "s", float("nan"))
    assert str(exc.value) == "arguments: non-finite float nan"
    with pytest.raises(InvalidArgumentsError) as exc:
        resolve_matching_grants(empty, "t", "s", {1, 2})  # type: ignore[arg-type]
    assert str(exc.value) == "arguments: set is not a JSON value"


def test_out_of_scope_is_a_hashable_value() -> None:
    """SCOPE-RES-6: the capability wrapper's ``OutOfScope`` answer is a frozen value, hashable
    and equal to any other."""
    from mcp_touchstone.scope import OutOfScope

    assert hash(OutOfScope()) == hash(OutOfScope())
    assert {OutOfScope(), OutOfScope()} == {OutOfScope()}
