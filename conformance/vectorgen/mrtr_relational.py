"""``mrtr/interop.json`` and ``mrtr/binding_relations.json``: relational MRTR vectors.

* interop (seal <-> open): for each hand-written payload, its plaintext is written by hand in
  neva's field order (MRTR-PAYLOAD-1) and sealed with neva's construction (MRTR-KEY-1: key =
  SHA-256(label || secret); MRTR-TOKEN-1..3: ChaCha20-Poly1305, AAD "{version}.{kid}"), which is
  byte mechanics, not the reference.  The same case appears twice: sealing the payload gives that
  token, and opening that token gives the payload back, so a token minted by neva opens here and
  a token minted here opens in neva.
* binding relations (MRTR-BIND-1..3): each params object comes with its canonical text written by
  hand; every variant that must not change the binding (key order, the top-level ``_meta``,
  ``requestState`` and ``inputResponses`` dropped as non-salient) expects the same binding, the
  SHA-256 of that text.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
from typing import Any

from conformance.vectorgen._common import envelope
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

LABEL = b"neva:mrtr:requestState:v1"
SOURCE = {
    "name": "RomanEmreis/neva",
    "version": "0.5.4 (e6822d7), MCP 2026-07-28",
    "reference": "shared/seeds/002_475f65e20b5169a8.txt; spec/mrtr.md",
}


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _token(secret: bytes, kid: str, nonce: bytes, plaintext: str, audience: bool) -> str:
    version = "v2" if audience else "v1"
    key = hashlib.sha256(LABEL + secret).digest()
    sealed = ChaCha20Poly1305(key).encrypt(nonce, plaintext.encode(), f"{version}.{kid}".encode())
    return f"{version}.{kid}.{_b64(nonce)}.{_b64(sealed)}"


def _text(value: Any) -> str:
    """Compact JSON of ints, strings, booleans, null, lists and sorted objects only: for these
    values this is byte for byte what serde_json writes (no floats are used)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


PAYLOADS: list[tuple[str, dict[str, Any]]] = [
    (
        "minimal",
        {
            "answers": {},
            "requested": [],
            "memos": {},
            "effects": [],
            "exp": 0,
            "req": "tools/call:x",
            "principal": None,
            "aud": None,
        },
    ),
    (
        "principal",
        {
            "answers": {},
            "requested": ["ask_name"],
            "memos": {},
            "effects": [],
            "exp": 1800000000,
            "req": "tools/call:abc",
            "principal": "alice",
            "aud": None,
        },
    ),
    (
        "answers",
        {
            "answers": {"ask": {"action": "accept", "content": {"b": 2, "a": "é"}}},
            "requested": ["ask"],
            "memos": {"step": 2},
            "effects": ["charged"],
            "exp": 4102444800,
            "req": "prompts/get:p",
            "principal": "bob",
            "aud": None,
        },
    ),
    (
        "audience",
        {
            "answers": {},
            "requested": [],
            "memos": {},
            "effects": [],
            "exp": 1,
            "req": "resources/read:r",
            "principal": None,
            "aud": "srv-1",
        },
    ),
    (
        "both",
        {
            "answers": {"k": [1, True, None, "x"]},
            "requested": ["k", "m"],
            "memos": {"z": {"y": {"x": 0}}},
            "effects": ["a", "b"],
            "exp": 18446744073709551615,
            "req": "tools/call:deploy",
            "principal": "",
            "aud": "",
        },
    ),
    (
        "unicode",
        {
            "answers": {"日本": "語"},
            "requested": ["日本"],
            "memos": {},
            "effects": [],
            "exp": 99,
            "req": "tools/call:ü",
            "principal": "ü",
            "aud": None,
        },
    ),
]
KIDS = ["0", "k1", "rotation-2026"]
SECRETS = [("secret-key", b"secret-key"), ("empty", b""), ("bytes32", bytes(range(32)))]
NONCES = [bytes(range(12)), bytes([0xFF] * 12)]


def _plaintext(p: dict[str, Any]) -> str:
    """MRTR-PAYLOAD-1: fields in neva's order, objects inside answers and memos sorted."""
    fields = ["answers", "requested", "memos", "effects", "exp", "req", "principal", "aud"]
    return "{" + ",".join(f'"{f}":{_text(p[f])}' for f in fields) + "}"


def _interop() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    seals, opens = [], []
    for (pname, payload), kid, (sname, secret), (n, nonce) in itertools.product(
        PAYLOADS, KIDS, SECRETS, enumerate(NONCES)
    ):
        token = _token(secret, kid, nonce, _plaintext(payload), payload["aud"] is not None)
        keys = [{"kid": kid, "secret_hex": secret.hex()}]
        stem = f"{pname}-{kid}-{sname}-n{n}"
        seals.append(
            {
                "id": f"mrtr-interop-seal-{stem}",
                "comment": f"sealing the {pname} payload under kid {kid} gives neva's token",
                "rules": ["MRTR-TOKEN-1", "MRTR-KEY-1", "MRTR-PAYLOAD-1", "MRTR-SEAL-3"],
                "flags": ["Interop"],
                "input": {
                    "keys": keys,
                    "active_kid": kid,
                    "nonce_hex": nonce.hex(),
                    "payload": payload,
                },
                "expected": {"token": token},
            }
        )
        opens.append(
            {
                "id": f"mrtr-interop-open-{stem}",
                "comment": f"neva's token for the {pname} payload opens to that payload "
                "(no check: the codec alone, so an old exp still opens)",
                "rules": [
                    "MRTR-TOKEN-1",
                    "MRTR-TOKEN-2",
                    "MRTR-OPEN-8",
                    "MRTR-PAYLOAD-2",
                    "MRTR-HARNESS-2",
                ],
                "flags": ["Interop"],
                "input": {"token": token, "keys": keys},
                "expected": {"payload": payload},
            }
        )
    return seals, opens


