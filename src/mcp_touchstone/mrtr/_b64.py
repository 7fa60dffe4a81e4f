"""Strict unpadded base64url, as the Rust ``base64`` crate's ``URL_SAFE_NO_PAD`` engine
reads and writes it (rule MRTR-B64-1).

Python's :func:`base64.urlsafe_b64decode` is lenient: it accepts padding, ignores
non-zero trailing bits and silently drops characters outside the alphabet. The
decoder here refuses every one of those, so a token is accepted exactly when neva
would accept it.
"""

from __future__ import annotations

import binascii

from mcp_touchstone._errors import TouchstoneError

__all__ = ["B64Error", "b64url_decode", "b64url_encode"]

_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_VALUE = {
    c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
}

_PAD = (b"", b"", b"==", b"=")
"""The padding that completes a text of length ``n`` (``_PAD[n % 4]``); 1 mod 4 is refused."""
_TO_STANDARD = bytes.maketrans(b"-_", b"+/")
_TO_URLSAFE = bytes.maketrans(b"+/", b"-_")


class B64Error(TouchstoneError, ValueError):
    """Text that is not canonical unpadded base64url."""


def b64url_encode(data: bytes) -> str:
    """Encode ``data`` as URL-safe base64 without ``=`` padding."""
    return binascii.b2a_base64(data, newline=False).translate(_TO_URLSAFE, b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """Decode canonical unpadded base64url, or raise :class:`B64Error`.

    Refused: any character outside ``A-Z a-z 0-9 - _`` (so ``=``, ``+``, ``/``,
    whitespace), a length that is 1 modulo 4, and non-zero trailing bits in the
    last character (a non-canonical encoding).
    """
    # Deleting the alphabet leaves nothing exactly when every character is in it.
    if not text.isascii() or (raw := text.encode("ascii")).translate(None, _ALPHABET):
        raise B64Error("invalid base64url symbol")
    rem = len(text) % 4
    if rem:
        if rem == 1:
            raise B64Error("invalid base64url length")
        if rem == 2 and _VALUE[text[-1]] & 0x0F:
            raise B64Error("non-zero trailing bits")
        if rem == 3 and _VALUE[text[-1]] & 0x03:
            raise B64Error("non-zero trailing bits")
        raw += _PAD[rem]
    try:
        return binascii.a2b_base64(raw.translate(_TO_STANDARD), strict_mode=True)
    except binascii.Error as exc:  # pragma: no cover - excluded by the checks above
        raise B64Error(str(exc)) from None
