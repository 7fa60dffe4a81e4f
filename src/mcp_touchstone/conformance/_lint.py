"""``touchstone vectors lint``: the checks a vector tree must pass before it ships (CONF-LINT-1).

Every check reads the tree as it is, so files and operations added later are covered without a
change here: the envelope and the JSON Schema, unique ids, retired ids never reused, canonical
text, the manifest, inputs whose floats survive serde_json's parse, every vector passing against
the reference (in-process), every reference operation having vectors, and every spec rule pinned
by a vector unless the checked allowlist (``conformance/unpinned-rules.txt``) says why not.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp_touchstone import serde_json
from mcp_touchstone.conformance import _manifest
from mcp_touchstone.conformance._spec import defined_rules
from mcp_touchstone.conformance._vectors import Vector, VectorError, load_file

_PREFIX = {"visibility": "vis-"}
ORIGINS = ("handwritten", "upstream-kat", "seed", "z3-model", "crosshair-cex", "drt-shrunk")


@dataclass
class LintReport:
    """What the lint found: problems (each one line) and the figures it measured."""

    problems: list[str] = field(default_factory=list)
    vectors: int = 0
    files: int = 0
    rules_defined: int = 0
    unpinned_allowed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when nothing is wrong."""
        return not self.problems


@dataclass(frozen=True)
class Layout:
    """Where a vector tree's companions live: beside it (``conformance/``, or the wheel's data)."""

    vectors: Path

    @property
    def schema(self) -> Path:
        """The JSON Schema of vector files."""
        return self.vectors.parent / "schema" / "vectors.schema.json"

    @property
    def retired(self) -> Path:
        """The retired-id list."""
        return self.vectors.parent / "retired.txt"

    @property
    def allowlist(self) -> Path:
        """The rules no vector pins, with reasons."""
        return self.vectors.parent / "unpinned-rules.txt"

    @property
    def spec(self) -> Path | None:
        """The spec directory (in the source tree beside ``conformance/``; in the wheel's data)."""
        for candidate in (self.vectors.parent / "spec", self.vectors.parent.parent / "spec"):
            if candidate.is_dir():
                return candidate
        return None


def read_allowlist(path: Path) -> tuple[dict[str, str], list[str]]:
    """``RULE-ID  reason`` lines -> ``({rule: reason}, problems)``; a line without a reason is a
    problem."""
    allowed: dict[str, str] = {}
    problems: list[str] = []
    if not path.is_file():
        return allowed, problems
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        rule, _, reason = line.strip().partition(" ")
        if not reason.strip():
            problems.append(f"{path.name}:{n}: {rule} has no reason")
        allowed[rule] = reason.strip()
    return allowed, problems


def _floats(value: object) -> list[float]:
    if isinstance(value, float):
        return [value]
    if isinstance(value, list):
        return [f for item in value for f in _floats(item)]
    if isinstance(value, dict):
        return [f for item in value.values() for f in _floats(item)]
    return []


def _reads_back(x: float) -> bool:
    back = serde_json.from_str(serde_json.to_string(x))
    return isinstance(back, float) and back == x and math.copysign(1, back) == math.copysign(1, x)


def _schema_check(layout: Layout, docs: dict[Path, Any], report: LintReport) -> None:
    try:
        import jsonschema
    except ImportError:  # pragma: no cover - jsonschema is a runtime dependency
        report.problems.append("jsonschema is not installed: cannot check the schema")
        return
    schema = json.loads(layout.schema.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    for path, doc in docs.items():
        for error in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))[:3]:
            where = "/".join(str(p) for p in error.absolute_path)
            report.problems.append(f"{path}: schema: at /{where}: {error.message[:160]}")


