"""``NevaRequestStateCodec``: neva's sealed-state token format as the official SDK's
``RequestStateCodec`` (``spec/adapters.md``, ADAPT-CODEC-*).

The SDK's ``RequestStateBoundary`` stamps and checks its own claims envelope (expiry, request,
principal, audience) and hands a codec only bytes to protect.  This codec protects them
exactly as neva does -- ChaCha20-Poly1305 under ``SHA-256("neva:mrtr:requestState:v1" ||
secret)``, the token ``{v1|v2}.{kid}.{b64url(nonce)}.{b64url(ct||tag)}`` with ``{v}.{kid}`` as
associated data, a key ring by kid for rotation -- so a Python server and a neva server sharing
a secret share one token format and one key schedule: a token neva sealed opens here to neva's
exact plaintext, and this codec, given neva's nonce, seals that plaintext to neva's token byte
for byte (both checked against neva's own known answer).  What each server then finds inside is
its own envelope: the SDK's claims for the SDK, neva's payload for neva.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from mcp.server.request_state import InvalidRequestState

from mcp_touchstone.mrtr import Keyring
from mcp_touchstone.mrtr._errors import StateError
from mcp_touchstone.mrtr._state import open_plaintext, seal_plaintext

__all__ = ["NevaRequestStateCodec"]


class NevaRequestStateCodec:
    """An SDK ``RequestStateCodec`` speaking neva's token format (see the module docstring).

    ``keyring`` seals under its active kid and opens under any kid it holds; ``nonce`` returns
    12 fresh bytes per token (``os.urandom`` unless injected); ``audience_bound`` writes the
    ``v2`` version neva uses for audience-bound states (``v1`` otherwise; both open).
    """

    def __init__(
        self,
        keyring: Keyring,
        *,
        nonce: Callable[[], bytes] = lambda: os.urandom(12),
        audience_bound: bool = False,
    ) -> None:
        self.keyring = keyring
        self._nonce = nonce
        self._audience_bound = audience_bound

    def seal(self, payload: bytes) -> str:
        """The neva token protecting ``payload`` (ADAPT-CODEC-1)."""
        return seal_plaintext(
            payload, self.keyring, self._nonce(), audience_bound=self._audience_bound
        )

    def unseal(self, token: str) -> bytes:
        """The plaintext of a token this key ring sealed unmodified, else
        ``InvalidRequestState`` carrying neva's reason (the SDK logs it, never sends it;
        ADAPT-CODEC-2)."""
        try:
            return open_plaintext(token, self.keyring)
        except StateError as exc:
            raise InvalidRequestState(exc.message) from None
