"""Existence probes (``spec/audit.md``, AUDIT-EXIST-*): a component listed for the privileged
caller and not for the other, asked for by the other, must answer byte for byte and by HTTP
status like a component that does not exist.

The privileged caller is whichever token lists more (a superset of the other's names); the
unprivileged caller sends both requests with the same JSON-RPC id and the same arguments, and
the two bodies are compared with each name replaced by a placeholder.

A tool may have a second address: FastMCP routes ``__<hash>_<name>`` (an app tool's identity
hash, listed in its ``_meta.fastmcp``) to the tool it identifies.  AUDIT-EXIST-6 asks for a
hidden tool by that alias, against an alias no tool has.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from mcp_touchstone.audit._client import MODERN, Connection
from mcp_touchstone.audit._flow import Catalog, example_arguments
from mcp_touchstone.audit._report import Exchange, Finding, Outcome, Severity

__all__ = ["EXISTENCE", "existence"]

MAX_HIDDEN = 3
_PLACEHOLDER = "<NAME>"
_ID = 9000
EXISTENCE = {
    "AUDIT-EXIST-1": "tool",
    "AUDIT-EXIST-2": "prompt",
    "AUDIT-EXIST-3": "resource",
    "AUDIT-EXIST-4": "template",
    "AUDIT-EXIST-5": "header",
    "AUDIT-EXIST-6": "alias",
}
_TITLES = {
    "tool": "existence: hidden tool answered like a nonexistent one",
    "prompt": "existence: hidden prompt answered like a nonexistent one",
    "resource": "existence: hidden resource answered like a nonexistent one",
    "template": "existence: hidden resource template answered like a nonexistent one",
    "header": "existence: the Mcp-Param-* header check on a hidden tool",
    "alias": "existence: a hidden tool called by its FastMCP hashed alias",
}
_HASH = re.compile(r"[0-9a-f]{12}")
"""FastMCP's identity hash: the first 12 hex digits of a SHA-256."""


def tool_alias(item: Mapping[str, Any]) -> str | None:
    """The ``__<hash>_<name>`` alias FastMCP routes to a listed tool, or ``None``: the hash is
    the ``tool_hash`` of its ``_meta.fastmcp``, else FastMCP's ``sha256(app NUL name)[:12]``
    from the ``app`` there (FastMCP's ``hash_tool``, the same on every replica)."""
    name = item.get("name")
    meta = item.get("_meta")
    ours = meta.get("fastmcp") if isinstance(meta, Mapping) else None
    if not isinstance(name, str) or not isinstance(ours, Mapping):
        return None
    listed = ours.get("tool_hash")
    if isinstance(listed, str) and _HASH.fullmatch(listed):
        return f"__{listed}_{name}"
    app = ours.get("app")
    if isinstance(app, str):
        digest = hashlib.sha256(f"{app}\x00{name}".encode()).hexdigest()[:12]
        return f"__{digest}_{name}"
    return None


def _absent_alias(alias: str) -> str:
    """An alias of the same shape and local name that no tool has (another hash)."""
    digest, name = alias[2:14], alias[15:]
    other = "000000000000" if digest != "000000000000" else "ffffffffffff"
    return f"__{other}_{name}"


def _instantiate(template: str, value: str = "7") -> str:
    return re.sub(r"\{[^}]*\}", value, template)


def _absent_uri(uri: str) -> str:
    scheme, sep, _rest = uri.partition("://")
    return f"{scheme}://touchstone-absent" if sep else "touchstone-absent://x"


def _header_props(schema: Any) -> list[str]:
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(props, Mapping):
        return []
    return [k for k, v in props.items() if isinstance(v, Mapping) and "x-mcp-header" in v]


def _param_headers(schema: Any, args: Mapping[str, Any]) -> dict[str, str]:
    """The ``Mcp-Param-*`` headers a client sends on 2026-07-28 for the ``x-mcp-header``
    arguments in ``args``: AUDIT-EXIST-1 sends them, so that a hidden tool is compared with a
    nonexistent one past the header check, which is AUDIT-EXIST-5's alone (one root cause,
    one finding)."""
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    headers: dict[str, str] = {}
    for name in _header_props(schema):
        token = props[name]["x-mcp-header"] if isinstance(props, Mapping) else None
        if not isinstance(token, str) or name not in args:
            continue
        value = args[name]
        text = value if isinstance(value, str) else json.dumps(value)
        if text.isascii() and text.isprintable() and text == text.strip():
            headers[f"Mcp-Param-{token}"] = text
    return headers


