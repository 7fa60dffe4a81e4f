"""Helpers shared by the generators: the file envelope."""

from __future__ import annotations

from typing import Any


def envelope(
    *,
    semantic: str,
    operation: str,
    title: str,
    header: list[str],
    source: dict[str, str],
    notes: dict[str, Any],
    tests: list[dict[str, Any]],
    origin: str = "handwritten",
) -> dict[str, Any]:
    """A format-1 vector file; each test gets ``origin`` unless it states its own."""
    return {
        "schema": "touchstone-vectors/1",
        "semantic": semantic,
        "operation": operation,
        "title": title,
        "header": header,
        "source": source,
        "notes": notes,
        "tests": [{**t, "origin": t.get("origin", origin)} for t in tests],
    }
