"""The linear-time template matcher agrees with the anchored-regex definition (VIS-TPL-*)."""

from __future__ import annotations

import re
import time

from hypothesis import given, settings

from mcp_touchstone.visibility import match_uri_template, uri_template_matches
from mcp_touchstone.visibility._template import compile_uri_template
from tests.strategies.visibility import template_texts, uri_texts


def _regex_reference(template: str, uri: str) -> bool:
    """The upstream definition: escape literals, {var} -> ([^/]+), {+var} -> (.+), anchor."""
    compiled = compile_uri_template(template)
    return compiled is not None and re.fullmatch(compiled[0], uri) is not None


@settings(max_examples=400, deadline=None)
@given(template_texts, uri_texts)
def test_sweep_matches_regex_definition(template: str, uri: str) -> None:
    """uri_template_matches equals the anchored regex's verdict (VIS-TPL-1..5)."""
    assert uri_template_matches(template, uri) == _regex_reference(template, uri)
    assert (match_uri_template(template, uri) is not None) == _regex_reference(template, uri)


@settings(max_examples=200, deadline=None)
@given(template_texts, uri_texts)
def test_a_match_binds_every_variable(template: str, uri: str) -> None:
    """A match binds one non-empty value per expression, in template order (VIS-TPL-1,
    VIS-TPL-2)."""
    found = match_uri_template(template, uri)
    compiled = compile_uri_template(template)
    if found is None or compiled is None:
        return
    assert tuple(name for name, _ in found) == compiled[1]
    assert all(value for _, value in found)


def test_pathological_templates_stay_fast() -> None:
    """Ten adjacent reserved variables against a long non-matching URI answer at once, as the
    upstream's automaton does (VIS-TPL-2, VIS-TPL-3)."""
    template = "".join(f"{{+v{i}}}" for i in range(10)) + "!"
    uri = "a" * 3000
    start = time.perf_counter()
    assert not uri_template_matches(template, uri)
    assert match_uri_template(template, uri) is None
    assert time.perf_counter() - start < 2.0
