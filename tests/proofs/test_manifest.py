"""The proof manifest is complete and every property is linked both ways with the spec."""

from __future__ import annotations

import re
from pathlib import Path

from proofs.properties import PROPERTIES

from mcp_touchstone.conformance import rule_items
from proofs import _vectors, manifest
from tests.test_spec_links import _defined

ROOT = Path(__file__).resolve().parents[2]
PROOF_LINE = re.compile(r"\*(Proved|Bounded|Searched) by:\* ([^;\n(]*)")
PROOF_ID = re.compile(r"\bPROOF-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")


def _spec_rules() -> dict[str, str]:
    """Rule id -> the text of its list item, from every spec file."""
    return {
        item.rule: item.item
        for path in sorted((ROOT / "spec").glob("*.md"))
        for item in rule_items(path.read_text(encoding="utf-8"))
    }


def test_at_least_thirty_properties_with_unique_ids() -> None:
    """There are at least 30 named properties, each id unique and PROOF-shaped."""
    ids = [p.id for p in PROPERTIES]
    assert len(ids) >= 30
    assert len(set(ids)) == len(ids)
    assert all(PROOF_ID.fullmatch(i) for i in ids)


def test_manifest_matches_the_registry() -> None:
    """The manifest's static part is what proofs/properties.py says (python -m proofs.manifest)."""
    data = manifest.load()
    assert data == manifest.build(data)


def test_every_property_has_a_recorded_passing_result() -> None:
    """Each property's last recorded run passed, reaching at least the verdict it claims, and
    its canary was refuted."""
    from proofs.run import reaches

    recorded = manifest.load()["properties"]
    for prop in PROPERTIES:
        result = recorded.get(prop.id, {}).get("last_result")
        assert result is not None, prop.id
        assert result["ok"], prop.id
        assert reaches(result["verdict"], prop.claimed), prop.id
        assert result["seconds"] >= 0
        canary = recorded[prop.id].get("last_canary")
        assert canary is not None, prop.id
        assert canary["verdict"] == "refuted", prop.id


def test_every_property_has_a_canary() -> None:
    """Each property names a planted function that violates its statement."""
    from proofs import canaries

    for prop in PROPERTIES:
        assert prop.canary is not None, prop.id
        assert callable(getattr(canaries, prop.canary.planted)), prop.id


def test_claims_are_verdict_words() -> None:
    """Each property claims one of proved, bounded, searched; never more than its tool shows:
    a Z3 model tied by a finite comparison claims at most bounded."""
    from proofs.properties import VERDICTS

    for prop in PROPERTIES:
        assert prop.claimed in VERDICTS, prop.id
        if prop.tool == "z3":
            assert prop.claimed != "proved", prop.id


def test_every_property_caught_its_planted_bug() -> None:
    """The last mutants run recorded each property catching its own planted mutant."""
    for prop in PROPERTIES:
        if prop.mutant is None:
            continue
        caught = manifest.load()["properties"][prop.id].get("caught", [])
        assert prop.mutant.id in caught, prop.id


def test_mutants_apply_exactly_once() -> None:
    """Every planted bug's text occurs exactly once in today's source (so it still applies)."""
    for prop in PROPERTIES:
        if prop.mutant is None:
            continue
        text = (ROOT / "src" / "mcp_touchstone" / prop.mutant.file).read_text(encoding="utf-8")
        assert text.count(prop.mutant.old) == 1, prop.mutant.id


def test_manifest_rules_exist() -> None:
    """Every rule a property proves is defined in spec/."""
    defined = _defined()
    missing = sorted({r for p in PROPERTIES for r in p.rules if r not in defined})
    assert not missing


def test_spec_links_each_rule_to_its_proofs_by_verdict() -> None:
    """Each rule a property covers names it on a proof line under the verdict it claims
    (*Proved by:*, *Bounded by:*, *Searched by:*), and no proof line names a property under
    another verdict (``python -m proofs.spec_links`` writes them)."""
    rules = _spec_rules()
    label = {"proved": "Proved", "bounded": "Bounded", "searched": "Searched"}
    wrong = []
    for prop in PROPERTIES:
        for rule in prop.rules:
            named = {
                (word, pid)
                for word, ids in PROOF_LINE.findall(rules.get(rule, ""))
                for pid in PROOF_ID.findall(ids)
            }
            if named.isdisjoint({(label[prop.claimed], prop.id)}):
                wrong.append(f"{rule}: {prop.id} not under {label[prop.claimed]} by")
    for rule, text in rules.items():
        for word, ids in PROOF_LINE.findall(text):
            for pid in PROOF_ID.findall(ids):
                named_prop = next((p for p in PROPERTIES if p.id == pid), None)
                if named_prop is not None and label[named_prop.claimed] != word:
                    wrong.append(f"{rule}: {pid} under {word} by, claims {named_prop.claimed}")
    assert not wrong


def test_every_proof_cited_in_spec_exists() -> None:
    """Every PROOF-… id cited anywhere in spec/ is a property in the manifest."""
    known = set(manifest.load()["properties"])
    cited = {i for path in (ROOT / "spec").glob("*.md") for i in PROOF_ID.findall(path.read_text())}
    assert cited - known == set()


def test_witness_vectors_exist() -> None:
    """Every vector id or pattern a property cites selects at least one committed vector."""
    for prop in PROPERTIES:
        for pattern in prop.vectors:
            assert _vectors.select((pattern,)), (prop.id, pattern)
