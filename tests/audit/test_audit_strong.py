"""The strong servers on the real SDKs are not falsely flagged; the findings they do get are
true (the SDK alone lacks single use; FastMCP's header check runs before its hiding)."""

from __future__ import annotations

from mcp_touchstone.audit import Outcome
from tests.audit._strong import PEER, URL, build_fastmcp, build_mcp
from tests.audit.conftest import by_id, flagged, run

STATE_PROBES = ["AUDIT-INT-1", "AUDIT-INT-2", "AUDIT-CONF-1", "AUDIT-BIND-1", "AUDIT-BIND-2"]
MODERN = ("2026-07-28",)


def test_mcpserver_boundary_passes_every_state_probe_but_replay() -> None:
    """The official MCPServer's AES-GCM boundary refuses every mutation, splice and foreign
    request (AUDIT-INT-1/2, BIND-1/2/3, PRIN-1); its state is unreadable (AUDIT-CONF-1); the
    repeated final round runs the tool again (AUDIT-REPLAY-1), the SDK's documented gap."""
    report = run(build_mcp(), eras=MODERN)
    assert flagged(report) == {"AUDIT-REPLAY-1": "medium", "AUDIT-ANS-1": "info"}
    found = by_id(report)
    for pid in [*STATE_PROBES, "AUDIT-BIND-3", "AUDIT-PRIN-1"]:
        assert found[pid].outcome is Outcome.PASS, (pid, found[pid].verdict)
    assert "layout sdk" in found["AUDIT-INT-1"].verdict
    assert report.requests <= report.budget


def test_protected_mcpserver_passes_replay_and_existence() -> None:
    """protect() + ReplayGuard: the repeated final round is answered from the store
    (AUDIT-REPLAY-1 passes) and the hidden tool answers like a nonexistent one in both eras,
    the Mcp-Param header path included (AUDIT-EXIST-1..5: tools, prompts, resources,
    templates, headers)."""
    report = run(build_mcp(mode="protected"))
    assert flagged(report) == {"AUDIT-ANS-1": "info"}
    found = by_id(report)
    assert found["AUDIT-REPLAY-1"].outcome is Outcome.PASS
    for pid in (
        "AUDIT-EXIST-1",
        "AUDIT-EXIST-2",
        "AUDIT-EXIST-3",
        "AUDIT-EXIST-4",
        "AUDIT-EXIST-5",
    ):
        assert found[pid].outcome is Outcome.PASS, (pid, found[pid].verdict)


def test_fastmcp_boundary_and_its_header_oracle() -> None:
    """FastMCP seals with the same boundary (state probes pass, principal binding holds);
    component auth hides the admin tool like a nonexistent one in the body (AUDIT-EXIST-1), but
    the Mcp-Param header check answers HTTP 400 for it first (AUDIT-EXIST-5, a true finding)."""
    report = run(build_fastmcp())
    found = by_id(report)
    for pid in [*STATE_PROBES, "AUDIT-PRIN-1", "AUDIT-EXIST-1", "AUDIT-EXIST-2", "AUDIT-EXIST-4"]:
        assert found[pid].outcome is Outcome.PASS, (pid, found[pid].verdict)
    assert found["AUDIT-EXIST-5"].counts
    assert "HTTP 400 vs 200" in found["AUDIT-EXIST-5"].verdict


def test_audience_binding_between_two_mcpservers_sharing_a_key() -> None:
    """AUDIT-AUD-1: two MCPServers with one key and different names (the default audience)
    refuse each other's state."""
    servers = {URL: build_mcp(name="alpha"), PEER: build_mcp(name="beta")}
    report = run(servers, ["AUDIT-AUD-1"], eras=MODERN, peer_url=PEER)
    assert by_id(report)["AUDIT-AUD-1"].outcome is Outcome.PASS


def test_ttl_wait_refused_after_the_sdk_lifetime() -> None:
    """AUDIT-TTL-1: with a 1 s TTL, the state is refused after a real 1.5 s wait."""
    report = run(build_mcp(ttl=1.0), ["AUDIT-TTL-1"], eras=MODERN, ttl_wait=1.5)
    finding = by_id(report)["AUDIT-TTL-1"]
    assert finding.outcome is Outcome.PASS, finding.verdict
