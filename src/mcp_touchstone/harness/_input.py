"""How every harness adapter refuses a ``case.input`` outside its operation's shape (HARNESS-MSG-3).

One exception, raised by an adapter's readers wherever the input is wrong, naming the place; one
answer shape for it, ``{"error": {"kind": "invalid_input", "message": ...}}``; and one wrapper
that turns the first into the second, so no operation can answer bad input with a traceback.  An
operation whose pinned contract gives bad input another shape (``mrtr.capabilities`` and
``mrtr.allows`` answer ``{"error": {"message": ...}}``) passes its own shape to :func:`guarded`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone.harness._operation import HarnessOperation
from mcp_touchstone.serde_json import JSON

__all__ = ["BadInputError", "guarded", "invalid_input"]


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
