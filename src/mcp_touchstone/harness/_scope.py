"""Harness operations of the ``scope`` semantic (see ``spec/harness.md``, ``spec/scope.md``).

Each operation takes the raw ``case.input`` JSON value and returns the output object.
It is total: malformed input is answered with the operation's error shape, never raised.

``PARSED_OPERATIONS`` serve input that ``serde_json.from_str`` parsed (``harness/_parsed.py``):
the common case (an object with string ``tool_name`` and ``server_id`` and a scope of the
plain map shapes) is read in one pass and resolved without re-validating the arguments;
anything else is answered by the general operation, so every error comes from one place.
``tests/harness/test_harness_parsed.py`` runs both tables over every vector.
"""

from __future__ import annotations

from collections.abc import Callable
from json.encoder import encode_basestring

from mcp_touchstone.harness._operation import EncodedOutput, HarnessOperation, TextOperation
from mcp_touchstone.harness._scope_common import _invalid, _match_list, _matches, _read_input
from mcp_touchstone.scope._decode import decode_scope, decode_scope_general
from mcp_touchstone.scope._decode_fast import fast_scope
from mcp_touchstone.scope._matcher import (
    ConstraintError,
    InvalidArgumentsError,
    MatchedGrant,
    OutOfScope,
    resolve_capability_grants,
    resolve_matching_grants,
    resolve_parsed,
)
from mcp_touchstone.scope._types import ChioScope
from mcp_touchstone.serde_json import JSON

TYPE_CHECKING = False  # typing's constant, without importing typing at run time (start-up)
if TYPE_CHECKING:
    from typing import TypeVar

    R = TypeVar("R")

_Shape = tuple[Callable[[tuple[MatchedGrant, ...]], "R"], Callable[[str, "str | None"], "R"]]
"""How a parsed operation shapes its answer: the matches, and an error (kind, message)."""

Resolver = Callable[
    [ChioScope, str, str, JSON], tuple[MatchedGrant, ...] | ConstraintError | OutOfScope
]


def _answer(
    raw: JSON, resolve: Resolver, decode: Callable[[JSON, str], ChioScope] = decode_scope
) -> dict[str, JSON]:
    """Read the input, run ``resolve`` and shape its outcome (SCOPE-WIRE-1, SCOPE-WIRE-2)."""
    read = _read_input(raw, decode)
    if isinstance(read, dict):
        return read
    try:
        result = resolve(*read)
    except InvalidArgumentsError as exc:
        return _invalid(str(exc))
    if isinstance(result, ConstraintError):
        return {"error": {"kind": "constraint_error", "message": result.message}}
    if isinstance(result, OutOfScope):
        return {"error": {"kind": "out_of_scope"}}
    return _matches(result)


def op_resolve_matching_grants(raw: JSON) -> dict[str, JSON]:
    """``scope.resolve_matching_grants``: ranked matches or a constraint error (SCOPE-WIRE-1)."""
    return _answer(raw, resolve_matching_grants)


def op_resolve_capability_grants(raw: JSON) -> dict[str, JSON]:
    """``scope.resolve_capability_grants``: as above, plus ``out_of_scope`` (SCOPE-WIRE-1)."""
    return _answer(raw, resolve_capability_grants)


_DECIMAL: tuple[str, ...] = tuple(map(str, range(64)))
"""The decimal text of the small integers an answer holds (indexes, 0/1, constraint counts):
``str`` of an ``int`` costs more than writing the rest of a one-match answer."""


def _decimal(number: int) -> str:
    return _DECIMAL[number] if number < 64 else str(number)


def _matches_text(found: tuple[MatchedGrant, ...]) -> str:
    """The JSON text of ``_matches(found)`` (keys in sorted order; every value an int)."""
    if len(found) == 1:  # the common answer, written in one piece
        (match,) = found
        index = match.index
        server_exact, tool_exact, count = match.specificity
        # _decimal written out: its call costs more than the table lookup it makes.
        return (
            f'{{"matches":[{{"index":{_DECIMAL[index] if index < 64 else str(index)},'
            f'"specificity":[{_DECIMAL[server_exact]},{_DECIMAL[tool_exact]},'
            f"{_DECIMAL[count] if count < 64 else str(count)}]}}]}}"
        )
    texts: list[str] = []
    for match in found:
        server_exact, tool_exact, count = match.specificity
        texts.append(
            f'{{"index":{_decimal(match.index)},"specificity":'
            f"[{_DECIMAL[server_exact]},{_DECIMAL[tool_exact]},{_decimal(count)}]}}"
        )
    return '{"matches":[' + ",".join(texts) + "]}"


