"""Where a retry carries its answers: params first, the legacy ``_meta`` read-only
(rules MRTR-RETRY-*), and the typed request ``_meta`` that fallback depends on.
"""

from __future__ import annotations

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone._record import record
from mcp_touchstone._serde import unexpected, unit_variant_error
from mcp_touchstone.mrtr._capabilities import (
    CapabilityError,
    ClientMrtrCapabilities,
    parse_capabilities,
)
from mcp_touchstone.mrtr._errors import INVALID_PARAMS, RpcError
from mcp_touchstone.mrtr._structs import struct_members
from mcp_touchstone.serde_json import JSON

__all__ = [
    "CLIENT_CAPABILITIES_KEY",
    "META_FIELDS",
    "MRTR_METHODS",
    "MetaError",
    "MetaReading",
    "RequestMeta",
    "check_icon",
    "client_capabilities",
    "input_responses",
    "malformed_mrtr_error",
    "parse_request_meta",
    "read_request_meta",
    "request_state",
]

MRTR_METHODS: frozenset[str] = frozenset({"tools/call", "prompts/get", "resources/read"})
"""The only methods whose requests carry MRTR fields (MRTR-RETRY-1)."""
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
"""The request ``_meta`` key holding the client's capabilities."""


class MetaError(TouchstoneError, ValueError):
    """A request ``_meta`` that neva's typed ``RequestParamsMeta`` parse refuses."""


@record
class RequestMeta:
    """The parts of a typed request ``_meta`` MRTR reads."""

    capabilities: ClientMrtrCapabilities | None = None
    input_responses: dict[str, JSON] | None = None
    request_state: str | None = None


def _opt_str(meta: dict[str, JSON], key: str) -> None:
    value = meta.get(key)
    if value is not None and not isinstance(value, str):
        raise MetaError(f"invalid type: {unexpected(value)}, expected a string")


_LOG_LEVEL_VARIANTS = (
    "debug",
    "info",
    "warning",
    "error",
    "notice",
    "critical",
    "alert",
    "emergency",
)
"""neva's ``LoggingLevel`` variants in declared order (serde lists them so)."""
_PROGRESS_TOKEN_EXPECTED = "a number, UUID, string, or slash-separated path"


def _check_log_level(value: JSON) -> None:
    """``LoggingLevel`` (``rename_all = "lowercase"``) read from a ``serde_json::Value``: a name,
    or the map form ``{name: null}``; serde names an unknown variant before it reads the map's
    value."""
    refused = unit_variant_error(value, _LOG_LEVEL_VARIANTS)
    if refused is not None:
        raise MetaError(refused)


def _check_progress_token(value: JSON) -> None:
    """neva's ``ProgressToken`` visitor: integers and strings only."""
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return
    raise MetaError(f"invalid type: {unexpected(value)}, expected {_PROGRESS_TOKEN_EXPECTED}")


META_FIELDS = (
    "progressToken",
    "traceparent",
    "tracestate",
    "baggage",
    "io.modelcontextprotocol/clientInfo",
    "inputResponses",
    "requestState",
    "io.modelcontextprotocol/logLevel",
    "io.modelcontextprotocol/protocolVersion",
    CLIENT_CAPABILITIES_KEY,
)
"""``RequestParamsMeta``'s fields in declared order (default build: no ``tasks``); also the slots
of its serde sequence form, which the client's typed read walks."""
_META_DEFAULTED = frozenset({"inputResponses", "requestState"})
_ICON_THEMES = ("dark", "light")


def check_icon(value: JSON) -> None:
    """neva's ``Icon``: ``src`` a string; ``mimeType`` a string, ``sizes`` a list of
    strings (any string reads as a size), ``theme`` ``dark`` or ``light``, all optional."""
    icon = struct_members(value, "Icon", ("mimeType", "sizes", "src", "theme"), MetaError)
    if not isinstance(icon.get("src"), str):
        raise MetaError("icon `src` must be a string")
    _opt_str(icon, "mimeType")
    sizes = icon.get("sizes")
    if sizes is not None and not (
        isinstance(sizes, list) and all(isinstance(s, str) for s in sizes)
    ):
        raise MetaError("icon `sizes` must be a list of strings")
    theme = icon.get("theme")
    refused = None if theme is None else unit_variant_error(theme, _ICON_THEMES)
    if refused is not None:  # Any JSON value may arrive: never a set lookup (issue 14 d1).
        raise MetaError(refused)


def _check_client_info(value: JSON) -> None:
    """neva's ``Implementation``: string ``name`` and ``version``, optional ``icons``; members in
    sorted key order (``icons`` < ``name`` < ``version``), then missing fields in declared order."""
    info = struct_members(value, "Implementation", ("name", "version", "icons"), MetaError)
    icons = info.get("icons")
    if icons is not None:
        if not isinstance(icons, list):
            raise MetaError(f"invalid type: {unexpected(icons)}, expected a sequence")
        for icon in icons:
            check_icon(icon)
    for key in ("name", "version"):
        if key in info:
            _opt_str(info, key)
            if info[key] is None:
                raise MetaError("invalid type: null, expected a string")
    for key in ("name", "version"):
        if key not in info:
            raise MetaError(f"missing field `{key}`")


_META_CHECKS: dict[str, str] = {
    "baggage": "str",
    "inputResponses": "map",
    CLIENT_CAPABILITIES_KEY: "caps",
    "io.modelcontextprotocol/clientInfo": "info",
    "io.modelcontextprotocol/logLevel": "level",
    "io.modelcontextprotocol/protocolVersion": "str",
    "progressToken": "token",
    "requestState": "str",
    "traceparent": "str",
    "tracestate": "str",
}
"""Each modelled member and how it reads; checked in sorted key order, as serde visits a
``serde_json::Value`` object (a B-tree map in neva's build)."""


