"""``visibility/dispatch_completion.json``: what turbomcp answers before any handler runs for a
malformed ``completion/complete`` and for a method its router does not route.

Expected answers are stated by hand from turbomcp 519331ee: ``dispatcher/params.rs``
(``parse_complete_params``, ``RawCompleteParams``, ``parse_uri_param``), the ``COMPLETION_COMPLETE``
arm of ``dispatcher/capability.rs`` (``error_response_for`` on a parse failure) and the router's
``match`` in ``dispatcher/mod.rs`` (``other => method_not_found``), with serde_json's messages and
``McpError``'s ``Display`` (``invalid params: …``, ``method not found: …``).
"""

from __future__ import annotations

from typing import Any

REVISIONS = ("2025-06-18", "2025-11-25", "2026-07-28")
_SHORT = {"2025-06-18": "0618", "2025-11-25": "1125", "2026-07-28": "0728"}

CATALOG: dict[str, Any] = {
    "tools": [{"name": "read"}],
    "resources": [{"uri": "mem://public"}],
    "resource_templates": [{"uriTemplate": "mem://{name}"}],
    "prompts": [{"name": "summarize"}],
}
ARGUMENT = {"name": "topic", "value": "ab"}


def _refused(request_id: int, code: int, message: str) -> dict[str, Any]:
    error = {"code": code, "message": message}
    return {"outcome": "refused", "response": {"jsonrpc": "2.0", "id": request_id, "error": error}}


def _invalid(request_id: int, message: str) -> dict[str, Any]:
    return _refused(request_id, -32602, f"invalid params: {message}")


def _parse(request_id: int, serde: str) -> dict[str, Any]:
    return _invalid(request_id, f"invalid completion/complete params: {serde}")


def _case(  # noqa: PLR0917  # one vector = its fields in the order the file lists them
    vid: str,
    comment: str,
    rules: list[str],
    flags: list[str],
    version: str,
    method: str,
    params: Any,
    expected: dict[str, Any],
    request_id: int = 1,
) -> dict[str, Any]:
    request: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        request["params"] = params
    return {
        "id": vid,
        "comment": comment,
        "rules": rules,
        "flags": flags,
        "origin": "handwritten",
        "input": {
            "policy": None,
            "protocol_version": version,
            "catalog": CATALOG,
            "request": request,
        },
        "expected": expected,
    }


def _per_revision(version: str) -> list[dict[str, Any]]:
    v = _SHORT[version]
    c = "completion/complete"
    parse = ["VIS-ROUTE-2"]
    return [
        _case(
            f"vis-route-complete-empty-params-{v}",
            "Params without `ref` fail RawCompleteParams: serde's missing field, wrapped twice.",
            parse,
            ["complete"],
            version,
            c,
            {},
            _parse(1, "missing field `ref`"),
        ),
        _case(
            f"vis-route-complete-missing-argument-{v}",
            "`argument` is required too; serde reports the first missing field in declared order.",
            parse,
            ["complete"],
            version,
            c,
            {"ref": {"type": "ref/prompt", "name": "summarize"}},
            _parse(1, "missing field `argument`"),
        ),
        _case(
            f"vis-route-complete-prompt-without-name-{v}",
            "A ref/prompt with no name parses, then fails the ref resolution with its own text.",
            parse,
            ["complete", "ref"],
            version,
            c,
            {"ref": {"type": "ref/prompt"}, "argument": ARGUMENT},
            _invalid(1, "ref/prompt completion requires `name`"),
        ),
        _case(
            f"vis-route-complete-unknown-ref-type-{v}",
            "An unknown ref type is refused by name (Display of the String: no quotes).",
            parse,
            ["complete", "ref"],
            version,
            c,
            {"ref": {"type": "ref/tool", "name": "read"}, "argument": ARGUMENT},
            _invalid(1, "unknown completion ref type: ref/tool"),
        ),
        _case(
            f"vis-route-complete-well-formed-{v}",
            "A well-formed completion reaches the completion handler.",
            ["VIS-PASS-1", "VIS-ROUTE-2"],
            ["complete"],
            version,
            c,
            {"ref": {"type": "ref/prompt", "name": "summarize"}, "argument": ARGUMENT},
            {"outcome": "dispatched"},
        ),
        _case(
            f"vis-route-unknown-method-{v}",
            "A method the router has no arm for is -32601 from the router itself.",
            ["VIS-ROUTE-1"],
            ["router"],
            version,
            "tools/delete",
            {"name": "read"},
            _refused(7, -32601, "method not found: tools/delete"),
            request_id=7,
        ),
        _case(
            f"vis-route-tasks-update-{v}",
            "tasks/update exists only in the draft Tasks extension; without one it is unknown.",
            ["VIS-ROUTE-1"],
            ["router"],
            version,
            "tasks/update",
            {},
            _refused(8, -32601, "method not found: tasks/update"),
            request_id=8,
        ),
        _case(
            f"vis-route-tasks-list-no-store-{v}",
            "Core tasks/list without a task store (the harness has none) is -32601 on every "
            "revision: 2025-06-18 predates Tasks, the draft serves them as an extension.",
            ["VIS-ROUTE-1"],
            ["router"],
            version,
            "tasks/list",
            {},
            _refused(9, -32601, "method not found: tasks/list"),
            request_id=9,
        ),
    ]


