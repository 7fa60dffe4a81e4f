"""The sealed ``requestState`` codec and the server-side checks (MRTR-TOKEN-*, MRTR-KEY-*,
MRTR-SEAL-*, MRTR-OPEN-*).

A token is ``{version}.{kid}.{b64url(nonce)}.{b64url(ciphertext || tag)}``, sealed with
ChaCha20-Poly1305 under ``SHA-256(b"neva:mrtr:requestState:v1" || secret)`` with the
header ``"{version}.{kid}"`` as associated data. ``version`` is ``v2`` exactly when
the payload names an audience. Randomness (the nonce) and the clock (``now``) are
arguments; nothing here reads either.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from hashlib import sha256
from types import MappingProxyType

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from mcp_touchstone.mrtr._b64 import B64Error, b64url_decode, b64url_encode
from mcp_touchstone.mrtr._binding import request_binding
from mcp_touchstone.mrtr._errors import INTERNAL_ERROR, INVALID_PARAMS, PARSE_ERROR, StateError
from mcp_touchstone.mrtr._payload import PayloadError, StatePayload
from mcp_touchstone.serde_json import JSON

__all__ = [
    "ACCEPTED_VERSIONS",
    "DEFAULT_KID",
    "DEFAULT_MAX_STATE_BYTES",
    "DEFAULT_TTL_SECS",
    "KEY_LABEL",
    "NONCE_LEN",
    "VERSION",
    "VERSION_AUD",
    "CheckContext",
    "Keyring",
    "derive_key",
    "open_plaintext",
    "open_state",
    "seal",
    "seal_plaintext",
    "verify",
]

VERSION = "v1"
"""Version segment of an unbound state (MRTR-TOKEN-2)."""
VERSION_AUD = "v2"
"""Version segment of an audience-bound state (MRTR-TOKEN-2)."""
ACCEPTED_VERSIONS: tuple[str, ...] = (VERSION, VERSION_AUD)
"""Versions :func:`open_state` accepts, compared exactly."""
DEFAULT_KID = "0"
"""Key id of a single-secret keyring."""
KEY_LABEL = b"neva:mrtr:requestState:v1"
"""Domain label prefixed to the secret before hashing, for both versions (MRTR-KEY-1)."""
NONCE_LEN = 12
"""ChaCha20-Poly1305 nonce length in bytes."""
DEFAULT_MAX_STATE_BYTES = 8 * 1024
"""neva's default cap on a token's UTF-8 length."""
DEFAULT_TTL_SECS = 300
"""neva's fixed state lifetime (``exp = now + ttl`` at each mint)."""


def derive_key(secret: bytes) -> bytes:
    """The 32-byte AEAD key: ``SHA-256(KEY_LABEL || secret)``, no separator (MRTR-KEY-1)."""
    return sha256(KEY_LABEL + secret).digest()


