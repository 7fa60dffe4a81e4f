"""Harness operations of the ``mrtr`` semantic (see ``spec/harness.md``, ``spec/mrtr.md``).

Each operation takes the raw ``case.input`` JSON value and returns the output object.
It is total: malformed input is answered with the operation's error shape, never raised
(MRTR-HARNESS-1).
"""

from __future__ import annotations

import re

from mcp_touchstone.harness._input import MUST, checked
from mcp_touchstone.harness._input import BadInputError as _BadInputError
from mcp_touchstone.harness._input import invalid_input as _invalid
from mcp_touchstone.harness._mrtr_keyring import keyring as _keyring
from mcp_touchstone.harness._operation import HarnessOperation
from mcp_touchstone.mrtr import (
    CapabilityError,
    CheckContext,
    ClientMrtrCapabilities,
    InputRequestError,
    PayloadError,
    StateError,
    StatePayload,
    decode_input_request,
    input_responses_digest,
    open_state,
    parse_capabilities,
    request_binding,
    seal,
    verify,
)
from mcp_touchstone.serde_json import JSON

_HEX = re.compile(r"(?:[0-9a-fA-F]{2})*")


def _object(raw: JSON) -> dict[str, JSON]:
    return MUST.object(raw, "input", "a JSON object")


def _str(obj: dict[str, JSON], key: str) -> str:
    return MUST.string(obj.get(key), f"`{key}`")


def _opt_str(obj: dict[str, JSON], key: str) -> str | None:
    return MUST.optional_string(obj.get(key), f"`{key}`", "a string or null")


def _uint(obj: dict[str, JSON], key: str) -> int:
    return MUST.unsigned(obj.get(key), f"`{key}`")


def _hex(obj: dict[str, JSON], key: str) -> bytes:
    text = _str(obj, key)
    if not _HEX.fullmatch(text):
        raise _BadInputError(f"`{key}` must be an even-length hex string")
    return bytes.fromhex(text)


def _keys(obj: dict[str, JSON]) -> dict[str, bytes]:
    raw = obj.get("keys")
    if not isinstance(raw, list):
        raise _BadInputError("`keys` must be an array of {kid, secret_hex}")
    keys: dict[str, bytes] = {}
    for entry in raw:
        if not isinstance(entry, dict):
            raise _BadInputError("each key must be an object {kid, secret_hex}")
        keys[_str(entry, "kid")] = _hex(entry, "secret_hex")
    return keys


def _request_binding(raw: JSON) -> dict[str, JSON]:
    try:
        obj = _object(raw)
        method = _str(obj, "method")
    except _BadInputError as exc:
        return _invalid(str(exc))
    return {"binding": request_binding(method, obj.get("params"))}


def _input_responses_digest(raw: JSON) -> dict[str, JSON]:
    try:
        obj = _object(raw)
    except _BadInputError as exc:
        return _invalid(str(exc))
    responses = obj.get("responses")
    if not isinstance(responses, dict):
        return _invalid("`responses` must be a JSON object")
    return {"digest": input_responses_digest(responses)}


def _state_seal(raw: JSON) -> dict[str, JSON]:
    try:
        obj = _object(raw)
        keys = _keys(obj)
        active = _str(obj, "active_kid")
        nonce = _hex(obj, "nonce_hex")
        if len(nonce) != 12:
            raise _BadInputError("`nonce_hex` must be 24 hex characters (12 bytes)")
        if "payload" not in obj:
            raise _BadInputError("`payload` is required")
        payload = StatePayload.from_json(obj["payload"])
    except _BadInputError as exc:
        return _invalid(str(exc))
    except PayloadError as exc:
        return _invalid(f"`payload` is not a StatePayload: {exc}")
    try:
        return {"token": seal(payload, _keyring(active, keys), nonce)}
    except StateError as exc:
        return {"error": {"code": exc.code, "message": exc.message}}


