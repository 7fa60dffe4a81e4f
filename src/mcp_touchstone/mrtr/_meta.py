"""Where a retry carries its answers: params first, the legacy ``_meta`` read-only
(rules MRTR-RETRY-*), and the typed request ``_meta`` that fallback depends on.
"""

from __future__ import annotations

from dataclasses import dataclass

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone._serde import SerdeError, invalid_type
from mcp_touchstone.mrtr._capabilities import (
    CapabilityError,
    ClientMrtrCapabilities,
    parse_capabilities,
)
from mcp_touchstone.mrtr._errors import INVALID_PARAMS, RpcError
from mcp_touchstone.mrtr._structs import (
    Reader,
    option,
    read_struct,
    seq,
    string,
    string_map,
    unit_enum,
)
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


@dataclass(frozen=True, slots=True)
class RequestMeta:
    """The parts of a typed request ``_meta`` MRTR reads."""

    capabilities: ClientMrtrCapabilities | None = None
    input_responses: dict[str, JSON] | None = None
    request_state: str | None = None


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


def _progress_token(value: JSON) -> None:
    """neva's ``ProgressToken`` visitor (``deserialize_any``): integers (``visit_i64`` /
    ``visit_u64``) and strings (every string reads) only; anything else is refused with the
    visitor's ``expecting`` text."""
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return
    raise SerdeError(invalid_type(value, _PROGRESS_TOKEN_EXPECTED))


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
"""The fields with ``#[serde(default)]``: the only slots a sequence form may leave off."""
_ICON_THEMES = ("dark", "light")
_ICON_FIELDS: dict[str, Reader] = {
    "mimeType": option(string),
    "sizes": option(seq(string)),  # IconSize reads any String
    "src": string,  # Uri(String), a derived newtype
    "theme": option(unit_enum(_ICON_THEMES)),
}
"""neva's ``Icon`` by JSON name in declared order (also its sorted key order)."""
_ICON_OPTIONAL = frozenset({"mimeType", "sizes", "theme"})


def check_icon(value: JSON) -> None:
    """neva's ``Icon`` read as serde_derive reads it (:func:`read_struct`): ``mimeType`` an
    optional string, ``sizes`` an optional list of strings (any string reads as a size), ``src``
    a required string, ``theme`` an optional ``dark`` or ``light``; a sequence form needs all
    four slots (no field has ``#[serde(default)]``)."""
    read_struct(value, "Icon", _ICON_FIELDS, MetaError, optional=_ICON_OPTIONAL)


_IMPLEMENTATION_FIELDS: dict[str, Reader] = {
    "name": string,
    "version": string,
    "icons": option(seq(check_icon)),
}
"""neva's ``Implementation`` by JSON name in declared order; an object's members are read in
sorted key order (``icons`` < ``name`` < ``version``), then missing fields in declared order."""


def _check_client_info(value: JSON) -> None:
    """neva's ``Implementation`` (also the client's read of a server's ``serverInfo``)."""
    read_struct(
        value, "Implementation", _IMPLEMENTATION_FIELDS, MetaError, optional=frozenset({"icons"})
    )


_META_READERS: dict[str, Reader] = {
    "progressToken": option(_progress_token),
    "traceparent": option(string),
    "tracestate": option(string),
    "baggage": option(string),
    "io.modelcontextprotocol/clientInfo": option(_check_client_info),
    "inputResponses": option(string_map),  # InputResponses = HashMap<String, Value>
    "requestState": option(string),
    "io.modelcontextprotocol/logLevel": option(unit_enum(_LOG_LEVEL_VARIANTS)),
    "io.modelcontextprotocol/protocolVersion": option(string),
}
"""Every modelled member but the capabilities (read by :func:`parse_request_meta` itself, to
keep its value), by JSON name; every one is an ``Option``."""


def parse_request_meta(value: JSON) -> RequestMeta:
    """Parse a request ``_meta`` under neva's ``RequestParamsMeta`` field types (an object,
    or serde's sequence form of the struct); any malformed modelled field fails the whole
    parse (MRTR-RETRY-4). serde_derive's order decides which fault is reported (the params
    read of MRTR-ROUND-3 reports it): an object's members in sorted key order; a sequence
    form slot by slot in declared order, a missing slot (only ``inputResponses`` and
    ``requestState`` may be left off) when its turn comes, and extra elements only after
    every slot read (:func:`read_struct`)."""
    read: list[ClientMrtrCapabilities] = []

    def capabilities(member: JSON) -> None:
        if member is not None:
            try:  # the check of this member is its parse: read once, kept for the result
                read.append(parse_capabilities(member))
            except CapabilityError as exc:
                raise MetaError(str(exc)) from None

    meta = read_struct(
        value,
        "RequestParamsMeta",
        {**_META_READERS, CLIENT_CAPABILITIES_KEY: capabilities},
        MetaError,
        optional=META_FIELDS,
        defaulted=_META_DEFAULTED,
    )
    responses = meta.get("inputResponses")
    state = meta.get("requestState")
    return RequestMeta(
        capabilities=read[0] if read else None,
        input_responses=responses if isinstance(responses, dict) else None,
        request_state=state if isinstance(state, str) else None,
    )


@dataclass(frozen=True, slots=True)
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
