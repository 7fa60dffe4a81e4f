"""Client capabilities and the gate: neva's types/mrtr.rs tests re-expressed
(spec/mrtr.md MRTR-CAP-*)."""

from __future__ import annotations

import pytest
from hypothesis import given

from mcp_touchstone.mrtr import (
    CapabilityError,
    ClientMrtrCapabilities,
    ElicitationModes,
    InputRequest,
    decode_input_request,
    missing_capability_error,
    parse_capabilities,
)
from mcp_touchstone.serde_json import JSON
from tests.strategies.mrtr import json_values

FORM = decode_input_request(
    {
        "method": "elicitation/create",
        "params": {"message": "m", "requestedSchema": {"properties": {}}},
    }
)
URL = decode_input_request(
    {
        "method": "elicitation/create",
        "params": {"message": "m", "mode": "url", "url": "https://e.io"},
    }
)
SAMPLING = decode_input_request(
    {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 1}}
)
ROOTS = decode_input_request({"method": "roots/list"})


def test_client_capabilities_read_the_spec_object_shape() -> None:
    """MRTR-CAP-1, MRTR-CAP-2: object-shaped capabilities with sub-capabilities all declare."""
    caps = parse_capabilities(
        {
            "elicitation": {"form": {}, "url": {}},
            "sampling": {"context": {}, "tools": {}},
            "roots": {},
        }
    )
    assert caps == ClientMrtrCapabilities(ElicitationModes(form=True, url=True), True, True)


def test_client_capabilities_read_the_legacy_boolean_shape() -> None:
    """MRTR-CAP-2: a bare true names no mode and so rules none out."""
    caps = parse_capabilities({"elicitation": True, "sampling": False})
    assert caps.elicitation is not None
    assert caps.elicitation.unconstrained()
    assert not caps.sampling
    assert not caps.roots


def test_absent_and_null_client_capabilities_declare_nothing() -> None:
    """MRTR-CAP-1: {} and nulls declare nothing."""
    assert parse_capabilities({}) == ClientMrtrCapabilities()
    assert parse_capabilities({"elicitation": None, "roots": None}) == ClientMrtrCapabilities()


def test_client_capabilities_write_the_spec_object_shape() -> None:
    """MRTR-CAP-6: declared flags are written as {}, undeclared ones are omitted."""
    caps = ClientMrtrCapabilities(elicitation=ElicitationModes(), roots=True)
    assert caps.to_json() == {"elicitation": {}, "roots": {}}
    formal = ClientMrtrCapabilities(elicitation=ElicitationModes(form=True))
    assert formal.to_json() == {"elicitation": {"form": {}}}


def test_client_capabilities_roundtrip() -> None:
    """MRTR-CAP-6, MRTR-CAP-1: writing then reading keeps the flags."""
    caps = ClientMrtrCapabilities(ElicitationModes(form=True, url=True), sampling=True)
    assert parse_capabilities(caps.to_json()) == caps


def test_capabilities_decode_from_an_older_peer() -> None:
    """MRTR-CAP-2: only elicitation: true; the default set writes as {}."""
    caps = parse_capabilities({"elicitation": True})
    assert caps.elicitation is not None
    assert not caps.sampling
    assert not caps.roots
    assert ClientMrtrCapabilities().to_json() == {}


def test_doctests() -> None:
    """MRTR-CAP-4: the two upstream doctests (form named; {} unconstrained)."""
    caps = parse_capabilities({"elicitation": {"form": {}}, "roots": {}})
    assert caps.to_json() == {"elicitation": {"form": {}}, "roots": {}}
    assert parse_capabilities({"elicitation": {}}).elicitation == ElicitationModes()
    assert ElicitationModes().unconstrained()


def test_capabilities_gate_each_kind_independently() -> None:
    """MRTR-CAP-5: elicitation alone does not allow sampling; all flags do."""
    only_elicitation = ClientMrtrCapabilities(elicitation=ElicitationModes())
    assert only_elicitation.allows(FORM)
    assert not only_elicitation.allows(SAMPLING)
    assert not only_elicitation.allows(ROOTS)
    everything = ClientMrtrCapabilities(ElicitationModes(), sampling=True, roots=True)
    assert everything.allows(SAMPLING)
    assert everything.allows(ROOTS)


def test_a_named_elicitation_mode_is_the_only_one_allowed() -> None:
    """MRTR-CAP-4, MRTR-CAP-6: form-only refuses url; unstated allows both; required names url."""
    forms_only = ClientMrtrCapabilities(elicitation=ElicitationModes(form=True))
    assert forms_only.allows(FORM)
    assert not forms_only.allows(URL)
    unstated = ClientMrtrCapabilities(elicitation=ElicitationModes())
    assert unstated.allows(FORM)
    assert unstated.allows(URL)
    required = ClientMrtrCapabilities.requiring(URL).elicitation
    assert required == ElicitationModes(form=False, url=True)


@pytest.mark.parametrize(
    ("request_", "required"),
    [
        (FORM, {"elicitation": {"form": {}}}),
        (URL, {"elicitation": {"url": {}}}),
        (SAMPLING, {"sampling": {}}),
        (ROOTS, {"roots": {}}),
    ],
)
def test_requiring_names_the_kind_and_mode(request_: InputRequest, required: JSON) -> None:
    """MRTR-CAP-6: requiredCapabilities for each kind, asked of the class or of any instance
    (``requiring`` is a static method: the instance's own declarations do not enter)."""
    assert ClientMrtrCapabilities.requiring(request_).to_json() == required
    assert ClientMrtrCapabilities(sampling=True).requiring(request_).to_json() == required


def test_missing_capability_error_names_the_first_offender() -> None:
    """MRTR-CAP-7: -32021 with the exact message and data, first refused request in ask order."""
    caps = ClientMrtrCapabilities(elicitation=ElicitationModes(form=True))
    assert missing_capability_error(caps, [FORM, ROOTS]) is not None
    err = missing_capability_error(caps, [FORM, SAMPLING, URL])
    assert err is not None
    assert err.to_json() == {
        "code": -32021,
        "message": (
            "server requested `sampling/createMessage` but the client did not declare support"
        ),
        "data": {"requiredCapabilities": {"sampling": {}}},
    }
    assert missing_capability_error(caps, [FORM]) is None
    none = missing_capability_error(ClientMrtrCapabilities(), [FORM])
    assert none is not None
    assert none.data == {"requiredCapabilities": {"elicitation": {"form": {}}}}


@given(json_values)
def test_parse_is_total_with_a_typed_error(value: JSON) -> None:
    """MRTR-CAP-1, MRTR-CAP-3: any JSON value either parses or raises CapabilityError."""
    try:
        caps = parse_capabilities(value)
    except CapabilityError:
        return
    assert parse_capabilities(caps.to_json()) == caps
