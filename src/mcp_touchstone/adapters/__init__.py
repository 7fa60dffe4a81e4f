"""Adapters: the three semantics in front of real Python MCP servers.

Nothing here is imported by the core, and this package imports no SDK until one of its
modules is asked for:

* :mod:`mcp_touchstone.adapters.mcp` -- ``protect(server, ...)`` for the official ``mcp`` SDK's
  lowlevel ``Server`` (and ``MCPServer`` through it); extra ``[mcp]``.
* :mod:`mcp_touchstone.adapters.fastmcp` -- ``TouchstoneMiddleware(...)``, a FastMCP
  ``Middleware``; extra ``[fastmcp]``.
* :mod:`mcp_touchstone.adapters.state` -- a neva-compatible ``RequestStateCodec`` for the SDK's
  ``RequestStateBoundary``.
* :mod:`mcp_touchstone.adapters.redis_store` -- ``RedisRequestStateStore``, the MRTR
  final-response store shared by several server processes; extra ``[redis]``.

The decisions themselves (who sees what, which grant admits a call) are the semantics'
(:mod:`mcp_touchstone.visibility`, :mod:`mcp_touchstone.scope`); the adapters only carry the
host SDK's request to them and the host's own answer back (``spec/adapters.md``).
"""
