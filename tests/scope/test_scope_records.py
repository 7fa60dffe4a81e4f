"""``@record`` (the scope types' class maker) behaves as ``@dataclass(frozen=True, slots=True)``."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.scope import _arguments, _matcher, _types
from mcp_touchstone.scope._record import FrozenInstanceError, record, record_fields


def _declare(make: Any) -> tuple[type, type, type]:
    """The same three declarations (no field, one field with a ClassVar, defaults) made by
    ``make``."""

    class Empty:
        """No field."""

    class One:
        """One field and a ClassVar."""

        KIND: ClassVar[str] = "one"
        value: str

    class Many:
        """Fields with defaults."""

        a: int
        b: str = "b"
        c: tuple[int, ...] = ()
        d: object = None

    return make(Empty), make(One), make(Many)


_DATACLASS = _declare(dataclasses.dataclass(frozen=True, slots=True))
_RECORD = _declare(record)

_ARGS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((), {}),
    (("x",), {}),
    ((), {"value": "y"}),
    ((1,), {}),
    ((1, "x", (2,)), {"d": 3.5}),
    ((), {"a": 0, "c": (1, 2)}),
    ((1, "x", (), None, 9), {}),
    ((), {"b": "x"}),
]


def _make(cls: type, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[str, object]:
    try:
        return ("ok", cls(*args, **kwargs))
    except TypeError:
        return ("error", "TypeError")


@pytest.mark.parametrize("index", range(3))
def test_record_matches_dataclass(index: int) -> None:
    """Construction (positional, keyword, defaults, wrong arity), repr, eq, hash, slots,
    match args, signature, frozen errors, copy and pickle agree with the stdlib decorator."""
    reference, made = _DATACLASS[index], _RECORD[index]
    assert made.__slots__ == reference.__slots__  # type: ignore[attr-defined]
    assert made.__match_args__ == reference.__match_args__  # type: ignore[attr-defined]
    assert str(inspect.signature(made)) == str(inspect.signature(reference))
    assert made.__doc__ == reference.__doc__
    assert getattr(made, "KIND", None) == getattr(reference, "KIND", None)
    for args, kwargs in _ARGS:
        ours, theirs = _make(made, args, kwargs), _make(reference, args, kwargs)
        assert ours[0] == theirs[0], (args, kwargs)
        if ours[0] != "ok":
            continue
        a, b = ours[1], theirs[1]
        assert repr(a) == repr(b)
        assert hash(a) == hash(b)
        assert a == made(*args, **kwargs)
        assert a != b  # different classes never compare equal, as in dataclasses
        assert (a == 1) is (b == 1) is False
        assert copy.deepcopy(a) == a
        assert pickle.loads(pickle.dumps(a)) == a if made.__qualname__.isidentifier() else True
        for name in record_fields(made):
            with pytest.raises(FrozenInstanceError, match="cannot assign to field"):
                setattr(a, name, 1)
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(b, name, 1)
            with pytest.raises(FrozenInstanceError, match="cannot delete field"):
                delattr(a, name)
        # Not a field: refused by both (the stdlib's slotted frozen class fails in super()).
        with pytest.raises(AttributeError):
            a.other = 1  # type: ignore[attr-defined]
        with pytest.raises((AttributeError, TypeError)):
            b.other = 1  # type: ignore[attr-defined]


_RECORD_CLASSES = [
    cls
    for module in (_types, _matcher, _arguments)
    for cls in vars(module).values()
    if isinstance(cls, type) and cls.__module__ == module.__name__ and "__match_args__" in vars(cls)
]


def test_every_portable_type_is_a_record() -> None:
    """The portable core's value classes are all records (no stdlib dataclass left among them)."""
    names = {cls.__name__ for cls in _RECORD_CLASSES}
    assert {"ToolGrant", "ChioScope", "PathPrefix", "MatchedGrant", "AllowlistObservation"} <= names
    assert len(_RECORD_CLASSES) >= 36
    for cls in _RECORD_CLASSES:
        assert not dataclasses.is_dataclass(cls), cls


@given(cls=st.sampled_from(_RECORD_CLASSES), data=st.data())
def test_portable_types_keep_dataclass_semantics(cls: type, data: st.DataObject) -> None:
    """Each real type: repr, eq and hash as dataclasses define them from its fields."""
    names = record_fields(cls)
    values = [data.draw(st.one_of(st.none(), st.integers(), st.text(max_size=3))) for _ in names]
    value = cls(*values)
    shown = ", ".join(f"{n}={v!r}" for n, v in zip(names, values, strict=True))
    assert repr(value) == f"{cls.__qualname__}({shown})"
    assert hash(value) == hash(tuple(values))
    assert value == cls(*values)
    assert [getattr(value, n) for n in names] == values


def test_record_skips_classvars_annotated_as_objects() -> None:
    """Like ``dataclasses``, ``record`` leaves out a ``ClassVar`` whether its annotation is a
    string or a typing object (a module without postponed annotations), bare or subscripted."""
    annotations = {"x": int, "K": ClassVar[int], "B": ClassVar, "y": str}
    made: type[Any] = record(type("R", (), {"__annotations__": dict(annotations), "K": 3, "B": 4}))
    assert record_fields(made) == ("x", "y")
    assert made.K == 3
    compared: type[Any] = dataclasses.dataclass(
        type("D", (), {"__annotations__": dict(annotations)})
    )
    assert tuple(f.name for f in dataclasses.fields(compared)) == ("x", "y")
