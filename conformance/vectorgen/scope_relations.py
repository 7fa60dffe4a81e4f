"""``scope/relations.json``: monotonicity of grant matching, as families of single-run vectors.

Each family has a base scope and variants of it; the vectors state every verdict by hand, and
read together they witness two relations of seed 003's matcher:

* adding a grant never removes a match (the base's matches stay, re-ranked with the new one);
* narrowing a grant (a deeper prefix, one more constraint, fewer operations) never adds a match.

Per-argument verdicts come from SCOPE-PATH-4/5 (segment-wise prefix), SCOPE-LEN-1 (UTF-8 bytes),
SCOPE-CUSTOM-1, SCOPE-DOM-1 (a path is not a domain) and SCOPE-RES-1 (the target test); ranking
from SCOPE-RANK-1/2.
"""

from __future__ import annotations

from typing import Any

from conformance.vectorgen._common import envelope

ARGS: list[tuple[str, dict[str, Any]]] = [
    ("a1", {"path": "/data/a"}),
    ("a2", {"path": "/data/b/c"}),
    ("a3", {"path": "/data/a/report.txt", "to": "ops"}),
    ("a4", {"path": "/etc/passwd"}),
    ("a5", {"path": "/data"}),
    ("a6", {"path": "/data/../data/a"}),
]


def _grant(server: str, tool: str, ops: list[str], constraints: list[Any]) -> dict[str, Any]:
    return {"server_id": server, "tool_name": tool, "operations": ops, "constraints": constraints}


PREFIX_DATA = {"type": "path_prefix", "value": "/data"}
BASE = _grant("srv", "read_file", ["invoke"], [PREFIX_DATA])
BASE_MATCHES = {"a1", "a2", "a3", "a5", "a6"}  # "/etc/passwd" is not under "/data" (SCOPE-PATH-4)

# (name, grant, the args it matches, its specificity) -- stated per rule in the docstring.
ADDED: list[tuple[str, dict[str, Any], set[str], list[int]]] = [
    ("star", _grant("*", "*", ["invoke"], []), {"a1", "a2", "a3", "a4", "a5", "a6"}, [0, 0, 0]),
    (
        "deeper-prefix",
        _grant("srv", "read_file", ["invoke"], [{"type": "path_prefix", "value": "/data/a"}]),
        {"a1", "a3", "a6"},  # "/data/../data/a" normalizes to /data/a (SCOPE-PATH-2)
        [1, 1, 1],
    ),
    ("read-only", _grant("srv", "read_file", ["read"], []), set(), [1, 1, 0]),
    ("other-server", _grant("other", "read_file", ["invoke"], []), set(), [0, 1, 0]),
    (
        "max-length-10",
        _grant("srv", "*", ["invoke"], [{"type": "max_length", "value": 10}]),
        {"a1", "a2", "a5"},  # "/data/a/report.txt" is 18 bytes, "/etc/passwd" 11 (SCOPE-LEN-1)
        [1, 0, 1],
    ),
    (
        "custom-to-ops",
        _grant("*", "read_file", ["invoke"], [{"type": "custom", "value": ["to", "ops"]}]),
        {"a3"},
        [0, 1, 1],
    ),
    (
        "refused-elsewhere",
        _grant("other", "read_file", ["invoke"], [{"type": "regex_match", "value": ".*"}]),
        set(),  # not a target, so the refused constraint is never reached (SCOPE-RES-2)
        [0, 1, 1],
    ),
]

