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

from mcp_touchstone import serde_json
from mcp_touchstone.harness._operation import EncodedOutput, HarnessOperation
from mcp_touchstone.harness._scope_common import _invalid, _matches, _read_input
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


def _matches_output(found: tuple[MatchedGrant, ...]) -> EncodedOutput:
    """``_matches(found)`` with its JSON text (keys in sorted order; every value an int)."""
    output = EncodedOutput()
    if len(found) == 1:  # the common answer, written in one piece
        (match,) = found
        index = match.index
        server_exact, tool_exact, count = match.specificity
        output["matches"] = [{"index": index, "specificity": [server_exact, tool_exact, count]}]
        output.text = (
            f'{{"matches":[{{"index":{_decimal(index)},'
            f'"specificity":[{_DECIMAL[server_exact]},{_DECIMAL[tool_exact]},'
            f"{_decimal(count)}]}}]}}"
        )
        return output
    matches: list[JSON] = []
    texts: list[str] = []
    for match in found:
        index = match.index
        server_exact, tool_exact, count = match.specificity
        matches.append({"index": index, "specificity": [server_exact, tool_exact, count]})
        texts.append(
            f'{{"index":{_decimal(index)},"specificity":'
            f"[{_DECIMAL[server_exact]},{_DECIMAL[tool_exact]},{_decimal(count)}]}}"
        )
    output["matches"] = matches
    output.text = '{"matches":[' + ",".join(texts) + "]}"
    return output


def _error_output(kind: str, message: str | None = None) -> EncodedOutput:
    """``{"error": {"kind": kind, "message": message}}`` (no message: ``kind`` alone), with its
    JSON text."""
    error: dict[str, JSON] = {"kind": kind}
    text = f'{{"error":{{"kind":"{kind}"}}}}'
    if message is not None:
        error["message"] = message
        text = f'{{"error":{{"kind":"{kind}","message":{serde_json.to_string(message)}}}}}'
    output = EncodedOutput(error=error)
    output.text = text
    return output


def _resolved_output(
    scope: ChioScope, tool_name: str, server_id: str, arguments: JSON, *, capability: bool
) -> EncodedOutput:
    """The answer of a resolution of parsed ``arguments`` (no ``check_arguments``: a value
    ``serde_json.from_str`` made always passes it), with its JSON text."""
    found = resolve_parsed(scope, tool_name, server_id, arguments)
    if type(found) is tuple:
        if found or not capability:
            return _matches_output(found)
        return _error_output("out_of_scope")
    assert isinstance(found, ConstraintError)
    return _error_output("constraint_error", found.message)


def _parsed(*, capability: bool) -> HarnessOperation:
    """The operation ``_answer(raw, resolve)`` (``resolve_capability_grants`` when
    ``capability``, else ``resolve_matching_grants``) for parsed input: the common case in one pass
    (``decode_scope``'s fast path, the resolution without ``check_arguments``, the answer
    with its JSON text); anything else is read by ``_read_input`` (with the general decoder
    once the fast path has declined the scope), resolved the same way and answered with its
    text too, so every error message still comes from the one general reader."""

    def operation(raw: JSON) -> dict[str, JSON]:
        decode = decode_scope
        if type(raw) is dict and "scope" in raw and "arguments" in raw:
            tool_name = raw.get("tool_name")
            server_id = raw.get("server_id")
            if type(tool_name) is str and type(server_id) is str:
                scope = fast_scope(raw["scope"])
                if scope is not None:
                    return _resolved_output(
                        scope, tool_name, server_id, raw["arguments"], capability=capability
                    )
                decode = decode_scope_general
        read = _read_input(raw, decode)
        if isinstance(read, dict):  # invalid_input: {"error": {"kind", "message"}}
            error = read["error"]
            assert isinstance(error, dict)
            message = error["message"]
            assert isinstance(message, str)
            return _error_output("invalid_input", message)
        return _resolved_output(*read, capability=capability)

    return operation


OPERATIONS: dict[str, HarnessOperation] = {
    "scope.resolve_matching_grants": op_resolve_matching_grants,
    "scope.resolve_capability_grants": op_resolve_capability_grants,
}

PARSED_OPERATIONS: dict[str, HarnessOperation] = {
    "scope.resolve_matching_grants": _parsed(capability=False),
    "scope.resolve_capability_grants": _parsed(capability=True),
}
"""The two operations for input ``serde_json.from_str`` parsed (harness/_parsed.py)."""
