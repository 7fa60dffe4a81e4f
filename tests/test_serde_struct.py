"""The shared serde combinators (mcp_touchstone._serde): struct sequence form, wording, bounds."""

from __future__ import annotations

import pytest

from mcp_touchstone._rust import INTEGER_BOUNDS
from mcp_touchstone._serde import (
    SerdeError,
    expecting_struct,
    integer_in,
    sequence_fields,
    struct_fields,
    unknown_field,
)
from mcp_touchstone.mrtr import InputRequestError, decode_input_request
from mcp_touchstone.scope import ScopeDecodeError
from mcp_touchstone.scope._decode import decode_tool_grant
from mcp_touchstone.serde_json import JSON


def test_expecting_struct_is_singular_for_one_field() -> None:
    """serde_derive writes ``with 1 element`` for a one-field struct, ``elements`` otherwise."""
    assert expecting_struct("ModelHint", 1) == "struct ModelHint with 1 element"
    assert expecting_struct("Envelope", 2) == "struct Envelope with 2 elements"
    assert expecting_struct("Unit", 0) == "struct Unit with 0 elements"


def test_mrtr_model_hint_sequence_form_says_one_element() -> None:
    """An mrtr sampling request whose ``hints`` holds ``[]`` fails with serde's singular wording
    (``mrtr.allows`` messages are not compared by the runner, so this test pins it)."""
    request: JSON = {
        "method": "sampling/createMessage",
        "params": {"messages": [], "maxTokens": 1, "modelPreferences": {"hints": [[]]}},
    }
    with pytest.raises(InputRequestError) as exc:
        decode_input_request(request)
    assert str(exc.value) == "invalid length 0, expected struct ModelHint with 1 element"


def test_sequence_form_counts_the_slot_it_could_not_fill() -> None:
    """A missing required field after a defaulted one reports its own index, as serde_derive."""
    with pytest.raises(SerdeError) as exc:
        sequence_fields(["m"], "S", ("a", "b", "c"), defaulted={"b"})
    assert exc.value.message == "invalid length 2, expected struct S with 3 elements"
    assert sequence_fields(["m"], "S", ("a", "b"), defaulted={"b"}) == {"a": "m"}


def test_sequence_form_reads_elements_before_the_length_check() -> None:
    """An element's decode error wins over an over-long array, as serde's visitor reads first."""

    def decode(_field: str, _index: int, item: object) -> None:
        if not isinstance(item, str):
            raise SerdeError("bad element")

    with pytest.raises(SerdeError, match="bad element"):
        sequence_fields([1, "x", "y"], "S", ("a", "b"), (), decode)
    with pytest.raises(SerdeError, match="invalid length 3, expected fewer elements in array"):
        sequence_fields(["w", "x", "y"], "S", ("a", "b"), (), decode)


def test_scope_struct_sequence_form_uses_the_shared_wording() -> None:
    """scope's struct decoder words a short sequence form with the shared combinator."""
    with pytest.raises(ScopeDecodeError) as exc:
        decode_tool_grant(["srv"])
    assert str(exc.value) == "grant: invalid length 1, expected struct ToolGrant with 8 elements"


def test_integer_bounds_are_rust_bounds() -> None:
    """integer_in accepts exactly the Rust type's range and never a boolean."""
    assert INTEGER_BOUNDS["u8"] == (0, 255)
    assert integer_in(2**64 - 1, "u64")
    assert not integer_in(2**64, "u64")
    assert integer_in(-(2**63), "i64")
    assert not integer_in(-1, "usize")
    assert not integer_in(True, "u8")


def test_unknown_field_wording_follows_serde_one_of() -> None:
    """unknown_field lists the expected names as serde's OneOf does."""
    assert unknown_field("x", ()) == "unknown field `x`, there are no fields"
    assert unknown_field("x", ("a",)) == "unknown field `x`, expected `a`"
    assert unknown_field("x", ("a", "b")) == "unknown field `x`, expected `a` or `b`"
    assert unknown_field("x", ("a", "b", "c")) == "unknown field `x`, expected one of `a`, `b`, `c`"


def test_struct_fields_visits_present_known_keys_in_sorted_order() -> None:
    """An object's known keys are decoded in code point (UTF-8 byte) order, unknown ones skipped."""
    seen: list[str] = []
    value: JSON = {"zeta": 1, "Beta": 2, "_u": 3, "alpha": 4, "unknown": 5}
    fields = ("zeta", "alpha", "_u", "Beta")
    out = struct_fields(value, "S", fields, lambda f, _v: seen.append(f))
    assert seen == ["Beta", "_u", "alpha", "zeta"]
    assert out == value


def test_struct_fields_reports_missing_fields_after_the_loop_in_declared_order() -> None:
    """Every present field is decoded before the first missing one (declared order) fails;
    ``optional`` and ``defaulted`` fields are never missing."""
    seen: list[str] = []
    with pytest.raises(SerdeError) as exc:
        struct_fields(
            {"z": 0},
            "S",
            ("o", "d", "b", "a", "z"),
            lambda f, _v: seen.append(f),
            optional=("o",),
            defaulted=("d",),
        )
    assert exc.value.message == "missing field `b`"
    assert seen == ["z"]


def test_struct_fields_refuses_a_non_struct_and_reads_an_array_in_declared_order() -> None:
    """A scalar is ``invalid type ... expected struct S``; an array decodes slot by slot."""
    with pytest.raises(SerdeError) as exc:
        struct_fields("x", "S", ("a",), lambda _f, _v: None)
    assert exc.value.message == 'invalid type: string "x", expected struct S'
    seen: list[str] = []
    assert struct_fields([1, 2], "S", ("b", "a"), lambda f, _v: seen.append(f)) == {"b": 1, "a": 2}
    assert seen == ["b", "a"]
