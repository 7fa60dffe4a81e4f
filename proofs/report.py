"""``python -m proofs.report``: write the proofs section of ``docs/assurance.md`` from
``proofs/manifest.json`` (verdict counts, one table per verdict, the canaries, the port-bug
table), so the document says what the last recorded run showed and nothing more."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from proofs import manifest
from proofs.properties import PROPERTIES, VERDICTS

DOC = Path(__file__).resolve().parents[1] / "docs" / "assurance.md"
START, END = "## Proofs (`make proofs`)\n", "## Fuzzing (`make fuzz`)\n"

METHOD = """\
The method is in `proofs/README.md`; the record, with every statement, rule, target, domain,
claimed verdict, budget, witness vector and canary, is `proofs/manifest.json`. In short:

- **proved**: CrossHair *confirmed over all paths* of a wrapper's stated domain (symbolic
  strings of bounded length; integers and booleans choosing among a stated table). A property
  claiming proved whose search ends unconfirmed fails `make proofs`.
- **bounded**: a concrete enumeration of a stated finite set: an enumerated contract over real
  sealed tokens, or a hand-written Z3 model (obligations unsat) tied to the real function by an
  exhaustive comparison over a finite set, with witness vectors whose answers come from the
  model.
- **searched**: CrossHair found no counterexample within the stated budget; nothing more.
- **Canaries**: each property's check is re-run with a planted function that violates its
  statement (`proofs/canaries.py`, never an edit of `src/`), and must be refuted in the same run.
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\\\|").replace("\\n", " ")


def _table(rows: list[dict[str, Any]]) -> list[str]:
    out = ["| property | rules | statement | domain | canary |", "|---|---|---|---|---|"]
    for row in rows:
        canary = row.get("canary", {}).get("bug", "")
        refuted = row.get("last_canary", {}).get("verdict") == "refuted"
        out.append(
            f"| {row['id']} | {', '.join(row['rules'])} | {_cell(row['statement'])} | "
            f"{_cell(row['bound'])} | {_cell(canary)}{' (refuted)' if refuted else ''} |"
        )
    return out


def section() -> str:
    """The proofs section, from the manifest."""
    data = manifest.load()
    entries = [{"id": p.id, **data["properties"][p.id]} for p in PROPERTIES]
    run = data.get("last_run", {})
    reached = {
        v: [e for e in entries if e.get("last_result", {}).get("verdict") == v] for v in VERDICTS
    }
    refuted = sum(1 for e in entries if e.get("last_canary", {}).get("verdict") == "refuted")
    lines = [START, METHOD]
    lines.append(
        f"**Latest run:** {run.get('at', '?')}, {run.get('machine', '?')}, load "
        f"{run.get('load', '?')}, {run.get('total_seconds', '?')} s for {len(entries)} "
        f"properties and their canaries: **{len(reached['proved'])} proved**, "
        f"**{len(reached['bounded'])} bounded**, **{len(reached['searched'])} searched**; "
        f"canaries refuted {refuted}/{len(entries)}.\n"
    )
    titles = {
        "proved": "Proved (CrossHair, confirmed over all paths)",
        "bounded": "Bounded (enumerated, or a Z3 model tied over a finite set)",
        "searched": "Searched (no counterexample within the budget)",
    }
    for verdict in reversed(VERDICTS):
        if reached[verdict]:
            lines.append(f"{titles[verdict]} ({len(reached[verdict])}):\n")
            lines.append("\n".join(_table(reached[verdict])) + "\n")
    ports = data.get("port_bugs")
    if ports:
        lines.append(port_section(ports))
    return "\n".join(lines) + "\n"


def port_section(ports: dict[str, Any]) -> str:
    """The port-bug table: a plausible bug per property, planted in a copy of ``src/``."""
    rows = ports["rows"]
    totals = ports["totals"]
    out = [
        "### Port bugs (`python -m proofs.port_bugs`)\n",
        "For each property, one bug a port would plausibly have (not its canary), planted in a "
        "temporary copy of `src/`; the columns say which gates fail on it: the property itself, "
        "the committed vectors through the real harness operations, and (only when both pass) "
        f"the named test file. {ports['at']}, {ports['machine']}.\n",
        "| property | port bug | the property | vectors | tests |",
        "|---|---|---|---|---|",
    ]
    for row in rows:
        out.append(
            f"| {row['property']} | {_cell(row['bug'])} | {row['own']} | {row['vectors']} | "
            f"{row['tests']} |"
        )
    missing = [p.id for p in PROPERTIES if p.id not in {r["property"] for r in rows}]
    if missing:
        out.append(f"\nNo row yet (not run): {', '.join(missing)}.")
    out.append(
        f"\nCaught by the property: {totals['proofs']}/{len(rows)}; by vectors only: "
        f"{totals['vectors_only']}; by tests only: {totals['tests_only']}; missed: "
        f"{totals['missed']}.\n"
    )
    return "\n".join(out)


def main() -> None:
    """Rewrite the proofs section of ``docs/assurance.md``."""
    text = DOC.read_text(encoding="utf-8")
    start, end = text.index(START), text.index(END)
    DOC.write_text(text[:start] + section() + text[end:], encoding="utf-8")


if __name__ == "__main__":
    main()
