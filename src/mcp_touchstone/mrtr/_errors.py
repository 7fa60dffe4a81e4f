"""The errors of the ``mrtr`` semantic: neva's JSON-RPC codes and :class:`StateError`.

The codes and the :class:`RpcError` value live in :mod:`mcp_touchstone._errors` (one error model
for the package); they are re-exported here for the names ``mrtr`` code and its users import.
"""

from __future__ import annotations

from mcp_touchstone._errors import (
    HEADER_MISMATCH,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    PARSE_ERROR,
    RESOURCE_NOT_FOUND,
    UNSUPPORTED_PROTOCOL_VERSION,
    URL_ELICITATION_REQUIRED,
    RpcError,
)

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
    "RpcError",
    "StateError",
]


class StateError(RpcError):
    """Why a ``requestState`` could not be sealed or opened (MRTR-SEAL-*, MRTR-OPEN-*): raised,
    an :class:`RpcError` (``exc.error`` is the plain value neva answers with)."""
