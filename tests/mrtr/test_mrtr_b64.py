"""Strict unpadded base64url (spec/mrtr.md MRTR-B64-1)."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.mrtr._b64 import B64Error, b64url_decode, b64url_encode
from tests.strategies.mrtr import b64url_texts

ALPHABET = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


@given(st.binary(max_size=64))
def test_encode_decode_roundtrip(data: bytes) -> None:
    """MRTR-B64-1: encoding is the standard URL-safe alphabet unpadded; decoding inverts it."""
    text = b64url_encode(data)
    assert "=" not in text
    assert text == base64.urlsafe_b64encode(data).decode().rstrip("=")
    assert b64url_decode(text) == data


@given(b64url_texts)
def test_strict_decoder_accepts_exactly_the_canonical_encodings(text: str) -> None:
    """MRTR-B64-1: a text decodes iff it is in the alphabet and re-encodes to itself."""
    canonical = False
    if set(text) <= ALPHABET and len(text) % 4 != 1:
        lenient = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        canonical = b64url_encode(lenient) == text
    if canonical:
        assert b64url_encode(b64url_decode(text)) == text
    else:
        with pytest.raises(B64Error):
            b64url_decode(text)


@pytest.mark.parametrize(
    "text",
    ["AAECAwQFBgcICQo=", "AAECAwQFBgcICQo+", "AB/C", "AAAAA", "QR", "QUF", " QUFB", "QUFB\n"],
)
def test_lenient_inputs_are_refused(text: str) -> None:
    """MRTR-B64-1: padding, standard alphabet, 1 mod 4 length, trailing bits and whitespace fail."""
    with pytest.raises(B64Error):
        b64url_decode(text)


def test_python_is_lenient_where_we_are_not() -> None:
    """MRTR-B64-1: Python's decoder accepts non-zero trailing bits; ours refuses them."""
    assert base64.urlsafe_b64decode("QR==") == b"A"
    with pytest.raises(B64Error):
        b64url_decode("QR")
    assert b64url_decode("QQ") == b"A"
    assert b64url_decode("") == b""
