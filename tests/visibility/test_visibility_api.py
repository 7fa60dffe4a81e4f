"""The public API re-expressing turbomcp's unit tests: tags.rs, visibility.rs, identity.rs,
meta.rs, the lib.rs template tests, component_tags.rs and tool_scopes.rs."""

from __future__ import annotations

from mcp_touchstone.serde_json import JSON
from mcp_touchstone.visibility import (
    ANONYMOUS,
    IDENTITY_KEY,
    SCOPES_KEY,
    TAGS_KEY,
    Admission,
    ComponentKind,
    Entry,
    Identity,
    ProtocolVersion,
    RequestContext,
    Visibility,
    VisibilityPolicy,
    VisibleComponent,
    declared_scopes_of,
    filter_entries,
    granted_scopes,
    has,
    has_all,
    has_any,
    has_scopes,
    identity_from_meta,
    match_uri_template,
    tags_of,
)


def caller(scopes: str) -> RequestContext:
    """A 2025-11-25 request from bearer alice whose scope claim is ``scopes``."""
    return RequestContext(ProtocolVersion.V2025_11_25, Identity.bearer("alice", {"scope": scopes}))


def tool(meta: dict[str, JSON], name: str = "wipe") -> VisibleComponent:
    """A tool component named ``name`` with ``meta``, asked about by a read-scoped caller."""
    return VisibleComponent(ComponentKind.TOOL, name, meta, caller("read"))


def visible(policy: VisibilityPolicy, meta: dict[str, JSON], ctx: RequestContext) -> bool:
    """Whether ``policy`` shows a tool carrying ``meta`` to ``ctx``."""
    return policy(VisibleComponent(ComponentKind.TOOL, "wipe", meta, ctx))


# ---- tags.rs -------------------------------------------------------------------------


def test_reads_the_tags_the_macro_writes() -> None:
    """tags.rs reads_the_tags_the_macro_writes: of/has/has_any/has_all (VIS-META-2, VIS-META-3)."""
    meta: dict[str, JSON] = {TAGS_KEY: ["admin", "dangerous"]}
    assert tags_of(meta) == ("admin", "dangerous")
    assert has(meta, "admin")
    assert not has(meta, "readonly")
    assert has_any(meta, ["readonly", "dangerous"])
    assert has_all(meta, ["admin", "dangerous"])
    assert not has_all(meta, ["admin", "readonly"])


def test_an_untagged_component_matches_nothing_and_everything() -> None:
    """tags.rs: empty meta has no tags, has_all([]) is true, has_any([]) is false (VIS-META-3)."""
    meta: dict[str, JSON] = {}
    assert tags_of(meta) == ()
    assert not has(meta, "admin")
    assert has_all(meta, [])
    assert not has_any(meta, [])


def test_a_malformed_value_reads_as_untagged() -> None:
    """tags.rs: non-array values read as untagged; a mixed array keeps its strings (VIS-META-2)."""
    bad_values: list[JSON] = ["admin", 42, {"a": 1}, None]
    for bad in bad_values:
        assert tags_of({TAGS_KEY: bad}) == ()
        assert declared_scopes_of({SCOPES_KEY: bad}) == ()
    assert tags_of({TAGS_KEY: ["admin", 7, None, "safe"]}) == ("admin", "safe")


def test_reader_keeps_order_and_duplicates() -> None:
    """Tags and scopes keep array order and duplicates, untrimmed (VIS-META-2)."""
    meta: dict[str, JSON] = {TAGS_KEY: ["b", "a", "b", " a"], SCOPES_KEY: ["x", "x"]}
    assert tags_of(meta) == ("b", "a", "b", " a")
    assert declared_scopes_of(meta) == ("x", "x")


def test_only_namespaced_keys_are_read() -> None:
    """The bare v3 keys tags/scopes are not read (VIS-META-1)."""
    meta: dict[str, JSON] = {"tags": ["internal"], "scopes": ["admin"]}
    assert tags_of(meta) == ()
    assert declared_scopes_of(meta) == ()


# ---- visibility.rs unit tests ----------------------------------------------------------


def test_a_bare_policy_hides_nothing() -> None:
    """visibility.rs a_bare_policy_hides_nothing (VIS-POL-1)."""
    assert visible(Visibility(), {TAGS_KEY: ["internal"]}, caller("read"))


