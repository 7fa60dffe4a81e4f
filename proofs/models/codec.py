"""The sealed-state checks (MRTR-OPEN-1..13) in their order, over an abstract AEAD.

:data:`CHECKS` lists the server's checks in neva's order with the code and message each one
fails with.  :func:`first_failure` is the check chain over per-check failure flags, written
once over :class:`proofs._ops.Ops`; the answer is the first failing check, or ``len(CHECKS)``
for an accepted token.  :func:`ideal_aead` declares an ideal AEAD as uninterpreted functions:
opening succeeds exactly on what sealing produced under the same key, nonce and header.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import z3

from proofs._ops import Ops

CHECKS: tuple[tuple[str, int, str], ...] = (
    ("size", -32602, "requestState exceeds the configured maximum size"),
    ("parts", -32602, "malformed requestState"),
    ("version", -32602, "unsupported requestState version"),
    ("kid", -32602, "unknown requestState key id"),
    ("nonce_b64", -32602, "bad requestState nonce"),
    ("payload_b64", -32602, "bad requestState payload"),
    ("nonce_len", -32602, "bad requestState nonce"),
    ("integrity", -32602, "requestState integrity check failed"),
    ("payload_json", -32700, "(payload decode error)"),
    ("expired", -32602, "requestState expired"),
    ("binding", -32602, "requestState does not match this request"),
    ("principal", -32602, "requestState principal mismatch"),
    ("audience", -32602, "requestState audience mismatch"),
)
ACCEPT = len(CHECKS)


def first_failure(fails: Sequence[Any], ops: Ops) -> Any:
    """The index of the first failing check, or :data:`ACCEPT`."""
    result = ops.const(ACCEPT)
    for i in reversed(range(len(fails))):
        result = ops.ite(fails[i], ops.const(i), result)
    return result


def ideal_aead() -> tuple[Any, Any, Any, Any]:
    """``(enc, dec_ok, dec, axioms)``: ``enc(k, n, ad, m)``; ``dec_ok(k, n, ad, c)`` holds iff
    ``c`` is ``enc(k, n, ad, m)`` for some ``m``, and then ``dec`` returns that ``m``."""
    s = z3.StringSort()
    enc = z3.Function("enc", s, s, s, s, s)
    dec_ok = z3.Function("dec_ok", s, s, s, s, z3.BoolSort())
    dec = z3.Function("dec", s, s, s, s, s)
    k, n, ad, m, c = z3.Strings("k n ad m c")
    axioms = [
        z3.ForAll(
            [k, n, ad, m],
            z3.And(dec_ok(k, n, ad, enc(k, n, ad, m)), dec(k, n, ad, enc(k, n, ad, m)) == m),
        ),
        z3.ForAll(
            [k, n, ad, c], z3.Implies(dec_ok(k, n, ad, c), c == enc(k, n, ad, dec(k, n, ad, c)))
        ),
    ]
    return enc, dec_ok, dec, axioms
