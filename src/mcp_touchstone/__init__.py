"""mcp-touchstone: the reference oracle for the security semantics of MCP servers.

Three semantics, one folder each:

* :mod:`mcp_touchstone.scope` -- Chio capability-grant scope matching.
* :mod:`mcp_touchstone.visibility` -- turbomcp progressive disclosure ("hidden means unreachable").
* :mod:`mcp_touchstone.mrtr` -- neva multi round-trip requests and the sealed ``requestState``.

:mod:`mcp_touchstone.serde_json` is the JSON layer all three share, and
:mod:`mcp_touchstone.conformance` runs the conformance vectors through the harness protocol.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
