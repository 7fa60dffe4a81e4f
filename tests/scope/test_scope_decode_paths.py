"""The scope decoder against hand-stated expectations (SCOPE-SHAPE-*).

Every well-formed plain scope is compared field by field with what its JSON says, and then
rewritten in the other forms serde accepts (a monetary amount added, operations written as
maps, grants in serde's sequence form), which must decode to the same grants.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.scope import ScopeDecodeError, decode_constraint, decode_scope
from mcp_touchstone.scope._decode_forms import Where, place_text
from mcp_touchstone.scope._types import (
    ChioScope,
    MonetaryAmount,
    Operation,
    PromptGrant,
    ResourceGrant,
    ToolGrant,
)
from mcp_touchstone.serde_json import JSON
from tests.strategies.scope import decided_constraint_json, refused_constraint_json

_OPERATION_NAMES = ["invoke", "read_result", "read", "subscribe", "get", "delegate"]
_OPERATIONS = st.lists(st.sampled_from(_OPERATION_NAMES), max_size=4)
_NAMES = st.sampled_from(["*", "files", "mail", "", "é", "a b"])
_CONSTRAINTS = st.lists(
    st.one_of(decided_constraint_json(), refused_constraint_json().map(lambda tc: tc[1])),
    max_size=3,
)


@st.composite
def _plain_grant(draw: st.DrawFn) -> dict[str, JSON]:
    """A well-formed tool grant in the plain map form, optional fields present or not."""
    grant: dict[str, JSON] = {
        "server_id": draw(_NAMES),
        "tool_name": draw(_NAMES),
        "operations": list(draw(_OPERATIONS)),
    }
    if draw(st.booleans()):
        grant["constraints"] = draw(_CONSTRAINTS)
    if draw(st.booleans()):
        grant["max_invocations"] = draw(st.one_of(st.none(), st.integers(0, (1 << 32) - 1)))
    if draw(st.booleans()):
        grant["dpop_required"] = draw(st.one_of(st.none(), st.booleans()))
    return grant


def _named(key: str) -> st.SearchStrategy[list[dict[str, JSON]]]:
    return st.lists(
        st.builds(lambda n, ops: {key: n, "operations": list(ops)}, _NAMES, _OPERATIONS),
        max_size=2,
    )


_PLAIN_SCOPES = st.fixed_dictionaries(
    {},
    optional={
        "grants": st.lists(_plain_grant(), max_size=3),
        "resource_grants": _named("uri_pattern"),
        "prompt_grants": _named("prompt_name"),
    },
)
"""Well-formed scopes in the plain map shapes, each optional field present or absent."""


def _ops(value: Any) -> tuple[Operation, ...]:
    return tuple(Operation(name) for name in value)


def _same_grant(got: ToolGrant, grant: dict[str, Any]) -> None:
    assert got.server_id == grant["server_id"]
    assert got.tool_name == grant["tool_name"]
    assert got.operations == _ops(grant["operations"])
    assert len(got.constraints) == len(grant.get("constraints", []))
    for constraint, raw in zip(got.constraints, grant.get("constraints", []), strict=True):
        assert constraint.KIND.value == raw["type"]
    assert repr(got.max_invocations) == repr(grant.get("max_invocations"))
    assert repr(got.dpop_required) == repr(grant.get("dpop_required"))


def _check_plain(scope: ChioScope, value: dict[str, Any]) -> None:
    grants = value.get("grants", [])
    assert len(scope.grants) == len(grants)
    for got, grant in zip(scope.grants, grants, strict=True):
        _same_grant(got, grant)
        assert got.max_cost_per_invocation is None
        assert got.max_total_cost is None
    assert scope.resource_grants == tuple(
        ResourceGrant(g["uri_pattern"], _ops(g["operations"]))
        for g in value.get("resource_grants", [])
    )
    assert scope.prompt_grants == tuple(
        PromptGrant(g["prompt_name"], _ops(g["operations"])) for g in value.get("prompt_grants", [])
    )


@given(_PLAIN_SCOPES)
def test_plain_scopes_decode_to_what_their_json_says(value: dict[str, Any]) -> None:
    """SCOPE-SHAPE-1, SCOPE-SHAPE-2: a well-formed plain scope decodes field for field to what
    its JSON says: patterns, operations in order, each constraint's tag, the optional fields."""
    _check_plain(decode_scope(value), value)


