"""JSON-SERDE-1 against Rust itself: ``rust_debug_str`` of every code point, one at a time and
after a letter, beside what ``format!("{:?}", s)`` prints in a program rustc builds here."""

from __future__ import annotations

import os
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

from mcp_touchstone._rust import rust_debug_str

pytestmark = pytest.mark.slow

_PROGRAM = r"""
use std::io::Write;
fn main() {
    let out = std::io::stdout();
    let mut w = std::io::BufWriter::new(out.lock());
    writeln!(w, "{:?}", char::UNICODE_VERSION).unwrap();
    for cp in 0u32..0x110000 {
        if let Some(c) = char::from_u32(cp) {
            writeln!(w, "{:x}\t{:?}\t{:?}", cp, c.to_string(), format!("a{}", c)).unwrap();
        }
    }
}
"""

# Where the deviation is: the one code point whose category changed after Python's Unicode
# (14.0 on Python 3.11; Mn there, Mc in Rust's, so no grapheme extender); code points Python's
# Unicode leaves unassigned (Cn) are the rest of it.
_CATEGORY_CHANGED = {0x1171E}


def _rustc() -> str:
    found = shutil.which("rustc") or str(Path.home() / ".cargo" / "bin" / "rustc")
    if not os.access(found, os.X_OK):
        pytest.fail("rustc is needed: install Rust (https://rustup.rs) or put rustc on PATH")
    return found


def test_json_serde_1_rust_debug_is_rustcs_on_every_code_point(tmp_path: Path) -> None:
    """Every scalar value, alone and after a letter, is written as rustc writes it, but for the
    deviation the spec names; the grapheme-extender table is Unicode 17's, rustc 1.95's."""
    source = tmp_path / "debug_all.rs"
    source.write_text(_PROGRAM, encoding="utf-8")
    binary = tmp_path / "debug_all"
    subprocess.run([_rustc(), "-O", "-o", str(binary), str(source)], check=True, timeout=300)
    out = subprocess.run([str(binary)], check=True, capture_output=True, timeout=120).stdout
    version, *lines = out.decode("utf-8").splitlines()
    assert version.startswith("(17, "), (
        f"rustc's Unicode is {version}; the grapheme-extender table is Unicode 17's: "
        "use rustup's rustc 1.95, or bring _OTHER_GRAPHEME_EXTEND to this version"
    )
    assert len(lines) == 0x110000 - 0x800  # every scalar value
    differ: list[int] = []
    for line in lines:
        hexits, alone, after_a = line.split("\t")
        ch = chr(int(hexits, 16))
        ours = rust_debug_str(ch), rust_debug_str("a" + ch)
        if ours != (alone, after_a):
            differ.append(ord(ch))
    unexplained = [
        f"U+{cp:04X}"
        for cp in differ
        if unicodedata.category(chr(cp)) != "Cn" and cp not in _CATEGORY_CHANGED
    ]
    assert not unexplained, f"rustc {version} writes these otherwise: {unexplained[:20]}"
    assert set(differ) >= _CATEGORY_CHANGED  # the deviation the spec names is still there
