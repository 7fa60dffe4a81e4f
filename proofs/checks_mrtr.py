"""Z3 obligations about the sealed-state model (abstract AEAD, check order), and their ties.

The ties run the real :func:`seal`, :func:`open_state` and :func:`verify` (real
ChaCha20-Poly1305) over a stated, exhaustive set of inputs and compare with the model.
"""

from __future__ import annotations

import itertools
from functools import cache

import z3
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from mcp_touchstone.mrtr import CheckContext, Keyring, StatePayload, open_state, seal, verify
from mcp_touchstone.mrtr._b64 import b64url_encode
from mcp_touchstone.mrtr._binding import request_binding
from mcp_touchstone.mrtr._errors import StateError
from mcp_touchstone.mrtr._state import derive_key
from mcp_touchstone.serde_json import JSON
from proofs import _vectors
from proofs._ops import PY, Z3, prove
from proofs.checks_scope import _fail
from proofs.models import codec

RING = Keyring.single(b"proof-secret")
NONCE = bytes(range(12))
METHOD, NOW = "tools/call", 1000
PARAMS: dict[str, JSON] = {"name": "t"}
REQ = request_binding(METHOD, PARAMS)


def _payloads() -> list[StatePayload]:
    """The bound: every combination of these field values (24 payloads)."""
    out = []
    answer_sets: tuple[dict[str, JSON], ...] = ({}, {"k": {"v": [1, "x"]}})
    for answers, requested, principal, aud in itertools.product(
        answer_sets, ((), ("a", "b")), (None, "alice"), (None, "svc", "é")
    ):
        out.append(StatePayload(answers, NOW + 5, REQ, requested, {}, (), principal, aud))
    return out


def _error(token: str, check: CheckContext | None = None) -> tuple[int, str] | StatePayload:
    try:
        return open_state(token, RING) if check is None else verify(token, RING, check)
    except StateError as exc:
        return exc.code, exc.message


def prop_roundtrip() -> None:
    """PROOF-MRTR-ROUNDTRIP."""
    enc, dec_ok, dec, axioms = codec.ideal_aead()
    k, n, m, ver, kid = z3.Strings("k n m ver kid")
    header = z3.Concat(ver, z3.StringVal("."), kid)
    c = enc(k, n, header, m)
    prove("open(seal(m)) = m", z3.And(dec_ok(k, n, header, c), dec(k, n, header, c) == m), *axioms)
    failures = []
    for payload in _payloads():
        for ring in (RING, Keyring("k2", {"0": b"old", "k2": b"new"})):
            try:
                opened: StatePayload | tuple[int, str] = open_state(
                    seal(payload, ring, NONCE), ring
                )
            except StateError as exc:
                opened = (exc.code, exc.message)
            if opened != payload:
                failures.append(f"open(seal({payload})) = {opened}")
    failures += _vectors.replay(("mrtr-open-kat", "mrtr-open-v2", "mrtr-open-full"))
    _fail(failures)


@cache
def _tokens() -> tuple[str, ...]:
    # Ciphertext lengths 0, 1, 2 mod 3: unpadded remainders 0, 2, 3 (both slack-bit cases).
    sizes = [StatePayload({}, NOW, REQ, ("a" * n,)) for n in range(3)]
    return tuple(seal(p, RING, NONCE) for p in sizes)


def prop_tamper() -> None:
    """PROOF-MRTR-TAMPER."""
    enc, dec_ok, _dec, axioms = codec.ideal_aead()
    b64 = z3.Function("b64decode", z3.StringSort(), z3.StringSort())
    x, y = z3.Strings("x y")
    injective = z3.ForAll([x, y], z3.Implies(b64(x) == b64(y), x == y))
    k, h, h2, n, n2, c, c2, m = z3.Strings("k h h2 n n2 c c2 m")
    sealed = enc(k, b64(n), h, m)
    prove(
        "a changed header, nonce or ciphertext text does not open",
        z3.Not(dec_ok(k, b64(n2), h2, b64(c2))),
        *axioms,
        injective,
        b64(c) == sealed,
        z3.Or(h2 != h, n2 != n, c2 != c),
        # Ideal AEAD: the sealed triple is the only ciphertext under k that opens.
        z3.ForAll(
            [x, y, m], z3.Implies(dec_ok(k, x, y, m), z3.And(x == b64(n), y == h, m == sealed))
        ),
    )
    failures = []
    alphabet = [chr(i) for i in range(128)] + ["é", "\u2028"]
    for token in _tokens():
        for at in range(len(token)):
            for ch in alphabet:
                if ch == token[at]:
                    continue
                changed = token[:at] + ch + token[at + 1 :]
                if not isinstance(_error(changed), tuple):
                    failures.append(f"{changed!r} (position {at}) opened")
    failures += _vectors.replay(("mrtr-open-tag-bit-flip", "mrtr-open-payload-trailing-bits"))
    _fail(failures)


