"""Tests added to kill surviving mutants of `make mutants` (docs/assurance.md, "Survivors")."""

from __future__ import annotations

from mcp_touchstone._rust import INTEGER_BOUNDS


def test_integer_bounds_name_every_rust_integer_type() -> None:
    """INTEGER_BOUNDS is keyed by the Rust type names, u16 included (kills _rust.py:64 "u16")."""
    assert INTEGER_BOUNDS["u16"] == (0, 65535)
    assert INTEGER_BOUNDS["i16"] == (-32768, 32767)
    assert {"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64"} <= set(INTEGER_BOUNDS)
