"""Hypothesis strategies for harness-operation inputs, for ``touchstone drt`` (CONF-DRT-1).

One strategy per operation, generating the ``case.input`` JSON exactly as a vector would carry
it.  Each is biased toward the quirks the spec documents, since that is where a port goes wrong:
path prefixes without a segment boundary, globs and domain parsing, serde_json's float layout
(``1.0``, ``-0.0``, ``1e16``, ``1e-6``), integers beyond 2^53, key order inside digests and
bindings, Rust's whitespace set, hidden tags and declared scopes.  Every float in an input reads
back as itself through serde_json (VEC-CASE-1), so a shrunk case is a valid vector.

Operations added later without a strategy here are refused by ``drt`` with a clear message; the
generic JSON strategy below is the starting point for theirs.

Length: this module is over 400 lines on purpose: every operation's strategy lives in this one
module (issue 11: "one module"), so a reader finds all the quirk pools side by side.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st

from mcp_touchstone import serde_json
from mcp_touchstone.serde_json import JSON

_QUIRK_FLOATS = [1.0, -0.0, 0.0, 1e16, 1e-6, 1.5e-7, 0.00001, 1e21, 123.456, 2.5, -1.0, 1e300]
_QUIRK_INTS = [0, 1, -1, 2**53, 2**53 + 1, 2**63 - 1, -(2**63), 2**64 - 1]


def _reads_back(x: float) -> bool:
    back = serde_json.from_str(serde_json.to_string(x))
    return isinstance(back, float) and back == x and str(back) == str(x)


_floats = st.one_of(
    st.sampled_from(_QUIRK_FLOATS),
    st.floats(allow_nan=False, allow_infinity=False).filter(_reads_back),
)
_ints = st.one_of(st.sampled_from(_QUIRK_INTS), st.integers(-1000, 1000))
_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=8)
_words = st.sampled_from(["a", "b", "name", "x", "Z", "é", "日本", "", "a b", "_meta"])
_keys = st.one_of(_words, _text)

scalars: st.SearchStrategy[JSON] = st.one_of(
    st.none(), st.booleans(), _ints, _floats, _text, _words
)


def json_values(max_leaves: int = 12) -> st.SearchStrategy[JSON]:
    """Any value serde_json can hold, biased to number-layout and key-order quirks."""
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(_keys, inner, max_size=4)
        ),
        max_leaves=max_leaves,
    )


# ------------------------------------------------------------------ scope

_ARG_KEYS = ["path", "FilePath", "dir", "file", "to", "channel", "store", "url", "q", "env", "x"]
_ARG_STRINGS = [
    "/data/a",
    "/data/ab",
    "/data/a/b",
    "/data/abc",
    "/data",
    "/data/../etc",
    "/dat",
    "rel/a",
    "a\\b",
    "https://api.example.com/x",
    "http://user@Example.COM:8080/p",
    "report.txt",
    "example.com",
    "evil-example.com",
    "a.b.example.com",
    "localhost",
    "#ops",
    "prod",
    "",
    "ééé",
]
_arg_leaf: st.SearchStrategy[JSON] = st.one_of(
    st.sampled_from(_ARG_STRINGS), scalars, st.sampled_from([1.0, -0.0, 1e16, 2**64 - 1])
)


def _arguments() -> st.SearchStrategy[JSON]:
    flat: st.SearchStrategy[JSON] = st.dictionaries(
        st.sampled_from(["path", "url", "to", "q"]), st.sampled_from(_ARG_STRINGS), max_size=2
    )
    return flat | st.recursive(
        _arg_leaf,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.dictionaries(st.sampled_from(_ARG_KEYS), inner, max_size=3),
        ),
        max_leaves=8,
    )


def _constraint() -> st.SearchStrategy[JSON]:
    allowed = st.lists(st.sampled_from(["#ops", "prod", "", "a"]), max_size=3)
    decided = st.one_of(
        st.builds(
            lambda v: {"type": "path_prefix", "value": v},
            st.sampled_from(["/data", "/data/a", "/", "", "rel", "/data/.."]),
        ),
        st.builds(
            lambda v: {"type": "domain_exact", "value": v},
            st.sampled_from(["example.com", "api.example.com", " Example.COM.", "localhost"]),
        ),
        st.builds(
            lambda v: {"type": "domain_glob", "value": v},
            st.sampled_from(["*.example.com", "*example.com", "*", "api.*", "example.com*"]),
        ),
        st.builds(lambda n: {"type": "max_length", "value": n}, st.integers(0, 12)),
        st.builds(lambda n: {"type": "max_args_size", "value": n}, st.integers(0, 80)),
        st.builds(
            lambda k, v: {"type": "custom", "value": [k, v]},
            st.sampled_from(_ARG_KEYS),
            st.sampled_from(_ARG_STRINGS),
        ),
        st.builds(lambda a: {"type": "audience_allowlist", "value": a}, allowed),
        st.builds(lambda a: {"type": "memory_store_allowlist", "value": a}, allowed),
    )
    refused = st.sampled_from(
        [
            {"type": "regex_match", "value": ".*"},
            {"type": "governed_intent_required"},
            {"type": "seller_exact", "value": "s"},
            {"type": "require_dual_approval", "value": False},
        ]
    )
    return st.one_of(decided, decided, decided, decided, decided, refused)


def _grant() -> st.SearchStrategy[JSON]:
    return st.fixed_dictionaries(
        {
            "server_id": st.sampled_from(["srv", "srv", "*", "other"]),
            "tool_name": st.sampled_from(["read_file", "read_file", "*", "fil*"]),
            "operations": st.sampled_from([["invoke"], ["invoke"], ["invoke", "get"], ["read"]]),
        },
        optional={"constraints": st.lists(_constraint(), min_size=1, max_size=2)},
    )


def scope_inputs() -> st.SearchStrategy[JSON]:
    """``scope.resolve_*`` inputs: small scopes over one server and tool, quirky arguments."""
    return st.fixed_dictionaries(
        {
            "scope": st.fixed_dictionaries({"grants": st.lists(_grant(), min_size=1, max_size=3)}),
            "tool_name": st.sampled_from(["read_file", "read_file", "*"]),
            "server_id": st.sampled_from(["srv", "srv", "*"]),
            "arguments": _arguments(),
        }
    )


# ------------------------------------------------------------------ mrtr

_methods = st.sampled_from(["tools/call", "prompts/get", "resources/read", "", "x"])


def binding_inputs() -> st.SearchStrategy[JSON]:
    """``mrtr.request_binding``: params with top-level and nested ``_meta`` / MRTR fields."""
    params = st.one_of(
        json_values(),
        st.dictionaries(
            st.sampled_from(["name", "arguments", "_meta", "requestState", "inputResponses", "é"]),
            json_values(6),
            max_size=4,
        ),
    )
    return st.fixed_dictionaries({"method": _methods}, optional={"params": params})


def digest_inputs() -> st.SearchStrategy[JSON]:
    """``mrtr.input_responses_digest``: response maps whose key order and numbers matter."""
    return st.fixed_dictionaries({"responses": st.dictionaries(_keys, json_values(8), max_size=4)})


_KEYS: list[JSON] = [
    {"kid": "0", "secret_hex": "7365637265742d6b6579"},
    {"kid": "k2", "secret_hex": ""},
]


def _payloads() -> st.SearchStrategy[JSON]:
    strs: st.SearchStrategy[JSON] = st.lists(st.sampled_from(["a", "b", "ask", "é"]), max_size=3)
    return st.fixed_dictionaries(
        {
            "answers": st.dictionaries(_words, json_values(6), max_size=3),
            "requested": strs,
            "memos": st.dictionaries(_words, json_values(4), max_size=2),
            "effects": strs,
            "exp": st.sampled_from([0, 1, 1800000000, 2**53, 2**64 - 1]),
            "req": st.sampled_from(["tools/call:abc", "", "é"]),
            "principal": st.sampled_from([None, "alice", ""]),
            "aud": st.sampled_from([None, "srv-1"]),
        }
    )


def seal_inputs() -> st.SearchStrategy[JSON]:
    """``mrtr.state.seal``: fixed keys, any kid choice, quirky payload values."""
    return st.fixed_dictionaries(
        {
            "keys": st.just(_KEYS),
            "active_kid": st.sampled_from(["0", "k2", "missing", ""]),
            "nonce_hex": st.sampled_from(["000102030405060708090a0b", "ffffffffffffffffffffffff"]),
            "payload": _payloads(),
        }
    )


def open_inputs() -> st.SearchStrategy[JSON]:
    """``mrtr.state.open``: tokens built from segments the codec checks in order."""
    b64 = st.sampled_from(
        ["AAECAwQFBgcICQoL", "AAECAwQFBgcICQo", "AAEC=", "", "a+b/", "AAECAwQFBgcICQoLDA"]
    )
    token = st.one_of(
        st.builds(
            lambda v, k, n, c: f"{v}.{k}.{n}.{c}",
            st.sampled_from(["v1", "v2", "V1", "v3"]),
            st.sampled_from(["0", "k2", "x", ""]),
            b64,
            b64,
        ),
        _text,
    )
    check = st.fixed_dictionaries(
        {
            "method": _methods,
            "params": json_values(4),
            "principal": st.sampled_from([None, "alice"]),
            "audience": st.sampled_from([None, "srv-1"]),
            "now": st.sampled_from([0, 1800000000]),
            "max_state_bytes": st.sampled_from([0, 10, 8192]),
        }
    )
    return st.fixed_dictionaries(
        {"token": token, "keys": st.just(_KEYS)}, optional={"check": check}
    )


# ------------------------------------------------------------------ visibility

_TAGS = ["internal", "admin", "", "beta", "Internal"]
_SCOPES = ["read", "write", "read write", "", "admin"]
_WS = ["\u0020", "\t", "\u0085", "\u00a0", "\u001c", "\ufeff", "\u200b", "\u3000"]


def _identity() -> st.SearchStrategy[JSON]:
    scope_claim = st.lists(st.sampled_from(_SCOPES + _WS), max_size=5).map("".join)
    claims = st.fixed_dictionaries(
        {},
        optional={
            "scope": st.one_of(scope_claim, scalars),
            "scp": st.one_of(
                st.lists(st.one_of(st.sampled_from(_SCOPES), scalars), max_size=3), scalars
            ),
        },
    )
    return st.one_of(
        st.none(),
        scalars,
        st.fixed_dictionaries(
            {},
            optional={"sub": st.one_of(st.sampled_from(["alice", ""]), scalars), "claims": claims},
        ),
    )


def _meta() -> st.SearchStrategy[JSON]:
    values = st.one_of(
        st.lists(st.one_of(st.sampled_from(_TAGS + _SCOPES), scalars), max_size=3), scalars
    )
    return st.fixed_dictionaries(
        {}, optional={"io.turbomcp/tags": values, "io.turbomcp/scopes": values, "tags": values}
    )


def is_visible_inputs() -> st.SearchStrategy[JSON]:
    """``visibility.is_visible``: hidden tags, declared scopes, Rust's whitespace set."""
    return st.fixed_dictionaries(
        {
            "policy": st.fixed_dictionaries(
                {
                    "hidden_tags": st.lists(st.sampled_from(_TAGS), max_size=2),
                    "requiring_declared_scopes": st.booleans(),
                }
            ),
            "component": st.fixed_dictionaries(
                {
                    "kind": st.sampled_from(["tool", "resource", "resource_template", "prompt"]),
                    "id": st.sampled_from(["t", "file:///a", ""]),
                },
                optional={"meta": _meta()},
            ),
            "identity": _identity(),
        }
    )


