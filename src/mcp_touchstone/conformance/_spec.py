"""The spec's rules as written: a rule is defined by a list item whose first words are its ID in
bold (``- **SCOPE-RES-1** ...``), and the item runs on through every indented line after it,
blank lines between its paragraphs included (spec/README.md). Examples in code fences define
nothing. The lint, the proof links and the tests all read rules through :func:`rule_items`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_RULE_ITEM = re.compile(
    r"^[ \t]*[-*][ \t]+\*\*(?P<rule>[A-Z]+(?:-[A-Z0-9]+)+)\*\*.*(?:\n(?:[ \t]*\n)*[ \t]+\S.*)*",
    re.MULTILINE,
)
_FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True, slots=True)
class RuleItem:
    """One rule's definition: its ID and its whole list item, at ``text[start:end]`` of the
    spec text it was read from (``end`` is the end of its last line, before the newline)."""

    rule: str
    item: str
    start: int
    end: int


def rule_items(text: str) -> list[RuleItem]:
    """Each rule a spec text defines, in order, with its whole list item."""
    fences = [fence.span() for fence in _FENCE.finditer(text)]
    return [
        RuleItem(found["rule"], found[0], found.start(), found.end())
        for found in _RULE_ITEM.finditer(text)
        if not any(start <= found.start() < end for start, end in fences)
    ]


def defined_rules(spec: Path) -> dict[str, str]:
    """Rule ID -> the spec file (under the directory ``spec``) that first defines it."""
    rules: dict[str, str] = {}
    for path in sorted(spec.glob("*.md")):
        for item in rule_items(path.read_text(encoding="utf-8")):
            rules.setdefault(item.rule, path.name)
    return rules
