"""A JSON list or object where neva expects an enum's string is refused with
the operation's error shape, never an unhashable-type crash."""

from __future__ import annotations

import pytest

from mcp_touchstone._serde import unit_variant_error
from mcp_touchstone.harness._mrtr import OPERATIONS
from mcp_touchstone.serde_json import JSON


def _form(schema: JSON) -> JSON:
    return {"method": "elicitation/create", "params": {"message": "m", "requestedSchema": schema}}


def _roots_meta(meta: JSON) -> JSON:
    return {"method": "roots/list", "params": {"_meta": meta}}


_ICON = "io.modelcontextprotocol/clientInfo"
_CASES: list[JSON] = [
    _form({"type": []}),
    _form({"type": {}}),
    _form({"type": "object", "properties": {"p": {"type": "string", "format": []}}}),
    _form(
        {
            "type": "object",
            "properties": {"p": {"type": "array", "items": {"type": {}, "enum": ["a"]}}},
        }
    ),
    _roots_meta({"io.modelcontextprotocol/logLevel": []}),
    _roots_meta({_ICON: {"name": "n", "version": "1", "icons": [{"src": "s", "theme": [1]}]}}),
]


@pytest.mark.parametrize("request_value", _CASES)
def test_issue14_d1_unhashable_value_where_a_string_is_expected(request_value: JSON) -> None:
    """Each of the five places answers mrtr.allows' error shape for a list or object value."""
    out = OPERATIONS["mrtr.allows"]({"capabilities": {}, "request": request_value})
    assert set(out) == {"error"}
    error = out["error"]
    assert isinstance(error, dict)
    assert isinstance(error.get("message"), str)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ([], "invalid type: sequence, expected string or map"),
        (5, "invalid type: integer `5`, expected string or map"),
        ("x", "unknown variant `x`, expected `dark` or `light`"),
        ({"a": None, "b": None}, "invalid value: map, expected map with a single key"),
        ({"dark": 1}, "invalid type: integer `1`, expected unit"),
        ("dark", None),
        ({"light": None}, None),
    ],
)
def test_issue14_d1_unit_variant_error_uses_serde_wording(value: JSON, message: str | None) -> None:
    """A unit-only enum is read as serde's derive reads it: a name, or {name: null}."""
    assert unit_variant_error(value, ("dark", "light")) == message