def test_tagged_components_are_hidden() -> None:
    """visibility.rs tagged_components_are_hidden (VIS-POL-2)."""
    policy = Visibility().hiding_tagged(["internal"])
    ctx = caller("read")
    assert not visible(policy, {TAGS_KEY: ["internal", "beta"]}, ctx)
    assert visible(policy, {TAGS_KEY: ["beta"]}, ctx)
    assert visible(policy, {}, ctx)


def test_hiding_tagged_accumulates() -> None:
    """Repeated hiding_tagged calls add to the set; an empty call adds nothing (VIS-POL-2)."""
    policy = Visibility().hiding_tagged(["a"]).hiding_tagged([]).hiding_tagged(["b"])
    assert policy.hidden_tags == frozenset({"a", "b"})
    assert not visible(policy, {TAGS_KEY: ["a"]}, caller(""))
    assert not visible(policy, {TAGS_KEY: ["b"]}, caller(""))


def test_declared_scopes_are_matched_against_the_caller() -> None:
    """visibility.rs declared_scopes_are_matched_against_the_caller (VIS-POL-3, VIS-ID-4)."""
    policy = Visibility().requiring_declared_scopes()
    admin: dict[str, JSON] = {SCOPES_KEY: ["admin"]}
    assert not visible(policy, admin, caller("read"))
    assert visible(policy, admin, caller("read admin"))
    assert visible(policy, {}, caller(""))
    assert visible(policy, {}, RequestContext(ProtocolVersion.V2025_11_25))


def test_every_enabled_check_must_pass() -> None:
    """visibility.rs every_enabled_check_must_pass (VIS-POL-4)."""
    policy = Visibility().hiding_tagged(["internal"]).requiring_declared_scopes()
    meta: dict[str, JSON] = {TAGS_KEY: ["internal"], SCOPES_KEY: ["admin"]}
    assert not visible(policy, meta, caller("admin"))


def test_a_closure_is_a_policy() -> None:
    """visibility.rs a_closure_is_a_policy: any callable qualifies (VIS-POL-5)."""

    def policy(c: VisibleComponent) -> bool:
        return c.id != "wipe"

    assert not policy(tool({}))
    assert policy(tool({}, "read"))


def test_visible_component_helpers() -> None:
    """VisibleComponent exposes its tags and declared scopes (VIS-POL-6)."""
    component = tool({TAGS_KEY: ["t"], SCOPES_KEY: ["s", 1]})
    assert component.tags() == ("t",)
    assert component.declared_scopes() == ("s",)


# ---- identity.rs / meta.rs -------------------------------------------------------------


def test_granted_scopes_reads_scp_array_and_merges_with_scope_string() -> None:
    """identity.rs: scp alone, the scope+scp union, non-string scp entries skipped (VIS-ID-2)."""
    assert has_scopes(Identity.bearer("a", {"scp": ["read", "admin"]}), ["admin"])
    merged = Identity.bearer("a", {"scope": "read write", "scp": ["admin"]})
    assert has_scopes(merged, ["read", "write", "admin"])
    assert granted_scopes(Identity.bearer("a", {"scp": ["ok", 42]})) == ("ok",)


def test_custom_identity_delegates() -> None:
    """identity.rs custom_identity_delegates_and_exposes_no_keys: a custom identity's scopes come
    from its own claim() (the claim-key redaction half has no counterpart here); the
    built-in policy judges it through the request context (VIS-ID-2, VIS-ID-4, VIS-POL-3)."""

    class ServiceAccount:
        @property
        def subject(self) -> str | None:
            return "svc"

        def claim(self, key: str, /) -> JSON | None:
            return "read" if key == "scope" else None

    custom = ServiceAccount()
    assert has_scopes(custom, ["read"])
    assert not has_scopes(custom, ["write"])
    assert granted_scopes(custom) == ("read",)
    policy = Visibility().requiring_declared_scopes()
    ctx = RequestContext(ProtocolVersion.V2025_11_25, custom)
    assert visible(policy, {SCOPES_KEY: ["read"]}, ctx)
    assert not visible(policy, {SCOPES_KEY: ["write"]}, ctx)


