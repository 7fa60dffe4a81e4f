"""Vectors for ``mrtr.client``: where neva's client loop reads or writes a value through one
of its types (``conformance/vectors/mrtr/client_typed.json``).

Every expected output is stated by hand from neva's source at ``e6822d7``, each case naming
the lines it follows: ``ProgressToken``'s reader (``types/progress.rs:104-115``) and
``MemChr::split`` (``shared/memchr.rs:14-25``), ``OneOrMany<Content>`` (``shared/one_or_many.rs:
7-15``, ``types/content.rs:22-56``), ``Schema::deserialize`` (``types/schema.rs:430-495``), the
batch slot's original params (``client/mrtr.rs:261-279``), ``Root`` (``types/root.rs:29-39``).
Nothing here imports ``mcp_touchstone``.
"""

# Justified: the cases are a table of hand-stated rows whose messages stay on one line.
# ruff: noqa: E501

from __future__ import annotations

from typing import Any

from conformance.vectorgen.mrtr_client import (
    DONE_C,
    FORM,
    OCTOCAT,
    SAMPLED,
    STATE,
    call,
    case,
    ir,
    loop_error,
    meta,
    ok,
    rq,
    single,
)

J = Any

_SOURCE = {
    "name": "RomanEmreis/neva",
    "version": "0.5.4 (e6822d7), MCP 2026-07-28",
    "reference": "neva/src/client/mrtr.rs; neva/src/types/{progress,schema,content,root}.rs; neva/src/shared/{memchr,one_or_many}.rs",
}
E: dict[str, J] = {"elicitation": {}}
S: dict[str, J] = {"sampling": {}}
R: dict[str, J] = {"roots": {}}
ONE_OR_MANY = "data did not match any variant of untagged enum OneOrMany"
FORMATS = "expected one of `email`, `uri`, `date`, `date-time`"


def _progress() -> list[dict[str, J]]:
    rows = [
        ("mrtr-client-progress-token-empty-segment-dropped", "a//b", "a/b", "handwritten"),
        (
            "mrtr-client-progress-token-leading-slash-dropped",
            "/a/b",
            "a/b",
            "upstream-test:it_splits_on_char_with_leading_slash",
        ),
        (
            "mrtr-client-progress-token-trailing-slash-dropped",
            "a/b/",
            "a/b",
            "upstream-test:it_splits_on_char_with_trailing_slash",
        ),
        ("mrtr-client-progress-token-only-slash-empty", "/", "", "handwritten"),
        ("mrtr-client-progress-token-slashes-around-a-number", "//+7//", "7", "handwritten"),
        (
            "mrtr-client-progress-token-scheme-double-slash",
            "res://a/b",
            "res:/a/b",
            "upstream-test:it_splits_on_char1",
        ),
        (
            "mrtr-client-progress-token-empty-segments-around-uuid",
            "u//550E8400E29B41D4A716446655440000/",
            "u/550e8400-e29b-41d4-a716-446655440000",
            "handwritten",
        ),
    ]
    cases = [
        case(
            cid,
            f"progressToken {token!r}: MemChr::split drops empty parts, each segment re-spelled, joined by '/': {written!r}",
            ["MRTR-CLIENT-2"],
            ["ProgressPath"],
            single([{"result": DONE_C}], params=call(_meta={"progressToken": token})),
            {
                "sent": [rq(1, call(_meta=meta(E, progressToken=written)))],
                "response": ok(1, DONE_C),
            },
            origin,
        )
        for cid, token, written, origin in rows
    ]
    cases.append(
        case(
            "mrtr-client-progress-token-path-respelled-on-every-retry",
            "the retry re-applies the typed _meta to the caller's params: 'a//b' is 'a/b' in both sends",
            ["MRTR-CLIENT-2", "MRTR-CLIENT-5"],
            ["ProgressPath"],
            single(
                [{"result": ir({"name": FORM})}, {"result": DONE_C}],
                params=call(_meta={"progressToken": "a//b"}),
                answers={"name": {"answer": OCTOCAT}},
            ),
            {
                "sent": [
                    rq(1, call(_meta=meta(E, progressToken="a/b"))),
                    rq(
                        2,
                        call(
                            _meta=meta(E, progressToken="a/b"),
                            inputResponses={"name": OCTOCAT},
                            requestState=STATE,
                        ),
                    ),
                ],
                "response": ok(2, DONE_C),
            },
        )
    )
    return cases


