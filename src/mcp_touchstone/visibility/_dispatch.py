"""The dispatcher's visibility layer as a pure function over a catalog and a request.

``dispatch`` answers what turbomcp 4's dispatcher does with a request once a visibility
policy may be installed: a list comes back filtered (VIS-LIST-*), a call to a hidden
component is refused exactly as a nonexistent one (VIS-CALL-*, VIS-REFUSE-*), and everything
else reaches the handler.  The ``turbomcp`` profile mirrors the upstream, fail-open paths
included; the ``strict`` profile closes them (VIS-STRICT-*).

The model lives in ``_catalog``, the JSON-RPC rendering in ``_rpc`` and the hiddenness check in
``_hiddenness``; their names are re-exported here.
"""

from __future__ import annotations

from mcp_touchstone._errors import (
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    RpcError,
)
from mcp_touchstone._rust import LOG_LEVELS
from mcp_touchstone.serde_json import JSON, to_string_ordered
from mcp_touchstone.visibility._catalog import (
    COMPLETION_COMPLETE,
    FRAMEWORK_META_KEYS,
    JSONRPC_VERSION,
    LOG_LEVEL_KEY,
    PROMPTS_GET,
    PROMPTS_LIST,
    RESOURCES_LIST,
    RESOURCES_READ,
    RESOURCES_SUBSCRIBE,
    RESOURCES_TEMPLATES_LIST,
    TOOLS_CALL,
    TOOLS_LIST,
    VERSION_GATED,
    Catalog,
    Dispatched,
    Entry,
    Listed,
    Listing,
    Outcome,
    Page,
    Profile,
    Refused,
    Request,
    StateVerifier,
    is_framework_key,
    reject_every_state,
)
from mcp_touchstone.visibility._hiddenness import (
    _find,
    _judge,
    filter_entries,
    is_hidden,
)
from mcp_touchstone.visibility._identity import identity_from_meta
from mcp_touchstone.visibility._policy import (
    ComponentKind,
    ProtocolVersion,
    RequestContext,
    VisibilityPolicy,
)
from mcp_touchstone.visibility._router import (
    CompletionTarget,
    RouteError,
    parse_complete_params,
    route_refusal,
)
from mcp_touchstone.visibility._rpc import (
    error_response,
    invalid_params,
    refusal,
    resource_not_found_error,
    success_response,
    unknown_prompt_error,
    unknown_tool_result,
)
from mcp_touchstone.visibility._serde import Field, FieldKind, SerdeError, deserialize_struct

__all__ = [
    "COMPLETION_COMPLETE",
    "FRAMEWORK_META_KEYS",
    "JSONRPC_VERSION",
    "LOG_LEVEL_KEY",
    "PROMPTS_GET",
    "PROMPTS_LIST",
    "RESOURCES_LIST",
    "RESOURCES_READ",
    "RESOURCES_SUBSCRIBE",
    "RESOURCES_TEMPLATES_LIST",
    "TOOLS_CALL",
    "TOOLS_LIST",
    "VERSION_GATED",
    "Catalog",
    "Dispatched",
    "Entry",
    "Listed",
    "Listing",
    "Outcome",
    "Page",
    "Profile",
    "Refused",
    "Request",
    "StateVerifier",
    "context_of",
    "dispatch",
    "error_response",
    "filter_entries",
    "invalid_params",
    "is_framework_key",
    "is_hidden",
    "refusal",
    "reject_every_state",
    "resource_not_found_error",
    "success_response",
    "unknown_prompt_error",
    "unknown_tool_result",
]


_LIST_KIND: dict[str, ComponentKind] = {
    TOOLS_LIST: ComponentKind.TOOL,
    RESOURCES_LIST: ComponentKind.RESOURCE,
    RESOURCES_TEMPLATES_LIST: ComponentKind.RESOURCE_TEMPLATE,
    PROMPTS_LIST: ComponentKind.PROMPT,
}

_CALL_STRUCT: tuple[str, tuple[Field, ...]] = (
    "RawCallToolParams",
    (Field("name", FieldKind.STRING, False), Field("arguments", FieldKind.MAP_OF_VALUES, True)),
)
_PROMPT_STRUCT: tuple[str, tuple[Field, ...]] = (
    "RawGetPromptParams",
    (Field("name", FieldKind.STRING, False), Field("arguments", FieldKind.MAP_OF_STRINGS, True)),
)
_READ_STRUCT: tuple[str, tuple[Field, ...]] = (
    "RawReadResourceParams",
    (Field("uri", FieldKind.STRING, False),),
)


# --------------------------------------------------------------------------- dispatch


def _params_meta(params: JSON) -> JSON:
    return params.get("_meta") if isinstance(params, dict) else None


