"""Check a PEP 316 contract by concrete enumeration of a stated finite domain (a *bounded*
verdict): every combination of the listed argument values is called, the ``pre:`` conditions
filter, and every ``post:`` must hold.  Used where CrossHair cannot trace the code (the AEAD is
C code), so the domain is enumerated instead of explored symbolically."""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from proofs.gate import conditions


def check(fn: Callable[..., Any], domain: Mapping[str, Sequence[object]]) -> int:
    """Run ``fn`` on every combination of ``domain`` meeting its preconditions; return how many
    were checked.  Raises :class:`AssertionError` naming the first call that raises or breaks a
    postcondition, and when no combination meets the preconditions."""
    pres, posts = conditions(fn, "pre:"), conditions(fn, "post:")
    namespace = dict(getattr(fn, "__globals__", {}))
    checked = 0
    names = list(domain)
    for values in itertools.product(*(domain[n] for n in names)):
        args = dict(zip(names, values, strict=True))
        env = {**namespace, **args}
        if not all(eval(pre, env) for pre in pres):
            continue
        shown = ", ".join(f"{k}={v!r}" for k, v in args.items())
        call = f"{getattr(fn, '__name__', 'check')}({shown})"
        try:
            env["__return__"] = fn(**args)
        except Exception as exc:
            raise AssertionError(f"{call} raises {exc!r}") from None
        broken = [post for post in posts if not eval(post, env)]
        if broken:
            raise AssertionError(f"{call} breaks post: {broken[0]}")
        checked += 1
    if not checked:
        raise AssertionError("no combination of the domain meets the preconditions")
    return checked


def target(path: str) -> tuple[Callable[..., Any], Mapping[str, Sequence[object]]]:
    """``module.function`` to the function and its domain (the module's ``DOMAIN``)."""
    module_name, _, name = path.rpartition(".")
    module = importlib.import_module(module_name)
    return getattr(module, name), module.DOMAIN[name]