def _sample(content: J) -> dict[str, J]:
    return {
        "method": "sampling/createMessage",
        "params": {"messages": [{"role": "user", "content": content}], "maxTokens": 10},
    }


def _sampling() -> list[dict[str, J]]:
    refused = [
        (
            "mrtr-client-sampling-text-without-text",
            {"type": "text"},
            "TextContent.text is required",
        ),
        (
            "mrtr-client-sampling-unknown-content-type",
            {"type": "video", "url": "v"},
            "Content is a closed tagged enum",
        ),
        ("mrtr-client-sampling-content-without-type", {"text": "hi"}, "the tag `type` is required"),
        (
            "mrtr-client-sampling-text-not-a-string",
            {"type": "text", "text": 5},
            "TextContent.text is a String",
        ),
        (
            "mrtr-client-sampling-one-bad-item-in-a-list",
            [{"type": "text", "text": "a"}, {"type": "image", "mimeType": "image/png"}],
            "Many(Vec<Content>) fails on one item (ImageContent.data is required)",
        ),
        ("mrtr-client-sampling-content-null", None, "neither One nor Many reads null"),
    ]
    cases = [
        case(
            cid,
            f"a sampling message's content is OneOrMany<Content>; {why}: -32700 with the untagged enum's message",
            ["MRTR-CLIENT-3", "MRTR-REQ-6"],
            ["SamplingContent"],
            single(
                [{"result": ir({"s": _sample(content)})}],
                client={"sampling": True},
                answers={"s": {"answer": SAMPLED}},
            ),
            {"sent": [rq(1, call(_meta=meta(S)))], "error": loop_error(-32700, ONE_OR_MANY)},
        )
        for cid, content, why in refused
    ]
    good = [
        {"type": "text", "text": "a"},
        {"type": "resource_link", "uri": "file:///a", "name": "a"},
    ]
    cases.append(
        case(
            "mrtr-client-sampling-content-list-reads",
            "a list of well-typed content items reads (Many): the sampling handler is asked and the call retried",
            ["MRTR-CLIENT-3", "MRTR-CLIENT-4", "MRTR-REQ-6"],
            ["SamplingContent"],
            single(
                [{"result": ir({"s": _sample(good)})}, {"result": DONE_C}],
                client={"sampling": True},
                answers={"s": {"answer": SAMPLED}},
            ),
            {
                "sent": [
                    rq(1, call(_meta=meta(S))),
                    rq(2, call(_meta=meta(S), inputResponses={"s": SAMPLED}, requestState=STATE)),
                ],
                "response": ok(2, DONE_C),
            },
        )
    )
    return cases


def _form(properties: dict[str, J]) -> dict[str, J]:
    return {
        "method": "elicitation/create",
        "params": {
            "message": "m",
            "requestedSchema": {"type": "object", "properties": properties},
        },
    }


