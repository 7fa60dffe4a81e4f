"""Typed errors of the ``mrtr`` semantic, each carrying neva's JSON-RPC code and message."""

from __future__ import annotations

from mcp_touchstone.serde_json import JSON

__all__ = [
    "HEADER_MISMATCH",
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "MISSING_REQUIRED_CLIENT_CAPABILITY",
    "PARSE_ERROR",
    "UNSUPPORTED_PROTOCOL_VERSION",
    "RpcError",
    "StateError",
]

PARSE_ERROR = -32700
"""JSON-RPC ParseError: a sealed payload that is not valid payload JSON (MRTR-OPEN-9)."""
INVALID_PARAMS = -32602
"""JSON-RPC InvalidParams: every other inbound ``requestState`` failure."""
INTERNAL_ERROR = -32603
"""JSON-RPC InternalError: sealing failures (MRTR-SEAL-*)."""
HEADER_MISMATCH = -32020
"""MCP 2026-07-28 ``HeaderMismatch``."""
MISSING_REQUIRED_CLIENT_CAPABILITY = -32021
"""MCP 2026-07-28 ``MissingRequiredClientCapability`` (MRTR-CAP-7)."""
UNSUPPORTED_PROTOCOL_VERSION = -32022
"""MCP 2026-07-28 ``UnsupportedProtocolVersion``."""


class RpcError(Exception):
    """A JSON-RPC error as neva returns it: ``code``, ``message`` and optional ``data``."""

    __slots__ = ("code", "data", "message")

    def __init__(self, code: int, message: str, data: JSON = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def to_json(self) -> dict[str, JSON]:
        """The JSON-RPC ``error`` object; ``data`` is always written, ``null`` when absent."""
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
        return f"{type(self).__name__}({self.code}, {self.message!r})"


class StateError(RpcError):
    """Why a ``requestState`` could not be sealed or opened (MRTR-SEAL-*, MRTR-OPEN-*)."""
