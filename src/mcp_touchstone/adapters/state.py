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
from typing import Any

from mcp.server.request_state import InvalidRequestState

from mcp_touchstone.mrtr import Keyring, StateError, open_plaintext, seal_plaintext

__all__ = ["SDK_STATE_MEMO", "NevaRequestStateCodec", "NevaStateBoundary"]


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


SDK_STATE_MEMO = "io.touchstone/sdkRequestState"
"""The memo key under which a Python handler's own ``request_state`` string travels inside a
neva payload (neva carries memos it does not know, unread)."""

_MRTR_METHODS = frozenset({"tools/call", "prompts/get", "resources/read"})


class NevaStateBoundary:
    """A ``ServerMiddleware`` that replaces the SDK's ``RequestStateBoundary`` with neva's state
    semantics, so a Python server and a neva server sharing a secret accept each other's
    states (ADAPT-NEVA-*).

    Inbound, a ``requestState`` is verified as neva verifies it (size cap, codec, expiry,
    request binding over the salient params, principal, audience -- :func:`verify`), its answers
    are merged with the offered ``inputResponses`` by neva's rules (settled answers kept,
    unsolicited ones dropped), and the handler sees the merged answers and its own
    ``request_state`` string (none for a state neva minted).  A failure is neva's ``-32602``
    with neva's message.  Outbound, an ``input_required`` result is sealed into a neva payload:
    the answers so far, ``requested`` = the keys asked now, the memos carried (the handler's
    string under :data:`SDK_STATE_MEMO`), a TTL from now, the request binding, principal and
    audience.  ``principal`` maps the request context to the bound subject (default: the access
    token's subject); ``clock`` and ``nonce`` are injected.
    """

    def __init__(
        self,
        keyring: Keyring,
        *,
        ttl: int = 300,
        audience: str | None = None,
        principal: Callable[[object], str | None] | None = None,
        max_state_bytes: int | None = None,
        clock: Callable[[], float] | None = None,
        nonce: Callable[[], bytes] = lambda: os.urandom(12),
    ) -> None:
        import time

        from mcp_touchstone.mrtr import DEFAULT_MAX_STATE_BYTES

        self.keyring = keyring
        self.ttl = ttl
        self.audience = audience
        self._principal = principal
        self.max_state_bytes = (
            DEFAULT_MAX_STATE_BYTES if max_state_bytes is None else max_state_bytes
        )
        self._clock = clock or time.time
        self._nonce = nonce

    def install(self, server: object) -> object:
        """Replace ``server``'s ``RequestStateBoundary`` with this one (an ``MCPServer``, or a
        lowlevel ``Server``); returns ``server``."""
        from mcp.server.request_state import RequestStateBoundary

        low = getattr(server, "_lowlevel_server", server)
        chain = low.middleware  # type: ignore[attr-defined]
        at = next((i for i, m in enumerate(chain) if isinstance(m, RequestStateBoundary)), None)
        if at is None:
            chain.append(self)
        else:
            chain[at] = self
        return server

    def _subject(self, ctx: object) -> str | None:
        if self._principal is not None:
            return self._principal(ctx)
        from mcp.server.auth.middleware.auth_context import get_access_token

        token = get_access_token()
        return None if token is None else (token.subject or token.client_id)

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        """Verify and seed inbound, seal outbound (see the class docstring)."""
        if ctx.method not in _MRTR_METHODS:
            return await call_next(ctx)
        from dataclasses import replace

        from mcp.shared.exceptions import MCPError

        from mcp_touchstone.mrtr import CheckContext, merge_answers, verify

        params = dict(ctx.params or {})
        now = int(self._clock())
        principal = self._subject(ctx)
        token = params.get("requestState")
        settled: dict[str, Any] = {}
        memos: dict[str, Any] = {}
        effects: tuple[str, ...] = ()
        requested: tuple[str, ...] | None = None
        if token is not None:
            if not isinstance(token, str):
                raise MCPError(-32602, "requestState must be a string")
            check = CheckContext(
                ctx.method, params, now, principal, self.audience, self.max_state_bytes
            )
            try:
                payload = verify(token, self.keyring, check)
            except StateError as exc:
                raise MCPError(exc.code, exc.message) from None
            settled, memos = dict(payload.answers), dict(payload.memos)
            effects, requested = payload.effects, payload.requested
        offered = params.get("inputResponses")
        answers = merge_answers(settled, requested, offered if isinstance(offered, dict) else None)
        inner = dict(params)
        if token is not None or offered is not None:
            inner["inputResponses"] = answers
        inner["requestState"] = memos.get(SDK_STATE_MEMO) if token is not None else None
        if inner["requestState"] is None:
            inner.pop("requestState")
        result = await call_next(replace(ctx, params=inner))
        return self._seal(
            ctx.method,
            params,
            result,
            answers=answers,
            memos=memos,
            effects=effects,
            principal=principal,
            now=now,
        )

    def _seal(
        self,
        method: str,
        params: dict[str, Any],
        result: Any,
        *,
        answers: dict[str, Any],
        memos: dict[str, Any],
        effects: tuple[str, ...],
        principal: str | None,
        now: int,
    ) -> Any:
        from collections.abc import Mapping

        from mcp.shared.exceptions import MCPError

        from mcp_touchstone.mrtr import StatePayload, request_binding, seal

        if not isinstance(result, Mapping) or result.get("resultType") != "input_required":
            return result
        asked = result.get("inputRequests") or {}
        own = result.get("requestState")
        carried = dict(memos)
        if isinstance(own, str):
            carried[SDK_STATE_MEMO] = own
        payload = StatePayload(
            answers=answers,
            exp=now + self.ttl,
            req=request_binding(method, params),
            requested=tuple(asked),
            memos=carried,
            effects=effects,
            principal=principal,
            aud=self.audience,
        )
        try:
            token = seal(payload, self.keyring, self._nonce(), max_state_bytes=self.max_state_bytes)
        except StateError as exc:
            raise MCPError(exc.code, exc.message) from None
        return {**result, "requestState": token}