def _single() -> list[dict[str, Any]]:
    c = "completion/complete"
    parse = ["VIS-ROUTE-2"]
    return [
        _case(
            "vis-route-complete-resource-without-uri",
            "A ref/resource with no uri fails the ref resolution with its own text.",
            parse,
            ["complete", "ref"],
            "2025-11-25",
            c,
            {"ref": {"type": "ref/resource", "name": "x"}, "argument": ARGUMENT},
            _invalid(1, "ref/resource completion requires `uri`"),
        ),
        _case(
            "vis-route-complete-ref-not-an-object",
            "A string ref is serde's invalid type for the RawCompletionRef struct.",
            parse,
            ["complete", "serde"],
            "2025-11-25",
            c,
            {"ref": "ref/prompt", "argument": ARGUMENT},
            _parse(1, 'invalid type: string "ref/prompt", expected struct RawCompletionRef'),
        ),
        _case(
            "vis-route-complete-argument-value-not-a-string",
            "RawCompletionArgument.value is a String: an integer is serde's invalid type.",
            parse,
            ["complete", "serde"],
            "2026-07-28",
            c,
            {
                "ref": {"type": "ref/prompt", "name": "summarize"},
                "argument": {"name": "a", "value": 1},
            },
            _parse(1, "invalid type: integer `1`, expected a string"),
        ),
        _case(
            "vis-route-complete-argument-short-sequence",
            "serde's derive reads a struct from an array too: one element of two is short.",
            parse,
            ["complete", "serde"],
            "2025-06-18",
            c,
            {"ref": {"type": "ref/prompt", "name": "summarize"}, "argument": ["a"]},
            _parse(1, "invalid length 1, expected struct RawCompletionArgument with 2 elements"),
        ),
        _case(
            "vis-route-complete-ref-as-sequence",
            "A ref in serde's sequence form [type, name] is well formed and reaches the handler.",
            ["VIS-PASS-1", "VIS-ROUTE-2"],
            ["complete", "serde"],
            "2025-11-25",
            c,
            {"ref": ["ref/prompt", "summarize"], "argument": ARGUMENT},
            {"outcome": "dispatched"},
        ),
        _case(
            "vis-route-complete-null-name",
            "name is Option<String>: null reads as absent, so the ref/prompt lacks its name.",
            parse,
            ["complete", "ref"],
            "2026-07-28",
            c,
            {"ref": {"type": "ref/prompt", "name": None}, "argument": ARGUMENT},
            _invalid(1, "ref/prompt completion requires `name`"),
        ),
        _case(
            "vis-route-complete-context-argument-not-a-string",
            "context.arguments is a map of strings; the whole params parse before the ref.",
            parse,
            ["complete", "serde"],
            "2025-11-25",
            c,
            {
                "ref": {"type": "ref/nope"},
                "argument": ARGUMENT,
                "context": {"arguments": {"a": True}},
            },
            _parse(1, "invalid type: boolean `true`, expected a string"),
        ),
        _case(
            "vis-route-complete-bad-log-level-first",
            "On the draft the logLevel check precedes the capability dispatch and its parse.",
            ["VIS-PRE-2", "VIS-ROUTE-2"],
            ["complete"],
            "2026-07-28",
            c,
            {"_meta": {"io.modelcontextprotocol/logLevel": "loud"}},
            _invalid(1, 'invalid logLevel: "loud"'),
        ),
        _case(
            "vis-route-subscribe-on-draft",
            "2026-07-28 routes resources/subscribe to -32601 (it subscribes via "
            "subscriptions/listen).",
            ["VIS-ROUTE-1"],
            ["router"],
            "2026-07-28",
            "resources/subscribe",
            {"uri": "mem://public"},
            _refused(3, -32601, "method not found: resources/subscribe"),
            request_id=3,
        ),
        _case(
            "vis-route-set-level-on-draft",
            "2026-07-28 replaced logging/setLevel with the per-request logLevel: -32601.",
            ["VIS-ROUTE-1"],
            ["router"],
            "2026-07-28",
            "logging/setLevel",
            {"level": "info"},
            _refused(4, -32601, "method not found: logging/setLevel"),
            request_id=4,
        ),
        _case(
            "vis-route-subscribe-missing-uri",
            "A legacy resources/subscribe parses its params with parse_uri_param first.",
            ["VIS-ROUTE-1"],
            ["router", "serde"],
            "2025-11-25",
            "resources/subscribe",
            {},
            _invalid(5, "invalid resources/subscribe params: missing field `uri`"),
            request_id=5,
        ),
        _case(
            "vis-route-unsubscribe-uri-not-a-string",
            "resources/unsubscribe shares the parser and names its own method.",
            ["VIS-ROUTE-1"],
            ["router", "serde"],
            "2025-06-18",
            "resources/unsubscribe",
            {"uri": ["mem://public"]},
            _invalid(
                6, "invalid resources/unsubscribe params: invalid type: sequence, expected a string"
            ),
            request_id=6,
        ),
        _case(
            "vis-route-ping-routed",
            "ping has a router arm of its own: it is not an unknown method.",
            ["VIS-PASS-1", "VIS-ROUTE-1"],
            ["router"],
            "2025-11-25",
            "ping",
            None,
            {"outcome": "dispatched"},
        ),
    ]


