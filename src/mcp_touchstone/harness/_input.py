"""How every harness adapter refuses a ``case.input`` outside its operation's shape (HARNESS-MSG-3).

One exception, raised by an adapter's readers wherever the input is wrong, naming the place; one
answer shape for it, ``{"error": {"kind": "invalid_input", "message": ...}}``; and one wrapper
that turns the first into the second, so no operation can answer bad input with a traceback.  An
operation whose pinned contract gives bad input another shape (``mrtr.capabilities`` and
``mrtr.allows`` answer ``{"error": {"message": ...}}``) passes its own shape to :func:`guarded`.

The typed readers every adapter uses are here too (:class:`Readers`): an object, a field, a
string, a boolean, a u64, each raising :class:`BadInputError` naming the place.  They come in the
two wordings the adapters' messages use, :data:`MUST` (``input.id must be a string``, the
visibility and MRTR adapters) and :data:`EXPECTED` (``input.id: expected a string``, the scope
adapters, after serde's own wording); an adapter picks one and no adapter writes its own.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone._rust import U64_MAX
from mcp_touchstone.harness._operation import HarnessOperation
from mcp_touchstone.serde_json import JSON, JsonError, validate

__all__ = [
    "EXPECTED",
    "MUST",
    "BadInputError",
    "Readers",
    "checked",
    "guarded",
    "invalid_input",
    "valid_json",
]


class BadInputError(TouchstoneError, ValueError):
    """A ``case.input`` that does not have the operation's input shape; the message says where."""


def invalid_input(message: str) -> dict[str, JSON]:
    """The ``invalid_input`` answer for ``message``."""
    return {"error": {"kind": "invalid_input", "message": message}}


def guarded(
    shape: Callable[[str], dict[str, JSON]] = invalid_input,
) -> Callable[[HarnessOperation], HarnessOperation]:
    """Wrap an operation so that a :class:`BadInputError` it raises becomes ``shape(message)``."""

    def wrap(op: HarnessOperation) -> HarnessOperation:
        @functools.wraps(op)
        def run(raw: JSON) -> dict[str, JSON]:
            try:
                return op(raw)
            except BadInputError as exc:
                return shape(str(exc))

        return run

    return wrap


def valid_json(raw: JSON, where: str = "input") -> JSON:
    """``raw`` when the JSON layer accepts it as a value (``serde_json.validate``: no lone
    surrogate, no non-finite float, ...); otherwise its message, naming ``where``."""
    try:
        validate(raw, where=where)
    except JsonError as exc:
        raise BadInputError(str(exc)) from None
    return raw


def checked(operation: HarnessOperation) -> HarnessOperation:
    """``operation`` behind the check that its input is a JSON value serde_json could hold
    (:func:`valid_json`): a failing input is answered ``invalid_input`` with ``validate``'s
    message, which names the first offending place (``input.request.id: integer ... out of
    i64/u64 range``).  The MRTR adapters read their input as it comes; this check is what
    makes a NaN, an out-of-range integer or a lone surrogate ``invalid_input`` there."""

    @functools.wraps(operation)
    def run(raw: JSON) -> dict[str, JSON]:
        try:
            valid_json(raw)
        except BadInputError as exc:
            return invalid_input(str(exc))
        return operation(raw)

    return run


@dataclass(frozen=True, slots=True)
class Readers:
    """Typed readers of a raw ``case.input`` in one wording: each returns the value read or raises
    :class:`BadInputError` with ``wrong(where, what)`` or ``missing(where, key)``."""

    wrong: Callable[[str, str], str]
    """The message for a value at ``where`` that is not ``what`` (``"a string"``, ...)."""
    missing: Callable[[str, str], str]
    """The message for an object at ``where`` without the field ``key``."""

    def object(self, value: JSON, where: str, what: str = "an object") -> dict[str, JSON]:
        """``value`` when it is an object."""
        if not isinstance(value, dict):
            raise BadInputError(self.wrong(where, what))
        return value

    def field(self, obj: dict[str, JSON], key: str, where: str) -> JSON:
        """``obj[key]`` when present (whatever its value, ``null`` included)."""
        if key not in obj:
            raise BadInputError(self.missing(where, key))
        return obj[key]

    def string(self, value: JSON, where: str, what: str = "a string") -> str:
        """``value`` when it is a string."""
        if not isinstance(value, str):
            raise BadInputError(self.wrong(where, what))
        return value

    def optional_string(self, value: JSON, where: str, what: str = "a string") -> str | None:
        """``None`` for ``null`` (serde's ``Option<String>``), else :meth:`string`."""
        return None if value is None else self.string(value, where, what)

    def boolean(self, value: JSON, where: str) -> bool:
        """``value`` when it is ``true`` or ``false``."""
        if not isinstance(value, bool):
            raise BadInputError(self.wrong(where, "a boolean"))
        return value

    def unsigned(self, value: JSON, where: str) -> int:
        """``value`` when it is an integer in u64 range (a boolean is not an integer)."""
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= U64_MAX:
            raise BadInputError(self.wrong(where, "a non-negative integer"))
        return value

    def optional_unsigned(self, value: JSON, where: str) -> int | None:
        """``None`` for ``null`` (serde's ``Option<u64>``), else :meth:`unsigned`."""
        return None if value is None else self.unsigned(value, where)


MUST = Readers(
    wrong=lambda where, what: f"{where} must be {what}",
    missing=lambda where, key: f"{where}.{key} is missing",
)
"""``input.id must be a string`` / ``input.id is missing``: the visibility and MRTR adapters."""

EXPECTED = Readers(
    wrong=lambda where, what: f"{where}: expected {what}",
    missing=lambda where, key: f"{where}: missing field `{key}`",
)
"""``input.id: expected a string`` / ``input: missing field `id```: the scope adapters."""
