"""``visibility/visible_grid.json``: the built-in policy over grids of tags, scopes and callers.

Each expected answer restates VIS-POL-2..4 directly: a component is hidden when one of its string
tags is a hidden tag; with the scope check on, a component declaring a non-empty scope list is
hidden unless every entry is granted, where the grant is the Rust-whitespace tokens of a string
``scope`` claim plus the string entries of an array ``scp`` claim, and an anonymous caller holds
nothing (VIS-ID-1..4); malformed tag or scope metadata reads as empty (VIS-META-2).  The whitespace
grid states, per code point, whether Rust's ``split_whitespace`` splits on it (VIS-ID-3).
"""

from __future__ import annotations

import itertools
from typing import Any

from conformance.vectorgen._common import envelope

NOTES = {
    "TagGrid": {
        "bugType": "BASIC",
        "description": "Hidden tags against component tags, including malformed tag metadata.",
    },
    "ScopeGrid": {
        "bugType": "EDGE_CASE",
        "description": "Declared scopes against the caller's granted scopes, both claims, "
        "anonymous callers, malformed metadata failing open.",
        "effect": "An implementation that splits scp entries, trims, or fails closed diverges.",
    },
    "Whitespace": {
        "bugType": "QUIRK",
        "description": "The scope claim splits on Rust's White_Space set, not Python's or "
        "JavaScript's (U+001C..U+001F, U+FEFF and U+200B are not separators; U+0085 is).",
    },
}

TAG_METAS: list[tuple[str, Any, list[str]]] = [
    ("absent", None, []),
    ("internal", ["internal"], ["internal"]),
    ("beta", ["beta"], ["beta"]),
    ("case", ["Internal"], ["Internal"]),
    ("empty-and-x", ["", "x"], ["", "x"]),
    ("string", "internal", []),
    ("mixed", [1, None, "internal"], ["internal"]),
    ("null", None, []),
    ("object", {"internal": True}, []),
]
HIDDEN = [[], ["internal"], ["internal", "beta"], [""]]
KINDS = ["tool", "resource", "resource_template", "prompt"]

SCOPE_METAS: list[tuple[str, Any, list[str]]] = [
    ("absent", None, []),
    ("read", ["read"], ["read"]),
    ("read-write", ["read", "write"], ["read", "write"]),
    ("with-space", ["read write"], ["read write"]),
    ("empty-entry", [""], [""]),
    ("string", "read", []),
    ("numbers", [5, True], []),
    ("upper", ["READ"], ["READ"]),
]
IDENTITIES: list[tuple[str, Any, list[str]]] = [
    ("anonymous", None, []),
    ("scope-read", {"sub": "alice", "claims": {"scope": "read"}}, ["read"]),
    ("scope-both", {"sub": "alice", "claims": {"scope": " read  write "}}, ["read", "write"]),
    ("scp-literal", {"sub": "alice", "claims": {"scp": ["read write"]}}, ["read write"]),
    ("scp-empty", {"sub": "alice", "claims": {"scp": [""]}}, [""]),
    ("union", {"sub": "a", "claims": {"scope": "read", "scp": ["write"]}}, ["read", "write"]),
    ("no-sub", {"claims": {"scope": "read write"}}, []),
    ("sub-number", {"sub": 7, "claims": {"scope": "read write"}}, []),
    ("empty-sub", {"sub": "", "claims": {"scope": "read"}}, ["read"]),
    ("claims-string", {"sub": "alice", "claims": "read write"}, []),
    ("scope-number", {"sub": "alice", "claims": {"scope": 5, "scp": "read"}}, []),
]


def _component(kind: str, tags: Any, scopes: Any, tag_set: bool, scope_set: bool) -> Any:
    meta: dict[str, Any] = {}
    if tag_set:
        meta["io.turbomcp/tags"] = tags
    if scope_set:
        meta["io.turbomcp/scopes"] = scopes
    return {"kind": kind, "id": "c", "meta": meta}


