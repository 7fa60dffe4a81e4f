"""`touchstone vectors lint`: the tree passes; each planted defect is named (CONF-LINT-1)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mcp_touchstone.conformance import _lint, _manifest

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = ROOT / "conformance"
Doc = dict[str, Any]


def test_shipped_tree_lints_clean() -> None:
    """CONF-LINT-1: the committed tree passes every check, the reference run included; the number
    of rules pinned by no vector is reported (each is allowlisted with a reason)."""
    report = _lint.lint(CONFORMANCE / "vectors")
    assert report.ok, "\n".join(report.problems[:20])
    assert report.vectors >= 1000
    assert report.rules_defined > 100
    text = _lint.render(report)
    assert f"{len(report.unpinned_allowed)} pinned by no vector" in text


def _copy(tmp_path: Path) -> Path:
    """A copy of conformance/ and spec/ laid out as in the repo."""
    shutil.copytree(CONFORMANCE, tmp_path / "conformance", ignore=shutil.ignore_patterns("*.py"))
    shutil.copytree(ROOT / "spec", tmp_path / "spec")
    return tmp_path / "conformance" / "vectors"


def _edit(path: Path, change: Callable[[Doc], None]) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def _first_test(doc: Doc) -> Doc:
    test: Doc = doc["tests"][0]
    return test


def _dup(doc: Doc) -> None:
    doc["tests"].append(dict(_first_test(doc)))


def _wrong(doc: Doc) -> None:
    _first_test(doc)["expected"] = {"string": "WRONG", "bytes": 5}


def _bad_rule(doc: Doc) -> None:
    _first_test(doc)["rules"] = ["JSON-NOPE-1"]


def _bad_schema(doc: Doc) -> None:
    _first_test(doc)["extra"] = 1


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (_dup, "id also in"),
        (_wrong, "the reference differs at $.string"),
        (_bad_rule, "cites undefined rule JSON-NOPE-1"),
        (_bad_schema, "schema:"),
    ],
    ids=["duplicate-id", "wrong-answer", "undefined-rule", "schema"],
)
def test_planted_defects_are_named(
    tmp_path: Path,
    change: Callable[[Doc], None],
    needle: str,
) -> None:
    """CONF-LINT-1: a duplicate id, a wrong expected answer, an undefined rule and a schema
    violation are each reported by name."""
    tree = _copy(tmp_path)
    _edit(tree / "json" / "to_string.json", change)
    _manifest.write(tree)
    problems = _lint.lint(tree).problems
    assert any(needle in p for p in problems), problems[:10]


def test_stale_manifest_noncanonical_and_retired(tmp_path: Path) -> None:
    """CONF-LINT-1, CONF-FMT-1, VEC-ID-1: a file out of canonical form, a manifest not regenerated,
    and a retired id in use are each reported."""
    tree = _copy(tmp_path)
    path = tree / "json" / "to_string.json"
    doc = json.loads(path.read_text())
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    retired = tree.parent / "retired.txt"
    retired.write_text(retired.read_text() + doc["tests"][0]["id"] + "\n")
    problems = _lint.lint(tree, run_reference=False).problems
    text = "\n".join(problems)
    assert "not in canonical form" in text
    assert "sha256 or counts differ" in text
    assert "a retired id" in text


def test_allowlist_must_shrink_and_give_reasons(tmp_path: Path) -> None:
    """CONF-LINT-1: an unpinned rule missing from the allowlist fails, an allowlisted rule that a
    vector now pins fails, and an allowlist line without a reason fails."""
    tree = _copy(tmp_path)
    allow = tree.parent / "unpinned-rules.txt"
    lines = allow.read_text().splitlines()
    dropped = next(line for line in lines if line.startswith("VIS-POL-5"))
    lines.remove(dropped)
    lines += ["JSON-NUM-1  pretend nothing pins it", "VIS-TASK-1"]
    lines = [line for line in lines if not line.startswith("VIS-TASK-1 ")]
    allow.write_text("\n".join(lines) + "\n")
    problems = "\n".join(_lint.lint(tree, run_reference=False).problems)
    assert "rule VIS-POL-5" in problems
    assert "JSON-NUM-1 is now pinned by a vector" in problems
    assert "VIS-TASK-1 has no reason" in problems


def test_new_operation_without_vectors_is_reported(tmp_path: Path) -> None:
    """CONF-LINT-1: every operation the reference serves must have vectors; the check reads the
    registry, so operations added later are covered."""
    tree = _copy(tmp_path)
    shutil.rmtree(tree / "json")
    _manifest.write(tree)
    problems = _lint.lint(tree).problems
    assert "operation json.to_string has no vectors" in problems
