"""``mcp_touchstone._record`` (the cores' value-class maker) behaves as the stdlib decorator with
``slots=True`` and ``frozen=True`` or ``frozen=False``: factories, ``init=False``,
``repr=False``, ``compare=False``, ``__post_init__`` and a class's own methods included."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone import _record
from mcp_touchstone._record import FrozenInstanceError, record, record_fields


def _declare(make: Any, field: Any) -> list[type]:
    """The same declarations made by ``make`` (a decorator) with ``field`` (its field spec)."""

    class Factories:
        """A plain field, a default and two factories."""

        a: int
        b: str = "b"
        c: list[int] = field(default_factory=list)
        d: dict[str, int] = field(default_factory=lambda: {"k": 1})

    class Hidden:
        """A cache field outside init, repr, eq and hash, filled by its factory."""

        a: int
        cache: dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)

    class Post:
        """A ``__post_init__`` that rewrites a field (as the frozen cores' views do)."""

        a: Any
        b: Any = None

        def __post_init__(self) -> None:
            object.__setattr__(self, "a", ("seen", self.a))

    class OwnRepr:
        """A class-defined ``__repr__`` is kept."""

        secret: str

        def __repr__(self) -> str:
            return "OwnRepr(<hidden>)"

    class Uncompared:
        """A field compared but not shown, and one shown but not compared."""

        a: int
        b: int = field(default_factory=int, repr=False)
        c: int = field(default_factory=int, compare=False)

    return [make(c) for c in (Factories, Hidden, Post, OwnRepr, Uncompared)]


_FROZEN = (
    _declare(dataclasses.dataclass(frozen=True, slots=True), dataclasses.field),
    _declare(record, _record.field),
)
_MUTABLE = (
    _declare(dataclasses.dataclass(slots=True), dataclasses.field),
    _declare(record(frozen=False), _record.field),
)

_ARGS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((), {}),
    ((1,), {}),
    (("x",), {}),
    ((1, "x"), {}),
    ((1, "x", [2]), {}),
    ((1, "x", [2], {"z": 3}), {}),
    ((1, "x", [2], {"z": 3}, 5), {}),
    ((), {"a": 0, "c": [1]}),
    ((), {"a": 0, "cache": {}}),
    ((), {"a": 0, "b": 2, "c": 3}),
    ((), {"secret": "s"}),
    ((1,), {"a": 2}),
    ((1,), {"zz": 2}),
]


