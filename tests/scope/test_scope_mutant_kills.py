"""Tests added to kill surviving mutants of `make mutants` (docs/assurance.md, "Survivors")."""

from __future__ import annotations

import pytest

from mcp_touchstone.scope import (
    HOSTED_BEHAVIOUR,
    AgUiEvent,
    ArgumentFacts,
    ConstraintError,
    EventClassification,
    HostedBehaviour,
    InvalidEventError,
    OutOfScope,
    ScopeDecodeError,
    TargetComponent,
    constraint_matches,
    decode_constraint,
    decode_scope,
)
from mcp_touchstone.scope._agui import validate_event_boundary
from mcp_touchstone.scope._arguments import path_has_prefix
from mcp_touchstone.scope._regex import compile_rust_regex
from mcp_touchstone.serde_json import JSON

HB = HostedBehaviour


def test_hosted_behaviour_values_are_the_public_labels() -> None:
    """The public ``HostedBehaviour`` labels are ``decided``/``ok_true``/``ok_false`` and the
    table gives 11 / 10 / 3 variants (kills scope/_hosted.py:113 "decided")."""
    assert [b.value for b in HostedBehaviour] == ["decided", "ok_true", "ok_false"]
    counts = {b: sum(1 for v in HOSTED_BEHAVIOUR.values() if v is b) for b in HB}
    assert counts == {HB.DECIDED: 11, HB.ENFORCED_LATER: 10, HB.DROPPED: 3}


def test_out_of_scope_is_a_hashable_value() -> None:
    """``OutOfScope`` is a frozen value: hashable and equal to any other (kills
    scope/_matcher.py:65 frozen=True -> False, which would make it unhashable)."""
    assert hash(OutOfScope()) == hash(OutOfScope())
    assert {OutOfScope(), OutOfScope()} == {OutOfScope()}


def test_path_has_prefix_answers_a_bool_both_ways() -> None:
    """``path_has_prefix`` is ``True`` for a segment-wise prefix after normalization and
    ``False`` otherwise, a real bool either way (kills scope/_arguments.py:117 return None,
    whose ``None`` passed every test that only asserted a falsy answer)."""
    assert path_has_prefix("/data/./reports/q1.csv", "/data/reports") is True
    assert path_has_prefix("/data\\reports", "/data/") is True
    assert path_has_prefix("/data/reportsX", "/data/reports") is False
    assert path_has_prefix("data/reports", "/data") is False  # relative vs absolute


def test_constraint_matches_refuses_an_undecided_variant_by_its_tag() -> None:
    """``constraint_matches`` on a variant outside the portable 8 answers Chio's refusal
    ``portable kernel cannot safely evaluate <tag>`` whatever the arguments (SCOPE-CON-1,
    SCOPE-CON-2; kills scope/_matcher.py:112 ``+`` -> ``-``, the message's concatenation)."""
    facts = ArgumentFacts({"q": "abc"})
    cases: list[tuple[str, JSON]] = [
        ("regex_match", "x"),
        ("seller_exact", "s"),
        ("max_rows_returned", 0),
    ]
    for tag, value in cases:
        got = constraint_matches(decode_constraint({"type": tag, "value": value}), facts)
        assert got == ConstraintError(f"portable kernel cannot safely evaluate {tag}")
    assert constraint_matches(decode_constraint({"type": "max_length", "value": 3}), facts)


def _agui_event(**changes: object) -> AgUiEvent:
    fields: dict[str, object] = {
        "event_id": "evt-test",
        "agent_id": "agent-1",
        "classification": EventClassification("submit"),
        "payload": {"text": "hi"},
        "session_id": "sess-1",
        "target": TargetComponent("chat"),
    }
    return AgUiEvent(**{**fields, **changes})  # type: ignore[arg-type]


def test_agui_boundary_errors_are_worded_exactly() -> None:
    """SCOPE-AGUI-6: each boundary refusal's whole message, not a fragment of it (kills
    scope/_agui.py:135 and the other boundary messages changed, which ``match=`` searches in
    test_scope_agui.py let through)."""
    unpadded = "must be unpadded and contain no control characters"
    cases: list[tuple[dict[str, object], str]] = [
        ({"event_id": "  "}, "invalid event: event_id must be a non-empty string"),
        ({"event_id": " e"}, f"invalid event: event_id {unpadded}"),
        ({"agent_id": "a\x07"}, f"invalid event: agent_id {unpadded}"),
        ({"session_id": "s "}, f"invalid event: session_id {unpadded}"),
        (
            {"target": TargetComponent(" ")},
            "invalid event: target.component_type must be a non-empty string",
        ),
        (
            {"target": TargetComponent("chat", " c")},
            f"invalid event: target.component_id {unpadded}",
        ),
    ]
    for changes, message in cases:
        with pytest.raises(InvalidEventError) as exc:
            validate_event_boundary(_agui_event(**changes))
        assert str(exc.value) == message, changes
    validate_event_boundary(_agui_event())


