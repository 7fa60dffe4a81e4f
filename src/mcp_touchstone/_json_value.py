"""The values of the JSON layer (:mod:`mcp_touchstone.serde_json`, which is their public name):
what a serde_json ``Value`` can hold and serde_json's nesting budget, shared by the reader
(:mod:`._json_read`), the writer and the validator.  Its integers are Rust's ``u64`` and
``i64``, whose bounds live in :mod:`._rust`; its error is :class:`._errors.JsonError`.
"""

from __future__ import annotations

import re
from typing import TypeAlias

__all__ = ["JSON", "MAX_DEPTH", "SURROGATE"]

JSON: TypeAlias = bool | int | float | str | list["JSON"] | dict[str, "JSON"] | None
"""A JSON value as serde_json's ``Value`` can hold it."""

MAX_DEPTH = 128
"""serde_json's recursion budget: 127 nested arrays/objects parse, the 128th fails."""

SURROGATE = re.compile("[\ud800-\udfff]")
"""A surrogate code point: no string of a serde_json ``Value`` (a Rust ``String``) holds one."""