def _request(kind: str, target: str, args: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    if kind in ("tool", "header", "alias"):
        return "tools/call", {"name": target, "arguments": dict(args)}
    if kind == "prompt":
        return "prompts/get", {"name": target}
    return "resources/read", {"uri": target}


def _normal(body: str, name: str) -> str:
    for form in sorted({name, json.dumps(name)[1:-1]}, key=len, reverse=True):
        body = body.replace(form, _PLACEHOLDER)
    return body


def _hidden(kind: str, privileged: Catalog, other: Catalog) -> list[tuple[str, Any]]:
    source = "tool" if kind in ("header", "alias") else kind
    names = [n for n in privileged.names(source) if n not in other.items.get(source, {})]
    out: list[tuple[str, Any]] = []
    for name in names:
        item = privileged.items[source][name]
        if kind == "header" and not _header_props(item.get("inputSchema")):
            continue
        if kind == "alias" and tool_alias(item) is None:
            continue
        out.append((name, item))
    return out[:MAX_HIDDEN]


def roles(a: Catalog, b: Catalog) -> bool | None:
    """``True`` when ``a`` is the privileged caller's catalog, ``False`` for ``b``, ``None``
    when they list the same names."""
    size_a = sum(len(v) for v in a.items.values())
    size_b = sum(len(v) for v in b.items.values())
    if size_a == size_b and all(set(a.names(k)) == set(b.names(k)) for k in a.items):
        return None
    return size_a >= size_b


async def existence(
    pid: str,
    eras: Sequence[str],
    conns: Mapping[tuple[str, str], Connection],
    catalogs: Mapping[tuple[str, str], Catalog],
) -> Finding:
    """The finding of one existence probe over every audited era."""
    kind = EXISTENCE[pid]
    title = _TITLES[kind]
    checked = 0
    leaks: list[str] = []
    evidence: list[Exchange] = []
    reasons: list[str] = []
    for era in eras:
        if kind == "header" and era != MODERN:
            continue
        main, other = catalogs.get((era, "main")), catalogs.get((era, "other"))
        if main is None or other is None:
            reasons.append("needs --other-token")
            continue
        side = roles(main, other)
        if side is None:
            reasons.append(f"{era}: the two tokens are listed the same names")
            continue
        privileged, plain = (main, other) if side else (other, main)
        conn = conns[(era, "other" if side else "main")]
        hidden = _hidden(kind, privileged, plain)
        if not hidden:
            reasons.append(f"{era}: nothing of this kind is hidden from the other caller")
            continue
        for name, item in hidden:
            if kind == "template":
                target, absent = _instantiate(name), _instantiate(_absent_uri(name))
            elif kind == "resource":
                target, absent = name, _absent_uri(name)
            elif kind == "alias":
                target = tool_alias(item) or name
                absent = _absent_alias(target)
            else:
                target, absent = name, f"touchstone_absent_{kind}"
            called = ("tool", "header", "alias")
            args = example_arguments(item.get("inputSchema")) if kind in called else {}
            if kind == "header":
                args.update(dict.fromkeys(_header_props(item.get("inputSchema")), "touchstone"))
            headers = {}
            if kind == "tool" and era == MODERN:
                headers = _param_headers(item.get("inputSchema"), args)
            m1, p1 = _request(kind, target, args)
            m2, p2 = _request(kind, absent, args)
            a1, e1 = await conn.send(
                m1, p1, f"{era}: hidden {target}", request_id=_ID, extra_headers=headers
            )
            a2, e2 = await conn.send(
                m2, p2, f"{era}: nonexistent {absent}", request_id=_ID, extra_headers=headers
            )
            checked += 1
            same = a1.status == a2.status and _normal(a1.body, target) == _normal(a2.body, absent)
            if not same:
                leaks.append(f"{target} ({era}, HTTP {a1.status} vs {a2.status})")
                evidence.extend([e1, e2])
            elif not evidence:
                evidence.extend([e1, e2])
    if leaks:
        return Finding(
            pid,
            title,
            Outcome.FINDING,
            Severity.MEDIUM,
            f"distinguishable from a nonexistent name: {', '.join(leaks)}",
            tuple(evidence[:4]),
        )
    if checked:
        return Finding(
            pid,
            title,
            Outcome.PASS,
            Severity.INFO,
            f"{checked} hidden name(s) answered exactly like a nonexistent one",
            tuple(evidence[:2]),
        )
    return Finding(
        pid,
        title,
        Outcome.NOT_OBSERVABLE,
        Severity.INFO,
        "; ".join(dict.fromkeys(reasons)) or "nothing to compare",
    )
