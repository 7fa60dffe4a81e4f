"""A deep copy of a JSON value without the ``copy`` module (issue 11: the MRTR client copies
params, client info, answers and roots on every round, and ``copy.deepcopy`` walks a value with
a memo and a dispatch per node, besides its import at every harness start).

:func:`copy_json` copies a value built of ``dict`` (with ``str`` keys), ``list``, ``str``,
``int``, ``float``, ``bool`` and ``None`` -- what ``serde_json.from_str`` makes -- into new
dicts and lists all the way down, sharing only the immutable scalars, as ``deepcopy`` does.  Any
other object anywhere in it (a tuple, a read-only mapping, a subclass) sends the whole value to
``copy.deepcopy``, so such a value is copied, or refused, exactly as before.  The one thing not
kept is aliasing: a list that appeared twice in the value is two lists in the copy (the client
never mutates a copy's nested values, so no answer can tell).
``tests/mrtr/test_mrtr_copy.py`` holds the differential against ``deepcopy``.
"""

from __future__ import annotations

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone.serde_json import JSON

__all__ = ["copy_json"]

_SCALARS = frozenset({str, int, float, bool, type(None)})


class _NotPlainError(TouchstoneError):
    """The value holds something other than plain JSON: ``deepcopy`` copies it."""


def _copy(value: JSON, depth: int) -> JSON:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if depth > _MAX_DEPTH:
        raise _NotPlainError
    if kind is dict:
        assert isinstance(value, dict)
        out: dict[str, JSON] = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlainError
            out[key] = _copy(item, depth + 1)
        return out
    if kind is list:
        assert isinstance(value, list)
        return [_copy(item, depth + 1) for item in value]
    raise _NotPlainError


_MAX_DEPTH = 200
"""Deeper values (a cycle among them) go to ``deepcopy``, which has a memo for cycles."""


def copy_json(value: JSON) -> JSON:
    """``copy.deepcopy(value)``, the same copy for plain JSON without the ``copy`` module."""
    try:
        return _copy(value, 0)
    except _NotPlainError:
        import copy  # only for a value that is not plain JSON

        return copy.deepcopy(value)
