"""``@record``: ``@dataclass(slots=True)`` (frozen by default) for the cores' value types, made
cheaply.

The three cores declare about seventy value classes.  The stdlib decorator spends around a
millisecond on each (it compiles six methods one by one, and builds every class twice to give it
slots) and pulls in :mod:`inspect`; in a ``touchstone harness`` process answering the suite once
that was about a tenth of the reference's CPU outside the regex compiler.  :func:`record` gives a
class the behaviour of the stdlib decorator with ``slots=True`` and ``frozen=True`` (or
``frozen=False``), and the defaults ``init``, ``repr``, ``eq``, with one ``__init__`` template
per field count (written out in :mod:`._record_init`, so never compiled at run time) renamed for
each class of plain fields (:func:`_init`), and
``typing`` never imported at run time:

* ``__init__(self, f1, f2=default, ...)``: the ``init`` fields in declared order, positional or
  keyword, with the declared defaults (a default is a plain class attribute); a
  :func:`field` with ``default_factory`` is filled by calling it when the argument is left out
  (``init=False``: always); then ``__post_init__()`` when the class defines one;
* ``__repr__``: ``Name(f1=..., f2=...)`` over the ``repr`` fields, with ``__qualname__``, as
  dataclasses writes it;
* ``__eq__``: the same class and equal tuples of the ``compare`` fields, else
  ``NotImplemented``; ``__hash__`` (frozen): the hash of that tuple, as dataclasses defines it
  (so hashes are equal too); a mutable record is unhashable, as a mutable dataclass is;
* ``eq=False``: no ``__eq__`` or ``__hash__`` of its own (compared and hashed by identity), as
  dataclasses with ``eq=False``;
* a method the class body defines itself (``__repr__``, ``__eq__``, ``__hash__``) is kept, as
  dataclasses keeps it;
* frozen: assigning or deleting an attribute raises :class:`FrozenInstanceError` (an
  ``AttributeError``); ``__post_init__`` sets fields with ``object.__setattr__``, as with
  dataclasses;
* ``__slots__`` are all the fields, ``__match_args__`` the ``init`` fields;
  ``__getstate__``/``__setstate__`` let ``copy`` and ``pickle`` rebuild a value;
* a ``ClassVar`` annotation is not a field.

There is no ``__dataclass_fields__``: :func:`record_fields` and :func:`replace` stand in for
``dataclasses.fields`` and ``dataclasses.replace``.  ``tests/test_records.py`` checks the
behaviour against the stdlib decorator on the same declarations, and
``tests/scope/test_scope_records.py`` the real types against their declarations.  The module
imports nothing but the standard library's ``sys``, ``types`` and ``operator``, the shared error
root and its templates (:mod:`._record_init`), so every core may use it
(``tests/test_layering.py``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from operator import attrgetter
from types import CodeType, FunctionType

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone._record_init import TEMPLATES

TYPE_CHECKING = False  # typing's constant, without importing typing at run time (start-up)
if TYPE_CHECKING:
    from typing import Any, TypeVar, dataclass_transform, overload

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
                "field_specifiers": kwargs.get("field_specifiers", ()),
                "kwargs": {k: v for k, v in kwargs.items() if k != "field_specifiers"},
            }
            return function

        return mark

    def overload(function: Callable[..., object]) -> Callable[..., object]:
        """``typing.overload`` at run time: the declaration is replaced by the definition."""
        return function


__all__ = ["FrozenInstanceError", "draft", "field", "record", "record_fields", "replace"]


class FrozenInstanceError(TouchstoneError, AttributeError):
    """An attempt to assign or delete a field of a frozen record (as dataclasses raises)."""


class _Factory:
    """What :func:`field` puts in a class body: a default factory and the field's flags."""

    __slots__ = ("compare", "factory", "init", "repr")

    def __init__(self, factory: Callable[[], object], init: bool, repr: bool, compare: bool):
        self.factory, self.init, self.repr, self.compare = factory, init, repr, compare


def field(
    *,
    default_factory: Callable[[], T],
    init: bool = True,
    repr: bool = True,  # dataclasses.field's own parameter name
    compare: bool = True,
) -> T:
    """A field filled by ``default_factory()`` when left out (``init=False``: never an
    argument); ``repr=False``/``compare=False`` leave it out of the repr, or of eq and hash."""
    made: Any = _Factory(default_factory, init, repr, compare)
    result: T = made  # typed as the field's value, as dataclasses.field is
    return result


