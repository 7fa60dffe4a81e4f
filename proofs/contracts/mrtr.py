# ruff: noqa: PLR0917 - CrossHair builds every symbolic input as a positional argument.
"""CrossHair contracts on the MRTR core (PEP 316 ``pre:``/``post:`` docstrings)."""

from __future__ import annotations

from mcp_touchstone.mrtr import (
    CheckContext,
    ClientMrtrCapabilities,
    ElicitationMode,
    ElicitationModes,
    InputKind,
    InputRequest,
    Keyring,
    StateError,
    missing_capability_error,
    salient_params,
    verify,
)
from mcp_touchstone.serde_json import JSON, canonical

SIZE_MESSAGE = "requestState exceeds the configured maximum size"


def _caps(
    declared: bool, form: bool, url: bool, sampling: bool, roots: bool
) -> ClientMrtrCapabilities:
    modes = ElicitationModes(form, url) if declared else None
    return ClientMrtrCapabilities(modes, sampling, roots)


def _allows_spec(
    declared: bool,
    form: bool,
    url: bool,
    sampling: bool,
    roots: bool,
    kind: InputKind,
    mode: ElicitationMode | None,
) -> bool:
    """MRTR-CAP-4..6 restated: an unnamed mode set admits every mode; a named one only its own;
    an elicitation without a mode is a form."""
    if kind is InputKind.ELICITATION:
        wanted_url = mode is ElicitationMode.URL
        return declared and ((not form and not url) or (url if wanted_url else form))
    return sampling if kind is InputKind.SAMPLING else roots


def allows_iff_declared(
    declared: bool,
    form: bool,
    url: bool,
    sampling: bool,
    roots: bool,
    kind: InputKind,
    mode: ElicitationMode | None,
) -> bool:
    """PROOF-MRTR-ALLOWS: ``allows`` holds iff the declared capabilities admit the request.

    pre: kind is InputKind.ELICITATION or mode is None
    post: __return__ == _allows_spec(declared, form, url, sampling, roots, kind, mode)
    """
    request = InputRequest(kind, {}, mode)
    return _caps(declared, form, url, sampling, roots).allows(request)


def one_undeclared_kind_fails_the_round(
    kinds: list[InputKind], sampling: bool, roots: bool, declared: bool
) -> bool:
    """PROOF-MRTR-CAP-ROUND: the round fails iff some request is not allowed, and the error
    names the first such request in ask order.

    pre: len(kinds) <= 3
    post: __return__
    """
    caps = _caps(declared, False, False, sampling, roots)
    requests = [InputRequest(k, {}) for k in kinds]
    error = missing_capability_error(caps, requests)
    refused = [r for r in requests if not caps.allows(r)]
    if not refused:
        return error is None
    return error is not None and f"`{refused[0].method}`" in error.message


def size_checked_first(token: str, cap: int) -> str:
    """PROOF-MRTR-SIZE-FIRST: a token over the size cap is refused for its size, whatever its
    content (the cap is checked before any decoding).

    pre: token.isascii()
    pre: 0 <= cap < len(token)
    post: __return__ == SIZE_MESSAGE
    """
    try:
        verify(
            token, Keyring.single(b"k"), CheckContext("tools/call", None, 0, max_state_bytes=cap)
        )
    except StateError as exc:
        return exc.message
    return "accepted"


def binding_ignores_order_and_unbound_keys(key: str, number: int, name: str, meta: int) -> bool:
    """PROOF-MRTR-BIND: what the binding hashes (the canonical text of the salient params) is
    the same for params in another key order and with ``_meta``, ``inputResponses`` and
    ``requestState`` added; the binding is that text's digest (the known-answer vectors).

    pre: key not in ("_meta", "inputResponses", "requestState", "name")
    pre: -(2**53) < number < 2**53
    pre: all(not ("\\ud800" <= c <= "\\udfff") for c in key + name)
    post: __return__
    """
    plain: dict[str, JSON] = {"name": name, key: number}
    noisy: dict[str, JSON] = {
        "requestState": "s",
        key: number,
        "_meta": {"m": meta},
        "inputResponses": {"a": {"v": meta}},
        "name": name,
    }
    # Hashing realizes symbolic strings (CrossHair cannot see through SHA-256), so the contract
    # states equality of the digest's input; request_binding's format is pinned by KAT vectors.
    return canonical(salient_params(plain)) == canonical(salient_params(noisy))
