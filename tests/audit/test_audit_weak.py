"""Every deliberately weak server is caught by the probe aimed at its weakness, with evidence."""

from __future__ import annotations

import json

from mcp_touchstone.audit import Outcome
from tests.audit._strong import PEER, URL
from tests.audit._weak import WeakServer
from tests.audit.conftest import by_id, flagged, run

MODERN = ("2026-07-28",)


def test_plain_base64_json_state_is_readable_and_forgeable() -> None:
    """AUDIT-CONF-1 reads the server's note out of a base64-JSON state; AUDIT-INT-3's forgery
    (a member added, re-encoded) is accepted, so AUDIT-INT-1 fails."""
    report = run(WeakServer("b64json"), ["AUDIT-CONF-1", "AUDIT-INT-1"], eras=MODERN)
    found = by_id(report)
    assert found["AUDIT-CONF-1"].severity.label == "medium"
    assert "ledger balance" in found["AUDIT-CONF-1"].verdict
    assert found["AUDIT-INT-1"].counts
    assert "forgery" in found["AUDIT-INT-1"].verdict
    assert found["AUDIT-INT-1"].evidence


def test_signed_but_unbound_state_is_accepted_for_other_requests() -> None:
    """AUDIT-BIND-1/2/3 and AUDIT-PRIN-1 flag a signed state that binds nothing; integrity
    (AUDIT-INT-1) still passes, since the signature holds."""
    probes = ["AUDIT-INT-1", "AUDIT-BIND-1", "AUDIT-BIND-2", "AUDIT-BIND-3", "AUDIT-PRIN-1"]
    report = run(WeakServer("unbound"), probes, eras=MODERN)
    assert flagged(report) == dict.fromkeys(probes[1:], "high")
    evidence = by_id(report)["AUDIT-BIND-1"].evidence
    assert "touchstone-other" in evidence[0].request_body
    assert "run #" in evidence[0].response_body


def test_unbound_state_is_accepted_by_a_peer_sharing_its_key() -> None:
    """AUDIT-AUD-1: a peer with the same key and no audience takes the state."""
    servers = {URL: WeakServer("unbound", name="a"), PEER: WeakServer("unbound", name="b")}
    report = run(servers, ["AUDIT-AUD-1"], eras=MODERN, peer_url=PEER)
    finding = by_id(report)["AUDIT-AUD-1"]
    assert finding.counts
    assert finding.severity.label == "high"
    assert finding.evidence[1].target == PEER


def test_bound_but_never_expiring_state() -> None:
    """AUDIT-TTL-2 reads no expiry out of the readable state; AUDIT-TTL-1 (with a wait) finds
    it still accepted; the bindings hold (AUDIT-BIND-1 passes)."""
    waited: list[float] = []

    async def sleep(seconds: float) -> None:
        waited.append(seconds)

    report = run(
        WeakServer("noexpiry"),
        ["AUDIT-TTL-2", "AUDIT-TTL-1", "AUDIT-BIND-1"],
        eras=MODERN,
        ttl_wait=30.0,
        sleep=sleep,
    )
    assert flagged(report) == {"AUDIT-TTL-2": "medium", "AUDIT-TTL-1": "medium"}
    assert waited == [30.0]


def test_suffix_checking_tamper_guard() -> None:
    """AUDIT-INT-1 fails a guard that only recognises the official suite's ``-TAMPERED``
    suffix: every position class is accepted, the suffix alone refused; AUDIT-INT-2's spliced
    states are accepted too."""
    report = run(WeakServer("suffix"), ["AUDIT-INT-1", "AUDIT-INT-2", "AUDIT-CONF-1"], eras=MODERN)
    found = by_id(report)
    verdict = found["AUDIT-INT-1"].verdict
    for position in ("version", "key id", "nonce", "ciphertext", "tag", "truncation"):
        assert position in verdict
    assert "TAMPERED" in verdict
    assert found["AUDIT-INT-2"].counts
    assert found["AUDIT-CONF-1"].outcome is Outcome.PASS


