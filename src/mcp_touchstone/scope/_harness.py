"""Harness operations of the ``scope`` semantic (see ``spec/harness.md``).

Each operation takes the raw ``case.input`` JSON value and returns the output object.
It is total: malformed input is answered with the operation's error shape, never raised.
"""

from __future__ import annotations

from mcp_touchstone.conformance._operation import Operation

OPERATIONS: dict[str, Operation] = {}