def _tag_grid() -> list[dict[str, Any]]:
    tests = []
    for (name, meta, tags), hidden, kind in itertools.product(TAG_METAS, HIDDEN, KINDS):
        visible = not any(t in hidden for t in tags)
        hidden_name = "-".join(h or "empty" for h in hidden) or "none"
        tests.append(
            {
                "id": f"vis-grid-tags-{name}-hide-{hidden_name}-{kind.replace('_', '-')}",
                "comment": f"tags {name}, hidden {hidden}: {'visible' if visible else 'hidden'}",
                "rules": ["VIS-POL-2", "VIS-META-2"],
                "flags": ["TagGrid"],
                "input": {
                    "policy": {"hidden_tags": hidden, "requiring_declared_scopes": False},
                    "component": _component(kind, meta, None, name != "absent", False),
                    "identity": None,
                },
                "expected": {"visible": visible},
            }
        )
    return tests


def _scope_grid() -> list[dict[str, Any]]:
    tests = []
    for (sname, meta, declared), (iname, ident, granted), requiring in itertools.product(
        SCOPE_METAS, IDENTITIES, (True, False)
    ):
        if not requiring and (sname, iname) not in {
            ("read", "anonymous"),
            ("read-write", "scope-read"),
        }:
            continue  # With the check off every component is visible: a few cases suffice.
        visible = not requiring or not declared or all(s in granted for s in declared)
        tests.append(
            {
                "id": f"vis-grid-scopes-{sname}-{iname}{'' if requiring else '-check-off'}",
                "comment": f"declares {declared or 'nothing'}, caller holds {granted or 'nothing'}",
                "rules": ["VIS-POL-3", "VIS-ID-2", "VIS-ID-4"],
                "flags": ["ScopeGrid"],
                "input": {
                    "policy": {"hidden_tags": [], "requiring_declared_scopes": requiring},
                    "component": _component("tool", None, meta, False, sname != "absent"),
                    "identity": ident,
                },
                "expected": {"visible": visible},
            }
        )
    return tests


SEPARATORS = [
    0x09,
    0x0A,
    0x0B,
    0x0C,
    0x0D,
    0x20,
    0x85,
    0xA0,
    0x1680,
    0x2000,
    0x2001,
    0x2005,
    0x200A,
    0x2028,
    0x2029,
    0x202F,
    0x205F,
    0x3000,
]  # Rust's char::is_whitespace (Unicode White_Space), a sample of each range.
NOT_SEPARATORS = [0x1C, 0x1D, 0x1E, 0x1F, 0x180E, 0x200B, 0x200C, 0x2060, 0xFEFF, 0x00AD, 0x7F]


def _whitespace() -> list[dict[str, Any]]:
    tests = []
    for code in SEPARATORS + NOT_SEPARATORS:
        splits = code in SEPARATORS
        tests.append(
            {
                "id": f"vis-grid-ws-{code:04x}",
                "comment": f"scope 'read<U+{code:04X}>write' {'does' if splits else 'does not'} "
                "grant write: Rust's split_whitespace "
                f"{'splits' if splits else 'does not split'} on U+{code:04X}",
                "rules": ["VIS-ID-3"],
                "flags": ["Whitespace"],
                "input": {
                    "policy": {"hidden_tags": [], "requiring_declared_scopes": True},
                    "component": _component("tool", None, ["write"], False, True),
                    "identity": {"sub": "alice", "claims": {"scope": f"read{chr(code)}write"}},
                },
                "expected": {"visible": splits},
            }
        )
    return tests


def files() -> dict[str, dict[str, Any]]:
    """The generated file."""
    return {
        "visibility/visible_grid.json": envelope(
            semantic="visibility",
            operation="visibility.is_visible",
            title="The built-in policy over grids of tags, declared scopes and callers",
            header=[
                "Generated by conformance/vectorgen/visibility_grid.py; each answer restates "
                "VIS-POL-2..4, VIS-ID-1..4 and VIS-META-2."
            ],
            source={
                "name": "Epistates/turbomcp",
                "version": "4.0.0-alpha.1 (519331ee)",
                "reference": "shared/seeds/001_ba24ed94237e4b06.txt",
            },
            notes=NOTES,
            tests=_tag_grid() + _scope_grid() + _whitespace(),
        )
    }