def test_anonymous_holds_nothing_but_meets_empty_requirements() -> None:
    """Anonymous has no scopes; an empty requirement is met by everyone (VIS-ID-4)."""
    assert granted_scopes(ANONYMOUS) == ()
    assert has_scopes(ANONYMOUS, [])
    assert not has_scopes(ANONYMOUS, ["read"])
    assert not ANONYMOUS.is_authenticated


def test_anonymous_ignores_claims_it_was_built_with() -> None:
    """An identity without a subject answers no claims at all (VIS-ID-1)."""
    assert granted_scopes(Identity(None, {"scope": "admin"})) == ()


def test_extract_identity_lifts_principal_else_anonymous() -> None:
    """meta.rs extract_identity_lifts_principal_else_anonymous (VIS-ID-1)."""
    assert identity_from_meta({}) == ANONYMOUS
    lifted = identity_from_meta({IDENTITY_KEY: {"sub": "alice", "claims": {"scope": "read"}}})
    assert lifted.subject == "alice"
    assert lifted.claim("scope") == "read"


def test_vis_id_1_a_bearer_is_built_from_the_class_or_any_identity() -> None:
    """VIS-ID-1: ``Identity.bearer`` is a static method: asked of the class or of an identity
    (anonymous or not), it builds the same bearer, never one derived from the identity asked."""
    expected = Identity("alice", {"scope": "read"})
    assert Identity.bearer("alice", {"scope": "read"}) == expected
    assert ANONYMOUS.bearer("alice", {"scope": "read"}) == expected
    assert Identity.bearer("bob").bearer("alice", {"scope": "read"}) == expected


def test_identity_lifting_edge_cases() -> None:
    """Missing/non-string sub is anonymous; non-object claims is a claimless bearer (VIS-ID-1)."""
    assert identity_from_meta({IDENTITY_KEY: {"claims": {"scope": "x"}}}) == ANONYMOUS
    assert identity_from_meta({IDENTITY_KEY: {"sub": 1}}) == ANONYMOUS
    assert identity_from_meta({IDENTITY_KEY: "alice"}) == ANONYMOUS
    assert identity_from_meta(None) == ANONYMOUS
    bearer = identity_from_meta({IDENTITY_KEY: {"sub": "", "claims": []}})
    assert bearer.is_authenticated
    assert bearer.subject == ""
    assert granted_scopes(bearer) == ()


def test_has_scopes_is_exact() -> None:
    """Exact, case-sensitive matching; required entries are never split (VIS-ID-4)."""
    who = Identity.bearer("a", {"scope": "read write", "scp": ["read write", ""]})
    assert has_scopes(who, ["read write"])
    assert has_scopes(who, [""])
    assert not has_scopes(Identity.bearer("a", {"scope": "read write"}), ["read write"])
    assert not has_scopes(Identity.bearer("a", {"scope": "Admin"}), ["admin"])
    assert has_scopes(who, ["read", "read"])


# ---- tool_scopes.rs (the list half of the same check) -----------------------------------


def test_scoped_tool_allows_caller_with_scope() -> None:
    """tool_scopes.rs scoped_tool_allows_caller_with_scope, as the policy's verdict (VIS-POL-3)."""
    policy = Visibility().requiring_declared_scopes()
    assert visible(policy, {SCOPES_KEY: ["admin"]}, caller("read admin write"))


def test_scoped_tool_denies_caller_without_scope() -> None:
    """tool_scopes.rs scoped_tool_denies_caller_without_scope (VIS-POL-3)."""
    policy = Visibility().requiring_declared_scopes()
    assert not visible(policy, {SCOPES_KEY: ["admin"]}, caller("read write"))


def test_scoped_tool_denies_anonymous() -> None:
    """tool_scopes.rs scoped_tool_denies_anonymous (VIS-POL-3, VIS-ID-4)."""
    policy = Visibility().requiring_declared_scopes()
    assert not visible(policy, {SCOPES_KEY: ["admin"]}, RequestContext())


def test_unscoped_tool_allows_anyone() -> None:
    """tool_scopes.rs unscoped_tool_allows_anyone (VIS-POL-3)."""
    policy = Visibility().requiring_declared_scopes()
    assert visible(policy, {}, RequestContext())


# ---- component_tags.rs --------------------------------------------------------------------