class _Missing:
    """The default of a factory field's parameter (shown as dataclasses shows it)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<factory>"


_MISSING = _Missing()


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
    return [getattr(self, name) for name in type(self).__record_fields__]  # type: ignore[attr-defined]


def _setstate(self: object, state: list[object]) -> None:
    for name, value in zip(type(self).__record_fields__, state, strict=True):  # type: ignore[attr-defined]
        object.__setattr__(self, name, value)


def record_fields(cls: type) -> tuple[str, ...]:
    """The field names of a :func:`record` class, in declared order."""
    names: tuple[str, ...] = cls.__record_fields__  # type: ignore[attr-defined]
    return names


def draft(cls: type) -> Any:
    """A plain class with exactly the slots of record ``cls``, for a decoder's hot path: an
    instance gets every field by ordinary attribute stores, then becomes a ``cls`` value by
    ``obj.__class__ = cls`` (the same layout, so Python allows it), which is what ``__init__``
    makes (one store per field) without a call per field through ``object.__setattr__``.  The
    caller stores every field before the assignment and never touches the draft again; no
    ``__post_init__`` runs.  Only for a record whose base is ``object`` (no inherited slots);
    the layouts are checked here once, so a mismatch fails at import, not on a value."""
    if cls.__bases__ != (object,) or "__post_init__" in cls.__dict__:
        raise TypeError(f"no draft for {cls.__qualname__}: it has a base or a __post_init__")
    made: Any = type(f"{cls.__name__}Draft", (), {"__slots__": record_fields(cls)})
    probe = made()
    probe.__class__ = cls  # raises TypeError now if the layouts ever differ
    return made


def replace(value: T, /, **changes: Any) -> T:
    """A copy of record ``value`` with ``changes`` to its ``init`` fields, as
    ``dataclasses.replace`` makes it (made through ``__init__``: factories of ``init=False``
    fields run again, ``__post_init__`` too); an unknown field is a :class:`TypeError`."""
    cls: Any = type(value)
    current = {name: getattr(value, name) for name in cls.__match_args__}
    made: T = cls(**(current | changes))
    return made


_TEMPLATES: dict[int, CodeType] = dict(enumerate(TEMPLATES))
"""``__init__`` code by field count with placeholder names (see :func:`_init`): the written-out
templates of :mod:`._record_init`, and any larger count compiled once on first use."""


def _compiled_template(count: int) -> CodeType:
    """The code of ``def __init__(self, __f0, ...): __set(self, "__f0", __f0); ...``, compiled
    from its source (what each template of :mod:`._record_init` is, written out)."""
    names = [f"__f{i}" for i in range(count)]
    body = "".join(f"    __set(self, {n!r}, {n})\n" for n in names) or "    pass\n"
    module = compile(f"def __init__({', '.join(['self', *names])}):\n{body}", "<record>", "exec")
    return next(c for c in module.co_consts if isinstance(c, CodeType))


def _template(count: int) -> CodeType:
    """The template code for ``count`` fields."""
    code = _TEMPLATES.get(count)
    if code is None:
        code = _TEMPLATES[count] = _compiled_template(count)
    return code


def _init(
    cls: type,
    names: tuple[str, ...],
    defaults: dict[str, object],
    factories: dict[str, _Factory],
) -> Callable[..., None]:
    """The ``__init__`` (the one method whose speed and signature matter).  A class of plain
    fields (no factory, no ``__post_init__``) gets the template code of its field count with
    the placeholders renamed to the fields (parameter names and the field-name constants) and
    the defaults as ``__defaults__``: compiling a function per class was most of the cost of
    declaring one.  Any other class, and a field list the template cannot carry (a default
    before a field without one, a field named ``self``), compiles its own source, which raises
    what it always raised."""
    required = len(names) - len(defaults)
    if not (
        factories
        or "__post_init__" in cls.__dict__
        or "self" in names
        or any(n in defaults for n in names[:required])
    ):
        template = _template(len(names))
        placeholders = {f"__f{i}": name for i, name in enumerate(names)}
        code = template.replace(
            co_varnames=("self", *names),
            co_consts=tuple(
                placeholders.get(c, c) if type(c) is str else c for c in template.co_consts
            ),
            co_filename=f"<record {cls.__qualname__}>",
            co_name="__init__",
            co_qualname="__init__",
        )
        argdefs = tuple(defaults[n] for n in names[required:])
        fast: Callable[..., None] = FunctionType(
            code, {"__set": object.__setattr__}, "__init__", argdefs or None
        )
        return _named(fast, cls, names, factories)
    return _named(_compiled_init(cls, names, defaults, factories), cls, names, factories)


def _named(
    init: Callable[..., None], cls: type, names: tuple[str, ...], factories: dict[str, _Factory]
) -> Callable[..., None]:
    annotations = cls.__annotations__
    shown = {n: annotations[n] for n in names if n not in factories or factories[n].init}
    init.__annotations__ = shown | {"return": None}
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _compiled_init(
    cls: type,
    names: tuple[str, ...],
    defaults: dict[str, object],
    factories: dict[str, _Factory],
) -> Callable[..., None]:
    """``__init__`` compiled from its own source (factories, ``__post_init__``, and the field
    lists the template cannot carry)."""
    params = ["self"]
    body: list[str] = []
    scope: dict[str, Any] = {"__set": object.__setattr__, "__missing": _MISSING}
    for n in names:
        spec = factories.get(n)
        if spec is None:
            if n in defaults:
                scope[f"__default_{n}"] = defaults[n]
                params.append(f"{n}=__default_{n}")
            else:
                params.append(n)
            body.append(f"    __set(self, {n!r}, {n})\n")
            continue
        scope[f"__factory_{n}"] = spec.factory
        if spec.init:
            params.append(f"{n}=__missing")
            body.append(f"    __set(self, {n!r}, __factory_{n}() if {n} is __missing else {n})\n")
        else:
            body.append(f"    __set(self, {n!r}, __factory_{n}())\n")
    if "__post_init__" in cls.__dict__:
        body.append("    self.__post_init__()\n")
    made: dict[str, Any] = {}
    source = f"def __init__({', '.join(params)}):\n" + ("".join(body) or "    pass\n")
    # The source is made from the field names only (identifiers), as dataclasses does.
    exec(compile(source, f"<record {cls.__qualname__}>", "exec"), scope, made)
    init: Callable[..., None] = made["__init__"]
    return init


def _astuple(names: tuple[str, ...]) -> Callable[[object], tuple[object, ...]]:
    """The tuple of the compared fields (what dataclasses' ``__eq__`` and ``__hash__`` use)."""
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
    shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__record_repr__)
    return f"{self.__class__.__qualname__}({shown})"


