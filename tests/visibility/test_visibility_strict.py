"""The strict profile: each hole of the turbomcp profile shown leaking there and closed in strict
(VIS-STRICT-*), plus the turbomcp-only Tasks and pass-through paths."""

from __future__ import annotations

from mcp_touchstone.serde_json import JSON
from mcp_touchstone.visibility import (
    TAGS_KEY,
    Catalog,
    Dispatched,
    Entry,
    Listed,
    Listing,
    Page,
    Profile,
    ProtocolVersion,
    Refused,
    Request,
    RpcError,
    Visibility,
    dispatch,
)

DRAFT = ProtocolVersion.V2026_07_28
LEGACY = ProtocolVersion.V2025_11_25
OLD = ProtocolVersion.V2025_06_18
INTERNAL: dict[str, JSON] = {TAGS_KEY: ["internal"]}
POLICY = Visibility().hiding_tagged(["internal"])
STRICT = Profile.STRICT


def entry(ident: str, meta: dict[str, JSON] | None = None) -> Entry:
    """A listed component whose wire form is just its id."""
    return Entry(ident, meta or {}, {"id": ident})


def one_page(*items: Entry) -> Listing:
    """A single-page listing."""
    return Listing((Page(items),))


CATALOG = Catalog(
    tools=one_page(entry("read"), entry("rotate_keys", INTERNAL)),
    resources=one_page(entry("mem://public"), entry("mem://secret", INTERNAL)),
    resource_templates=one_page(entry("vault://{+path}", INTERNAL), entry("open://{name}")),
    prompts=one_page(entry("debug_prompt", INTERNAL), entry("summarize")),
)


def call(name: str, **extra: JSON) -> Request:
    """A tools/call for ``name`` with extra params."""
    return Request(1, "tools/call", {"name": name, **extra})


def unknown_tool(name: str, version: ProtocolVersion = DRAFT) -> Refused:
    """The nonexistent-tool answer (VIS-REFUSE-1)."""
    result: dict[str, JSON] = {
        "content": [{"type": "text", "text": f"unknown tool: {name}"}],
        "isError": True,
    }
    if version is DRAFT:
        result["resultType"] = "complete"
    return Refused({"jsonrpc": "2.0", "id": 1, "result": result})


def error_answer(code: int, message: str) -> Refused:
    """A refusal carrying the JSON-RPC error ``code``/``message`` for request id 1."""
    return Refused({"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": message}})


def test_page_two_hidden_tool_leaks_in_turbomcp_only() -> None:
    """A hidden tool on page 2 is callable in turbomcp, refused in strict (VIS-STRICT-1,
    VIS-CALL-2)."""
    paged = Catalog(
        tools=Listing(
            (
                Page((entry("read"),), None, "p2"),
                Page((entry("rotate_keys", INTERNAL),), "p2", None),
            )
        )
    )
    assert dispatch(paged, call("rotate_keys"), DRAFT, POLICY) == Dispatched()
    strict = dispatch(paged, call("rotate_keys"), DRAFT, POLICY, profile=STRICT)
    assert strict == unknown_tool("rotate_keys")
    assert dispatch(paged, call("read"), DRAFT, POLICY, profile=STRICT) == Dispatched()


def test_page_two_visible_components_are_found_in_strict() -> None:
    """Strict walks every page for a call and for a completion: a visible tool, and a visible
    template, listed only on page 2 are found and judged (dispatched), not refused as unknown
    (VIS-STRICT-1, VIS-STRICT-2, VIS-STRICT-4)."""
    paged = Catalog(
        tools=Listing((Page((entry("read"),), None, "p2"), Page((entry("write"),), "p2", None))),
        resource_templates=Listing(
            (
                Page((entry("vault://{+path}", INTERNAL),), None, "t2"),
                Page((entry("open://{name}"),), "t2", None),
            )
        ),
    )
    assert dispatch(paged, call("write"), DRAFT, POLICY, profile=STRICT) == Dispatched()
    completion = Request(
        1,
        "completion/complete",
        {
            "ref": {"type": "ref/resource", "uri": "open://{name}"},
            "argument": {"name": "a", "value": ""},
        },
    )
    assert dispatch(paged, completion, LEGACY, POLICY, profile=STRICT) == Dispatched()


def test_profile_names_are_public_values() -> None:
    """The two profiles are named ``turbomcp`` and ``strict`` (spec/visibility.md), so a
    configuration string selects one."""
    assert Profile("turbomcp") is Profile.TURBOMCP
    assert Profile("strict") is Profile.STRICT
    assert [p.value for p in Profile] == ["turbomcp", "strict"]


