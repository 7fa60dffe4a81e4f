"""The dispatcher layer through the API: the turbomcp integration tests (tests/visibility.rs)
re-expressed, plus pagination, list errors and parse messages."""

from __future__ import annotations

from mcp_touchstone._serde import unexpected
from mcp_touchstone.serde_json import JSON
from mcp_touchstone.visibility import (
    IDENTITY_KEY,
    TAGS_KEY,
    Catalog,
    ComponentKind,
    Dispatched,
    Entry,
    Listed,
    Listing,
    Page,
    ProtocolVersion,
    Refused,
    Request,
    RequestContext,
    RpcError,
    Visibility,
    VisibleComponent,
    dispatch,
    filter_entries,
)

DRAFT = ProtocolVersion.V2026_07_28
LEGACY = ProtocolVersion.V2025_11_25
INTERNAL: dict[str, JSON] = {TAGS_KEY: ["internal"]}


def entry(ident: str, meta: dict[str, JSON] | None = None) -> Entry:
    """A listed component whose wire form is just its id."""
    return Entry(ident, meta or {}, {"id": ident})


def one_page(*items: Entry) -> Listing:
    """A single-page listing."""
    return Listing((Page(items),))


CATALOG = Catalog(
    tools=one_page(
        entry("read"),
        entry("rotate_keys", INTERNAL),
        entry("wipe", {"io.turbomcp/scopes": ["admin"]}),
    ),
    resources=one_page(entry("catalog://public"), entry("catalog://secret", INTERNAL)),
    resource_templates=one_page(entry("catalog://vault/{+path}", INTERNAL)),
    prompts=one_page(entry("debug_prompt", INTERNAL), entry("summarize")),
)
"""The Catalog server of turbomcp's tests/visibility.rs."""


def as_caller(method: str, params: dict[str, JSON], scopes: str = "") -> Request:
    """A request as alice holding ``scopes`` (empty means anonymous), like the upstream helper."""
    body = dict(params)
    if scopes:
        body["_meta"] = {IDENTITY_KEY: {"sub": "alice", "claims": {"scope": scopes}}}
    return Request(1, method, body)


def ids(outcome: object) -> list[str]:
    """The ids a Listed outcome holds."""
    assert isinstance(outcome, Listed)
    return [e.id for e in outcome.items]


HIDES_INTERNAL = Visibility().hiding_tagged(["internal"])


def test_without_a_policy_everything_is_visible() -> None:
    """visibility.rs without_a_policy_everything_is_visible (VIS-LIST-2)."""
    out = dispatch(CATALOG, as_caller("tools/list", {}), DRAFT, None)
    assert ids(out) == ["read", "rotate_keys", "wipe"]


def test_a_hidden_tool_is_absent_and_unreachable() -> None:
    """visibility.rs a_hidden_tool_is_absent_and_unreachable (VIS-LIST-1, VIS-CALL-2,
    VIS-REFUSE-1)."""
    listed = dispatch(CATALOG, as_caller("tools/list", {}, "read"), DRAFT, HIDES_INTERNAL)
    assert "rotate_keys" not in ids(listed)
    hidden = dispatch(
        CATALOG, as_caller("tools/call", {"name": "rotate_keys"}, "read"), DRAFT, HIDES_INTERNAL
    )
    assert isinstance(hidden, Refused)
    result = hidden.response["result"]
    assert isinstance(result, dict)
    assert result["isError"] is True
    assert result["content"] == [{"type": "text", "text": "unknown tool: rotate_keys"}]
    visible = dispatch(
        CATALOG, as_caller("tools/call", {"name": "read"}, "read"), DRAFT, HIDES_INTERNAL
    )
    assert visible == Dispatched()


def test_declared_scopes_now_filter_the_list_too() -> None:
    """visibility.rs declared_scopes_now_filter_the_list_too (VIS-POL-3, VIS-ORDER-1)."""
    policy = Visibility().requiring_declared_scopes()
    assert "wipe" not in ids(dispatch(CATALOG, as_caller("tools/list", {}, "read"), DRAFT, policy))
    refused = dispatch(CATALOG, as_caller("tools/call", {"name": "wipe"}, "read"), DRAFT, policy)
    assert isinstance(refused, Refused)
    assert "unknown tool: wipe" in str(refused.response)
    assert "wipe" in ids(
        dispatch(CATALOG, as_caller("tools/list", {}, "read admin"), DRAFT, policy)
    )
    call = as_caller("tools/call", {"name": "wipe"}, "read admin")
    assert dispatch(CATALOG, call, DRAFT, policy) == Dispatched()