@given(_PLAIN_SCOPES, st.integers(0, 1 << 40), st.sampled_from(["USD", "EUR", ""]))
def test_a_monetary_amount_changes_only_its_own_field(
    value: dict[str, Any], units: int, currency: str
) -> None:
    """SCOPE-SHAPE-2: adding ``max_cost_per_invocation`` and ``max_total_cost`` to every grant
    decodes every other field as before."""
    money = {"units": units, "currency": currency}
    priced = {
        **value,
        "grants": [
            {**g, "max_cost_per_invocation": money, "max_total_cost": money}
            for g in value.get("grants", [])
        ],
    }
    scope = decode_scope(priced)
    for got, grant in zip(scope.grants, priced["grants"], strict=True):
        _same_grant(got, grant)
        assert got.max_cost_per_invocation == MonetaryAmount(units, currency)
        assert got.max_total_cost == MonetaryAmount(units, currency)
    plain = decode_scope(value)
    assert scope.resource_grants == plain.resource_grants
    assert scope.prompt_grants == plain.prompt_grants


@given(_PLAIN_SCOPES)
def test_operations_written_as_maps_are_the_same_operations(value: dict[str, Any]) -> None:
    """serde reads a unit variant written ``{"name": null}`` as the bare name: a scope whose
    every operation is written so decodes to the same scope (SCOPE-SHAPE-3)."""

    def as_maps(ops: list[str]) -> list[JSON]:
        return [{name: None} for name in ops]

    mapped: dict[str, Any] = {
        key: [{**g, "operations": as_maps(g["operations"])} for g in grants]
        for key, grants in value.items()
    }
    assert decode_scope(mapped) == decode_scope(value)
    assert repr(decode_scope(mapped)) == repr(decode_scope(value))


@given(_PLAIN_SCOPES)
def test_grants_in_sequence_form_are_the_same_grants(value: dict[str, Any]) -> None:
    """serde reads a struct from a sequence of its fields in declaration order (ToolGrant:
    server_id, tool_name, operations, constraints, max_invocations, max_cost_per_invocation,
    max_total_cost, dpop_required); every grant so written is the same (SCOPE-SHAPE-1)."""

    def as_sequence(g: dict[str, Any]) -> list[JSON]:
        return [
            g["server_id"],
            g["tool_name"],
            g["operations"],
            g.get("constraints", []),
            g.get("max_invocations"),
            None,
            None,
            g.get("dpop_required"),
        ]

    sequenced = {**value, "grants": [as_sequence(g) for g in value.get("grants", [])]}
    got = decode_scope(sequenced)
    assert got == decode_scope({**value, "grants": value.get("grants", [])})
    assert repr(got) == repr(decode_scope({**value, "grants": value.get("grants", [])}))


