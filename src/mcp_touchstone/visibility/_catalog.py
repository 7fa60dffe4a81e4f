"""The visibility dispatcher's model: method names, the catalog of list handlers, requests and
outcomes (what :func:`mcp_touchstone.visibility.dispatch` reads and answers)."""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from mcp_touchstone._errors import (
    RpcError,
)
from mcp_touchstone.serde_json import JSON, frozen_object
from mcp_touchstone.visibility._policy import (
    ComponentKind,
)

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

    def __post_init__(self) -> None:
        object.__setattr__(self, "meta", frozen_object(self.meta))
        object.__setattr__(self, "wire", frozen_object(self.wire))


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a list: the cursor that fetches it (``None`` for the first page), its
    items in order, and the cursor of the next page, if any."""

    items: tuple[Entry, ...] = ()
    cursor: str | None = None
    next_cursor: str | None = None
    _by_id: dict[str, Entry] = field(default_factory=dict, init=False, repr=False, compare=False)
    """The first entry of each id, built on first lookup (a cache, not part of the value)."""

    def first_with_id(self, key: str) -> Entry | None:
        """The first item whose id equals ``key``, as a front-to-back scan finds it, or
        ``None``: one dictionary lookup once the page's index is built (one pass, on the first
        call), so the call-path check does not grow with the page."""
        index = self._by_id
        if not index and self.items:
            for entry in reversed(self.items):  # Last write wins: the earliest entry stays.
                index[entry.id] = entry
        return index.get(key)


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