def granted_scopes_inputs() -> st.SearchStrategy[JSON]:
    """``visibility.granted_scopes``: identities with quirky scope claims."""
    return st.fixed_dictionaries({"identity": _identity()})


def json_to_string_inputs() -> st.SearchStrategy[JSON]:
    """``json.to_string``: texts of numbers and objects, biased to serde_json's layout."""
    literal = st.sampled_from(
        ["1.0", "-0", "-0.0", "1e16", "1E2", "0.000001", "1e-7", "18446744073709551616", "1.50"]
    )
    text = st.one_of(literal, json_values().map(serde_json.to_string), _text)
    return st.fixed_dictionaries({"text": text})


def uri_template_inputs() -> st.SearchStrategy[JSON]:
    """``visibility.match_uri_template``: simple and reserved expansions, regex metacharacters."""
    template = st.lists(
        st.sampled_from(["file://", "db://", "x.y://", "{name}", "{+path}", "/", "{id}", "a", "."]),
        min_size=1,
        max_size=4,
    ).map("".join)
    uri = st.lists(
        st.sampled_from(["file://", "db://", "x.y://", "xay://", "notes", "a/b", "/", "", "42"]),
        max_size=4,
    ).map("".join)
    return st.fixed_dictionaries({"template": template, "uri": uri})