def _make(cls: type[T], frozen: bool, eq: bool) -> type[T]:
    annotations = cls.__annotations__  # the class's own (Python >= 3.10), never a base's
    own = cls.__dict__
    names = tuple(n for n, a in annotations.items() if not _is_classvar(a))
    factories = {n: own[n] for n in names if type(own.get(n)) is _Factory}
    defaults = {n: own[n] for n in names if n in own and n not in factories}
    namespace = {
        key: value
        for key, value in own.items()
        if key not in defaults and key not in factories and key not in ("__dict__", "__weakref__")
    }
    compared = tuple(n for n in names if n not in factories or factories[n].compare)
    namespace.update(
        __init__=_init(cls, names, defaults, factories),
        __record_tuple__=staticmethod(_astuple(compared)),
        __record_fields__=names,
        __record_repr__=tuple(n for n in names if n not in factories or factories[n].repr),
        __record_frozen__=frozen,
        __record_eq__=eq,
        __slots__=names,
        __match_args__=tuple(n for n in names if n not in factories or factories[n].init),
        __getstate__=_getstate,
        __setstate__=_setstate,
    )
    namespace.setdefault("__repr__", _repr)
    if eq and "__eq__" not in own:
        namespace["__eq__"] = _eq
        if frozen and own.get("__hash__") is None:
            namespace["__hash__"] = _hash
        elif not frozen and "__hash__" not in own:
            namespace["__hash__"] = None  # A mutable value compared by value is unhashable.
    if frozen:
        namespace.update(__setattr__=_frozen_setattr, __delattr__=_frozen_delattr)
    made: Any = type(cls.__name__, cls.__bases__, namespace)  # no record has a metaclass
    made.__qualname__ = cls.__qualname__
    result: type[T] = made
    return result


@overload
def record(cls: type[T], /) -> type[T]: ...
@overload
def record(*, frozen: bool = True, eq: bool = True) -> Callable[[type[T]], type[T]]: ...  # noqa: F811  # overloads (ruff does not know the run-time stand-in)


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[T] | None = None, /, *, frozen: bool = True, eq: bool = True) -> Any:  # noqa: F811
    """Make ``cls`` a slotted value class of its annotated fields, frozen unless ``frozen`` is
    false, compared by value unless ``eq`` is false (see the module); ``@record``,
    ``@record(frozen=False)`` or ``@record(eq=False)``."""
    if cls is None:
        return lambda made: _make(made, frozen, eq)
    return _make(cls, frozen, eq)
