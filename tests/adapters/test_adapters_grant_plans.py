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


_WILDCARD: dict[str, JSON] = {"server_id": "*", "tool_name": "*", "operations": ["invoke"]}


@given(
    st.lists(_GRANTS.map(lambda g: _scope([*g, _WILDCARD])), min_size=1, max_size=2),
    st.lists(_GRANTS.map(_scope), max_size=2),
    st.lists(
        st.tuples(
            st.sampled_from([0, 0, 0, 1, 2, 3]),  # mostly the same scope again
            st.sampled_from(["read", "send", "*x"]),
            st.sampled_from(["files", "*"]),
            st.one_of(st.none(), st.just({}), _ARGUMENTS),
        ),
        min_size=1,
        max_size=20,
    ),
)
def test_covered_tools_answer_as_decide_grant(
    wide: list[ChioScope], others: list[ChioScope], calls: list[tuple[int, str, str, object]]
) -> None:
    """Whenever GrantPlans.covers answers a call granted (the test protect() writes out), the
    general path grants it too, through scope and server changes and a tiny bound; decide
    keeps answering as decide_grant (``None`` arguments standing for ``{}``)."""
    scopes = [*wide, *others]  # the first ones also hold a wildcard grant: covered calls occur
    plans = GrantPlans(limit=2)
    for index, tool, server, arguments in calls:
        scope = scopes[index % len(scopes)]
        args = {} if arguments is None else arguments
        if plans.covers(scope, tool, server, arguments):
            assert decide_grant(scope, tool, server, args) == Granted()  # type: ignore[arg-type]
        _same(plans, scope, tool, server, args)


def test_covered_tools_are_kept_for_the_last_scope_only() -> None:
    """A granted call on an unconstrained plan is then covered for that scope, server and
    ``{}``/absent arguments only; another scope or server replaces what is kept, and the kept
    tools never exceed the bound."""
    one, two = _scope([_WILDCARD]), _scope([_WILDCARD])
    plans = GrantPlans(limit=2)
    assert not plans.covers(one, "t", "s", {})
    assert isinstance(plans.decide(one, "t", "s", {}), Granted)
    assert plans.covers(one, "t", "s", {})
    assert plans.covers(one, "t", "s", None)
    assert not plans.covers(one, "t", "s", {"x": 1})
    assert not plans.covers(two, "t", "s", {})  # an equal scope, another object
    assert not plans.covers(one, "t", "other", {})
    assert not plans.covers(one, "u", "s", {})
    plans.decide(two, "t", "s", {})
    assert plans.covers(two, "t", "s", {})
    assert not plans.covers(one, "t", "s", {})
    for tool in ("a", "b", "c", "d"):
        plans.decide(two, tool, "s", {})
        assert len(plans.covered_tools) <= 2
        assert plans.covers(two, tool, "s", {})


def test_constrained_and_out_of_scope_plans_are_never_covered() -> None:
    """Neither a tool whose targeting grant carries a constraint nor one no grant targets
    is ever kept as covered, whatever the answer of the call."""
    scope = decode_scope(
        {
            "grants": [
                {"server_id": "*", "tool_name": "read", "operations": ["invoke"]},
                {
                    "server_id": "*",
                    "tool_name": "send",
                    "operations": ["invoke"],
                    "constraints": [{"type": "max_args_size", "value": 400}],
                },
            ]
        }
    )
    plans = GrantPlans()
    assert isinstance(plans.decide(scope, "send", "s", {}), Granted)
    assert isinstance(plans.decide(scope, "other", "s", {}), Denied)
    assert isinstance(plans.decide(scope, "read", "s", {}), Granted)
    assert plans.covered_tools == {"read"}