_CAP_FLAG = st.one_of(
    st.just({}), st.booleans(), st.none(), st.just([]), st.just([1]), st.just("yes"), st.just(5)
)


def _capabilities() -> st.SearchStrategy[JSON]:
    elicitation = st.one_of(
        _CAP_FLAG,
        st.fixed_dictionaries({}, optional={"form": _CAP_FLAG, "url": _CAP_FLAG}),
    )
    value = st.fixed_dictionaries(
        {},
        optional={
            "elicitation": elicitation,
            "sampling": _CAP_FLAG,
            "roots": _CAP_FLAG,
            "experimental": json_values(3),
        },
    )
    return st.one_of(value, value, st.lists(_CAP_FLAG, max_size=4), scalars)


def capabilities_inputs() -> st.SearchStrategy[JSON]:
    """``mrtr.capabilities``: the legacy boolean forms, serde's sequence and fieldless quirks."""
    return st.fixed_dictionaries({"value": _capabilities()})


def allows_inputs() -> st.SearchStrategy[JSON]:
    """``mrtr.allows``: the three input kinds, URL vs form elicitation, malformed params."""
    form = st.fixed_dictionaries(
        {"message": st.just("m"), "requestedSchema": st.just({"type": "object", "properties": {}})},
        optional={"mode": st.sampled_from(["form", "url", "bogus"])},
    )
    url = st.fixed_dictionaries(
        {"mode": st.just("url"), "message": st.just("m")},
        optional={"url": st.just("https://x.example")},
    )
    request: st.SearchStrategy[JSON] = st.one_of(
        st.fixed_dictionaries(
            {"method": st.just("elicitation/create"), "params": st.one_of(form, url, st.none())}
        ),
        st.fixed_dictionaries(
            {"method": st.just("roots/list")},
            optional={"params": st.one_of(st.none(), st.just({}))},
        ),
        st.fixed_dictionaries(
            {
                "method": st.just("sampling/createMessage"),
                "params": st.just({"messages": [], "maxTokens": 5}),
            }
        ),
        st.fixed_dictionaries(
            {"method": st.sampled_from(["tools/call", ""]), "params": st.just({})}
        ),
    )
    return st.fixed_dictionaries({"capabilities": _capabilities(), "request": request})


