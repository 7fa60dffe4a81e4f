"""One server process of the two-process test: run the final MRTR round of a retry against a
Redis-backed final-response store and print the response (``python -m
tests.adapters._redis_worker PORT REQUEST_ID NOW PARAMS_JSON``)."""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import redis

from mcp_touchstone.adapters.redis_store import RedisRequestStateStore
from mcp_touchstone.mrtr._context import Context
from mcp_touchstone.mrtr._engine import ServerConfig, dispatch
from mcp_touchstone.mrtr._state import Keyring

SECRET = b"shared-secret"
FORM: dict[str, Any] = {
    "message": "Confirm?",
    "requestedSchema": {"type": "object", "properties": {}},
}


def handler_for(client: Any) -> Any:
    """The tool: asks one question, then counts its runs and its commits in Redis."""

    def handler(ctx: Context, _params: Any) -> Any:
        ctx.elicit("confirm", FORM)
        client.incr("runs")
        ctx.on_commit(lambda: client.incr("commits"))
        time.sleep(0.3)  # long enough for the other process to arrive meanwhile
        return {"content": [{"type": "text", "text": "done"}], "isError": False}

    return handler


def config() -> ServerConfig:
    """Both processes share the key ring, as a multi-instance deployment must."""
    return ServerConfig(Keyring.single(SECRET))


def main(argv: list[str]) -> int:
    """Wait for the go signal, run the round, print the response and whether it was replayed."""
    port, request_id, now = int(argv[0]), int(argv[1]), int(argv[2])
    params = json.loads(argv[3])
    client = redis.Redis(host="127.0.0.1", port=port)
    store = RedisRequestStateStore(client, lock_wait=20)
    while not client.exists("go"):
        time.sleep(0.005)
    request = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
    result = dispatch(
        request, handler_for(client), config(), now=now, nonce=lambda: bytes(12), store=store
    )
    print(json.dumps({"response": result.response, "replayed": result.replayed}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
