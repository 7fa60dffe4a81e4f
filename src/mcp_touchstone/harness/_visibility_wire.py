"""Hand-written boundary decoders for the visibility harness inputs (VIS-HARN-*).

Each decoder takes a raw JSON value and returns a core value or raises
:class:`~mcp_touchstone.harness._input.BadInputError` naming the offending place; the harness
turns that into an ``invalid_input`` output.
"""

from __future__ import annotations

from mcp_touchstone._rust import I64_MAX, I64_MIN
from mcp_touchstone.harness._input import MUST, BadInputError
from mcp_touchstone.serde_json import JSON
from mcp_touchstone.visibility import (
    IDENTITY_KEY,
    JSONRPC_VERSION,
    Catalog,
    ComponentKind,
    Entry,
    Identity,
    Listed,
    Listing,
    Outcome,
    Page,
    ProtocolVersion,
    Refused,
    Request,
    Visibility,
    identity_from_meta,
)

_read = MUST
"""The visibility adapters' wording of the harness's one set of readers (``._input``)."""
require_object, require_field, require_string = _read.object, _read.field, _read.string


def decode_identity(value: JSON) -> Identity:
    """The caller an ``identity`` input describes: the value is read exactly as the request
    ``_meta`` entry ``io.turbomcp.internal/identity`` would be (VIS-ID-1)."""
    return identity_from_meta({IDENTITY_KEY: value})


def decode_policy(value: JSON, where: str = "input.policy") -> Visibility:
    """A built-in :class:`Visibility` from ``{"hidden_tags": [str], "requiring_declared_scopes":
    bool}``."""
    obj = require_object(value, where)
    tags = require_field(obj, "hidden_tags", where)
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise BadInputError(f"{where}.hidden_tags must be an array of strings")
    flag = _read.boolean(
        require_field(obj, "requiring_declared_scopes", where), f"{where}.requiring_declared_scopes"
    )
    policy = Visibility().hiding_tagged(t for t in tags if isinstance(t, str))
    return policy.requiring_declared_scopes() if flag else policy


def decode_kind(value: JSON, where: str) -> ComponentKind:
    """A component kind from its wire name (``tool``, ``resource``, ``resource_template``,
    ``prompt``)."""
    for kind in ComponentKind:
        if value == kind.value:
            return kind
    raise BadInputError(f"{where} must be one of tool, resource, resource_template, prompt")


def decode_meta(obj: dict[str, JSON], key: str, where: str) -> dict[str, JSON]:
    """The object at ``obj[key]``, empty when absent."""
    if key not in obj:
        return {}
    return require_object(obj[key], f"{where}.{key}")


def decode_version(value: JSON) -> ProtocolVersion:
    """One of the three revisions the dispatcher model speaks."""
    for version in ProtocolVersion:
        if value == version.value:
            return version
    raise BadInputError("input.protocol_version must be 2025-06-18, 2025-11-25 or 2026-07-28")


_CATALOG_KEYS: tuple[tuple[str, str, str], ...] = (
    ("tools", "name", "tools"),
    ("resources", "uri", "resources"),
    ("resource_templates", "uriTemplate", "resourceTemplates"),
    ("prompts", "name", "prompts"),
)


def _listing(value: JSON, id_key: str, where: str) -> Listing:
    if not isinstance(value, list):
        raise BadInputError(f"{where} must be an array")
    entries: list[Entry] = []
    for index, item in enumerate(value):
        here = f"{where}[{index}]"
        obj = require_object(item, here)
        ident = require_string(require_field(obj, id_key, here), f"{here}.{id_key}")
        entries.append(Entry(ident, decode_meta(obj, "_meta", here), obj))
    return Listing((Page(tuple(entries)),), ignores_cursor=True)


def decode_catalog(value: JSON) -> Catalog:
    """A one-page catalog from ``{"tools": [...], "resources": [...], "resource_templates":
    [...], "prompts": [...]}``: every list registered, served whole whatever the cursor."""
    obj = require_object(value, "input.catalog")
    listings = [
        _listing(require_field(obj, key, "input.catalog"), id_key, f"input.catalog.{key}")
        for key, id_key, _ in _CATALOG_KEYS
    ]
    return Catalog(*listings)


PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
"""The request ``_meta`` key turbomcp routes a request by."""


def decode_request(value: JSON, version: ProtocolVersion) -> Request:
    """A JSON-RPC request as turbomcp's dispatcher receives it once routed to ``version``.

    ``id`` is an i64 or a string, ``method`` a string, ``jsonrpc`` (when present) a string; a
    ``jsonrpc`` other than ``"2.0"`` is kept for the dispatcher to refuse, whatever the params
    (VIS-PRE-1).
    turbomcp routes a request by ``params._meta["io.modelcontextprotocol/protocolVersion"]``,
    which its session adapter stamps in when absent, creating ``params`` (and ``_meta``) when
    there is none (VIS-HARN-4).  So absent or ``null`` params arrive as ``{}``; params that are
    not an object, or whose ``_meta`` is not an object, cannot carry the version and never reach
    the visibility layer (the router answers them), as does a request whose own version
    differs from ``version``: those are invalid input here.
    """
    obj = require_object(value, "input.request")
    ident = require_field(obj, "id", "input.request")
    if isinstance(ident, bool) or not isinstance(ident, int | str):
        raise BadInputError("input.request.id must be an integer or a string")
    if isinstance(ident, int) and not I64_MIN <= ident <= I64_MAX:
        raise BadInputError("input.request.id is out of the i64 range")
    method = require_string(require_field(obj, "method", "input.request"), "input.request.method")
    jsonrpc = JSONRPC_VERSION
    if "jsonrpc" in obj:
        jsonrpc = require_string(obj["jsonrpc"], "input.request.jsonrpc")
    params = obj.get("params")
    if jsonrpc != JSONRPC_VERSION:
        # Answered -32600 before routing looks at params (VIS-PRE-1).
        return Request(ident, method, params, jsonrpc)
    if params is None:
        return Request(ident, method, {})
    if not isinstance(params, dict):
        raise BadInputError(
            "input.request.params must be an object or absent: turbomcp cannot route a request "
            "whose params cannot carry _meta"
        )
    meta = params.get("_meta")
    if "_meta" in params and not isinstance(meta, dict):
        raise BadInputError("input.request.params._meta must be an object when present")
    claimed = meta.get(PROTOCOL_VERSION_KEY) if isinstance(meta, dict) else None
    if isinstance(claimed, str) and claimed != version.value:
        raise BadInputError(
            "input.request.params._meta names a protocol version other than protocol_version"
        )
    return Request(ident, method, params)


_LIST_KEY: dict[ComponentKind, str] = {
    ComponentKind.TOOL: "tools",
    ComponentKind.RESOURCE: "resources",
    ComponentKind.RESOURCE_TEMPLATE: "resourceTemplates",
    ComponentKind.PROMPT: "prompts",
}


def encode_outcome(outcome: Outcome) -> dict[str, JSON]:
    """The ``visibility.dispatch`` output for ``outcome``."""
    if isinstance(outcome, Listed):
        items: list[JSON] = [dict(e.wire) for e in outcome.items]
        return {"outcome": "listed", "result": {_LIST_KEY[outcome.kind]: items}}
    if isinstance(outcome, Refused):
        return {"outcome": "refused", "response": outcome.response}
    return {"outcome": "dispatched"}
