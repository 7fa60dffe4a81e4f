"""Known answers recorded from serde_json 1.0.149 itself (tests/json/serde_kat.json)."""

from __future__ import annotations

import json
from pathlib import Path

from mcp_touchstone.serde_json import JsonError, from_str, to_string

_KAT = json.loads((Path(__file__).parent / "serde_kat.json").read_text(encoding="utf-8"))


def _ours(text: str) -> str | None:
    try:
        return to_string(from_str(text))
    except JsonError:
        return None


def test_recorded_serde_json_answers() -> None:
    """JSON-PARSE-1..6, JSON-NUM-1..4, JSON-WRITE-1, JSON-STR-1/2, JSON-FLOAT-1..4: from_str then
    to_string gives serde_json 1.0.149's text, or fails where it fails, on every recorded case."""
    cases = _KAT["cases"]
    assert len(cases) > 2000
    wrong = [(text, want, got) for text, want in cases if (got := _ours(text)) != want]
    assert not wrong, wrong[:5]
