"""Regression tests for what fuzzing found (docs/assurance.md, "Findings")."""

from __future__ import annotations

from assurance import fuzz_targets
from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone._rust import _grapheme_extend, rust_debug_str


def _debug_str_per_char(text: str) -> str:
    """The per-character rule of Rust's ``Debug for str``, written out without a fast path."""
    names = {"\\": "\\\\", '"': '\\"', "\t": "\\t", "\r": "\\r", "\n": "\\n", "\0": "\\0"}
    out = []
    for ch in text:
        extend = _grapheme_extend(ch)
        if ch in names:
            out.append(names[ch])
        elif ch.isprintable() and not extend:
            out.append(ch)
        else:
            out.append(f"\\u{{{ord(ch):x}}}")
    return '"' + "".join(out) + '"'


@given(st.text(st.characters(codec="utf-8")) | st.text(st.characters(max_codepoint=0x7F)))
def test_rust_debug_str_fast_path_agrees_with_the_per_character_rule(text: str) -> None:
    """rust_debug_str's ASCII fast path (fuzz finding F2) escapes exactly as the per-char rule."""
    assert rust_debug_str(text) == _debug_str_per_char(text)


def test_rust_debug_str_ascii_cases() -> None:
    """Quotes, backslashes, controls and DEL are escaped on the fast path and off it."""
    assert rust_debug_str('a"b\\c') == '"a\\"b\\\\c"'
    assert rust_debug_str("a\tb") == '"a\\tb"'
    assert rust_debug_str("\x7f") == '"\\u{7f}"'
    assert rust_debug_str("e\u0301") == '"e\\u{301}"'


def test_float_text_is_not_idempotent_but_reparses() -> None:
    """Fuzz finding F1: serde_json's default float parse may be one ULP off, so printing a parsed
    float and parsing it again can move its last digit; the fuzz target checks re-parsing only."""
    fuzz_targets.json_from_str(b"2.2109846567023635e-163")


def test_payload_float_re_decodes_up_to_serde_jsons_own_re_read() -> None:
    """Fuzz finding F2 (the same JSON-NUM-3 quirk inside a state payload): a payload holding
    6.052651223840937e+85 is written 6.0526512238409376e+85 and read back one ULP away, and the
    target accepts exactly that re-read, no other change."""
    payload = (
        b'{"answers":{"a":6.052651223840937e+85},"requested":[],"memos":{},'
        b'"effects":[],"exp":1,"req":"r"}'
    )
    fuzz_targets.mrtr_payload(payload)