def test_cursor_cycles_terminate() -> None:
    """A cursor chain that loops back is walked once (VIS-STRICT-1)."""
    looping = Catalog(
        tools=Listing((Page((entry("a"),), None, "p2"), Page((entry("b", INTERNAL),), "p2", "p2")))
    )
    assert dispatch(looping, call("b"), DRAFT, POLICY, profile=STRICT) == unknown_tool("b")


def test_unlisted_name_reaches_handler_in_turbomcp_only() -> None:
    """An unlisted (dynamic) name passes turbomcp, is refused as unknown in strict
    (VIS-STRICT-2)."""
    assert dispatch(CATALOG, call("dynamic"), DRAFT, POLICY) == Dispatched()
    strict = dispatch(CATALOG, call("dynamic"), DRAFT, POLICY, profile=STRICT)
    assert strict == unknown_tool("dynamic")
    assert dispatch(CATALOG, call("dynamic"), DRAFT, None, profile=STRICT) == Dispatched()


def test_unlisted_prompt_and_uri_refused_in_strict() -> None:
    """Unlisted prompts and URIs get the nonexistent answers in strict (VIS-STRICT-2)."""
    get = Request(1, "prompts/get", {"name": "nope"})
    assert dispatch(CATALOG, get, LEGACY, POLICY) == Dispatched()
    assert dispatch(CATALOG, get, LEGACY, POLICY, profile=STRICT) == error_answer(
        -32602, "invalid params: unknown prompt: nope"
    )
    read = Request(1, "resources/read", {"uri": "nowhere://x"})
    assert dispatch(CATALOG, read, OLD, POLICY) == Dispatched()
    assert dispatch(CATALOG, read, OLD, POLICY, profile=STRICT) == error_answer(
        -32002, "resource not found: nowhere://x"
    )
    visible_template = Request(1, "resources/read", {"uri": "open://x"})
    assert dispatch(CATALOG, visible_template, OLD, POLICY, profile=STRICT) == Dispatched()


def test_failing_or_missing_list_fails_open_in_turbomcp_closed_in_strict() -> None:
    """A list error or an unregistered list admits in turbomcp, refuses in strict
    (VIS-STRICT-3, VIS-CALL-2)."""
    broken = Catalog(tools=Listing(error=RpcError(-32603, "internal error: collision")))
    assert dispatch(broken, call("rotate_keys"), DRAFT, POLICY) == Dispatched()
    refused = dispatch(broken, call("rotate_keys"), DRAFT, POLICY, profile=STRICT)
    assert refused == unknown_tool("rotate_keys")
    assert dispatch(Catalog(), call("x"), DRAFT, POLICY) == Dispatched()
    assert dispatch(Catalog(), call("x"), DRAFT, POLICY, profile=STRICT) == unknown_tool("x")
    broken_resources = Catalog(
        resources=Listing(error=RpcError(-32603, "internal error: boom")),
        resource_templates=one_page(entry("open://{name}")),
    )
    read = Request(1, "resources/read", {"uri": "open://a"})
    assert dispatch(broken_resources, read, DRAFT, POLICY) == Dispatched()
    assert isinstance(dispatch(broken_resources, read, DRAFT, POLICY, profile=STRICT), Refused)


def test_completion_of_hidden_prompt_reaches_handler_in_turbomcp_only() -> None:
    """completion/complete is unjudged in turbomcp, judged in strict (VIS-PASS-1,
    VIS-STRICT-4)."""

    def complete(ref: dict[str, JSON]) -> Request:
        return Request(
            1, "completion/complete", {"ref": ref, "argument": {"name": "a", "value": ""}}
        )

    hidden_prompt = complete({"type": "ref/prompt", "name": "debug_prompt"})
    assert dispatch(CATALOG, hidden_prompt, DRAFT, POLICY) == Dispatched()
    assert dispatch(CATALOG, hidden_prompt, DRAFT, POLICY, profile=STRICT) == error_answer(
        -32602, "invalid params: unknown prompt: debug_prompt"
    )
    shown = complete({"type": "ref/prompt", "name": "summarize"})
    assert dispatch(CATALOG, shown, DRAFT, POLICY, profile=STRICT) == Dispatched()
    hidden_template = complete({"type": "ref/resource", "uri": "vault://{+path}"})
    assert dispatch(CATALOG, hidden_template, LEGACY, POLICY) == Dispatched()
    assert dispatch(CATALOG, hidden_template, LEGACY, POLICY, profile=STRICT) == error_answer(
        -32002, "resource not found: vault://{+path}"
    )
    shown_template = complete({"type": "ref/resource", "uri": "open://{name}"})
    assert dispatch(CATALOG, shown_template, LEGACY, POLICY, profile=STRICT) == Dispatched()
    unknown = complete({"type": "ref/resource", "uri": "gone://{x}"})
    assert isinstance(dispatch(CATALOG, unknown, LEGACY, POLICY, profile=STRICT), Refused)
    # A malformed completion never reaches the handler, in either profile (VIS-ROUTE-2).
    malformed = Request(1, "completion/complete", {"ref": "x"})
    refused = error_answer(
        -32602,
        "invalid params: invalid completion/complete params: "
        'invalid type: string "x", expected struct RawCompletionRef',
    )
    assert dispatch(CATALOG, malformed, LEGACY, POLICY, profile=STRICT) == refused
    assert dispatch(CATALOG, malformed, LEGACY, POLICY) == refused


