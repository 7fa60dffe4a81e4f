"""The scope operations the harness server serves (``_scope.PARSED_OPERATIONS``: the one-pass
read of the common input, the resolution without ``check_arguments``) against the general
operations, on any parsed input: the same output object (SCOPE-WIRE-1, SCOPE-WIRE-2,
HARNESS-OPS-2), an :class:`EncodedOutput`'s text equal to what serde_json writes for it, and
the same response bytes through the line server."""

from __future__ import annotations

import io
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_touchstone.harness import _scope
from mcp_touchstone.harness._operation import EncodedOutput, HarnessOperation, TextOperation
from mcp_touchstone.harness._registry import parsed_input_operations, reference_operations
from mcp_touchstone.harness._server import serve
from mcp_touchstone.serde_json import JSON, from_str, to_string, to_string_ordered
from tests.strategies.scope import constraint_json, grant_json, json_values

_OPERATIONS = ("scope.resolve_matching_grants", "scope.resolve_capability_grants")

_NAMES = st.one_of(st.sampled_from(["files", "read", "mail", "send", "*", ""]), json_values(2))
"""Server and tool names: mostly strings that grants name, sometimes any value."""

_SCOPES: st.SearchStrategy[JSON] = st.one_of(
    st.builds(
        lambda grants: {"grants": grants}, st.lists(grant_json(constraint_json()), max_size=3)
    ),
    st.builds(
        lambda grants, extra: {"grants": grants, **extra},
        st.lists(st.one_of(grant_json(), json_values(3)), max_size=2),
        st.dictionaries(st.sampled_from(["resource_grants", "prompt_grants", "x"]), json_values(3)),
    ),
    json_values(4),
)
"""Scopes of the common shapes (the fast read), with unusual and malformed ones mixed in."""

_INPUTS: st.SearchStrategy[JSON] = st.one_of(
    st.builds(
        lambda scope, tool, server, arguments, drop: {
            key: value
            for key, value in (
                ("scope", scope),
                ("tool_name", tool),
                ("server_id", server),
                ("arguments", arguments),
            )
            if key not in drop
        },
        _SCOPES,
        _NAMES,
        _NAMES,
        json_values(8),
        st.sets(st.sampled_from(["scope", "tool_name", "server_id", "arguments"]), max_size=1),
    ),
    json_values(4),
)
"""Case inputs: the four fields (one sometimes missing) or any value."""


def _parsed(value: JSON) -> JSON:
    """``value`` as the server hands it to an operation: what ``from_str`` reads of its text."""
    return from_str(to_string_ordered(value))


@settings(max_examples=300)
@given(_INPUTS, st.sampled_from(_OPERATIONS))
def test_parsed_scope_operation_equals_general(raw: JSON, operation: str) -> None:
    """On any parsed input the served operation answers exactly as the general one."""
    value = _parsed(raw)
    served = parsed_input_operations()[operation](value)
    general = reference_operations()[operation](value)
    assert served == general
    assert repr(dict(served)) == repr(general)
    if isinstance(served, EncodedOutput):  # the text written for it is the object's text
        assert served.text == to_string(dict(served))
    op = parsed_input_operations()[operation]
    assert isinstance(op, TextOperation)  # what the server writes: the text alone, the same
    assert op.text(value) == to_string(general)
    line = to_string_ordered(
        {"cmd": "run", "seq": 9, "case": {"operation": operation, "input": raw}}
    )
    assert _served_line(line, parsed_input_operations()) == _served_line(
        line, reference_operations()
    )


def _served_line(line: str, table: Mapping[str, HarnessOperation]) -> bytes:
    out = io.BytesIO()
    serve([line.encode()], out, table)
    return out.getvalue()


@given(st.lists(grant_json(), min_size=1, max_size=4), st.sampled_from(_OPERATIONS))
def test_parsed_scope_operation_takes_the_fast_read(grants: list[JSON], operation: str) -> None:
    """Non-vacuity: a common input (decided constraints) is answered by the one-pass read,
    with the general operation's answer and response line."""
    arguments: JSON = {"path": "/a/b", "to": ["#ops"], "url": "https://files.example/x"}
    raw: JSON = {
        "scope": {"grants": grants},
        "tool_name": "read",
        "server_id": "files",
        "arguments": arguments,
    }
    line = to_string_ordered(
        {"cmd": "run", "seq": 3, "case": {"operation": operation, "input": raw}}
    )
    answers = []
    for table in (reference_operations(), parsed_input_operations()):
        out = io.BytesIO()
        serve([line.encode()], out, table)
        answers.append(out.getvalue())
    assert answers[0] == answers[1]
    assert b'"output":' in answers[0]
    # ... and without the general path: with _answer gone the served operation still answers.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_scope, "_answer", _no_general_path)
        served = parsed_input_operations()[operation](_parsed(raw))
    assert served == reference_operations()[operation](_parsed(raw))


def _no_general_path(*args: object) -> dict[str, JSON]:
    raise AssertionError("the general path was taken")


@given(
    st.lists(
        st.tuples(st.integers(0, 300), st.integers(0, 1), st.integers(0, 1), st.integers(0, 300)),
        max_size=4,
    )
)
def test_matches_text_is_what_serde_json_writes(ranks: list[tuple[int, int, int, int]]) -> None:
    """The text of a matches answer (one match written in one piece, small integers from a
    table, larger ones by ``str``) is serde_json's text of the same object, which equals the
    general writer's object."""
    from mcp_touchstone.scope._matcher import MatchedGrant
    from mcp_touchstone.scope._types import Operation, ToolGrant

    grant = ToolGrant("s", "t", (Operation.INVOKE,))
    found = tuple(MatchedGrant(i, grant, (s, t, c)) for i, s, t, c in ranks)
    output = _scope._matches_output(found)
    assert output == {"matches": [{"index": i, "specificity": [s, t, c]} for i, s, t, c in ranks]}
    assert output.text == to_string(dict(output)) == _scope._matches_text(found)


@given(
    st.sampled_from(["invalid_input", "constraint_error", "out_of_scope"]),
    st.one_of(
        st.none(),
        st.text(),
        st.sampled_from(["1e-07 e-0", '"\\\u2028\x00', "\ud800", "é\U0001f600"]),
    ),
)
def test_error_text_is_what_serde_json_writes(kind: str, message: str | None) -> None:
    """The text of an error answer (the message through json's escaper) is serde_json's text of
    the same object, surrogates and serde_json's float-exponent path included."""
    error: dict[str, JSON] = {"kind": kind}
    if message is not None:
        error["message"] = message
    assert _scope._error_text(kind, message) == to_string({"error": error})
    assert _scope._error_output(kind, message) == {"error": error}
