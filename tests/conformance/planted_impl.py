"""A harness for the runner's tests: the reference, with planted differences chosen by env vars.

``TS_ONLY``: comma-separated operation-name prefixes to announce (default: all).
``TS_PLANT``: ``json100`` answers ``json.to_string`` of ``"100"`` wrongly.
Run as ``python tests/conformance/planted_impl.py``.
"""

from __future__ import annotations

import os
import sys

from mcp_touchstone.harness._operation import HarnessOperation
from mcp_touchstone.harness._registry import reference_operations
from mcp_touchstone.harness._server import main
from mcp_touchstone.serde_json import JSON


def _planted(name: str, op: HarnessOperation) -> HarnessOperation:
    if os.environ.get("TS_PLANT") == "json100" and name == "json.to_string":

        def wrong(value: JSON) -> dict[str, JSON]:
            out = op(value)
            if isinstance(value, dict) and value.get("text") == "100":
                return {"string": "100.0", "bytes": 5}
            return out

        return wrong
    return op


def operations() -> dict[str, HarnessOperation]:
    """The announced operations, with the planted bug if any."""
    only = [p for p in os.environ.get("TS_ONLY", "").split(",") if p]
    ops = reference_operations()
    return {
        name: _planted(name, ops[name])
        for name in ops
        if not only or any(name.startswith(p) for p in only)
    }


if __name__ == "__main__":
    sys.exit(main(operations()))
