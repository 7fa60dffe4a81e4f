"""Tests added to kill surviving mutants of `make mutants` (docs/assurance.md, "Survivors")."""

from __future__ import annotations

from mcp_touchstone._rust import INTEGER_BOUNDS
from mcp_touchstone._serde import unit_variant_error


def test_integer_bounds_name_every_rust_integer_type() -> None:
    """INTEGER_BOUNDS is keyed by the Rust type names, u16 included (kills _rust.py:64 "u16")."""
    assert INTEGER_BOUNDS["u16"] == (0, 65535)
    assert INTEGER_BOUNDS["i16"] == (-32768, 32767)
    assert {"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64"} <= set(INTEGER_BOUNDS)


def test_unknown_variant_lists_expected_names_in_serde_one_of_wording() -> None:
    """serde's ``OneOf``: one name is `` `a` ``, two are `` `a` or `b` ``, more are ``one of `a`,
    `b`, `c` `` (kills _serde.py:182, the two-name form returning None)."""
    assert unit_variant_error("x", ("a",)) == "unknown variant `x`, expected `a`"
    assert unit_variant_error("x", ("a", "b")) == "unknown variant `x`, expected `a` or `b`"
    assert unit_variant_error({"x": None}, ("a", "b")) == (
        "unknown variant `x`, expected `a` or `b`"
    )
    assert unit_variant_error("x", ("a", "b", "c")) == (
        "unknown variant `x`, expected one of `a`, `b`, `c`"
    )
    assert unit_variant_error("b", ("a", "b")) is None