def _fault_token(stage: str, payload: StatePayload) -> tuple[str, Keyring]:
    """A token that passes every check before ``stage`` and fails ``stage`` (codec stages)."""
    token = seal(payload, RING, NONCE)
    version, kid, nonce, body = token.split(".")
    if stage == "parts":
        return token + ".x", RING
    if stage == "version":
        return f"v9.{kid}.{nonce}.{body}", RING
    if stage == "kid":
        return f"{version}.9.{nonce}.{body}", RING
    if stage == "nonce_b64":
        return f"{version}.{kid}.{nonce[:-1]}=.{body}", RING
    if stage == "payload_b64":
        return f"{version}.{kid}.{nonce}.{body[:-1]}+", RING
    if stage == "nonce_len":
        return f"{version}.{kid}.{b64url_encode(NONCE[:11])}.{body}", RING
    if stage == "integrity":
        flipped = ("B" if body[0] == "A" else "A") + body[1:]
        return f"{version}.{kid}.{nonce}.{flipped}", RING
    if stage == "payload_json":
        sealed = ChaCha20Poly1305(derive_key(b"proof-secret")).encrypt(
            NONCE, b"[]x", f"{version}.{kid}".encode()
        )
        return f"{version}.{kid}.{nonce}.{b64url_encode(sealed)}", RING
    return token, RING


POST_OPEN = ("expired", "binding", "principal", "audience")


def _case(stage: str, later: tuple[bool, ...]) -> tuple[str, Keyring, CheckContext]:
    """Fail ``stage`` and, of the post-open checks after it, those flagged in ``later``."""
    names = [name for name, _, _ in codec.CHECKS]
    at = names.index(stage)
    fails = dict(zip(POST_OPEN, later, strict=True))
    for name in POST_OPEN:
        if names.index(name) < at:
            fails[name] = False
    if stage in fails:
        fails[stage] = True
    payload = StatePayload(
        {},
        NOW - 1 if fails["expired"] else NOW,
        request_binding("other", PARAMS) if fails["binding"] else REQ,
        (),
        principal="mallory" if fails["principal"] else "alice",
        aud=None if fails["audience"] else "svc",
    )
    token, ring = _fault_token(stage, payload)
    size = len(token) - 1 if stage == "size" else 8192
    return token, ring, CheckContext(METHOD, PARAMS, NOW, "alice", "svc", size)


def prop_check_order() -> None:
    """PROOF-MRTR-ORDER."""
    fails = [z3.Bool(f"f{i}") for i in range(len(codec.CHECKS))]
    r = codec.first_failure(fails, Z3)
    for i in range(len(codec.CHECKS)):
        prove(
            f"check {codec.CHECKS[i][0]} fires only after the earlier ones pass",
            z3.Implies(r == i, z3.And(fails[i], *[z3.Not(f) for f in fails[:i]])),
        )
    prove("accepted iff no check fails", (r == codec.ACCEPT) == z3.Not(z3.Or(*fails)))
    failures = []
    for i, (stage, code, message) in enumerate(codec.CHECKS):
        for later in itertools.product((False, True), repeat=len(POST_OPEN)):
            token, ring, check = _case(stage, later)
            flags = [
                j == i or (name in POST_OPEN and j > i and later[POST_OPEN.index(name)])
                for j, (name, _, _) in enumerate(codec.CHECKS)
            ]
            want = codec.first_failure(flags, PY)
            if want != i:
                failures.append(f"model answers {want} for a stage-{i} case")
            try:
                verify(token, ring, check)
                failures.append(f"stage {stage} {later}: accepted")
            except StateError as exc:
                if exc.code != code or (stage != "payload_json" and exc.message != message):
                    failures.append(f"stage {stage} {later}: got {exc.code} {exc.message!r}")
    failures += _vectors.replay(("mrtr-verify-*-before-*", "mrtr-open-*-before-*"))
    _fail(failures)


def prop_expiry() -> None:
    """PROOF-MRTR-EXPIRY."""
    exp, now = z3.Ints("exp now")
    expired = exp < now  # the model's expiry check (MRTR-OPEN-10)
    prove("exp == now is live", z3.Not(expired), exp == now)
    prove("exp == now - 1 is expired", expired, exp == now - 1)
    failures = []
    for delta in range(-3, 4):
        token = seal(StatePayload({}, NOW + delta, REQ), RING, NONCE)
        got = _error(token, CheckContext(METHOD, PARAMS, NOW))
        if isinstance(got, tuple) != (delta < 0):
            failures.append(f"exp = now {delta:+d}: {got}")
    failures += _vectors.replay(("mrtr-verify-exp-equals-now", "mrtr-verify-expired"))
    _fail(failures)
