"""The dispatcher's visibility layer as a pure function over a catalog and a request.

``dispatch`` answers what turbomcp 4's dispatcher does with a request once a visibility
policy may be installed: a list comes back filtered (VIS-LIST-*), a call to a hidden
component is refused exactly as a nonexistent one (VIS-CALL-*, VIS-REFUSE-*), and everything
else reaches the handler.  The ``turbomcp`` profile mirrors the upstream, fail-open paths
included; the ``strict`` profile closes them (VIS-STRICT-*).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from mcp_touchstone.serde_json import JSON, to_string_ordered
from mcp_touchstone.visibility._identity import identity_from_meta
from mcp_touchstone.visibility._policy import (
    ComponentKind,
    ProtocolVersion,
    RequestContext,
    Visibility,
    VisibilityPolicy,
    VisibleComponent,
)
from mcp_touchstone.visibility._router import (
    CompletionTarget,
    RouteError,
    parse_complete_params,
    route_refusal,
)
from mcp_touchstone.visibility._serde import Field, FieldKind, SerdeError, deserialize_struct
from mcp_touchstone.visibility._template import uri_template_matches

TOOLS_LIST = "tools/list"
TOOLS_CALL = "tools/call"
RESOURCES_LIST = "resources/list"
RESOURCES_TEMPLATES_LIST = "resources/templates/list"
RESOURCES_READ = "resources/read"
PROMPTS_LIST = "prompts/list"
PROMPTS_GET = "prompts/get"
COMPLETION_COMPLETE = "completion/complete"
RESOURCES_SUBSCRIBE = "resources/subscribe"

JSONRPC_VERSION = "2.0"
LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"
"""The draft's per-request logging opt-in, a request ``_meta`` key (VIS-PRE-2)."""

LOG_LEVELS = frozenset(
    ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
)
"""The wire names of turbomcp's ``LogLevel`` (RFC 5424 severities, lowercase)."""

VERSION_GATED = frozenset(
    (
        TOOLS_LIST,
        TOOLS_CALL,
        RESOURCES_LIST,
        RESOURCES_TEMPLATES_LIST,
        RESOURCES_READ,
        PROMPTS_LIST,
        PROMPTS_GET,
        COMPLETION_COMPLETE,
    )
)
"""The methods turbomcp routes by protocol revision and hands to its capability dispatch."""

FRAMEWORK_META_KEYS = frozenset(
    (
        "io.modelcontextprotocol/protocolVersion",
        "progressToken",
        "traceparent",
        "tracestate",
        "baggage",
        "io.modelcontextprotocol/subscriptionId",
        "io.modelcontextprotocol/clientInfo",
        "io.modelcontextprotocol/clientCapabilities",
        LOG_LEVEL_KEY,
    )
)
"""Request ``_meta`` keys the framework consumes; with every ``io.turbomcp.internal/*`` key
they never reach ``RequestContext.propagated_meta`` (VIS-POL-7)."""


def is_framework_key(key: str) -> bool:
    """Whether turbomcp consumes request ``_meta`` key ``key`` instead of propagating it."""
    return key in FRAMEWORK_META_KEYS or key.startswith("io.turbomcp.internal/")


class Profile(enum.Enum):
    """Which behaviour to model: the upstream exactly, or with its holes closed."""

    TURBOMCP = "turbomcp"
    """turbomcp 4.0 case for case, including its fail-open paths (the default)."""
    STRICT = "strict"
    """Every hole of the turbomcp profile closed (VIS-STRICT-*)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One listed component: its id (name, URI or URI template), its ``_meta``, and the
    object as listed (returned unchanged in a filtered list)."""

    id: str
    meta: Mapping[str, JSON] = field(default_factory=dict)
    wire: Mapping[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a list: the cursor that fetches it (``None`` for the first page), its
    items in order, and the cursor of the next page, if any."""

    items: tuple[Entry, ...] = ()
    cursor: str | None = None
    next_cursor: str | None = None


@dataclass(frozen=True, slots=True)
class RpcError:
    """A JSON-RPC error object as rendered for the request's revision (no ``data``)."""

    code: int
    message: str

    def to_json(self) -> dict[str, JSON]:
        """The wire object ``{"code", "message"}``."""
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True, slots=True)
class Listing:
    """What a registered list handler answers: its pages, or ``error`` for every call.

    A cursor no page answers to gets an empty final page: cursors are the handler's business
    and the visibility layer never looks inside them.
    """

    pages: tuple[Page, ...] = (Page(),)
    error: RpcError | None = None
    ignores_cursor: bool = False
    """Serve the first page whatever the cursor, as a ``#[server]`` impl does."""

    def fetch(self, cursor: str | None) -> Page | RpcError:
        """The handler's answer for ``cursor``."""
        if self.error is not None:
            return self.error
        if self.ignores_cursor:
            return self.pages[0] if self.pages else Page()
        for page in self.pages:
            if page.cursor == cursor:
                return page
        return Page((), cursor, None)


