# The helpers every hand-stated case is written with. Long lines (E501) and the positional case
# helper (PLR0917) keep the table that uses them readable.
# ruff: noqa: E501, PLR0917
"""The byte mechanics and case helpers of the ``mrtr.round`` vectors (``mrtr_round.py`` writes the
files, ``_mrtr_round_cases.py`` states the cases; pinned: ``shared/protocol/mrtr-round.md``).

Independence: this module never imports ``mcp_touchstone``. Every expected output is stated by
hand from the seed, ``shared/reference/neva.md``, ``mrtr-round.md`` and neva's tests; the only
computed parts are byte mechanics: tokens sealed with ``cryptography`` over hand-written
plaintext (key = SHA-256(label || secret)), the request binding and the answers digest as
SHA-256 over canonical JSON text, base64url without padding.
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

from conformance.vectorgen._common import vector
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

LABEL = b"neva:mrtr:requestState:v1"
SECRET = b"secret-key"
KEYS = [{"kid": "0", "secret_hex": SECRET.hex()}]
MINT_NONCE = bytes(range(12))
IN_NONCE = bytes(range(100, 112))
NOW = 1_000_000
SI_KEY = "io.modelcontextprotocol/serverInfo"
NEVA = {"name": "neva", "version": "0.5.4"}
SOURCE = {
    "name": "RomanEmreis/neva",
    "version": "0.5.4 (e6822d7), MCP 2026-07-28",
    "reference": "shared/protocol/mrtr-round.md; shared/reference/neva.md; shared/seeds/002_475f65e20b5169a8.txt",
}
FORM = {"message": "Your name?", "requestedSchema": {"type": "object", "properties": {}}}
URL = {"message": "Sign in", "mode": "url", "url": "https://example.com/login"}
SAMPLING = {"messages": [], "maxTokens": 16}
ACCEPT = {"action": "accept", "content": {"name": "octocat"}}
MONA = {"action": "accept", "content": {"name": "monalisa"}}
SAMPLED = {
    "role": "assistant",
    "content": {"type": "text", "text": "it is a Rust MCP SDK"},
    "model": "m",
}
ROOTS = {"roots": [{"uri": "file:///work", "name": "work"}]}
TOOL_PARAMS = {"name": "greet", "arguments": {}}
RESULT = {"content": [{"type": "text", "text": "hello octocat"}], "isError": False}


# ---------------------------------------------------------------------------- byte mechanics
def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha(text: str) -> str:
    return b64(hashlib.sha256(text.encode()).digest())


def binding(method: str, params: Any) -> str:
    if isinstance(params, dict):
        params = {
            k: v for k, v in params.items() if k not in ("_meta", "inputResponses", "requestState")
        }
    return f"{method}:{sha(canon(params))}"


def digest(answers: dict[str, Any]) -> str:
    return sha(canon(answers))


def payload(
    *,
    answers: dict[str, Any] | None = None,
    requested: list[str] | None = None,
    memos: dict[str, Any] | None = None,
    effects: list[str] | None = None,
    exp: int,
    req: str,
    principal: str | None = None,
    aud: str | None = None,
) -> dict[str, Any]:
    """A payload as the output's ``state`` shows it (effects sorted)."""
    return {
        "answers": answers or {},
        "requested": requested or [],
        "memos": memos or {},
        "effects": sorted(effects or []),
        "exp": exp,
        "req": req,
        "principal": principal,
        "aud": aud,
    }


def plaintext(p: dict[str, Any]) -> bytes:
    """The compact field-order plaintext with answers/memos keys sorted (the determinism convention)."""
    s = lambda v: json.dumps(v, ensure_ascii=False)  # noqa: E731 -- a one-line writer
    text = (
        '{"answers":'
        + canon(p["answers"])
        + ',"requested":['
        + ",".join(map(s, p["requested"]))
        + '],"memos":'
        + canon(p["memos"])
        + ',"effects":['
        + ",".join(map(s, p["effects"]))
        + '],"exp":'
        + str(p["exp"])
        + ',"req":'
        + s(p["req"])
        + ',"principal":'
        + ("null" if p["principal"] is None else s(p["principal"]))
        + ',"aud":'
        + ("null" if p["aud"] is None else s(p["aud"]))
        + "}"
    )
    return text.encode()


