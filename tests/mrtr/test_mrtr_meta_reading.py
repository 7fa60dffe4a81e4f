"""A request's ``_meta`` read once (``read_request_meta``) gives every reader the answer it
computes on its own (MRTR-RETRY-3, MRTR-RETRY-4, MRTR-CAP-8, MRTR-ROUND-3)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.mrtr._capabilities import CapabilityError, parse_capabilities
from mcp_touchstone.mrtr._meta import (
    CLIENT_CAPABILITIES_KEY,
    MetaError,
    client_capabilities,
    input_responses,
    parse_request_meta,
    read_request_meta,
    request_state,
)
from mcp_touchstone.mrtr._params import method_params_error
from mcp_touchstone.serde_json import JSON
from tests.strategies.mrtr import json_values

_CAPS: st.SearchStrategy[JSON] = st.one_of(
    st.none(),
    st.sampled_from(
        [
            {},
            {"elicitation": {}},
            {"elicitation": {"form": {}, "url": True}},
            {"elicitation": [True, False]},
            {"elicitation": [1, 2, 3]},
            {"sampling": {}, "roots": False},
            {"roots": []},
            {"roots": [1]},
            [{}, True, None],
            [None, None, None, None],
            "caps",
            7,
        ]
    ),
)
_MEMBERS = st.fixed_dictionaries(
    {},
    optional={
        CLIENT_CAPABILITIES_KEY: _CAPS,
        "requestState": st.one_of(st.text(max_size=3), st.none(), st.integers(0, 2)),
        "inputResponses": st.one_of(st.none(), st.just({"k": 1}), st.just([])),
        "progressToken": st.one_of(st.text(max_size=2), st.integers(-2, 2), st.floats(0, 1)),
        "io.modelcontextprotocol/logLevel": st.sampled_from(["info", "loud", None, 3]),
        "io.modelcontextprotocol/clientInfo": st.sampled_from(
            [{"name": "n", "version": "1"}, {"name": "n"}, ["n", "1"], 5]
        ),
        "traceparent": st.one_of(st.text(max_size=2), st.booleans()),
        "other": json_values,
    },
)
_META: st.SearchStrategy[JSON] = st.one_of(_MEMBERS, st.lists(json_values, max_size=3), json_values)
_PARAMS: st.SearchStrategy[JSON] = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "_meta": _META,
            "name": st.one_of(st.text(max_size=3), st.integers(0, 1)),
            "uri": st.text(max_size=3),
            "arguments": st.one_of(st.none(), st.just({}), st.just([1])),
            "requestState": st.one_of(st.text(max_size=3), st.integers(0, 1)),
            "inputResponses": st.one_of(st.just({}), st.just({"a": 1}), st.just("x")),
        },
    ),
    st.lists(st.one_of(st.text(max_size=3), _MEMBERS), max_size=3),
    st.none(),
)
_METHODS = st.sampled_from(["tools/call", "prompts/get", "resources/read", "custom/x"])


@given(_PARAMS)
def test_readers_answer_alike_with_and_without_the_reading(params: JSON) -> None:
    """MRTR-RETRY-3, MRTR-RETRY-4, MRTR-CAP-8: request_state, input_responses and
    client_capabilities given read_request_meta(params) answer as they do reading it
    themselves."""
    reading = read_request_meta(params)
    assert request_state(params, reading) == request_state(params)
    assert input_responses(params, reading) == input_responses(params)
    assert client_capabilities(params, reading) == client_capabilities(params)


@given(_METHODS, _PARAMS)
def test_params_read_is_unchanged_by_the_reading(method: str, params: JSON) -> None:
    """MRTR-ROUND-3: the params read given the reading reports the same error (code and
    serde's message) or none."""
    with_reading = method_params_error(method, params, read_request_meta(params))
    alone = method_params_error(method, params)
    assert (with_reading is None) == (alone is None)
    if with_reading is not None and alone is not None:
        assert with_reading.to_json() == alone.to_json()


@given(_META)
def test_the_meta_parse_reads_the_capabilities_once(meta: JSON) -> None:
    """MRTR-RETRY-4, MRTR-CAP-1: the typed _meta parse's capabilities are the capabilities
    parse of that member, and a refused member fails the parse with the capabilities
    message."""
    try:
        parsed = parse_request_meta(meta)
    except MetaError as exc:
        failure: str | None = str(exc)
        parsed = None
    else:
        failure = None
    if not isinstance(meta, dict) or meta.get(CLIENT_CAPABILITIES_KEY) is None:
        if parsed is not None:
            assert parsed.capabilities is None
        return
    try:
        caps = parse_capabilities(meta[CLIENT_CAPABILITIES_KEY])
    except CapabilityError:
        assert failure is not None  # a refused member fails the whole parse
        return
    if parsed is not None:
        assert parsed.capabilities == caps
