"""The one error model of mcp-touchstone: a root exception and one JSON-RPC error value.

* :class:`TouchstoneError` is the root of every exception the package raises, so a caller can
  catch everything the package raises (and nothing else) with one ``except``. An error about a
  bad value is a ``ValueError`` as well.
* :class:`RpcError` ``(code, message, data=None)`` is the JSON-RPC ``error`` object an upstream
  answers with: a read-only value compared by fields, and raisable. A semantic that returns
  ``Result<_, JsonRpcError>`` upstream returns ``RpcError | None`` (an outcome as a value); one
  that propagates it raises it (``mrtr``'s ``StateError`` is a subclass).
* :class:`JsonError` is the JSON layer's refusal (:mod:`mcp_touchstone.serde_json`): text or a
  Python value serde_json would not accept.
* The JSON-RPC codes every semantic uses are named here, once.

The two upstreams render the error object differently: neva writes ``data`` always (``null``
when absent), turbomcp omits it when absent. ``RpcError.to_json()`` is neva's rendering;
``RpcError.to_json(omit_absent_data=True)`` is turbomcp's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcp_touchstone._json_value import JSON

__all__ = [
    "HEADER_MISMATCH",
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "MISSING_REQUIRED_CLIENT_CAPABILITY",
    "PARSE_ERROR",
    "RESOURCE_NOT_FOUND",
    "UNSUPPORTED_PROTOCOL_VERSION",
    "URL_ELICITATION_REQUIRED",
    "JsonError",
    "RpcError",
    "TouchstoneError",
]

PARSE_ERROR = -32700
"""JSON-RPC ParseError (neva: a sealed payload that is not payload JSON, MRTR-OPEN-9)."""
INVALID_REQUEST = -32600
"""JSON-RPC InvalidRequest (turbomcp: a ``jsonrpc`` other than ``"2.0"``, VIS-PRE-1)."""
METHOD_NOT_FOUND = -32601
"""JSON-RPC MethodNotFound."""
INVALID_PARAMS = -32602
"""JSON-RPC InvalidParams."""
INTERNAL_ERROR = -32603
"""JSON-RPC InternalError (neva: sealing failures, MRTR-SEAL-*)."""
RESOURCE_NOT_FOUND = -32002
"""MCP ``ResourceNotFound`` before 2026-07-28 (turbomcp ``resources/read``)."""
URL_ELICITATION_REQUIRED = -32042
"""MCP ``UrlElicitationRequired`` (neva's ``UrlElicitationRequiredError``)."""
HEADER_MISMATCH = -32020
"""MCP 2026-07-28 ``HeaderMismatch``."""
MISSING_REQUIRED_CLIENT_CAPABILITY = -32021
"""MCP 2026-07-28 ``MissingRequiredClientCapability`` (MRTR-CAP-7)."""
UNSUPPORTED_PROTOCOL_VERSION = -32022
"""MCP 2026-07-28 ``UnsupportedProtocolVersion``."""


class TouchstoneError(Exception):
    """The root of every exception mcp-touchstone raises."""


class JsonError(TouchstoneError, ValueError):
    """JSON text or a Python value that serde_json would not accept."""


class RpcError(TouchstoneError):
    """A JSON-RPC error object: ``code``, ``message`` and optional ``data``.

    One type for both uses: returned as a value (compared by type and fields; hashed by
    ``(code, message)`` since ``data`` may be an unhashable JSON object) where the upstream
    returns ``Result<_, JsonRpcError>``, and raised where it propagates the error with ``?``
    (the mrtr round engine, ``StateError``). Its fields are read-only.
    """

    __slots__ = ("code", "data", "message")

    code: int
    message: str
    data: JSON

    def __init__(self, code: int, message: str, data: JSON = None) -> None:
        super().__init__(message)
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "data", data)

    def __setattr__(self, name: str, value: object) -> None:
        if name in RpcError.__slots__:
            raise AttributeError(f"{type(self).__name__}.{name} is read-only")
        super().__setattr__(name, value)

    @property
    def error(self) -> RpcError:
        """The plain error value this carries (itself, for a plain ``RpcError``)."""
        if type(self) is RpcError:
            return self
        return RpcError(self.code, self.message, self.data)

    def to_json(self, *, omit_absent_data: bool = False) -> dict[str, JSON]:
        """The wire object: ``data`` written always, ``null`` when absent (neva), or left out
        when absent with ``omit_absent_data`` (turbomcp)."""
        if omit_absent_data and self.data is None:
            return {"code": self.code, "message": self.message}
        return {"code": self.code, "message": self.message, "data": self.data}

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, RpcError)
            and type(other) is type(self)
            and (self.code, self.message, self.data) == (other.code, other.message, other.data)
        )

    def __hash__(self) -> int:
        return hash((self.code, self.message))

    def __repr__(self) -> str:
        if self.data is None:
            return f"{type(self).__name__}({self.code}, {self.message!r})"
        return f"{type(self).__name__}({self.code}, {self.message!r}, {self.data!r})"