_MONEY: dict[str, JSON] = {"units": 1, "currency": "USD"}
_GRANT_REFUSALS: list[tuple[str, JSON, str]] = [
    ("max_invocations", True, "max_invocations: invalid type: boolean `true`, expected u32"),
    ("max_invocations", -1, "max_invocations: invalid value: integer `-1`, expected u32"),
    (
        "max_invocations",
        1 << 32,
        "max_invocations: invalid value: integer `4294967296`, expected u32",
    ),
    ("max_invocations", 2.0, "max_invocations: invalid type: floating point `2.0`, expected u32"),
    ("dpop_required", "true", 'dpop_required: invalid type: string "true", expected a boolean'),
    ("dpop_required", 0, "dpop_required: invalid type: integer `0`, expected a boolean"),
    ("server_id", 5, "server_id: invalid type: integer `5`, expected a string"),
    ("tool_name", None, "tool_name: invalid type: null, expected a string"),
    ("operations", "invoke", 'operations: invalid type: string "invoke", expected a sequence'),
    ("constraints", None, "constraints: invalid type: null, expected a sequence"),
    (
        "max_total_cost",
        {"units": True, "currency": "USD"},
        "max_total_cost.units: invalid type: boolean `true`, expected u64",
    ),
    (
        "max_total_cost",
        {**_MONEY, "x": 1},
        "max_total_cost: unknown field `x`, expected `units` or `currency`",
    ),
    ("max_total_cost", {"units": 1}, "max_total_cost: missing field `currency`"),
    (
        "max_total_cost",
        "USD",
        'max_total_cost: invalid type: string "USD", expected struct MonetaryAmount',
    ),
]
"""A grant field given a wrong value, and serde's message for it (reference notes, chio.md)."""


def test_grant_field_refusals_are_worded_as_serde_words_them() -> None:
    """SCOPE-SHAPE-2: each wrong grant field is refused with serde's whole message at its place,
    whether the grant is otherwise plain or carries a monetary amount."""
    for field, bad, message in _GRANT_REFUSALS:
        base: dict[str, JSON] = {"server_id": "s", "tool_name": "t", "operations": ["invoke"]}
        for extra in ({}, {"max_cost_per_invocation": _MONEY}):
            grant: dict[str, JSON] = {**base, **extra, field: bad}
            with pytest.raises(ScopeDecodeError) as exc:
                decode_scope({"grants": [grant]})
            assert str(exc.value) == f"scope.grants[0].{message}", (field, bad, extra)


_CONSTRAINT_REFUSALS: list[tuple[JSON, str]] = [
    (
        {"type": "require_approval_above", "value": "x"},
        '.value: invalid type: string "x", expected struct variant '
        "Constraint::RequireApprovalAbove",
    ),
    (
        {"type": "require_approval_above", "value": None},
        ".value: invalid type: null, expected struct variant Constraint::RequireApprovalAbove",
    ),
    ([5, 3], "[0]: invalid type: integer `5`, expected variant identifier"),
    ([{"max_length": None}, 3], "[0]: invalid type: map, expected variant identifier"),
    ({"type": 5, "value": 3}, ".type: invalid type: integer `5`, expected string or map"),
    (
        {"type": {"max_length": 5}, "value": 3},
        ".type.max_length: invalid type: integer `5`, expected unit",
    ),
    (
        {"type": {"max_length": []}, "value": 3},
        ".type.max_length: invalid type: sequence, expected unit",
    ),
    (
        {"type": {"max_length": None, "x": None}, "value": 3},
        ".type: invalid value: map, expected map with a single key",
    ),
]
"""A constraint refused by serde's derived decoders, and the whole message after the place.

serde 1.0.228 (Chio's lock): a struct variant's visitor expects ``struct variant E::V``; the
array form's tag is the derived ``__Field`` (``variant identifier``); in the map form the tag
goes through ``AdjacentlyTaggedEnumVariantSeed`` (``private/de.rs``), i.e. ``deserialize_enum``
then ``VariantAccess::unit_variant``, which serde_json 1.0.149 (``value/de.rs``) answers by
deserializing ``()`` from the map's value, and ``()``'s visitor expects ``unit``
(``serde_core/src/de/impls.rs``); a non-map, non-string tag is ``string or map`` there."""


