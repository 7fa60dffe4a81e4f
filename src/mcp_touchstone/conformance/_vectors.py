"""Loading and checking conformance vector files (format 1, ``spec/vectors.md``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from mcp_touchstone import serde_json
from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone.serde_json import JSON

FORMAT = "touchstone-vectors/1"
_ID = re.compile(r"^(scope|vis|mrtr|json)-[a-z0-9]+(-[a-z0-9]+)*$")


class VectorError(TouchstoneError, ValueError):
    """A vector file that is not well-formed; the message names the file and the place."""


@dataclass(frozen=True, slots=True)
class Vector:
    """One conformance case: what is sent, what is expected, and why it exists."""

    id: str
    semantic: str
    operation: str
    input: JSON
    expected: JSON
    comment: str
    rules: tuple[str, ...]
    flags: tuple[str, ...]
    file: str


def _require(cond: bool, where: str, message: str) -> None:
    if not cond:
        raise VectorError(f"{where}: {message}")


def load_file(path: Path) -> list[Vector]:
    """Parse one vector file, checking the envelope and every test (VEC-FILE-1, VEC-ID-1)."""
    where = str(path)
    try:
        doc = serde_json.from_str(path.read_bytes())
    except OSError as exc:
        raise VectorError(f"{where}: cannot read: {exc.strerror}") from None
    except serde_json.JsonError as exc:
        raise VectorError(f"{where}: not JSON: {exc}") from None
    _require(isinstance(doc, dict), where, "top level must be an object")
    assert isinstance(doc, dict)
    _require(doc.get("schema") == FORMAT, where, f"schema must be {FORMAT!r}")
    semantic, operation = doc.get("semantic"), doc.get("operation")
    _require(isinstance(semantic, str), where, "semantic must be a string")
    _require(isinstance(operation, str), where, "operation must be a string")
    notes, tests = doc.get("notes"), doc.get("tests")
    _require(isinstance(notes, dict), where, "notes must be an object")
    _require(isinstance(tests, list) and bool(tests), where, "tests must be a non-empty array")
    assert isinstance(semantic, str)
    assert isinstance(operation, str)
    assert isinstance(notes, dict)
    assert isinstance(tests, list)
    out: list[Vector] = []
    for i, test in enumerate(tests):
        at = f"{where}: tests[{i}]"
        _require(isinstance(test, dict), at, "must be an object")
        assert isinstance(test, dict)
        vid = test.get("id")
        _require(isinstance(vid, str) and bool(_ID.match(vid)), at, f"bad id {vid!r}")
        assert isinstance(vid, str)
        at = f"{where}: {vid}"
        for key in ("comment", "rules", "flags", "input", "expected"):
            _require(key in test, at, f"missing {key}")
        rules, flags, comment = test["rules"], test["flags"], test["comment"]
        _require(isinstance(comment, str), at, "comment must be a string")
        _require(
            isinstance(rules, list) and bool(rules) and all(isinstance(r, str) for r in rules),
            at,
            "rules must be a non-empty array of rule ids",
        )
        _require(
            isinstance(flags, list) and all(isinstance(f, str) and f in notes for f in flags),
            at,
            "every flag must name an entry of notes",
        )
        _require(isinstance(test["expected"], dict), at, "expected must be an object")
        assert isinstance(rules, list)
        assert isinstance(flags, list)
        assert isinstance(comment, str)
        out.append(
            Vector(
                id=vid,
                semantic=semantic,
                operation=operation,
                input=test["input"],
                expected=test["expected"],
                comment=comment,
                rules=tuple(str(r) for r in rules),
                flags=tuple(str(f) for f in flags),
                file=where,
            )
        )
    return out


def load_tree(root: Path) -> list[Vector]:
    """Every vector under ``root`` (``<semantic>/<topic>.json``) in path order; ids are unique."""
    if not root.is_dir():
        raise VectorError(f"{root}: no such vectors directory")
    vectors: list[Vector] = []
    seen: dict[str, str] = {}
    for path in sorted(root.glob("*/*.json")):
        for vector in load_file(path):
            if vector.id in seen:
                raise VectorError(f"{path}: id {vector.id} also in {seen[vector.id]}")
            seen[vector.id] = str(path)
            vectors.append(vector)
    return vectors


def default_vectors_dir() -> Path | None:
    """The vectors shipped with the source tree, found from the package's own location, never
    from the working directory (which must not silently replace the suite; VEC-RUN-1)."""
    candidate = Path(__file__).resolve().parents[3] / "conformance" / "vectors"
    return candidate if candidate.is_dir() else None