def test_resources_templates_and_prompts_are_filtered_too() -> None:
    """visibility.rs resources_templates_and_prompts_are_filtered_too (VIS-LIST-1)."""
    assert ids(dispatch(CATALOG, as_caller("resources/list", {}), DRAFT, HIDES_INTERNAL)) == [
        "catalog://public"
    ]
    templates = dispatch(CATALOG, as_caller("resources/templates/list", {}), DRAFT, HIDES_INTERNAL)
    assert ids(templates) == []
    prompts = dispatch(CATALOG, as_caller("prompts/list", {}), DRAFT, HIDES_INTERNAL)
    assert ids(prompts) == ["summarize"]


def test_a_hidden_resource_and_its_templates_uris_are_not_readable() -> None:
    """visibility.rs a_hidden_resource_and_its_templates_uris_are_not_readable (VIS-CALL-4,
    VIS-REFUSE-3)."""
    for uri in ("catalog://secret", "catalog://vault/keys.txt"):
        out = dispatch(CATALOG, as_caller("resources/read", {"uri": uri}), DRAFT, HIDES_INTERNAL)
        assert isinstance(out, Refused)
        assert out.response["error"] == {"code": -32602, "message": f"resource not found: {uri}"}
    public = as_caller("resources/read", {"uri": "catalog://public"})
    assert dispatch(CATALOG, public, DRAFT, HIDES_INTERNAL) == Dispatched()


def test_a_hidden_prompt_is_not_gettable() -> None:
    """visibility.rs a_hidden_prompt_is_not_gettable (VIS-CALL-3, VIS-REFUSE-2)."""
    out = dispatch(
        CATALOG, as_caller("prompts/get", {"name": "debug_prompt"}), DRAFT, HIDES_INTERNAL
    )
    assert isinstance(out, Refused)
    error = out.response["error"]
    assert isinstance(error, dict)
    assert error["code"] == -32602
    assert str(error["message"]).endswith("unknown prompt: debug_prompt")
    summarize = as_caller("prompts/get", {"name": "summarize"})
    assert dispatch(CATALOG, summarize, DRAFT, HIDES_INTERNAL) == Dispatched()


def test_a_custom_policy_sees_the_whole_request() -> None:
    """visibility.rs a_custom_policy_sees_the_whole_request: a closure on the subject
    (VIS-POL-5)."""

    def policy(c: VisibleComponent) -> bool:
        return c.id != "rotate_keys" or c.request.identity.subject == "alice"

    assert "rotate_keys" not in ids(dispatch(CATALOG, as_caller("tools/list", {}), DRAFT, policy))
    listed = dispatch(CATALOG, as_caller("tools/list", {}, "read"), DRAFT, policy)
    assert "rotate_keys" in ids(listed)


def test_filtering_happens_on_every_revision() -> None:
    """visibility.rs filtering_happens_on_every_revision (VIS-LIST-3)."""
    for version in ProtocolVersion:
        out = dispatch(CATALOG, as_caller("tools/list", {}), version, HIDES_INTERNAL)
        assert ids(out) == ["read", "wipe"]


def test_pages_are_filtered_in_place_without_refill() -> None:
    """Only the fetched page is filtered; nextCursor is kept, an emptied page stays empty
    (VIS-LIST-1)."""
    listing = Listing(
        (
            Page((entry("a", INTERNAL),), None, "c1"),
            Page((entry("b"), entry("c", INTERNAL)), "c1", None),
        )
    )
    catalog = Catalog(tools=listing)
    first = dispatch(catalog, Request(1, "tools/list", None), LEGACY, HIDES_INTERNAL)
    assert first == Listed(ComponentKind.TOOL, (), "c1")
    second = dispatch(catalog, Request(1, "tools/list", {"cursor": "c1"}), LEGACY, HIDES_INTERNAL)
    assert second == Listed(ComponentKind.TOOL, (entry("b"),), None)