@dataclass(frozen=True, slots=True)
class Keyring:
    """Secrets by key id: the ``active_kid`` seals, any kid in ``keys`` opens (MRTR-KEY-2)."""

    active_kid: str
    keys: Mapping[str, bytes] = field(default_factory=dict)
    _ciphers: dict[bytes, ChaCha20Poly1305] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """Each secret's AEAD, derived on first use and dropped with the keyring (a cache, not
    part of the value: it never changes what the keyring seals or opens)."""
    _sealers: dict[bool, tuple[str, bytes, ChaCha20Poly1305]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """Per header version (audience-bound or not): the token's ``"{version}.{kid}."`` prefix,
    the header bytes and the active AEAD, built by the first seal that passes the key checks
    (a cache like ``_ciphers``: ``keys`` and ``active_kid`` never change, and only an immutable
    ``bytes`` secret is cached)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "keys", MappingProxyType(dict(self.keys)))

    def __repr__(self) -> str:
        """The key ids only: a keyring's repr (in a log, a traceback, an assertion message)
        never shows a secret (MRTR-KEY-3)."""
        kids = ", ".join(repr(kid) for kid in self.keys)
        return f"Keyring(active_kid={self.active_kid!r}, keys=<secrets for {kids or 'no kid'}>)"

    def cipher(self, secret: bytes) -> ChaCha20Poly1305:
        """The AEAD keyed by ``derive_key(secret)``, derived once per keyring."""
        found = self._ciphers.get(secret)
        if found is None:
            found = self._ciphers[secret] = ChaCha20Poly1305(derive_key(secret))
        return found

    def sealer(self, audience_bound: bool) -> tuple[str, bytes, ChaCha20Poly1305]:
        """What a seal under the active key needs: the token prefix ``"{version}.{kid}."``,
        the header (associated data) and the AEAD. Raises :class:`StateError` (``-32603``)
        when the active kid has no key, is empty or contains ``.``, or is not text UTF-8
        can carry (MRTR-SEAL-1, MRTR-SEAL-2)."""
        found = self._sealers.get(audience_bound)
        if found is not None:
            return found
        secret = self.keys.get(self.active_kid)
        if secret is None:
            raise StateError(INTERNAL_ERROR, "active requestState kid has no key in the keyring")
        kid = self.active_kid
        if not kid or "." in kid:
            raise StateError(
                INTERNAL_ERROR, "requestState kid must be non-empty and must not contain '.'"
            )
        header = f"{VERSION_AUD if audience_bound else VERSION}.{kid}"
        try:
            header_bytes = header.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: a str can hold one, neva's String cannot
            raise StateError(INTERNAL_ERROR, "requestState kid must be valid UTF-8 text") from None
        found = (header + ".", header_bytes, self.cipher(bytes(secret)))
        if type(secret) is bytes:  # a mutable secret (a bytearray) is read afresh each seal
            self._sealers[audience_bound] = found
        return found

    @staticmethod
    def single(secret: bytes) -> Keyring:
        """A one-key ring under :data:`DEFAULT_KID`, neva's ``with_request_state_secret``."""
        return Keyring(DEFAULT_KID, {DEFAULT_KID: secret})


@dataclass(frozen=True, slots=True)
class CheckContext:
    """What the server checks an opened state against (MRTR-OPEN-1, -10..-13).

    ``params`` is the request's params (``None`` when absent); ``principal`` the
    authenticated subject; ``audience`` the configured service audience; ``now``
    Unix seconds, injected.
    """

    method: str
    params: JSON
    now: int
    principal: str | None = None
    audience: str | None = None
    max_state_bytes: int = DEFAULT_MAX_STATE_BYTES


def seal(
    payload: StatePayload,
    keyring: Keyring,
    nonce: bytes,
    *,
    max_state_bytes: int | None = None,
) -> str:
    """Seal ``payload`` under the active key with the injected 12-byte ``nonce``.

    Raises :class:`StateError` (``-32603``) when the active kid has no key, when the
    kid is empty or contains ``.``, or, if ``max_state_bytes`` is given, when the token
    exceeds it (MRTR-SEAL-1..4). A nonce of the wrong length is a :class:`ValueError`:
    it is a caller bug, not a protocol outcome.
    """
    token = seal_plaintext(payload.encode(), keyring, nonce, audience_bound=payload.aud is not None)
    if max_state_bytes is not None and len(token.encode("utf-8")) > max_state_bytes:
        raise StateError(INTERNAL_ERROR, "requestState too large")
    return token


def seal_plaintext(
    plaintext: bytes, keyring: Keyring, nonce: bytes, *, audience_bound: bool
) -> str:
    """The token layer of :func:`seal` on any plaintext: header ``v2`` when
    ``audience_bound`` else ``v1``, then the kid, the nonce and the AEAD output, with the header
    as associated data (MRTR-TOKEN-1, MRTR-SEAL-1..3).  Used by :func:`seal` and by codecs
    that carry another plaintext in neva's token format."""
    if len(nonce) != NONCE_LEN:
        raise ValueError(f"nonce must be {NONCE_LEN} bytes, got {len(nonce)}")
    prefix, header, cipher = keyring.sealer(audience_bound)
    sealed = cipher.encrypt(nonce, plaintext, header)
    return f"{prefix}{b64url_encode(nonce)}.{b64url_encode(sealed)}"


def _invalid(message: str) -> StateError:
    return StateError(INVALID_PARAMS, message)


def open_state(token: str, keyring: Keyring) -> StatePayload:
    """Open a token with the codec alone, checks in neva's order (MRTR-OPEN-2..9).

    Raises :class:`StateError`: ``-32602`` for a malformed, unknown, undecodable or
    unauthentic token, ``-32700`` when the authentic plaintext is not payload JSON.
    """
    plaintext = open_plaintext(token, keyring)
    try:
        return StatePayload.decode(plaintext)
    except PayloadError as exc:
        raise StateError(PARSE_ERROR, str(exc)) from None


def open_plaintext(token: str, keyring: Keyring) -> bytes:
    """The token layer of :func:`open_state`: the authentic plaintext, every check before
    the payload decode in neva's order (MRTR-OPEN-2..8), each a ``-32602``
    :class:`StateError`."""
    parts = token.split(".")
    if len(parts) != 4:
        raise _invalid("malformed requestState")
    version, kid, nonce_b64, sealed_b64 = parts
    if version not in ACCEPTED_VERSIONS:
        raise _invalid("unsupported requestState version")
    secret = keyring.keys.get(kid)
    if secret is None:
        raise _invalid("unknown requestState key id")
    try:
        nonce = b64url_decode(nonce_b64)
    except B64Error:
        raise _invalid("bad requestState nonce") from None
    try:
        sealed = b64url_decode(sealed_b64)
    except B64Error:
        raise _invalid("bad requestState payload") from None
    if len(nonce) != NONCE_LEN:
        raise _invalid("bad requestState nonce")
    header = token[: len(version) + 1 + len(kid)].encode("utf-8", "surrogatepass")
    try:
        return keyring.cipher(bytes(secret)).decrypt(nonce, sealed, header)
    except InvalidTag:
        raise _invalid("requestState integrity check failed") from None


def verify(token: str, keyring: Keyring, check: CheckContext) -> StatePayload:
    """Run every server-side check on an inbound token, in neva's order (MRTR-OPEN-1..13):
    size cap before any decoding, the codec, then expiry, request binding, principal and
    audience. Returns the payload or raises :class:`StateError`."""
    size = len(token) if token.isascii() else len(token.encode("utf-8", "surrogatepass"))
    if size > check.max_state_bytes:
        raise _invalid("requestState exceeds the configured maximum size")
    payload = open_state(token, keyring)
    if payload.exp < check.now:
        raise _invalid("requestState expired")
    if payload.req != request_binding(check.method, check.params):
        raise _invalid("requestState does not match this request")
    if payload.principal != check.principal:
        raise _invalid("requestState principal mismatch")
    if payload.aud != check.audience:
        raise _invalid("requestState audience mismatch")
    return payload
