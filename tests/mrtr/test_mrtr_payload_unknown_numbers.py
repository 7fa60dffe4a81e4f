"""Skipping an unknown member's number: where it ends, and what may follow a leading zero."""

from __future__ import annotations

import pytest

from mcp_touchstone.mrtr import PayloadError, StatePayload


@pytest.mark.parametrize(
    ("data", "column"),
    [
        (b'{"zz": ' + b" " * 300 + b"12", 309),
        (b'{"zz":' + b"1" * 300, 306),
        (b'{"zz":' + b"1" * 298 + b".5", 306),
    ],
)
def test_mrtr_payload_8_skipped_number_ending_the_text_is_eof(data: bytes, column: int) -> None:
    """MRTR-PAYLOAD-8: skipping an unknown member's number that ends the text (past any small
    length) stops at the end and answers serde_json's ``EOF while parsing an object``."""
    with pytest.raises(PayloadError) as caught:
        StatePayload.decode(data)
    assert str(caught.value) == f"EOF while parsing an object at line 1 column {column}"


@pytest.mark.parametrize(("data", "column"), [(b'{"zz":0/}', 8), (b'{"zz":-0/}', 9)])
def test_mrtr_payload_8_a_zero_ends_before_a_non_digit(data: bytes, column: int) -> None:
    """MRTR-PAYLOAD-8: after a leading ``0`` only a digit is ``invalid number``; any other
    byte (``/``, just below ``0``) ends the number, and the object then wants ``,`` or ``}``."""
    with pytest.raises(PayloadError) as caught:
        StatePayload.decode(data)
    assert str(caught.value) == f"expected `,` or `}}` at line 1 column {column}"