def seal(
    p: dict[str, Any], *, nonce: bytes = MINT_NONCE, secret: bytes = SECRET, kid: str = "0"
) -> str:
    version = "v2" if p["aud"] is not None else "v1"
    header = f"{version}.{kid}"
    key = hashlib.sha256(LABEL + secret).digest()
    sealed = ChaCha20Poly1305(key).encrypt(nonce, plaintext(p), header.encode())
    return f"{header}.{b64(nonce)}.{b64(sealed)}"


def tag_of(token: str, answers: dict[str, Any]) -> str:
    return token.rsplit(".", 1)[1] + "." + digest(answers)


# ---------------------------------------------------------------------------- request / output
def meta(caps: Any = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}} if caps is None else caps,
    }
    out.update(extra)
    return out


def params_for(method: str, **extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = (
        {"uri": "file:///r"} if method == "resources/read" else {"name": "greet", "arguments": {}}
    )
    base.update(extra)
    base.setdefault("_meta", meta())
    return base


def server(**extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "keys": KEYS,
        "active_kid": "0",
        "nonce_hex": MINT_NONCE.hex(),
        "now": NOW,
    }
    out.update(extra)
    return out


def inp(
    params: Any,
    script: list[Any],
    *,
    id_: Any = 1,
    method: str = "tools/call",
    srv: dict[str, Any] | None = None,
    store: list[Any] | None = None,
) -> dict[str, Any]:
    request: dict[str, Any] = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        request["params"] = params
    out: dict[str, Any] = {"request": request, "server": srv or server(), "script": script}
    if store is not None:
        out["store"] = store
    return out


def stamped(result: dict[str, Any], info: dict[str, Any] | None = None) -> dict[str, Any]:
    out = dict(result)
    out.setdefault("resultType", "complete")
    out["_meta"] = {**out.get("_meta", {}), SI_KEY: info or NEVA}
    return out


def ok(result: Any, *, id_: Any = 1) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id_, "result": result}


def err(code: int, message: str, data: Any = None, *, id_: Any = 1) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": message, "data": data}}


def out(
    response: dict[str, Any],
    ran: list[str] | None = None,
    state: Any = None,
    store: list[Any] | None = None,
) -> dict[str, Any]:
    """An expected output; an :func:`input_required` response brings the payload it sealed."""
    if "_sealed" in response:
        response = dict(response)
        state = response.pop("_sealed")
    return {"response": response, "ran": ran or [], "state": state, "store": store or []}


def input_required(
    requests: dict[str, Any], state: dict[str, Any], *, id_: Any = 1, nonce: bytes = MINT_NONCE
) -> dict[str, Any]:
    token = seal(state, nonce=nonce)
    response = ok(
        stamped({"resultType": "input_required", "inputRequests": requests, "requestState": token}),
        id_=id_,
    )
    return {**response, "_sealed": state}


def ask(key: str, method: str = "elicitation/create", **extra: Any) -> dict[str, Any]:
    step: dict[str, Any] = {"op": "ask", "method": method, "key": key}
    if method == "elicitation/create":
        step["params"] = FORM
    elif method == "sampling/createMessage":
        step["params"] = SAMPLING
    step.update(extra)
    return step


def env(method: str, key: str) -> dict[str, Any]:
    return {
        "method": method,
        "params": {
            "elicitation/create": FORM,
            "sampling/createMessage": SAMPLING,
            "roots/list": {},
        }[method],
    }


def ret(result: Any = None) -> dict[str, Any]:
    return {"op": "return", "result": RESULT if result is None else result}


def fail(code: int, message: str, **extra: Any) -> dict[str, Any]:
    return {"op": "fail", "error": {"code": code, "message": message, **extra}}


def folded(message: str) -> dict[str, Any]:
    return stamped({"content": [{"type": "text", "text": message}], "isError": True})


