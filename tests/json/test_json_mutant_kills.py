"""Tests added to kill surviving mutants of `make mutants` (docs/assurance.md, "Survivors")."""

from __future__ import annotations

from mcp_touchstone._rust import INTEGER_BOUNDS
from mcp_touchstone._serde import integer_in, unit_variant_error


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


def test_integer_bounds_are_rusts_exactly() -> None:
    """Every Rust integer type's ``MIN``/``MAX``, written out (Rust's documented constants; usize
    and isize on the 64-bit targets the upstreams build for): kills any off-by-one in the
    bound expressions, e.g. _rust.py:53 ``(1 << 7) - 1`` -> ``- 2``."""
    assert dict(INTEGER_BOUNDS) == {
        "u8": (0, 255),
        "u16": (0, 65_535),
        "u32": (0, 4_294_967_295),
        "u64": (0, 18_446_744_073_709_551_615),
        "usize": (0, 18_446_744_073_709_551_615),
        "i8": (-128, 127),
        "i16": (-32_768, 32_767),
        "i32": (-2_147_483_648, 2_147_483_647),
        "i64": (-9_223_372_036_854_775_808, 9_223_372_036_854_775_807),
        "isize": (-9_223_372_036_854_775_808, 9_223_372_036_854_775_807),
    }
    assert integer_in(127, "i8")
    assert not integer_in(128, "i8")
    assert not integer_in(True, "u8")  # a bool is not an integer
