"""Hypothesis properties of the hosted matcher, and the scope.hosted_match harness operation."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.harness import reference_operations
from mcp_touchstone.scope import (
    ConstraintError,
    InvalidConstraint,
    decode_scope,
    resolve_hosted_matching_grants,
    resolve_matching_grants,
)
from mcp_touchstone.scope._matcher import grant_targets, specificity
from mcp_touchstone.serde_json import JSON
from tests.scope._helpers import con, grant
from tests.strategies.scope import decided_constraint_json, grant_json, json_values
from tests.strategies.scope_hosted import (
    drop_constraint_json,
    hosted_constraint_json,
    model_metadata_json,
    pass_constraint_json,
)

_TOOLS = st.sampled_from(["read", "send", "*"])
_SERVERS = st.sampled_from(["files", "mail", "*"])


def _op(raw: JSON) -> dict[str, JSON]:
    return reference_operations()["scope.hosted_match"](raw)


@given(st.lists(grant_json(decided_constraint_json()), max_size=4), _TOOLS, _SERVERS, json_values())
def test_hosted_agrees_with_portable_on_portable_variants(
    grants: list[JSON], tool: str, server: str, args: JSON
) -> None:
    """SCOPE-HOSTED-CON-1: on grants carrying only the 8 portable variants, both profiles give
    the same ranked list."""
    sc = decode_scope({"grants": grants})
    portable = resolve_matching_grants(sc, tool, server, args)
    assert not isinstance(portable, ConstraintError)
    hosted = resolve_hosted_matching_grants(sc, tool, server, args)
    assert hosted == portable


@given(
    st.lists(grant_json(pass_constraint_json()), min_size=1, max_size=4),
    _TOOLS,
    _SERVERS,
    json_values(),
)
def test_pass_only_grants_match_whenever_their_target_matches(
    grants: list[JSON], tool: str, server: str, args: JSON
) -> None:
    """SCOPE-HOSTED-CON-2: a grant whose constraints are all Ok(true)-variants matches exactly
    when the target test does, ranked by the portable tuple."""
    sc = decode_scope({"grants": grants})
    found = resolve_hosted_matching_grants(sc, tool, server, args)
    assert isinstance(found, tuple)
    expected = {i for i, g in enumerate(sc.grants) if grant_targets(g, tool, server)}
    assert {m.index for m in found} == expected
    for m in found:
        assert m.specificity == specificity(m.grant, tool, server)


@given(
    st.lists(pass_constraint_json() | decided_constraint_json(), max_size=2),
    drop_constraint_json(),
    st.lists(pass_constraint_json() | decided_constraint_json(), max_size=2),
    json_values(),
    model_metadata_json(),
)
def test_a_dropped_variant_never_matches(
    before: list[JSON], drop: JSON, after: list[JSON], args: JSON, meta: JSON
) -> None:
    """SCOPE-HOSTED-CON-3: a grant carrying an Ok(false) variant never matches, whatever its
    value, its neighbours or the arguments; a */* sibling still does."""
    raw: JSON = {
        "scope": {"grants": [grant("files", "read", [*before, drop, *after]), grant("*", "*")]},
        "tool_name": "read",
        "server_id": "files",
        "arguments": args,
        "model_metadata": meta,
    }
    assert _op(raw) == {"matches": [{"index": 1, "specificity": [0, 0, 0]}]}


@given(
    st.lists(
        grant_json(
            st.one_of(decided_constraint_json(), pass_constraint_json(), hosted_constraint_json())
        ),
        max_size=4,
    ),
    _TOOLS,
    _SERVERS,
    json_values(),
    model_metadata_json(),
)
def test_hosted_match_is_total_and_well_shaped(
    grants: list[JSON], tool: str, server: str, args: JSON, meta: JSON
) -> None:
    """SCOPE-HOSTED-WIRE-1: the operation answers ranked matches whose specificity is the
    portable tuple, in descending order with ascending index among ties."""
    out = _op(
        {"scope": {"grants": grants}, "tool_name": tool, "server_id": server, "arguments": args,
         "model_metadata": meta}
    )  # fmt: skip
    assert set(out) == {"matches"}
    matches = out["matches"]
    assert isinstance(matches, list)
    keys = [(tuple(m["specificity"]), m["index"]) for m in matches]  # type: ignore[index,call-overload,arg-type]
    assert keys == sorted(keys, key=lambda k: (tuple(-x for x in k[0]), k[1]))


@given(
    st.lists(
        grant_json(st.one_of(decided_constraint_json(), hosted_constraint_json())), max_size=3
    ),
    json_values(),
    st.sampled_from(["(", "(?=x)", r"(a)\1", "a{1000}{1000}"]),
)
def test_bad_pattern_matters_only_on_a_reached_target(
    grants: list[JSON], args: JSON, bad: str
) -> None:
    """SCOPE-HOSTED-RES-1, SCOPE-HOSTED-RX-2: a pattern the crate refuses, appended on another
    server's grant, never changes the answer; appended on a target grant it always is the answer."""
    base = resolve_hosted_matching_grants(decode_scope({"grants": grants}), "read", "files", args)
    elsewhere = [*grants, grant("mail", "read", [con("regex_match", bad)])]
    assert (
        resolve_hosted_matching_grants(decode_scope({"grants": elsewhere}), "read", "files", args)
        == base
    )
    if isinstance(base, InvalidConstraint):
        return
    targeted = [*grants, grant("*", "read", [con("memory_write_deny_patterns", [bad])])]
    found = resolve_hosted_matching_grants(
        decode_scope({"grants": targeted}), "read", "files", args
    )
    assert isinstance(found, InvalidConstraint)
    assert found.message.startswith(
        f'invalid capability constraint: memory write deny pattern "{bad}" failed to compile: '
    )


# ----------------------------------------------------------------- the harness operation


def _input(**over: JSON) -> dict[str, JSON]:
    base: dict[str, JSON] = {
        "scope": {"grants": [grant("files", "read")]},
        "tool_name": "read",
        "server_id": "files",
        "arguments": {},
    }
    base.update(over)
    return base


def test_hosted_match_shapes() -> None:
    """SCOPE-HOSTED-WIRE-1: matches, empty matches, and invalid_constraint with the full text."""
    assert _op(_input()) == {"matches": [{"index": 0, "specificity": [1, 1, 0]}]}
    assert _op(_input(tool_name="other")) == {"matches": []}
    bad = _op(_input(scope={"grants": [grant("files", "read", [con("regex_match", "(")])]}))
    error = bad["error"]
    assert isinstance(error, dict)
    assert error["kind"] == "invalid_constraint"
    assert str(error["message"]).startswith(
        'invalid capability constraint: regex "(" failed to compile: regex parse error:'
    )


def test_hosted_match_model_metadata_decoding() -> None:
    """SCOPE-HOSTED-WIRE-2: model_metadata absent, null, full, positional; unknown keys ignored."""
    sc: JSON = {
        "grants": [
            grant("files", "read", [con("model_constraint", {"allowed_model_ids": ["m1"],
                                                             "min_safety_tier": "high"})])
        ]
    }  # fmt: skip
    hit = {"matches": [{"index": 0, "specificity": [1, 1, 1]}]}
    assert _op(_input(scope=sc)) == {"matches": []}
    assert _op(_input(scope=sc, model_metadata=None)) == {"matches": []}
    full: JSON = {"model_id": "m1", "safety_tier": "restricted", "provider": "p", "extra": [1]}
    assert _op(_input(scope=sc, model_metadata=full)) == hit
    assert _op(_input(scope=sc, model_metadata=["m1", "high"])) == hit
    assert _op(_input(scope=sc, model_metadata={"model_id": "m1", "safety_tier": None})) == {
        "matches": []
    }
    with_class: JSON = {"model_id": "m1", "safety_tier": "high", "provenance_class": "verified"}
    assert _op(_input(scope=sc, model_metadata=with_class)) == hit


def test_hosted_match_invalid_input() -> None:
    """SCOPE-HOSTED-WIRE-2: bad input is invalid_input naming the place, never raised."""
    bad_inputs: list[JSON] = [
        None,
        [],
        {"scope": {}},
        _input(scope=None),
        _input(tool_name=1),
        _input(server_id=None),
        _input(model_metadata=5),
        _input(model_metadata={}),
        _input(model_metadata={"model_id": 7}),
        _input(model_metadata={"model_id": "m", "safety_tier": "High"}),
        _input(model_metadata={"model_id": "m", "provider": 1}),
        _input(model_metadata={"model_id": "m", "provenance_class": None}),
        _input(model_metadata={"model_id": "m", "provenance_class": "inferred"}),
        _input(arguments=float("nan")),
        _input(scope={"grants": [grant("files", "read", [con("regex_match", 5)])]}),
    ]
    for raw in bad_inputs:
        out = _op(raw)
        error = out.get("error")
        assert isinstance(error, dict), raw
        assert error["kind"] == "invalid_input", raw
        assert isinstance(error["message"], str)
        assert error["message"]