def _schemas() -> list[dict[str, J]]:
    rows: list[tuple[str, dict[str, J], str]] = [
        (
            "mrtr-client-schema-unknown-type",
            {"p": {"type": "date"}},
            'Unknown or missing type field: Some("date")',
        ),
        (
            "mrtr-client-schema-type-object",
            {"p": {"type": "object"}},
            'Unknown or missing type field: Some("object")',
        ),
        (
            "mrtr-client-schema-missing-type",
            {"p": {"title": "t"}},
            "Unknown or missing type field: None",
        ),
        (
            "mrtr-client-schema-type-not-a-string",
            {"p": {"type": 5}},
            "Unknown or missing type field: None",
        ),
        (
            "mrtr-client-schema-type-debug-escaped",
            {"p": {"type": 'say "hi"\t'}},
            'Unknown or missing type field: Some("say \\"hi\\"\\t")',
        ),
        ("mrtr-client-schema-not-an-object", {"p": "string"}, "Expected object"),
        (
            "mrtr-client-schema-unknown-format",
            {"p": {"type": "string", "format": "phone"}},
            f"unknown variant `phone`, {FORMATS}",
        ),
        (
            "mrtr-client-schema-negative-min-length",
            {"p": {"type": "string", "minLength": -1}},
            "invalid value: integer `-1`, expected usize",
        ),
        (
            "mrtr-client-schema-boolean-default-string",
            {"p": {"type": "boolean", "default": "yes"}},
            'invalid type: string "yes", expected a boolean',
        ),
        (
            "mrtr-client-schema-number-minimum-string",
            {"p": {"type": "number", "minimum": "0"}},
            'invalid type: string "0", expected f64',
        ),
        (
            "mrtr-client-schema-array-missing-items",
            {"p": {"type": "array"}},
            "Array schema missing items",
        ),
        (
            "mrtr-client-schema-array-items-not-object",
            {"p": {"type": "array", "items": ["a"]}},
            "Array schema missing items",
        ),
        (
            "mrtr-client-schema-array-unknown-items",
            {"p": {"type": "array", "items": {"type": "string"}}},
            "Unknown array schema type",
        ),
        (
            "mrtr-client-schema-option-missing-title",
            {"p": {"type": "string", "oneOf": [{"const": "a"}]}},
            "missing field `title`",
        ),
        (
            "mrtr-client-schema-option-not-an-object",
            {"p": {"type": "string", "oneOf": ["a"]}},
            'invalid type: string "a", expected struct EnumOption',
        ),
        (
            "mrtr-client-schema-enum-not-strings",
            {"p": {"type": "string", "enum": [1]}},
            "invalid type: integer `1`, expected a string",
        ),
        (
            "mrtr-client-schema-items-type-unknown",
            {"p": {"type": "array", "items": {"enum": ["a"], "type": "text"}}},
            "unknown variant `text`, expected one of `none`, `array`, `string`, `number`, `integer`, `boolean`, `object`",
        ),
        (
            "mrtr-client-schema-first-bad-property-in-sorted-order",
            {"b": {"type": "date"}, "a": {"type": "string", "minLength": -1}},
            "invalid value: integer `-1`, expected usize",
        ),
    ]
    return [
        case(
            cid,
            f"a property schema neva cannot read: -32700 in neva's or serde's words ({message})",
            ["MRTR-CLIENT-3", "MRTR-REQ-4", "HARNESS-MRTR-CLIENT-3"],
            ["SchemaText"],
            single(
                [{"result": ir({"name": _form(properties)})}], answers={"name": {"answer": OCTOCAT}}
            ),
            {"sent": [rq(1, call(_meta=meta(E)))], "error": loop_error(-32700, message)},
        )
        for cid, properties, message in rows
    ]


def _reread() -> list[dict[str, J]]:
    bad_version = {"progressToken": "a//b", "io.modelcontextprotocol/protocolVersion": 5}
    greet = {"name": "greet", "_meta": bad_version}
    answers = {"name": {"answer": OCTOCAT}}
    server = [{"result": ir({"name": FORM})}, {"result": DONE_C}]
    return [
        case(
            "mrtr-client-batch-retry-rereads-round-zero-params",
            "round 0's _meta fails the typed read (protocolVersion 5), so the raw token stays; the slot keeps round 0's params, whose _meta reads, so the retry re-spells the token",
            ["MRTR-CLIENT-2", "MRTR-CLIENT-8"],
            ["BatchReread"],
            {
                "batch": [{"id": 1, "method": "tools/call", "params": greet}],
                "server": server,
                "client": {"elicitation": True},
                "answers": answers,
            },
            {
                "sent": [
                    [rq(1, {"name": "greet", "_meta": meta(E, progressToken="a//b")})],
                    [
                        rq(
                            2,
                            {
                                "name": "greet",
                                "_meta": meta(E, progressToken="a/b"),
                                "inputResponses": {"name": OCTOCAT},
                                "requestState": STATE,
                            },
                        )
                    ],
                ],
                "responses": [ok(2, DONE_C)],
            },
        ),
        case(
            "mrtr-client-single-retry-rereads-callers-params",
            "the same request sent alone: run_with_mrtr retries the caller's params, whose _meta still fails the typed read, so the raw token stays",
            ["MRTR-CLIENT-2", "MRTR-CLIENT-5"],
            ["BatchReread"],
            {
                "request": {"id": 1, "method": "tools/call", "params": greet},
                "server": server,
                "client": {"elicitation": True},
                "answers": answers,
            },
            {
                "sent": [
                    rq(1, {"name": "greet", "_meta": meta(E, progressToken="a//b")}),
                    rq(
                        2,
                        {
                            "name": "greet",
                            "_meta": meta(E, progressToken="a//b"),
                            "inputResponses": {"name": OCTOCAT},
                            "requestState": STATE,
                        },
                    ),
                ],
                "response": ok(2, DONE_C),
            },
        ),
    ]


