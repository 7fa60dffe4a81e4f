"""The scope value types are frozen, slotted dataclasses, compared, hashed and printed by their
fields (SCOPE-SHAPE-1: the decoded values the vectors and the harness read)."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.scope import (
    _admission,
    _agui,
    _arguments,
    _entry,
    _hosted,
    _matcher,
    _regex,
    _types,
    _walks,
)

_VALUE_CLASSES = [
    cls
    for module in (_types, _matcher, _arguments, _walks, _admission, _entry, _agui, _hosted, _regex)
    for cls in vars(module).values()
    if isinstance(cls, type) and cls.__module__ == module.__name__ and dataclasses.is_dataclass(cls)
]


def test_every_scope_value_type_is_a_frozen_slotted_dataclass() -> None:
    """Every value class of the scope package is ``@dataclass(frozen=True, slots=True)``."""
    names = {cls.__name__ for cls in _VALUE_CLASSES}
    assert {"ToolGrant", "ChioScope", "PathPrefix", "MatchedGrant", "StringLeaf"} <= names
    assert len(_VALUE_CLASSES) >= 50
    for cls in _VALUE_CLASSES:
        params = cls.__dataclass_params__  # type: ignore[attr-defined]
        assert params.frozen, cls
        assert "__slots__" in vars(cls), cls


_PLAIN = [
    cls
    for cls in _VALUE_CLASSES
    if cls.__module__ in (_types.__name__, _matcher.__name__, _arguments.__name__)
    and cls.__dataclass_params__.eq  # type: ignore[attr-defined]
]


@given(cls=st.sampled_from(_PLAIN), data=st.data())
def test_scope_values_compare_hash_and_print_by_their_fields(
    cls: type, data: st.DataObject
) -> None:
    """Each portable type: repr, eq and hash from its fields; frozen; copy and pickle keep it."""
    names = [f.name for f in dataclasses.fields(cls)]
    values = [data.draw(st.one_of(st.none(), st.integers(), st.text(max_size=3))) for _ in names]
    value = cls(*values)
    shown = ", ".join(f"{n}={v!r}" for n, v in zip(names, values, strict=True))
    assert repr(value) == f"{cls.__qualname__}({shown})"
    assert hash(value) == hash(tuple(values))
    assert value == cls(*values)
    assert copy.deepcopy(value) == value
    assert pickle.loads(pickle.dumps(value)) == value
    for name in names:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, name, 1)
