"""Harness operations of the ``visibility`` semantic (see ``spec/harness.md``).

Each operation takes the raw ``case.input`` JSON value and returns the output object.
It is total: malformed input is answered with the operation's error shape, never raised.
All four serve the ``turbomcp`` profile (VIS-HARN-*).
"""

from __future__ import annotations

from mcp_touchstone.harness._input import guarded
from mcp_touchstone.harness._operation import HarnessOperation
from mcp_touchstone.harness._visibility_wire import (
    decode_catalog,
    decode_identity,
    decode_kind,
    decode_meta,
    decode_policy,
    decode_request,
    decode_version,
    encode_outcome,
    require_field,
    require_object,
    require_string,
)
from mcp_touchstone.serde_json import JSON
from mcp_touchstone.visibility import (
    RequestContext,
    VisibleComponent,
    dispatch,
    granted_scopes,
    uri_template_matches,
)


def _input(raw: JSON) -> dict[str, JSON]:
    return require_object(raw, "input")


def _field(obj: dict[str, JSON], key: str) -> JSON:
    return require_field(obj, key, "input")


def _granted_scopes(raw: JSON) -> dict[str, JSON]:
    obj = _input(raw)
    identity = decode_identity(_field(obj, "identity"))
    return {"scopes": list(granted_scopes(identity))}


def _is_visible(raw: JSON) -> dict[str, JSON]:
    obj = _input(raw)
    policy = decode_policy(_field(obj, "policy"))
    component = require_object(_field(obj, "component"), "input.component")
    kind = decode_kind(component.get("kind"), "input.component.kind")
    ident = require_string(component.get("id"), "input.component.id")
    meta = decode_meta(component, "meta", "input.component")
    identity = decode_identity(_field(obj, "identity"))
    ctx = RequestContext(identity=identity)
    return {"visible": policy(VisibleComponent(kind, ident, meta, ctx))}


def _match_uri_template(raw: JSON) -> dict[str, JSON]:
    obj = _input(raw)
    template = require_string(_field(obj, "template"), "input.template")
    uri = require_string(_field(obj, "uri"), "input.uri")
    return {"match": uri_template_matches(template, uri)}


def _dispatch(raw: JSON) -> dict[str, JSON]:
    obj = _input(raw)
    policy_value = _field(obj, "policy")
    policy = None if policy_value is None else decode_policy(policy_value)
    version = decode_version(_field(obj, "protocol_version"))
    catalog = decode_catalog(_field(obj, "catalog"))
    request = decode_request(_field(obj, "request"), version)
    return encode_outcome(dispatch(catalog, request, version, policy))


_total = guarded()
"""A malformed input becomes an ``invalid_input`` output (the harness's one way, ``._input``)."""


OPERATIONS: dict[str, HarnessOperation] = {
    "visibility.granted_scopes": _total(_granted_scopes),
    "visibility.is_visible": _total(_is_visible),
    "visibility.match_uri_template": _total(_match_uri_template),
    "visibility.dispatch": _total(_dispatch),
}