def _payload_output(payload: StatePayload) -> dict[str, JSON]:
    out = payload.to_json()
    out["effects"] = list[JSON](sorted(payload.effects))
    return {"payload": out}


def _state_open(raw: JSON) -> dict[str, JSON]:
    try:
        obj = _object(raw)
        token = _str(obj, "token")
        keyring = _keyring("", _keys(obj))
        check_raw = obj.get("check")
        check: CheckContext | None = None
        if check_raw is not None:
            if not isinstance(check_raw, dict):
                raise _BadInputError("`check` must be an object")
            check = CheckContext(
                method=_str(check_raw, "method"),
                params=check_raw.get("params"),
                now=_uint(check_raw, "now"),
                principal=_opt_str(check_raw, "principal"),
                audience=_opt_str(check_raw, "audience"),
                max_state_bytes=_uint(check_raw, "max_state_bytes"),
            )
    except _BadInputError as exc:
        return _invalid(str(exc))
    try:
        payload = open_state(token, keyring) if check is None else verify(token, keyring, check)
    except StateError as exc:
        return {"error": {"code": exc.code, "message": exc.message}}
    return _payload_output(payload)


def _capabilities_output(caps: ClientMrtrCapabilities) -> dict[str, JSON]:
    modes = caps.elicitation
    elicitation: JSON = None if modes is None else {"form": modes.form, "url": modes.url}
    return {"elicitation": elicitation, "sampling": caps.sampling, "roots": caps.roots}


def _capabilities(raw: JSON) -> dict[str, JSON]:
    try:
        obj = _object(raw)
        if "value" not in obj:
            raise _BadInputError("`value` is required")
    except _BadInputError as exc:
        return _invalid(str(exc))
    try:
        caps = parse_capabilities(obj["value"])
    except CapabilityError as exc:
        return {"error": {"message": str(exc)}}
    return {"capabilities": _capabilities_output(caps)}


def _allows(raw: JSON) -> dict[str, JSON]:
    try:
        obj = _object(raw)
        if "capabilities" not in obj or "request" not in obj:
            raise _BadInputError("`capabilities` and `request` are required")
    except _BadInputError as exc:
        return _invalid(str(exc))
    try:
        caps = parse_capabilities(obj["capabilities"])
        request = decode_input_request(obj["request"])
    except (CapabilityError, InputRequestError) as exc:
        return {"error": {"message": str(exc)}}
    return {
        "allowed": caps.allows(request),
        "required": ClientMrtrCapabilities.requiring(request).to_json(),
    }


OPERATIONS: dict[str, HarnessOperation] = {
    "mrtr.request_binding": checked(_request_binding),
    "mrtr.input_responses_digest": checked(_input_responses_digest),
    "mrtr.state.seal": checked(_state_seal),
    "mrtr.state.open": checked(_state_open),
    "mrtr.capabilities": checked(_capabilities),
    "mrtr.allows": checked(_allows),
}
"""The six pinned ``mrtr.*`` operations (harness-v1), each behind the one JSON check."""


# --------------------------------------------------------------------------- mrtr.round
# One server round of neva's MRTR dispatch for a scripted handler (pinned,
# shared/protocol/mrtr-round.md); the adapter lives in _mrtr_round.py (MRTR-HARNESS-4).
from mcp_touchstone.harness._mrtr_round import mrtr_round  # noqa: E402

OPERATIONS["mrtr.round"] = mrtr_round


# ---------------------------------------------------------------------------------------
# mrtr.client — an addition (spec/harness.md HARNESS-MRTR-CLIENT-*): neva's client loop
# against a scripted server and fulfiller. The adapter lives in harness/_mrtr_client.py.
# ---------------------------------------------------------------------------------------
from mcp_touchstone.harness._mrtr_client import mrtr_client  # noqa: E402 (appended section)

OPERATIONS["mrtr.client"] = mrtr_client