def mint_state(
    method: str,
    params: Any,
    *,
    answers: dict[str, Any] | None = None,
    requested: list[str],
    memos: dict[str, Any] | None = None,
    effects: list[str] | None = None,
    ttl: int = 300,
    principal: str | None = None,
    aud: str | None = None,
) -> dict[str, Any]:
    return payload(
        answers=answers,
        requested=requested,
        memos=memos,
        effects=effects,
        exp=NOW + ttl,
        req=binding(method, params),
        principal=principal,
        aud=aud,
    )


def inbound(
    method: str,
    params: Any,
    *,
    answers: dict[str, Any] | None = None,
    requested: list[str] | None = None,
    memos: dict[str, Any] | None = None,
    effects: list[str] | None = None,
    exp: int = NOW + 100,
    principal: str | None = None,
    aud: str | None = None,
    secret: bytes = SECRET,
) -> str:
    """A state a previous round minted (sealed under the inbound nonce)."""
    p = payload(
        answers=answers,
        requested=requested,
        memos=memos,
        effects=effects,
        exp=exp,
        req=binding(method, params),
        principal=principal,
        aud=aud,
    )
    return seal(p, nonce=IN_NONCE, secret=secret)


CASES: dict[str, list[dict[str, Any]]] = {}


def case(
    file: str,
    id_: str,
    comment: str,
    rules: list[str],
    flags: list[str],
    input_: Any,
    expected: Any,
    origin: str = "handwritten",
) -> None:
    vec = vector(f"mrtr-round-{id_}", comment, rules, flags, input_, expected, origin)
    CASES.setdefault(file, []).append(vec)


NOTES = {
    "Envelope": {
        "bugType": "FAIL_CLOSED",
        "description": "The 2026-07-28 _meta requirements, on every method, in neva's order.",
    },
    "FieldType": {
        "bugType": "MALFORMED_INPUT",
        "description": "requestState / inputResponses of the wrong type (null included), params before _meta, MRTR methods only (item 2).",
    },
    "Verify": {
        "bugType": "FAIL_CLOSED",
        "description": "The inbound state's checks in order; nothing runs after a failure.",
    },
    "Merge": {
        "bugType": "QUIRK",
        "description": "Unsolicited, settled and state-less answers: dropped, kept, accepted (item 9).",
    },
    "Requested": {
        "bugType": "QUIRK",
        "description": "requested holds only the minting round's pending keys, in ask order (item 10).",
    },
    "Malformed": {
        "bugType": "QUIRK",
        "description": "A wrongly typed answer is a JSON-RPC -32602 that outranks pending inputs and is never re-asked (item 11).",
    },
    "Pending": {
        "bugType": "QUIRK",
        "description": "Any pending input forces input_required whatever the handler returned; that round's commits are discarded (item 12).",
    },
    "Commit": {
        "bugType": "FAIL_CLOSED",
        "description": "Commit rules: only committing finals, registration order, first failure wins and is cached (item 13).",
    },
    "Store": {
        "bugType": "QUIRK",
        "description": "The final-response cache: tag = last segment + digest(seeded answers), exp > now, verbatim replay with the new id (item 14).",
    },
    "Capability": {
        "bugType": "FAIL_CLOSED",
        "description": "The capability gate: first undeclared kind in ask order fails the whole round, -32021 with the mode named (items 15, 16).",
    },
    "Mint": {
        "bugType": "BASIC",
        "description": "What a minted state carries: answers, memos, effects, sliding exp, binding, principal, audience.",
    },
    "Stamp": {
        "bugType": "BASIC",
        "description": "resultType and serverInfo stamping at the dispatch seam.",
    },
    "Wrapper": {
        "bugType": "QUIRK",
        "description": "Only the tool wrapper folds a handler error into isError; codes outside neva's set become -32603.",
    },
    "Effects": {
        "bugType": "BASIC",
        "description": "memo / once / on_commit within and across rounds, and outside MRTR.",
    },
    "Params": {
        "bugType": "MALFORMED_INPUT",
        "description": "The MRTR method's typed params read before the handler (serde's message).",
    },
    "Upstream": {"bugType": "ORACLE", "description": "A neva test re-expressed as one round."},
}