def _check_member(kind: str, meta: dict[str, JSON], key: str) -> None:
    value = meta[key]
    if value is None:
        return  # every modelled member is an Option
    if kind == "str":
        _opt_str(meta, key)
    elif kind == "map":
        if not isinstance(value, dict):
            raise MetaError(f"invalid type: {unexpected(value)}, expected a map")
    elif kind == "caps":
        try:
            parse_capabilities(value)
        except CapabilityError as exc:
            raise MetaError(str(exc)) from None
    elif kind == "info":
        _check_client_info(value)
    elif kind == "level":
        _check_log_level(value)
    else:
        _check_progress_token(value)


def parse_request_meta(value: JSON) -> RequestMeta:
    """Parse a request ``_meta`` under neva's ``RequestParamsMeta`` field types (an object,
    or serde's sequence form of the struct); any malformed modelled field fails the whole
    parse (MRTR-RETRY-4). The message is serde's for the first failing member in sorted key
    order (the params read of MRTR-ROUND-3 reports it)."""
    meta = struct_members(value, "RequestParamsMeta", META_FIELDS, MetaError, _META_DEFAULTED)
    order = sorted(meta) if isinstance(value, dict) else list(meta)
    capabilities: ClientMrtrCapabilities | None = None
    for key in order:
        kind = _META_CHECKS.get(key)
        if kind == "caps" and meta[key] is not None:
            try:  # the check of this member is its parse: read once, kept for the result
                capabilities = parse_capabilities(meta[key])
            except CapabilityError as exc:
                raise MetaError(str(exc)) from None
        elif kind is not None:
            _check_member(kind, meta, key)
    responses = meta.get("inputResponses")
    state = meta.get("requestState")
    return RequestMeta(
        capabilities=capabilities,
        input_responses=responses if isinstance(responses, dict) else None,
        request_state=state if isinstance(state, str) else None,
    )


@record
class MetaReading:
    """One request's ``params._meta`` read once under the typed parse, for every reader of
    the request (the retry fallbacks, the capabilities, the params read): ``source`` is the
    ``_meta`` value read (``None`` when params has none), ``meta`` its parse and ``error``
    the parse's failure (at most one of the two is set)."""

    source: JSON = None
    meta: RequestMeta | None = None
    error: MetaError | None = None


def read_request_meta(params: JSON) -> MetaReading:
    """The :class:`MetaReading` of ``params`` (an object holding ``_meta``; anything else has
    none): what :func:`request_state`, :func:`input_responses`, :func:`client_capabilities`
    and the params read would each parse again."""
    if not isinstance(params, dict) or "_meta" not in params:
        return _NO_META
    source = params["_meta"]
    try:
        return MetaReading(source, parse_request_meta(source))
    except MetaError as exc:
        return MetaReading(source, error=exc)


_NO_META = MetaReading()


def _typed_meta(params: JSON, reading: MetaReading | None = None) -> RequestMeta | None:
    # ``reading`` is read_request_meta(params), when the caller has it.
    return (reading if reading is not None else read_request_meta(params)).meta


def malformed_mrtr_error(method: str, params: JSON) -> RpcError | None:
    """The ``-32602`` error for a wrongly typed ``requestState``/``inputResponses`` on an
    MRTR method (an explicit ``null`` included), params checked before ``_meta``;
    ``None`` when both locations are acceptable or the method is not an MRTR method
    (MRTR-RETRY-1, MRTR-RETRY-2)."""
    if method not in MRTR_METHODS or not isinstance(params, dict):
        return None
    sources: list[dict[str, JSON]] = [params]
    meta = params.get("_meta")
    if isinstance(meta, dict):
        sources.append(meta)
    for source in sources:
        if "requestState" in source and not isinstance(source["requestState"], str):
            return RpcError(INVALID_PARAMS, "`requestState` must be a string")
        if "inputResponses" in source and not isinstance(source["inputResponses"], dict):
            return RpcError(INVALID_PARAMS, "`inputResponses` must be an object")
    return None


def _stated(params: JSON, name: str) -> JSON:
    """``params[name]`` when ``params`` is an object holding it, else ``None``."""
    return params.get(name) if isinstance(params, dict) else None


def request_state(params: JSON, reading: MetaReading | None = None) -> str | None:
    """The echoed ``requestState``: ``params.requestState`` if a string, else the legacy
    ``_meta.requestState`` when the whole ``_meta`` parses (MRTR-RETRY-3). ``reading`` is
    :func:`read_request_meta` of ``params`` when the caller has it."""
    value = _stated(params, "requestState")
    if isinstance(value, str):
        return value
    meta = _typed_meta(params, reading)
    return None if meta is None else meta.request_state


def input_responses(params: JSON, reading: MetaReading | None = None) -> dict[str, JSON] | None:
    """The offered answers: ``params.inputResponses`` if an object (``{}`` included), else
    the legacy ``_meta.inputResponses`` when the whole ``_meta`` parses (MRTR-RETRY-3).
    ``reading`` is :func:`read_request_meta` of ``params`` when the caller has it."""
    value = _stated(params, "inputResponses")
    if isinstance(value, dict):
        return value
    meta = _typed_meta(params, reading)
    return None if meta is None else meta.input_responses


def client_capabilities(params: JSON, reading: MetaReading | None = None) -> ClientMrtrCapabilities:
    """The request's declared capabilities; a ``_meta`` that fails its typed parse
    anywhere declares nothing, it is not an error (MRTR-CAP-8). ``reading`` is
    :func:`read_request_meta` of ``params`` when the caller has it."""
    meta = _typed_meta(params, reading)
    if meta is None or meta.capabilities is None:
        return ClientMrtrCapabilities()
    return meta.capabilities
