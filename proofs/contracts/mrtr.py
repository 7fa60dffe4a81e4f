# ruff: noqa: PLR0917 - CrossHair builds every symbolic input as a positional argument.
"""CrossHair contracts on the MRTR core (PEP 316 ``pre:``/``post:`` docstrings)."""

from __future__ import annotations

from dataclasses import dataclass

from crosshair import realize
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from mcp_touchstone.mrtr import (
    CheckContext,
    ClientMrtrCapabilities,
    ElicitationMode,
    ElicitationModes,
    InputKind,
    InputRequest,
    Keyring,
    StateError,
    StatePayload,
    missing_capability_error,
    salient_params,
    seal,
    verify,
)
from mcp_touchstone.mrtr._binding import request_binding
from mcp_touchstone.serde_json import JSON, canonical

SIZE_MESSAGE = "requestState exceeds the configured maximum size"


def _caps(
    declared: bool, form: bool, url: bool, sampling: bool, roots: bool
) -> ClientMrtrCapabilities:
    modes = ElicitationModes(form, url) if declared else None
    return ClientMrtrCapabilities(modes, sampling, roots)


def _allows_spec(
    declared: bool,
    form: bool,
    url: bool,
    sampling: bool,
    roots: bool,
    kind: InputKind,
    mode: ElicitationMode | None,
) -> bool:
    """MRTR-CAP-4..6 restated: an unnamed mode set admits every mode; a named one only its own;
    an elicitation without a mode is a form."""
    if kind is InputKind.ELICITATION:
        wanted_url = mode is ElicitationMode.URL
        return declared and ((not form and not url) or (url if wanted_url else form))
    return sampling if kind is InputKind.SAMPLING else roots


def allows_iff_declared(
    declared: bool,
    form: bool,
    url: bool,
    sampling: bool,
    roots: bool,
    kind: InputKind,
    mode: ElicitationMode | None,
) -> bool:
    """PROOF-MRTR-ALLOWS: ``allows`` holds iff the declared capabilities admit the request.

    pre: kind is InputKind.ELICITATION or mode is None
    post: __return__ == _allows_spec(declared, form, url, sampling, roots, kind, mode)
    """
    request = InputRequest(kind, {}, mode)
    return _caps(declared, form, url, sampling, roots).allows(request)


def one_undeclared_kind_fails_the_round(
    kinds: list[InputKind], sampling: bool, roots: bool, declared: bool
) -> bool:
    """PROOF-MRTR-CAP-ROUND: the round fails iff some request is not allowed, and the error
    names the first such request in ask order.

    pre: len(kinds) <= 3
    post: __return__
    """
    caps = _caps(declared, False, False, sampling, roots)
    requests = [InputRequest(k, {}) for k in kinds]
    error = missing_capability_error(caps, requests)
    refused = [r for r in requests if not caps.allows(r)]
    if not refused:
        return error is None
    return error is not None and f"`{refused[0].method}`" in error.message


def binding_ignores_order_and_unbound_keys(key: str, number: int, name: str, meta: int) -> bool:
    """PROOF-MRTR-BIND: what the binding hashes (the canonical text of the salient params) is
    the same for params in another key order and with ``_meta``, ``inputResponses`` and
    ``requestState`` added; the binding is that text's digest (the known-answer vectors).

    pre: key not in ("_meta", "inputResponses", "requestState", "name")
    pre: -(2**53) < number < 2**53
    pre: all(not ("\\ud800" <= c <= "\\udfff") for c in key + name)
    post: __return__
    """
    plain: dict[str, JSON] = {"name": name, key: number}
    noisy: dict[str, JSON] = {
        "requestState": "s",
        key: number,
        "_meta": {"m": meta},
        "inputResponses": {"a": {"v": meta}},
        "name": name,
    }
    # Hashing realizes symbolic strings (CrossHair cannot see through SHA-256), so the contract
    # states equality of the digest's input; request_binding's format is pinned by KAT vectors.
    return canonical(salient_params(plain)) == canonical(salient_params(noisy))


# ----------------------------------------------------------------------------- verify
# CrossHair cannot trace the AEAD (C code), and sealing a symbolic payload would realize it: the
# tokens are sealed once, at import, one per sealed value of a stated table; the symbolic part
# is the request side (the caller's principal, the configured audience, the clock, the cap), and
# a symbolic index chooses the token.  ``verify`` runs whole on every path, real crypto included.