def _make(cls: type, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[str, Any]:
    try:
        return ("ok", cls(*args, **kwargs))
    except TypeError:
        return ("error", "TypeError")


def _hash(value: object) -> object:
    try:
        return hash(value)
    except TypeError:  # A field holds a list: unhashable in both.
        return TypeError


def _state(value: object, names: tuple[str, ...]) -> list[object]:
    return [getattr(value, n) for n in names]


@pytest.mark.parametrize("frozen", [True, False])
@pytest.mark.parametrize("index", range(5))
def test_record_matches_dataclass(index: int, frozen: bool) -> None:
    """Construction (positional, keyword, factories, wrong arity), the fields' values, repr,
    eq, hash, slots, match args, signature, assignment, copy and pickle agree with the stdlib
    decorator on the same declaration."""
    reference, made = (
        (_FROZEN if frozen else _MUTABLE)[0][index],
        (_FROZEN if frozen else _MUTABLE)[1][index],
    )
    names = tuple(f.name for f in dataclasses.fields(reference))
    assert record_fields(made) == names
    assert made.__slots__ == reference.__slots__  # type: ignore[attr-defined]
    assert made.__match_args__ == reference.__match_args__  # type: ignore[attr-defined]
    assert str(inspect.signature(made)) == str(inspect.signature(reference))
    assert made.__doc__ == reference.__doc__
    assert (made.__hash__ is None) is (reference.__hash__ is None)
    for args, kwargs in _ARGS:
        ours, theirs = _make(made, args, kwargs), _make(reference, args, kwargs)
        assert ours[0] == theirs[0], (args, kwargs)
        if ours[0] != "ok":
            continue
        a, b = ours[1], theirs[1]
        assert _state(a, names) == _state(b, names)
        assert repr(a) == repr(b).replace(reference.__qualname__, made.__qualname__)
        if frozen:
            assert _hash(a) == _hash(b)
        again = made(*args, **kwargs)
        assert a == again
        assert a != b  # different classes never compare equal, as in dataclasses
        assert (a == 1) is (b == 1) is False
        assert _state(copy.deepcopy(a), names) == _state(a, names)
        if made.__qualname__.isidentifier():  # pragma: no cover - local classes never pickle
            assert pickle.loads(pickle.dumps(a)) == a
        for name in names:
            if frozen:
                with pytest.raises(FrozenInstanceError, match="cannot assign to field"):
                    setattr(a, name, 1)
                with pytest.raises(dataclasses.FrozenInstanceError):
                    setattr(b, name, 1)
                with pytest.raises(FrozenInstanceError, match="cannot delete field"):
                    delattr(a, name)
            else:
                setattr(a, name, 7)
                setattr(b, name, 7)
                assert _state(a, names) == _state(b, names)
        with pytest.raises((AttributeError, TypeError)):
            a.other = 1


def test_identity_records_match_dataclass_eq_false() -> None:
    """``record(eq=False)`` compares and hashes by identity, as ``dataclass(eq=False)`` does."""

    class Engine:
        """A value with no meaningful equality."""

        pattern: str

    made: Any = record(eq=False)(Engine)
    reference: Any = dataclasses.dataclass(frozen=True, slots=True, eq=False)(Engine)
    for cls in (made, reference):
        a, b = cls("p"), cls("p")
        assert a == a  # noqa: PLR0124  # identity
        assert a != b
        assert hash(a) == object.__hash__(a)
    assert repr(made("p")) == repr(reference("p"))


def test_factories_give_each_value_its_own_object() -> None:
    """A factory is called once per value (never shared between values), as in dataclasses."""
    cls = _FROZEN[1][0]
    first, second = cls(1), cls(1)
    assert first.c == []
    assert first.c is not second.c
    assert first.d == {"k": 1}
    assert first.d is not second.d
    hidden = _FROZEN[1][1]
    assert hidden(1).cache is not hidden(1).cache


@given(
    a=st.one_of(st.none(), st.integers(), st.text(max_size=3)),
    b=st.integers(),
    c=st.integers(),
)
def test_compare_and_repr_flags_match_dataclass(a: object, b: int, c: int) -> None:
    """Equality and hash cover the compared fields only, repr the shown ones, for any values."""
    reference, made = _FROZEN[0][4], _FROZEN[1][4]
    ours, theirs = made(a, b, c), reference(a, b, c)
    assert repr(ours) == repr(theirs).replace(reference.__qualname__, made.__qualname__)
    assert hash(ours) == hash(theirs)
    assert (ours == made(a, b, c + 1)) is (theirs == reference(a, b, c + 1)) is True
    assert (ours == made(a, b + 1, c)) is (theirs == reference(a, b + 1, c)) is False


@pytest.mark.parametrize("frozen", [True, False])
def test_replace_matches_dataclasses_replace(frozen: bool) -> None:
    """``replace`` gives the value ``dataclasses.replace`` gives (factories of ``init=False``
    fields and ``__post_init__`` run again), and refuses an unknown field."""
    declared = _FROZEN if frozen else _MUTABLE
    cases: list[tuple[int, tuple[Any, ...], dict[str, Any]]] = [
        (0, (1,), {"b": "z"}),
        (0, (1, "x", [2]), {"c": [3], "a": 4}),
        (1, (5,), {"a": 6}),
        (2, ("p",), {"b": 2}),
        (4, (1, 2, 3), {"c": 9}),
    ]
    for index, args, changes in cases:
        reference, made = declared[0][index], declared[1][index]
        names = tuple(f.name for f in dataclasses.fields(reference))
        ours = _record.replace(made(*args), **changes)
        theirs = dataclasses.replace(reference(*args), **changes)
        assert _state(ours, names) == _state(theirs, names)
    with pytest.raises(TypeError):
        _record.replace(declared[1][0](1), nope=1)


def test_written_out_templates_are_the_compiled_ones() -> None:
    """Each written-out ``__init__`` template (``_record_init``) has the code, constants and
    parameter names of the template compiled from source, and a count past them is compiled."""
    from mcp_touchstone._record_init import TEMPLATES

    for count, code in enumerate(TEMPLATES):
        compiled = _record._compiled_template(count)
        for attr in ("co_code", "co_consts", "co_names", "co_varnames", "co_argcount"):
            assert getattr(code, attr) == getattr(compiled, attr), (count, attr)
    wide = len(TEMPLATES) + 2
    fields = {f"f{i}": "int" for i in range(wide)}
    made: Any = record(type("Wide", (), {"__annotations__": fields}))
    value = made(*range(wide))
    assert [getattr(value, f"f{i}") for i in range(wide)] == list(range(wide))


def test_draft_makes_the_value_init_makes() -> None:
    """A draft with every field stored, given the record's class, is the value ``__init__``
    makes (type, fields, eq, hash, repr, frozen), and a record with a base or a
    ``__post_init__`` gets no draft."""

    @record
    class Pair:
        left: int
        right: tuple[str, ...] = ()

    made: Any = _record.draft(Pair)
    value = made()
    value.left, value.right = 1, ("x",)
    value.__class__ = Pair
    expected = Pair(1, ("x",))
    assert type(value) is Pair
    assert value == expected
    assert hash(value) == hash(expected)
    assert repr(value) == repr(expected)
    with pytest.raises(FrozenInstanceError):
        value.left = 2  # type: ignore[misc]

    @record
    class Later:
        x: int

        def __post_init__(self) -> None:
            pass

    with pytest.raises(TypeError, match="no draft"):
        _record.draft(Later)
    with pytest.raises(TypeError, match="no draft"):
        _record.draft(record(type("Child", (Pair,), {"__annotations__": {"z": "int"}})))