NARROWED: list[tuple[str, dict[str, Any], set[str], list[int]]] = [
    ("deeper-prefix", ADDED[1][1], {"a1", "a3", "a6"}, [1, 1, 1]),
    (
        "plus-max-length",
        _grant("srv", "read_file", ["invoke"], [PREFIX_DATA, {"type": "max_length", "value": 10}]),
        {"a1", "a2", "a5"},
        [1, 1, 2],
    ),
    (
        "plus-custom",
        _grant(
            "srv",
            "read_file",
            ["invoke"],
            [PREFIX_DATA, {"type": "custom", "value": ["to", "ops"]}],
        ),
        {"a3"},
        [1, 1, 2],
    ),
    (
        "sibling-prefix",
        _grant("srv", "read_file", ["invoke"], [{"type": "path_prefix", "value": "/data/b"}]),
        {"a2"},
        [1, 1, 1],
    ),
    (
        "plus-domain",
        _grant(
            "srv",
            "read_file",
            ["invoke"],
            [PREFIX_DATA, {"type": "domain_exact", "value": "example.com"}],
        ),
        set(),  # no argument is a domain, so DomainExact has no candidate (SCOPE-DOM-1, -3)
        [1, 1, 2],
    ),
    ("fewer-operations", _grant("srv", "read_file", ["read"], [PREFIX_DATA]), set(), [1, 1, 1]),
]


def _ranked(entries: list[tuple[int, list[int]]]) -> list[dict[str, Any]]:
    """SCOPE-RANK-2: specificity descending, then grant index ascending."""
    ordered = sorted(entries, key=lambda e: ([-s for s in e[1]], e[0]))
    return [{"index": i, "specificity": s} for i, s in ordered]


def _case(  # noqa: PLR0917  # one slot per vector field keeps the family tables short
    vid: str,
    comment: str,
    rules: list[str],
    flag: str,
    grants: list[Any],
    args: Any,
    matches: list[dict[str, Any]],
) -> dict[str, Any]:
    return {
        "id": vid,
        "comment": comment,
        "rules": rules,
        "flags": [flag],
        "input": {
            "scope": {"grants": grants},
            "tool_name": "read_file",
            "server_id": "srv",
            "arguments": args,
        },
        "expected": {"matches": matches},
    }


def _tests() -> list[dict[str, Any]]:
    tests = []
    for aname, args in ARGS:
        base = [(0, [1, 1, 1])] if aname in BASE_MATCHES else []
        tests.append(
            _case(
                f"scope-rel-base-{aname}",
                f"the base scope on {args['path']}",
                ["SCOPE-PATH-4", "SCOPE-PATH-5"],
                "Base",
                [BASE],
                args,
                _ranked(base),
            )
        )
        for name, grant, matched, spec in ADDED:
            extra = [(1, spec)] if aname in matched else []
            tests.append(
                _case(
                    f"scope-rel-add-{name}-{aname}",
                    f"adding a {name} grant keeps the base's matches on {args['path']}",
                    ["SCOPE-RES-1", "SCOPE-RANK-2"],
                    "AddGrant",
                    [BASE, grant],
                    args,
                    _ranked(base + extra),
                )
            )
        for name, grant, matched, spec in NARROWED:
            tests.append(
                _case(
                    f"scope-rel-narrow-{name}-{aname}",
                    f"narrowing the base grant ({name}) adds no match on {args['path']}",
                    ["SCOPE-RES-3", "SCOPE-RANK-1", "SCOPE-CON-1"],
                    "Narrow",
                    [grant],
                    args,
                    _ranked([(0, spec)] if aname in matched else []),
                )
            )
    return tests


NOTES = {
    "Base": {"bugType": "BASIC", "description": "The family's base scope, one prefix grant."},
    "AddGrant": {
        "bugType": "ORACLE",
        "description": "Relational: with one grant added, every match of the base stays (the "
        "ranking may place the new grant before it).",
        "effect": "An implementation where a new grant shadows or evicts a matching one.",
    },
    "Narrow": {
        "bugType": "ORACLE",
        "description": "Relational: a narrowed grant matches a subset of what the base matched.",
        "effect": "An implementation where a tighter constraint widens access.",
    },
}


def files() -> dict[str, dict[str, Any]]:
    """The generated file."""
    return {
        "scope/relations.json": envelope(
            semantic="scope",
            operation="scope.resolve_matching_grants",
            title="Monotonicity families: adding a grant, narrowing a grant",
            header=["Generated by conformance/vectorgen/scope_relations.py."],
            source={
                "name": "Chio portable kernel",
                "version": "seed 003",
                "reference": "shared/seeds/003_b6aa25f0d73b50e9.txt; spec/scope.md",
            },
            notes=NOTES,
            tests=_tests(),
        )
    }