def test_list_errors_pass_through_and_unregistered_lists_are_method_not_found() -> None:
    """A failing list answers its error unfiltered; no handler is -32601 (VIS-LIST-3)."""
    failing = Catalog(tools=Listing(error=RpcError(-32603, "internal error: boom")))
    out = dispatch(failing, Request(7, "tools/list"), LEGACY, HIDES_INTERNAL)
    assert out == Refused(
        {"jsonrpc": "2.0", "id": 7, "error": {"code": -32603, "message": "internal error: boom"}}
    )
    missing = dispatch(Catalog(), Request(8, "prompts/list"), LEGACY, None)
    assert missing == Refused(
        {
            "jsonrpc": "2.0",
            "id": 8,
            "error": {"code": -32601, "message": "method not found: prompts/list"},
        }
    )


def test_turbomcp_check_fails_open_on_list_errors() -> None:
    """A list error during the call check means not hidden (VIS-CALL-2)."""
    failing = Catalog(tools=Listing(error=RpcError(-32603, "internal error: boom")))
    out = dispatch(failing, Request(1, "tools/call", {"name": "x"}), LEGACY, HIDES_INTERNAL)
    assert out == Dispatched()


def test_serde_unexpected_texts() -> None:
    """serde_json names wrong-typed values as the upstream messages do (VIS-PARSE-2)."""
    assert unexpected(None) == "null"
    assert unexpected(False) == "boolean `false`"
    assert unexpected(-3) == "integer `-3`"
    assert unexpected(1e20) == "floating point `1e+20`"
    assert unexpected(-0.0) == "floating point `-0.0`"
    assert unexpected("a\tb\u0007") == 'string "a\\tb\\u{7}"'
    assert unexpected("e\u0301\u00ad\u200b x") == 'string "e\\u{301}\\u{ad}\\u{200b} x"'
    assert unexpected("\u00e9\u4e2d") == 'string "\u00e9\u4e2d"'
    assert unexpected([]) == "sequence"
    assert unexpected({}) == "map"


def _error_message(outcome: object) -> str:
    """The error message of a refused outcome."""
    assert isinstance(outcome, Refused)
    error = outcome.response["error"]
    assert isinstance(error, dict)
    return str(error["message"])


def test_absent_params_at_the_dispatch_layer() -> None:
    """dispatch_capability's own answer for absent params: '<method> requires params'
    (VIS-PARSE-1); the harness never gets here because routing stamps params in."""
    for method in ("tools/call", "prompts/get", "resources/read"):
        out = dispatch(CATALOG, Request(1, method, None), DRAFT, HIDES_INTERNAL)
        assert _error_message(out) == f"invalid params: {method} requires params"


def test_positional_params_at_the_dispatch_layer() -> None:
    """serde's derive reads array params positionally, with its own length messages
    (VIS-PARSE-3, VIS-PARSE-2)."""
    pe = "invalid params: invalid tools/call params: "
    hidden = dispatch(CATALOG, Request(1, "tools/call", ["rotate_keys"]), LEGACY, HIDES_INTERNAL)
    assert isinstance(hidden, Refused)
    assert "unknown tool: rotate_keys" in str(hidden.response)
    shown = dispatch(CATALOG, Request(1, "tools/call", ["read", {}]), LEGACY, HIDES_INTERNAL)
    assert shown == Dispatched()
    empty = dispatch(CATALOG, Request(1, "tools/call", []), LEGACY, HIDES_INTERNAL)
    assert _error_message(empty) == (
        pe + "invalid length 0, expected struct RawCallToolParams with 2 elements"
    )
    long = dispatch(CATALOG, Request(1, "tools/call", ["read", {}, 1]), LEGACY, HIDES_INTERNAL)
    assert _error_message(long) == pe + "invalid length 3, expected fewer elements in array"
    prompt = dispatch(CATALOG, Request(1, "prompts/get", []), LEGACY, HIDES_INTERNAL)
    assert _error_message(prompt) == (
        "invalid params: invalid prompts/get params: "
        "invalid length 0, expected struct RawGetPromptParams with 2 elements"
    )
    read = dispatch(CATALOG, Request(1, "resources/read", []), LEGACY, HIDES_INTERNAL)
    assert _error_message(read) == (
        "invalid params: invalid resources/read params: "
        "invalid length 0, expected struct RawReadResourceParams with 1 element"
    )
    bad_args = dispatch(CATALOG, Request(1, "tools/call", ["read", 5]), LEGACY, HIDES_INTERNAL)
    assert _error_message(bad_args) == pe + "invalid type: integer `5`, expected a map"
    scalar = dispatch(CATALOG, Request(1, "prompts/get", 3), LEGACY, HIDES_INTERNAL)
    assert _error_message(scalar) == (
        "invalid params: invalid prompts/get params: "
        "invalid type: integer `3`, expected struct RawGetPromptParams"
    )


