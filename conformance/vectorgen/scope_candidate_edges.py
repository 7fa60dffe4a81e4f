"""Vectors for the edges of candidate collection and the root binding (``candidate_edges.json``).

Each case is a leaf (or a root binding) that only one clause of a rule decides, and that the
existing vectors always reached with another clause deciding as well:

* a value whose only separator is ``\\`` (SCOPE-PATH-1: ``/`` *or* ``\\``; the existing backslash
  vectors also hold a ``/`` or sit under a path key);
* the arguments themselves a string or an array (SCOPE-ARG-1: such leaves have no key, so only
  their value can make them path candidates);
* a value that starts with ``/`` and still holds ``://`` (SCOPE-DOM-2 step 2: what follows the
  first ``://`` is kept, wherever it sits);
* a root binding with a complete body and one unknown key (SCOPE-SHAPE-6: the binding itself
  rejects unknown fields; the existing vector's body was empty, so its body failed first).

Every answer is stated by hand from seed 003 (Scope Matching), the reference notes' ``chio.md``
4.1-4.3, spec/scope.md and the upstream functions (bb-connor/arc
``crates/chio-kernel-core/src/scope.rs``: ``collect_string_leaves`` starts at the root with no
key, ``is_path_key`` needs a key, ``looks_like_path`` tests ``contains('\\\\')``,
``parse_domain`` uses ``split_once("://")``). Nothing here imports ``mcp_touchstone``. Each pins an
edge a mutant of ``make mutants`` showed no vector pinned (docs/assurance.md).
"""

from __future__ import annotations

from typing import Any

from conformance.vectorgen.scope_decoding_binding import THRESHOLD, _binding

__all__ = ["files"]

Json = Any

MATCH = {"matches": [{"index": 0, "specificity": [1, 1, 1]}]}
NONE: dict[str, Json] = {"matches": []}
INVALID = {"error": {"kind": "invalid_input", "message": "(not compared)"}}


def _grant(constraint: dict[str, Json]) -> dict[str, Json]:
    return {
        "grants": [
            {
                "server_id": "files",
                "tool_name": "read",
                "operations": ["invoke"],
                "constraints": [constraint],
            }
        ]
    }


_Row = tuple[str, str, list[str], str, dict[str, Json], Json, dict[str, Json]]
"""(id, comment, rules, flag, the one constraint, the arguments, the expected output)."""


def _case(row: _Row) -> dict[str, Json]:
    vid, comment, rules, flag, constraint, arguments, expected = row
    return {
        "id": vid,
        "comment": comment,
        "rules": rules,
        "flags": [flag],
        "origin": "handwritten",
        "input": {
            "scope": _grant(constraint),
            "tool_name": "read",
            "server_id": "files",
            "arguments": arguments,
        },
        "expected": expected,
    }


def _path(prefix: str) -> dict[str, Json]:
    return {"type": "path_prefix", "value": prefix}


def _binding_with_extra_key() -> dict[str, Json]:
    binding = _binding("ed25519")  # the full body scope_decoding_binding's vectors use
    binding["x"] = 1
    return {
        "type": "require_cumulative_approval_above",
        "value": {
            "threshold": THRESHOLD,
            "approval_budget_id": "b",
            "approval_budget_epoch": 1,
            "cumulative_approval_root_binding": binding,
        },
    }


