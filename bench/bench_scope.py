"""Benchmark: Chio scope matching (``resolve_matching_grants``) on a stated workload, with the
marginal cost of one more grant and of one more string leaf, against peers measured in the
same run.

Run: ``.venv/bin/python bench/bench_scope.py`` (the peers come from the ``bench`` extra).

Workload (per call): a decoded scope of 8 grants, all of them targets of the call
(``files``/``read``, exact or ``*``), with 3 decided constraints each (24 in all:
path_prefix, domain_glob, max_length, max_args_size, custom, audience and memory-store
allowlists), every constraint holding, so every one is evaluated and all 8 grants are ranked.
The arguments hold 30 string leaves (paths, a URL, tenant, channel, store, plain tokens).

Measured:
* ours/resolve -- ``resolve_matching_grants(scope, "read", "files", args)`` on the decoded
  scope (argument validation, the string leaves collected once, 24 constraint verdicts,
  ranking).
* ours/decode  -- ``decode_scope`` of the same 8-grant scope JSON.
* ours/harness -- the ``scope.resolve_matching_grants`` harness operation end to end
  (decode + resolve + output shaping), what ``touchstone eval`` runs.
* +1 grant / +1 leaf -- marginal cost, from the slope between 8 and 32 grants (24 extra
  targets with 3 constraints each) and between 30 and 130 leaves.  The extra grants repeat
  the first 8 grants' constraints; the "distinct" row gives each extra copy of the 8 its own
  values, same verdicts (every constraint is evaluated afresh either way).
* peer/fastmcp -- FastMCP 4's per-call tool authorization, ``run_auth_checks`` with 8
  ``require_scopes`` checks of 3 scopes each (24 scope tests) plus a ``restrict_tag``,
  for a token holding all of them: the decision FastMCP makes before a tool runs.  It does
  not read the arguments.  The coroutine is driven directly (no event loop overhead).
* peer/mcp-sdk -- the MCP Python SDK validating the same ``tools/call`` request
  (``CallToolRequest.model_validate``): the floor every server pays per call.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Coroutine
from typing import Any

from fastmcp.server.auth import AccessToken
from fastmcp.tools import Tool
from fastmcp.utilities.authorization import (
    AuthCheck,
    AuthContext,
    require_scopes,
    restrict_tag,
    run_auth_checks,
)
from mcp.types import CallToolRequest

from mcp_touchstone.harness._scope import OPERATIONS
from mcp_touchstone.scope import ChioScope, decode_scope, resolve_matching_grants
from mcp_touchstone.serde_json import JSON

ROUNDS = 3
REPEAT = 5
NUMBER = 1000


def best_per_call(fn: Callable[[], object], number: int = NUMBER) -> float:
    """Best mean seconds per call over REPEAT runs of ``number`` calls."""
    runs = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - start) / number)
    return min(runs)


def _c(kind: str, value: JSON) -> JSON:
    return {"type": kind, "value": value}


_GRANT_CONSTRAINTS: list[list[JSON]] = [
    [_c("path_prefix", "/workspace"), _c("max_length", 4096), _c("max_args_size", 65536)],
    [_c("domain_glob", "*.example.com"), _c("max_length", 2048), _c("custom", ["tenant", "acme"])],
    [
        _c("audience_allowlist", ["#ops", "#eng"]),
        _c("memory_store_allowlist", ["case-notes"]),
        _c("max_args_size", 65536),
    ],
    [_c("path_prefix", "/workspace"), _c("custom", ["tenant", "acme"]), _c("max_length", 4096)],
    [
        _c("domain_exact", "api.example.com"),
        _c("audience_allowlist", ["#ops", "#eng"]),
        _c("max_length", 4096),
    ],
    [
        _c("memory_store_allowlist", ["case-notes"]),
        _c("path_prefix", "/"),
        _c("max_args_size", 65536),
    ],
    [_c("custom", ["mode", "safe"]), _c("domain_glob", "*"), _c("max_length", 4096)],
    [
        _c("max_args_size", 65536),
        _c("audience_allowlist", ["#ops", "#eng"]),
        _c("path_prefix", "/workspace/src/.."),
    ],
]
_PATTERNS = [("files", "read"), ("*", "read"), ("files", "*"), ("*", "*")]


def _distinct(constraint: JSON, i: int) -> JSON:
    """The same verdict under a different value, so that no two grants share a constraint
    (``/.`` segments vanish in normalization, ``**`` globs like ``*``, trailing dots are
    trimmed from an expected domain, extra allowlist entries and larger limits admit as
    much)."""
    assert isinstance(constraint, dict)
    kind, value = constraint["type"], constraint["value"]
    assert isinstance(kind, str)
    if i == 0 or kind == "custom":
        return constraint
    if kind == "path_prefix":
        assert isinstance(value, str)
        return _c(kind, value.rstrip("/") + "/." * i)
    if kind == "domain_glob":
        assert isinstance(value, str)
        return _c(kind, "*" * i + value)
    if kind == "domain_exact":
        assert isinstance(value, str)
        return _c(kind, value + "." * i)
    if kind in ("audience_allowlist", "memory_store_allowlist"):
        assert isinstance(value, list)
        return _c(kind, [*value, f"#unused-{i}"])
    assert isinstance(value, int)
    return _c(kind, value + i)


def scope_json(n_grants: int, *, distinct: bool = False) -> JSON:
    """``n_grants`` target grants with 3 decided constraints each; with ``distinct`` each
    further copy of the 8 grants carries its own constraint values (same verdicts)."""
    grants: list[JSON] = []
    for i in range(n_grants):
        server, tool = _PATTERNS[i % len(_PATTERNS)]
        constraints = _GRANT_CONSTRAINTS[i % len(_GRANT_CONSTRAINTS)]
        if distinct:
            constraints = [_distinct(c, i // len(_GRANT_CONSTRAINTS)) for c in constraints]
        grants.append(
            {
                "server_id": server,
                "tool_name": tool,
                "operations": ["invoke", "read"],
                "constraints": constraints,
            }
        )
    return {"grants": grants}


def arguments(n_leaves: int) -> dict[str, JSON]:
    """Arguments with exactly ``n_leaves`` string leaves, every constraint above holding."""
    args: dict[str, JSON] = {
        "path": "/workspace/src/main.py",
        "paths": ["/workspace/src/a.py", "/workspace/src/b.py", "/workspace/docs/readme.md"],
        "url": "https://api.example.com/v1/items?page=2",
        "tenant": "acme",
        "mode": "safe",
        "channel": "#ops",
        "recipients": ["#eng", "#ops"],
        "store": "case-notes",
        "options": {"depth": 3, "follow": False, "limit": None},
    }
    fixed = 11
    tokens: list[JSON] = [f"token-{i}" for i in range(n_leaves - fixed)]
    args["labels"] = tokens[: len(tokens) // 2]
    args["meta"] = {"notes": tokens[len(tokens) // 2 :]}
    return args


def count_leaves(value: JSON) -> int:
    """Number of JSON strings in ``value`` (the workload's stated leaf count)."""
    if isinstance(value, str):
        return 1
    if isinstance(value, list):
        return sum(count_leaves(v) for v in value)
    if isinstance(value, dict):
        return sum(count_leaves(v) for v in value.values())
    return 0


def ours_resolve(scope: ChioScope, args: JSON) -> Callable[[], object]:
    """One resolution on a decoded scope, checked to rank every grant."""
    result = resolve_matching_grants(scope, "read", "files", args)
    assert isinstance(result, tuple)
    assert len(result) == len(scope.grants), result
    return lambda: resolve_matching_grants(scope, "read", "files", args)


def peer_fastmcp() -> Callable[[], object]:
    """FastMCP's per-call auth decision: 8 x require_scopes(3) + restrict_tag."""

    def read(path: str) -> str:
        return path

    tool = Tool.from_function(read, tags={"files"})
    scopes = [f"files:scope-{i}-{j}" for i in range(8) for j in range(3)]
    token = AccessToken(token="t", client_id="c", scopes=[*scopes, "files:admin"])
    checks: list[AuthCheck] = [require_scopes(*scopes[i * 3 : i * 3 + 3]) for i in range(8)]
    checks.append(restrict_tag("files", scopes=["files:admin"]))
    ctx = AuthContext(token=token, component=tool)

    def run() -> bool:
        coro: Coroutine[Any, Any, bool] = run_auth_checks(checks, ctx)
        try:
            coro.send(None)
        except StopIteration as done:
            return bool(done.value)
        raise RuntimeError("auth check suspended")  # pragma: no cover - checks are sync

    assert run() is True
    return run


def peer_mcp_sdk(args: JSON) -> Callable[[], object]:
    """The SDK's validation of the same tools/call request."""
    request = {"method": "tools/call", "params": {"name": "read", "arguments": args}}
    CallToolRequest.model_validate(request)
    return lambda: CallToolRequest.model_validate(request)


def main() -> None:
    """Measure and print the table."""
    scope8_json = scope_json(8)
    scope8 = decode_scope(scope8_json)
    scope32 = decode_scope(scope_json(32))
    scope32d = decode_scope(scope_json(32, distinct=True))
    args30 = arguments(30)
    args130 = arguments(130)
    assert count_leaves(args30) == 30
    assert count_leaves(args130) == 130

    op = OPERATIONS["scope.resolve_matching_grants"]
    raw: JSON = {
        "scope": scope8_json,
        "tool_name": "read",
        "server_id": "files",
        "arguments": args30,
    }
    assert "matches" in op(raw)
    workloads: dict[str, tuple[Callable[[], object], int]] = {
        "resolve8": (ours_resolve(scope8, args30), NUMBER),
        "resolve32": (ours_resolve(scope32, args30), NUMBER // 2),
        "resolve32d": (ours_resolve(scope32d, args30), NUMBER // 2),
        "resolve130": (ours_resolve(scope8, args130), NUMBER // 2),
        "decode8": (lambda: decode_scope(scope8_json), NUMBER),
        "harness8": (lambda: op(raw), NUMBER),
        "fast": (peer_fastmcp(), NUMBER),
        "sdk": (peer_mcp_sdk(args30), NUMBER),
    }
    # Interleave the workloads over several rounds and keep each one's best, so that a
    # burst of load from other processes on the machine does not favour one side.
    best: dict[str, float] = {}
    for _ in range(ROUNDS):
        for name, (fn, number) in workloads.items():
            seconds = best_per_call(fn, number)
            best[name] = min(best.get(name, seconds), seconds)
    resolve8, resolve32, resolve130 = best["resolve8"], best["resolve32"], best["resolve130"]
    resolve32d = best["resolve32d"]
    decode8, harness8, fast, sdk = best["decode8"], best["harness8"], best["fast"], best["sdk"]

    per_grant = (resolve32 - resolve8) / 24
    per_distinct_grant = (resolve32d - resolve8) / 24
    per_leaf = (resolve130 - resolve8) / 100

    def row(name: str, seconds: float, note: str = "") -> None:
        print(f"| {name:<44} | {seconds * 1e6:>9.2f} | {1 / seconds:>12,.0f} | {note}")

    print("Workload: 8 target grants x 3 decided constraints, 30 string leaves (see docstring)")
    print(f"| {'measurement':<44} | {'us/call':>9} | {'calls/s':>12} | note")
    print(f"|{'-' * 46}|{'-' * 11}|{'-' * 14}|------")
    row("ours/resolve (decoded scope)", resolve8, "matches/s = calls/s x 8 ranked matches")
    row("ours/decode_scope (8 grants)", decode8)
    row("ours/harness op (decode + resolve + output)", harness8)
    row("ours/resolve, 32 grants", resolve32, "the 8 grants' constraints repeated")
    row("ours/resolve, 32 grants, distinct values", resolve32d, "own values per copy")
    row("ours/resolve, 130 leaves", resolve130)
    print(f"| {'marginal: +1 target grant (3 constraints)':<44} | {per_grant * 1e6:>9.2f} |")
    print(
        f"| {'marginal: +1 grant, distinct constraints':<44} | {per_distinct_grant * 1e6:>9.2f} |"
    )
    print(f"| {'marginal: +1 string leaf':<44} | {per_leaf * 1e6:>9.3f} |")
    row("peer/fastmcp run_auth_checks (8x3 scopes)", fast)
    row("peer/mcp-sdk CallToolRequest.model_validate", sdk)
    print()
    print(f"ratio ours/resolve : peer/fastmcp auth checks = {resolve8 / fast:.2f}x")
    print(f"ratio ours/resolve : peer/mcp-sdk request validation = {resolve8 / sdk:.2f}x")
    print(f"ratio ours/harness : peer/mcp-sdk request validation = {harness8 / sdk:.2f}x")


if __name__ == "__main__":
    main()
