"""turbomcp's router and ``completion/complete`` parse, modelled before any handler.

Tests carry the names of the upstream functions they re-express: ``parse_complete_params`` and
``parse_uri_param`` (``dispatcher/params.rs``), the router's ``handle_request`` match
(``dispatcher/mod.rs``).
"""

from __future__ import annotations

import pytest

from mcp_touchstone.serde_json import JSON
from mcp_touchstone.visibility._dispatch import (
    Catalog,
    Dispatched,
    Listing,
    Profile,
    Refused,
    Request,
    dispatch,
)
from mcp_touchstone.visibility._policy import ProtocolVersion
from mcp_touchstone.visibility._router import (
    CompletionTarget,
    RouteError,
    parse_complete_params,
    parse_uri_param,
    route_refusal,
)

ARG: JSON = {"name": "a", "value": "b"}
ALL = tuple(ProtocolVersion)


def _invalid(message: str) -> RouteError:
    return RouteError(-32602, f"invalid params: {message}")


def _parse(serde: str) -> RouteError:
    return _invalid(f"invalid completion/complete params: {serde}")


@pytest.mark.parametrize(
    ("params", "answer"),
    [
        (None, _invalid("completion/complete requires params")),
        ({}, _parse("missing field `ref`")),
        ({"ref": {"type": "ref/prompt"}}, _parse("missing field `argument`")),
        ({"argument": ARG}, _parse("missing field `ref`")),
        ({"ref": {}, "argument": ARG}, _parse("missing field `type`")),
        (
            {"ref": {"type": 1}, "argument": ARG},
            _parse("invalid type: integer `1`, expected a string"),
        ),
        (
            {"ref": "x", "argument": ARG},
            _parse('invalid type: string "x", expected struct RawCompletionRef'),
        ),
        (
            {"ref": [], "argument": ARG},
            _parse("invalid length 0, expected struct RawCompletionRef with 3 elements"),
        ),
        (
            {"ref": ["ref/prompt", "p", None, 4], "argument": ARG},
            _parse("invalid length 4, expected fewer elements in array"),
        ),
        (
            {"ref": {"type": "ref/prompt", "name": 5}, "argument": ARG},
            _parse("invalid type: integer `5`, expected a string"),
        ),
        (
            {"ref": {"type": "ref/prompt"}, "argument": {"name": "a"}},
            _parse("missing field `value`"),
        ),
        (
            {"ref": {"type": "ref/prompt"}, "argument": ARG, "context": 3},
            _parse("invalid type: integer `3`, expected struct RawCompletionContext"),
        ),
        (
            {"ref": {"type": "ref/prompt"}, "argument": ARG, "context": {"arguments": None}},
            _parse("invalid type: null, expected a map"),
        ),
        (
            {"ref": {"type": "ref/prompt"}, "argument": ARG, "context": [{"k": "v"}]},
            _invalid("ref/prompt completion requires `name`"),
        ),
        (
            {"ref": {"type": "ref/prompt"}, "argument": ARG},
            _invalid("ref/prompt completion requires `name`"),
        ),
        (
            {"ref": {"type": "ref/resource", "name": "n"}, "argument": ARG},
            _invalid("ref/resource completion requires `uri`"),
        ),
        (
            {"ref": {"type": "ref/Prompt", "name": "n"}, "argument": ARG},
            _invalid("unknown completion ref type: ref/Prompt"),
        ),
        (
            {"ref": {"type": "ref/prompt", "name": "n"}, "argument": ARG, "context": None},
            CompletionTarget(True, "n"),
        ),
        (
            {"ref": {"type": "ref/resource", "uri": "u://{x}"}, "argument": ["a", "b"]},
            CompletionTarget(False, "u://{x}"),
        ),
        (
            {"ref": {"type": "ref/prompt", "name": "n", "extra": 1}, "argument": ARG, "x": []},
            CompletionTarget(True, "n"),
        ),
    ],
)
def test_parse_complete_params(params: JSON, answer: CompletionTarget | RouteError) -> None:
    """VIS-ROUTE-2: RawCompleteParams as serde's derive reads it, then the ref resolution."""
    assert parse_complete_params(params) == answer


def test_parse_complete_params_first_error_in_entry_order() -> None:
    """VIS-ROUTE-2: an object's entries are read in their own order; the first bad one wins."""
    bad_argument_first: JSON = {"argument": {"name": 1}, "ref": "x"}
    assert parse_complete_params(bad_argument_first) == _parse(
        "invalid type: integer `1`, expected a string"
    )


