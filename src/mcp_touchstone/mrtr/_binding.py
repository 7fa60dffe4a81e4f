"""Request binding and the input-responses digest (rules MRTR-BIND-*, MRTR-DIGEST-*).

Both hash the canonical JSON of a value (``serde_json`` canonical form: recursively
sorted keys, compact) with SHA-256 and write the digest as unpadded base64url.
"""

from __future__ import annotations

from collections.abc import Mapping

from mcp_touchstone.mrtr._b64 import b64url_encode
from mcp_touchstone.serde_json import JSON, canonical

__all__ = ["UNBOUND_KEYS", "input_responses_digest", "request_binding", "salient_params"]

UNBOUND_KEYS: frozenset[str] = frozenset({"_meta", "inputResponses", "requestState"})
"""Top-level params keys a request binding leaves out (MRTR-BIND-2)."""


TYPE_CHECKING = False  # typing's constant, without importing typing at run time
if TYPE_CHECKING:
    from hashlib import sha256 as _sha256
else:  # CPython's own SHA-256 module: a harness process need not import hashlib (issue 11)
    try:
        from _sha256 import sha256 as _sha256  # Python 3.11
    except ImportError:  # pragma: no cover -- other versions and interpreters
        try:
            from _sha2 import sha256 as _sha256  # Python 3.12+
        except ImportError:
            from hashlib import sha256 as _sha256
sha256 = _sha256
"""SHA-256, the same digest as ``hashlib.sha256`` (``tests/mrtr/test_mrtr_sha256.py``) without
``hashlib``'s start-up: importing it loads OpenSSL's libcrypto a second time beside
cryptography's and probes every algorithm, about a tenth of importing the mrtr package."""


def _digest(value: JSON) -> str:
    return b64url_encode(_sha256(canonical(value).encode("utf-8")).digest())


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
    return f"{method}:{b64url_encode(_sha256(canonical(params).encode('utf-8')).digest())}"


def input_responses_digest(responses: Mapping[str, JSON]) -> str:
    """``b64url(sha256(canonical(responses)))``: the final-response cache key's answer
    part (MRTR-DIGEST-1)."""
    return _digest(dict(responses))