def _typed_values() -> list[dict[str, J]]:
    root = {"uri": "file:///w", "name": "w", "_meta": None, "label": "extra"}
    return [
        case(
            "mrtr-client-root-written-as-neva-root",
            "a configured root is written as neva's Root: uri and name, _meta only when not null, other members dropped",
            ["MRTR-CLIENT-4", "HARNESS-MRTR-CLIENT-1"],
            ["RootsTyped"],
            single(
                [{"result": ir({"dirs": {"method": "roots/list"}})}, {"result": DONE_C}],
                client={"roots": [root]},
            ),
            {
                "sent": [
                    rq(1, call(_meta=meta(R))),
                    rq(
                        2,
                        call(
                            _meta=meta(R),
                            inputResponses={"dirs": {"roots": [{"uri": "file:///w", "name": "w"}]}},
                            requestState=STATE,
                        ),
                    ),
                ],
                "response": ok(2, DONE_C),
            },
        ),
        case(
            "mrtr-client-params-null-is-absent",
            "params null reads as serde reads Option<Value>: None, so the request gets {_meta} as one without params",
            ["MRTR-CLIENT-2", "HARNESS-MRTR-CLIENT-1"],
            ["ParamsNull"],
            {
                "request": {"id": 1, "method": "tools/call", "params": None},
                "server": [{"result": DONE_C}],
                "client": {"elicitation": True},
            },
            {"sent": [rq(1, {"_meta": meta(E)})], "response": ok(1, DONE_C)},
        ),
        case(
            "mrtr-client-batch-notification-params-null-omitted",
            "a notification's params null is None, which Notification does not write",
            ["MRTR-CLIENT-8", "HARNESS-MRTR-CLIENT-1"],
            ["ParamsNull"],
            {
                "batch": [
                    {"method": "notifications/progress", "params": None},
                    {"id": 1, "method": "tools/call", "params": {"name": "greet"}},
                ],
                "server": [{"result": DONE_C}],
                "client": {"elicitation": True},
            },
            {
                "sent": [
                    [
                        {"jsonrpc": "2.0", "method": "notifications/progress"},
                        rq(1, {"name": "greet", "_meta": meta(E)}),
                    ]
                ],
                "responses": [ok(1, DONE_C)],
            },
        ),
    ]


def _unit_enums() -> list[dict[str, J]]:
    info = {
        "name": "s",
        "version": "1",
        "icons": [{"src": "https://e.io/i.png", "theme": {"dark": None}}],
    }
    done = {**DONE_C, "_meta": {"io.modelcontextprotocol/serverInfo": info}}
    return [
        case(
            "mrtr-client-log-level-map-form-written-by-name",
            "a logLevel in serde's map form reads as LoggingLevel::Warning and is written back as its name",
            ["MRTR-CLIENT-2"],
            ["UnitEnumName"],
            single(
                [{"result": DONE_C}],
                params=call(_meta={"io.modelcontextprotocol/logLevel": {"warning": None}}),
            ),
            {
                "sent": [
                    rq(1, call(_meta=meta(E, **{"io.modelcontextprotocol/logLevel": "warning"})))
                ],
                "response": ok(1, DONE_C),
            },
        ),
        case(
            "mrtr-client-server-info-theme-map-form-written-by-name",
            "an icon theme in serde's map form reads as IconTheme::Dark and is recorded as its name",
            ["MRTR-CLIENT-10"],
            ["UnitEnumName"],
            single([{"result": done}]),
            {
                "sent": [rq(1, call(_meta=meta(E)))],
                "response": ok(1, done),
                "server_info": {
                    "name": "s",
                    "version": "1",
                    "icons": [{"src": "https://e.io/i.png", "theme": "dark"}],
                },
            },
        ),
    ]