_CATALOG: JSON = {
    "tools": [
        {"name": "read"},
        {"name": "rotate_keys", "_meta": {"io.turbomcp/tags": ["internal"]}},
        {"name": "wipe", "_meta": {"io.turbomcp/scopes": ["admin"]}},
    ],
    "resources": [
        {"uri": "catalog://public"},
        {"uri": "catalog://secret", "_meta": {"io.turbomcp/tags": ["internal"]}},
    ],
    "resource_templates": [
        {"uriTemplate": "catalog://vault/{+path}", "_meta": {"io.turbomcp/tags": ["internal"]}}
    ],
    "prompts": [
        {"name": "debug_prompt", "_meta": {"io.turbomcp/tags": ["internal"]}},
        {"name": "summarize"},
    ],
}


def dispatch_inputs() -> st.SearchStrategy[JSON]:
    """``visibility.dispatch``: one catalog; lists, calls, reads and gets of visible, hidden and
    nonexistent components, per protocol version and caller."""
    name = st.sampled_from(["read", "rotate_keys", "wipe", "no_such", "summarize", "debug_prompt"])
    uri = st.sampled_from(
        ["catalog://public", "catalog://secret", "catalog://vault/a/b", "catalog://none"]
    )
    identity = st.one_of(
        st.none(),
        st.sampled_from(
            [
                {"sub": "alice", "claims": {"scope": "read"}},
                {"sub": "root", "claims": {"scope": "admin"}},
            ]
        ),
    )

    def request(method: str, params: dict[str, JSON], who: JSON) -> JSON:
        if who is not None:
            params = {**params, "_meta": {"io.turbomcp.internal/identity": who}}
        return {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}

    call = st.one_of(
        st.builds(
            lambda n, w: request("tools/call", {"name": n, "arguments": {}}, w), name, identity
        ),
        st.builds(lambda u, w: request("resources/read", {"uri": u}, w), uri, identity),
        st.builds(lambda n, w: request("prompts/get", {"name": n}, w), name, identity),
        st.builds(
            lambda m, w: request(m, {}, w),
            st.sampled_from(
                ["tools/list", "resources/list", "resources/templates/list", "prompts/list"]
            ),
            identity,
        ),
    )
    policy: st.SearchStrategy[JSON] = st.one_of(
        st.none(),
        st.fixed_dictionaries(
            {
                "hidden_tags": st.sampled_from([[], ["internal"]]),
                "requiring_declared_scopes": st.booleans(),
            }
        ),
    )
    return st.fixed_dictionaries(
        {
            "policy": policy,
            "protocol_version": st.sampled_from(["2025-06-18", "2025-11-25", "2026-07-28"]),
            "catalog": st.just(_CATALOG),
            "request": call,
        }
    )


STRATEGIES: dict[str, Callable[[], st.SearchStrategy[JSON]]] = {
    "scope.resolve_matching_grants": scope_inputs,
    "scope.resolve_capability_grants": scope_inputs,
    "mrtr.request_binding": binding_inputs,
    "mrtr.input_responses_digest": digest_inputs,
    "mrtr.state.seal": seal_inputs,
    "mrtr.state.open": open_inputs,
    "visibility.is_visible": is_visible_inputs,
    "visibility.granted_scopes": granted_scopes_inputs,
    "json.to_string": json_to_string_inputs,
    "visibility.match_uri_template": uri_template_inputs,
    "visibility.dispatch": dispatch_inputs,
    "mrtr.capabilities": capabilities_inputs,
    "mrtr.allows": allows_inputs,
}
"""Operation -> its input strategy."""
