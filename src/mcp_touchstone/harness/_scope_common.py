"""Input reading and answer shaping shared by the ``scope`` adapters.

``_scope.py`` (the v1 operations) and ``_scope_hosted.py`` (``scope.hosted_match``) both use these;
they live here so neither adapter imports the other (``tests/test_layering.py`` forbids the cycle
``_scope`` -> ``_scope_hosted`` -> ``_scope``).

A scope is decoded once per distinct text: a server sees the same capability's grants on call
after call, so :func:`_scope_of` keeps the outcome for each text it has decoded (bounded,
least recently used first out).  The decoded scope is frozen, so one value serves every call.
"""

from __future__ import annotations

from functools import lru_cache

from mcp_touchstone import serde_json
from mcp_touchstone.harness._input import invalid_input
from mcp_touchstone.scope import ChioScope, MatchedGrant, ScopeDecodeError, decode_scope
from mcp_touchstone.serde_json import JSON

_invalid = invalid_input
"""The harness's one ``invalid_input`` shape (``._input``), under the name the adapters use."""


class ScopeText:
    """A parsed scope value, compared and hashed by its compact JSON text (keys in their order):
    two values with the same text are the same JSON value (``1``, ``1.0`` and ``true`` have
    different texts), so either decodes as the other does."""

    __slots__ = ("text", "value")

    def __init__(self, value: JSON) -> None:
        self.value = value
        self.text = serde_json.to_string_ordered(value)

    def __hash__(self) -> int:
        return hash(self.text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ScopeText) and other.text == self.text


@lru_cache(maxsize=1024)
def _scope_of(scope: ScopeText) -> ChioScope | str:
    """The decoded scope, or the message of its :class:`ScopeDecodeError` (SCOPE-SHAPE-*)."""
    try:
        return decode_scope(scope.value, "scope")
    except ScopeDecodeError as exc:
        return str(exc)


def _read_input(raw: JSON) -> tuple[ChioScope, str, str, JSON] | dict[str, JSON]:
    """The four inputs, or the ``invalid_input`` answer naming what is wrong (SCOPE-WIRE-2)."""
    if not isinstance(raw, dict):
        return _invalid("input: expected an object with scope, tool_name, server_id, arguments")
    for key in ("scope", "tool_name", "server_id", "arguments"):
        if key not in raw:
            return _invalid(f"input: missing field `{key}`")
    tool_name, server_id = raw["tool_name"], raw["server_id"]
    if not isinstance(tool_name, str):
        return _invalid("input.tool_name: expected a string")
    if not isinstance(server_id, str):
        return _invalid("input.server_id: expected a string")
    try:
        scope = _scope_of(ScopeText(raw["scope"]))
    except serde_json.JsonError as exc:  # a caller's value that is no JSON (NaN, a set, ...)
        return _invalid(f"scope: {exc}")
    if isinstance(scope, str):
        return _invalid(scope)
    return scope, tool_name, server_id, raw["arguments"]


def _match_list(found: tuple[MatchedGrant, ...]) -> list[JSON]:
    """Ranked matches as the wire writes them: ``{"index", "specificity"}`` each."""
    return [{"index": m.index, "specificity": list(m.specificity)} for m in found]


def _matches(found: tuple[MatchedGrant, ...]) -> dict[str, JSON]:
    return {"matches": _match_list(found)}