def test_the_reader_agrees_with_what_went_on_the_wire() -> None:
    """component_tags.rs: the reader over listed _meta, other keys alongside (VIS-META-2/3)."""
    listed: dict[str, JSON] = {"title": "Search", TAGS_KEY: ["search", "web"], "x": 1}
    assert tags_of(listed) == ("search", "web")
    assert has_any(listed, ["web"])
    assert has_all(listed, ["search", "web"])
    assert tags_of({}) == ()


# ---- lib.rs template_tests ------------------------------------------------------------------


def test_single_segment_var() -> None:
    """lib.rs single_segment_var (VIS-TPL-1)."""
    assert match_uri_template("file://{name}", "file://notes") == (("name", "notes"),)


def test_segment_var_stops_at_slash() -> None:
    """lib.rs segment_var_stops_at_slash (VIS-TPL-1)."""
    assert match_uri_template("file://{name}", "file://a/b") is None


def test_reserved_var_spans_slashes() -> None:
    """lib.rs reserved_var_spans_slashes (VIS-TPL-2)."""
    assert match_uri_template("file://{+path}", "file:///etc/hosts") == (("path", "/etc/hosts"),)


def test_multiple_vars() -> None:
    """lib.rs multiple_vars (VIS-TPL-1)."""
    assert match_uri_template("db://{table}/{id}", "db://users/42") == (
        ("table", "users"),
        ("id", "42"),
    )


def test_literal_mismatch_is_none() -> None:
    """lib.rs literal_mismatch_is_none (VIS-TPL-3)."""
    assert match_uri_template("file://{name}", "http://notes") is None


def test_regex_metachars_in_literal_are_escaped() -> None:
    """lib.rs regex_metachars_in_literal_are_escaped (VIS-TPL-3)."""
    assert match_uri_template("x.y://{v}", "x.y://z") == (("v", "z"),)
    assert match_uri_template("x.y://{v}", "xqy://z") is None


def test_malformed_templates_never_match() -> None:
    """Unsupported operators and bad names never match, not even their own text (VIS-TPL-4)."""
    for template in ("x:{?q}", "x:{/p}", "x:{#f}", "x:{a,b}", "x:{x*}", "x:{}", "x:{+}", "x:{a"):
        assert match_uri_template(template, template) is None
        assert match_uri_template(template, "x:a") is None


def test_close_brace_outside_expression_is_literal() -> None:
    """A } before any { or after the last expression is literal (VIS-TPL-5)."""
    assert match_uri_template("}{a}}", "}v}") == (("a", "v"),)


def test_a_request_reads_the_callers_scopes_once_for_every_component() -> None:
    """VIS-ID-2, VIS-POL-4: the built-in policy applied to one request (an ``Admission``)
    reads the caller's claims once, when the first component declaring scopes is judged,
    however many components it judges, and gives each the verdict ``Visibility.admits`` gives
    it alone; a list filtered by the dispatcher reads them once too."""
    reads: list[str] = []

    class Counted:
        @property
        def subject(self) -> str | None:
            return "svc"

        def claim(self, key: str, /) -> JSON | None:
            reads.append(key)
            return "read write" if key == "scope" else None

    policy = Visibility().hiding_tagged(["internal"]).requiring_declared_scopes()
    ctx = RequestContext(ProtocolVersion.V2025_11_25, Counted())
    metas: list[dict[str, JSON]] = [
        {},
        {SCOPES_KEY: ["read"]},
        {SCOPES_KEY: ["read", "admin"]},
        {TAGS_KEY: ["internal"], SCOPES_KEY: ["read"]},
        {TAGS_KEY: ["public", 3], SCOPES_KEY: ["write", None]},
    ] * 20
    admission = policy.for_request(ctx)
    assert isinstance(admission, Admission)
    assert reads == []
    verdicts = [admission.admits(meta) for meta in metas]
    assert reads == ["scope", "scp"]
    reads.clear()
    assert verdicts == [policy.admits(meta, ctx) for meta in metas]
    assert verdicts[:5] == [True, True, False, False, True]
    assert admission.admits({TAGS_KEY: ["public"]}, native_tags={"internal"}) is False
    reads.clear()
    entries = tuple(Entry(f"t{i}", meta) for i, meta in enumerate(metas))
    kept = filter_entries(policy, ComponentKind.TOOL, entries, ctx)
    assert reads == ["scope", "scp"]
    assert [e.meta for e in kept] == [m for m, v in zip(metas, verdicts, strict=True) if v]
