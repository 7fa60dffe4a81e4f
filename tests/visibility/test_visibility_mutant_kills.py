"""Tests added to kill surviving mutants of `make mutants` (docs/assurance.md, "Survivors")."""

from __future__ import annotations

import sys
from types import FrameType

from mcp_touchstone.serde_json import JSON, to_string
from mcp_touchstone.visibility import (
    TAGS_KEY,
    Catalog,
    Dispatched,
    Entry,
    Listing,
    Page,
    Profile,
    ProtocolVersion,
    Refused,
    Request,
    Visibility,
    dispatch,
)
from mcp_touchstone.visibility._template import (
    _tokens,
    compile_uri_template,
    uri_template_matches,
)


def _size(memo: object) -> int:
    return int(memo.cache_info().currsize)  # type: ignore[attr-defined]


def test_template_memos_keep_exactly_1024_entries_of_up_to_1024_chars() -> None:
    """VIS-TPL-6: each memo holds at most 1,024 templates, and a template of exactly 1,024
    characters is memoized while one of 1,025 is not (kills the bound's constants and its
    comparison, e.g. visibility/_template.py:14 1024 -> 1025)."""
    for i in range(1100):
        template = f"mem://kill-{i}/{{a}}"
        uri_template_matches(template, f"mem://kill-{i}/x")
        compile_uri_template(template)
    assert _size(_tokens) == 1024
    assert _size(compile_uri_template) == 1024
    edge = "mem://edge/{a}/" + "x" * (1024 - len("mem://edge/{a}/"))
    assert len(edge) == 1024
    hits = compile_uri_template.cache_info().hits  # type: ignore[attr-defined]
    compile_uri_template(edge)
    compile_uri_template(edge)  # memoized: the second call is a hit
    assert compile_uri_template.cache_info().hits == hits + 1  # type: ignore[attr-defined]
    compile_uri_template(edge + "y")
    compile_uri_template(edge + "y")  # over the bound: computed afresh, never a hit
    assert compile_uri_template.cache_info().hits == hits + 1  # type: ignore[attr-defined]


def test_strict_completion_of_a_concrete_resource_is_judged_by_that_resource() -> None:
    """VIS-STRICT-4: a ``ref/resource`` whose URI is no template's string is judged against the
    concrete resource with that URI: a shown one reaches the handler, a hidden one gets
    resource-not-found (kills visibility/_dispatch.py:250, which refused every reference no
    template matched before looking at the resources)."""
    tagged: dict[str, JSON] = {TAGS_KEY: ["internal"]}
    catalog = Catalog(
        resources=Listing(
            (Page((Entry("mem://public", {}, {}), Entry("mem://secret", tagged, {}))),)
        ),
        resource_templates=Listing((Page((Entry("open://{name}", {}, {}),)),)),
    )
    policy = Visibility().hiding_tagged(["internal"])

    def complete(uri: str) -> Request:
        ref: dict[str, JSON] = {"type": "ref/resource", "uri": uri}
        return Request(
            1, "completion/complete", {"ref": ref, "argument": {"name": "a", "value": ""}}
        )

    version, strict = ProtocolVersion.V2025_11_25, Profile.STRICT
    shown = dispatch(catalog, complete("mem://public"), version, policy, profile=strict)
    assert shown == Dispatched()
    hidden = dispatch(catalog, complete("mem://secret"), version, policy, profile=strict)
    assert isinstance(hidden, Refused)
    assert "resource not found: mem://secret" in to_string(hidden.response)


def _step_calls(template: str, uri: str) -> int:
    """How many times one match calls the run step ``_steps`` (a deterministic count)."""
    count = 0

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal count
        del arg
        if event == "call" and frame.f_code.co_name == "_steps":
            count += 1

    sys.setprofile(profile)
    try:
        uri_template_matches(template, uri)
    finally:
        sys.setprofile(None)
    return count


def test_a_run_of_like_variables_is_one_step() -> None:
    """VIS-TPL-7: a run of ``k`` adjacent like variables is one ``_steps`` call (O(log k)
    operations), and unlike neighbours start a new run (kills visibility/_template.py:173,
    which compared a token's text with the run's kind and so stepped each variable alone)."""
    uri = "x" * 600
    assert _step_calls("{a}" * 300, uri) == 1
    assert _step_calls("{+a}" * 300, uri) == 1
    assert _step_calls("{a}{+b}{c}", uri) == 3
    assert _step_calls("{a}{b}/{c}", "xy/z") == 2


def test_a_cursor_no_page_carries_gets_an_empty_final_page() -> None:
    """A list handler asked for a cursor none of its pages carries answers an empty final page
    echoing that cursor, as ``Listing`` documents (kills visibility/_catalog.py's fallback page
    made ``None``)."""
    from mcp_touchstone.visibility._catalog import Listing, Page

    listing = Listing((Page((), None, "c1"), Page((), "c1", None)))
    assert listing.fetch("c1") == Page((), "c1", None)
    assert listing.fetch("zz") == Page((), "zz", None)
    assert Listing(()).fetch(None) == Page((), None, None)