def _fail_data() -> list[dict[str, J]]:
    bad = {"error": {"kind": "invalid_input", "message": ""}}
    rows = [
        (
            "mrtr-client-invalid-server-fail-with-data",
            single([{"fail": {"code": -32603, "message": "Connection closed", "data": {"x": 1}}}]),
            "a transport failure carrying data (neva's transport errors are Error::new, with none)",
        ),
        (
            "mrtr-client-invalid-answer-fail-with-data",
            single(
                [{"result": ir({"name": FORM})}],
                answers={"name": {"fail": {"code": -32602, "message": "bad", "data": 1}}},
            ),
            "a fulfilment failure carrying data (fulfil_input's errors carry none)",
        ),
    ]
    cases = [
        case(cid, f"invalid input: {comment}", ["HARNESS-MRTR-CLIENT-1"], ["FailData"], inp, bad)
        for cid, inp, comment in rows
    ]
    cases.append(
        case(
            "mrtr-client-invalid-answer-not-a-result",
            "invalid input: an answer a neva handler cannot return (ElicitationAction has no `maybe`)",
            ["HARNESS-MRTR-CLIENT-1"],
            ["AnswerTyped"],
            single(
                [{"result": ir({"name": FORM})}],
                answers={"name": {"answer": {"action": "maybe", "content": None}}},
            ),
            bad,
        )
    )
    return cases


_NOTES = {
    "ProgressPath": {
        "bugType": "EDGE_CASE",
        "description": "A string progressToken holding '/' is split by MemChr::split, which drops empty parts (types/progress.rs:107-110, shared/memchr.rs:24), and re-joined.",
    },
    "SamplingContent": {
        "bugType": "MALFORMED_INPUT",
        "description": "A sampling message's content is OneOrMany<Content> (closed tagged enum, typed members); a misfit fails the whole result with the untagged enum's message.",
    },
    "SchemaText": {
        "bugType": "MALFORMED_INPUT",
        "description": "A property schema neva cannot read fails with neva's own words or serde's (types/schema.rs:430-495), compared exactly.",
    },
    "BatchReread": {
        "bugType": "QUIRK",
        "description": "A batch slot keeps round 0's params, _meta applied, as its original (client/mrtr.rs:261-279); a single request keeps the caller's.",
    },
    "RootsTyped": {
        "bugType": "QUIRK",
        "description": "Roots are answered as neva's Root serializes (types/root.rs:29-39).",
    },
    "ParamsNull": {
        "bugType": "EDGE_CASE",
        "description": "params null is None (serde's Option<Value>): a request gets {_meta}, a notification writes no params.",
    },
    "UnitEnumName": {
        "bugType": "QUIRK",
        "description": 'A unit enum read from serde\'s map form {"<name>": null} is written back as its name (LoggingLevel, IconTheme).',
    },
    "AnswerTyped": {
        "bugType": "MALFORMED_INPUT",
        "description": "A scripted answer that does not read as the kind's result type (a neva handler returns typed values) is invalid input.",
    },
    "FailData": {
        "bugType": "MALFORMED_INPUT",
        "description": "A scripted failure neva's client cannot produce (a fail with data) is invalid input.",
    },
}


def _with_server_info(test: dict[str, J]) -> dict[str, J]:
    """A loop outcome records no serverInfo unless the case states one."""
    if "sent" in test["expected"]:
        test["expected"].setdefault("server_info", None)
    return test


def files() -> dict[str, dict[str, J]]:
    """The ``mrtr.client`` vector file of typed reads and writes."""
    tests = [
        _with_server_info(t)
        for t in _progress()
        + _sampling()
        + _schemas()
        + _reread()
        + _typed_values()
        + _unit_enums()
        + _fail_data()
    ]
    used = {f for t in tests for f in t["flags"]}
    return {
        "mrtr/client_typed.json": {
            "schema": "touchstone-vectors/1",
            "semantic": "mrtr",
            "operation": "mrtr.client",
            "title": "neva's client loop: values read and written through neva's types",
            "header": [
                "Generated by conformance/vectorgen/mrtr_client_typed.py; expected outputs stated by hand.",
                "sent: every write in order (a request object; for a batch, an array).",
            ],
            "source": _SOURCE,
            "notes": {k: v for k, v in _NOTES.items() if k in used},
            "tests": tests,
        }
    }
