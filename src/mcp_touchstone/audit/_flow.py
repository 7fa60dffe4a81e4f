"""Discovery and the MRTR flow the probes work on (``spec/audit.md``, AUDIT-DISC-*, AUDIT-FLOW-*).

Discovery lists what each caller sees; the flow finds a tool that answers ``input_required``
(the one the user named, or the first listed tool that does when called with its schema's
example or minimal arguments) and drives it to a complete result, answering each input request
with a minimal accepting answer.  The last retry of that flow -- its state, its answers -- is
what the MRTR probes mutate and replay.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mcp_touchstone.audit._client import MODERN, Answer, AuditError, Connection
from mcp_touchstone.audit._report import Exchange

__all__ = ["Catalog", "Flow", "answer_for", "discover", "drive", "example_arguments", "find_flow"]

LISTS = {
    "tool": ("tools/list", "tools", "name"),
    "prompt": ("prompts/list", "prompts", "name"),
    "resource": ("resources/list", "resources", "uri"),
    "template": ("resources/templates/list", "resourceTemplates", "uriTemplate"),
}
MAX_PAGES = 3
MAX_TRIES = 8
MAX_ROUNDS = 4


@dataclass
class Catalog:
    """What one caller was listed, per kind: id -> the listed item."""

    items: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    discovered: Any = None
    refused: list[str] = field(default_factory=list)
    """The lists the server answered with something other than a result (first words)."""

    def names(self, kind: str) -> list[str]:
        """The ids listed for ``kind``, in list order."""
        return list(self.items.get(kind, {}))


async def discover(conn: Connection) -> Catalog:
    """``server/discover`` on 2026-07-28 (the handshake on 2025-11-25 happens in the
    connection), then every list, at most :data:`MAX_PAGES` pages each (AUDIT-DISC-1);
    :class:`AuditError` when every list is refused."""
    catalog = Catalog()
    answered = False
    if conn.era == MODERN:
        answer, _ = await conn.send("server/discover", {}, "server/discover")
        catalog.discovered = answer.result
    for kind, (method, key, ident) in LISTS.items():
        found: dict[str, dict[str, Any]] = {}
        cursor: str | None = None
        for _ in range(MAX_PAGES):
            params = {} if cursor is None else {"cursor": cursor}
            answer, _ = await conn.send(method, params, method)
            listed = answer.result is not None and (answer.status or 200) < 300
            answered = answered or listed
            if not listed:
                catalog.refused.append(f"{method}: {answer.status} {answer.body[:100]}")
            result = (answer.result if listed else None) or {}
            for item in result.get(key) or []:
                if isinstance(item, dict) and isinstance(item.get(ident), str):
                    found[item[ident]] = item
            cursor = result.get("nextCursor")
            if not isinstance(cursor, str):
                break
        catalog.items[kind] = found
    if not answered:
        # Nothing was listed and every list was refused (an error status, an HTML page, a
        # redirect, not JSON, an answer to another id): this caller cannot be audited.
        raise AuditError(f"{conn.era}: every list was refused, e.g. {catalog.refused[0]}")
    return catalog


def _value(schema: Any) -> Any:
    if not isinstance(schema, Mapping):
        return "touchstone"
    for key in ("examples",):
        if isinstance(schema.get(key), list) and schema[key]:
            return schema[key][0]
    for key in ("default", "const"):
        if key in schema:
            return schema[key]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    for variant in ("anyOf", "oneOf"):
        if isinstance(schema.get(variant), list) and schema[variant]:
            return _value(schema[variant][0])
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind in ("integer", "number"):
        return 1
    if kind == "boolean":
        return True
    if kind == "array":
        return []
    if kind == "object":
        return example_arguments(schema)
    return "touchstone"


def example_arguments(schema: Any) -> dict[str, Any]:
    """Arguments for ``schema``: its ``examples[0]`` when it has one, else each required
    property from its example, default, const, first enum value or a minimal value of its type
    (AUDIT-FLOW-1)."""
    if not isinstance(schema, Mapping):
        return {}
    examples = schema.get("examples")
    if isinstance(examples, list) and examples and isinstance(examples[0], dict):
        return dict(examples[0])
    found_props = schema.get("properties")
    props: Mapping[str, Any] = found_props if isinstance(found_props, Mapping) else {}
    found_required = schema.get("required")
    required: list[Any] = found_required if isinstance(found_required, list) else []
    return {name: _value(props.get(name)) for name in required if isinstance(name, str)}


def answer_for(request: Any) -> Any:
    """A minimal accepting answer to one input request (AUDIT-FLOW-2): an elicitation accepted
    with content built from its schema, a sampling message, an empty roots list."""
    method = request.get("method") if isinstance(request, Mapping) else None
    params = request.get("params") if isinstance(request, Mapping) else None
    params = params if isinstance(params, Mapping) else {}
    if method == "sampling/createMessage":
        return {
            "role": "assistant",
            "content": {"type": "text", "text": "ok"},
            "model": "touchstone-audit",
            "stopReason": "endTurn",
        }
    if method == "roots/list":
        return {"roots": []}
    if params.get("mode") == "url":
        return {"action": "accept"}
    schema = params.get("requestedSchema")
    content: dict[str, Any] = {}
    if isinstance(schema, Mapping) and isinstance(schema.get("properties"), Mapping):
        for name, prop in schema["properties"].items():
            content[name] = _value(prop)
    return {"action": "accept", "content": content}


@dataclass
class Flow:
    """A driven MRTR flow: the tool, its arguments, every round, and the final retry."""

    tool: str
    arguments: dict[str, Any]
    rounds: list[tuple[dict[str, Any], Answer, Exchange]]
    first_requests: list[str]

    @property
    def final(self) -> tuple[dict[str, Any], Answer, Exchange]:
        """The last retry: its params, answer and exchange."""
        return self.rounds[-1]

    @property
    def complete(self) -> bool:
        """Whether the flow ended with a complete result after at least one retry."""
        return len(self.rounds) >= 2 and self.final[1].kind == "complete"

    @property
    def state(self) -> str | None:
        """The ``requestState`` the final retry carried."""
        value = self.final[0].get("requestState")
        return value if isinstance(value, str) else None

    @property
    def answers(self) -> dict[str, Any]:
        """The ``inputResponses`` the final retry carried."""
        value = self.final[0].get("inputResponses")
        return dict(value) if isinstance(value, Mapping) else {}


async def drive(conn: Connection, tool: str, arguments: Mapping[str, Any]) -> Flow | None:
    """Call ``tool``; when it answers ``input_required``, answer and retry until it completes
    (at most :data:`MAX_ROUNDS` retries).  ``None`` when the first answer is not
    ``input_required``."""
    params: dict[str, Any] = {"name": tool, "arguments": dict(arguments)}
    answer, exchange = await conn.send("tools/call", params, f"tools/call {tool} (round 1)")
    if answer.kind != "input_required":
        return None
    first = answer.result or {}
    flow = Flow(
        tool,
        dict(arguments),
        [(params, answer, exchange)],
        sorted(first.get("inputRequests") or {}),
    )
    for number in range(2, MAX_ROUNDS + 2):
        result = answer.result or {}
        requests = result.get("inputRequests") or {}
        params = {"name": tool, "arguments": dict(arguments)}
        if isinstance(requests, Mapping):
            params["inputResponses"] = {k: answer_for(v) for k, v in requests.items()}
        if isinstance(result.get("requestState"), str):
            params["requestState"] = result["requestState"]
        answer, exchange = await conn.send(
            "tools/call", params, f"tools/call {tool} (round {number})"
        )
        flow.rounds.append((params, answer, exchange))
        if answer.kind != "input_required":
            break
    return flow


async def find_flow(
    conn: Connection, catalog: Catalog, tool: str | None, arguments: Mapping[str, Any] | None
) -> tuple[Flow | None, list[str]]:
    """The MRTR flow to probe, and the other tools seen answering ``input_required``: the
    named tool, or the first of at most :data:`MAX_TRIES` listed tools that asks for input."""
    if tool is not None:
        args = (
            dict(arguments)
            if arguments is not None
            else example_arguments(catalog.items.get("tool", {}).get(tool, {}).get("inputSchema"))
        )
        return await drive(conn, tool, args), []
    flow: Flow | None = None
    others: list[str] = []
    for name in catalog.names("tool")[:MAX_TRIES]:
        args = example_arguments(catalog.items["tool"][name].get("inputSchema"))
        if flow is None:
            flow = await drive(conn, name, args)
            continue
        params = {"name": name, "arguments": args}
        answer, _ = await conn.send("tools/call", params, f"tools/call {name} (round 1)")
        if answer.kind == "input_required":
            others.append(name)
            break
    return flow, others
