"""Tests added in session 6 to kill surviving mutants of `make mutants` (docs/assurance.md).

Expectations are stated by hand (the record repr rule of ``mcp_touchstone/_record.py``: the
``repr`` fields as dataclasses writes them; serde's derive for the params structs of
turbomcp's ``tools/call`` and ``prompts/get``), never computed by the code under test.
"""

from __future__ import annotations

import pytest

from mcp_touchstone.serde_json import JSON
from mcp_touchstone.visibility import Entry, Page
from mcp_touchstone.visibility._serde import Field, FieldKind, deserialize_struct


def test_a_pages_repr_shows_its_value_not_its_lookup_cache() -> None:
    """A ``Page``'s repr names its three value fields only, before and after a lookup has built
    its id index (a cache, not part of the value, as ``compare=False`` already says for
    equality); ``_by_id``'s ``repr=False`` -> ``True`` fails it (that mutant was already killed,
    by the index's equality test)."""
    assert repr(Page()) == "Page(items=(), cursor=None, next_cursor=None)"
    page = Page((Entry("a"), Entry("a", {"n": 2})), cursor="c")
    shown = (
        "Page(items=(Entry(id='a', meta=mappingproxy({}), wire=mappingproxy({})), "
        "Entry(id='a', meta=mappingproxy({'n': 2}), wire=mappingproxy({}))), "
        "cursor='c', next_cursor=None)"
    )
    assert repr(page) == shown
    found = page.first_with_id("a")
    assert found is page.items[0]  # the first equal entry decides
    assert repr(page) == shown
    assert page == Page((Entry("a"), Entry("a", {"n": 2})), cursor="c")


def test_a_pages_lookup_index_cannot_be_passed_in() -> None:
    """A ``Page`` is built from its items and cursors only: its id index is not a constructor
    parameter (``init=False``), so no caller can hand it an index that disagrees with its
    items, and the match arguments are the three value fields; kills visibility/_catalog.py's
    ``_by_id`` ``init=False`` -> ``True``, under which a supplied index answered lookups."""
    entry = Entry("a")
    assert Page.__match_args__ == ("items", "cursor", "next_cursor")
    with pytest.raises(TypeError):
        Page((), None, None, {"a": entry})  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Page(_by_id={"a": entry})  # type: ignore[call-arg]
    assert Page().first_with_id("a") is None
    assert Page((entry,)).first_with_id("a") is entry


_CALL = (Field("name", FieldKind.STRING, False), Field("arguments", FieldKind.MAP_OF_VALUES, True))
_PROMPT = (
    Field("name", FieldKind.STRING, False),
    Field("arguments", FieldKind.MAP_OF_STRINGS, True),
)


def test_deserialize_struct_returns_the_map_fields_it_read() -> None:
    """VIS-PARSE-1: ``deserialize_struct`` returns every field present, a map field with the
    map as written, from the map form and the positional form alike, and leaves a defaulted
    field that is absent out (its docstring's contract); kills visibility/_serde.py's
    ``_field_value`` returning None for a map."""
    arguments: JSON = {"a": 1, "b": [True, None]}
    assert deserialize_struct(
        "RawCallToolParams", _CALL, {"name": "t", "arguments": arguments}
    ) == {
        "name": "t",
        "arguments": {"a": 1, "b": [True, None]},
    }
    assert deserialize_struct("RawCallToolParams", _CALL, ["t", {"x": {}}]) == {
        "name": "t",
        "arguments": {"x": {}},
    }
    assert deserialize_struct(
        "RawGetPromptParams", _PROMPT, {"arguments": {"k": "v"}, "name": "p"}
    ) == {
        "arguments": {"k": "v"},
        "name": "p",
    }
    assert deserialize_struct("RawCallToolParams", _CALL, {"name": "t"}) == {"name": "t"}
