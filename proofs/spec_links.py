"""``python -m proofs.spec_links``: write each spec rule's proof line from the registry.

A rule that properties cover ends with one line naming them by the verdict each claims:
``*Proved by:*`` (CrossHair confirmed over a stated domain), ``*Bounded by:*`` (a concrete
enumeration, or a Z3 model tied to the code over a finite set), ``*Searched by:*`` (no
counterexample within a budget), then ``(`proofs/manifest.json`)``.  Lines for rules no
property covers any more are removed.
"""

from __future__ import annotations

import re
from pathlib import Path

from mcp_touchstone.conformance import rule_items
from proofs.properties import PROPERTIES

ROOT = Path(__file__).resolve().parents[1]
LABELS = {"proved": "Proved by", "bounded": "Bounded by", "searched": "Searched by"}
PROOF_LINE = re.compile(r"^  \*(?:Proved|Bounded|Searched) by:\*.*\n", re.M)


def proof_line(rule: str) -> str | None:
    """The proof line of ``rule``, or ``None`` when no property covers it."""
    groups: dict[str, list[str]] = {claim: [] for claim in LABELS}
    for prop in PROPERTIES:
        if rule in prop.rules:
            groups[prop.claimed].append(f"`{prop.id}`")
    parts = [f"*{LABELS[c]}:* {', '.join(ids)}" for c, ids in groups.items() if ids]
    if not parts:
        return None
    return "  " + "; ".join(parts) + " (`proofs/manifest.json`).\n"


def rewrite(text: str) -> str:
    """``text`` with every rule's proof line regenerated, as the last line of the rule's item."""
    text = PROOF_LINE.sub("", text)
    out: list[str] = []
    done = 0
    for item in rule_items(text):
        line = proof_line(item.rule)
        if line is not None:
            out += [text[done : item.end], "\n", line.removesuffix("\n")]
            done = item.end
    out.append(text[done:])
    return "".join(out)


def main() -> None:
    """Rewrite the proof lines of every spec file."""
    for path in sorted((ROOT / "spec").glob("*.md")):
        if path.name == "README.md":
            continue
        text = path.read_text(encoding="utf-8")
        new = rewrite(text)
        if new != text:
            path.write_text(new, encoding="utf-8")


if __name__ == "__main__":
    main()
