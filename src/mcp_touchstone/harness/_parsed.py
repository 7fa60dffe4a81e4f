"""Operations for input that the JSON layer has parsed (HARNESS-OPS-2).

An adapter that must refuse a Python value serde_json could not hold (a NaN, an integer out of
i64/u64 range, a non-string key, a lone surrogate, 128 levels of nesting) checks its input with
``serde_json.validate`` first.  A value that ``serde_json.from_str`` produced is such a value by
construction, so checking it again changes no answer and only costs a walk over the input: the
harness server parses every request line with ``from_str``, so ``touchstone harness`` serves
an adapter's ``PARSED_OPERATIONS`` (the same operations without the check) where it has them.

:func:`checked` builds the general operation from the parsed one: the harness's one JSON check
(``_input.valid_json``) first, its message as the operation's ``invalid_input`` answer, then the
parsed operation.  A test runs
both tables over every vector and over lines the server must refuse
(tests/harness/test_harness_parsed.py).
"""

from __future__ import annotations

from functools import wraps

from mcp_touchstone.harness._input import BadInputError, invalid_input, valid_json
from mcp_touchstone.harness._operation import HarnessOperation
from mcp_touchstone.serde_json import JSON

__all__ = ["checked"]


def checked(parsed: HarnessOperation) -> HarnessOperation:
    """``parsed`` behind the check that its input is a JSON value serde_json could hold:
    a failing input is answered ``invalid_input`` with ``validate``'s message (which names the
    first offending place, e.g. ``input.request.id: integer ... out of i64/u64 range``)."""

    @wraps(parsed)
    def operation(raw: JSON) -> dict[str, JSON]:
        try:
            valid_json(raw)
        except BadInputError as exc:
            return invalid_input(str(exc))
        return parsed(raw)

    return operation
