"""Pydantic wire models at the boundary: ``InputRequiredResult`` and the answer types
(rules MRTR-WIRE-*). Strict: no coercion between JSON types, unknown fields ignored
(neva uses no ``deny_unknown_fields``).

Imported explicitly (``from mcp_touchstone.mrtr.wire import ElicitResult``): the rest of
:mod:`mcp_touchstone.mrtr` loads no pydantic.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from mcp_touchstone.mrtr._meta import MetaError, parse_request_meta
from mcp_touchstone.mrtr._requests import InputRequest, InputRequestError, decode_input_request
from mcp_touchstone.serde_json import JSON

__all__ = [
    "CreateMessageResult",
    "ElicitResult",
    "InputRequiredResult",
    "ListRootsResult",
    "Root",
]

_STRICT = ConfigDict(strict=True, extra="ignore", frozen=True, populate_by_name=False)
"""Strict, unknown members ignored, immutable; read by the wire names only (serde's `rename`:
a Python field name such as `stop_reason` or `meta` is an unknown member there)."""


class ElicitResult(BaseModel):
    """The answer to ``elicitation/create``: only ``action`` is required."""

    model_config = _STRICT
    action: Literal["accept", "decline", "cancel"]
    content: Any = None
    meta: Any = Field(default=None, alias="_meta")

    def to_json(self) -> dict[str, JSON]:
        """neva's writing: ``content`` always present (``null`` when absent)."""
        out: dict[str, JSON] = {"action": self.action, "content": self.content}
        if self.meta is not None:
            out["_meta"] = self.meta
        return out


class CreateMessageResult(BaseModel):
    """The answer to ``sampling/createMessage``: ``role``, ``content``, ``model`` required."""

    model_config = _STRICT
    role: Literal["user", "assistant"]
    content: dict[str, Any] | list[dict[str, Any]]
    model: str
    stop_reason: str | None = Field(default=None, alias="stopReason")


class Root(BaseModel):
    """A filesystem root; neva requires ``name`` (stricter than the MCP schema)."""

    model_config = _STRICT
    uri: str
    name: str
    meta: Any = Field(default=None, alias="_meta")


class ListRootsResult(BaseModel):
    """The answer to ``roots/list``; its ``_meta`` is neva's typed ``RequestParamsMeta``."""

    model_config = _STRICT
    roots: list[Root]
    meta: Any = Field(default=None, alias="_meta")

    @field_validator("meta", mode="before")
    @classmethod
    def _typed_meta(cls, value: Any) -> Any:
        if value is not None:
            try:
                parse_request_meta(value)
            except MetaError as exc:
                raise ValueError(str(exc)) from None
        return value


class InputRequiredResult(BaseModel):
    """``{"resultType": "input_required", "inputRequests"?, "requestState"?}``."""

    model_config = _STRICT
    result_type: Literal["input_required"] = Field(alias="resultType")
    # Values are decoded InputRequest envelopes (typed Any: the JSON alias is recursive).
    input_requests: dict[str, Any] | None = Field(default=None, alias="inputRequests")
    request_state: str | None = Field(default=None, alias="requestState")

    @field_validator("input_requests", mode="before")
    @classmethod
    def _decode_requests(cls, value: Any) -> Any:
        if value is None or not isinstance(value, dict):
            return value
        out: dict[str, InputRequest] = {}
        for key, envelope in value.items():
            try:
                out[key] = decode_input_request(envelope)
            except InputRequestError as exc:
                raise ValueError(str(exc)) from None
        return out

    def requests(self) -> dict[str, InputRequest]:
        """The decoded input requests by key (empty when ``inputRequests`` is absent)."""
        return dict(self.input_requests or {})

    def to_json(self) -> dict[str, JSON]:
        """The wire object; absent fields are omitted, not written as ``null``."""
        out: dict[str, JSON] = {"resultType": self.result_type}
        if self.input_requests is not None:
            out["inputRequests"] = {k: v.to_json() for k, v in self.requests().items()}
        if self.request_state is not None:
            out["requestState"] = self.request_state
        return out
