"""The one error model of mcp-touchstone: a root exception and one JSON-RPC error value.

* :class:`TouchstoneError` is the root of every exception the package raises, so a caller can
  catch everything the package raises (and nothing else) with one ``except``. Classes that were
  ``ValueError`` subclasses stay ``ValueError`` subclasses as well.
* :class:`RpcError` is a frozen *value* ``(code, message, data=None)``: the JSON-RPC ``error``
  object an upstream answers with. A semantic that returns ``Result<_, JsonRpcError>`` upstream
  returns ``RpcError | None`` (an outcome as a value); one that raises carries an ``RpcError`` in
  an exception (:class:`RaisedRpcError`, e.g. ``mrtr``'s ``StateError``).
* The JSON-RPC codes every semantic uses are named here, once.

The two upstreams render the error object differently: neva writes ``data`` always (``null``
when absent), turbomcp omits it when absent. ``RpcError.to_json()`` is neva's rendering;
``RpcError.to_json(omit_absent_data=True)`` is turbomcp's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcp_touchstone.serde_json import JSON

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
    "RaisedRpcError",
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
HEADER_MISMATCH = -32020
"""MCP 2026-07-28 ``HeaderMismatch``."""
MISSING_REQUIRED_CLIENT_CAPABILITY = -32021
"""MCP 2026-07-28 ``MissingRequiredClientCapability`` (MRTR-CAP-7)."""
UNSUPPORTED_PROTOCOL_VERSION = -32022
"""MCP 2026-07-28 ``UnsupportedProtocolVersion``."""


class TouchstoneError(Exception):
    """The root of every exception mcp-touchstone raises."""


@dataclass(frozen=True, slots=True)
class RpcError:
    """A JSON-RPC error object: ``code``, ``message`` and optional ``data``.

    A value (frozen, compared by fields); hashed by ``(code, message)`` since ``data`` may be
    an unhashable JSON object.
    """

    code: int
    message: str
    data: JSON = None

    def to_json(self, *, omit_absent_data: bool = False) -> dict[str, JSON]:
        """The wire object: ``data`` written always, ``null`` when absent (neva), or left out
        when absent with ``omit_absent_data`` (turbomcp)."""
        if omit_absent_data and self.data is None:
            return {"code": self.code, "message": self.message}
        return {"code": self.code, "message": self.message, "data": self.data}

    def __hash__(self) -> int:
        return hash((self.code, self.message))

    def __repr__(self) -> str:
        if self.data is None:
            return f"{type(self).__name__}({self.code}, {self.message!r})"
        return f"{type(self).__name__}({self.code}, {self.message!r}, {self.data!r})"


class RaisedRpcError(TouchstoneError):
    """An exception carrying an :class:`RpcError`: the raising form, for a core function whose
    upstream fails by returning an error the caller propagates (``?``) straight to the wire.

    Exposes the carried error's ``code``, ``message``, ``data`` and ``to_json()``; ``str(exc)``
    is the message. Compared by type and carried error.
    """

    def __init__(self, code: int, message: str, data: JSON = None) -> None:
        super().__init__(message)
        self.error = RpcError(code, message, data)

    @property
    def code(self) -> int:
        """The JSON-RPC code."""
        return self.error.code

    @property
    def message(self) -> str:
        """The JSON-RPC message."""
        return self.error.message

    @property
    def data(self) -> JSON:
        """The JSON-RPC ``data`` (``None`` when absent)."""
        return self.error.data

    def to_json(self, *, omit_absent_data: bool = False) -> dict[str, JSON]:
        """The carried error's wire object (see :meth:`RpcError.to_json`)."""
        return self.error.to_json(omit_absent_data=omit_absent_data)

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and isinstance(other, RaisedRpcError)
            and (other.error == self.error)
        )

    def __hash__(self) -> int:
        return hash(self.error)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code}, {self.message!r})"
