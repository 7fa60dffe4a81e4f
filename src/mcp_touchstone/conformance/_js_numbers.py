"""JSON numbers as an IEEE-754 double holds them, for ``touchstone drt --js-numbers`` (CONF-DRT-5).

A JavaScript implementation reads every JSON number with ``JSON.parse`` into a double. Two
things are then lost that no careful writer can get back: whether an integral value was written
as a float (``1.0``, ``1e16``, ``-1.0``: serde_json keeps them floats) and the low digits of an
integer no double holds (``2^53 + 1``, ``u64::MAX``). :func:`as_double_reads` maps an input to the
input that means, to serde_json, what the double means to such an implementation: an integral
float in serde_json's integer range (``-2^63 <= x < 2^64``) becomes that integer, and an integer
no double holds becomes the nearest double, read back the same way. Everything else a double
tells apart (``-0.0``, ``0.5``, ``1e300``, integers up to 2^53, strings, keys) is unchanged, so
a difference that remains is one the implementation could have avoided.
"""

from __future__ import annotations

import math

from mcp_touchstone.serde_json import JSON

__all__ = ["as_double_reads"]

_LOW = -(2**63)  # serde_json reads an integer literal in [i64::MIN, u64::MAX] as an integer.
_HIGH = 2**64


def _number(x: int | float) -> int | float:
    if isinstance(x, int):
        if _LOW <= x < _HIGH and float(x) == x:
            return x
        try:
            x = float(x)  # the nearest double, as JSON.parse rounds an integer literal
        except OverflowError:  # beyond any double: serde_json refuses it; left as it is
            return x
    negative_zero = x == 0 and math.copysign(1.0, x) < 0
    if math.isfinite(x) and x.is_integer() and _LOW <= x < _HIGH and not negative_zero:
        return int(x)
    return x


def as_double_reads(value: JSON) -> JSON:
    """``value`` with every number replaced by the literal serde_json reads as the double
    ``JSON.parse`` holds for it (see the module docstring); ``value`` itself is not changed."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return _number(value)
    if isinstance(value, list):
        return [as_double_reads(v) for v in value]
    return {k: as_double_reads(v) for k, v in value.items()}
