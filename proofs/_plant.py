"""Plant a bug in a property's check without touching ``src/``: a copy of the check function
whose global names (the real functions it calls) are bound to planted replacements.

Helper functions of the check's own module are copied the same way, so a replacement reaches
every call the check makes through a module global.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from typing import Any


def planted(fn: Callable[..., Any], overrides: Mapping[str, Any], module: str) -> Any:
    """``fn`` with each name of ``overrides`` rebound in its globals (and in the globals of the
    helpers it calls from its own module); docstring (the contract) and signature kept."""
    assert isinstance(fn, types.FunctionType)
    home = fn.__module__
    namespace: dict[str, Any] = dict(fn.__globals__)
    namespace.update(overrides)
    for name, value in list(namespace.items()):
        if name in overrides:
            continue
        inner = getattr(value, "__wrapped__", None)  # a functools.cache: rebind, uncached
        if isinstance(inner, types.FunctionType) and inner.__module__ == home:
            namespace[name] = _rebound(inner, namespace, module)
        elif isinstance(value, types.FunctionType) and value.__module__ == home:
            namespace[name] = _rebound(value, namespace, module)
    return _rebound(fn, namespace, module)


def _rebound(fn: types.FunctionType, namespace: dict[str, Any], module: str) -> Any:
    copy = types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__doc__ = fn.__doc__
    copy.__annotations__ = dict(fn.__annotations__)
    copy.__kwdefaults__ = fn.__kwdefaults__
    copy.__module__ = module
    copy.__qualname__ = fn.__qualname__
    return copy