def test_hidden_tool_answered_forbidden() -> None:
    """AUDIT-EXIST-1 tells a hidden tool answered "Forbidden" from a nonexistent one, in both
    eras, with both answers as evidence; the sealed state passes AUDIT-INT-1."""
    report = run(WeakServer("forbidden"), ["AUDIT-EXIST-1", "AUDIT-INT-1", "AUDIT-EXIST-2"])
    found = by_id(report)
    assert found["AUDIT-EXIST-1"].counts
    assert found["AUDIT-EXIST-1"].severity.label == "medium"
    assert "2025-11-25" in found["AUDIT-EXIST-1"].verdict
    assert "2026-07-28" in found["AUDIT-EXIST-1"].verdict
    bodies = [e.response_body for e in found["AUDIT-EXIST-1"].evidence]
    assert any("Forbidden" in b for b in bodies)
    assert any("Unknown tool" in b for b in bodies)
    assert found["AUDIT-INT-1"].outcome is Outcome.PASS
    assert found["AUDIT-EXIST-2"].outcome is Outcome.NOT_OBSERVABLE


def test_evidence_never_carries_a_bearer_token() -> None:
    """AUDIT-REPORT-3: the Authorization header and the tokens are redacted in the evidence."""
    report = run(WeakServer("forbidden"), ["AUDIT-EXIST-1", "AUDIT-PRIN-1"], eras=MODERN)
    text = json.dumps(report.to_json())
    assert "Bearer <redacted>" in text
    assert "Bearer root" not in text
    assert "Bearer alice" not in text


def test_a_server_that_needs_no_state_is_not_flagged() -> None:
    """AUDIT-ACCEPT-1: a retry that completes with a mutated or foreign state, but completes
    without any state too, is not observable -- never a false finding."""
    probes = ["AUDIT-INT-1", "AUDIT-BIND-1", "AUDIT-PRIN-1"]
    report = run(WeakServer("stateless"), probes, eras=MODERN)
    found = by_id(report)
    for pid in probes:
        assert found[pid].outcome is Outcome.NOT_OBSERVABLE, (pid, found[pid].verdict)
        assert "without any requestState" in found[pid].verdict


def test_settled_answers_need_a_multi_round_flow() -> None:
    """AUDIT-ANS-2: a single-round flow settles nothing before its final round: not
    observable, and no request is spent on it."""
    report = run(WeakServer("forbidden"), ["AUDIT-ANS-2"], eras=MODERN)
    finding = by_id(report)["AUDIT-ANS-2"]
    assert finding.outcome is Outcome.NOT_OBSERVABLE
    assert "single-round" in finding.verdict


def test_unsolicited_answer_is_reported_as_information() -> None:
    """AUDIT-ANS-1: an extra answer the tool ignores is an informational finding with its
    evidence (the extra key in the request)."""
    report = run(WeakServer("forbidden"), ["AUDIT-ANS-1"], eras=MODERN)
    finding = by_id(report)["AUDIT-ANS-1"]
    assert finding.counts
    assert finding.severity.label == "info"
    assert "touchstone_unsolicited" in finding.evidence[0].request_body


def test_settled_answer_overridden_in_the_final_round() -> None:
    """AUDIT-ANS-2: in a two-round flow, the final retry re-answering the first round's key
    (declined) changes the result of a server merging answers over the sealed ones."""
    report = run(
        WeakServer("resettle"), ["AUDIT-ANS-2", "AUDIT-INT-1", "AUDIT-REPLAY-1"], eras=MODERN
    )
    found = by_id(report)
    assert found["AUDIT-ANS-2"].counts
    assert found["AUDIT-ANS-2"].severity.label == "medium"
    assert "confirm=decline" in found["AUDIT-ANS-2"].evidence[1].response_body
    assert found["AUDIT-INT-1"].outcome is Outcome.PASS
    assert found["AUDIT-REPLAY-1"].outcome is Outcome.PASS
    assert "3 request(s)" in "\n".join(report.notes)
