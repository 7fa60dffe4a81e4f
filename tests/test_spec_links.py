"""Every spec rule is pinned somewhere, and every cited rule exists (spec/README.md)."""

from __future__ import annotations

import re
from pathlib import Path

from mcp_touchstone.conformance import default_vectors_dir, load_vectors

ROOT = Path(__file__).resolve().parents[1]
RULE_DEF = re.compile(r"^\s*[-*]\s+\*\*([A-Z]+(?:-[A-Z0-9]+)+)\*\*", re.MULTILINE)
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
RULE_REF = re.compile(r"\b([A-Z]+(?:-[A-Z0-9]+)+)\b")


def _defined() -> dict[str, str]:
    rules: dict[str, str] = {}
    for path in sorted((ROOT / "spec").glob("*.md")):
        text = FENCE.sub("", path.read_text())  # Examples in code fences define nothing.
        for rule in RULE_DEF.findall(text):
            assert rule not in rules, f"{rule} defined in {rules[rule]} and {path.name}"
            rules[rule] = path.name
    return rules


def _cited_in_code() -> set[str]:
    cited: set[str] = set()
    for folder in ("tests", "proofs"):
        for path in (ROOT / folder).rglob("*.py"):
            cited.update(RULE_REF.findall(path.read_text()))
    return cited


def test_rules_are_unique_and_well_formed() -> None:
    """Rule IDs are defined once each, across all spec files."""
    assert len(_defined()) > 20


def test_every_rule_is_pinned() -> None:
    """Every rule is cited by a vector's rules or by a test or proof."""
    root = default_vectors_dir()
    assert root is not None
    cited = _cited_in_code()
    for vector in load_vectors(root):
        cited.update(vector.rules)
    unpinned = sorted(set(_defined()) - cited)
    assert not unpinned, f"rules pinned by nothing: {unpinned}"


def test_vectors_cite_only_defined_rules() -> None:
    """VEC-RULE-1: a vector's rules all exist in spec/."""
    root = default_vectors_dir()
    assert root is not None
    defined = _defined()
    dangling = sorted(
        {f"{v.id}: {r}" for v in load_vectors(root) for r in v.rules if r not in defined}
    )
    assert not dangling, f"vectors cite undefined rules: {dangling}"