def context_of(request: Request, version: ProtocolVersion) -> RequestContext:
    """The request's context: its revision, the caller lifted from ``params._meta``
    (VIS-ID-1), and the entries of ``params._meta`` the framework does not consume as
    propagated metadata (VIS-POL-7)."""
    meta = _params_meta(request.params)
    identity = identity_from_meta(meta)
    propagated: dict[str, JSON] = {}
    if isinstance(meta, dict):
        propagated = {k: v for k, v in meta.items() if not is_framework_key(k)}
    return RequestContext(version, identity, propagated)


def _is_log_level(value: JSON) -> bool:
    """Whether ``serde_json::from_value::<LogLevel>`` accepts ``value``: a level name, or serde's
    map form of a unit variant, a single-key object ``{"<level>": null}`` (VIS-PRE-2)."""
    if isinstance(value, str):
        return value in LOG_LEVELS
    if isinstance(value, dict) and len(value) == 1:
        ((name, payload),) = value.items()
        return name in LOG_LEVELS and payload is None
    return False


def _pre_dispatch(request: Request, version: ProtocolVersion) -> Refused | None:
    """What turbomcp answers before any capability or visibility code runs (VIS-PRE-*): a
    declared ``jsonrpc`` other than ``"2.0"`` is ``-32600``; on 2026-07-28 a version-gated
    method whose ``_meta`` carries a ``logLevel`` that is not a log level is ``-32602``."""
    if request.jsonrpc != JSONRPC_VERSION:
        error = RpcError(INVALID_REQUEST, 'invalid jsonrpc version (expected "2.0")')
        return Refused(error_response(request.id, error))
    if version.is_draft and request.method in VERSION_GATED:
        meta = _params_meta(request.params)
        if isinstance(meta, dict) and LOG_LEVEL_KEY in meta:
            level = meta[LOG_LEVEL_KEY]
            if not _is_log_level(level):
                bad = invalid_params(f"invalid logLevel: {to_string_ordered(level)}")
                return Refused(error_response(request.id, bad))
    return None


def _request_state(params: JSON) -> str | None:
    """The ``requestState`` the MRTR layer would verify, read as turbomcp reads it
    (VIS-STATE-2): only from an object whose ``requestState`` is a string or null and whose
    ``inputResponses`` is an object or null; any other shape drops both fields silently."""
    if not isinstance(params, dict):
        return None
    responses = params.get("inputResponses")
    if responses is not None and not isinstance(responses, dict):
        return None
    state = params.get("requestState")
    return state if isinstance(state, str) else None


def _parse_error(method: str, exc: SerdeError) -> RpcError:
    return invalid_params(f"invalid {method} params: {exc.message}")


def _call_key(request: Request) -> tuple[ComponentKind, str] | RpcError:
    """Parse the params of a call method into what it addresses (VIS-PARSE-1)."""
    method = request.method
    params = request.params
    if params is None:
        return invalid_params(f"{method} requires params")
    if method == TOOLS_CALL:
        name, fields = _CALL_STRUCT
        kind, key = ComponentKind.TOOL, "name"
    elif method == PROMPTS_GET:
        name, fields = _PROMPT_STRUCT
        kind, key = ComponentKind.PROMPT, "name"
    else:
        name, fields = _READ_STRUCT
        kind, key = ComponentKind.RESOURCE, "uri"
    try:
        parsed = deserialize_struct(name, fields, params)
    except SerdeError as exc:
        return _parse_error(method, exc)
    value = parsed.get(key)
    if isinstance(value, str):
        return kind, value
    # Unreachable: the field is required and typed a string; kept so the function stays total.
    return _parse_error(method, SerdeError(f"missing field `{key}`"))


def _completion_target(parsed: CompletionTarget) -> tuple[ComponentKind, str]:
    """What a well-formed ``completion/complete`` request refers to."""
    if parsed.prompt:
        return ComponentKind.PROMPT, parsed.key
    return ComponentKind.RESOURCE_TEMPLATE, parsed.key


def _completion_hidden(
    catalog: Catalog, policy: VisibilityPolicy, kind: ComponentKind, key: str, ctx: RequestContext
) -> bool:
    """Strict only: whether a completion reference names a hidden or unknown prompt or
    template (VIS-STRICT-4).  A ``ref/resource`` names a template by its template string, or
    a concrete resource by its URI."""
    if kind is ComponentKind.PROMPT:
        return is_hidden(catalog, policy, kind, key, ctx, profile=Profile.STRICT)
    found = _find(catalog, ComponentKind.RESOURCE_TEMPLATE, lambda e: e.id == key, True)
    if isinstance(found, Entry):
        return _judge(policy, ComponentKind.RESOURCE_TEMPLATE, found, ctx)
    if isinstance(found, RpcError):
        return True
    concrete = _find(catalog, ComponentKind.RESOURCE, lambda e: e.id == key, True)
    if isinstance(concrete, Entry):
        return _judge(policy, ComponentKind.RESOURCE, concrete, ctx)
    return True


