"""Request binding and the input-responses digest: neva's state.rs tests re-expressed,
known answers and properties (spec/mrtr.md MRTR-BIND-*, MRTR-DIGEST-1)."""

from __future__ import annotations

import base64
import hashlib
import json

from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.mrtr import _errors as errors
from mcp_touchstone.mrtr import input_responses_digest, request_binding, salient_params
from mcp_touchstone.serde_json import JSON
from tests.strategies.mrtr import json_values


def _reordered(value: JSON) -> JSON:
    """The same JSON value with every object's keys in reverse insertion order."""
    if isinstance(value, dict):
        return {k: _reordered(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_reordered(v) for v in value]
    return value


def test_known_answers() -> None:
    """MRTR-BIND-1, MRTR-BIND-3, MRTR-DIGEST-1: neva's own bindings and digest."""
    assert request_binding("tools/call", {"name": "t"}) == (
        "tools/call:Nkemdkkii2L-PROcR_ejxnPDHOV9qCQIK2ZU_AsVdR8"
    )
    assert request_binding("tools/call", {"b": [{"y": 2, "x": 1}], "a": 1.0}) == (
        "tools/call:6UiqAAWdS4lrbRMuxfXnc5ah_aFYweibcUhL-ylBh3w"
    )
    assert input_responses_digest({"k": {"action": "accept", "content": {"v": 1}}}) == (
        "Ut2vKmLKv2lQQgu2FQ8Bwdt2urPK9RjYactcTnbAmJU"
    )
    assert input_responses_digest({}) == "RBNvo1WzZ4oRRq0W9-hknpT7T8If536DEMBg9hyq_4o"


def test_request_binding_is_stable_and_distinct() -> None:
    """MRTR-BIND-1: the same input binds the same; another tool name binds differently."""
    a = request_binding("tools/call", {"name": "t"})
    assert a == request_binding("tools/call", {"name": "t"})
    assert a != request_binding("tools/call", {"name": "u"})
    assert a != request_binding("prompts/get", {"name": "t"})


def test_request_binding_is_independent_of_object_key_order() -> None:
    """MRTR-BIND-3: reordering keys, nested and inside arrays, binds the same."""
    first: JSON = {"name": "t", "args": [{"a": 1, "b": 2}, {"c": 3}]}
    second: JSON = {"args": [{"b": 2, "a": 1}, {"c": 3}], "name": "t"}
    assert request_binding("tools/call", first) == request_binding("tools/call", second)


def test_only_top_level_mrtr_keys_are_left_out() -> None:
    """MRTR-BIND-2: _meta, inputResponses and requestState go only at the top level."""
    params: JSON = {"name": "t", "_meta": {}, "inputResponses": {}, "requestState": "s"}
    assert salient_params(params) == {"name": "t"}
    nested: JSON = {"arguments": {"_meta": 1}}
    assert salient_params(nested) == nested
    assert salient_params(None) is None
    assert salient_params([1]) == [1]


def test_input_responses_digest_distinguishes_distinct_answers() -> None:
    """MRTR-DIGEST-1: different answers digest differently; equal answers digest the same."""
    a = input_responses_digest({"k": {"action": "accept", "content": {"v": 1}}})
    b = input_responses_digest({"k": {"action": "accept", "content": {"v": 2}}})
    a2 = input_responses_digest({"k": {"action": "accept", "content": {"v": 1}}})
    assert a != b
    assert a == a2


def test_input_responses_digest_is_independent_of_key_order() -> None:
    """MRTR-DIGEST-1: key order does not affect the digest."""
    first: dict[str, JSON] = {
        "a": {"action": "accept", "content": {"x": 1, "y": 2}},
        "b": {"action": "accept", "content": None},
    }
    second: dict[str, JSON] = {
        "b": {"action": "accept", "content": None},
        "a": {"action": "accept", "content": {"y": 2, "x": 1}},
    }
    assert input_responses_digest(first) == input_responses_digest(second)


@given(json_values, st.sampled_from(["tools/call", "prompts/get", "resources/read", "x"]))
def test_binding_ignores_key_order_and_answers(params: JSON, method: str) -> None:
    """MRTR-BIND-2, MRTR-BIND-3: reordering keys or answering a request keeps its binding."""
    bound = request_binding(method, params)
    assert request_binding(method, _reordered(params)) == bound
    if isinstance(params, dict):
        answered: JSON = {**params, "requestState": "v1.0.a.b", "inputResponses": {"k": 1}}
        assert request_binding(method, answered) == bound


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=8),
        lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c, max_size=3),
        max_leaves=10,
    )
)
def test_binding_matches_an_independent_float_free_construction(params: JSON) -> None:
    """MRTR-BIND-1, MRTR-BIND-3: without floats, sorted compact raw-UTF-8 json.dumps is exact."""
    salient = salient_params(params)
    text = json.dumps(salient, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=")
    assert request_binding("m", params) == "m:" + digest.decode()


def test_codes_match_the_spec_allocation() -> None:
    """MRTR-CAP-7: -32020, -32021, -32022 as neva's codes_match_the_spec_allocation pins them."""
    assert errors.HEADER_MISMATCH == -32020
    assert errors.MISSING_REQUIRED_CLIENT_CAPABILITY == -32021
    assert errors.UNSUPPORTED_PROTOCOL_VERSION == -32022
    assert (errors.PARSE_ERROR, errors.INVALID_PARAMS, errors.INTERNAL_ERROR) == (
        -32700,
        -32602,
        -32603,
    )
