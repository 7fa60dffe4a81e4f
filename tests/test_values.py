"""Values are values: the core's frozen dataclasses hold read-only mappings, not dicts."""

from __future__ import annotations

import pytest

from mcp_touchstone.mrtr import StatePayload
from mcp_touchstone.serde_json import frozen_object
from mcp_touchstone.visibility import Entry, Identity, RequestContext


def test_frozen_values_hold_read_only_mappings() -> None:
    """StatePayload, Entry, Identity and RequestContext copy their mappings into read-only views."""
    source = {"k": 1}
    payload = StatePayload(answers=source, exp=1, req="r", memos=source)
    entry = Entry("t", meta=source, wire=source)
    identity = Identity.bearer("alice", source)
    context = RequestContext(propagated_meta=source)
    for view in (
        payload.answers,
        payload.memos,
        entry.meta,
        entry.wire,
        identity.claims,
        context.propagated_meta,
    ):
        with pytest.raises(TypeError):
            view["k"] = 2  # type: ignore[index]
        assert view == {"k": 1}
    source["k"] = 3
    assert payload.answers == {"k": 1}
    assert entry.meta == {"k": 1}


def test_frozen_object_keeps_a_view_it_is_given() -> None:
    """frozen_object returns an existing read-only view unchanged and copies a dict."""
    view = frozen_object({"a": None})
    assert frozen_object(view) is view
    assert dict(view) == {"a": None}
