"""Every spec rule is pinned somewhere, every cited rule exists, and every semantic rule is
proved or says why it is tested instead (spec/README.md)."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from mcp_touchstone.conformance import default_vectors_dir, load_vectors, rule_items

ROOT = Path(__file__).resolve().parents[1]
RULE_REF = re.compile(r"\b([A-Z]+(?:-[A-Z0-9]+)+)\b")
SEMANTIC_SPECS = ("json.md", "scope.md", "visibility.md", "mrtr.md")
PROVED = re.compile(r"\*Proved by:\*")
TESTED_INSTEAD = re.compile(r"^[ \t]*\*Tested instead:\* +\S", re.MULTILINE)


def _defined() -> dict[str, str]:
    rules: dict[str, str] = {}
    for path in sorted((ROOT / "spec").glob("*.md")):
        for item in rule_items(path.read_text()):
            rule = item.rule
            assert rule not in rules, f"{rule} defined in {rules[rule]} and {path.name}"
            rules[rule] = path.name
    return rules


def _proof_faults(text: str) -> list[str]:
    """The rules of a spec text with neither a *Proved by:* line nor a *Tested instead:* line
    giving a reason, or with both (a proved rule needs no excuse)."""
    faults = []
    for found in rule_items(text):
        rule, item = found.rule, found.item
        proved, excused = PROVED.search(item) is not None, TESTED_INSTEAD.search(item) is not None
        if proved and excused:
            faults.append(f"{rule}: proved, yet says why it is tested instead")
        elif not proved and not excused:
            faults.append(f"{rule}: neither proved nor says why it is tested instead")
    return faults


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


def test_every_semantic_rule_is_proved_or_says_why_tested_instead() -> None:
    """Each rule of json, scope, visibility and mrtr has a *Proved by:* line or a *Tested instead:*
    line with its reason, never both."""
    faults = [
        f for name in SEMANTIC_SPECS for f in _proof_faults((ROOT / "spec" / name).read_text())
    ]
    assert not faults, faults


def test_the_proof_check_names_each_rule_without_a_line_or_with_both() -> None:
    """The check reads a rule's whole item (later paragraphs included, prose after it not) and
    names the rule that lacks a line, gives no reason, or has both."""
    text = textwrap.dedent("""\
        - **X-A-1** Proved. *Pinned by:* `t`.
          *Proved by:* `PROOF-X` (`proofs/manifest.json`).
        - **X-A-2** Bounded, with its reason. *Pinned by:* `t`.
          *Tested instead:* a byte layout, pinned by vectors.
          *Bounded by:* `PROOF-Y` (`proofs/manifest.json`).
        - **X-A-3** Bounded, no reason.
          *Bounded by:* `PROOF-Y` (`proofs/manifest.json`).

        *Tested instead:* prose after a rule is not the rule's.
        - **X-A-4** Both.
          *Tested instead:* wording of an error message.
          *Proved by:* `PROOF-X` (`proofs/manifest.json`).
        - **X-A-5** Two paragraphs.

          *Pinned by:* `t`.
          *Tested instead:* wording of an error message.
        - **X-A-6** A line without its reason.
          *Tested instead:*
        ```
        - **X-A-7** An example in a fence is no rule.
        ```
        """)
    assert _proof_faults(text) == [
        "X-A-3: neither proved nor says why it is tested instead",
        "X-A-4: proved, yet says why it is tested instead",
        "X-A-6: neither proved nor says why it is tested instead",
    ]