@pytest.mark.parametrize("method", ["resources/subscribe", "resources/unsubscribe"])
def test_parse_uri_param(method: str) -> None:
    """VIS-ROUTE-1: the legacy subscribe pair parse RawReadResourceParams, naming the method."""
    assert parse_uri_param(None, method) == _invalid(f"{method} requires params")
    assert parse_uri_param({}, method) == _invalid(f"invalid {method} params: missing field `uri`")
    assert parse_uri_param({"uri": "m://x"}, method) == "m://x"
    assert parse_uri_param(["m://x"], method) == "m://x"


@pytest.mark.parametrize("version", ALL)
@pytest.mark.parametrize("method", ["tools/delete", "tasks/update", "Tools/list", "", "ping "])
def test_handle_request_method_not_found(version: ProtocolVersion, method: str) -> None:
    """VIS-ROUTE-1: the router's `other => method_not_found(other)` arm, on every revision."""
    answer = route_refusal(method, {}, version, has_resources=True, tasks_enabled=True)
    assert answer == RouteError(-32601, f"method not found: {method}")


@pytest.mark.parametrize("version", ALL)
def test_handle_request_routes_known_methods(version: ProtocolVersion) -> None:
    """VIS-ROUTE-1: methods with a router arm of their own are routed on."""
    for method in ("ping", "initialize", "server/discover", "subscriptions/listen", "tools/call"):
        assert route_refusal(method, {}, version, has_resources=True, tasks_enabled=False) is None


def test_handle_request_version_gated_arms() -> None:
    """VIS-ROUTE-1: legacy-only methods are -32601 on the draft; core Tasks need 2025-11-25
    and a task store; subscribe needs a resources handler and then its params."""
    draft, legacy, old = (
        ProtocolVersion.V2026_07_28,
        ProtocolVersion.V2025_11_25,
        ProtocolVersion.V2025_06_18,
    )
    params: JSON = {"uri": "m://x"}
    for method in ("resources/subscribe", "resources/unsubscribe", "logging/setLevel"):
        found = route_refusal(method, params, draft, has_resources=True, tasks_enabled=True)
        assert found == RouteError(-32601, f"method not found: {method}")
        assert route_refusal(method, params, legacy, has_resources=True, tasks_enabled=True) is None
    for method in ("tasks/list", "tasks/get", "tasks/cancel", "tasks/result"):
        for version, enabled in ((old, True), (draft, True), (legacy, False)):
            found = route_refusal(method, {}, version, has_resources=True, tasks_enabled=enabled)
            assert found == RouteError(-32601, f"method not found: {method}")
        assert route_refusal(method, {}, legacy, has_resources=True, tasks_enabled=True) is None
    no_resources = route_refusal(
        "resources/subscribe", {"uri": 5}, legacy, has_resources=False, tasks_enabled=False
    )
    assert no_resources == RouteError(-32601, "method not found: resources/subscribe")


def test_dispatch_answers_the_router_before_any_policy() -> None:
    """VIS-ROUTE-1, VIS-ROUTE-2: through dispatch, both profiles answer the router's and the
    parser's refusals as full JSON-RPC responses, and a well-formed completion is dispatched."""
    catalog = Catalog(tools=Listing(), resources=Listing(), prompts=Listing())
    for profile in Profile:
        unknown = dispatch(
            catalog, Request(9, "nope"), ProtocolVersion.V2025_11_25, None, profile=profile
        )
        error: JSON = {"code": -32601, "message": "method not found: nope"}
        assert unknown == Refused({"jsonrpc": "2.0", "id": 9, "error": error})
        complete = Request(2, "completion/complete", None)
        refused = dispatch(catalog, complete, ProtocolVersion.V2026_07_28, None, profile=profile)
        error = {"code": -32602, "message": "invalid params: completion/complete requires params"}
        assert refused == Refused({"jsonrpc": "2.0", "id": 2, "error": error})
        good = Request(
            3, "completion/complete", {"ref": {"type": "ref/prompt", "name": "p"}, "argument": ARG}
        )
        assert dispatch(catalog, good, ProtocolVersion.V2025_06_18, None, profile=profile) == (
            Dispatched()
        )