@dataclass(frozen=True, slots=True)
class Catalog:
    """The server's four list handlers; ``None`` means the capability is not registered."""

    tools: Listing | None = None
    resources: Listing | None = None
    resource_templates: Listing | None = None
    prompts: Listing | None = None

    def listing(self, kind: ComponentKind) -> Listing | None:
        """The list handler for ``kind``."""
        if kind is ComponentKind.TOOL:
            return self.tools
        if kind is ComponentKind.RESOURCE:
            return self.resources
        if kind is ComponentKind.RESOURCE_TEMPLATE:
            return self.resource_templates
        return self.prompts


@dataclass(frozen=True, slots=True)
class Request:
    """A JSON-RPC request: ``id`` (i64 or string), ``method``, ``params`` (``None`` when
    absent or ``null``, which the upstream does not tell apart), and the ``jsonrpc`` version
    it declares (``"2.0"`` when it omits the field, as turbomcp's decoder defaults it)."""

    id: int | str
    method: str
    params: JSON = None
    jsonrpc: str = JSONRPC_VERSION


@dataclass(frozen=True, slots=True)
class Listed:
    """A list request's answer: the page after filtering (order kept, cursor untouched)."""

    kind: ComponentKind
    items: tuple[Entry, ...]
    next_cursor: str | None = None


@dataclass(frozen=True, slots=True)
class Refused:
    """The request is answered before its handler runs: the full JSON-RPC response object."""

    response: dict[str, JSON]


@dataclass(frozen=True, slots=True)
class Dispatched:
    """The request passes the visibility layer and reaches its handler."""


Outcome = Listed | Refused | Dispatched
"""What :func:`dispatch` answers."""

StateVerifier = Callable[[str, str | None, str], bool]
"""``verify(method, subject, token) -> bool``: whether a client-supplied ``requestState``
verifies.  Injected, so the core holds no key and reads no clock."""


def reject_every_state(method: str, subject: str | None, token: str) -> bool:
    """The verifier of a server whose signing key the client cannot know: nothing verifies."""
    del method, subject, token
    return False


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


# --------------------------------------------------------------------------- responses


def error_response(request_id: int | str, error: RpcError) -> dict[str, JSON]:
    """``{"jsonrpc": "2.0", "id": ..., "error": {...}}``."""
    return {"jsonrpc": "2.0", "id": request_id, "error": error.to_json()}


def success_response(request_id: int | str, result: JSON) -> dict[str, JSON]:
    """``{"jsonrpc": "2.0", "id": ..., "result": ...}``."""
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def invalid_params(message: str) -> RpcError:
    """turbomcp's ``McpError::InvalidParams`` rendered: ``-32602``, ``invalid params: ...``."""
    return RpcError(-32602, f"invalid params: {message}")


def unknown_tool_result(name: str, version: ProtocolVersion) -> dict[str, JSON]:
    """The ``CallToolResult`` turbomcp answers for a tool it does not know (VIS-REFUSE-1)."""
    result: dict[str, JSON] = {
        "content": [{"type": "text", "text": f"unknown tool: {name}"}],
        "isError": True,
    }
    if version.is_draft:
        result["resultType"] = "complete"
    return result


def unknown_prompt_error(name: str) -> RpcError:
    """The error for a prompt turbomcp does not know (VIS-REFUSE-2)."""
    return invalid_params(f"unknown prompt: {name}")


def resource_not_found_error(uri: str, version: ProtocolVersion) -> RpcError:
    """The error for a URI turbomcp cannot read: ``-32002`` before 2026-07-28, ``-32602`` on it
    (VIS-REFUSE-3)."""
    return RpcError(-32602 if version.is_draft else -32002, f"resource not found: {uri}")


def refusal(
    kind: ComponentKind, key: str, request_id: int | str, version: ProtocolVersion
) -> Refused:
    """The answer a nonexistent component of ``kind`` addressed as ``key`` gets."""
    if kind is ComponentKind.TOOL:
        return Refused(success_response(request_id, unknown_tool_result(key, version)))
    if kind is ComponentKind.PROMPT:
        return Refused(error_response(request_id, unknown_prompt_error(key)))
    return Refused(error_response(request_id, resource_not_found_error(key, version)))


