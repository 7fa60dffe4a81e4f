"""Talk to the example server over streamable HTTP (2026-07-28) and show what each caller gets
(`python -m mcp_touchstone.examples.client [URL]`, default http://127.0.0.1:8765/mcp).

1. alice lists the tools: `purge_bucket` (it needs `admin`) is not there;
2. alice calls `purge_bucket` and `no_such_tool`: the two answers are the same bytes, but for
   the name, and the same HTTP status -- hidden means nonexistent;
3. alice calls `add` beyond her grant: a step-up refusal, not a not-found;
4. root calls `purge_bucket`: asked to confirm, confirms, and retries the final round: the
   retry is answered from the store, the purge ran once.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import httpx2

URL = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8765/mcp"
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
}


def post(who: str, method: str, params: dict[str, Any], ident: int = 1) -> tuple[int, str]:
    """One JSON-RPC request as `who`; the HTTP status and the raw body."""
    headers = {
        "Authorization": f"Bearer {who}",
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": method,
    }
    if "name" in params:
        headers["Mcp-Name"] = params["name"]
    body = {"jsonrpc": "2.0", "id": ident, "method": method, "params": {**params, "_meta": META}}
    answer = httpx2.post(URL, json=body, headers=headers, timeout=10)
    text = answer.text
    if text.startswith("event:") or "\ndata: " in text:  # an SSE frame: take its data line
        text = next(line[6:] for line in text.splitlines() if line.startswith("data: "))
    return answer.status_code, text


def main() -> int:
    """Run the four scenes and print what came back."""
    _status, listing = post("alice", "tools/list", {})
    names = [t["name"] for t in json.loads(listing)["result"]["tools"]]
    print(f"1. alice sees tools: {names}")

    hidden = post("alice", "tools/call", {"name": "purge_bucket", "arguments": {"bucket": "b"}})
    missing = post("alice", "tools/call", {"name": "no_such_tool", "arguments": {"bucket": "b"}})
    print(f"2. hidden  -> HTTP {hidden[0]} {hidden[1]}")
    print(f"   missing -> HTTP {missing[0]} {missing[1]}")
    same = (
        hidden[0] == missing[0] and hidden[1].replace("purge_bucket", "no_such_tool") == missing[1]
    )
    print(f"   identical but for the name: {same}")

    step_up = post(
        "alice", "tools/call", {"name": "add", "arguments": {"a": 1, "b": 2, "note": "x" * 40}}
    )
    print(f"3. alice add beyond her grant -> HTTP {step_up[0]} {step_up[1]}")

    args = {"name": "purge_bucket", "arguments": {"bucket": "logs"}}
    _s, first = post("root", "tools/call", args)
    state = json.loads(first)["result"]["requestState"]
    retry = {
        **args,
        "requestState": state,
        "inputResponses": {"confirm": {"action": "accept", "content": {"ok": True}}},
    }
    _s, final = post("root", "tools/call", retry, ident=2)
    _s, again = post("root", "tools/call", retry, ident=3)
    print(f"4. root final round -> {json.loads(final)['result']['content'][0]['text']}")
    print(f"   root retries it  -> {json.loads(again)['result']['content'][0]['text']}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
