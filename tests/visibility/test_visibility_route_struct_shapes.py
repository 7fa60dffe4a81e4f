"""Shapes of turbomcp's derived param structs that the router tests leave out: a required field
of ``RawCompletionArgument`` missing, a defaulted one of ``RawCompletionContext`` absent, and the
singular of a one-field struct's sequence form."""

from __future__ import annotations

import pytest

from mcp_touchstone.serde_json import JSON
from mcp_touchstone.visibility._router import RouteError, parse_complete_params, parse_uri_param


def test_vis_route_2_completion_argument_without_name_is_a_missing_field() -> None:
    """VIS-ROUTE-2: ``RawCompletionArgument.name`` has no ``#[serde(default)]``: an argument
    that carries only its value fails with serde's ``missing field `name` ``."""
    params: JSON = {"ref": {"type": "ref/prompt", "name": "n"}, "argument": {"value": "b"}}
    assert parse_complete_params(params) == RouteError(
        -32602, "invalid params: invalid completion/complete params: missing field `name`"
    )


@pytest.mark.parametrize("context", [{}, [], {"arguments": {"a": "x"}}, None])
def test_vis_route_2_completion_context_arguments_may_be_absent(context: JSON) -> None:
    """VIS-ROUTE-2: ``RawCompletionContext.arguments`` is ``#[serde(default)]``, so a context
    without it (an empty object, or an empty sequence) parses, as does a null context."""
    params: JSON = {
        "ref": {"type": "ref/prompt", "name": "n"},
        "argument": {"name": "a", "value": "b"},
        "context": context,
    }
    assert not isinstance(parse_complete_params(params), RouteError)


@pytest.mark.parametrize("method", ["resources/subscribe", "resources/unsubscribe"])
def test_vis_parse_3_short_sequence_of_a_one_field_struct_says_element(method: str) -> None:
    """VIS-PARSE-3: a too-short sequence for ``RawReadResourceParams`` (one field) fails with
    serde's ``expected struct RawReadResourceParams with 1 element``, singular."""
    assert parse_uri_param([], method) == RouteError(
        -32602,
        f"invalid params: invalid {method} params: invalid length 0, expected struct "
        "RawReadResourceParams with 1 element",
    )
