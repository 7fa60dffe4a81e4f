"""Helpers shared by the generators: the file envelope, a vector's row, a Chio tool grant.

They only assemble JSON around what the caller states by hand; nothing here computes an
expected answer.
"""

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


def vector(  # noqa: PLR0917 (a vector is one row of seven fields; keywords would bloat every table)
    vid: str,
    comment: str,
    rules: list[str],
    flags: list[str],
    inp: Any,
    expected: Any,
    origin: str = "handwritten",
) -> dict[str, Any]:
    """One vector, its fields in the format's order."""
    return {
        "id": vid,
        "comment": comment,
        "rules": rules,
        "flags": flags,
        "origin": origin,
        "input": inp,
        "expected": expected,
    }


def grant(
    server: str,
    tool: str,
    constraints: list[Any] | None = None,
    operations: list[Any] | None = None,
) -> dict[str, Any]:
    """A Chio tool grant in its JSON shape: ``invoke`` unless ``operations`` says otherwise, and
    no ``constraints`` key when there are none."""
    out: dict[str, Any] = {
        "server_id": server,
        "tool_name": tool,
        "operations": ["invoke"] if operations is None else operations,
    }
    if constraints:
        out["constraints"] = constraints
    return out
