"""Benchmark: seal and open (with every server-side check) of one requestState token,
mcp-touchstone's neva codec against the official Python SDK's ``AESGCMRequestStateCodec``
measured in the same run on a comparable payload.

Run: ``.venv/bin/python bench/bench_mrtr.py`` (the peer comes from the ``bench`` extra).

Workloads (per token):
* ours/seal  -- ``seal(StatePayload, Keyring, nonce)``: compact payload JSON in declared
  order (answer and memo maps written key-sorted, as neva's B-tree Values are),
  ChaCha20-Poly1305 under SHA-256(label || secret), base64url.
* ours/open  -- ``verify(token, keyring, CheckContext)``: size cap, 4-segment split, strict
  base64url, AEAD open, serde-exact payload decode, expiry, request binding (SHA-256 over
  canonical JSON), principal and audience. The payload decode is the one reader of
  ``mcp_touchstone.mrtr._payload_reader``: the struct's members one by one, each field's value
  through the JSON layer.
* peer/seal  -- the SDK's claims dict (same answers/memos as the state text, its method,
  target, 16-byte args digest, salted principal tag, audience) as compact JSON, then
  ``AESGCMRequestStateCodec.seal`` (AES-256-GCM, HKDF-derived key, random nonce).
* peer/open  -- ``unseal`` + ``json.loads`` + the SDK's own checks on those claims: expiry,
  request identity (``_request_identity``), salted principal tag, audience.
Nonces: ours takes an injected nonce; both sides draw it from ``os.urandom`` per token here.
Each side's best per-call wall time and best thread-CPU time are kept (the CPU ratio is the
steadier one on a shared machine). Goal (issue 13): ratio ours/peer <= 1.0 on both.  Results
are also written to ``bench/results/mrtr.json``, with the token-size growth (seal and open
against the size of the answers map).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from typing import Any

from mcp.server import request_state as sdk

from _common import write_results
from mcp_touchstone.mrtr import CheckContext, Keyring, StatePayload, request_binding, seal, verify

REPEAT = 9
NUMBER = 2000
NOW = 1_800_000_000
PARAMS: dict[str, Any] = {"name": "greet", "arguments": {"city": "Lisbon", "days": 3}}
ANSWERS: dict[str, Any] = {
    "who": {"action": "accept", "content": {"name": "octocat", "email": "octo@example.com"}}
}
MEMOS: dict[str, Any] = {"quote": {"price": 42, "currency": "EUR", "ref": "q-7781"}}
PRINCIPAL = "alice"
AUDIENCE = "https://weather.example.com/mcp"
SECRET = bytes(range(32))


def per_call_cpu(fn: Callable[[], object]) -> tuple[float, float]:
    """Mean wall and thread-CPU seconds per call over NUMBER calls."""
    wall, cpu = time.perf_counter(), time.thread_time()
    for _ in range(NUMBER):
        fn()
    return (time.perf_counter() - wall) / NUMBER, (time.thread_time() - cpu) / NUMBER


def best_pair(
    ours_fn: Callable[[], object], peer_fn: Callable[[], object]
) -> tuple[tuple[float, float], tuple[float, float]]:
    """Best per-call (wall, thread CPU) time of each over REPEAT rounds, the two measured
    alternately in each round so that load on a shared machine falls on both alike. Thread CPU
    time leaves out the time a loaded run queue keeps the process waiting, so on a shared
    machine its ratio is the steadier one; on a quiet machine the two agree."""
    ours_runs, peer_runs = [], []
    for _ in range(REPEAT):
        ours_runs.append(per_call_cpu(ours_fn))
        peer_runs.append(per_call_cpu(peer_fn))
    return (
        (min(r[0] for r in ours_runs), min(r[1] for r in ours_runs)),
        (min(r[0] for r in peer_runs), min(r[1] for r in peer_runs)),
    )


def ours() -> tuple[Callable[[], object], Callable[[], object], int]:
    keyring = Keyring.single(SECRET)
    payload = StatePayload(
        answers=ANSWERS,
        requested=("greeting",),
        memos=MEMOS,
        effects=("charge",),
        exp=NOW + 300,
        req=request_binding("tools/call", PARAMS),
        principal=PRINCIPAL,
        aud=AUDIENCE,
    )
    check = CheckContext(
        method="tools/call", params=PARAMS, now=NOW, principal=PRINCIPAL, audience=AUDIENCE
    )
    token = seal(payload, keyring, os.urandom(12))
    assert verify(token, keyring, check) == payload

    def do_seal() -> object:
        return seal(payload, keyring, os.urandom(12))

    def do_open() -> object:
        return verify(token, keyring, check)

    return do_seal, do_open, len(token)


def peer() -> tuple[Callable[[], object], Callable[[], object], int]:
    codec = sdk.AESGCMRequestStateCodec([SECRET])
    state_text = sdk.compact_json({"answers": ANSWERS, "memos": MEMOS, "requested": ["greeting"]})
    target, digest = sdk._request_identity("tools/call", PARAMS)  # the SDK's own binding helper

    def claims() -> dict[str, Any]:
        return {
            "v": 1,
            "iat": NOW,
            "exp": NOW + 600,
            "m": "tools/call",
            "t": target,
            "a": digest,
            "s": state_text,
            "aud": AUDIENCE,
            "p": sdk._principal_claim(PRINCIPAL),  # the SDK's own salted tag
        }

    def do_seal() -> object:
        return codec.seal(sdk.compact_json(claims()).encode())

    token = codec.seal(sdk.compact_json(claims()).encode())

    def do_open() -> object:
        c = json.loads(codec.unseal(token))
        if c["v"] != 1 or c["exp"] < NOW:
            raise sdk.InvalidRequestState("expired")
        if (c["m"], c["t"], c["a"]) != ("tools/call", *sdk._request_identity("tools/call", PARAMS)):
            raise sdk.InvalidRequestState("binding")
        if not sdk._principal_matches(c["p"], PRINCIPAL):
            raise sdk.InvalidRequestState("principal")
        if c["aud"] != AUDIENCE:
            raise sdk.InvalidRequestState("audience")
        return c["s"]

    do_open()
    return do_seal, do_open, len(token)


def main() -> None:
    """Measure both codecs in this process and print a table with the ratios."""
    our_seal, our_open, our_len = ours()
    peer_seal, peer_open, peer_len = peer()
    rows = []
    for name, ours_fn, peer_fn in (
        ("seal", our_seal, peer_seal),
        ("open+checks", our_open, peer_open),
    ):
        (o_wall, o_cpu), (p_wall, p_cpu) = best_pair(ours_fn, peer_fn)
        rows.append((name, o_wall, p_wall, o_cpu, p_cpu))
    print(f"requestState per token (best of {REPEAT} x {NUMBER}, ours and peer alternating)")
    print(f"token chars: ours {our_len}, peer {peer_len}")
    print(
        f"{'op':<12} {'ours (us)':>10} {'mcp SDK (us)':>13} {'ours/peer':>10}"
        f" {'cpu ours':>9} {'cpu SDK':>9} {'cpu ratio':>10}"
    )
    for name, o, p, oc, pc in rows:
        print(
            f"{name:<12} {o * 1e6:>10.2f} {p * 1e6:>13.2f} {o / p:>10.2f}"
            f" {oc * 1e6:>9.2f} {pc * 1e6:>9.2f} {oc / pc:>10.2f}"
        )
    total_o = sum(r[1] for r in rows)
    total_p = sum(r[2] for r in rows)
    ratio = total_o / total_p
    print(f"{'round trip':<12} {total_o * 1e6:>10.2f} {total_p * 1e6:>13.2f} {ratio:>10.2f}")
    growth = token_growth()
    print("growth: ours per token against the answers map (entries of ~40 bytes each)")
    print(f"| {'answers':>7} | {'token chars':>11} | {'seal us':>8} | {'open us':>8} |")
    for g in growth:
        print(
            f"| {g['answers']:>7} | {g['token_chars']:>11} | {g['seal_s'] * 1e6:>8.1f} |"
            f" {g['open_s'] * 1e6:>8.1f} |"
        )
    write_results(
        "mrtr",
        {
            "token_chars": {"ours": our_len, "peer": peer_len},
            "per_token_s": {
                name: {"ours": o, "peer": p, "ratio": o / p} for name, o, p, _, _ in rows
            },
            "per_token_cpu_s": {
                name: {"ours": oc, "peer": pc, "ratio": oc / pc} for name, _, _, oc, pc in rows
            },
            "goal_ratio": 1.0,
            "growth": growth,
        },
    )


def token_growth() -> list[dict[str, float]]:
    """Best per-token seal and open time of ours as the sealed answers map grows."""
    keyring = Keyring.single(SECRET)
    check = CheckContext(
        method="tools/call",
        params=PARAMS,
        now=NOW,
        principal=PRINCIPAL,
        audience=AUDIENCE,
        max_state_bytes=1 << 24,  # the default cap would refuse the largest tokens here
    )
    rows = []
    for n in (1, 10, 100, 1000):
        answers = {f"q{i:04d}": {"action": "accept", "content": {"v": i}} for i in range(n)}
        payload = StatePayload(
            answers=answers,
            exp=NOW + 300,
            req=request_binding("tools/call", PARAMS),
            principal=PRINCIPAL,
            aud=AUDIENCE,
        )
        nonce = os.urandom(12)
        token = seal(payload, keyring, nonce)
        assert verify(token, keyring, check) == payload
        calls = max(20, NUMBER // n)
        seal_s = min(
            per_call_n(lambda p=payload, k=nonce: seal(p, keyring, k), calls) for _ in range(3)
        )
        open_s = min(per_call_n(lambda t=token: verify(t, keyring, check), calls) for _ in range(3))
        rows.append({"answers": n, "token_chars": len(token), "seal_s": seal_s, "open_s": open_s})
    return rows


def per_call_n(fn: Callable[[], object], number: int) -> float:
    """Mean seconds per call over ``number`` calls."""
    start = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - start) / number


if __name__ == "__main__":
    main()
