"""How parser cost grows with input size: time per input against size, a markdown table.

``python -m assurance.growth`` (part of ``make fuzz``). Each row is one size axis, each column a
size; a cell is the best of 5 timings of one parse (µs of this process's CPU time, so that a
machine shared with other work does not count preemption as cost: wall-clock time on a loaded
2-core machine jumps ~10x once one parse outlasts a scheduler slice). The last column is the
slope exponent ``log(t_max/t_min) / log(n_max/n_min)``: ~1 is linear, ~2 quadratic; depth beyond
serde_json's 128 is refused early, so its row stops at 127 levels. Measurements, never assertions.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from mcp_touchstone import mrtr, scope, serde_json


def _best(fn: Callable[[], object], repeat: int = 5) -> float:
    best = math.inf
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def _depth(n: int) -> bytes:
    return b"[" * n + b"]" * n


def _string(n: int) -> bytes:
    return b'"' + b"a\\u00e9" * (n // 7) + b'"'


def _number(n: int) -> bytes:
    return b"0." + b"1" * n + b"e-3"


def _leaves(n: int) -> bytes:
    return ("{" + ",".join(f'"k{i}":[{i},"v",true]' for i in range(n)) + "}").encode()


def _scope(n: int) -> serde_json.JSON:
    grant: serde_json.JSON = {"server_id": "*", "tool_name": "read", "operations": ["invoke"],
             "constraints": [{"type": "path_prefix", "value": "/srv"}]}  # fmt: skip
    return {"grants": [grant] * n}


def _payload(n: int) -> bytes:
    answers: serde_json.JSON = {
        f"k{i}": {"action": "accept", "content": {"v": i}} for i in range(n)
    }
    body: serde_json.JSON = {"answers": answers, "exp": 1, "req": "x"}
    return serde_json.to_string(body).encode()


def rows() -> list[tuple[str, list[int], list[float]]]:
    """(axis, sizes, seconds per input) for every axis."""
    out: list[tuple[str, list[int], list[float]]] = []

    def axis(name: str, sizes: list[int], make: Callable[[int], object],
             run: Callable[[object], object]) -> None:  # fmt: skip
        inputs = [make(n) for n in sizes]
        out.append((name, sizes, [_best(lambda x=x: run(x)) for x in inputs]))  # type: ignore[misc]

    def parse(b: object) -> object:
        return serde_json.from_str(b)  # type: ignore[arg-type]

    axis("JSON nesting depth (from_str)", [16, 32, 64, 127], _depth, parse)
    axis(
        "JSON string length, chars (from_str)", [1_000, 10_000, 100_000, 1_000_000], _string, parse
    )
    axis("JSON number length, fraction digits (from_str)", [10, 100, 1_000, 10_000], _number, parse)
    axis("JSON leaf count (from_str + validate)", [100, 1_000, 10_000, 100_000], _leaves,
         lambda b: serde_json.validate(serde_json.from_str(b)))  # type: ignore[arg-type]  # fmt: skip

    def refuse(v: object) -> object:
        try:
            return scope.decode_scope(v)  # type: ignore[arg-type]
        except scope.ScopeDecodeError as exc:  # the message quotes the string (Rust Debug)
            return exc

    sizes = [1_000, 10_000, 100_000, 1_000_000]
    axis("error message, ASCII string length (decode_scope refusal)", sizes, "a".__mul__, refuse)
    axis("error message, non-ASCII string length (same)", sizes, "\u00e9".__mul__, refuse)
    ring = mrtr.Keyring.single(b"s")

    def resolve(v: object) -> object:
        s = scope.decode_scope(v)  # type: ignore[arg-type]
        return scope.resolve_matching_grants(s, "read", "files", {"path": "/srv/a"})

    axis("scope grant count (decode_scope + resolve)", [10, 100, 1_000, 10_000], _scope, resolve)
    axis("payload answer count (StatePayload.decode)", [10, 100, 1_000, 10_000], _payload,
         mrtr.StatePayload.decode)  # type: ignore[arg-type]  # fmt: skip
    axis("token size, answers sealed (open_state)", [10, 100, 1_000, 10_000],
         lambda n: mrtr.seal(mrtr.StatePayload.decode(_payload(n)), ring, bytes(12)),
         lambda t: _open(t, ring))  # type: ignore[arg-type]  # fmt: skip
    return out


def _open(token: str, ring: mrtr.Keyring) -> object:
    return mrtr.open_state(token, ring)


def table() -> str:
    """The markdown table of :func:`rows`."""
    lines = ["| axis | sizes | µs per input | slope |", "| --- | --- | --- | --- |"]
    for name, sizes, secs in rows():
        slope = math.log(secs[-1] / secs[0]) / math.log(sizes[-1] / sizes[0])
        cells = " / ".join(f"{s * 1e6:,.0f}" for s in secs)
        sz = " / ".join(f"{n:,}" for n in sizes)
        lines.append(f"| {name} | {sz} | {cells} | {slope:.2f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table())