def lint(root: Path, *, run_reference: bool = True) -> LintReport:
    """Every check of CONF-LINT-1 on the tree at ``root``."""
    report = LintReport()
    layout = Layout(root)
    if not root.is_dir():
        report.problems.append(f"{root}: no such vectors directory")
        return report
    docs: dict[Path, Any] = {}
    vectors: list[Vector] = []
    seen: dict[str, Path] = {}
    for path in _manifest.vector_files(root):
        report.files += 1
        text = path.read_text(encoding="utf-8")
        try:
            # load_file first: its parser refuses nesting past serde_json's depth limit, so the
            # json module's recursive decoder below never meets a file nested deeper.
            file_vectors = load_file(path)
            docs[path] = json.loads(text)
        except (ValueError, VectorError) as exc:
            report.problems.append(str(exc) if isinstance(exc, VectorError) else f"{path}: {exc}")
            continue
        if _manifest.canonical_text(text) != text:
            report.problems.append(f"{path}: not in canonical form (2-space JSON, final newline)")
        semantic = docs[path].get("semantic")
        if path.parent.name != semantic:
            report.problems.append(f"{path}: semantic {semantic!r} but lies in {path.parent.name}/")
        prefix = _PREFIX.get(str(semantic), f"{semantic}-")
        for v in file_vectors:
            if not v.id.startswith(prefix):
                report.problems.append(f"{path}: {v.id}: id must start with {prefix!r}")
            if v.id in seen:
                report.problems.append(f"{path}: {v.id}: id also in {seen[v.id]}")
            seen[v.id] = path
        for test in docs[path].get("tests", []):
            origin = str(test.get("origin", "handwritten"))
            if origin not in ORIGINS and not origin.startswith("upstream-test:"):
                report.problems.append(f"{path}: {test.get('id')}: unknown origin {origin!r}")
        vectors.extend(file_vectors)
    report.vectors = len(vectors)
    if layout.schema.is_file():
        _schema_check(layout, docs, report)
    else:
        report.problems.append(f"{layout.schema}: schema not found")
    if layout.retired.is_file():
        retired = {
            line.strip()
            for line in layout.retired.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")
        }
        report.problems += [
            f"{seen[i]}: {i}: a retired id (retired.txt)" for i in retired & set(seen)
        ]
    report.problems += _manifest.check(root)
    report.problems += [
        f"{v.file}: {v.id}: input float {x!r} does not read back as itself (VEC-CASE-1)"
        for v in vectors
        for x in _floats(v.input)
        if not _reads_back(x)
    ]
    if run_reference:
        _against_reference(vectors, report)
    _rule_coverage(layout, vectors, report)
    return report


def _against_reference(vectors: list[Vector], report: LintReport) -> None:
    """Run every vector through the reference harness, as a subprocess over the protocol (the
    conformance tooling never imports a semantic), and name each one it does not pass."""
    from mcp_touchstone.conformance._report import first_difference
    from mcp_touchstone.conformance._runner import (
        ProtocolError,
        Verdict,
        default_command,
        run_vectors,
    )

    try:
        run = run_vectors(vectors, default_command())
    except ProtocolError as exc:
        report.problems.append(f"the reference harness broke the protocol: {exc}")
        return
    for r in run.results:
        v = r.vector
        if r.verdict is Verdict.NOT_APPLICABLE:
            report.problems.append(f"{v.file}: {v.id}: the reference has no {v.operation}")
        elif r.verdict is Verdict.FAIL:
            path, _, _ = first_difference(v.operation, v.expected, r.answer)
            report.problems.append(f"{v.file}: {v.id}: the reference differs at {path}")
        elif r.verdict is not Verdict.PASS:
            report.problems.append(
                f"{v.file}: {v.id}: the reference {r.verdict.value}: {r.message}"
            )
    covered = {v.operation for v in vectors}
    report.problems += [
        f"operation {op} has no vectors" for op in run.operations if op not in covered
    ]


def _rule_coverage(layout: Layout, vectors: list[Vector], report: LintReport) -> None:
    spec = layout.spec
    if spec is None:
        report.notes.append("spec/ not found beside the vectors: rule coverage not checked")
        return
    defined = defined_rules(spec)
    report.rules_defined = len(defined)
    cited = {r for v in vectors for r in v.rules}
    report.problems += sorted(
        {
            f"{v.file}: {v.id}: cites undefined rule {r}"
            for v in vectors
            for r in v.rules
            if r not in defined
        }
    )
    allowed, problems = read_allowlist(layout.allowlist)
    report.problems += problems
    unpinned = sorted(set(defined) - cited)
    report.unpinned_allowed = [r for r in unpinned if r in allowed]
    report.problems += [
        f"rule {r} ({defined[r]}) is pinned by no vector and not in {layout.allowlist.name}"
        for r in unpinned
        if r not in allowed
    ]
    report.problems += [
        f"{layout.allowlist.name}: {r} is now pinned by a vector: remove it from the list"
        for r in sorted(allowed)
        if r in cited
    ]
    report.problems += [
        f"{layout.allowlist.name}: {r} is not a defined rule"
        for r in sorted(allowed)
        if r not in defined
    ]


def render(report: LintReport) -> str:
    """The lint's printed summary."""
    lines = list(report.problems)
    lines += [f"note: {n}" for n in report.notes]
    lines.append(
        f"{report.files} files, {report.vectors} vectors, {report.rules_defined} rules defined, "
        f"{len(report.unpinned_allowed)} pinned by no vector (allowlisted with reasons)"
    )
    lines.append("lint: ok" if report.ok else f"lint: {len(report.problems)} problem(s)")
    return "\n".join(lines)
