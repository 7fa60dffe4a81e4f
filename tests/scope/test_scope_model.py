"""Differential test: the optimized matcher against the naive model of ``tests/scope/_naive.py``
(written the upstream way: one fresh walk of the arguments per constraint)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_touchstone.scope import ChioScope, ConstraintError, decode_scope, resolve_matching_grants
from mcp_touchstone.serde_json import JSON
from tests.scope import _naive
from tests.strategies.scope import constraint_json, grant_json, json_values


def _ours(scope: ChioScope, tool: str, server: str, args: JSON) -> object:
    result = resolve_matching_grants(scope, tool, server, args)
    if isinstance(result, ConstraintError):
        return ("error", result.message.removeprefix("portable kernel cannot safely evaluate "))
    return [(m.index, m.specificity) for m in result]


_cases = st.tuples(
    st.lists(grant_json(constraint_json()), max_size=5),
    st.sampled_from(["read", "send", "*"]),
    st.sampled_from(["files", "mail", "*"]),
    json_values(25),
)


def _check(case: tuple[list[dict[str, JSON]], str, str, JSON]) -> None:
    grants, tool, server, args = case
    grants_json: list[JSON] = list(grants)
    scope = decode_scope({"grants": grants_json})
    assert _ours(scope, tool, server, args) == _naive.resolve(scope, tool, server, args)


@settings(max_examples=150, deadline=None)
@given(_cases)
def test_matcher_equals_naive_model(case: tuple[list[dict[str, JSON]], str, str, JSON]) -> None:
    """Resolution equals the naive per-constraint model on random scopes (SCOPE-ARG-3)."""
    _check(case)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(_cases)
def test_matcher_equals_naive_model_long(
    case: tuple[list[dict[str, JSON]], str, str, JSON],
) -> None:
    """The same differential check with a 3000-example budget (SCOPE-ARG-3)."""
    _check(case)
