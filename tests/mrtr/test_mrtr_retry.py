"""Where a retry carries its answers: neva's types/request.rs tests re-expressed
(spec/mrtr.md MRTR-RETRY-*, MRTR-CAP-8)."""

from __future__ import annotations

import pytest

from mcp_touchstone.mrtr import (
    MRTR_METHODS,
    ClientMrtrCapabilities,
    ElicitationModes,
    client_capabilities,
    input_responses,
    malformed_mrtr_error,
    request_state,
)
from mcp_touchstone.serde_json import JSON

ANSWERS: dict[str, JSON] = {"who": {"action": "accept", "content": {"name": "octocat"}}}
CAPS = "io.modelcontextprotocol/clientCapabilities"


def test_mrtr_fields_are_read_from_params_first() -> None:
    """MRTR-RETRY-3: params beat _meta; _meta is the fallback."""
    both: JSON = {
        "name": "greet",
        "requestState": "params-state",
        "inputResponses": ANSWERS,
        "_meta": {"requestState": "meta-state", "inputResponses": {"other": 1}},
    }
    assert request_state(both) == "params-state"
    assert input_responses(both) == ANSWERS
    legacy: JSON = {
        "name": "greet",
        "_meta": {"requestState": "meta-state", "inputResponses": ANSWERS},
    }
    assert request_state(legacy) == "meta-state"
    assert input_responses(legacy) == ANSWERS


def test_an_empty_params_object_shadows_meta() -> None:
    """MRTR-RETRY-3: params.inputResponses {} counts as present."""
    params: JSON = {"inputResponses": {}, "_meta": {"inputResponses": ANSWERS}}
    assert input_responses(params) == {}


def test_absent_everywhere_reads_none() -> None:
    """MRTR-RETRY-3: no field in either location reads as absent."""
    assert request_state({"name": "t"}) is None
    assert input_responses({"name": "t"}) is None
    assert request_state(None) is None
    assert input_responses([1, 2]) is None


def test_the_meta_fallback_needs_the_whole_meta_to_parse() -> None:
    """MRTR-RETRY-4: a malformed modelled _meta field voids the fallback."""
    bad_metas: list[dict[str, JSON]] = [
        {"io.modelcontextprotocol/clientInfo": {"name": "c"}},
        {"io.modelcontextprotocol/logLevel": "loud"},
        {"progressToken": [1]},
        {"progressToken": 1.5},
        {"progressToken": True},
        {CAPS: {"roots": 5}},
        {"traceparent": 7},
        {"io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1", "icons": {}}},
        {"io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1", "icons": [{}]}},
        {
            "io.modelcontextprotocol/clientInfo": {
                "name": "c",
                "version": "1",
                "icons": [{"src": "i.png", "sizes": "48x48"}],
            }
        },
        {
            "io.modelcontextprotocol/clientInfo": {
                "name": "c",
                "version": "1",
                "icons": [{"src": "i.png", "theme": "sepia"}],
            }
        },
        {"io.modelcontextprotocol/clientInfo": ["c", "1"]},
    ]
    for bad in bad_metas:
        meta: JSON = {**bad, "requestState": "s", "inputResponses": ANSWERS}
        assert request_state({"_meta": meta}) is None, bad
        assert input_responses({"_meta": meta}) is None, bad
    fine: JSON = {
        "progressToken": "p",
        "io.modelcontextprotocol/logLevel": "info",
        "requestState": "s",
    }
    assert request_state({"_meta": fine}) == "s"
    icons: JSON = {
        "io.modelcontextprotocol/clientInfo": {
            "name": "c",
            "version": "1",
            "icons": [
                {"src": "i.png", "sizes": ["48x48", "any", "junk"], "theme": "dark"},
                ["image/png", None, "j.png", "light"],
            ],
        },
        "requestState": "s",
    }
    assert request_state({"_meta": icons}) == "s"


