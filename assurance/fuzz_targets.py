"""The fuzz targets: one function per parser/decoder, each taking raw bytes.

A target returns normally when the parser answered (a value, or one of its documented
:class:`~mcp_touchstone._errors.TouchstoneError` subclasses / error outputs) and raises
:class:`FindingError` otherwise; any other exception escaping a target is itself a finding (an
untyped exception). Shared by the atheris driver (``assurance/fuzz.py``) and the Hypothesis
fuzz tests (``tests/fuzz/``).
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from collections.abc import Callable, Mapping

from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from mcp_touchstone import mrtr, scope, serde_json
from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone.harness._operation import HarnessOperation
from mcp_touchstone.mrtr._b64 import b64url_encode
from mcp_touchstone.mrtr._state import derive_key
from mcp_touchstone.scope._regex_size import (
    MAX_NESTING,
    REFUSED_STATES,
    exceeds_size_limit,
    nfa_states_lower_bound,
)


class FindingError(AssertionError):
    """The parser did something other than answer or raise its documented error."""


SECRET = b"fuzz-secret"
KEYRING = mrtr.Keyring.single(SECRET)
_AEAD = ChaCha20Poly1305(derive_key(SECRET))
_NONCE = bytes(12)


def _json(data: bytes) -> serde_json.JSON:
    """The fuzz bytes as a JSON value (invalid JSON is the JSON layer's own target)."""
    try:
        return serde_json.from_str(data)
    except serde_json.JsonError:
        return data.decode("utf-8", "replace")


def json_from_str(data: bytes) -> None:
    """serde_json.from_str: a value that validates and re-parses from its own text, or a
    JsonError. (Not text-idempotent: serde_json's default float parse may be one ULP off, so
    ``to_string(from_str(to_string(x)))`` can differ in a float's last digit; see SERDE-NUM.)"""
    try:
        value = serde_json.from_str(data)
    except serde_json.JsonError:
        return
    if serde_json.validate(value) is not value:
        raise FindingError("validate did not return its argument")
    text = serde_json.to_string(value)
    try:
        serde_json.from_str(text)
    except serde_json.JsonError as exc:
        raise FindingError(
            f"to_string wrote text from_str refuses: {text[:200]!r}: {exc}"
        ) from None


def json_validate(data: bytes) -> None:
    """serde_json.validate on the decoded text as a Python str and on parsed values."""
    with contextlib.suppress(serde_json.JsonError):
        serde_json.validate(data.decode("utf-8", "surrogateescape"))
    with contextlib.suppress(serde_json.JsonError):
        serde_json.validate({"k": [_json(data), float(len(data)) / 7, 2 ** (len(data) * 3)]})


def scope_decode(data: bytes) -> None:
    """scope.decode_scope and decode_constraint: a value or a ScopeDecodeError."""
    value = _json(data)
    with contextlib.suppress(scope.ScopeDecodeError):
        scope.decode_scope(value)
    with contextlib.suppress(scope.ScopeDecodeError):
        scope.decode_constraint(value)


def regex_size(data: bytes) -> None:
    """scope/_regex_size: a count or ``None``, never an exception; the prediction is the count
    against the threshold; a group of a counted pattern counts the same, and ``{2}`` on it twice
    (when the nesting still fits)."""
    pattern = data.decode("utf-8", "replace")
    states = nfa_states_lower_bound(pattern)
    if states is not None and (type(states) is not int or states < 0):
        raise FindingError(f"count {states!r} for {pattern[:200]!r}")
    if exceeds_size_limit(pattern) != (states is not None and states >= REFUSED_STATES):
        raise FindingError(f"prediction disagrees with the count for {pattern[:200]!r}")
    if states is not None and len(pattern) < 4000 and pattern.count("(") < MAX_NESTING // 3:
        for wrapped, expected in ((f"(?:{pattern})", states), (f"({pattern}){{2}}", 2 * states)):
            again = nfa_states_lower_bound(wrapped)
            if again is not None and again != expected:
                raise FindingError(f"{wrapped[:200]!r} counts {again}, not {expected}")


def mrtr_capabilities(data: bytes) -> None:
    """mrtr.parse_capabilities: a value or a CapabilityError."""
    with contextlib.suppress(mrtr.CapabilityError):
        mrtr.parse_capabilities(_json(data))


def mrtr_input_request(data: bytes) -> None:
    """mrtr.decode_input_request: a value or an InputRequestError."""
    with contextlib.suppress(mrtr.InputRequestError):
        mrtr.decode_input_request(_json(data))


def _reread_floats(value: serde_json.JSON) -> serde_json.JSON:
    """``value`` with every float as serde_json reads back its own output for it.

    serde_json writes the shortest round-trip text (ryu) but, without ``float_roundtrip``, reads
    it back with one multiplication by a power of ten (JSON-NUM-3), which can land one ulp away:
    ``6.052651223840937e+85`` is written ``6.0526512238409376e+85`` and read back as
    ``6.052651223840938e+85``.  So a payload re-decodes to itself up to exactly that re-read.
    """
    if isinstance(value, float):
        return serde_json.from_str(serde_json.to_string(value))
    if isinstance(value, list):
        return [_reread_floats(item) for item in value]
    if isinstance(value, Mapping):
        return {key: _reread_floats(item) for key, item in value.items()}
    return value


def mrtr_payload(data: bytes) -> None:
    """StatePayload.decode: a payload that re-decodes to itself (floats up to serde_json's
    own re-read of its output), or a PayloadError."""
    try:
        payload = mrtr.StatePayload.decode(data)
    except mrtr.PayloadError:
        return
    again = mrtr.StatePayload.decode(serde_json.to_string(payload.to_json()).encode())
    expected = serde_json.to_string(_reread_floats(payload.to_json()))
    if serde_json.to_string(again.to_json()) != expected:
        raise FindingError("a decoded payload does not re-decode to itself")


def mrtr_token(data: bytes) -> None:
    """open_state / verify on a raw token and on an authentic token sealing the bytes."""
    raw = data.decode("utf-8", "surrogateescape")
    version = "v2" if data[:1] == b"2" else "v1"
    header = f"{version}.0"
    sealed = _AEAD.encrypt(_NONCE, data, header.encode())
    authentic = f"{header}.{b64url_encode(_NONCE)}.{b64url_encode(sealed)}"
    check = mrtr.CheckContext(method="tools/call", params=None, now=0)
    for token in (raw, authentic):
        with contextlib.suppress(mrtr.StateError):
            mrtr.open_state(token, KEYRING)
        with contextlib.suppress(mrtr.StateError):
            mrtr.verify(token, KEYRING, check)


_OPS: list[Mapping[str, HarnessOperation]] = []


def harness_line(data: bytes) -> None:
    """harness answer(): never raises, and no adapter crash ("<op> failed: ...")."""
    from mcp_touchstone.harness._registry import reference_operations
    from mcp_touchstone.harness._server import answer

    if not _OPS:
        _OPS.append(reference_operations())
    ops = _OPS[0]
    names = sorted(ops)
    # Half the inputs are a run request for a real operation around the fuzzed input value.
    if data[:1] and data[0] % 2 and names:
        name = names[data[0] % len(names)]
        body = data[1:].decode("utf-8", "replace")
        line = f'{{"cmd":"run","seq":1,"case":{{"operation":"{name}","input":{body}}}}}'
        out = answer(line.encode(), ops)
    else:
        out = answer(data, ops)
    if out is not None and out.get("errored"):
        message = str(out.get("message"))
        if " failed: " in message:
            raise FindingError(f"adapter crash: {message[:300]}")


_CASE_FILE: list[str] = []


def cli_eval(data: bytes) -> None:
    """`touchstone eval <op> FILE`: exit status 0, 1 or 2, never a traceback."""
    from mcp_touchstone import _cli
    from mcp_touchstone.harness._registry import reference_operations

    if not _CASE_FILE:
        fd, path = tempfile.mkstemp(prefix="touchstone-fuzz-", suffix=".json")
        os.close(fd)
        _CASE_FILE.append(path)
    names = sorted(reference_operations())
    name = names[data[0] % len(names)] if data else "nope"
    with open(_CASE_FILE[0], "wb") as f:
        f.write(data[1:])
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        try:
            status: object = _cli.main(["eval", name, _CASE_FILE[0]])
        except SystemExit as exc:  # argparse usage errors
            status = exc.code
    if status not in (0, 1, 2):
        raise FindingError(f"eval exit status {status!r}")
    if "Traceback" in sink.getvalue():
        raise FindingError("eval printed a traceback")


TARGETS: dict[str, Callable[[bytes], None]] = {
    "json_from_str": json_from_str,
    "json_validate": json_validate,
    "scope_decode": scope_decode,
    "regex_size": regex_size,
    "mrtr_capabilities": mrtr_capabilities,
    "mrtr_input_request": mrtr_input_request,
    "mrtr_payload": mrtr_payload,
    "mrtr_token": mrtr_token,
    "harness_line": harness_line,
    "cli_eval": cli_eval,
}

# Each documented error type derives from TouchstoneError; anything else escaping is a finding.
DOCUMENTED: tuple[type[BaseException], ...] = (TouchstoneError,)
