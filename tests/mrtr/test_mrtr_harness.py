"""The six mrtr harness operations are total and shaped as harness-v1 pins them
(spec/mrtr.md MRTR-HARNESS-*)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_touchstone.harness._mrtr import OPERATIONS
from mcp_touchstone.serde_json import JSON
from tests.strategies.mrtr import json_values

KEYS: list[JSON] = [{"kid": "0", "secret_hex": b"secret-key".hex()}]
PAYLOAD: dict[str, JSON] = {"answers": {}, "exp": 10, "req": "tools/call:x", "effects": ["b", "a"]}


def test_registered_operations() -> None:
    """MRTR-HARNESS-1, MRTR-HARNESS-4, MRTR-HARNESS-5: the six v1 operations, the pinned
    mrtr.round and the mrtr.client addition."""
    assert sorted(set(OPERATIONS) - {"mrtr.round"}) == [
        "mrtr.allows",
        "mrtr.capabilities",
        "mrtr.client",
        "mrtr.input_responses_digest",
        "mrtr.request_binding",
        "mrtr.state.open",
        "mrtr.state.seal",
    ]
    assert "mrtr.round" in OPERATIONS


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(sorted(OPERATIONS)), raw=json_values)
def test_operations_are_total(name: str, raw: JSON) -> None:
    """MRTR-HARNESS-1: any JSON input gets an output object, never an exception."""
    out = OPERATIONS[name](raw)
    assert isinstance(out, dict)
    assert out


def test_open_with_and_without_check() -> None:
    """MRTR-HARNESS-2: without check only the codec runs; with it, expiry is checked too."""
    seal = OPERATIONS["mrtr.state.seal"](
        {"keys": KEYS, "active_kid": "0", "nonce_hex": "00" * 12, "payload": PAYLOAD}
    )
    token = seal["token"]
    assert isinstance(token, str)
    opened = OPERATIONS["mrtr.state.open"]({"token": token, "keys": KEYS})
    assert opened == {
        "payload": {
            "answers": {},
            "requested": [],
            "memos": {},
            "effects": ["a", "b"],
            "exp": 10,
            "req": "tools/call:x",
            "principal": None,
            "aud": None,
        }
    }
    check: JSON = {
        "method": "tools/call",
        "params": None,
        "principal": None,
        "audience": None,
        "now": 11,
        "max_state_bytes": 8192,
    }
    assert OPERATIONS["mrtr.state.open"]({"token": token, "keys": KEYS, "check": check}) == {
        "error": {"code": -32602, "message": "requestState expired"}
    }


def test_capability_errors_have_the_message_shape() -> None:
    """MRTR-HARNESS-3: a refused capability value or envelope is {"error": {"message"}}."""
    out = OPERATIONS["mrtr.capabilities"]({"value": {"roots": 1}})
    assert set(out) == {"error"}
    error = out["error"]
    assert isinstance(error, dict)
    assert set(error) == {"message"}
    out = OPERATIONS["mrtr.allows"]({"capabilities": {}, "request": {"method": "x/y"}})
    assert out == {"error": {"message": "unknown MRTR input request method `x/y`"}}


def test_invalid_input_shape() -> None:
    """MRTR-HARNESS-1: a malformed case.input is answered with kind invalid_input."""
    for name in OPERATIONS:
        out = OPERATIONS[name](None)
        error = out["error"]
        assert isinstance(error, dict)
        assert error["kind"] == "invalid_input"