# --------------------------------------------------------------------------- the check


def _pages(listing: Listing, every_page: bool) -> tuple[Page, ...] | RpcError:
    """The first page, or (strict) every page reachable by following ``next_cursor``."""
    first = listing.fetch(None)
    if isinstance(first, RpcError) or not every_page:
        return first if isinstance(first, RpcError) else (first,)
    pages = [first]
    seen: set[str | None] = {None}
    cursor = first.next_cursor
    while cursor is not None and cursor not in seen:
        seen.add(cursor)
        page = listing.fetch(cursor)
        if isinstance(page, RpcError):
            return page
        pages.append(page)
        cursor = page.next_cursor
    return tuple(pages)


def _find(
    catalog: Catalog, kind: ComponentKind, matches: Callable[[Entry], bool], strict: bool
) -> Entry | RpcError | None:
    """The first listed entry of ``kind`` that ``matches``; ``None`` when the capability is
    unregistered or nothing matches; the list error when listing failed."""
    listing = catalog.listing(kind)
    if listing is None:
        return None
    pages = _pages(listing, strict)
    if isinstance(pages, RpcError):
        return pages
    for page in pages:
        for entry in page.items:
            if matches(entry):
                return entry
    return None


def _judge(
    policy: VisibilityPolicy, kind: ComponentKind, entry: Entry, ctx: RequestContext
) -> bool:
    """Whether ``policy`` hides ``entry``."""
    if type(policy) is Visibility:  # exact type: a subclass may override the verdict
        return not policy.admits(entry.meta, ctx)
    return not policy(VisibleComponent(kind, entry.id, entry.meta, ctx))


def is_hidden(
    catalog: Catalog,
    policy: VisibilityPolicy | None,
    kind: ComponentKind,
    key: str,
    ctx: RequestContext,
    *,
    profile: Profile = Profile.TURBOMCP,
) -> bool:
    """The call-path check: whether the component a call addresses is hidden (VIS-CALL-*).

    ``kind`` is ``TOOL`` or ``PROMPT`` (``key`` a name) or ``RESOURCE`` (``key`` a URI; the
    templates are consulted when no concrete resource has that URI).  Without a policy
    nothing is hidden.  The ``turbomcp`` profile lists the first page only and treats a
    component no list mentions, an unregistered list and a failing list as *not* hidden; the
    ``strict`` profile lists every page and treats all three as hidden (VIS-STRICT-1..3).
    """
    if policy is None:
        return False
    strict = profile is Profile.STRICT
    if kind is not ComponentKind.RESOURCE:
        found = _find(catalog, kind, lambda e: e.id == key, strict)
        if isinstance(found, Entry):
            return _judge(policy, kind, found, ctx)
        return strict
    concrete = _find(catalog, ComponentKind.RESOURCE, lambda e: e.id == key, strict)
    if isinstance(concrete, Entry):
        return _judge(policy, ComponentKind.RESOURCE, concrete, ctx)
    if strict and isinstance(concrete, RpcError):
        return True
    template = _find(
        catalog,
        ComponentKind.RESOURCE_TEMPLATE,
        lambda e: uri_template_matches(e.id, key),
        strict,
    )
    if isinstance(template, Entry):
        return _judge(policy, ComponentKind.RESOURCE_TEMPLATE, template, ctx)
    return strict


def filter_entries(
    policy: VisibilityPolicy | None,
    kind: ComponentKind,
    items: tuple[Entry, ...],
    ctx: RequestContext,
) -> tuple[Entry, ...]:
    """The entries ``policy`` admits, order kept; all of them without a policy (VIS-LIST-1)."""
    if policy is None:
        return items
    if type(policy) is Visibility:  # exact type: a subclass may override the verdict
        return tuple(e for e in items if policy.admits(e.meta, ctx))
    return tuple(e for e in items if policy(VisibleComponent(kind, e.id, e.meta, ctx)))


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
        error = RpcError(-32600, 'invalid jsonrpc version (expected "2.0")')
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
        return Refused(error_response(request.id, RpcError(routed.code, routed.message)))
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
                error_response(request.id, RpcError(-32601, f"method not found: {method}"))
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
            return Refused(error_response(request.id, RpcError(parsed.code, parsed.message)))
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
