"""``@record``: ``@dataclass(frozen=True, slots=True)`` for the portable scope types, made cheaply.

The portable matcher's modules declare about forty frozen value classes.  The stdlib decorator
spends around a millisecond on each (it compiles six methods one by one, and builds every class
twice to give it slots) and pulls in :mod:`inspect`; that made importing the matcher the largest
single part of a ``touchstone harness`` process answering scope cases.  :func:`record` gives a
class the same behaviour as the stdlib decorator with ``frozen=True, slots=True`` (and the
defaults ``init``, ``repr``, ``eq``), with one compiled ``__init__`` template per field count
renamed for each class (:func:`_init`):

* ``__init__(self, f1, f2=default, ...)``: the fields in declared order, positional or keyword,
  with the declared defaults (a default is a plain class attribute; no ``field()``);
* ``__repr__``: ``Name(f1=..., f2=...)`` with ``__qualname__``, as dataclasses writes it;
* ``__eq__``: the same class and equal field tuples, else ``NotImplemented``; ``__hash__``: the
  hash of the field tuple (dataclasses' own definitions, so hashes are equal too), shared
  functions over a per-class ``attrgetter``;
* assigning or deleting an attribute raises :class:`FrozenInstanceError` (an ``AttributeError``);
* ``__slots__`` and ``__match_args__`` are the fields; ``__getstate__``/``__setstate__`` let
  ``copy`` and ``pickle`` rebuild a value;
* a ``ClassVar`` annotation is not a field.

There is no ``__dataclass_fields__``: nothing here uses ``dataclasses.fields``/``replace`` on
these types.  ``tests/scope/test_scope_records.py`` checks the behaviour against the stdlib
decorator on the same declarations, and the real types against their declarations.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from operator import attrgetter
from types import CodeType, FunctionType

from mcp_touchstone._errors import TouchstoneError

TYPE_CHECKING = False  # typing's constant, without importing typing at run time (start-up)
if TYPE_CHECKING:
    from typing import Any, TypeVar, dataclass_transform

    T = TypeVar("T")
else:

    def dataclass_transform(**kwargs: object) -> Callable[[Callable[..., object]], object]:
        """``typing.dataclass_transform`` at run time: it only records its arguments on the
        decorated function, for type checkers; this records them the same way."""

        def mark(function: Callable[..., object]) -> object:
            function.__dataclass_transform__ = {  # type: ignore[attr-defined]  # as typing does
                "eq_default": True,
                "order_default": False,
                "kw_only_default": False,
                "field_specifiers": (),
                "kwargs": kwargs,
            }
            return function

        return mark


__all__ = ["FrozenInstanceError", "record", "record_fields"]


class FrozenInstanceError(TouchstoneError, AttributeError):
    """An attempt to assign or delete a field of a frozen record (as dataclasses raises)."""


def _is_classvar(annotation: object) -> bool:
    if isinstance(annotation, str):
        return annotation.startswith(("ClassVar", "typing.ClassVar"))
    # Not a string: a typing object needs typing loaded (it made it), else it is no ClassVar.
    typing = sys.modules.get("typing")
    if typing is None:
        return False
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


_TEMPLATES: dict[int, CodeType] = {}
"""``__init__`` code by field count, compiled once with placeholder names (see :func:`_init`)."""


def _template(count: int) -> CodeType:
    """The code of ``def __init__(self, __f0, ...): __set(self, "__f0", __f0); ...``."""
    code = _TEMPLATES.get(count)
    if code is None:
        names = [f"__f{i}" for i in range(count)]
        body = "".join(f"    __set(self, {n!r}, {n})\n" for n in names) or "    pass\n"
        module = compile(
            f"def __init__({', '.join(['self', *names])}):\n{body}", "<record>", "exec"
        )
        code = _TEMPLATES[count] = next(c for c in module.co_consts if isinstance(c, CodeType))
    return code


def _compiled_init(
    cls: type, names: tuple[str, ...], defaults: dict[str, object]
) -> Callable[..., None]:
    """``__init__`` compiled from its own source: the path for field lists the template cannot
    carry (a default before a field without one, a field named ``self``), where compiling
    raises what it always raised."""
    params = ", ".join(["self", *(f"{n}=__default_{n}" if n in defaults else n for n in names)])
    body = "".join(f"    __set(self, {n!r}, {n})\n" for n in names) or "    pass\n"
    scope: dict[str, Any] = {"__set": object.__setattr__}
    scope.update({f"__default_{n}": value for n, value in defaults.items()})
    made: dict[str, Any] = {}
    # The source is made from the field names only (identifiers), as dataclasses does.
    exec(
        compile(f"def __init__({params}):\n{body}", f"<record {cls.__qualname__}>", "exec"),
        scope,
        made,
    )
    init: Callable[..., None] = made["__init__"]
    return init


def _init(cls: type, names: tuple[str, ...], defaults: dict[str, object]) -> Callable[..., None]:
    """The ``__init__`` (the one method whose speed and signature matter): the template code of
    its field count with the placeholders renamed to the fields (parameter names and the
    field-name constants) and the defaults as ``__defaults__``; compiling a function per class
    was most of the cost of declaring one.  Same code, same signature, same errors."""
    required = len(names) - len(defaults)
    if "self" in names or any(n in defaults for n in names[:required]):
        init = _compiled_init(cls, names, defaults)
    else:
        template = _template(len(names))
        placeholders = {f"__f{i}": name for i, name in enumerate(names)}
        code = template.replace(
            co_varnames=("self", *names),
            co_consts=tuple(
                placeholders.get(c, c) if type(c) is str else c for c in template.co_consts
            ),
            co_filename=f"<record {cls.__qualname__}>",
        )
        argdefs = tuple(defaults[n] for n in names[required:])
        init = FunctionType(code, {"__set": object.__setattr__}, "__init__", argdefs or None)
    annotations = cls.__annotations__
    init.__annotations__ = {n: annotations[n] for n in names} | {"return": None}
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _astuple(names: tuple[str, ...]) -> Callable[[object], tuple[object, ...]]:
    """The field tuple of a value (what dataclasses' ``__eq__`` and ``__hash__`` compare)."""
    if not names:
        return lambda value: ()
    if len(names) == 1:
        get = attrgetter(names[0])
        return lambda value: (get(value),)
    several: Callable[[object], tuple[object, ...]] = attrgetter(*names)
    return several


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is self.__class__:
        astuple = self.__class__.__record_tuple__
        return astuple(self) == astuple(other)
    return NotImplemented


def _hash(self: Any) -> int:
    return hash(self.__class__.__record_tuple__(self))


def _repr(self: Any) -> str:
    shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__match_args__)
    return f"{self.__class__.__qualname__}({shown})"


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
    namespace.update(
        __init__=_init(cls, names, defaults),
        __repr__=_repr,
        __eq__=_eq,
        __hash__=_hash,
        __record_tuple__=staticmethod(_astuple(names)),
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