def _matches_output(found: tuple[MatchedGrant, ...]) -> EncodedOutput:
    """``_matches(found)`` with its JSON text."""
    output = EncodedOutput(matches=_match_list(found))
    output.text = _matches_text(found)
    return output


def _error_text(kind: str, message: str | None = None) -> str:
    """The JSON text of ``{"error": {"kind": kind, "message": message}}`` (no message: ``kind``
    alone)."""
    if message is None:
        return f'{{"error":{{"kind":"{kind}"}}}}'
    # json's string escaper is what serde_json.to_string writes for a str (its C encoder calls
    # that escaper, and so does its exact writer), without the encoder's list and checks.
    return f'{{"error":{{"kind":"{kind}","message":{encode_basestring(message)}}}}}'


def _error_output(kind: str, message: str | None = None) -> EncodedOutput:
    """``{"error": {"kind": kind, "message": message}}`` (no message: ``kind`` alone), with its
    JSON text."""
    error: dict[str, JSON] = {"kind": kind}
    if message is not None:
        error["message"] = message
    output = EncodedOutput(error=error)
    output.text = _error_text(kind, message)
    return output


def _shaped(
    found: tuple[MatchedGrant, ...] | ConstraintError, capability: bool, shape: _Shape[R]
) -> R:
    """The answer of a resolution of parsed ``arguments`` (``resolve_parsed``: no
    ``check_arguments``, which a value ``serde_json.from_str`` made always passes), shaped by
    ``shape``."""
    if type(found) is tuple:
        if found or not capability:
            return shape[0](found)
        return shape[1]("out_of_scope", None)
    assert isinstance(found, ConstraintError)
    return shape[1]("constraint_error", found.message)


def _parsed_answer(raw: JSON, capability: bool, shape: _Shape[R]) -> R:
    """The operation ``_answer(raw, resolve)`` (``resolve_capability_grants`` when
    ``capability``, else ``resolve_matching_grants``) for parsed input, shaped by ``shape``
    (the object with its text, or the text alone): the common case in one pass
    (``decode_scope``'s fast path, the resolution without ``check_arguments``); anything else is
    read by ``_read_input`` (with the general decoder once the fast path has declined the
    scope) and resolved the same way, so every error message still comes from the one general
    reader."""
    decode = decode_scope
    if type(raw) is dict and "scope" in raw and "arguments" in raw:
        tool_name = raw.get("tool_name")
        server_id = raw.get("server_id")
        if type(tool_name) is str and type(server_id) is str:
            scope = fast_scope(raw["scope"])
            if scope is not None:
                found = resolve_parsed(scope, tool_name, server_id, raw["arguments"])
                return _shaped(found, capability, shape)
            decode = decode_scope_general
    read = _read_input(raw, decode)
    if isinstance(read, dict):  # invalid_input: {"error": {"kind", "message"}}
        error = read["error"]
        assert isinstance(error, dict)
        message = error["message"]
        assert isinstance(message, str)
        return shape[1]("invalid_input", message)
    return _shaped(resolve_parsed(*read), capability, shape)


_OBJECT: _Shape[EncodedOutput] = (_matches_output, _error_output)
_TEXT: _Shape[str] = (_matches_text, _error_text)


def _parsed(*, capability: bool) -> TextOperation:
    """The operation for parsed input (:func:`_parsed_answer`): its output object with its text,
    and (``.text``) the text alone, which the line server writes."""

    def operation(raw: JSON) -> dict[str, JSON]:
        return _parsed_answer(raw, capability, _OBJECT)

    def text(raw: JSON) -> str:
        return _parsed_answer(raw, capability, _TEXT)

    return TextOperation(operation, text)


OPERATIONS: dict[str, HarnessOperation] = {
    "scope.resolve_matching_grants": op_resolve_matching_grants,
    "scope.resolve_capability_grants": op_resolve_capability_grants,
}

PARSED_OPERATIONS: dict[str, TextOperation] = {
    "scope.resolve_matching_grants": _parsed(capability=False),
    "scope.resolve_capability_grants": _parsed(capability=True),
}
"""The two operations for input ``serde_json.from_str`` parsed (harness/_parsed.py)."""