def test_completion_with_failing_template_list_is_refused_in_strict() -> None:
    """A strict ref/resource completion whose template list fails is refused even when a
    visible concrete resource has that URI: a failing list is hidden (VIS-STRICT-3, -4)."""
    failing = Catalog(
        resources=one_page(entry("mem://public")),
        resource_templates=Listing(error=RpcError(-32603, "internal error: boom")),
    )
    ref: dict[str, JSON] = {"type": "ref/resource", "uri": "mem://public"}
    request = Request(
        1, "completion/complete", {"ref": ref, "argument": {"name": "a", "value": ""}}
    )
    assert dispatch(failing, request, LEGACY, POLICY) == Dispatched()
    assert dispatch(failing, request, LEGACY, POLICY, profile=STRICT) == error_answer(
        -32002, "resource not found: mem://public"
    )
    listed = Catalog(resources=one_page(entry("mem://public")), resource_templates=one_page())
    assert dispatch(listed, request, LEGACY, POLICY, profile=STRICT) == Dispatched()


def _strip(outcome: object, name: str) -> str:
    """The outcome's text with ``name`` replaced, to compare answers modulo the name."""
    return repr(outcome).replace(name, "NAME")


def test_request_state_oracle_in_turbomcp_closed_in_strict() -> None:
    """A bogus requestState tells hidden from nonexistent in turbomcp but not in strict
    (VIS-STATE-1, VIS-STRICT-5, VIS-ORDER-1)."""
    hidden = call("rotate_keys", requestState="bogus")
    nowhere = call("no_such_tool", requestState="bogus")
    leak_a = dispatch(CATALOG, hidden, DRAFT, POLICY)
    leak_b = dispatch(CATALOG, nowhere, DRAFT, POLICY)
    assert _strip(leak_a, "rotate_keys") != _strip(leak_b, "no_such_tool")
    closed_a = dispatch(CATALOG, hidden, DRAFT, POLICY, profile=STRICT)
    closed_b = dispatch(CATALOG, nowhere, DRAFT, POLICY, profile=STRICT)
    assert _strip(closed_a, "rotate_keys") == _strip(closed_b, "no_such_tool")


def test_visibility_is_decided_before_request_state_is_looked_at() -> None:
    """The verifier is never consulted for a hidden (or, in strict, unknown) name (VIS-ORDER-1,
    VIS-STRICT-5)."""
    consulted: list[str] = []

    def verifier(method: str, subject: str | None, token: str) -> bool:
        consulted.append(token)
        return True

    for profile in Profile:
        dispatch(
            CATALOG,
            call("rotate_keys", requestState="t1"),
            DRAFT,
            POLICY,
            profile=profile,
            verify_state=verifier,
        )
    assert consulted == []
    dispatch(
        CATALOG,
        call("no_such_tool", requestState="t2"),
        DRAFT,
        POLICY,
        profile=STRICT,
        verify_state=verifier,
    )
    assert consulted == []
    dispatch(CATALOG, call("no_such_tool", requestState="t3"), DRAFT, POLICY, verify_state=verifier)
    assert consulted == ["t3"]
    accepted = dispatch(
        CATALOG,
        call("read", requestState="t4"),
        DRAFT,
        POLICY,
        profile=STRICT,
        verify_state=verifier,
    )
    assert accepted == Dispatched()


