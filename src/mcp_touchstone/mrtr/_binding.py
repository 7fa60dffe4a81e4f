"""Request binding and the input-responses digest (rules MRTR-BIND-*, MRTR-DIGEST-*).

Both hash the canonical JSON of a value (``serde_json`` canonical form: recursively
sorted keys, compact) with SHA-256 and write the digest as unpadded base64url.
"""

from __future__ import annotations

from collections.abc import Mapping
from hashlib import sha256

from mcp_touchstone.mrtr._b64 import b64url_encode
from mcp_touchstone.serde_json import JSON, canonical

__all__ = ["UNBOUND_KEYS", "input_responses_digest", "request_binding", "salient_params"]

UNBOUND_KEYS: frozenset[str] = frozenset({"_meta", "inputResponses", "requestState"})
"""Top-level params keys a request binding leaves out (MRTR-BIND-2)."""


def _digest(value: JSON) -> str:
    return b64url_encode(sha256(canonical(value).encode("utf-8")).digest())


def salient_params(params: JSON) -> JSON:
    """The params a binding covers: an object without its top-level ``_meta``,
    ``inputResponses`` and ``requestState``; any other value (``None`` for absent
    params) unchanged."""
    if isinstance(params, dict):
        return {k: v for k, v in params.items() if k not in UNBOUND_KEYS}
    return params


def request_binding(method: str, params: JSON) -> str:
    """``"{method}:" + b64url(sha256(canonical(salient_params(params))))`` (MRTR-BIND-1).

    Params holding none of the unbound keys are hashed as they are: their salient part is a
    copy equal to them."""
    if isinstance(params, dict) and not UNBOUND_KEYS.isdisjoint(params):
        params = salient_params(params)
    return f"{method}:{_digest(params)}"


def input_responses_digest(responses: Mapping[str, JSON]) -> str:
    """``b64url(sha256(canonical(responses)))``: the final-response cache key's answer
    part (MRTR-DIGEST-1)."""
    return _digest(dict(responses))
