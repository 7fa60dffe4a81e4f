"""Mutant keys: what names a cosmic-ray mutant of ``make mutants`` so that moving lines never
re-points it, and the two lists keyed by them: the equivalents (``assurance/equivalent.toml``)
and the survivors that a test was later written to kill (``assurance/written_for.toml``).

A key is ``<module>::<qualname> <operator>: <source line with the edited span in ⟦ ⟧>``, with
`` #k`` for the k-th identical one in one function: the module under ``src/mcp_touchstone``, the
enclosing def or class (``<module>`` at top level), cosmic-ray's operator, and the text it edits.
"""

from __future__ import annotations

import ast
import hashlib
import tomllib
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "mcp_touchstone"
EQUIVALENTS = ROOT / "assurance" / "equivalent.toml"
WRITTEN_FOR = ROOT / "assurance" / "written_for.toml"
_OPEN, _CLOSE = "⟦", "⟧"


def definitions(source: str) -> list[tuple[int, int, str]]:
    """(first line incl. decorators, last line, qualname) of every def and class."""
    out: list[tuple[int, int, str]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                out.append((first, child.end_lineno or child.lineno, prefix + child.name))
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return out


def _marked(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> str:
    """The source lines of the span, the span itself in ⟦ ⟧, each line stripped."""
    (l1, c1), (l2, c2) = start, end
    text = lines[l1 - 1 : l2]
    text[-1] = text[-1][:c2] + _CLOSE + text[-1][c2:]
    text[0] = text[0][:c1] + _OPEN + text[0][c1:]
    joined = " ⏎ ".join(t.strip() for t in text)
    return joined if len(joined) <= 240 else joined[:239] + "…"


Spec = tuple[str, str, tuple[int, int], tuple[int, int]]  # module, operator, start, end


def keys_of(specs: Iterable[Spec], sources: dict[str, str]) -> list[str]:
    """The key of each mutant, in order; ``sources`` maps each module to its text."""
    specs = list(specs)
    parsed = {rel: (src.splitlines(), definitions(src)) for rel, src in sources.items()}
    seen: dict[str, int] = {}
    out: list[str] = [""] * len(specs)
    for i in sorted(range(len(specs)), key=lambda i: (specs[i][0], specs[i][1], specs[i][2])):
        rel, op, start, end = specs[i]
        lines, defs = parsed[rel]
        inner = [d for d in defs if d[0] <= start[0] <= d[1]]
        qual = max(inner)[2] if inner else "<module>"
        key = f"{rel}::{qual} {op}: {_marked(lines, start, end)}"
        seen[key] = seen.get(key, 0) + 1
        out[i] = key if seen[key] == 1 else f"{key} #{seen[key]}"
    return out


def _char_col(line: str, byte_col: int) -> int:
    return len(line.encode()[:byte_col].decode(errors="ignore"))


def annotation_spans(source: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The spans of the annotations Python never evaluates: every parameter, return and
    variable annotation of a module under ``from __future__ import annotations`` that does not
    load pydantic (whose models read them); none otherwise."""
    tree = ast.parse(source)
    future = any(
        isinstance(n, ast.ImportFrom)
        and n.module == "__future__"
        and any(a.name == "annotations" for a in n.names)
        for n in tree.body
    )
    if not future or "pydantic" in source:
        return []
    lines = source.splitlines()
    out = []
    for node in ast.walk(tree):
        notes = []
        if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
            notes.append(node.annotation)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            notes.append(node.returns)
        for a in notes:
            end_line, end_col = a.end_lineno or a.lineno, a.end_col_offset or 0
            start = (a.lineno, _char_col(lines[a.lineno - 1], a.col_offset))
            out.append((start, (end_line, _char_col(lines[end_line - 1], end_col))))
    return out


def in_annotation(
    spans: list[tuple[tuple[int, int], tuple[int, int]]],
    start: tuple[int, int],
    end: tuple[int, int],
) -> bool:
    """Whether the span ``start..end`` lies inside one of ``spans``."""
    return any(s <= start and end <= e for s, e in spans)


def split_key(key: str) -> tuple[str, str, str, str]:
    """(module, qualname, operator, marked text) of a key."""
    where, rest = key.split(" ", 1)
    rel, qual = where.split("::", 1)
    op, text = rest.split(": ", 1)
    return rel, qual, op, text


def enumerate_mutants(
    path: Path, operator: str | None = None
) -> list[tuple[str, tuple[int, int], tuple[int, int]]]:
    """(operator, start, end) of every mutant cosmic-ray makes of one module, in its order
    (what ``cosmic-ray init`` records), optionally of one operator only."""
    import cosmic_ray.plugins
    from cosmic_ray.ast import ast_nodes, get_ast_from_path

    module_ast = get_ast_from_path(path)
    out = []
    for name in cosmic_ray.plugins.operator_names():
        cls = cosmic_ray.plugins.get_operator(name)
        if (operator is not None and name != operator) or cls.arguments():
            continue
        op = cls()
        out += [
            (name, s, e) for node in ast_nodes(module_ast) for s, e in op.mutation_positions(node)
        ]
    return out


def ranked(keys: Iterable[str], seed: int) -> list[str]:
    """``keys`` in the seeded ranking order: by SHA-256 of ``seed:key``."""
    return sorted(keys, key=lambda k: hashlib.sha256(f"{seed}:{k}".encode()).digest())


def _keyed(path: Path, table: str, field: str) -> dict[str, str]:
    """key -> the entry's ``field``, for every ``[[table]]`` entry of a keyed list."""
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    out: dict[str, str] = {}
    for e in doc.get(table, []):
        key = f"{e['module']}::{e['function']} {e['operator']}: {e['text']}"
        if not str(e.get(field, "")).strip():
            raise ValueError(f"{path.name}: {key}: no {field} given")
        out[key] = e[field]
    return out


def load_equivalents(path: Path = EQUIVALENTS) -> dict[str, str]:
    """key -> why, from ``assurance/equivalent.toml``."""
    return _keyed(path, "equivalent", "why")


def load_written_for(path: Path = WRITTEN_FOR) -> dict[str, str]:
    """key -> the test written to kill that survivor, from ``assurance/written_for.toml``.  A
    later sample that draws one of these counts it as a first-pass survivor: the tests it
    first met did not kill it."""
    return _keyed(path, "written_for", "test")
