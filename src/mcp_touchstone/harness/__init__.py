"""The harness layer: the built-in reference served over harness protocol v1.

It sits between the conformance tooling and the semantics: one adapter module per semantic
(``_scope``, ``_visibility``, ``_mrtr``, ``_json``) turns a raw ``case.input`` into calls on that
semantic's public API and shapes the answer; ``_server`` speaks the line protocol; ``_registry``
maps operation names to adapters.  The semantic packages never import this package.

* :data:`HarnessOperation` is the shape of an operation: raw input in, output object out,
  total.
* :data:`V1_OPERATIONS` are the operation names pinned by harness protocol v1.
* :func:`reference_operations` is the built-in reference's operation table.
* :func:`serve` answers a stream of request lines.
"""

from mcp_touchstone.harness._operation import V1_OPERATIONS, HarnessOperation
from mcp_touchstone.harness._registry import reference_operations
from mcp_touchstone.harness._server import serve

__all__ = ["V1_OPERATIONS", "HarnessOperation", "reference_operations", "serve"]
