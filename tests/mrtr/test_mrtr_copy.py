"""``copy_json`` (the MRTR client's copies) gives ``copy.deepcopy``'s copy, type for type,
sharing no container with the original; anything else goes to ``deepcopy`` itself."""

from __future__ import annotations

import copy
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.mrtr._copy import copy_json
from tests.strategies.mrtr import json_values


def _shape(value: Any) -> Any:
    """The value with every node's exact type beside it (``1 == 1.0 == True`` in Python)."""
    if isinstance(value, dict):
        return (type(value), [(_shape(k), _shape(v)) for k, v in value.items()])
    if isinstance(value, list | tuple):
        return (type(value), [_shape(v) for v in value])
    return (type(value), value)


def _containers(value: Any) -> set[int]:
    found: set[int] = set()
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found.add(id(node))
            stack.extend(node.values())
        elif isinstance(node, list):
            found.add(id(node))
            stack.extend(node)
    return found


@given(json_values)
def test_plain_json_copies_as_deepcopy_does(value: Any) -> None:
    """Any JSON value: the same copy as deepcopy's, key order and types kept, no shared
    dict or list."""
    copied = copy_json(value)
    assert _shape(copied) == _shape(copy.deepcopy(value))
    assert not _containers(copied) & _containers(value)


@given(
    st.recursive(
        st.one_of(json_values, st.tuples(json_values), st.integers().map(lambda n: {n: n})),
        lambda children: (
            st.lists(children, max_size=3)
            | st.dictionaries(st.text(max_size=3), children, max_size=3)
        ),
        max_leaves=8,
    )
)
def test_values_beyond_plain_json_go_to_deepcopy(value: Any) -> None:
    """A value holding a tuple or a non-string key anywhere is copied by deepcopy itself."""
    assert _shape(copy_json(value)) == _shape(copy.deepcopy(value))


def test_deep_values_and_unpicklable_values_as_deepcopy() -> None:
    """Nesting past the plain walk's depth is deepcopy's copy; a read-only mapping is refused
    with deepcopy's own error."""
    deep: Any = 0
    for _ in range(300):
        deep = [deep]
    assert copy_json(deep) == copy.deepcopy(deep)
    with pytest.raises(TypeError):
        copy.deepcopy({"a": MappingProxyType({})})
    odd: Any = {"a": MappingProxyType({})}
    with pytest.raises(TypeError):
        copy_json(odd)
