"""A template variable never matches the empty string, between literals or at an end, checked
on the bit-set matcher and the capture regex alike."""

from __future__ import annotations

import pytest

from mcp_touchstone.visibility import match_uri_template, uri_template_matches


@pytest.mark.parametrize(
    ("template", "empty", "one"),
    [
        ("a{x}b", "ab", "a1b"),
        ("{x}b", "b", "1b"),
        ("a{x}", "a", "a1"),
        ("{x}/{y}", "x/", "x/1"),
        ("a{+x}b", "ab", "a/b"),
        ("{+x}b", "b", "/b"),
    ],
)
def test_vis_tpl_1_and_2_a_variable_matches_one_or_more_characters(
    template: str, empty: str, one: str
) -> None:
    """VIS-TPL-1, VIS-TPL-2: ``{var}`` and ``{+var}`` match one or more characters, so the URI
    with the variable's place left empty does not match, and one character there does."""
    assert not uri_template_matches(template, empty)
    assert match_uri_template(template, empty) is None
    assert uri_template_matches(template, one)
    assert match_uri_template(template, one) is not None
