"""AUDIT-EXIST-6: a hidden tool called by FastMCP's hashed alias (``__<hash>_<name>``) answers
like an alias of no tool.  The probe finds a middleware that judges a call by the
name it was sent under (so a hidden app tool runs by its alias) and passes the middleware as it
is (ADAPT-GRANT-4)."""

from __future__ import annotations

from mcp_touchstone.audit import Outcome
from mcp_touchstone.audit._exist import tool_alias
from tests.audit._strong import build_fastmcp, build_fastmcp_middleware
from tests.audit.conftest import by_id, run

PROBE = ["AUDIT-EXIST-6"]


def test_the_old_middleware_leaks_a_hidden_tool_by_its_alias() -> None:
    """Against the names-only middleware (the pre-ADAPT-GRANT-4 behaviour) the alias of the
    hidden app tool runs it: a medium finding, with the alias in the verdict, in both eras."""
    finding = by_id(run(build_fastmcp_middleware(mode="names-only"), PROBE))["AUDIT-EXIST-6"]
    assert finding.outcome is Outcome.FINDING, finding.verdict
    assert finding.severity.label == "medium"
    assert "_settle (2025-11-25" in finding.verdict
    assert "_settle (2026-07-28" in finding.verdict
    assert any("settled" in exchange.response_body for exchange in finding.evidence)


def test_the_middleware_answers_an_alias_of_a_hidden_tool_as_unknown() -> None:
    """Against TouchstoneMiddleware as it is, the hidden tool's alias answers exactly like an
    alias of no tool (bytes and status), in both eras."""
    finding = by_id(run(build_fastmcp_middleware(), PROBE))["AUDIT-EXIST-6"]
    assert finding.outcome is Outcome.PASS, finding.verdict
    assert finding.verdict.startswith("2 hidden name(s)")


def test_no_aliased_hidden_tool_is_not_observable() -> None:
    """A server whose hidden tools carry no FastMCP identity has nothing to probe: n/a."""
    finding = by_id(run(build_fastmcp(), PROBE))["AUDIT-EXIST-6"]
    assert finding.outcome is Outcome.NOT_OBSERVABLE


def test_the_alias_is_fastmcps() -> None:
    """The alias is FastMCP's own for the listed tool: from the listed ``tool_hash``, else
    from the app name as FastMCP's ``hash_tool`` computes it; nothing for other tools."""
    from fastmcp.server.providers.addressing import hashed_backend_name

    expected = hashed_backend_name("billing", "save")
    assert tool_alias({"name": "save", "_meta": {"fastmcp": {"app": "billing"}}}) == expected
    listed = {"name": "save", "_meta": {"fastmcp": {"tool_hash": expected[2:14]}}}
    assert tool_alias(listed) == expected
    assert tool_alias({"name": "save", "_meta": {"fastmcp": {"tags": []}}}) is None
    assert tool_alias({"name": "save"}) is None