def test_decode_refusals_are_worded_exactly() -> None:
    """SCOPE-SHAPE-3, SCOPE-SHAPE-4: serde's whole messages for an unknown unit-enum variant
    (the expected names joined by ``, ``) and for a value given to the unit variant
    ``governed_intent_required`` (kills scope/_decode.py:146 and :338, their text changed)."""
    with pytest.raises(ScopeDecodeError) as exc:
        decode_scope({"grants": [{"server_id": "s", "tool_name": "t", "operations": ["exec"]}]})
    assert str(exc.value) == (
        "scope.grants[0].operations[0]: unknown variant `exec`, expected one of `invoke`, "
        "`read_result`, `read`, `subscribe`, `get`, `delegate`"
    )
    with pytest.raises(ScopeDecodeError) as exc:
        decode_constraint({"type": "governed_intent_required", "value": 5})
    assert str(exc.value) == (
        "constraint.value: invalid type: integer `5`, expected unit variant "
        "Constraint::GovernedIntentRequired"
    )


def test_regex_with_a_lone_surrogate_is_api_misuse_said_plainly() -> None:
    """A pattern no Rust ``String`` can hold is a ``ValueError`` saying why (kills
    scope/_regex.py:62, the message changed)."""
    message = "regex pattern is not valid Unicode text (lone surrogate)"
    with pytest.raises(ValueError, match=r"^regex pattern is not valid") as exc:
        compile_rust_regex("a\ud800")
    assert str(exc.value) == message


def test_model_metadata_enum_refusals_name_their_type() -> None:
    """SCOPE-HOSTED-MODEL: a non-string, non-map ``provenance_class`` or ``safety_tier`` is
    refused with serde's invalid-type message, which here names the enum (kills
    scope/_hosted_decode.py:30, the type name changed)."""
    from mcp_touchstone.scope._hosted_decode import decode_model_metadata

    for field, name in (
        ("provenance_class", "ProvenanceEvidenceClass"),
        ("safety_tier", "ModelSafetyTier"),
    ):
        with pytest.raises(ScopeDecodeError) as exc:
            decode_model_metadata({"model_id": "m", field: 5})
        assert str(exc.value) == (
            f"model_metadata.{field}: invalid type: integer `5`, expected string or map ({name})"
        )


def test_every_public_name_is_served_from_its_defining_module() -> None:
    """Each name of ``scope.__all__`` loads on first use, and a class or function is the very
    object its defining module holds under that name (kills scope/__init__.py's lazy-table
    strings changed: a wrong module, or a wrong key, fails the first access)."""
    import importlib

    from mcp_touchstone import scope

    for name in scope.__all__:
        obj = getattr(scope, name)
        home = getattr(obj, "__module__", None)
        if isinstance(home, str) and getattr(obj, "__name__", None) == name:
            assert home.startswith("mcp_touchstone.scope."), (name, home)
            assert getattr(importlib.import_module(home), name) is obj, name
    assert scope.grant_targets.__name__ == "grant_targets"
    assert scope.ModelSafetyTier.__name__ == "ModelSafetyTier"
    assert sorted(dir(scope)) == sorted(scope.__all__)


def _one_grant(**fields: JSON) -> JSON:
    return {"grants": [{"server_id": "s", "tool_name": "t", "operations": ["invoke"], **fields}]}


