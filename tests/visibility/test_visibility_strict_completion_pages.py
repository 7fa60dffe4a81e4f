"""Strict completion of a concrete resource listed past the first page of ``resources/list``."""

from __future__ import annotations

from mcp_touchstone.serde_json import JSON
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


def _complete(uri: str) -> Request:
    ref: dict[str, JSON] = {"type": "ref/resource", "uri": uri}
    return Request(1, "completion/complete", {"ref": ref, "argument": {"name": "a", "value": ""}})


def test_vis_strict_4_concrete_resource_on_page_two_is_found_and_judged() -> None:
    """VIS-STRICT-1, VIS-STRICT-4: with no template of that URI, strict judges the concrete
    resource across every page of ``resources/list``: a shown one listed only on page 2 reaches
    the handler, a hidden one there is refused."""
    tagged: dict[str, JSON] = {TAGS_KEY: ["internal"]}
    catalog = Catalog(
        resources=Listing(
            (
                Page((Entry("mem://first", {}, {}),), None, "p2"),
                Page((Entry("mem://later", {}, {}), Entry("mem://secret", tagged, {})), "p2"),
            )
        ),
        resource_templates=Listing((Page((Entry("open://{name}", {}, {}),)),)),
    )
    policy = Visibility().hiding_tagged(["internal"])
    version, strict = ProtocolVersion.V2025_11_25, Profile.STRICT
    assert (
        dispatch(catalog, _complete("mem://later"), version, policy, profile=strict) == Dispatched()
    )
    hidden = dispatch(catalog, _complete("mem://secret"), version, policy, profile=strict)
    assert isinstance(hidden, Refused)


def test_vis_strict_4_only_an_equal_template_string_stands_for_the_uri() -> None:
    """VIS-STRICT-4: a ``ref/resource`` is judged by the template whose string equals its URI;
    a shown template whose string merely sorts before the URI is not it, so a hidden concrete
    resource of that URI is still refused."""
    tagged: dict[str, JSON] = {TAGS_KEY: ["internal"]}
    catalog = Catalog(
        resources=Listing((Page((Entry("mem://secret", tagged, {}),)),)),
        resource_templates=Listing((Page((Entry("a://{x}", {}, {}),)),)),
    )
    policy = Visibility().hiding_tagged(["internal"])
    version, strict = ProtocolVersion.V2025_11_25, Profile.STRICT
    hidden = dispatch(catalog, _complete("mem://secret"), version, policy, profile=strict)
    assert isinstance(hidden, Refused)