# params -> its canonical text, written by hand (MRTR-BIND-3: keys sorted, compact, raw UTF-8).
PARAMS: list[tuple[str, dict[str, Any], str]] = [
    ("name", {"name": "t"}, '{"name":"t"}'),
    (
        "args",
        {"name": "deploy", "arguments": {"env": "prod", "count": 3}},
        '{"arguments":{"count":3,"env":"prod"},"name":"deploy"}',
    ),
    ("nested", {"z": {"b": [2, 1], "a": None}, "a": True}, '{"a":true,"z":{"a":null,"b":[2,1]}}'),
    ("unicode", {"é": "日本", "e": "x"}, '{"e":"x","é":"日本"}'),
    ("nested-meta", {"arguments": {"_meta": {"k": 1}}}, '{"arguments":{"_meta":{"k":1}}}'),
    ("float", {"x": 1.5, "y": 1.0}, '{"x":1.5,"y":1.0}'),
    ("empty", {}, "{}"),
    ("escapes", {"s": 'a"b\\c\n'}, '{"s":"a\\"b\\\\c\\n"}'),
    (
        "big",
        {"n": 18446744073709551615, "m": -9223372036854775808},
        '{"m":-9223372036854775808,"n":18446744073709551615}',
    ),
    ("array-of-objects", {"list": [{"b": 1, "a": 2}, {}]}, '{"list":[{"a":2,"b":1},{}]}'),
]
METHODS = ["tools/call", "prompts/get", "resources/read"]
EXTRAS: list[tuple[str, dict[str, Any]]] = [
    ("plain", {}),
    ("meta", {"_meta": {"progressToken": 7, "io.modelcontextprotocol/clientCapabilities": {}}}),
    ("state", {"requestState": "v1.0.AAAA.BBBB", "inputResponses": {"ask": {"action": "cancel"}}}),
]


def _bindings() -> list[dict[str, Any]]:
    tests = []
    for (pname, params, canonical), method, (ename, extra) in itertools.product(
        PARAMS, METHODS, EXTRAS
    ):
        digest = _b64(hashlib.sha256(canonical.encode()).digest())
        for order in ("given", "reversed"):
            keys = list({**params, **extra})
            if order == "reversed":
                keys.reverse()
            merged = {**params, **extra}
            value = {k: merged[k] for k in keys}
            if order == "reversed" and len(keys) < 2:
                continue
            tests.append(
                {
                    "id": f"mrtr-bindrel-{method.split('/')[0]}-{pname}-{ename}-{order}",
                    "comment": f"{ename} fields and {order} key order leave the binding of "
                    f"{pname} params unchanged: SHA-256 of {canonical}",
                    "rules": ["MRTR-BIND-1", "MRTR-BIND-2", "MRTR-BIND-3"],
                    "flags": ["Relation"],
                    "input": {"method": method, "params": value},
                    "expected": {"binding": f"{method}:{digest}"},
                }
            )
    return tests


NOTES_INTEROP = {
    "Interop": {
        "bugType": "INTEROP",
        "description": "A token neva seals opens here to the same payload, and a seal here is "
        "byte-identical to neva's (same secret, kid, nonce and payload).",
        "effect": "Replicas on different implementations cannot continue each other's rounds.",
    }
}
NOTES_BIND = {
    "Relation": {
        "bugType": "ORACLE",
        "description": "Variants that must not change the binding: key order, and the "
        "non-salient top-level _meta / requestState / inputResponses.",
        "effect": "A binding that moves with key order or transport fields rejects honest "
        "retries, or one that ignores salient fields accepts a replay against another request.",
    }
}


def files() -> dict[str, dict[str, Any]]:
    """The generated files."""
    seals, opens = _interop()
    return {
        "mrtr/interop_seal.json": envelope(
            semantic="mrtr",
            operation="mrtr.state.seal",
            title="Sealing gives neva's token (relational: each opens in interop_open.json)",
            header=["Generated by conformance/vectorgen/mrtr_relational.py."],
            source=SOURCE,
            notes=NOTES_INTEROP,
            tests=seals,
        ),
        "mrtr/interop_open.json": envelope(
            semantic="mrtr",
            operation="mrtr.state.open",
            title="neva's tokens open to their payloads (relational: the seals of interop_seal)",
            header=["Generated by conformance/vectorgen/mrtr_relational.py."],
            source=SOURCE,
            notes=NOTES_INTEROP,
            tests=opens,
        ),
        "mrtr/binding_relations.json": envelope(
            semantic="mrtr",
            operation="mrtr.request_binding",
            title="Request bindings that must not move: key order and non-salient fields",
            header=["Generated by conformance/vectorgen/mrtr_relational.py."],
            source=SOURCE,
            notes=NOTES_BIND,
            tests=_bindings(),
        ),
    }
