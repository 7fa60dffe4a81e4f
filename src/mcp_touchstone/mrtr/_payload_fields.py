"""The fields of neva's ``StatePayload`` and the JSON type each one reads as (serde's derived
``Deserialize`` for the field types), shared by the read of a JSON value
(:meth:`StatePayload.from_json`) and the read of the plaintext (:mod:`._payload_reader`)."""

from __future__ import annotations

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone._rust import U64_MAX
from mcp_touchstone._serde import invalid_type, invalid_value
from mcp_touchstone.serde_json import JSON

__all__ = ["EXPECTING", "FIELD_ORDER", "OPENS", "PayloadError", "check_field"]

FIELD_ORDER: tuple[str, ...] = (
    "answers",
    "requested",
    "memos",
    "effects",
    "exp",
    "req",
    "principal",
    "aud",
)
"""The payload's fields in neva's declared (and serialized) order."""

OPENS = {"answers": "{", "memos": "{", "requested": "[", "effects": "["}
"""The bracket each container field opens with; every other field is a scalar."""
EXPECTING = {
    "answers": "a map",
    "memos": "a map",
    "requested": "a sequence",
    "effects": "a sequence",
    "exp": "u64",
    "req": "a string",
    "principal": "a string",
    "aud": "a string",
}
"""serde's ``expecting`` text of each field's type (``Option<String>`` reads as a string)."""


class PayloadError(TouchstoneError, ValueError):
    """A plaintext that ``serde_json`` would not decode as a ``StatePayload``."""


def _invalid_type(value: JSON, expected: str) -> str:
    return invalid_type(value, expected)


def check_field(name: str, value: JSON) -> None:
    """Check one field's JSON type; raise :class:`PayloadError` with serde's wording."""
    if name in ("answers", "memos"):
        if not isinstance(value, dict):
            raise PayloadError(_invalid_type(value, "a map"))
    elif name in ("requested", "effects"):
        if not isinstance(value, list):
            raise PayloadError(_invalid_type(value, "a sequence"))
        for item in value:
            if not isinstance(item, str):
                raise PayloadError(_invalid_type(item, "a string"))
    elif name == "exp":
        if isinstance(value, bool) or not isinstance(value, int):
            raise PayloadError(_invalid_type(value, "u64"))
        if not 0 <= value <= U64_MAX:
            raise PayloadError(invalid_value(value, "u64"))
    elif name == "req":
        if not isinstance(value, str):
            raise PayloadError(_invalid_type(value, "a string"))
    elif value is not None and not isinstance(value, str):  # principal, aud: Option<String>
        raise PayloadError(_invalid_type(value, "a string"))