def _tests() -> list[dict[str, Json]]:
    rows: list[_Row] = [
        (
            "scope-path-backslash-only-is-path",
            'path_prefix \'/data\' with {"note": "\\\\data\\\\a"}: a backslash alone makes a '
            "value a candidate (the key is no path key); it is absolute, segments data, a: under "
            "/data.",
            ["SCOPE-PATH-1", "SCOPE-PATH-2"],
            "backslash",
            _path("/data"),
            {"note": "\\data\\a"},
            MATCH,
        ),
        (
            "scope-path-backslash-only-relative-is-path",
            'path_prefix \'/data\' with {"path": "/data/a", "note": "a\\\\b"}: the '
            "backslash makes `a\\b` a second candidate, relative, so not every candidate is "
            "under /data.",
            ["SCOPE-PATH-1", "SCOPE-PATH-5"],
            "backslash",
            _path("/data"),
            {"path": "/data/a", "note": "a\\b"},
            NONE,
        ),
        (
            "scope-path-top-level-array-keyless",
            'path_prefix \'/data\' with the arguments ["/data/a", "note"]: a top-level array\'s '
            "strings have no key, so `note` (no separator) is no candidate; `/data/a` is, and it "
            "is under /data.",
            ["SCOPE-ARG-1", "SCOPE-PATH-1"],
            "keyless",
            _path("/data"),
            ["/data/a", "note"],
            MATCH,
        ),
        (
            "scope-path-top-level-string-not-path",
            "path_prefix '' (the relative root, under which every relative path sits) with the "
            'arguments "note": a top-level string has no key and no separator, so there is no '
            "candidate and the constraint does not hold.",
            ["SCOPE-ARG-1", "SCOPE-PATH-1", "SCOPE-PATH-5"],
            "keyless",
            _path(""),
            "note",
            NONE,
        ),
        (
            "scope-dom-exact-scheme-after-leading-slash",
            'domain_exact \'a.example.com\' with {"u": "/go://a.example.com/x"}: what follows '
            "the first `://` is kept even when the value starts with `/`, so the host is "
            "a.example.com.",
            ["SCOPE-DOM-1", "SCOPE-DOM-2"],
            "scheme",
            {"type": "domain_exact", "value": "a.example.com"},
            {"u": "/go://a.example.com/x"},
            MATCH,
        ),
        (
            "scope-dom-glob-scheme-after-leading-slash",
            'domain_glob \'*.example.com\' with {"u": "/r?to=x://API.example.com:1/"}: the '
            "authority follows the first `://` (the `/` and `?` before it do not cut it), "
            "lowercased to api.example.com.",
            ["SCOPE-DOM-1", "SCOPE-DOM-2"],
            "scheme",
            {"type": "domain_glob", "value": "*.example.com"},
            {"u": "/r?to=x://API.example.com:1/"},
            MATCH,
        ),
        (
            "scope-dec-cumulative-binding-extra-full-body",
            "A root binding with a complete body, a known algorithm and one unknown key `x`: the "
            "binding rejects unknown fields, so invalid_input (without `x` it decodes and the "
            "matcher refuses the variant: scope-dec-cumulative-with-binding).",
            ["SCOPE-SHAPE-6"],
            "strictness",
            _binding_with_extra_key(),
            {"q": "abc"},
            INVALID,
        ),
    ]
    return [_case(row) for row in rows]


def files() -> dict[str, dict[str, Json]]:
    """The one file this generator writes."""
    return {
        "scope/candidate_edges.json": {
            "schema": "touchstone-vectors/1",
            "semantic": "scope",
            "operation": "scope.resolve_matching_grants",
            "title": "Candidate edges: a backslash alone, keyless leaves, a scheme after a slash",
            "header": [
                "Generated by conformance/vectorgen/scope_candidate_edges.py; `make vectors`."
            ],
            "source": {
                "name": "Chio portable kernel (bb-connor/arc chio-kernel-core scope.rs)",
                "version": "collect_string_leaves, looks_like_path, parse_domain",
                "reference": (
                    "seed 003 (Scope Matching); spec/scope.md SCOPE-ARG-1, SCOPE-PATH-1, "
                    "SCOPE-DOM-2, SCOPE-SHAPE-6"
                ),
            },
            "notes": {
                "backslash": {
                    "bugType": "EDGE_CASE",
                    "description": "A value whose only separator is a backslash is a candidate.",
                },
                "keyless": {
                    "bugType": "EDGE_CASE",
                    "description": "Top-level strings have no key: only the value can qualify.",
                },
                "scheme": {
                    "bugType": "EDGE_CASE",
                    "description": "The first `://` starts the authority wherever it occurs.",
                },
                "strictness": {
                    "bugType": "MALFORMED_INPUT",
                    "description": "The root binding rejects a key it does not declare.",
                },
            },
            "tests": _tests(),
        }
    }