def test_the_meta_reads_the_struct_sequence_form() -> None:
    """MRTR-RETRY-4: RequestParamsMeta (and clientInfo) also read serde's sequence form:
    all ten fields in declared order, inputResponses and requestState included."""
    caps: JSON = {"roots": {}}
    seq: list[JSON] = [7, None, None, None, ["c", "1", None], ANSWERS, "s", "info", "v", caps]
    assert request_state({"_meta": seq}) == "s"
    assert input_responses({"_meta": seq}) == ANSWERS
    assert client_capabilities({"_meta": seq}) == ClientMrtrCapabilities(roots=True)
    for short in (seq[:9], seq[:6], [], [*seq, None]):
        assert request_state({"_meta": short}) is None, short
        assert client_capabilities({"_meta": short}) == ClientMrtrCapabilities()


@pytest.mark.parametrize("bad", [42, {"a": 1}, ["x"], None, True])
def test_a_mrtr_field_of_the_wrong_type_is_rejected(bad: JSON) -> None:
    """MRTR-RETRY-2: a wrongly typed requestState (null included) is -32602 in either location."""
    cases: list[JSON] = [{"requestState": bad}, {"_meta": {"requestState": bad}}]
    for params in cases:
        err = malformed_mrtr_error("tools/call", params)
        assert err is not None
        assert err.to_json() == {
            "code": -32602,
            "message": "`requestState` must be a string",
            "data": None,
        }


@pytest.mark.parametrize("bad", [42, "x", ["x"], None, False])
def test_input_responses_of_the_wrong_type_are_rejected(bad: JSON) -> None:
    """MRTR-RETRY-2: a non-object inputResponses (null included) is -32602 in either location."""
    cases: list[JSON] = [{"inputResponses": bad}, {"_meta": {"inputResponses": bad}}]
    for params in cases:
        err = malformed_mrtr_error("prompts/get", params)
        assert err is not None
        assert (err.code, err.message) == (-32602, "`inputResponses` must be an object")


def test_params_are_checked_before_meta_and_state_before_answers() -> None:
    """MRTR-RETRY-2: check order: params then _meta, requestState then inputResponses."""
    err = malformed_mrtr_error(
        "resources/read",
        {"inputResponses": 1, "requestState": 2, "_meta": {"requestState": 3}},
    )
    assert err is not None
    assert err.message == "`requestState` must be a string"
    err = malformed_mrtr_error(
        "resources/read", {"inputResponses": 1, "_meta": {"requestState": 3}}
    )
    assert err is not None
    assert err.message == "`inputResponses` must be an object"


def test_a_bad_params_value_next_to_a_good_meta_one_is_rejected() -> None:
    """MRTR-RETRY-2: one malformed location is enough, whichever it is."""
    assert (
        malformed_mrtr_error("tools/call", {"requestState": 1, "_meta": {"requestState": "ok"}})
        is not None
    )
    assert (
        malformed_mrtr_error(
            "tools/call", {"requestState": "ok", "_meta": {"inputResponses": "nope"}}
        )
        is not None
    )
    assert (
        malformed_mrtr_error(
            "tools/call",
            {"requestState": "ok", "inputResponses": {}, "_meta": {"requestState": "s"}},
        )
        is None
    )


def test_a_custom_method_owns_its_own_params() -> None:
    """MRTR-RETRY-1: only the three MRTR methods judge these fields."""
    assert sorted(MRTR_METHODS) == ["prompts/get", "resources/read", "tools/call"]
    params: JSON = {"requestState": 42, "inputResponses": ["x"]}
    assert malformed_mrtr_error("custom/echo", params) is None
    assert malformed_mrtr_error("tools/list", params) is None
    assert malformed_mrtr_error("tools/call", params) is not None


def test_capabilities_are_read_from_the_typed_meta() -> None:
    """MRTR-CAP-8: a _meta that fails its typed parse declares nothing, without an error."""
    good: JSON = {"_meta": {CAPS: {"elicitation": {"form": {}}}}}
    assert client_capabilities(good) == ClientMrtrCapabilities(ElicitationModes(form=True))
    voided: JSON = {"_meta": {CAPS: {"elicitation": {}}, "io.modelcontextprotocol/clientInfo": {}}}
    assert client_capabilities(voided) == ClientMrtrCapabilities()
    bad_caps: JSON = {"_meta": {CAPS: {"sampling": "yes"}}}
    assert client_capabilities(bad_caps) == ClientMrtrCapabilities()
    assert client_capabilities(None) == ClientMrtrCapabilities()