def files() -> dict[str, dict[str, Any]]:
    """The one file this generator writes."""
    tests = [t for version in REVISIONS for t in _per_revision(version)] + _single()
    return {
        "visibility/dispatch_completion.json": {
            "schema": "touchstone-vectors/1",
            "semantic": "visibility",
            "operation": "visibility.dispatch",
            "title": "Refused before any handler: malformed completion/complete, unrouted methods",
            "header": [
                "Generated by conformance/vectorgen/visibility_dispatch_extra.py (make vectors).",
                "Expected answers re-express turbomcp 519331ee: parse_complete_params and "
                "parse_uri_param (dispatcher/params.rs), the COMPLETION_COMPLETE arm of "
                "dispatcher/capability.rs and the router of dispatcher/mod.rs, with serde_json's "
                "messages. The texts are the same on every revision (only resource-not-found is "
                "version-split).",
            ],
            "source": {
                "name": "Epistates/turbomcp",
                "version": "4.0.0-alpha.1 (519331ee)",
                "reference": "shared/reference/turbomcp.md",
            },
            "notes": {
                "complete": {
                    "bugType": "MALFORMED_INPUT",
                    "description": "completion/complete params are parsed before the handler runs.",
                },
                "ref": {
                    "bugType": "EDGE_CASE",
                    "description": "The ref union is resolved after the struct parse, with its "
                    "own texts.",
                },
                "serde": {
                    "bugType": "QUIRK",
                    "description": "serde_json's own message (struct, sequence form, type) "
                    "reaches the wire.",
                },
                "router": {
                    "bugType": "BASIC",
                    "description": "The router answers the method itself; no capability code runs.",
                },
            },
            "tests": tests,
        }
    }