def dispatch(
    catalog: Catalog,
    request: Request,
    version: ProtocolVersion,
    policy: VisibilityPolicy | None,
    *,
    profile: Profile = Profile.TURBOMCP,
    verify_state: StateVerifier = reject_every_state,
    tasks_enabled: bool = False,
) -> Outcome:
    """What the dispatcher's visibility layer does with ``request``.

    First the answers turbomcp gives before any capability code runs (VIS-PRE-*).  Lists are
    fetched (``params.cursor`` when it is a string, else the first page) and
    filtered.  ``tools/call``, ``prompts/get`` and ``resources/read`` are parsed, then checked
    against the policy, then (2026-07-28 only) their ``requestState`` is verified with
    ``verify_state``, in that order (VIS-ORDER-1); a hidden component is refused as a
    nonexistent one.  ``tasks_enabled`` models ``ServerBuilder::with_tasks()`` on 2025-11-25,
    whose task paths skip the policy in the ``turbomcp`` profile (VIS-TASK-1).  Every other
    method reaches its handler; the ``strict`` profile also checks completion references and
    ``resources/subscribe`` (VIS-STRICT-4, VIS-STRICT-7).
    """
    early = _pre_dispatch(request, version)
    if early is not None:
        return early
    routed = route_refusal(
        request.method,
        request.params,
        version,
        has_resources=catalog.resources is not None,
        tasks_enabled=tasks_enabled,
    )
    if routed is not None:  # VIS-ROUTE-1: the router answers; no handler is reached.
        return Refused(error_response(request.id, routed))
    ctx = context_of(request, version)
    strict = profile is Profile.STRICT
    method = request.method
    params = request.params
    task_path = (
        tasks_enabled and version is ProtocolVersion.V2025_11_25 and profile is Profile.TURBOMCP
    )

    list_kind = _LIST_KIND.get(method)
    if list_kind is not None:
        listing = catalog.listing(list_kind)
        if listing is None:
            return Refused(
                error_response(
                    request.id, RpcError(METHOD_NOT_FOUND, f"method not found: {method}")
                )
            )
        cursor = params.get("cursor") if isinstance(params, dict) else None
        page = listing.fetch(cursor if isinstance(cursor, str) else None)
        if isinstance(page, RpcError):
            return Refused(error_response(request.id, page))
        unfiltered = task_path and list_kind is ComponentKind.TOOL
        items = page.items if unfiltered else filter_entries(policy, list_kind, page.items, ctx)
        return Listed(list_kind, items, page.next_cursor)

    if method in (TOOLS_CALL, PROMPTS_GET, RESOURCES_READ):
        if task_path and method == TOOLS_CALL and isinstance(params, dict) and "task" in params:
            return Dispatched()
        target = _call_key(request)
        if isinstance(target, RpcError):
            return Refused(error_response(request.id, target))
        kind, key = target
        if is_hidden(catalog, policy, kind, key, ctx, profile=profile):
            return refusal(kind, key, request.id, version)
        if version.is_draft:
            token = _request_state(params)
            if token is not None and not verify_state(method, ctx.identity.subject, token):
                failed = invalid_params("requestState failed verification")
                return Refused(error_response(request.id, failed))
        return Dispatched()

    if method == COMPLETION_COMPLETE:
        parsed = parse_complete_params(params)
        if isinstance(parsed, RouteError):  # VIS-ROUTE-2: refused before the handler runs.
            return Refused(error_response(request.id, parsed))
    if strict and policy is not None and method == COMPLETION_COMPLETE:
        assert isinstance(parsed, CompletionTarget)
        ref = _completion_target(parsed)
        if _completion_hidden(catalog, policy, ref[0], ref[1], ctx):
            kind = (
                ComponentKind.PROMPT if ref[0] is ComponentKind.PROMPT else ComponentKind.RESOURCE
            )
            return refusal(kind, ref[1], request.id, version)
    if strict and policy is not None and method == RESOURCES_SUBSCRIBE and not version.is_draft:
        # 2026-07-28 has no resources/subscribe: turbomcp answers -32601 for every URI, and
        # with no subscription to probe with there is nothing for strict to close.
        uri = params.get("uri") if isinstance(params, dict) else None
        if isinstance(uri, str) and is_hidden(
            catalog, policy, ComponentKind.RESOURCE, uri, ctx, profile=profile
        ):
            return refusal(ComponentKind.RESOURCE, uri, request.id, version)
    return Dispatched()
