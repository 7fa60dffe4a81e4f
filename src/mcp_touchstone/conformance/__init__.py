"""Conformance machinery: vectors, the runner, comparison rules, reports.

The built-in reference's harness server lives in :mod:`mcp_touchstone.harness`.

* :func:`load_vectors` reads a vector tree (``spec/vectors.md``).
* :func:`run_vectors` drives any implementation through harness protocol v1.
* :func:`outputs_match` is the pinned comparison of an answer with an expected output.
* :func:`render` / :func:`to_json` are the printed and the JSON report (:mod:`._report`).
* :func:`rule_items` reads the rules a spec text defines (``spec/README.md``).
"""

from mcp_touchstone.conformance._compare import outputs_match
from mcp_touchstone.conformance._report import render, to_json
from mcp_touchstone.conformance._runner import (
    ProtocolError,
    Report,
    Result,
    Verdict,
    default_command,
    run_vectors,
)
from mcp_touchstone.conformance._spec import RuleItem, rule_items
from mcp_touchstone.conformance._vectors import (
    Vector,
    VectorError,
    default_vectors_dir,
    load_file,
)
from mcp_touchstone.conformance._vectors import load_tree as load_vectors

__all__ = [
    "ProtocolError",
    "Report",
    "Result",
    "RuleItem",
    "Vector",
    "VectorError",
    "Verdict",
    "default_command",
    "default_vectors_dir",
    "load_file",
    "load_vectors",
    "outputs_match",
    "render",
    "rule_items",
    "run_vectors",
    "to_json",
]