def test_a_visibility_subclass_keeps_its_own_verdict() -> None:
    """The dispatcher's fast path is for the built-in policy only: a subclass that overrides
    the verdict is still consulted per component (VIS-POL-5)."""

    class HideRead(Visibility):
        def __call__(self, component: VisibleComponent, /) -> bool:
            return component.id != "read"

    out = dispatch(CATALOG, as_caller("tools/list", {}), DRAFT, HideRead())
    assert ids(out) == ["rotate_keys", "wipe"]
    refused = dispatch(CATALOG, as_caller("tools/call", {"name": "read"}), DRAFT, HideRead())
    assert isinstance(refused, Refused)


def test_filtering_a_list_leaves_only_what_is_visible() -> None:
    """visibility.rs filtering_a_list_leaves_only_what_is_visible: the filter keeps order and
    drops only the hidden entries (VIS-LIST-1)."""
    items = (entry("wipe", INTERNAL), entry("read"))
    kept = filter_entries(HIDES_INTERNAL, ComponentKind.TOOL, items, RequestContext())
    assert [e.id for e in kept] == ["read"]
    assert filter_entries(None, ComponentKind.TOOL, items, RequestContext()) == items


def test_propagated_meta_leaves_out_framework_keys() -> None:
    """A policy sees only the client's own request _meta keys: the framework-consumed ones and
    every io.turbomcp.internal/* key are partitioned out (VIS-POL-7)."""
    seen: list[dict[str, JSON]] = []

    def policy(c: VisibleComponent) -> bool:
        seen.append(dict(c.request.propagated_meta))
        return True

    meta: dict[str, JSON] = {
        "io.modelcontextprotocol/protocolVersion": "2025-11-25",
        "progressToken": 7,
        "traceparent": "00-abc-def-01",
        "tracestate": "x",
        "baggage": "k=v",
        "io.modelcontextprotocol/subscriptionId": "s",
        "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/logLevel": "debug",
        "io.turbomcp.internal/sessionId": "s-1",
        IDENTITY_KEY: {"sub": "alice", "claims": {}},
        "com.acme/tenant": "t-42",
    }
    dispatch(CATALOG, Request(1, "tools/list", {"_meta": meta}), LEGACY, policy)
    assert seen
    assert all(s == {"com.acme/tenant": "t-42"} for s in seen)


def test_a_wrong_jsonrpc_version_is_refused_before_anything_else() -> None:
    """A declared jsonrpc other than 2.0 is -32600 whatever the method, params or policy; an
    omitted one counts as 2.0 (VIS-PRE-1)."""
    expected = Refused(
        {
            "jsonrpc": "2.0",
            "id": 3,
            "error": {"code": -32600, "message": 'invalid jsonrpc version (expected "2.0")'},
        }
    )
    cases: tuple[tuple[str, JSON], ...] = (
        ("tools/call", {"name": "rotate_keys"}),
        ("tools/call", {"name": "no_such_tool"}),
        ("tools/list", None),
        ("prompts/get", "not an object"),
    )
    for method, params in cases:
        request = Request(3, method, params, jsonrpc="1.0")
        assert dispatch(CATALOG, request, DRAFT, HIDES_INTERNAL) == expected
        assert dispatch(CATALOG, request, DRAFT, None) == expected
    assert dispatch(CATALOG, Request(3, "tools/list"), DRAFT, HIDES_INTERNAL) != expected


