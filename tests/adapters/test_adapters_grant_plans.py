"""The per-scope grant plans (ADAPT-GRANT-5) answer as the general path does: the same verdict
and the same denial, for any scope, tool, server and arguments, on a first call (the plan made)
and on later ones (the plan kept), and across scopes evicted from the bounded cache."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.adapters._common import Denied, Granted, GrantPlans, decide_grant
from mcp_touchstone.scope import ChioScope, Operation, ToolGrant, decode_scope
from mcp_touchstone.serde_json import JSON
from tests.strategies.scope import constraint_json, grant_json, json_values

_TOOLS = st.sampled_from(["read", "send", "*", "other", "*x"])
_SERVERS = st.sampled_from(["files", "mail", "*x", "*"])
_UNREADABLE: list[object] = [
    {"n": 2**70},
    {"s": "\ud800"},
    [math.nan],
    {1: "non-string key"},
    {"set": {1, 2}},
    set(),
    0,
    "",
    [],
    None,
]
_ARGUMENTS = st.one_of(st.just({}), json_values(), st.sampled_from(_UNREADABLE))
_GRANTS: st.SearchStrategy[list[dict[str, JSON]]] = st.lists(
    st.one_of(
        grant_json().map(lambda g: {**g, "constraints": []}),
        grant_json(constraints=constraint_json()),
    ),
    max_size=4,
)


def _scope(grants: list[dict[str, JSON]]) -> ChioScope:
    items: list[JSON] = [*grants]
    return decode_scope({"grants": items})


_SCOPES: st.SearchStrategy[ChioScope | None] = st.one_of(st.none(), _GRANTS.map(_scope))
_SHARED = GrantPlans(limit=3)
"""Shared across examples with tiny limits, so scopes are evicted and plans left unkept."""


def _same(plans: GrantPlans, scope: ChioScope | None, tool: str, server: str, args: object) -> None:
    general = decide_grant(scope, tool, server, args)  # type: ignore[arg-type]  # unreadable too
    fast = plans.decide(scope, tool, server, args)  # type: ignore[arg-type]
    assert fast == general
    assert type(fast) is type(general)


@given(_SCOPES, _TOOLS, _SERVERS, st.lists(_ARGUMENTS, min_size=1, max_size=3))
def test_plans_answer_as_decide_grant(
    scope: ChioScope | None, tool: str, server: str, calls: list[object]
) -> None:
    """GrantPlans.decide equals decide_grant on every call, the plan's first use and after."""
    fresh = GrantPlans()
    for arguments in calls:
        _same(fresh, scope, tool, server, arguments)
        _same(_SHARED, scope, tool, server, arguments)


@given(_GRANTS, _TOOLS, _SERVERS, _ARGUMENTS)
def test_an_equal_scope_built_again_answers_the_same(
    grants: list[dict[str, JSON]], tool: str, server: str, arguments: object
) -> None:
    """A scope decoded again (an equal value, another object) gets the same answer as the
    first, whichever object the cache holds."""
    plans = GrantPlans()
    first, again = _scope(grants), _scope(grants)
    _same(plans, first, tool, server, arguments)
    _same(plans, again, tool, server, arguments)


def test_a_scope_not_built_of_tuples_takes_the_general_path() -> None:
    """A scope whose grants are a list (not the decoder's tuple) is matched afresh on every
    call: a change to the list shows in the next answer."""
    grants = [ToolGrant("s", "t", (Operation.INVOKE,))]
    scope = ChioScope(grants)  # type: ignore[arg-type]  # a list, on purpose
    plans = GrantPlans()
    assert isinstance(plans.decide(scope, "t", "s", {}), Granted)
    grants.clear()
    assert isinstance(plans.decide(scope, "t", "s", {}), Denied)
    assert plans.decide(scope, "t", "s", {}) == decide_grant(scope, "t", "s", {})


def test_unreadable_arguments_deny_before_an_unconstrained_grant() -> None:
    """Unreadable arguments deny with the matcher's reason even where an unconstrained wildcard
    grant would cover the call (the serde_json check comes first, as in the matcher)."""
    scope = decode_scope(
        {"grants": [{"server_id": "*", "tool_name": "*", "operations": ["invoke"]}]}
    )
    plans = GrantPlans()
    assert isinstance(plans.decide(scope, "t", "s", {}), Granted)
    refused = plans.decide(scope, "t", "s", {"n": 2**70})
    assert isinstance(refused, Denied)
    assert refused == decide_grant(scope, "t", "s", {"n": 2**70})
    assert "out of i64/u64 range" in refused.reason
