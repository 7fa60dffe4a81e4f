"""A payload map's plain copy is a fresh dict (what ``StatePayload.to_json`` and the seed read
write into)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, Mapping
from types import MappingProxyType

from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.mrtr._payload import plain_object
from mcp_touchstone.serde_json import JSON
from tests.strategies.mrtr import json_values


class _Odd(Mapping[str, JSON]):
    """A mapping that is not a dict (its copy is not a dict either)."""

    def __init__(self, items: dict[str, JSON]) -> None:
        self._items = items

    def __getitem__(self, key: str) -> JSON:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def copy(self) -> _Odd:
        return _Odd(self._items)


@given(st.dictionaries(st.text(max_size=3), json_values, max_size=4))
def test_plain_object_is_a_fresh_dict_copy(items: dict[str, JSON]) -> None:
    """A payload map's plain copy equals dict(map) for every kind of mapping and is a new
    dict (writing to it never reaches the payload)."""
    for m in (
        MappingProxyType(dict(items)),
        MappingProxyType(OrderedDict(items)),
        MappingProxyType(_Odd(items)),
        dict(items),
    ):
        plain = plain_object(m)
        assert type(plain) is dict
        assert plain == dict(m)
        assert list(plain) == list(dict(m))
        plain["\x00new"] = 1
        assert "\x00new" not in m
