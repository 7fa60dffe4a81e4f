"""The vector tree's canonical text and its manifest (``conformance/vectors/MANIFEST.json``).

The manifest lets a team that vendors the plain files check what it copied: the sha256 of every
file, and the number of vectors per semantic, operation, flag and rule (CONF-SHIP-2).  It is
generated from the tree (``touchstone vectors manifest`` / ``make vectors``), never edited by hand,
so operations and files added later are picked up without touching this code.

Canonical text (CONF-FMT-1) is 2-space indented JSON in raw UTF-8 with a final newline, numbers
kept exactly as written (``-0`` stays ``-0``: Python's ``json`` would turn it into ``0``).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

from mcp_touchstone import __version__

MANIFEST = "MANIFEST.json"
MANIFEST_SCHEMA = "touchstone-manifest/1"


class _Number(str):
    """A JSON number literal, kept as its source text."""


def _keep(text: str) -> _Number:
    return _Number(text)


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def parse_exact(text: str) -> Any:
    """Parse JSON text keeping number literals as written and object keys in order."""
    return json.loads(text, parse_int=_keep, parse_float=_keep, parse_constant=_reject_constant)


def _dump(value: Any, indent: str, out: list[str]) -> None:
    if isinstance(value, _Number):
        out.append(str(value))
    elif isinstance(value, str) or value is None or isinstance(value, bool):
        out.append(json.dumps(value, ensure_ascii=False))
    elif isinstance(value, int | float):  # Only for documents built in Python, not parsed.
        out.append(json.dumps(value))
    elif isinstance(value, list):
        if not value:
            out.append("[]")
            return
        inner = indent + "  "
        out.append("[\n")
        for i, item in enumerate(value):
            out.append(inner)
            _dump(item, inner, out)
            out.append(",\n" if i < len(value) - 1 else "\n")
        out.append(indent + "]")
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = indent + "  "
        out.append("{\n")
        for i, (key, item) in enumerate(value.items()):
            out.append(inner + json.dumps(key, ensure_ascii=False) + ": ")
            _dump(item, inner, out)
            out.append(",\n" if i < len(value) - 1 else "\n")
        out.append(indent + "}")
    else:
        raise TypeError(f"not JSON: {type(value).__name__}")


def canonical_text(text: str) -> str:
    """The canonical form of a vector file's text (CONF-FMT-1)."""
    out: list[str] = []
    _dump(parse_exact(text), "", out)
    return "".join(out) + "\n"


def vector_files(root: Path) -> list[Path]:
    """The vector files of a tree, ``<semantic>/<topic>.json``, in path order."""
    return sorted(root.glob("*/*.json"))


def build(root: Path) -> dict[str, Any]:
    """The manifest of the tree at ``root`` (CONF-SHIP-2)."""
    files: dict[str, Any] = {}
    semantics: Counter[str] = Counter()
    operations: Counter[str] = Counter()
    flags: Counter[str] = Counter()
    rules: Counter[str] = Counter()
    origins: Counter[str] = Counter()
    for path in vector_files(root):
        data = path.read_bytes()
        doc = json.loads(data)
        tests = doc.get("tests", [])
        rel = path.relative_to(root).as_posix()
        files[rel] = {
            "sha256": hashlib.sha256(data).hexdigest(),
            "semantic": doc.get("semantic"),
            "operation": doc.get("operation"),
            "vectors": len(tests),
        }
        semantics[str(doc.get("semantic"))] += len(tests)
        operations[str(doc.get("operation"))] += len(tests)
        for test in tests:
            flags.update(f"{doc.get('semantic')}:{f}" for f in test.get("flags", []))
            rules.update(test.get("rules", []))
            origins[str(test.get("origin", "handwritten")).split(":")[0]] += 1
    return {
        "schema": MANIFEST_SCHEMA,
        "suite_version": __version__,
        "vectors": sum(semantics.values()),
        "files": files,
        "counts": {
            "semantic": dict(sorted(semantics.items())),
            "operation": dict(sorted(operations.items())),
            "flag": dict(sorted(flags.items())),
            "rule": dict(sorted(rules.items())),
            "origin": dict(sorted(origins.items())),
        },
    }


def render(manifest: dict[str, Any]) -> str:
    """The manifest's file text."""
    return json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"


def write(root: Path) -> bool:
    """Write ``root/MANIFEST.json``; ``True`` when its text changed."""
    path = root / MANIFEST
    text = render(build(root))
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True


def check(root: Path) -> list[str]:
    """The ways ``root/MANIFEST.json`` disagrees with the tree (empty when it is current)."""
    path = root / MANIFEST
    if not path.is_file():
        return [f"{path}: missing (run `touchstone vectors manifest` or `make vectors`)"]
    try:
        committed = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return [f"{path}: unreadable: {exc}"]
    fresh = build(root)
    problems: list[str] = []
    old_files, new_files = committed.get("files", {}), fresh["files"]
    for rel in sorted(set(old_files) | set(new_files)):
        if rel not in new_files:
            problems.append(f"{rel}: listed in the manifest but absent")
        elif rel not in old_files:
            problems.append(f"{rel}: not in the manifest")
        elif old_files[rel] != new_files[rel]:
            problems.append(f"{rel}: sha256 or counts differ from the manifest")
    if not problems and committed != fresh:
        problems.append("counts differ from the tree")
    if problems:
        problems.append("run `touchstone vectors manifest` (or `make vectors`) to regenerate")
    return problems