def test_an_unrecognized_draft_log_level_is_refused_before_visibility() -> None:
    """On 2026-07-28 a version-gated request with a bad logLevel is -32602 before the list or
    the check (a name, or serde's {"name": null} map form, is good); the 2025 revisions and
    ungated methods ignore the key (VIS-PRE-2)."""

    def with_level(method: str, params: dict[str, JSON], level: JSON) -> Request:
        return Request(5, method, {**params, "_meta": {"io.modelcontextprotocol/logLevel": level}})

    call = with_level("tools/call", {"name": "rotate_keys"}, "verbose")
    assert _error_message(dispatch(CATALOG, call, DRAFT, HIDES_INTERNAL)) == (
        'invalid params: invalid logLevel: "verbose"'
    )
    listed = with_level("tools/list", {}, {"z": 1, "a": None})
    assert _error_message(dispatch(CATALOG, listed, DRAFT, None)) == (
        'invalid params: invalid logLevel: {"z":1,"a":null}'
    )
    names = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
    map_forms: list[JSON] = [{name: None} for name in names]
    goods: list[JSON] = [*names, *map_forms]
    for level in goods:
        ok = dispatch(CATALOG, with_level("tools/list", {}, level), DRAFT, HIDES_INTERNAL)
        assert isinstance(ok, Listed)
    bads: list[JSON] = [{"debug": 1}, {"debug": None, "info": None}, {}, ["debug"], "Debug"]
    for bad in bads:
        out = dispatch(CATALOG, with_level("tools/list", {}, bad), DRAFT, HIDES_INTERNAL)
        assert _error_message(out).startswith("invalid params: invalid logLevel: ")
    legacy = dispatch(CATALOG, call, LEGACY, HIDES_INTERNAL)
    assert isinstance(legacy, Refused)
    assert "unknown tool: rotate_keys" in str(legacy.response)
    assert dispatch(CATALOG, with_level("ping", {}, "verbose"), DRAFT, None) == Dispatched()


def test_params_fields_are_read_in_the_objects_own_order() -> None:
    """serde_json is built with preserve_order, so the first bad field in the object's own
    order is the one reported, not the first in sorted order (VIS-PARSE-1, VIS-PARSE-2)."""
    pe = "invalid params: invalid tools/call params: "
    name_first = Request(1, "tools/call", {"name": 2, "arguments": 1})
    assert _error_message(dispatch(CATALOG, name_first, DRAFT, HIDES_INTERNAL)) == (
        pe + "invalid type: integer `2`, expected a string"
    )
    arguments_first = Request(1, "tools/call", {"arguments": 1, "name": 2})
    assert _error_message(dispatch(CATALOG, arguments_first, DRAFT, HIDES_INTERNAL)) == (
        pe + "invalid type: integer `1`, expected a map"
    )


def test_a_cursor_no_page_carries_gets_an_empty_final_page() -> None:
    """VIS-LIST-1: a list asked for a cursor none of its pages carries answers an empty final
    page echoing that cursor."""
    listing = Listing((Page((), None, "c1"), Page((), "c1", None)))
    assert listing.fetch("c1") == Page((), "c1", None)
    assert listing.fetch("zz") == Page((), "zz", None)
    assert Listing(()).fetch(None) == Page((), None, None)


def test_deserialize_struct_returns_the_map_fields_it_read() -> None:
    """VIS-PARSE-3: ``deserialize_struct`` returns every field present, a map field as written,
    from the map form and the positional form alike, and leaves an absent defaulted field out."""
    from mcp_touchstone.visibility._serde import Field, FieldKind, deserialize_struct

    call = (
        Field("name", FieldKind.STRING, False),
        Field("arguments", FieldKind.MAP_OF_VALUES, True),
    )
    prompt = (
        Field("name", FieldKind.STRING, False),
        Field("arguments", FieldKind.MAP_OF_STRINGS, True),
    )
    arguments: JSON = {"a": 1, "b": [True, None]}
    assert deserialize_struct("RawCallToolParams", call, {"name": "t", "arguments": arguments}) == {
        "name": "t",
        "arguments": {"a": 1, "b": [True, None]},
    }
    assert deserialize_struct("RawCallToolParams", call, ["t", {"x": {}}]) == {
        "name": "t",
        "arguments": {"x": {}},
    }
    assert deserialize_struct(
        "RawGetPromptParams", prompt, {"arguments": {"k": "v"}, "name": "p"}
    ) == {
        "arguments": {"k": "v"},
        "name": "p",
    }
    assert deserialize_struct("RawCallToolParams", call, {"name": "t"}) == {"name": "t"}