def test_constraint_refusals_are_serdes_whole_messages() -> None:
    """SCOPE-SHAPE-4: each malformed constraint is refused with serde's whole message, on its
    own and inside a grant."""
    for value, message in _CONSTRAINT_REFUSALS:
        with pytest.raises(ScopeDecodeError) as exc:
            decode_constraint(value)
        assert str(exc.value) == f"constraint{message}", value
        with pytest.raises(ScopeDecodeError) as exc:
            decode_scope({"grants": [{"server_id": "s", "tool_name": "t", "operations": [],
                                      "constraints": [value]}]})  # fmt: skip
        assert str(exc.value) == f"scope.grants[0].constraints[0]{message}", value


def test_resource_and_prompt_grants_decode_to_the_grants_their_json_names() -> None:
    """SCOPE-SHAPE-1: a scope with resource and prompt grants builds the grants its JSON names."""
    value: JSON = {
        "resource_grants": [{"uri_pattern": "file:///*", "operations": ["read", "subscribe"]}],
        "prompt_grants": [{"prompt_name": "p", "operations": ["get"]}],
    }
    scope = decode_scope(value)
    assert scope.resource_grants == (
        ResourceGrant("file:///*", (Operation.READ, Operation.SUBSCRIBE)),
    )
    assert scope.prompt_grants == (PromptGrant("p", (Operation.GET,)),)
    assert scope.grants == ()


_CONTENT_EXPECTED: dict[str, str] = {
    **dict.fromkeys(
        ["path_prefix", "domain_exact", "domain_glob", "regex_match", "seller_exact"], "a string"
    ),
    "max_transaction_amount_usd": "a string",
    "max_length": "usize",
    "max_args_size": "usize",
    "max_rows_returned": "u64",
    **dict.fromkeys(
        [
            "table_allowlist",
            "column_denylist",
            "audience_allowlist",
            "memory_store_allowlist",
            "memory_write_deny_patterns",
        ],
        "a sequence",
    ),
    "require_dual_approval": "a boolean",
    "minimum_runtime_assurance": "string or map (RuntimeAssuranceTier)",
    "minimum_autonomy_tier": "string or map (GovernedAutonomyTier)",
    "operation_class": "string or map (SqlOperationClass)",
    "content_review_tier": "string or map (ContentReviewTier)",
    "require_approval_above": "struct variant Constraint::RequireApprovalAbove",
    "require_cumulative_approval_above": (
        "struct variant Constraint::RequireCumulativeApprovalAbove"
    ),
    "model_constraint": "struct variant Constraint::ModelConstraint",
    "custom": "tuple variant Constraint::Custom",
    "governed_intent_required": "unit variant Constraint::GovernedIntentRequired",
}
"""What each of the 24 variants' content must be, in serde's words: the newtype's inner type
(Chio's ``Constraint``: ``String``, ``usize``, ``u64``, ``Vec<String>``, ``bool``, a unit enum
named after its Rust type), or the derived visitor of a struct, tuple or unit variant."""


def test_every_variant_refuses_wrong_content_in_serdes_words() -> None:
    """SCOPE-SHAPE-5: each of the 24 constraint tags, given content of the wrong JSON type, is
    refused with the message naming what its content must be, alone and inside a grant."""
    from mcp_touchstone.scope._types import ConstraintKind

    assert set(_CONTENT_EXPECTED) == {kind.value for kind in ConstraintKind}
    for tag, expected in _CONTENT_EXPECTED.items():
        bad: JSON = "x" if expected in ("a boolean", "usize", "u64") else True
        shown = 'string "x"' if bad == "x" else "boolean `true`"
        message = f".value: invalid type: {shown}, expected {expected}"
        constraint: JSON = {"type": tag, "value": bad}
        with pytest.raises(ScopeDecodeError) as exc:
            decode_constraint(constraint)
        assert str(exc.value) == f"constraint{message}", tag
        with pytest.raises(ScopeDecodeError) as exc:
            decode_scope({"grants": [{"server_id": "s", "tool_name": "t", "operations": [],
                                      "constraints": [constraint]}]})  # fmt: skip
        assert str(exc.value) == f"scope.grants[0].constraints[0]{message}", tag