def test_tasks_paths_skip_the_policy_in_turbomcp_only() -> None:
    """2025-11-25 with Tasks: unfiltered list and unchecked task call in turbomcp; strict checks
    both; other revisions are unaffected (VIS-TASK-1, VIS-STRICT-6)."""
    tools_list = Request(1, "tools/list")
    listed = dispatch(CATALOG, tools_list, LEGACY, POLICY, tasks_enabled=True)
    assert isinstance(listed, Listed)
    assert [e.id for e in listed.items] == ["read", "rotate_keys"]
    strict_list = dispatch(CATALOG, tools_list, LEGACY, POLICY, profile=STRICT, tasks_enabled=True)
    assert isinstance(strict_list, Listed)
    assert [e.id for e in strict_list.items] == ["read"]
    task_call = call("rotate_keys", task=None)
    assert dispatch(CATALOG, task_call, LEGACY, POLICY, tasks_enabled=True) == Dispatched()
    strict_call = dispatch(CATALOG, task_call, LEGACY, POLICY, profile=STRICT, tasks_enabled=True)
    assert strict_call == unknown_tool("rotate_keys", LEGACY)
    for version in (OLD, DRAFT):
        out = dispatch(CATALOG, task_call, version, POLICY, tasks_enabled=True)
        assert out == unknown_tool("rotate_keys", version)
    plain_call = dispatch(CATALOG, call("rotate_keys"), LEGACY, POLICY, tasks_enabled=True)
    assert plain_call == unknown_tool("rotate_keys", LEGACY)


def test_subscribing_to_a_hidden_resource_passes_in_turbomcp_only() -> None:
    """resources/subscribe is unjudged in turbomcp; strict refuses hidden and unknown URIs
    alike and lets visible ones through (VIS-PASS-1, VIS-STRICT-7)."""
    hidden = Request(1, "resources/subscribe", {"uri": "mem://secret"})
    unknown = Request(1, "resources/subscribe", {"uri": "mem://nope"})
    shown = Request(1, "resources/subscribe", {"uri": "mem://public"})
    assert dispatch(CATALOG, hidden, LEGACY, POLICY) == Dispatched()
    refused_hidden = dispatch(CATALOG, hidden, LEGACY, POLICY, profile=STRICT)
    refused_unknown = dispatch(CATALOG, unknown, LEGACY, POLICY, profile=STRICT)
    assert _strip(refused_hidden, "mem://secret") == _strip(refused_unknown, "mem://nope")
    assert isinstance(refused_hidden, Refused)
    assert dispatch(CATALOG, shown, LEGACY, POLICY, profile=STRICT) == Dispatched()
    # Malformed params are the router's -32602 in both profiles (VIS-ROUTE-1).
    malformed = Request(1, "resources/subscribe", {"uri": 5})
    refused = error_answer(
        -32602,
        "invalid params: invalid resources/subscribe params: "
        "invalid type: integer `5`, expected a string",
    )
    assert dispatch(CATALOG, malformed, LEGACY, POLICY, profile=STRICT) == refused
    assert dispatch(CATALOG, malformed, LEGACY, POLICY) == refused


def test_strict_does_not_judge_subscribe_on_the_draft() -> None:
    """2026-07-28 has no resources/subscribe (turbomcp answers -32601 for any URI), so strict
    leaves hidden, unknown and visible URIs alike to that answer (VIS-STRICT-7, VIS-ROUTE-1)."""
    for uri in ("mem://secret", "mem://nope", "mem://public"):
        subscribe = Request(1, "resources/subscribe", {"uri": uri})
        assert dispatch(CATALOG, subscribe, DRAFT, POLICY, profile=STRICT) == error_answer(
            -32601, "method not found: resources/subscribe"
        )


def test_strict_completion_of_a_concrete_resource_is_judged_by_that_resource() -> None:
    """VIS-STRICT-4: a ``ref/resource`` whose URI no template matches is judged against the
    concrete resource with that URI: a shown one reaches the handler, a hidden one is not found."""
    tagged: dict[str, JSON] = {TAGS_KEY: ["internal"]}
    catalog = Catalog(
        resources=Listing(
            (Page((Entry("mem://public", {}, {}), Entry("mem://secret", tagged, {}))),)
        ),
        resource_templates=Listing((Page((Entry("open://{name}", {}, {}),)),)),
    )
    policy = Visibility().hiding_tagged(["internal"])

    def complete(uri: str) -> Request:
        ref: dict[str, JSON] = {"type": "ref/resource", "uri": uri}
        return Request(
            1, "completion/complete", {"ref": ref, "argument": {"name": "a", "value": ""}}
        )

    version, strict = ProtocolVersion.V2025_11_25, Profile.STRICT
    shown = dispatch(catalog, complete("mem://public"), version, policy, profile=strict)
    assert shown == Dispatched()
    hidden = dispatch(catalog, complete("mem://secret"), version, policy, profile=strict)
    assert isinstance(hidden, Refused)
    from mcp_touchstone.serde_json import to_string

    assert "resource not found: mem://secret" in to_string(hidden.response)