class ConcreteAead:
    """The real AEAD called with concrete bytes: CrossHair models the bytes ``open_plaintext``
    decodes as symbolic values, which the C code cannot read."""

    def __init__(self, aead: ChaCha20Poly1305) -> None:
        self.aead = aead

    def encrypt(self, nonce: bytes, data: bytes, associated: bytes) -> bytes:
        return self.aead.encrypt(realize(nonce), realize(data), realize(associated))

    def decrypt(self, nonce: bytes, data: bytes, associated: bytes) -> bytes:
        return self.aead.decrypt(realize(nonce), realize(data), realize(associated))


@dataclass(frozen=True)
class ConcreteKeyring(Keyring):
    """A :class:`Keyring` whose AEAD is :class:`ConcreteAead` over its own real one."""

    def cipher(self, secret: bytes) -> ChaCha20Poly1305:
        # The keyring's callers use ``encrypt`` and ``decrypt`` alone, which ConcreteAead has.
        return ConcreteAead(super().cipher(realize(secret)))  # type: ignore[return-value]


RING = ConcreteKeyring("0", {"0": b"proof-secret"})
NONCE = bytes(12)
METHOD, NOW = "tools/call", 1000
NAMES: tuple[str | None, ...] = (None, "", "a", "\u00e9", "alice")
"""Sealed principals and audiences: none (a ``v1`` token for an audience), empty, one ASCII and
one non-ASCII character, a name."""
N_NAMES = len(NAMES)
EXPS = (0, NOW, 2**64 - 1)
"""Sealed expiry times: the u64 range's ends and a time between."""
N_EXPS = len(EXPS)


def _sealed(exp: int = NOW, principal: str | None = None, aud: str | None = None) -> str:
    payload = StatePayload({}, exp, request_binding(METHOD, None), principal=principal, aud=aud)
    return seal(payload, RING, NONCE)


BY_PRINCIPAL = tuple(_sealed(principal=name) for name in NAMES)
BY_AUDIENCE = tuple(_sealed(aud=name) for name in NAMES)
BY_EXP = tuple(_sealed(exp=exp) for exp in EXPS)


def _accepts(token: str, check: CheckContext) -> bool:
    try:
        verify(token, RING, check)
    except StateError:
        return False
    return True


def principal_must_equal(sealed: int, caller: str | None) -> bool:
    """PROOF-MRTR-PRINCIPAL: ``verify`` accepts iff the sealed principal equals the caller's;
    ``None`` equals only ``None``, so a null on either side alone fails closed.

    pre: 0 <= sealed < N_NAMES
    post: __return__ == (NAMES[sealed] == caller)
    """
    return _accepts(BY_PRINCIPAL[sealed], CheckContext(METHOD, None, NOW, principal=caller))


def audience_must_equal(sealed: int, configured: str | None) -> bool:
    """PROOF-MRTR-AUDIENCE: ``verify`` accepts iff the sealed audience equals the configured
    one; a null or absent audience on either side alone fails closed.

    pre: 0 <= sealed < N_NAMES
    post: __return__ == (NAMES[sealed] == configured)
    """
    return _accepts(BY_AUDIENCE[sealed], CheckContext(METHOD, None, NOW, audience=configured))


def expiry_inclusive_of_now(sealed: int, now: int) -> bool:
    """PROOF-MRTR-EXPIRES: a state is live through ``exp == now`` and expired after.

    pre: 0 <= sealed < N_EXPS
    post: __return__ == (EXPS[sealed] >= now)
    """
    return _accepts(BY_EXP[sealed], CheckContext(METHOD, None, now))


def size_checked_first(token: str, cap: int) -> str:
    """PROOF-MRTR-SIZE-FIRST: a token over the size cap (counted in UTF-8 bytes, a lone
    surrogate as three) is refused for its size, whatever its content (the cap is checked
    before any decoding).

    pre: len(token) <= 2 or (len(token) <= 12 and token.isascii())
    pre: 0 <= cap < len(token.encode("utf-8", "surrogatepass"))
    post: __return__ == SIZE_MESSAGE
    """
    try:
        verify(token, RING, CheckContext(METHOD, None, NOW, max_state_bytes=cap))
    except StateError as exc:
        return exc.message
    return "accepted"