def test_a_unit_enum_in_map_form_with_a_value_expects_unit() -> None:
    """A unit-only enum (``Operation``, the value enums) written as a single-key map whose value
    is not null is refused as serde words it: the derived ``visit_enum`` calls
    ``VariantAccess::unit_variant``, which serde_json 1.0.149 answers by deserializing ``()``
    from the value, whose visitor expects ``unit`` (serde_core 1.0.228, ``de/impls.rs``)."""
    cases: list[tuple[JSON, str]] = [
        (
            {"grants": [{"server_id": "s", "tool_name": "t", "operations": [{"invoke": 5}]}]},
            "scope.grants[0].operations[0].invoke: invalid type: integer `5`, expected unit",
        ),
        (
            {"resource_grants": [{"uri_pattern": "u", "operations": [{"read": []}]}]},
            "scope.resource_grants[0].operations[0].read: invalid type: sequence, expected unit",
        ),
        (
            {
                "grants": [
                    {
                        "server_id": "s",
                        "tool_name": "t",
                        "operations": [],
                        "constraints": [
                            {"type": "minimum_runtime_assurance", "value": {"basic": True}}
                        ],
                    }
                ]
            },
            "scope.grants[0].constraints[0].value.basic: invalid type: boolean `true`, "
            "expected unit",
        ),
    ]
    for value, message in cases:
        with pytest.raises(ScopeDecodeError) as exc:
            decode_scope(value)
        assert str(exc.value) == message


def test_shape_refusals_name_the_enum_and_the_length() -> None:
    """An operation that is neither a string nor a map names the enum ``Operation`` (the unit
    enums' wording here), and an empty array is not an adjacently tagged ``Constraint``
    (serde's ``invalid length 0``; the reference notes give length 1's)."""
    with pytest.raises(ScopeDecodeError) as exc:
        decode_scope({"grants": [{"server_id": "s", "tool_name": "t", "operations": [5]}]})
    assert str(exc.value) == (
        "scope.grants[0].operations[0]: invalid type: integer `5`, expected string or map "
        "(Operation)"
    )
    lengths: list[tuple[JSON, int]] = [([], 0), (["max_length"], 1)]
    for value, length in lengths:
        with pytest.raises(ScopeDecodeError) as exc:
            decode_constraint(value)
        assert str(exc.value) == (
            f"constraint: invalid length {length}, expected adjacently tagged enum Constraint"
        )


@given(
    root=st.sampled_from(["scope", "grant", "model_metadata"]),
    steps=st.lists(
        st.one_of(st.integers(min_value=0, max_value=10_000), st.sampled_from([".grants", ".x"])),
        max_size=6,
    ),
)
def test_a_lazy_place_reads_as_the_text_it_stands_for(root: str, steps: list[int | str]) -> None:
    """A place passed down as ``(parent, step)`` pairs writes out as the eagerly built text."""
    place: Where = root
    eager = root
    for step in steps:
        place = (place, step)
        eager = f"{eager}[{step}]" if isinstance(step, int) else f"{eager}{step}"
    assert place_text(place) == eager
    assert ScopeDecodeError(place, "bad").where == eager
    assert str(ScopeDecodeError(place, "bad")) == f"{eager}: bad"


def test_a_deep_refusal_names_its_whole_place() -> None:
    """An error three levels down names every step to it, indices and fields alike."""
    good: JSON = {"server_id": "s", "tool_name": "t", "operations": ["invoke"]}
    bad: JSON = {"server_id": "s", "tool_name": "t", "operations": [7]}
    scope: JSON = {"grants": [good, good, bad]}
    with pytest.raises(ScopeDecodeError) as info:
        decode_scope(scope)
    assert info.value.where == "scope.grants[2].operations[0]"
    with pytest.raises(ScopeDecodeError) as info:
        decode_constraint(["custom", ["k", 3]])
    assert info.value.where == "constraint[1][1]"
