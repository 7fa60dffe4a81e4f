"""``@record``: ``@dataclass(frozen=True, slots=True)`` for the portable scope types, made cheaply.

The portable matcher's modules declare about forty frozen value classes.  The stdlib decorator
spends around a millisecond on each (it compiles six methods one by one, and builds every class
twice to give it slots) and pulls in :mod:`inspect`; that made importing the matcher the largest
single part of a ``touchstone harness`` process answering scope cases.  :func:`record` gives a
class the same behaviour as the stdlib decorator with ``frozen=True, slots=True`` (and the
defaults ``init``, ``repr``, ``eq``), from one compiled block per class:

* ``__init__(self, f1, f2=default, ...)``: the fields in declared order, positional or keyword,
  with the declared defaults (a default is a plain class attribute; no ``field()``);
* ``__repr__``: ``Name(f1=..., f2=...)`` with ``__qualname__``, as dataclasses writes it;
* ``__eq__``: the same class and equal field tuples, else ``NotImplemented``; ``__hash__``: the
  hash of the field tuple (dataclasses' own definitions, so hashes are equal too);
* assigning or deleting an attribute raises :class:`FrozenInstanceError` (an ``AttributeError``);
* ``__slots__`` and ``__match_args__`` are the fields; ``__getstate__``/``__setstate__`` let
  ``copy`` and ``pickle`` rebuild a value;
* a ``ClassVar`` annotation is not a field.

There is no ``__dataclass_fields__``: nothing here uses ``dataclasses.fields``/``replace`` on
these types.  ``tests/scope/test_scope_records.py`` checks the behaviour against the stdlib
decorator on the same declarations, and the real types against their declarations.
"""

from __future__ import annotations

import typing
from typing import Any, TypeVar, dataclass_transform

__all__ = ["FrozenInstanceError", "record", "record_fields"]

T = TypeVar("T")


class FrozenInstanceError(AttributeError):
    """An attempt to assign or delete a field of a frozen record (as dataclasses raises)."""


def _is_classvar(annotation: object) -> bool:
    if isinstance(annotation, str):
        return annotation.startswith(("ClassVar", "typing.ClassVar"))
    return annotation is typing.ClassVar or typing.get_origin(annotation) is typing.ClassVar


def _frozen_setattr(self: object, name: str, value: object) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: object, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _getstate(self: object) -> list[object]:
    return [getattr(self, name) for name in type(self).__match_args__]  # type: ignore[attr-defined]


def _setstate(self: object, state: list[object]) -> None:
    for name, value in zip(type(self).__match_args__, state, strict=True):  # type: ignore[attr-defined]
        object.__setattr__(self, name, value)


def record_fields(cls: type) -> tuple[str, ...]:
    """The field names of a :func:`record` class, in declared order."""
    names: tuple[str, ...] = cls.__match_args__  # type: ignore[attr-defined]
    return names


def _methods(cls: type, names: tuple[str, ...], defaults: dict[str, object]) -> dict[str, Any]:
    """``__init__``, ``__repr__``, ``__eq__`` and ``__hash__``, compiled together."""
    params = ", ".join(["self", *(f"{n}=__default_{n}" if n in defaults else n for n in names)])
    body = "".join(f"    __set(self, {n!r}, {n})\n" for n in names) or "    pass\n"
    own = "".join(f"self.{n}," for n in names)
    other = "".join(f"other.{n}," for n in names)
    shown = ", ".join(f"{n}={{self.{n}!r}}" for n in names)
    source = (
        f"def __init__({params}):\n{body}"
        "def __repr__(self):\n"
        f'    return self.__class__.__qualname__ + f"({shown})"\n'
        "def __eq__(self, other):\n"
        "    if other.__class__ is self.__class__:\n"
        f"        return ({own}) == ({other})\n"
        "    return NotImplemented\n"
        "def __hash__(self):\n"
        f"    return hash(({own}))\n"
    )
    scope: dict[str, Any] = {"__set": object.__setattr__}
    scope.update({f"__default_{n}": value for n, value in defaults.items()})
    methods: dict[str, Any] = {}
    # The source is made from the field names only (identifiers), as dataclasses does.
    code = compile(source, f"<record {cls.__qualname__}>", "exec")
    exec(code, scope, methods)
    annotations = cls.__annotations__
    methods["__init__"].__annotations__ = {n: annotations[n] for n in names} | {"return": None}
    for name, method in methods.items():
        method.__qualname__ = f"{cls.__qualname__}.{name}"
    return methods


@dataclass_transform(frozen_default=True)
def record(cls: type[T]) -> type[T]:
    """Make ``cls`` a frozen slotted value class of its annotated fields (see the module)."""
    annotations = cls.__annotations__  # the class's own (Python >= 3.10), never a base's
    names = tuple(n for n, a in annotations.items() if not _is_classvar(a))
    defaults = {n: cls.__dict__[n] for n in names if n in cls.__dict__}
    namespace = {
        key: value
        for key, value in cls.__dict__.items()
        if key not in defaults and key not in ("__dict__", "__weakref__")
    }
    namespace.update(_methods(cls, names, defaults))
    namespace.update(
        __slots__=names,
        __match_args__=names,
        __setattr__=_frozen_setattr,
        __delattr__=_frozen_delattr,
        __getstate__=_getstate,
        __setstate__=_setstate,
    )
    made: Any = type(cls.__name__, cls.__bases__, namespace)  # no record has a metaclass
    made.__qualname__ = cls.__qualname__
    result: type[T] = made
    return result
