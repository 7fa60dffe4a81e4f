# This file is a data table: long case descriptions (E501), one-letter names for the
# capability sets it repeats (N806) and a positional case() helper (PLR0917) keep it readable.
# ruff: noqa: E501, N806, PLR0917
"""The ``conformance/vectors/mrtr/*.json`` files from hand-stated cases (``make vectors``).

Independence: this generator never imports ``mcp_touchstone``. Expected outputs are written by
hand from the seed, ``shared/reference/neva.md`` and neva's unit tests; the only computed
parts are tokens (ChaCha20-Poly1305 from ``cryptography`` over hand-written plaintext
bytes, key = SHA-256(label || secret)) and hashes over hand-written canonical text.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from conformance.vectorgen._common import vector
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

LABEL = b"neva:mrtr:requestState:v1"
NONCE = bytes(range(12))
SECRET = b"secret-key"
SOURCE = {
    "name": "RomanEmreis/neva",
    "version": "0.5.4 (e6822d7), MCP 2026-07-28",
    "reference": "shared/reference/neva.md; shared/seeds/002_475f65e20b5169a8.txt",
}


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def token(
    plaintext: bytes,
    *,
    secret: bytes = SECRET,
    kid: str = "0",
    version: str = "v1",
    nonce: bytes = NONCE,
    aad: str | None = None,
) -> str:
    header = f"{version}.{kid}"
    key = hashlib.sha256(LABEL + secret).digest()
    sealed = ChaCha20Poly1305(key).encrypt(nonce, plaintext, (aad or header).encode())
    return f"{header}.{b64(nonce)}.{b64(sealed)}"


def sha_b64(text: str) -> str:
    return b64(hashlib.sha256(text.encode()).digest())


def keys(*pairs: tuple[str, bytes]) -> list[dict[str, str]]:
    return [{"kid": k, "secret_hex": s.hex()} for k, s in pairs]


KEYS = keys(("0", SECRET))


case = vector


def write(
    name: str,
    operation: str,
    title: str,
    header: list[str],
    notes: dict[str, Any],
    tests: list[dict[str, Any]],
) -> None:
    doc = {
        "schema": "touchstone-vectors/1",
        "semantic": "mrtr",
        "operation": operation,
        "title": title,
        "header": header,
        "source": SOURCE,
        "notes": notes,
        "tests": tests,
    }
    _FILES[f"mrtr/{name}"] = doc


def note(bug: str, text: str) -> dict[str, str]:
    return {"bugType": bug, "description": text}


def err(code: int, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


INVALID = {"error": {"kind": "invalid_input", "message": "(not compared)"}}


def opened(**fields: Any) -> dict[str, Any]:
    """The harness's answer for an opened payload: every field, the defaults where not
    given (a minimal payload with ``exp`` 5 and ``req`` "r")."""
    payload: dict[str, Any] = {
        "answers": {},
        "requested": [],
        "memos": {},
        "effects": [],
        "exp": 5,
        "req": "r",
        "principal": None,
        "aud": None,
    }
    payload.update(fields)
    return {"payload": payload}


# ----------------------------------------------------------------------------- binding
def binding_vectors() -> None:
    notes = {
        "Kat": note("KNOWN_ANSWER", "A binding produced by neva's own request_binding."),
        "Basic": note("BASIC", "The construction method + ':' + b64url(sha256(canonical))."),
        "Salient": note(
            "QUIRK",
            "Only the three top-level MRTR keys are left out; a port that strips recursively or keeps them drifts.",
        ),
        "Canonical": note(
            "INTEROP",
            "Canonical serde_json text: sorted keys, compact, raw UTF-8, serde's float layout.",
        ),
        "Malformed": note("MALFORMED_INPUT", "A case.input without the operation's shape."),
    }
    t = []
    t.append(
        case(
            "mrtr-bind-kat-name-t",
            "neva KAT: tools/call with {name: t}",
            ["MRTR-BIND-1"],
            ["Kat"],
            {"method": "tools/call", "params": {"name": "t"}},
            {"binding": "tools/call:Nkemdkkii2L-PROcR_ejxnPDHOV9qCQIK2ZU_AsVdR8"},
            "upstream-kat",
        )
    )
    t.append(
        case(
            "mrtr-bind-kat-stripped-keys",
            "neva KAT: adding _meta, requestState and inputResponses does not change the binding",
            ["MRTR-BIND-1", "MRTR-BIND-2"],
            ["Kat", "Salient"],
            {
                "method": "tools/call",
                "params": {
                    "name": "t",
                    "_meta": {"progressToken": 1},
                    "requestState": "v1.0.x.y",
                    "inputResponses": {"k": {"action": "accept"}},
                },
            },
            {"binding": "tools/call:Nkemdkkii2L-PROcR_ejxnPDHOV9qCQIK2ZU_AsVdR8"},
            "upstream-kat",
        )
    )
    t.append(
        case(
            "mrtr-bind-kat-float-nested",
            "neva KAT: nested key order and the float 1.0 written as 1.0",
            ["MRTR-BIND-1", "MRTR-BIND-3"],
            ["Kat", "Canonical"],
            {"method": "tools/call", "params": {"b": [{"y": 2, "x": 1}], "a": 1.0}},
            {"binding": "tools/call:6UiqAAWdS4lrbRMuxfXnc5ah_aFYweibcUhL-ylBh3w"},
            "upstream-kat",
        )
    )
    t.append(
        case(
            "mrtr-bind-greet",
            'reference example: canonical bytes {"arguments":{},"name":"greet"}',
            ["MRTR-BIND-1", "MRTR-BIND-3"],
            ["Basic"],
            {"method": "tools/call", "params": {"name": "greet", "arguments": {}}},
            {"binding": "tools/call:_rl3EpTHJcFsHzSi0yQfrUn0IPc9CjdevzOGLFgMp6Y"},
            "seed",
        )
    )
    t.append(
        case(
            "mrtr-bind-key-order",
            "reordered keys, nested and inside arrays, bind the same (neva test request_binding_is_independent_of_object_key_order)",
            ["MRTR-BIND-3"],
            ["Canonical"],
            {"method": "tools/call", "params": {"args": [{"b": 2, "a": 1}, {"c": 3}], "name": "t"}},
            {"binding": "tools/call:" + sha_b64('{"args":[{"a":1,"b":2},{"c":3}],"name":"t"}')},
            "upstream-test:request_binding_is_independent_of_object_key_order",
        )
    )
    t.append(
        case(
            "mrtr-bind-distinct-name",
            "a different tool name binds differently (request_binding_is_stable_and_distinct)",
            ["MRTR-BIND-1"],
            ["Basic"],
            {"method": "tools/call", "params": {"name": "u"}},
            {"binding": "tools/call:" + sha_b64('{"name":"u"}')},
            "upstream-test:request_binding_is_stable_and_distinct",
        )
    )
    t.append(
        case(
            "mrtr-bind-absent-params",
            "absent params bind as JSON null",
            ["MRTR-BIND-2"],
            ["Salient"],
            {"method": "tools/call", "params": None},
            {"binding": "tools/call:" + sha_b64("null")},
        )
    )
    t.append(
        case(
            "mrtr-bind-only-stripped",
            "params holding only the stripped keys bind as {}",
            ["MRTR-BIND-2"],
            ["Salient"],
            {
                "method": "prompts/get",
                "params": {"_meta": {}, "requestState": "x", "inputResponses": {}},
            },
            {"binding": "prompts/get:" + sha_b64("{}")},
        )
    )
    t.append(
        case(
            "mrtr-bind-nested-meta-kept",
            "a nested _meta is not stripped: only top-level keys go",
            ["MRTR-BIND-2"],
            ["Salient"],
            {
                "method": "tools/call",
                "params": {"arguments": {"_meta": 1, "requestState": 2}, "name": "t"},
            },
            {
                "binding": "tools/call:"
                + sha_b64('{"arguments":{"_meta":1,"requestState":2},"name":"t"}')
            },
        )
    )
    t.append(
        case(
            "mrtr-bind-array-params",
            "non-object params are bound as they are",
            ["MRTR-BIND-2"],
            ["Salient"],
            {"method": "custom/x", "params": [1, "a", None, True]},
            {"binding": "custom/x:" + sha_b64('[1,"a",null,true]')},
        )
    )
    t.append(
        case(
            "mrtr-bind-string-params",
            "a string params value is bound as it is",
            ["MRTR-BIND-2"],
            ["Salient"],
            {"method": "resources/read", "params": "_meta"},
            {"binding": "resources/read:" + sha_b64('"_meta"')},
        )
    )
    t.append(
        case(
            "mrtr-bind-unicode-raw",
            "non-ASCII is hashed as raw UTF-8, '/' unescaped, DEL and U+2028 raw",
            ["MRTR-BIND-3"],
            ["Canonical"],
            {"method": "resources/read", "params": {"uri": "file:///caf\u00e9/\u2028\u007f"}},
            {"binding": "resources/read:" + sha_b64('{"uri":"file:///caf\u00e9/\u2028\u007f"}')},
        )
    )
    t.append(
        case(
            "mrtr-bind-control-escapes",
            "control characters use short escapes or lowercase \\u00xx",
            ["MRTR-BIND-3"],
            ["Canonical"],
            {"method": "tools/call", "params": {"name": 'a\nb\t\u0001"\\'}},
            {"binding": "tools/call:" + sha_b64('{"name":"a\\nb\\t\\u0001\\"\\\\"}')},
        )
    )
    t.append(
        case(
            "mrtr-bind-float-exponent",
            "floats print as serde_json does: 1e-6 as 1e-6, 0.00001 positional, 1e16 as 1e+16",
            ["MRTR-BIND-3"],
            ["Canonical"],
            {"method": "tools/call", "params": {"a": 1e-06, "b": 1e-05, "c": 1e16, "d": -0.0}},
            {"binding": "tools/call:" + sha_b64('{"a":1e-6,"b":0.00001,"c":1e+16,"d":-0.0}')},
        )
    )
    t.append(
        case(
            "mrtr-bind-empty-method",
            "the method is copied as given, even empty",
            ["MRTR-BIND-1"],
            ["Basic"],
            {"method": "", "params": {}},
            {"binding": ":" + sha_b64("{}")},
        )
    )
    t.append(
        case(
            "mrtr-bind-bad-method",
            "a non-string method is invalid input",
            ["MRTR-HARNESS-1"],
            ["Malformed"],
            {"method": 5, "params": {}},
            INVALID,
        )
    )
    write(
        "binding.json",
        "mrtr.request_binding",
        "neva request_binding over salient params",
        ["binding = method + ':' + b64url_nopad(sha256(canonical_json(salient params)))."],
        notes,
        t,
    )


def digest_vectors() -> None:
    notes = {
        "Kat": note("KNOWN_ANSWER", "A digest produced by neva's own input_responses_digest."),
        "Basic": note("BASIC", "b64url(sha256(canonical(responses)))."),
        "Malformed": note("MALFORMED_INPUT", "A case.input without the operation's shape."),
    }
    t = [
        case(
            "mrtr-digest-kat",
            "neva KAT for one accepted elicitation answer",
            ["MRTR-DIGEST-1"],
            ["Kat"],
            {"responses": {"k": {"action": "accept", "content": {"v": 1}}}},
            {"digest": "Ut2vKmLKv2lQQgu2FQ8Bwdt2urPK9RjYactcTnbAmJU"},
            "upstream-kat",
        ),
        case(
            "mrtr-digest-empty",
            "empty answers digest to sha256('{}')",
            ["MRTR-DIGEST-1"],
            ["Kat"],
            {"responses": {}},
            {"digest": "RBNvo1WzZ4oRRq0W9-hknpT7T8If536DEMBg9hyq_4o"},
            "seed",
        ),
        case(
            "mrtr-digest-key-order",
            "key order does not matter (input_responses_digest_is_independent_of_key_order)",
            ["MRTR-DIGEST-1"],
            ["Basic"],
            {
                "responses": {
                    "b": {"action": "accept", "content": None},
                    "a": {"content": {"y": 2, "x": 1}, "action": "accept"},
                }
            },
            {
                "digest": sha_b64(
                    '{"a":{"action":"accept","content":{"x":1,"y":2}},"b":{"action":"accept","content":null}}'
                )
            },
            "upstream-test:input_responses_digest_is_independent_of_key_order",
        ),
        case(
            "mrtr-digest-distinct",
            "a different answer digests differently (input_responses_digest_distinguishes_distinct_answers)",
            ["MRTR-DIGEST-1"],
            ["Basic"],
            {"responses": {"k": {"action": "accept", "content": {"v": 2}}}},
            {"digest": sha_b64('{"k":{"action":"accept","content":{"v":2}}}')},
            "upstream-test:input_responses_digest_distinguishes_distinct_answers",
        ),
        case(
            "mrtr-digest-not-object",
            "responses must be an object",
            ["MRTR-HARNESS-1"],
            ["Malformed"],
            {"responses": [1]},
            INVALID,
        ),
    ]
    write(
        "digest.json",
        "mrtr.input_responses_digest",
        "neva input_responses_digest",
        ["digest = b64url_nopad(sha256(canonical_json(responses)))."],
        notes,
        t,
    )


KAT_PLAIN = b'{"answers":{},"requested":["ask_name"],"memos":{},"effects":[],"exp":1800000000,"req":"tools/call:abc","principal":"alice","aud":null}'
KAT_TOKEN = "v1.0.AAECAwQFBgcICQoL.pb7-HaK5loz83fJb3IpfTpkIW0f73jdQbpZb-qhykmBtDeEcLvZ5hfkzHDNXtwPtIbFfEKCaEof5f0fLxq4-Xa6sgCxVLU45gW6eqqCHncKq8uVT2Xg0W60IhIUzJY14sMK7JswV0OnoZGNLsGn-Op0fKjCQEm6CuOx94KpJYBVAFJKhfp5BrpEmDhnvgLfGRijaTE51"
KAT_PAYLOAD = {
    "answers": {},
    "requested": ["ask_name"],
    "memos": {},
    "effects": [],
    "exp": 1800000000,
    "req": "tools/call:abc",
    "principal": "alice",
    "aud": None,
}
AUD = "https://weather.example.com/mcp"
AUD_PLAIN = (
    '{"answers":{},"requested":["ask_name"],"memos":{},"effects":[],"exp":1800000000,'
    '"req":"tools/call:abc","principal":null,"aud":"' + AUD + '"}'
).encode()
AUD_PAYLOAD = {**KAT_PAYLOAD, "principal": None, "aud": AUD}
FULL_PLAIN = (
    '{"answers":{"who":{"action":"accept","content":{"name":"octocat"}}},"requested":["greeting"],'
    '"memos":{"quote":{"price":42}},"effects":["charge"],"exp":1800000300,'
    '"req":"tools/call:' + "x" + '","principal":null,"aud":null}'
).encode()
FULL_PAYLOAD = {
    "answers": {"who": {"action": "accept", "content": {"name": "octocat"}}},
    "requested": ["greeting"],
    "memos": {"quote": {"price": 42}},
    "effects": ["charge"],
    "exp": 1800000300,
    "req": "tools/call:x",
    "principal": None,
    "aud": None,
}


def seal_input(
    ring: list[dict[str, str]],
    active_kid: str,
    nonce_hex: str = NONCE.hex(),
    payload: Any = None,
) -> dict[str, Any]:
    """A ``mrtr.state.seal`` input: the key ring, its active kid, the nonce, the payload
    (the KAT payload unless given)."""
    return {
        "keys": ring,
        "active_kid": active_kid,
        "nonce_hex": nonce_hex,
        "payload": KAT_PAYLOAD if payload is None else payload,
    }


def seal_vectors() -> None:
    notes = {
        "Kat": note(
            "KNOWN_ANSWER", "A token sealed by neva's codec; ours must match byte for byte."
        ),
        "Interop": note(
            "INTEROP",
            "Fixed secret, nonce and payload -> exact token: field order, compact JSON, key derivation, AAD and base64url must all agree.",
        ),
        "EncodeError": note(
            "FAIL_CLOSED", "neva refuses to mint; exact -32603 message and check order."
        ),
        "Malformed": note("MALFORMED_INPUT", "A case.input without the operation's shape."),
    }
    base = {"keys": KEYS, "active_kid": "0", "nonce_hex": NONCE.hex()}
    t = [
        case(
            "mrtr-seal-kat-v1",
            "neva KAT: secret-key, kid 0, nonce 00..0b -> the exact 222-character token",
            ["MRTR-SEAL-3", "MRTR-KEY-1", "MRTR-TOKEN-1", "MRTR-TOKEN-3", "MRTR-PAYLOAD-1"],
            ["Kat"],
            {**base, "payload": KAT_PAYLOAD},
            {"token": KAT_TOKEN},
            "upstream-kat",
        ),
        case(
            "mrtr-seal-v2-audience",
            "an audience-bound payload is sealed as v2 with AAD v2.0 (begins v2.0.AAECAwQFBgcICQoL.pb7- per the neva KAT)",
            ["MRTR-TOKEN-2", "MRTR-TOKEN-3", "MRTR-SEAL-3"],
            ["Interop"],
            {**base, "payload": AUD_PAYLOAD},
            {"token": token(AUD_PLAIN, version="v2")},
            "upstream-kat",
        ),
        case(
            "mrtr-seal-full-payload",
            "every field populated (one entry per map/set keeps the bytes deterministic)",
            ["MRTR-PAYLOAD-1", "MRTR-SEAL-3"],
            ["Interop"],
            {**base, "payload": FULL_PAYLOAD},
            {"token": token(FULL_PLAIN)},
        ),
        case(
            "mrtr-seal-defaults-written",
            "a payload given without defaulted fields is written with every field, principal and aud as null",
            ["MRTR-PAYLOAD-1", "MRTR-PAYLOAD-2"],
            ["Interop"],
            {**base, "payload": {"answers": {}, "exp": 5, "req": "r"}},
            {
                "token": token(
                    b'{"answers":{},"requested":[],"memos":{},"effects":[],"exp":5,"req":"r","principal":null,"aud":null}'
                )
            },
        ),
        case(
            "mrtr-seal-nested-keys-sorted",
            "answer and memo values are serde_json Values, whose objects are B-tree maps in neva's build (serde_json without preserve_order): their keys are written sorted at every depth, whatever order the payload states them in",
            ["MRTR-PAYLOAD-1", "MRTR-SEAL-3"],
            ["Interop"],
            {
                **base,
                "payload": {
                    "answers": {
                        "who": {
                            "content": {"name": "octocat", "email": "o@e.io"},
                            "action": "accept",
                        }
                    },
                    "memos": {
                        "quote": {"price": 42, "currency": "EUR", "legs": [{"z": 1, "a": 2}]}
                    },
                    "exp": 5,
                    "req": "r",
                },
            },
            {
                "token": token(
                    b'{"answers":{"who":{"action":"accept","content":{"email":"o@e.io","name":"octocat"}}},"requested":[],"memos":{"quote":{"currency":"EUR","legs":[{"a":2,"z":1}],"price":42}},"effects":[],"exp":5,"req":"r","principal":null,"aud":null}'
                )
            },
        ),
        case(
            "mrtr-seal-rotated-kid",
            "after rotation the active kid 2 seals with its own secret (rotated_keyring_still_decodes_old_kid)",
            ["MRTR-KEY-2", "MRTR-SEAL-3"],
            ["Interop"],
            seal_input(keys(("2", b"new-secret"), ("1", b"old-secret")), "2"),
            {"token": token(KAT_PLAIN, secret=b"new-secret", kid="2")},
            "upstream-test:rotated_keyring_still_decodes_old_kid",
        ),
        case(
            "mrtr-seal-binary-secret",
            "the secret is raw bytes of any length (here 3 bytes incl. 0x00 and 0xff)",
            ["MRTR-KEY-1"],
            ["Interop"],
            seal_input(keys(("k", b"\x00\xff\x10")), "k", nonce_hex="ffffffffffffffffffffffff"),
            {"token": token(KAT_PLAIN, secret=b"\x00\xff\x10", kid="k", nonce=b"\xff" * 12)},
        ),
        case(
            "mrtr-seal-active-kid-missing",
            "the active kid has no key (active_kid_missing_from_ring_fails_encode)",
            ["MRTR-SEAL-1"],
            ["EncodeError"],
            seal_input(keys(("other", b"secret")), "active"),
            err(-32603, "active requestState kid has no key in the keyring"),
            "upstream-test:active_kid_missing_from_ring_fails_encode",
        ),
        case(
            "mrtr-seal-kid-with-dot",
            "a kid containing '.' is refused (kid_with_separator_fails_encode)",
            ["MRTR-SEAL-2"],
            ["EncodeError"],
            seal_input(keys(("a.b", b"secret")), "a.b"),
            err(-32603, "requestState kid must be non-empty and must not contain '.'"),
            "upstream-test:kid_with_separator_fails_encode",
        ),
        case(
            "mrtr-seal-empty-kid",
            "an empty kid is refused",
            ["MRTR-SEAL-2"],
            ["EncodeError"],
            seal_input(keys(("", b"secret")), ""),
            err(-32603, "requestState kid must be non-empty and must not contain '.'"),
            "upstream-kat",
        ),
        case(
            "mrtr-seal-lookup-before-format",
            "a missing active kid that also contains '.' reports the lookup first",
            ["MRTR-SEAL-1", "MRTR-SEAL-2"],
            ["EncodeError"],
            seal_input(keys(("0", SECRET)), "x.y"),
            err(-32603, "active requestState kid has no key in the keyring"),
        ),
        case(
            "mrtr-seal-bad-nonce",
            "the nonce must be 24 hex characters",
            ["MRTR-HARNESS-1"],
            ["Malformed"],
            {**base, "nonce_hex": "0001", "payload": KAT_PAYLOAD},
            INVALID,
        ),
        case(
            "mrtr-seal-bad-payload",
            "a payload neva could not hold (exp negative) is invalid input",
            ["MRTR-HARNESS-1"],
            ["Malformed"],
            {**base, "payload": {**KAT_PAYLOAD, "exp": -1}},
            INVALID,
        ),
        case(
            "mrtr-seal-bad-secret-hex",
            "secret_hex must be hex",
            ["MRTR-HARNESS-1"],
            ["Malformed"],
            {**base, "keys": [{"kid": "0", "secret_hex": "zz"}], "payload": KAT_PAYLOAD},
            INVALID,
        ),
    ]
    write(
        "seal.json",
        "mrtr.state.seal",
        "neva StateCodec::encode with an injected nonce",
        [
            "token = {v1|v2}.{kid}.b64url(nonce).b64url(ct||tag); ChaCha20-Poly1305; key = SHA-256('neva:mrtr:requestState:v1' || secret); AAD = '{version}.{kid}'.",
            "Expected tokens other than the neva KAT were computed with the 'cryptography' package over hand-written plaintext bytes, independently of mcp_touchstone.",
        ],
        notes,
        t,
    )


def flip_last(text: str) -> str:
    """Change the last base64url character to another that is still canonical."""
    return text[:-1] + ("A" if text[-1] != "A" else "Q")


MIN_OK: dict[str, Any] = opened()


def open_vectors() -> None:
    notes = {
        "Kat": note("KNOWN_ANSWER", "A token sealed by neva's codec opens here."),
        "Order": note(
            "FAIL_CLOSED",
            "neva's decode checks run in a fixed order with exact codes and messages.",
        ),
        "B64": note(
            "QUIRK",
            "Strict unpadded base64url; Python's urlsafe_b64decode is lenient and would accept these.",
        ),
        "Aead": note(
            "FAIL_CLOSED",
            "Tampering, wrong keys, relabelled versions and transplanted kids fail the AEAD tag.",
        ),
        "Payload": note(
            "QUIRK",
            "serde_json's typed StatePayload decoding: defaults, duplicates, u64, trailing text.",
        ),
        "ParseError": note(
            "FAIL_CLOSED",
            "An authentic plaintext that is not payload JSON is -32700 (only the code is compared).",
        ),
        "Malformed": note("MALFORMED_INPUT", "A case.input without the operation's shape."),
    }
    parts = KAT_TOKEN.split(".")
    n, c = parts[2], parts[3]

    def op(tok: str, ks: list[dict[str, str]] = KEYS) -> dict[str, Any]:
        return {"token": tok, "keys": ks}

    bad = "requestState integrity check failed"
    t = [
        case(
            "mrtr-open-kat",
            "the neva KAT token opens to its payload",
            ["MRTR-OPEN-8", "MRTR-KEY-1", "MRTR-TOKEN-3"],
            ["Kat"],
            op(KAT_TOKEN),
            {"payload": KAT_PAYLOAD},
            "upstream-kat",
        ),
        case(
            "mrtr-open-v2",
            "a v2 (audience-bound) token opens",
            ["MRTR-TOKEN-2"],
            ["Kat"],
            op(token(AUD_PLAIN, version="v2")),
            {"payload": AUD_PAYLOAD},
        ),
        case(
            "mrtr-open-full",
            "answers, memos and effects survive (memos_and_effects_roundtrip)",
            ["MRTR-PAYLOAD-1"],
            ["Kat"],
            op(token(FULL_PLAIN)),
            {"payload": FULL_PAYLOAD},
            "upstream-test:memos_and_effects_roundtrip",
        ),
        case(
            "mrtr-open-wrong-key",
            "a ring with another secret fails the tag (wrong_key_is_rejected)",
            ["MRTR-OPEN-8"],
            ["Aead"],
            op(KAT_TOKEN, keys(("0", b"key-b"))),
            err(-32602, bad),
            "upstream-test:wrong_key_is_rejected",
        ),
        case(
            "mrtr-open-tampered-append",
            "appending x to the token (tampered_blob_is_rejected): neva only asserts an error; the last segment becomes 1 mod 4 long",
            ["MRTR-OPEN-6", "MRTR-OPEN-8"],
            ["Aead"],
            op(KAT_TOKEN + "x"),
            err(-32602, "bad requestState payload"),
            "upstream-test:tampered_blob_is_rejected",
        ),
        case(
            "mrtr-open-tag-bit-flip",
            "a flipped bit in the tag",
            ["MRTR-OPEN-8"],
            ["Aead"],
            op(".".join([*parts[:3], flip_last(c)])),
            err(-32602, bad),
        ),
        case(
            "mrtr-open-empty-ciphertext",
            "an empty ciphertext segment decodes to zero bytes and fails the tag",
            ["MRTR-OPEN-8"],
            ["Aead"],
            op(".".join([*parts[:3], ""])),
            err(-32602, bad),
        ),
        case(
            "mrtr-open-short-ciphertext",
            "a ciphertext shorter than the 16-byte tag fails the tag",
            ["MRTR-OPEN-8"],
            ["Aead"],
            op(".".join([*parts[:3], "AAAA"])),
            err(-32602, bad),
        ),
        case(
            "mrtr-open-relabel-v2-to-v1",
            "a v2 token relabelled v1 fails the AAD (a_bound_state_cannot_be_relabelled_as_unbound)",
            ["MRTR-TOKEN-3", "MRTR-OPEN-8"],
            ["Aead"],
            op("v1" + token(AUD_PLAIN, version="v2")[2:]),
            err(-32602, bad),
            "upstream-test:a_bound_state_cannot_be_relabelled_as_unbound",
        ),
        case(
            "mrtr-open-kid-transplant",
            "kids a and b share one secret; moving a blob from a to b fails the AAD (kid_transplant_fails_the_aad_binding)",
            ["MRTR-TOKEN-3", "MRTR-OPEN-8"],
            ["Aead"],
            op(
                "v1.b" + token(KAT_PLAIN, secret=b"same-secret", kid="a")[4:],
                keys(("a", b"same-secret"), ("b", b"same-secret")),
            ),
            err(-32602, bad),
            "upstream-test:kid_transplant_fails_the_aad_binding",
        ),
        case(
            "mrtr-open-kid-untransplanted",
            "the same blob under its own kid still opens",
            ["MRTR-KEY-2"],
            ["Kat"],
            op(
                token(KAT_PLAIN, secret=b"same-secret", kid="a"),
                keys(("a", b"same-secret"), ("b", b"same-secret")),
            ),
            {"payload": KAT_PAYLOAD},
            "upstream-test:kid_transplant_fails_the_aad_binding",
        ),
        case(
            "mrtr-open-rotated-old-kid",
            "an old-kid blob still opens after rotation (rotated_keyring_still_decodes_old_kid)",
            ["MRTR-KEY-2"],
            ["Kat"],
            op(
                token(KAT_PLAIN, secret=b"old-secret", kid="1"),
                keys(("2", b"new-secret"), ("1", b"old-secret")),
            ),
            {"payload": KAT_PAYLOAD},
            "upstream-test:rotated_keyring_still_decodes_old_kid",
        ),
        case(
            "mrtr-open-retired-kid",
            "dropping the old key retires its blobs",
            ["MRTR-KEY-2", "MRTR-OPEN-4"],
            ["Order"],
            op(token(KAT_PLAIN, secret=b"old-secret", kid="1"), keys(("2", b"new-secret"))),
            err(-32602, "unknown requestState key id"),
            "upstream-test:rotated_keyring_still_decodes_old_kid",
        ),
        case(
            "mrtr-open-version-v9",
            "version v9 (unknown_version_is_rejected)",
            ["MRTR-OPEN-3"],
            ["Order"],
            op("v9" + KAT_TOKEN[2:]),
            err(-32602, "unsupported requestState version"),
            "upstream-test:unknown_version_is_rejected",
        ),
        case(
            "mrtr-open-version-upper",
            "V1 is refused: versions compare exactly",
            ["MRTR-OPEN-3"],
            ["Order"],
            op("V1" + KAT_TOKEN[2:]),
            err(-32602, "unsupported requestState version"),
        ),
        case(
            "mrtr-open-unknown-kid",
            "kid 9 is not in the ring (unknown_kid_is_rejected)",
            ["MRTR-OPEN-4"],
            ["Order"],
            op(token(b"{}", kid="9")),
            err(-32602, "unknown requestState key id"),
            "upstream-test:unknown_kid_is_rejected",
        ),
        case(
            "mrtr-open-empty-kid",
            "an empty kid segment is a kid not found",
            ["MRTR-OPEN-4"],
            ["Order"],
            op("v1.." + n + "." + c),
            err(-32602, "unknown requestState key id"),
        ),
        case(
            "mrtr-open-legacy-two-segments",
            "the pre-versioning nonce.ct format is malformed (legacy_two_segment_blob_is_rejected_as_malformed)",
            ["MRTR-OPEN-2"],
            ["Order"],
            op(n + "." + c),
            err(-32602, "malformed requestState"),
            "upstream-test:legacy_two_segment_blob_is_rejected_as_malformed",
        ),
        case(
            "mrtr-open-three-segments",
            "three segments",
            ["MRTR-OPEN-2"],
            ["Order"],
            op("v1.0." + n),
            err(-32602, "malformed requestState"),
        ),
        case(
            "mrtr-open-five-segments",
            "five segments",
            ["MRTR-OPEN-2"],
            ["Order"],
            op(KAT_TOKEN + ".x"),
            err(-32602, "malformed requestState"),
        ),
        case(
            "mrtr-open-empty-token",
            "the empty token",
            ["MRTR-OPEN-2"],
            ["Order"],
            op(""),
            err(-32602, "malformed requestState"),
        ),
        case(
            "mrtr-open-malformed-before-version",
            "segment count is checked before the version",
            ["MRTR-OPEN-2", "MRTR-OPEN-3"],
            ["Order"],
            op("v9.0.x"),
            err(-32602, "malformed requestState"),
        ),
        case(
            "mrtr-open-version-before-kid",
            "the version is checked before the kid",
            ["MRTR-OPEN-3", "MRTR-OPEN-4"],
            ["Order"],
            op("v3.nokid." + n + "." + c),
            err(-32602, "unsupported requestState version"),
        ),
        case(
            "mrtr-open-kid-before-nonce",
            "the kid is checked before the nonce is decoded",
            ["MRTR-OPEN-4", "MRTR-OPEN-5"],
            ["Order"],
            op("v1.nokid.!!!." + c),
            err(-32602, "unknown requestState key id"),
        ),
        case(
            "mrtr-open-nonce-padding",
            "a nonce segment ending == (padding refused)",
            ["MRTR-B64-1", "MRTR-OPEN-5"],
            ["B64"],
            op("v1.0.AAECAwQFBgcICQo=." + c),
            err(-32602, "bad requestState nonce"),
        ),
        case(
            "mrtr-open-nonce-plus",
            "'+' (standard alphabet) in the nonce",
            ["MRTR-B64-1", "MRTR-OPEN-5"],
            ["B64"],
            op("v1.0.AAECAwQFBgcICQo+." + c),
            err(-32602, "bad requestState nonce"),
        ),
        case(
            "mrtr-open-nonce-short",
            "an 11-byte nonce with a valid ciphertext segment",
            ["MRTR-OPEN-7"],
            ["Order"],
            op("v1.0." + b64(NONCE[:11]) + "." + c),
            err(-32602, "bad requestState nonce"),
        ),
        case(
            "mrtr-open-nonce-long",
            "a 13-byte nonce",
            ["MRTR-OPEN-7"],
            ["Order"],
            op("v1.0." + b64(NONCE + b"\x0c") + "." + c),
            err(-32602, "bad requestState nonce"),
        ),
        case(
            "mrtr-open-short-nonce-bad-payload",
            "11-byte nonce AND invalid ciphertext: the ciphertext is decoded first",
            ["MRTR-OPEN-6", "MRTR-OPEN-7"],
            ["Order"],
            op("v1.0." + b64(NONCE[:11]) + ".a=b"),
            err(-32602, "bad requestState payload"),
        ),
        case(
            "mrtr-open-payload-trailing-bits",
            "ciphertext segment with non-zero trailing bits (lenient decoders accept it)",
            ["MRTR-B64-1", "MRTR-OPEN-6"],
            ["B64"],
            op("v1.0." + n + "." + c + "AB"),
            err(-32602, "bad requestState payload"),
        ),
        case(
            "mrtr-open-payload-len-1-mod-4",
            "ciphertext segment whose length is 1 mod 4",
            ["MRTR-B64-1", "MRTR-OPEN-6"],
            ["B64"],
            op("v1.0." + n + ".AAAAA"),
            err(-32602, "bad requestState payload"),
        ),
        case(
            "mrtr-open-payload-slash",
            "'/' in the ciphertext segment",
            ["MRTR-B64-1", "MRTR-OPEN-6"],
            ["B64"],
            op("v1.0." + n + "." + "/" + c[1:]),
            err(-32602, "bad requestState payload"),
        ),
        case(
            "mrtr-open-nonce-trailing-bits",
            "a nonce segment with non-zero trailing bits fails at the nonce step, before the (also bad) ciphertext segment; a lenient decoder would report the payload",
            ["MRTR-B64-1", "MRTR-OPEN-5", "MRTR-OPEN-6"],
            ["B64"],
            op("v1.0.AAECAwQFBgcICQp.a=b"),
            err(-32602, "bad requestState nonce"),
        ),
        case(
            "mrtr-open-nonce-whitespace",
            "whitespace inside a segment is not skipped",
            ["MRTR-B64-1", "MRTR-OPEN-5"],
            ["B64"],
            op("v1.0.AAECAwQF BgcICQoL." + c),
            err(-32602, "bad requestState nonce"),
        ),
    ]

    # Validly sealed plaintexts: the JSON step.
    def pl(
        id_: str,
        comment: str,
        plain: bytes,
        expected: Any,
        rules: list[str],
        flag: str,
        version: str = "v1",
    ) -> None:
        t.append(case(id_, comment, rules, [flag], op(token(plain, version=version)), expected))

    pe = "ParseError"
    pl(
        "mrtr-open-json-not-json",
        "plaintext 'not json'",
        b"not json",
        err(-32700, "expected ident at line 1 column 2"),
        ["MRTR-OPEN-9"],
        pe,
    )
    pl(
        "mrtr-open-json-empty-object",
        "{} lacks answers",
        b"{}",
        err(-32700, "missing field `answers` at line 1 column 2"),
        ["MRTR-OPEN-9", "MRTR-PAYLOAD-2"],
        pe,
    )
    pl(
        "mrtr-open-json-minimal",
        "only answers, exp and req: the rest defaults (payload_without_memos_or_effects_decodes_with_defaults)",
        b'{"answers":{},"exp":5,"req":"r"}',
        opened(),
        ["MRTR-PAYLOAD-2"],
        "Payload",
    )
    pl(
        "mrtr-open-json-missing-exp",
        "exp is required",
        b'{"answers":{},"req":"r"}',
        err(-32700, "missing field `exp`"),
        ["MRTR-PAYLOAD-2", "MRTR-OPEN-9"],
        pe,
    )
    pl(
        "mrtr-open-json-missing-req",
        "req is required",
        b'{"answers":{},"exp":1}',
        err(-32700, "missing field `req`"),
        ["MRTR-PAYLOAD-2", "MRTR-OPEN-9"],
        pe,
    )
    pl(
        "mrtr-open-json-duplicate-exp",
        "a repeated known field",
        b'{"answers":{},"exp":5,"exp":5,"req":"r"}',
        err(-32700, "duplicate field `exp` at line 1 column 27"),
        ["MRTR-PAYLOAD-4", "MRTR-OPEN-9"],
        pe,
    )
    pl(
        "mrtr-open-json-duplicate-unknown",
        "a repeated unknown field is ignored",
        b'{"answers":{},"x":1,"x":[2],"exp":5,"req":"r"}',
        opened(),
        ["MRTR-PAYLOAD-4"],
        "Payload",
    )
    pl(
        "mrtr-open-json-exp-negative",
        "exp -1 is not a u64",
        b'{"answers":{},"exp":-1,"req":"r"}',
        err(-32700, "invalid value: integer `-1`, expected u64 at line 1 column 22"),
        ["MRTR-PAYLOAD-3", "MRTR-OPEN-9"],
        pe,
    )
    pl(
        "mrtr-open-json-exp-float",
        "exp 5.0 is a float",
        b'{"answers":{},"exp":5.0,"req":"r"}',
        err(-32700, "invalid type: floating point `5.0`, expected u64 at line 1 column 23"),
        ["MRTR-PAYLOAD-3", "MRTR-OPEN-9"],
        pe,
    )
    pl(
        "mrtr-open-json-exp-overflow",
        "exp 2^64 becomes a float",
        b'{"answers":{},"exp":18446744073709551616,"req":"r"}',
        err(
            -32700,
            "invalid type: floating point `1.8446744073709552e+19`, expected u64 at line 1 column 40",
        ),
        ["MRTR-PAYLOAD-3", "MRTR-OPEN-9"],
        pe,
    )
    pl(
        "mrtr-open-json-exp-u64-max",
        "exp u64::MAX is valid",
        b'{"answers":{},"exp":18446744073709551615,"req":"r"}',
        opened(exp=18446744073709551615),
        ["MRTR-PAYLOAD-3"],
        "Payload",
    )
    pl(
        "mrtr-open-json-trailing-chars",
        "trailing ' x' after the object",
        b'{"answers":{},"exp":5,"req":"r"} x',
        err(-32700, "trailing characters at line 1 column 34"),
        ["MRTR-PAYLOAD-6", "MRTR-OPEN-9"],
        pe,
    )
    pl(
        "mrtr-open-json-trailing-ws",
        "trailing whitespace is fine",
        b' {"answers":{},"exp":5,"req":"r"} \n\t',
        opened(),
        ["MRTR-PAYLOAD-6"],
        "Payload",
    )
    pl(
        "mrtr-open-json-v1-with-aud",
        "a v1 token whose payload has aud plus an unknown field: the version is not checked against the payload",
        b'{"answers":{},"exp":5,"req":"r","aud":"svc","future":{"a":[1,2]}}',
        opened(aud="svc"),
        ["MRTR-TOKEN-2", "MRTR-PAYLOAD-4"],
        "Payload",
    )
    pl(
        "mrtr-open-json-v2-without-aud",
        "a v2 token whose payload lacks aud",
        b'{"answers":{},"exp":5,"req":"r"}',
        opened(),
        ["MRTR-TOKEN-2"],
        "Payload",
        version="v2",
    )
    pl(
        "mrtr-open-json-memos-null",
        "a defaulted field accepts absence, not null",
        b'{"answers":{},"exp":5,"req":"r","memos":null}',
        err(-32700, "invalid type: null, expected a map at line 1 column 44"),
        ["MRTR-PAYLOAD-3", "MRTR-OPEN-9"],
        pe,
    )
    pl(
        "mrtr-open-json-requested-null",
        "requested null is refused too",
        b'{"answers":{},"exp":5,"req":"r","requested":null}',
        err(-32700, "invalid type: null, expected a sequence"),
        ["MRTR-PAYLOAD-3", "MRTR-OPEN-9"],
        pe,
    )
    pl(
        "mrtr-open-json-principal-number",
        "principal must be a string or null",
        b'{"answers":{},"exp":5,"req":"r","principal":7}',
        err(-32700, "invalid type: integer `7`, expected a string"),
        ["MRTR-PAYLOAD-3", "MRTR-OPEN-9"],
        pe,
    )
    pl(
        "mrtr-open-json-effects-dedupe",
        "effects is a set: duplicates collapse, reported sorted",
        b'{"answers":{},"exp":5,"req":"r","effects":["b","a","b"]}',
        opened(effects=["a", "b"]),
        ["MRTR-PAYLOAD-5"],
        "Payload",
    )
    pl(
        "mrtr-open-json-invalid-utf8",
        "invalid UTF-8 inside a string",
        b'{"answers":{},"exp":5,"req":"r\xff"}',
        err(-32700, "invalid unicode code point at line 1 column 32"),
        ["MRTR-PAYLOAD-7", "MRTR-OPEN-9"],
        pe,
    )
    pl(
        "mrtr-open-json-answers-array",
        "answers must be a map",
        b'{"answers":[],"exp":5,"req":"r"}',
        err(-32700, "invalid type: sequence, expected a map"),
        ["MRTR-PAYLOAD-3", "MRTR-OPEN-9"],
        pe,
    )
    pl(
        "mrtr-open-json-sequence-form",
        "serde reads a struct from an array in field order; trailing defaulted aud may be left out",
        b'[{"k":1},["q"],{},["e"],9,"r",null]',
        opened(answers={"k": 1}, requested=["q"], effects=["e"], exp=9),
        ["MRTR-PAYLOAD-6"],
        "Payload",
    )
    pl(
        "mrtr-open-json-sequence-short",
        "in the array form principal has no default: 6 elements are too few",
        b'[{},[],{},[],9,"r"]',
        err(-32700, "invalid length 6, expected struct StatePayload with 8 elements"),
        ["MRTR-PAYLOAD-6", "MRTR-OPEN-9"],
        pe,
    )
    pl(
        "mrtr-open-json-answers-duplicate-key",
        "duplicate keys inside answers: the last wins (a map, not a struct)",
        b'{"answers":{"k":1,"k":2},"exp":5,"req":"r"}',
        opened(answers={"k": 2}),
        ["MRTR-PAYLOAD-7"],
        "Payload",
    )
    pl(
        "mrtr-open-json-float-value",
        "answer values keep serde_json's number model (1.0 stays a float)",
        b'{"answers":{"k":{"a":1.0,"b":-0}},"exp":5,"req":"r"}',
        opened(answers={"k": {"a": 1.0, "b": -0.0}}),
        ["MRTR-PAYLOAD-7"],
        "Payload",
    )
    pl(
        "mrtr-open-json-trailing-comma",
        "a trailing comma is a syntax error",
        b'{"answers":{},"exp":5,"req":"r",}',
        err(-32700, "trailing comma"),
        ["MRTR-OPEN-9"],
        pe,
    )
    pl(
        "mrtr-open-json-bom",
        "a UTF-8 BOM is not skipped",
        b'\xef\xbb\xbf{"answers":{},"exp":5,"req":"r"}',
        err(-32700, "expected value at line 1 column 1"),
        ["MRTR-OPEN-9"],
        pe,
    )
    pl(
        "mrtr-open-json-string-top",
        "a string is not a struct",
        b'"x"',
        err(-32700, 'invalid type: string "x", expected struct StatePayload'),
        ["MRTR-OPEN-9"],
        pe,
    )
    pl(
        "mrtr-open-json-duplicate-escaped",
        "a repeated field spelled with an escape is still a repeat",
        b'{"answers":{},"exp":5,"\\u0065xp":6,"req":"r"}',
        err(-32700, "duplicate field `exp`"),
        ["MRTR-PAYLOAD-4", "MRTR-OPEN-9"],
        pe,
    )
    pl(
        "mrtr-open-json-unknown-huge-number",
        "an unknown member's number is not range-checked (serde_json ignore_value)",
        b'{"answers":{},"exp":5,"req":"r","x":1E400}',
        MIN_OK,
        ["MRTR-PAYLOAD-8"],
        "Payload",
    )
    pl(
        "mrtr-open-json-unknown-lone-surrogate",
        "an unknown member's string may hold a lone surrogate escape",
        b'{"answers":{},"exp":5,"req":"r","x":"\\ud800"}',
        MIN_OK,
        ["MRTR-PAYLOAD-8"],
        "Payload",
    )
    pl(
        "mrtr-open-json-unknown-invalid-utf8",
        "an unknown member's string is not UTF-8 validated",
        b'{"answers":{},"exp":5,"req":"r","x":"\xff"}',
        MIN_OK,
        ["MRTR-PAYLOAD-8"],
        "Payload",
    )
    pl(
        "mrtr-open-json-unknown-deep",
        "an unknown member nested 300 deep is skipped (ignore_value keeps an explicit stack)",
        b'{"answers":{},"exp":5,"req":"r","x":' + b"[" * 300 + b"]" * 300 + b"}",
        MIN_OK,
        ["MRTR-PAYLOAD-8"],
        "Payload",
    )
    pl(
        "mrtr-open-json-known-deep",
        "a typed field nested to 128 levels (struct and map included) hits the recursion limit",
        b'{"answers":{"k":' + b"[" * 126 + b"]" * 126 + b'},"exp":5,"req":"r"}',
        err(-32700, "recursion limit exceeded"),
        ["MRTR-PAYLOAD-8", "MRTR-OPEN-9"],
        pe,
    )
    t.append(
        case(
            "mrtr-open-bad-keys",
            "keys must be an array",
            ["MRTR-HARNESS-1"],
            ["Malformed"],
            {"token": KAT_TOKEN, "keys": {}},
            INVALID,
        )
    )
    t.append(
        case(
            "mrtr-open-token-not-string",
            "token must be a string",
            ["MRTR-HARNESS-1"],
            ["Malformed"],
            {"token": 5, "keys": KEYS},
            INVALID,
        )
    )
    write(
        "open.json",
        "mrtr.state.open",
        "neva StateCodec::decode (codec only, no check context)",
        [
            "Decode order: 4 segments, version, kid, nonce b64, ciphertext b64, nonce length, AEAD, payload JSON (-32700).",
            "Tokens other than the neva KAT were sealed with the 'cryptography' package over hand-written plaintext bytes.",
        ],
        notes,
        t,
    )


def verify_vectors() -> None:
    notes = {
        "Check": note(
            "FAIL_CLOSED",
            "A server-side check after decryption, in neva's order, with its exact message.",
        ),
        "Boundary": note(
            "EDGE_CASE", "The exact boundary of a comparison (exp == now, size == cap)."
        ),
        "Order": note("FAIL_CLOSED", "Which failure wins when several apply."),
        "Salient": note(
            "QUIRK", "Only salient params are bound: an answered retry is the same request."
        ),
    }
    req = "tools/call:" + sha_b64('{"name":"t"}')
    plain = (
        '{"answers":{},"requested":["ask"],"memos":{},"effects":[],"exp":1000,"req":"'
        + req
        + '","principal":"alice","aud":null}'
    ).encode()
    payload = opened(requested=["ask"], exp=1000, req=req, principal="alice")["payload"]
    tok = token(plain)
    aud_plain = (
        '{"answers":{},"requested":[],"memos":{},"effects":[],"exp":1000,"req":"'
        + req
        + '","principal":null,"aud":"svc"}'
    ).encode()
    aud_payload = opened(exp=1000, req=req, aud="svc")["payload"]
    aud_tok = token(aud_plain, version="v2")
    unbound_plain = (
        '{"answers":{},"requested":[],"memos":{},"effects":[],"exp":1000,"req":"'
        + req
        + '","principal":null,"aud":null}'
    ).encode()
    unbound_tok = token(unbound_plain)

    def chk(
        now: int = 1000,
        principal: Any = "alice",
        audience: Any = None,
        params: Any = None,
        cap: int = 8192,
        method: str = "tools/call",
    ) -> dict[str, Any]:
        return {
            "method": method,
            "params": {"name": "t"} if params is None else params,
            "principal": principal,
            "audience": audience,
            "now": now,
            "max_state_bytes": cap,
        }

    def op(token_: str, check: dict[str, Any]) -> dict[str, Any]:
        return {"token": token_, "keys": KEYS, "check": check}

    t = [
        case(
            "mrtr-verify-ok",
            "a state minted for this request, principal and (no) audience",
            ["MRTR-OPEN-10", "MRTR-OPEN-11", "MRTR-OPEN-12", "MRTR-OPEN-13"],
            ["Check"],
            op(tok, chk()),
            {"payload": payload},
            "upstream-test:solicited_input_response_is_accepted",
        ),
        case(
            "mrtr-verify-exp-equals-now",
            "exp == now is still valid (strict <)",
            ["MRTR-OPEN-10"],
            ["Boundary"],
            op(tok, chk(now=1000)),
            {"payload": payload},
        ),
        case(
            "mrtr-verify-expired",
            "now = exp + 1 (expired_request_state_is_rejected)",
            ["MRTR-OPEN-10"],
            ["Check"],
            op(tok, chk(now=1001)),
            err(-32602, "requestState expired"),
            "upstream-test:expired_request_state_is_rejected",
        ),
        case(
            "mrtr-verify-other-request",
            "different arguments (replaying_request_state_against_a_different_request_is_rejected)",
            ["MRTR-OPEN-11"],
            ["Check"],
            op(tok, chk(params={"name": "t", "arguments": {"x": 1}})),
            err(-32602, "requestState does not match this request"),
            "upstream-test:replaying_request_state_against_a_different_request_is_rejected",
        ),
        case(
            "mrtr-verify-other-method",
            "the same params under another method",
            ["MRTR-OPEN-11"],
            ["Check"],
            op(tok, chk(method="prompts/get")),
            err(-32602, "requestState does not match this request"),
        ),
        case(
            "mrtr-verify-salient-extras",
            "the same params plus _meta, requestState and inputResponses still match",
            ["MRTR-OPEN-11", "MRTR-BIND-2"],
            ["Salient"],
            op(
                tok,
                chk(
                    params={
                        "name": "t",
                        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"},
                        "requestState": tok,
                        "inputResponses": {"ask": {"action": "accept"}},
                    }
                ),
            ),
            {"payload": payload},
        ),
        case(
            "mrtr-verify-principal-other",
            "a state for alice used by bob (principal_mismatch_is_rejected)",
            ["MRTR-OPEN-12"],
            ["Check"],
            op(tok, chk(principal="bob")),
            err(-32602, "requestState principal mismatch"),
            "upstream-test:principal_mismatch_is_rejected",
        ),
        case(
            "mrtr-verify-principal-dropped",
            "a state with a principal, a request with none",
            ["MRTR-OPEN-12"],
            ["Check"],
            op(tok, chk(principal=None)),
            err(-32602, "requestState principal mismatch"),
        ),
        case(
            "mrtr-verify-principal-added",
            "a state without a principal, a request with one",
            ["MRTR-OPEN-12"],
            ["Check"],
            op(unbound_tok, chk(principal="alice")),
            err(-32602, "requestState principal mismatch"),
        ),
        case(
            "mrtr-verify-audience-match",
            "a state minted for this service (a_state_minted_for_this_service_is_accepted)",
            ["MRTR-OPEN-13"],
            ["Check"],
            op(aud_tok, chk(principal=None, audience="svc")),
            {"payload": aud_payload},
            "upstream-test:a_state_minted_for_this_service_is_accepted",
        ),
        case(
            "mrtr-verify-audience-other",
            "a state minted for another service (a_state_minted_for_another_service_is_rejected)",
            ["MRTR-OPEN-13"],
            ["Check"],
            op(aud_tok, chk(principal=None, audience="other")),
            err(-32602, "requestState audience mismatch"),
            "upstream-test:a_state_minted_for_another_service_is_rejected",
        ),
        case(
            "mrtr-verify-audience-unbound-demanded",
            "an unbound state where an audience is demanded",
            ["MRTR-OPEN-13"],
            ["Check"],
            op(unbound_tok, chk(principal=None, audience="svc")),
            err(-32602, "requestState audience mismatch"),
            "upstream-test:an_unbound_state_is_refused_where_an_audience_is_demanded",
        ),
        case(
            "mrtr-verify-audience-bound-unconfigured",
            "a bound state where no audience is configured",
            ["MRTR-OPEN-13"],
            ["Check"],
            op(aud_tok, chk(principal=None, audience=None)),
            err(-32602, "requestState audience mismatch"),
            "upstream-test:a_bound_state_is_refused_where_no_audience_is_configured",
        ),
        case(
            "mrtr-verify-size-garbage",
            "cap 10: any longer token, even garbage, fails the size check before decoding",
            ["MRTR-OPEN-1"],
            ["Order"],
            op("garbage-garbage", chk(cap=10)),
            err(-32602, "requestState exceeds the configured maximum size"),
        ),
        case(
            "mrtr-verify-size-before-decode",
            "a 4096-character token against a 256 cap (oversized_inbound_request_state_is_rejected_before_decoding)",
            ["MRTR-OPEN-1"],
            ["Order"],
            op("A" * 4096, chk(cap=256)),
            err(-32602, "requestState exceeds the configured maximum size"),
            "upstream-test:oversized_inbound_request_state_is_rejected_before_decoding",
        ),
        case(
            "mrtr-verify-size-equal-cap",
            "a token exactly at the cap passes the size check",
            ["MRTR-OPEN-1"],
            ["Boundary"],
            op(tok, chk(cap=len(tok))),
            {"payload": payload},
        ),
        case(
            "mrtr-verify-size-one-over",
            "one byte over the cap fails",
            ["MRTR-OPEN-1"],
            ["Boundary"],
            op(tok, chk(cap=len(tok) - 1)),
            err(-32602, "requestState exceeds the configured maximum size"),
        ),
        case(
            "mrtr-verify-size-counts-utf8",
            "the cap counts UTF-8 bytes: 5 characters, 10 bytes",
            ["MRTR-OPEN-1"],
            ["Boundary"],
            op("\u00e9\u00e9\u00e9\u00e9\u00e9", chk(cap=9)),
            err(-32602, "requestState exceeds the configured maximum size"),
        ),
        case(
            "mrtr-verify-codec-before-checks",
            "a malformed token under a check context still reports the codec error",
            ["MRTR-OPEN-2"],
            ["Order"],
            op("a.b", chk()),
            err(-32602, "malformed requestState"),
        ),
        case(
            "mrtr-verify-expired-before-binding",
            "expired and mismatched: expiry is reported",
            ["MRTR-OPEN-10", "MRTR-OPEN-11"],
            ["Order"],
            op(tok, chk(now=2000, params={"name": "other"}, principal="bob")),
            err(-32602, "requestState expired"),
        ),
        case(
            "mrtr-verify-binding-before-principal",
            "mismatched request and principal: the binding is reported",
            ["MRTR-OPEN-11", "MRTR-OPEN-12"],
            ["Order"],
            op(tok, chk(params={"name": "other"}, principal="bob")),
            err(-32602, "requestState does not match this request"),
        ),
        case(
            "mrtr-verify-principal-before-audience",
            "mismatched principal and audience: the principal is reported",
            ["MRTR-OPEN-12", "MRTR-OPEN-13"],
            ["Order"],
            op(tok, chk(principal="bob", audience="svc")),
            err(-32602, "requestState principal mismatch"),
        ),
        case(
            "mrtr-verify-parse-error-before-checks",
            "a -32700 payload is reported before any server-side check",
            ["MRTR-OPEN-9"],
            ["Order"],
            op(token(b"{}"), chk(now=10**12)),
            err(-32700, "missing field `answers` at line 1 column 2"),
        ),
        case(
            "mrtr-verify-absent-params",
            "a state bound to absent params (null) matches a request without params",
            ["MRTR-OPEN-11", "MRTR-BIND-2"],
            ["Check"],
            op(
                token(
                    (
                        '{"answers":{},"exp":5,"req":"tools/call:'
                        + sha_b64("null")
                        + '","principal":null}'
                    ).encode()
                ),
                {
                    "method": "tools/call",
                    "params": None,
                    "principal": None,
                    "audience": None,
                    "now": 5,
                    "max_state_bytes": 8192,
                },
            ),
            opened(req="tools/call:" + sha_b64("null")),
        ),
    ]
    write(
        "verify.json",
        "mrtr.state.open",
        "neva seed_mrtr_ctx: size cap, codec, then exp, req, principal, aud",
        [
            "Every failure is -32602 except a payload that is not payload JSON (-32700).",
            "Tokens were sealed with the 'cryptography' package over hand-written plaintext bytes.",
        ],
        notes,
        t,
    )


def capabilities_vectors() -> None:
    notes = {
        "Spec": note(
            "BASIC", "The spec shape: a capability is declared by the presence of its object."
        ),
        "Legacy": note("QUIRK", "Older neva clients wrote booleans."),
        "Modes": note("QUIRK", "Naming no elicitation mode means unconstrained."),
        "Error": note(
            "MALFORMED_INPUT", "A value neva's typed parse refuses (message not compared)."
        ),
        "Serde": note(
            "QUIRK",
            "serde reads a struct from an array too; inferred from serde, untested upstream.",
        ),
    }

    def caps(e: Any = None, s: bool = False, r: bool = False) -> dict[str, Any]:
        return {"capabilities": {"elicitation": e, "sampling": s, "roots": r}}

    both = {"form": True, "url": True}
    none = {"form": False, "url": False}
    E = {"error": {"message": "(not compared)"}}
    rows = [
        (
            "spec-object-shape",
            "both modes, sampling with sub-capabilities, roots (client_capabilities_read_the_spec_object_shape)",
            {
                "elicitation": {"form": {}, "url": {}},
                "sampling": {"context": {}, "tools": {}},
                "roots": {},
            },
            caps(both, True, True),
            ["MRTR-CAP-1", "MRTR-CAP-2"],
            "Spec",
            "upstream-test:client_capabilities_read_the_spec_object_shape",
        ),
        (
            "legacy-boolean",
            "elicitation true, sampling false (client_capabilities_read_the_legacy_boolean_shape)",
            {"elicitation": True, "sampling": False},
            caps(none),
            ["MRTR-CAP-1", "MRTR-CAP-2"],
            "Legacy",
            "upstream-test:client_capabilities_read_the_legacy_boolean_shape",
        ),
        (
            "empty",
            "{} declares nothing (absent_and_null_client_capabilities_declare_nothing)",
            {},
            caps(),
            ["MRTR-CAP-1"],
            "Spec",
            "upstream-test:absent_and_null_client_capabilities_declare_nothing",
        ),
        (
            "nulls",
            "nulls declare nothing",
            {"elicitation": None, "roots": None},
            caps(),
            ["MRTR-CAP-1", "MRTR-CAP-2"],
            "Spec",
            "upstream-test:absent_and_null_client_capabilities_declare_nothing",
        ),
        (
            "older-peer",
            "only elicitation: true; the other flags default (capabilities_decode_from_an_older_peer)",
            {"elicitation": True},
            caps(none),
            ["MRTR-CAP-2"],
            "Legacy",
            "upstream-test:capabilities_decode_from_an_older_peer",
        ),
        (
            "doctest-form-roots",
            "the ClientMrtrCapabilities doctest: form named, roots declared",
            {"elicitation": {"form": {}}, "roots": {}},
            caps({"form": True, "url": False}, False, True),
            ["MRTR-CAP-2"],
            "Spec",
            "upstream-test:ClientMrtrCapabilities doctest",
        ),
        (
            "elicitation-empty",
            "elicitation {} is declared with no modes",
            {"elicitation": {}},
            caps(none),
            ["MRTR-CAP-2", "MRTR-CAP-4"],
            "Modes",
            "seed",
        ),
        (
            "form-false",
            "{form: false} names nothing",
            {"elicitation": {"form": False}},
            caps(none),
            ["MRTR-CAP-4"],
            "Modes",
            "seed",
        ),
        (
            "form-true-legacy",
            "form: true names form",
            {"elicitation": {"form": True, "url": None}},
            caps({"form": True, "url": False}),
            ["MRTR-CAP-2"],
            "Legacy",
            "seed",
        ),
        (
            "elicitation-false",
            "elicitation false declares nothing",
            {"elicitation": False, "sampling": True},
            caps(None, True),
            ["MRTR-CAP-2"],
            "Legacy",
            "seed",
        ),
        (
            "unknown-keys",
            "unknown capability keys are ignored",
            {"experimental": 5, "tasks": "x", "roots": {}},
            caps(None, False, True),
            ["MRTR-CAP-3"],
            "Spec",
            "seed",
        ),
        (
            "unknown-mode-keys",
            "unknown keys inside elicitation are ignored",
            {"elicitation": {"voice": 1}},
            caps(none),
            ["MRTR-CAP-2"],
            "Spec",
            "seed",
        ),
        (
            "sampling-string",
            "a string capability is an error",
            {"sampling": "yes"},
            E,
            ["MRTR-CAP-1"],
            "Error",
            "seed",
        ),
        (
            "roots-number",
            "a number capability is an error",
            {"roots": 1},
            E,
            ["MRTR-CAP-1"],
            "Error",
            "seed",
        ),
        (
            "elicitation-string",
            "a string elicitation is an error",
            {"elicitation": "form"},
            E,
            ["MRTR-CAP-2"],
            "Error",
            "seed",
        ),
        (
            "form-number",
            "{form: 5} is an error",
            {"elicitation": {"form": 5}},
            E,
            ["MRTR-CAP-2"],
            "Error",
            "seed",
        ),
        (
            "roots-empty-array",
            "roots [] reads as the fieldless struct: declared",
            {"roots": []},
            caps(None, False, True),
            ["MRTR-CAP-1"],
            "Serde",
            "handwritten",
        ),
        (
            "roots-array",
            "roots [1] is an error",
            {"roots": [1]},
            E,
            ["MRTR-CAP-1"],
            "Serde",
            "handwritten",
        ),
        (
            "elicitation-empty-array",
            "elicitation [] is declared with no modes",
            {"elicitation": []},
            caps(none),
            ["MRTR-CAP-2"],
            "Serde",
            "handwritten",
        ),
        (
            "value-null",
            "a null value (the Option in _meta) declares nothing",
            None,
            caps(),
            ["MRTR-CAP-3"],
            "Spec",
            "handwritten",
        ),
        (
            "value-string",
            "a string value is an error",
            "all",
            E,
            ["MRTR-CAP-3"],
            "Error",
            "handwritten",
        ),
        (
            "value-array",
            "the struct's array form: [elicitation, sampling, roots]",
            [True, {}, None],
            caps(none, True, False),
            ["MRTR-CAP-3"],
            "Serde",
            "handwritten",
        ),
        (
            "value-array-long",
            "four elements are too many",
            [None, None, None, None],
            E,
            ["MRTR-CAP-3"],
            "Serde",
            "handwritten",
        ),
    ]
    t = [case("mrtr-caps-" + i, c, r, [f], {"value": v}, e, o) for i, c, v, e, r, f, o in rows]
    t.append(
        case(
            "mrtr-caps-missing-value",
            "the input must carry value",
            ["MRTR-HARNESS-1"],
            ["Error"],
            {},
            INVALID,
        )
    )
    write(
        "capabilities.json",
        "mrtr.capabilities",
        "neva ClientMrtrCapabilities from _meta clientCapabilities",
        [
            "Object or true declares; false, null or absent does not; any other JSON type is an error."
        ],
        notes,
        t,
    )


def allows_vectors() -> None:
    notes = {
        "Gate": note("BASIC", "Each kind is gated on its own flag."),
        "Modes": note(
            "QUIRK", "A named elicitation mode is an allow-list; none named is unconstrained."
        ),
        "Required": note("BASIC", "What the client is told to declare names the mode."),
        "Envelope": note(
            "QUIRK",
            "neva's InputRequest decoding: params absent/null read as {}, judged by the kind.",
        ),
        "Error": note(
            "MALFORMED_INPUT",
            "An envelope or capability value neva refuses (message not compared).",
        ),
        "Schema": note(
            "QUIRK",
            "neva reads a requestedSchema property by dispatching on its type and members, not as an untagged union.",
        ),
    }
    form: dict[str, Any] = {
        "method": "elicitation/create",
        "params": {"message": "m", "requestedSchema": {"type": "object", "properties": {}}},
    }
    url: dict[str, Any] = {
        "method": "elicitation/create",
        "params": {"message": "m", "mode": "url", "url": "https://e.io"},
    }
    sampling = {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 10}}
    roots = {"method": "roots/list", "params": {}}
    F: dict[str, Any] = {"elicitation": {"form": {}}}
    U: dict[str, Any] = {"elicitation": {"url": {}}}
    S: dict[str, Any] = {"sampling": {}}
    R: dict[str, Any] = {"roots": {}}
    E = {"error": {"message": "(not compared)"}}
    rows = [
        (
            "elicit-only-form",
            "elicitation alone allows a form elicitation (capabilities_gate_each_kind_independently)",
            {"elicitation": {}},
            form,
            {"allowed": True, "required": F},
            ["MRTR-CAP-5", "MRTR-CAP-6"],
            "Gate",
            "upstream-test:capabilities_gate_each_kind_independently",
        ),
        (
            "elicit-only-sampling",
            "elicitation alone does not allow sampling",
            {"elicitation": {}},
            sampling,
            {"allowed": False, "required": S},
            ["MRTR-CAP-5"],
            "Gate",
            "upstream-test:capabilities_gate_each_kind_independently",
        ),
        (
            "all-sampling",
            "all flags allow sampling",
            {"elicitation": {}, "sampling": {}, "roots": {}},
            sampling,
            {"allowed": True, "required": S},
            ["MRTR-CAP-5"],
            "Gate",
            "upstream-test:capabilities_gate_each_kind_independently",
        ),
        (
            "roots-legacy-true",
            "roots: true allows roots/list (tool_lists_roots_then_completes_over_two_rounds)",
            {"roots": True},
            roots,
            {"allowed": True, "required": R},
            ["MRTR-CAP-5"],
            "Gate",
            "upstream-test:tool_lists_roots_then_completes_over_two_rounds",
        ),
        (
            "roots-undeclared",
            "no roots capability",
            {"sampling": {}},
            roots,
            {"allowed": False, "required": R},
            ["MRTR-CAP-5"],
            "Gate",
            "seed",
        ),
        (
            "sampling-elicit-true",
            "elicitation: true does not allow sampling (sampling_without_declared_capability_is_rejected)",
            {"elicitation": True},
            sampling,
            {"allowed": False, "required": S},
            ["MRTR-CAP-5"],
            "Gate",
            "upstream-test:sampling_without_declared_capability_is_rejected",
        ),
        (
            "form-only-url",
            "naming only form refuses url; required names url alone (a_named_elicitation_mode_is_the_only_one_allowed)",
            {"elicitation": {"form": {}}},
            url,
            {"allowed": False, "required": U},
            ["MRTR-CAP-4", "MRTR-CAP-6"],
            "Modes",
            "upstream-test:a_named_elicitation_mode_is_the_only_one_allowed",
        ),
        (
            "form-only-form",
            "naming only form allows form",
            {"elicitation": {"form": {}}},
            form,
            {"allowed": True, "required": F},
            ["MRTR-CAP-4"],
            "Modes",
            "upstream-test:a_named_elicitation_mode_is_the_only_one_allowed",
        ),
        (
            "unstated-url",
            "unstated modes allow url",
            {"elicitation": {}},
            url,
            {"allowed": True, "required": U},
            ["MRTR-CAP-4"],
            "Modes",
            "upstream-test:a_named_elicitation_mode_is_the_only_one_allowed",
        ),
        (
            "form-false-url",
            "{form: false} names nothing, so url is allowed",
            {"elicitation": {"form": False}},
            url,
            {"allowed": True, "required": U},
            ["MRTR-CAP-4"],
            "Modes",
            "seed",
        ),
        (
            "url-only-form",
            "naming only url refuses form",
            {"elicitation": {"url": True}},
            form,
            {"allowed": False, "required": F},
            ["MRTR-CAP-4"],
            "Modes",
            "seed",
        ),
        (
            "no-caps-form",
            "empty capabilities refuse a form elicitation (eliciting_without_declared_capability_is_rejected)",
            {},
            form,
            {"allowed": False, "required": F},
            ["MRTR-CAP-5", "MRTR-CAP-6"],
            "Required",
            "upstream-test:eliciting_without_declared_capability_is_rejected",
        ),
        (
            "form-explicit-mode",
            "mode: form is the form variant",
            {"elicitation": {"form": {}}},
            {"method": "elicitation/create", "params": {**form["params"], "mode": "form"}},
            {"allowed": True, "required": F},
            ["MRTR-REQ-3"],
            "Envelope",
            "seed",
        ),
        (
            "roots-no-params",
            "a bare roots/list envelope decodes (a_roots_envelope_decodes_with_or_without_params)",
            {"roots": {}},
            {"method": "roots/list"},
            {"allowed": True, "required": R},
            ["MRTR-REQ-1"],
            "Envelope",
            "upstream-test:a_roots_envelope_decodes_with_or_without_params",
        ),
        (
            "roots-null-params",
            "roots/list with params null decodes",
            {"roots": {}},
            {"method": "roots/list", "params": None},
            {"allowed": True, "required": R},
            ["MRTR-REQ-1"],
            "Envelope",
            "upstream-test:a_roots_envelope_decodes_with_or_without_params",
        ),
        (
            "elicit-no-params",
            "elicitation/create without params fails (a_paramless_envelope_still_fails_for_kinds_that_need_params)",
            {"elicitation": {}},
            {"method": "elicitation/create"},
            E,
            ["MRTR-REQ-1", "MRTR-REQ-4"],
            "Error",
            "upstream-test:a_paramless_envelope_still_fails_for_kinds_that_need_params",
        ),
        (
            "sampling-no-params",
            "sampling/createMessage without params fails",
            {"sampling": {}},
            {"method": "sampling/createMessage"},
            E,
            ["MRTR-REQ-1", "MRTR-REQ-6"],
            "Error",
            "upstream-test:a_paramless_envelope_still_fails_for_kinds_that_need_params",
        ),
        (
            "unknown-method",
            "an unknown kind is rejected (an_unknown_input_kind_is_rejected_by_name)",
            {},
            {"method": "sorcery/summon", "params": {}},
            E,
            ["MRTR-REQ-2"],
            "Error",
            "upstream-test:an_unknown_input_kind_is_rejected_by_name",
        ),
        (
            "mode-number",
            "a non-string mode is an error",
            {"elicitation": {}},
            {"method": "elicitation/create", "params": {**form["params"], "mode": 0}},
            E,
            ["MRTR-REQ-3"],
            "Error",
            "seed",
        ),
        (
            "mode-null",
            "an explicit null mode is an error too",
            {"elicitation": {}},
            {"method": "elicitation/create", "params": {**form["params"], "mode": None}},
            E,
            ["MRTR-REQ-3"],
            "Error",
            "seed",
        ),
        (
            "mode-bogus",
            "any other mode string fails the form variant",
            {"elicitation": {}},
            {"method": "elicitation/create", "params": {**form["params"], "mode": "bogus"}},
            E,
            ["MRTR-REQ-3"],
            "Error",
            "seed",
        ),
        (
            "url-missing-url",
            "a url elicitation needs url",
            {"elicitation": {}},
            {"method": "elicitation/create", "params": {"message": "m", "mode": "url"}},
            E,
            ["MRTR-REQ-5"],
            "Error",
            "seed",
        ),
        (
            "form-missing-schema",
            "a form elicitation needs requestedSchema",
            {"elicitation": {}},
            {"method": "elicitation/create", "params": {"message": "m"}},
            E,
            ["MRTR-REQ-4"],
            "Error",
            "seed",
        ),
        (
            "sampling-maxtokens-string",
            "maxTokens must be an i32",
            {"sampling": {}},
            {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": "10"}},
            E,
            ["MRTR-REQ-6"],
            "Error",
            "seed",
        ),
        (
            "envelope-extra-fields",
            "extra envelope fields are ignored",
            {"roots": {}},
            {"method": "roots/list", "id": 7, "jsonrpc": "2.0"},
            {"allowed": True, "required": R},
            ["MRTR-REQ-1"],
            "Envelope",
            "seed",
        ),
        (
            "bad-capabilities",
            "a capabilities value neva refuses",
            {"roots": 2},
            roots,
            E,
            ["MRTR-CAP-1", "MRTR-HARNESS-3"],
            "Error",
            "handwritten",
        ),
    ]
    # neva's Schema::deserialize (types/schema.rs) requires an object, dispatches on its
    # string `type` and then on which members are present, and reads the chosen struct
    # alone; each struct keeps unknown members in a flattened `extra` map.
    schema_rows = [
        (
            "untyped-empty",
            "a property schema without type is refused (Unknown or missing type field)",
            {},
            False,
        ),
        ("type-object", "type object is no property schema neva reads", {"type": "object"}, False),
        ("type-not-string", "a non-string type is a missing type", {"type": 5}, False),
        ("not-object", "a property schema must be an object", ["string"], False),
        ("string", "a string schema", {"type": "string", "minLength": 1, "format": "email"}, True),
        (
            "string-title-number",
            "title is an optional string",
            {"type": "string", "title": 5},
            False,
        ),
        ("string-min-negative", "minLength is a usize", {"type": "string", "minLength": -1}, False),
        (
            "string-enum-not-list",
            "type string with enum reads the enum struct, whose enum is a list of strings",
            {"type": "string", "enum": "a"},
            False,
        ),
        (
            "enum-default-number",
            "an untitled single-select enum's default is a string",
            {"type": "string", "enum": ["a"], "default": 1},
            False,
        ),
        (
            "legacy-enum-default-extra",
            "a legacy enum (enumNames present) has no default field: any default is an extra member",
            {"type": "string", "enum": ["a"], "enumNames": ["A"], "default": 1},
            True,
        ),
        (
            "titled-single",
            "a titled single-select enum: oneOf options with const and title",
            {"type": "string", "oneOf": [{"const": "a", "title": "A"}], "default": "a"},
            True,
        ),
        (
            "titled-single-no-title",
            "each oneOf option needs a string title",
            {"type": "string", "oneOf": [{"const": "a"}]},
            False,
        ),
        (
            "multi-untitled",
            "an untitled multi-select: items with enum",
            {
                "type": "array",
                "items": {"type": "string", "enum": ["a", "b"]},
                "minItems": 1,
                "maxItems": 2,
                "default": ["a"],
            },
            True,
        ),
        (
            "multi-titled",
            "a titled multi-select: items with anyOf",
            {"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}},
            True,
        ),
        ("array-no-items", "an array schema needs an items object", {"type": "array"}, False),
        (
            "array-plain-items",
            "items with neither anyOf nor enum are refused (Unknown array schema type)",
            {"type": "array", "items": {"type": "string"}},
            False,
        ),
        (
            "number-extra-members",
            "a number schema keeps members it does not know (minLength is not its field)",
            {"type": "number", "minLength": "x"},
            True,
        ),
        ("integer", "integer reads as a number schema", {"type": "integer", "minimum": 0}, True),
        (
            "number-minimum-string",
            "minimum is an f64",
            {"type": "number", "minimum": "0"},
            False,
        ),
        (
            "boolean-default",
            "a boolean default is a bool",
            {"type": "boolean", "default": 1},
            False,
        ),
    ]
    for sid, comment, prop, ok in schema_rows:
        params = {"message": "m", "requestedSchema": {"type": "object", "properties": {"p": prop}}}
        rows.append(
            (
                "schema-" + sid,
                comment,
                {"elicitation": {}},
                {"method": "elicitation/create", "params": params},
                {"allowed": True, "required": F} if ok else E,
                ["MRTR-REQ-4"],
                "Schema",
                "handwritten",
            )
        )
    # Every params type is a derived serde struct (neva's types/{elicitation,sampling,root}.rs)
    # and so also reads serde's sequence form: the fields in declared order, a field marked
    # #[serde(default)] may be left off the end, any other field (an Option too) is needed.
    # ElicitRequestParams looks for `mode` with Value::get, which finds nothing in an
    # array, so array params are always the form variant.
    schema_seq: list[Any] = ["object", {}, None]
    msgs = [["user", {"type": "text", "text": "hi"}]]
    nulls8 = [None] * 8
    all_caps: dict[str, Any] = {"elicitation": {}, "sampling": {}, "roots": {}}
    params_rows: list[tuple[str, str, Any, str, Any, Any]] = [
        (
            "params-seq-form",
            "form params as an array [message, mode, requestedSchema, _meta]",
            {"elicitation": {}},
            "elicitation/create",
            ["m", None, {"type": "object", "properties": {}}, None],
            F,
        ),
        (
            "params-seq-url-mode-is-form",
            "array params are always the form variant, even with mode url in the mode slot (Value::get finds no mode in an array)",
            {"elicitation": {"url": {}}},
            "elicitation/create",
            ["m", "url", {"properties": {}}, None],
            F,
        ),
        (
            "params-seq-schema-seq",
            "requestedSchema in its sequence form [type, properties, required]",
            {"elicitation": {}},
            "elicitation/create",
            ["m", "form", schema_seq, None],
            F,
        ),
        (
            "params-seq-mode-default-not-at-end",
            "mode has a default, but the fields after it do not: [message] alone is too short",
            {"elicitation": {}},
            "elicitation/create",
            ["m"],
            None,
        ),
        (
            "params-seq-meta-needed",
            "_meta is an Option without #[serde(default)]: the sequence form needs its slot",
            {"elicitation": {}},
            "elicitation/create",
            ["m", None, {"properties": {}}],
            None,
        ),
        (
            "params-seq-too-long",
            "more elements than the struct has fields",
            {"elicitation": {}},
            "elicitation/create",
            ["m", None, {"properties": {}}, None, None],
            None,
        ),
        (
            "params-seq-sampling",
            "sampling params as an array of all ten fields, the message in its sequence form too",
            all_caps,
            "sampling/createMessage",
            [msgs, 10, *nulls8],
            S,
        ),
        (
            "params-seq-sampling-short",
            "sampling params as an array without the eight optional slots",
            all_caps,
            "sampling/createMessage",
            [[], 10],
            None,
        ),
        ("params-seq-roots", "roots params as [_meta]", all_caps, "roots/list", [None], R),
        (
            "params-seq-roots-empty",
            "an empty array leaves out the _meta slot",
            all_caps,
            "roots/list",
            [],
            None,
        ),
        (
            "sampling-tool-choice",
            "toolChoice is {mode: auto|required|none}",
            all_caps,
            "sampling/createMessage",
            {"messages": [], "maxTokens": 1, "toolChoice": {"mode": "auto"}},
            S,
        ),
        (
            "sampling-tool-choice-bad-mode",
            "an unknown toolChoice mode",
            all_caps,
            "sampling/createMessage",
            {"messages": [], "maxTokens": 1, "toolChoice": {"mode": "sometimes"}},
            None,
        ),
        (
            "sampling-tool-choice-no-mode",
            "toolChoice needs its mode",
            all_caps,
            "sampling/createMessage",
            {"messages": [], "maxTokens": 1, "toolChoice": {}},
            None,
        ),
        (
            "sampling-priority-string",
            "modelPreferences priorities are f32",
            all_caps,
            "sampling/createMessage",
            {"messages": [], "maxTokens": 1, "modelPreferences": {"costPriority": "high"}},
            None,
        ),
        (
            "sampling-hint-name-number",
            "a model hint's name is an optional string",
            all_caps,
            "sampling/createMessage",
            {"messages": [], "maxTokens": 1, "modelPreferences": {"hints": [{"name": 5}]}},
            None,
        ),
        (
            "sampling-preferences",
            "well-typed model preferences",
            all_caps,
            "sampling/createMessage",
            {
                "messages": [],
                "maxTokens": 1,
                "modelPreferences": {"hints": [{"name": "claude"}, {}], "speedPriority": 0.5},
            },
            S,
        ),
        (
            "sampling-content-null",
            "a message's content is OneOrMany<Content>: one item or a list, never null",
            all_caps,
            "sampling/createMessage",
            {"messages": [{"role": "user", "content": None}], "maxTokens": 1},
            None,
        ),
        (
            "sampling-tools-not-list",
            "tools is an optional list",
            all_caps,
            "sampling/createMessage",
            {"messages": [], "maxTokens": 1, "tools": {}},
            None,
        ),
        (
            "sampling-role-map-form",
            'a message role in serde\'s map form {"user": null} is Role::User (neva reads params '
            "with serde_json::from_value; Value::deserialize_enum takes a one-key map whose value "
            "reads as ())",
            all_caps,
            "sampling/createMessage",
            {"messages": [{"role": {"user": None}, "content": msgs[0][1]}], "maxTokens": 1},
            S,
        ),
    ]
    # The client named only url; the array is read as a form, which it has ruled out.
    refused = {"params-seq-url-mode-is-form"}
    for pid, comment, cp, method, params, required in params_rows:
        rows.append(
            (
                pid,
                comment,
                cp,
                {"method": method, "params": params},
                E if required is None else {"allowed": pid not in refused, "required": required},
                ["MRTR-REQ-7"] if pid.startswith("params-seq") else ["MRTR-REQ-6"],
                "Envelope" if required is not None else "Error",
                "handwritten",
            )
        )
    t = [
        case("mrtr-allows-" + i, c, r, [f], {"capabilities": cp, "request": rq}, e, o)
        for i, c, cp, rq, e, r, f, o in rows
    ]
    write(
        "allows.json",
        "mrtr.allows",
        "neva ClientMrtrCapabilities::allows and ::requiring",
        [
            "required is the capability set the request needs, an elicitation named down to its mode."
        ],
        notes,
        t,
    )


_FILES: dict[str, dict[str, Any]] = {}
"""The files being generated, filled by :func:`write` during :func:`files`."""


def files() -> dict[str, dict[str, Any]]:
    """Every ``mrtr/*.json`` vector file this generator writes, by path under the vector tree."""
    _FILES.clear()
    binding_vectors()
    digest_vectors()
    seal_vectors()
    open_vectors()
    verify_vectors()
    capabilities_vectors()
    allows_vectors()
    out = dict(_FILES)
    _FILES.clear()
    return out
