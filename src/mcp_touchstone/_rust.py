"""Rust semantics the upstreams rely on, written once: integer bounds.

A leaf module (it imports nothing from the project), so the JSON layer, the serde layer and
every semantic can use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

__all__ = [
    "I8_MAX",
    "I8_MIN",
    "I16_MAX",
    "I16_MIN",
    "I32_MAX",
    "I32_MIN",
    "I64_MAX",
    "I64_MIN",
    "INTEGER_BOUNDS",
    "U8_MAX",
    "U16_MAX",
    "U32_MAX",
    "U64_MAX",
    "USIZE_MAX",
]

U8_MAX: Final = (1 << 8) - 1
U16_MAX: Final = (1 << 16) - 1
U32_MAX: Final = (1 << 32) - 1
U64_MAX: Final = (1 << 64) - 1
USIZE_MAX: Final = U64_MAX
"""``usize`` on the 64-bit targets the upstreams are built for."""
I8_MIN: Final = -(1 << 7)
I8_MAX: Final = (1 << 7) - 1
I16_MIN: Final = -(1 << 15)
I16_MAX: Final = (1 << 15) - 1
I32_MIN: Final = -(1 << 31)
I32_MAX: Final = (1 << 31) - 1
I64_MIN: Final = -(1 << 63)
I64_MAX: Final = (1 << 63) - 1

INTEGER_BOUNDS: Final[Mapping[str, tuple[int, int]]] = MappingProxyType(
    {
        "u8": (0, U8_MAX),
        "u16": (0, U16_MAX),
        "u32": (0, U32_MAX),
        "u64": (0, U64_MAX),
        "usize": (0, USIZE_MAX),
        "i8": (I8_MIN, I8_MAX),
        "i16": (I16_MIN, I16_MAX),
        "i32": (I32_MIN, I32_MAX),
        "i64": (I64_MIN, I64_MAX),
        "isize": (I64_MIN, I64_MAX),
    }
)
"""Each Rust integer type's inclusive ``(min, max)``, by its serde name."""
