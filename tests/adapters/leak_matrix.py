"""The cross-SDK leak matrix: does a hidden component answer exactly like a nonexistent one?

For each row (an SDK and a way of hiding, ``_servers.SUBJECTS``), each component kind, each
transport and each era, the unprivileged caller (alice) asks for the privileged component on
the server that has it, and the same request goes to the ground-truth server that does not
(``absent=True``).  The cell holds when the two answers are identical -- the parsed answer in
memory, the HTTP status and every body byte over HTTP -- and the component is absent from
alice's list.  The header column asks, on 2026-07-28 HTTP, for the privileged tool without its
``Mcp-Param-Region`` header.

``python -m tests.adapters.leak_matrix`` prints the Markdown table; ``make leak-matrix`` writes
``docs/leak-matrix.md``, and a test regenerates it and fails on a difference.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import anyio

from tests.adapters._drive import (
    LIST_OF,
    call_for,
    http_exchange,
    listed,
    memory_exchange,
)
from tests.adapters._servers import HIDDEN, SUBJECTS, Subject

KINDS = ("tool", "prompt", "resource", "template")
COLUMNS = tuple(
    (transport, era) for transport in ("memory", "http") for era in ("legacy", "modern")
)
CALLER = "alice"


@dataclass(frozen=True)
class Cell:
    """One check: whether hidden answers as nonexistent, and a short why when it does not."""

    holds: bool
    why: str = ""


async def _answers(subject: Subject, kind: str, transport: str, era: str) -> tuple[object, ...]:
    list_method = LIST_OF[kind][0]
    calls = [call_for(kind, HIDDEN[kind]), (list_method, {})]
    exchange = memory_exchange if transport == "memory" else http_exchange
    with_it = await exchange(subject.server(), era, CALLER, calls)
    without = await exchange(subject.ground_truth(), era, CALLER, calls[:1])
    return with_it[0], without[0], with_it[1]


async def check(subject: Subject, kind: str, transport: str, era: str) -> Cell:
    """The cell for ``subject``, ``kind``, ``transport`` and ``era``."""
    hidden, nonexistent, listing = await _answers(subject, kind, transport, era)
    target = "vault://{id}" if kind == "template" else HIDDEN[kind]
    if target in listed(listing, kind):
        return Cell(False, "listed")
    if hidden != nonexistent:
        if isinstance(hidden, tuple) and isinstance(nonexistent, tuple):
            if hidden[0] != nonexistent[0]:
                return Cell(False, f"status {int(hidden[0])} vs {int(nonexistent[0])}")
            return Cell(False, "body differs")
        return Cell(False, "answer differs")
    return Cell(True)


async def header_check(subject: Subject) -> Cell:
    """The ``Mcp-Param-*`` existence oracle: the privileged tool called without its
    ``Mcp-Param-Region`` header on 2026-07-28 HTTP, against a nonexistent tool of that name."""
    call = [("tools/call", {"name": HIDDEN["tool"], "arguments": {"name": "x", "region": "eu"}})]
    hidden = await http_exchange(subject.server(), "modern", CALLER, call)
    nonexistent = await http_exchange(subject.ground_truth(), "modern", CALLER, call)
    if hidden[0] == nonexistent[0]:
        return Cell(True)
    if hidden[0][0] != nonexistent[0][0]:
        return Cell(False, f"status {int(hidden[0][0])} vs {int(nonexistent[0][0])}")
    return Cell(False, "body differs")


NODE_LABEL = "TypeScript SDK McpServer (disabled)"


async def node_check(kind: str, era: str, urls: tuple[str, str]) -> Cell | None:
    """The TypeScript SDK's row: the ``disabled`` server against the ``absent`` one over HTTP
    (live loopback URLs); ``None`` when the SDK does not speak ``era`` at all (its ground truth
    refuses the protocol version)."""
    from tests.adapters._node import url_exchange

    disabled, absent = urls
    list_method = LIST_OF[kind][0]
    calls = [call_for(kind, HIDDEN[kind]), (list_method, {})]
    with_it = await url_exchange(disabled, era, CALLER, calls)
    without = await url_exchange(absent, era, CALLER, calls[:1])
    if b"Unsupported protocol version" in without[0][1]:
        return None
    target = "vault://{id}" if kind == "template" else HIDDEN[kind]
    if target in listed(with_it[1], kind):
        return Cell(False, "listed")
    if with_it[0] != without[0]:
        if with_it[0][0] != without[0][0]:
            return Cell(False, f"status {with_it[0][0]} vs {without[0][0]}")
        return Cell(False, "body differs")
    return Cell(True)


async def _node_rows() -> list[str]:
    from tests.adapters._node import node_server

    rows = []
    with node_server("disabled") as disabled, node_server("absent") as absent:
        for kind in KINDS:
            cells = []
            for transport, era in COLUMNS:
                cell = (
                    None
                    if transport == "memory"
                    else await node_check(kind, era, (disabled, absent))
                )
                cells.append("n/a" if cell is None else _mark(cell))
            rows.append(f"| {NODE_LABEL} | {kind} | " + " | ".join(cells) + " |")
    return rows


def _mark(cell: Cell) -> str:
    return "✅" if cell.holds else f"❌ {cell.why}"


async def matrix() -> str:
    """The Markdown leak matrix, every cell a check run now."""
    head = ["server", "kind", *(f"{t} {e}" for t, e in COLUMNS)]
    lines = [
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    header_rows = []
    for subject in SUBJECTS:
        for kind in KINDS:
            cells = [await check(subject, kind, t, e) for t, e in COLUMNS]
            lines.append(
                f"| {subject.label} | {kind} | " + " | ".join(_mark(c) for c in cells) + " |"
            )
        header_rows.append(f"| {subject.label} | {_mark(await header_check(subject))} |")
    lines.extend(await _node_rows())
    header_rows.append(f"| {NODE_LABEL} | n/a (no 2026-07-28 in SDK 1.32.2) |")
    return "\n".join(
        [
            "# Cross-SDK leak matrix",
            "",
            "Generated by `make leak-matrix` (`python -m tests.adapters.leak_matrix`); a test",
            "regenerates it and fails on any difference, so every cell is a test result.",
            "",
            "Each cell: the unprivileged caller asks for a privileged component; the answer must",
            "equal, byte for byte over HTTP (status included) and value for value in memory, the",
            "answer of the same server without that component, and the component must be absent",
            "from the caller's list. ✅ holds; ❌ says how it leaks. The TypeScript SDK row",
            "(npm `@modelcontextprotocol/sdk`, `make node-deps`) runs `tests/node/server.mjs` on",
            "loopback ports; it has no in-memory client here (memory columns n/a) and no",
            "2026-07-28 era (its server refuses that protocol version).",
            "",
            *lines,
            "",
            "## `Mcp-Param-*` header validation (2026-07-28 HTTP, privileged tool)",
            "",
            "| server | hidden == nonexistent |",
            "|---|---|",
            *header_rows,
            "",
        ]
    )


def main() -> int:
    """Print the matrix."""
    sys.stdout.write(anyio.run(matrix))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
