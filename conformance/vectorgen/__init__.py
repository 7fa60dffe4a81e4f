"""Vector generators: tested code that writes the generated files under ``conformance/vectors/``.

Each generator is a module of this package with a function ``files()`` returning
``{<path relative to conformance/vectors/>: <the vector file as a JSON object>}``.  A generator
states its cases by hand from the seeds, the reference notes and the upstream tests; it never
imports ``mcp_touchstone`` to compute an expected answer (the vectors must be able to catch the
reference).  Only byte-level mechanics may be computed (AEAD tokens over hand-written plaintext,
hashes over hand-written canonical text).

``make vectors`` (``python -m conformance.vectorgen``) rewrites every generated file;
``--check`` reports the files that differ and exits 1 (the regenerate-and-diff test runs it).
Files no generator writes are handwritten, and say so in their ``header``.
"""

from __future__ import annotations

import importlib
import json as _json  # aliased: the generator module `json` becomes this package's attribute
import pkgutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

VECTORS = Path(__file__).resolve().parents[1] / "vectors"
"""The vector tree this package writes into."""


def render(doc: Mapping[str, Any], indent: int = 2) -> str:
    """The canonical text of a vector file: 2-space indent (or a generator's ``INDENT``), raw
    UTF-8, a final newline."""
    return _json.dumps(doc, indent=indent, ensure_ascii=False) + "\n"


def generators() -> tuple[str, ...]:
    """The generator modules of this package, by name."""
    here = str(Path(__file__).resolve().parent)
    return tuple(sorted(m.name for m in pkgutil.iter_modules([here]) if not m.name.startswith("_")))


def generated() -> Iterator[tuple[str, str, str]]:
    """Every generated file as ``(generator, relative path, canonical text)``."""
    seen: dict[str, str] = {}
    for name in generators():
        module = importlib.import_module(f"{__name__}.{name}")
        for rel, doc in module.files().items():
            if rel in seen:
                raise RuntimeError(f"{rel} is written by both {seen[rel]} and {name}")
            seen[rel] = name
            yield name, rel, render(doc, getattr(module, "INDENT", 2))


def write_all(root: Path = VECTORS) -> list[str]:
    """Write every generated file under ``root``; return the paths that changed."""
    changed = []
    for _name, rel, text in generated():
        path = root / rel
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            changed.append(rel)
    return changed


def stale(root: Path = VECTORS) -> list[str]:
    """The generated files whose committed text differs from what their generator writes."""
    return [
        rel
        for _name, rel, text in generated()
        if not (root / rel).exists() or (root / rel).read_text(encoding="utf-8") != text
    ]