def test_custom_constraint_needs_two_strings_on_every_path() -> None:
    """SCOPE-SHAPE: ``custom`` is serde's ``Custom(String, String)``: a two-item sequence of
    strings, so a number in either place is refused whether the scope is otherwise plain (the
    one-pass decoder) or not (kills scope/_decode_fast.py's ``content[0]`` index changed)."""
    from mcp_touchstone.scope._types import Custom

    cases: list[tuple[JSON, int]] = [([5, "v"], 0), (["k", 5], 1)]
    for item, where in cases:
        with pytest.raises(ScopeDecodeError) as exc:
            decode_scope(_one_grant(constraints=[{"type": "custom", "value": item}]))
        assert str(exc.value) == (
            f"scope.grants[0].constraints[0].value[{where}]: invalid type: integer `5`, "
            "expected a string"
        )
    got = decode_scope(_one_grant(constraints=[{"type": "custom", "value": ["k", "v"]}]))
    assert got.grants[0].constraints == (Custom("k", "v"),)


def test_one_pass_decoder_reads_every_plain_string_list_kind() -> None:
    """The one-pass decoder reads the plain ``{"type", "value"}`` form of every variant whose
    content is a list of strings (its documented common shapes), building the same value as
    the general decoder (kills scope/_decode_fast.py's tag table keys changed, which would only
    send these scopes down the slow path)."""
    from mcp_touchstone.scope import _types as t
    from mcp_touchstone.scope._decode_fast import fast_scope

    kinds = {
        "table_allowlist": t.TableAllowlist,
        "column_denylist": t.ColumnDenylist,
        "audience_allowlist": t.AudienceAllowlist,
        "memory_store_allowlist": t.MemoryStoreAllowlist,
        "memory_write_deny_patterns": t.MemoryWriteDenyPatterns,
    }
    for tag, cls in kinds.items():
        value = _one_grant(constraints=[{"type": tag, "value": ["a", "b"]}])
        expected = cls(("a", "b"))
        fast = fast_scope(value)
        assert fast is not None, tag
        assert fast.grants[0].constraints == (expected,)
        assert decode_scope(value).grants[0].constraints == (expected,)


def test_general_path_keeps_boolean_fields() -> None:
    """A grant the one-pass decoder leaves to the general path (it carries a monetary amount)
    keeps its booleans as written: ``require_dual_approval``'s ``required`` and
    ``dpop_required`` (kills scope/_decode_forms.py ``bool_`` returning None)."""
    from mcp_touchstone.scope._decode_fast import fast_scope
    from mcp_touchstone.scope._types import MonetaryAmount, RequireDualApproval

    for flag in (True, False):
        value = _one_grant(
            constraints=[{"type": "require_dual_approval", "value": flag}],
            max_total_cost={"units": 5, "currency": "USD"},
            dpop_required=flag,
        )
        assert fast_scope(value) is None
        grant = decode_scope(value).grants[0]
        assert grant.constraints == (RequireDualApproval(flag),)
        assert repr(grant.constraints[0]) == f"RequireDualApproval(required={flag})"
        assert grant.dpop_required is flag
        assert grant.max_total_cost == MonetaryAmount(5, "USD")


def test_parse_domain_cuts_the_authority_only_at_slash_query_or_fragment() -> None:
    """SCOPE-DOM-1: the authority ends at the first ``/``, ``?`` or ``#`` and at no other
    character, so an upper-case host (letters such as ``X`` included) is read whole and folded
    (kills scope/_arguments.py's stop characters changed)."""
    from mcp_touchstone.scope._arguments import parse_domain

    assert parse_domain("https://EXAMPLE.COM/X") == "example.com"
    assert parse_domain("eXample.com") == "example.com"
    assert parse_domain("user@HOST.Xyz:8080/p?q#f") == "host.xyz"
    assert parse_domain("XX.example.com?X#X") == "xx.example.com"
    assert parse_domain("a.example.com#frag/more") == "a.example.com"


def test_agui_control_characters_are_rusts_cc_range_exactly() -> None:
    """SCOPE-AGUI-6: Rust's ``char::is_control`` is general category Cc, U+0000..U+001F and
    U+007F..U+009F, so an id holding U+001F, U+007F or U+009F is refused and one holding U+0020
    or U+00A0 (inside, where no trim reaches) is not (kills scope/_agui.py's range bounds)."""
    message = "invalid event: agent_id must be unpadded and contain no control characters"
    for ch in ("\x00", "\x1f", "\x7f", "\x80", "\x9f"):
        with pytest.raises(InvalidEventError) as exc:
            validate_event_boundary(_agui_event(agent_id=f"a{ch}b"))
        assert str(exc.value) == message, hex(ord(ch))
    for ch in (" ", "\xa0", "\xa1", "~"):
        validate_event_boundary(_agui_event(agent_id=f"a{ch}b"))
