"""How the runner compares an implementation's output with a vector's expected output.

Outputs are compared as JSON values: object key order is irrelevant, array order matters, and
``1`` differs from ``1.0`` (HARNESS-CMP-1).  The pinned exceptions (HARNESS-CMP-2..4) relax a
few error messages whose wording is the upstream's own and not part of the contract; for
``scope.hosted_match`` an ``invalid_constraint`` message counts up to ``failed to compile``
(HARNESS-CMP-6).
"""

from __future__ import annotations

import math

from mcp_touchstone.serde_json import JSON

_UNCOMPARED_ERROR_MESSAGE_OPS = frozenset({"mrtr.capabilities", "mrtr.allows"})
_COMPILE_FAILURE = "failed to compile"


def _up_to_compile_failure(message: str) -> str:
    """HARNESS-CMP-6: a ``scope.hosted_match`` ``invalid_constraint`` message up to and including
    the first ``failed to compile``; what follows is the regex engine's own explanation.  The
    first occurrence always lies in the pinned part (the pattern is quoted before the phrase),
    so the cut never keeps engine text; a message without the phrase is compared whole."""
    at = message.find(_COMPILE_FAILURE)
    return message if at < 0 else message[: at + len(_COMPILE_FAILURE)]


def _same(a: JSON, b: JSON) -> bool:
    """Structural JSON equality that keeps ints and floats apart and -0.0 apart from 0.0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    if isinstance(a, float) and isinstance(b, float):
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    if a is None or b is None:
        return a is b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return False


def _relaxed_round(output: dict[str, JSON]) -> dict[str, JSON]:
    """HARNESS-CMP-5 (``mrtr.round``): a ``-32700`` response message is not compared; a
    malformed-answer message is compared up to and including its first `` result``."""
    response = output.get("response")
    error = response.get("error") if isinstance(response, dict) else None
    if not isinstance(response, dict) or not isinstance(error, dict):
        return output
    message = error.get("message")
    if error.get("code") == -32700:
        message = None
    elif isinstance(message, str) and message.startswith("the answer for `"):
        cut = message.find(" result")
        message = message if cut < 0 else message[: cut + len(" result")]
    return {**output, "response": {**response, "error": {**error, "message": message}}}


def _relaxed(operation: str, output: JSON) -> JSON:
    """Blank the parts of ``output`` the comparison rules say are not compared."""
    if not isinstance(output, dict):
        return output
    if operation == "mrtr.round" and "response" in output:
        return _relaxed_round(output)
    error = output.get("error")
    if not isinstance(error, dict):
        return output
    relaxed = dict(error)
    kind = error.get("kind")
    if kind in ("invalid_input", "invalid_json") and "message" in relaxed:
        # HARNESS-CMP-2: invalid_input messages name the problem in the implementation's words.
        relaxed["message"] = None
    elif operation in _UNCOMPARED_ERROR_MESSAGE_OPS and "message" in relaxed:
        # HARNESS-CMP-3: capability decoding errors are serde's text in the upstream.
        relaxed["message"] = None
    elif operation == "scope.hosted_match" and kind == "invalid_constraint":
        message = relaxed.get("message")
        if isinstance(message, str):
            # HARNESS-CMP-6: what follows `failed to compile` is the regex engine's own text.
            relaxed["message"] = _up_to_compile_failure(message)
    elif operation == "mrtr.state.open" and error.get("code") == -32700:
        # HARNESS-CMP-4: a payload that is not valid payload JSON: only the code is compared.
        relaxed = {"code": -32700}
    return {**output, "error": relaxed}


def outputs_match(operation: str, expected: JSON, actual: JSON) -> bool:
    """Whether ``actual`` passes for ``expected`` under the comparison rules."""
    return _same(_relaxed(operation, expected), _relaxed(operation, actual))
