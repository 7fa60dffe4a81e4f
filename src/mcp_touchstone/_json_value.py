"""The values and the error of the JSON layer (:mod:`mcp_touchstone.serde_json`, which is the
public name of everything here): what a serde_json ``Value`` can hold, serde_json's nesting
budget and the one exception type, shared by the reader (:mod:`._json_read`) and the writer.
"""

from __future__ import annotations

from mcp_touchstone._errors import TouchstoneError

TYPE_CHECKING = False  # typing's constant, without importing typing at run time (start-up)
if TYPE_CHECKING:
    from typing import TypeAlias


__all__ = ["I64_MIN", "JSON", "MAX_DEPTH", "U64_MAX", "JsonError"]

JSON: TypeAlias = bool | int | float | str | list["JSON"] | dict[str, "JSON"] | None
"""A JSON value as serde_json's ``Value`` can hold it."""

MAX_DEPTH = 128
"""serde_json's recursion budget: 127 nested arrays/objects parse, the 128th fails."""

U64_MAX = (1 << 64) - 1
"""The largest integer serde_json holds (``u64``)."""
I64_MIN = -(1 << 63)
"""The smallest integer serde_json holds (``i64``)."""


class JsonError(TouchstoneError, ValueError):
    """JSON text or a Python value that serde_json would not accept."""
