# A data table of hand-stated cases (long by nature; the formatter lays most cases out one
# argument per line). Long lines that remain (E501) are case descriptions.
# ruff: noqa: E501
"""The ``mrtr.round`` case table (see ``mrtr_round.py``); each family states its expected outputs
by hand from ``shared/protocol/mrtr-round.md``, ``shared/reference/neva.md`` and neva's tests."""

from __future__ import annotations

from typing import Any

from conformance.vectorgen._mrtr_round_kit import (
    ACCEPT,
    MONA,
    NOW,
    RESULT,
    ROOTS,
    SAMPLED,
    SI_KEY,
    URL,
    ask,
    binding,
    case,
    env,
    err,
    fail,
    folded,
    inbound,
    inp,
    input_required,
    meta,
    mint_state,
    ok,
    out,
    params_for,
    ret,
    seal,
    server,
    stamped,
    tag_of,
)

MRTR = ("tools/call", "prompts/get", "resources/read")
V = "io.modelcontextprotocol/protocolVersion"
C = "io.modelcontextprotocol/clientCapabilities"
MSG_V = f"request `_meta` is missing the required `{V}` string"
MSG_C = f"request `_meta` is missing the required `{C}` object"
PLAIN = stamped(RESULT)
GREET = [ask("name"), {"op": "on_commit", "label": "greet"}, ret()]


def final(
    token: str,
    seeded: dict[str, Any],
    ran: list[str],
    *,
    result: Any = None,
    id_: Any = 1,
    store: list[Any] | None = None,
    ttl: int = 300,
) -> dict[str, Any]:
    """The output of a committing final round of a request carrying ``token``: stored under
    its tag until now + ttl, after the round's other entries (sorted by tag)."""
    response = ok(stamped(RESULT if result is None else result), id_=id_)
    entries = [
        *(store or []),
        {"tag": tag_of(token, seeded), "response": response, "exp": NOW + ttl},
    ]
    return out(response, ran, None, sorted(entries, key=lambda e: e["tag"]))


def _short(method: str) -> str:
    return {"tools/call": "tool", "prompts/get": "prompt", "resources/read": "resource"}.get(
        method, "custom"
    )


def envelope() -> None:
    f = "round_envelope"
    methods = (*MRTR, "custom/echo")
    for method in methods:
        m = _short(method)
        base = params_for(method)
        case(
            f,
            f"{m}-no-params",
            "no params at all: the protocolVersion check fails first",
            ["MRTR-ROUND-1"],
            ["Envelope"],
            inp(None, [ret()], method=method),
            out(err(-32602, MSG_V)),
        )
        case(
            f,
            f"{m}-no-meta",
            "params without _meta",
            ["MRTR-ROUND-1"],
            ["Envelope"],
            inp({k: v for k, v in base.items() if k != "_meta"}, [ret()], method=method),
            out(err(-32602, MSG_V)),
        )
        case(
            f,
            f"{m}-meta-not-object",
            "_meta is an array",
            ["MRTR-ROUND-1"],
            ["Envelope"],
            inp({**base, "_meta": [1]}, [ret()], method=method),
            out(err(-32602, MSG_V)),
        )
        for label, value in (("absent", None), ("number", 5), ("null", "null"), ("object", {})):
            m_ = {C: {}}
            if label != "absent":
                m_[V] = None if value == "null" else value
            case(
                f,
                f"{m}-version-{label}",
                f"protocolVersion {label}",
                ["MRTR-ROUND-1"],
                ["Envelope"],
                inp({**base, "_meta": m_}, [ret()], method=method),
                out(err(-32602, MSG_V)),
            )
        for label, value in (
            ("absent", None),
            ("null", "null"),
            ("true", True),
            ("array", []),
            ("string", "elicitation"),
        ):
            m_ = {V: "2026-07-28"}
            if label != "absent":
                m_[C] = None if value == "null" else value
            case(
                f,
                f"{m}-caps-{label}",
                f"clientCapabilities {label}",
                ["MRTR-ROUND-1"],
                ["Envelope"],
                inp({**base, "_meta": m_}, [ret()], method=method),
                out(err(-32602, MSG_C)),
            )
        for version in ("2025-06-18", "2026-07-29", ""):
            slug = version or "empty"
            case(
                f,
                f"{m}-version-{slug}",
                "an unsupported version: -32022 with supported/requested",
                ["MRTR-ROUND-1"],
                ["Envelope"],
                inp({**base, "_meta": {V: version, C: {}}}, [ret()], method=method),
                out(
                    err(
                        -32022,
                        f"Unsupported MCP protocol version: {version}",
                        {"supported": ["2026-07-28"], "requested": version},
                    )
                ),
            )
        case(
            f,
            f"{m}-caps-before-version",
            "bad capabilities and an unsupported version: the required-_meta check wins",
            ["MRTR-ROUND-1"],
            ["Envelope"],
            inp({**base, "_meta": {V: "1999-01-01"}}, [ret()], method=method),
            out(err(-32602, MSG_C)),
        )
    # The MRTR field types.
    bad_state = (
        ("null", None),
        ("number", 42),
        ("object", {"a": 1}),
        ("array", ["s"]),
        ("bool", True),
    )
    bad_resp = (("null", None), ("number", 7), ("string", "x"), ("array", [1]), ("bool", False))
    for method in MRTR:
        m = _short(method)
        for label, value in bad_state:
            case(
                f,
                f"{m}-state-{label}",
                "params.requestState of the wrong type",
                ["MRTR-ROUND-1", "MRTR-SEED-5"],
                ["FieldType"],
                inp(params_for(method, requestState=value), [ret()], method=method),
                out(err(-32602, "`requestState` must be a string")),
            )
        for label, value in bad_resp:
            case(
                f,
                f"{m}-responses-{label}",
                "params.inputResponses of the wrong type",
                ["MRTR-ROUND-1", "MRTR-SEED-5"],
                ["FieldType"],
                inp(params_for(method, inputResponses=value), [ret()], method=method),
                out(err(-32602, "`inputResponses` must be an object")),
            )
        case(
            f,
            f"{m}-meta-state-null",
            "_meta.requestState null",
            ["MRTR-SEED-5"],
            ["FieldType"],
            inp(params_for(method, _meta=meta(requestState=None)), [ret()], method=method),
            out(err(-32602, "`requestState` must be a string")),
        )
        case(
            f,
            f"{m}-meta-responses-list",
            "_meta.inputResponses a list",
            ["MRTR-SEED-5"],
            ["FieldType"],
            inp(params_for(method, _meta=meta(inputResponses=[])), [ret()], method=method),
            out(err(-32602, "`inputResponses` must be an object")),
        )
        case(
            f,
            f"{m}-bad-params-good-meta",
            "a bad params value next to a good _meta one is still rejected",
            ["MRTR-SEED-5"],
            ["FieldType"],
            inp(
                params_for(method, requestState=1, _meta=meta(requestState="v1.0.a.b")),
                [ret()],
                method=method,
            ),
            out(err(-32602, "`requestState` must be a string")),
        )
        case(
            f,
            f"{m}-params-before-meta",
            "params.inputResponses bad and _meta.requestState bad: params are checked first",
            ["MRTR-SEED-5"],
            ["FieldType"],
            inp(
                params_for(method, inputResponses=1, _meta=meta(requestState=2)),
                [ret()],
                method=method,
            ),
            out(err(-32602, "`inputResponses` must be an object")),
        )
        case(
            f,
            f"{m}-state-before-responses",
            "both wrong in params: requestState is reported",
            ["MRTR-SEED-5"],
            ["FieldType"],
            inp(params_for(method, requestState=None, inputResponses=None), [ret()], method=method),
            out(err(-32602, "`requestState` must be a string")),
        )
        case(
            f,
            f"{m}-envelope-before-fields",
            "a missing protocolVersion outranks a bad requestState",
            ["MRTR-ROUND-1"],
            ["Envelope"],
            inp({"name": "greet", "requestState": 5, "_meta": {C: {}}}, [ret()], method=method),
            out(err(-32602, MSG_V)),
        )
    for label, value in bad_state[:3]:
        case(
            f,
            f"custom-state-{label}",
            "a custom method owns requestState (a_custom_method_owns_its_own_params)",
            ["MRTR-ROUND-9"],
            ["FieldType"],
            inp(
                {"requestState": value, "inputResponses": [1], "_meta": meta()},
                [ret()],
                method="custom/echo",
            ),
            out(ok(PLAIN)),
            "upstream-test:a_custom_method_owns_its_own_params",
        )


def seed() -> None:
    f = "round_seed"
    p = params_for("tools/call")
    binding("tools/call", p)
    good = inbound("tools/call", p, requested=["name"])
    cases = [
        (
            "oversized",
            "A" * 300,
            server(max_state_bytes=256),
            "requestState exceeds the configured maximum size",
            "MRTR-SEED-1",
        ),
        ("malformed", "v1.0.abc", server(), "malformed requestState", "MRTR-SEED-1"),
        (
            "bad-version",
            "v9.0.AAECAwQFBgcICQoL.AAAA",
            server(),
            "unsupported requestState version",
            "MRTR-SEED-1",
        ),
        (
            "unknown-kid",
            "v1.7.AAECAwQFBgcICQoL.AAAA",
            server(),
            "unknown requestState key id",
            "MRTR-SEED-1",
        ),
        (
            "wrong-secret",
            inbound("tools/call", p, requested=["name"], secret=b"other"),
            server(),
            "requestState integrity check failed",
            "MRTR-SEED-1",
        ),
        (
            "expired",
            inbound("tools/call", p, requested=["name"], exp=NOW - 1),
            server(),
            "requestState expired",
            "MRTR-SEED-1",
        ),
        (
            "other-request",
            inbound("tools/call", {"name": "other"}, requested=["name"]),
            server(),
            "requestState does not match this request",
            "MRTR-SEED-1",
        ),
        (
            "principal-dropped",
            inbound("tools/call", p, requested=["name"], principal="alice"),
            server(),
            "requestState principal mismatch",
            "MRTR-SEED-1",
        ),
        (
            "principal-other",
            inbound("tools/call", p, requested=["name"], principal="alice"),
            server(principal="bob"),
            "requestState principal mismatch",
            "MRTR-SEED-1",
        ),
        (
            "principal-added",
            good,
            server(principal="alice"),
            "requestState principal mismatch",
            "MRTR-SEED-1",
        ),
        (
            "audience-other",
            inbound("tools/call", p, requested=["name"], aud="svc-a"),
            server(audience="svc-b"),
            "requestState audience mismatch",
            "MRTR-SEED-1",
        ),
        (
            "audience-unbound-demanded",
            good,
            server(audience="svc"),
            "requestState audience mismatch",
            "MRTR-SEED-1",
        ),
        (
            "audience-bound-unconfigured",
            inbound("tools/call", p, requested=["name"], aud="svc"),
            server(),
            "requestState audience mismatch",
            "MRTR-SEED-1",
        ),
    ]
    for slug, token, srv, message, rule in cases:
        case(
            f,
            f"verify-{slug}",
            f"the inbound state fails: {message}; nothing runs",
            [rule],
            ["Verify"],
            inp(
                {**p, "requestState": token, "inputResponses": {"name": ACCEPT}},
                [{"op": "once", "key": "o"}, *GREET],
                srv=srv,
            ),
            out(err(-32602, message)),
        )
    tok_now = inbound("tools/call", p, requested=["name"], exp=NOW)
    case(
        f,
        "verify-exp-equals-now",
        "exp == now is still valid: the round completes",
        ["MRTR-SEED-1"],
        ["Verify"],
        inp({**p, "requestState": tok_now, "inputResponses": {"name": ACCEPT}}, GREET),
        final(tok_now, {"name": ACCEPT}, ["commit:greet"]),
    )
    tok_meta = inbound("tools/call", p, requested=["name"])
    case(
        f,
        "verify-meta-location",
        "the legacy _meta location carries the state and the answers",
        ["MRTR-SEED-1", "MRTR-SEED-6"],
        ["Verify"],
        inp({**p, "_meta": meta(requestState=tok_meta, inputResponses={"name": ACCEPT})}, GREET),
        final(tok_meta, {"name": ACCEPT}, ["commit:greet"]),
        "upstream-test:a_retry_stating_its_answers_in_meta_is_still_understood",
    )
    case(
        f,
        "verify-params-shadow-meta-responses",
        "an empty params.inputResponses shadows _meta's answers: the key is asked again",
        ["MRTR-SEED-6"],
        ["Merge"],
        inp(
            {
                **p,
                "requestState": tok_meta,
                "inputResponses": {},
                "_meta": meta(inputResponses={"name": ACCEPT}),
            },
            GREET,
        ),
        out(
            input_required(
                {"name": env("elicitation/create", "name")},
                mint_state("tools/call", p, requested=["name"]),
            )
        ),
        "upstream-test:mrtr_fields_are_read_from_params_first",
    )
    case(
        f,
        "verify-bad-meta-voids-fallback",
        "a _meta that fails the typed read (roots: 5) loses the legacy state, then fails the params read with serde's text",
        ["MRTR-SEED-6", "MRTR-ROUND-3"],
        ["Params"],
        inp(
            {
                **p,
                "_meta": meta(
                    {"elicitation": {}, "roots": 5},
                    requestState=tok_meta,
                    inputResponses={"name": ACCEPT},
                ),
            },
            GREET,
        ),
        out(err(-32602, "data did not match any variant of untagged enum Declaration")),
    )
    # Merge rules, observed through a second pending ask that mints a state.
    pending2 = [ask("name"), ask("age"), ret()]
    for slug, state_kw, answers, sealed, comment, origin in (
        (
            "no-state-accepts-all",
            None,
            {"name": ACCEPT, "extra": MONA},
            {"name": ACCEPT, "extra": MONA},
            "with no state every offered answer is accepted (and sealed)",
            "upstream-test:answers_offered_without_a_request_state_are_available_to_the_handler",
        ),
        (
            "unsolicited-dropped",
            {"requested": ["name"]},
            {"name": ACCEPT, "extra": MONA},
            {"name": ACCEPT},
            "a key the state did not ask for is dropped",
            "upstream-test:an_unsolicited_key_is_dropped_once_a_state_says_what_was_asked",
        ),
        (
            "settled-kept",
            {"answers": {"name": ACCEPT}, "requested": ["name"]},
            {"name": MONA},
            {"name": ACCEPT},
            "a settled answer is not overwritten",
            "upstream-test:a_settled_answer_is_not_overwritten_by_a_later_one",
        ),
        (
            "solicited-accepted",
            {"requested": ["name"]},
            {"name": ACCEPT},
            {"name": ACCEPT},
            "the requested key is accepted",
            "upstream-test:solicited_input_response_is_accepted",
        ),
        (
            "preseeded-next-dropped",
            {"requested": ["name"]},
            {"name": ACCEPT, "age": MONA},
            {"name": ACCEPT},
            "an answer pre-seeded for a key not yet asked is unsolicited",
            "handwritten",
        ),
    ):
        params = dict(p)
        if state_kw is not None:
            params["requestState"] = inbound("tools/call", p, **state_kw)
        params["inputResponses"] = answers
        case(
            f,
            f"merge-{slug}",
            comment,
            ["MRTR-SEED-2", "MRTR-SEED-3", "MRTR-SEED-4"],
            ["Merge"],
            inp(params, pending2),
            out(
                input_required(
                    {"age": env("elicitation/create", "age")},
                    mint_state("tools/call", p, answers=sealed, requested=["age"]),
                )
            ),
            origin,
        )
    params = {
        **p,
        "requestState": inbound("tools/call", p, requested=[]),
        "inputResponses": {"name": ACCEPT},
    }
    case(
        f,
        "merge-empty-requested-drops-all",
        "a state with requested [] (the old schema) drops every answer",
        ["MRTR-SEED-3"],
        ["Merge"],
        inp(params, GREET),
        out(
            input_required(
                {"name": env("elicitation/create", "name")},
                mint_state("tools/call", p, requested=["name"]),
            )
        ),
    )
    tok = inbound("tools/call", p, answers={"name": ACCEPT}, requested=["age"])
    params = {**p, "requestState": tok, "inputResponses": {"age": "not an answer"}}
    case(
        f,
        "merge-accepts-without-typing",
        "the merge accepts any JSON: typing happens only when asked (here: never); the digest covers it",
        ["MRTR-SEED-4", "MRTR-CTX-2"],
        ["Merge"],
        inp(params, [ask("name"), ret()]),
        final(tok, {"name": ACCEPT, "age": "not an answer"}, []),
    )
    params = {
        **p,
        "requestState": inbound(
            "tools/call", p, memos={"quote": 42}, effects=["charge"], requested=["name"]
        ),
        "inputResponses": {},
    }
    case(
        f,
        "seed-memos-and-effects",
        "the state's memos and effects seed the round: neither reruns, and both are carried",
        ["MRTR-SEED-1", "MRTR-CTX-5", "MRTR-CTX-6"],
        ["Effects"],
        inp(
            params,
            [
                {"op": "memo", "key": "quote", "value": 1},
                {"op": "once", "key": "charge"},
                ask("name"),
                ret(),
            ],
        ),
        out(
            input_required(
                {"name": env("elicitation/create", "name")},
                mint_state(
                    "tools/call", p, memos={"quote": 42}, effects=["charge"], requested=["name"]
                ),
            )
        ),
    )


def context() -> None:
    f = "round_context"
    p = params_for("tools/call")
    misfits = [
        ("elicitation/create", "number", 12345),
        ("elicitation/create", "string", "yes"),
        ("elicitation/create", "null", None),
        ("elicitation/create", "empty", {}),
        ("elicitation/create", "bad-action", {"action": "maybe"}),
        ("elicitation/create", "action-number", {"action": 1}),
        ("elicitation/create", "array-empty", []),
        (
            "sampling/createMessage",
            "no-model",
            {"role": "assistant", "content": {"type": "text", "text": "x"}},
        ),
        (
            "sampling/createMessage",
            "bad-role",
            {"role": "system", "content": {"type": "text", "text": "x"}, "model": "m"},
        ),
        (
            "sampling/createMessage",
            "content-scalar",
            {"role": "user", "content": "x", "model": "m"},
        ),
        ("sampling/createMessage", "elicit-shaped", ACCEPT),
        (
            "sampling/createMessage",
            "image-no-mime",
            {"role": "user", "content": {"type": "image", "data": "AA=="}, "model": "m"},
        ),
        (
            "sampling/createMessage",
            "unknown-content-type",
            {"role": "user", "content": {"type": "video", "url": "x"}, "model": "m"},
        ),
        (
            "sampling/createMessage",
            "array-one-bad",
            {
                "role": "user",
                "content": [{"type": "text", "text": "a"}, {"type": "text"}],
                "model": "m",
            },
        ),
        (
            "sampling/createMessage",
            "text-not-string",
            {"role": "user", "content": {"type": "text", "text": 5}, "model": "m"},
        ),
        # serde_json's enum forms: a map form with a non-unit value, or two keys, is refused
        ("elicitation/create", "action-map-value", {"action": {"accept": 1}}),
        ("elicitation/create", "action-map-two-keys", {"action": {"accept": None, "cancel": None}}),
        # audio/image `data` reads through deserialize_base64_as_bytes (STANDARD: padded, canonical)
        (
            "sampling/createMessage",
            "image-data-not-base64",
            {
                "role": "user",
                "content": {"type": "image", "data": "not base64!", "mimeType": "image/png"},
                "model": "m",
            },
        ),
        (
            "sampling/createMessage",
            "image-data-unpadded",
            {
                "role": "user",
                "content": {"type": "image", "data": "AA", "mimeType": "image/png"},
                "model": "m",
            },
        ),
        (
            "sampling/createMessage",
            "image-data-trailing-bits",
            {
                "role": "user",
                "content": {"type": "image", "data": "AB==", "mimeType": "image/png"},
                "model": "m",
            },
        ),
        (
            "sampling/createMessage",
            "audio-data-urlsafe",
            {
                "role": "user",
                "content": {"type": "audio", "data": "-_8=", "mimeType": "audio/wav"},
                "model": "m",
            },
        ),
        # EmptyContent is a unit struct: no members besides the tag
        (
            "sampling/createMessage",
            "empty-content-with-member",
            {"role": "user", "content": {"type": "empty", "text": "x"}, "model": "m"},
        ),
        # ResourceLink.icons is Option<Vec<Icon>>; an icon's `src` is a String
        (
            "sampling/createMessage",
            "resource-link-icon-src-number",
            {
                "role": "user",
                "content": {
                    "type": "resource_link",
                    "uri": "file:///a",
                    "name": "a",
                    "icons": [{"src": 1}],
                },
                "model": "m",
            },
        ),
        # Annotations: `audience: Vec<Role>` and `priority: f32` are required (no serde(default))
        (
            "sampling/createMessage",
            "annotations-empty",
            {
                "role": "user",
                "content": {"type": "text", "text": "x", "annotations": {}},
                "model": "m",
            },
        ),
        (
            "sampling/createMessage",
            "annotations-no-priority",
            {
                "role": "user",
                "content": {"type": "text", "text": "x", "annotations": {"audience": ["user"]}},
                "model": "m",
            },
        ),
        (
            "sampling/createMessage",
            "annotations-bad-role",
            {
                "role": "user",
                "content": {
                    "type": "image",
                    "data": "AA==",
                    "mimeType": "image/png",
                    "annotations": {"audience": ["system"], "priority": 1},
                },
                "model": "m",
            },
        ),
        (
            "sampling/createMessage",
            "annotations-bad-last-modified",
            {
                "role": "user",
                "content": {
                    "type": "text",
                    "text": "x",
                    "annotations": {"audience": [], "priority": 1, "lastModified": "yesterday"},
                },
                "model": "m",
            },
        ),
        # EmbeddedResource.resource: every ResourceContents variant needs a string `uri`
        (
            "sampling/createMessage",
            "resource-no-uri",
            {
                "role": "user",
                "content": {"type": "resource", "resource": {"text": "t"}},
                "model": "m",
            },
        ),
        (
            "sampling/createMessage",
            "resource-annotations-empty",
            {
                "role": "user",
                "content": {
                    "type": "resource",
                    "resource": {"uri": "file:///a", "text": "t", "annotations": {}},
                },
                "model": "m",
            },
        ),
        ("roots/list", "no-name", {"roots": [{"uri": "file:///work"}]}),
        ("roots/list", "not-list", {"roots": {"uri": "file:///w", "name": "w"}}),
        ("roots/list", "uri-number", {"roots": [{"uri": 1, "name": "w"}]}),
        ("roots/list", "missing", {}),
        ("roots/list", "elicit-shaped", ACCEPT),
    ]
    caps = {"elicitation": {}, "sampling": {}, "roots": {}}
    for method, slug, answer in misfits:
        kind = method.split("/")[0]
        for where in ("no-state", "state"):
            params = {**params_for("tools/call", _meta=meta(caps)), "inputResponses": {"k": answer}}
            if where == "state":
                params["requestState"] = inbound("tools/call", p, requested=["k"])
            case(
                f,
                f"misfit-{kind}-{slug}-{where}",
                "a wrongly typed answer is a JSON-RPC -32602 naming the kind",
                ["MRTR-CTX-2", "MRTR-ROUND-4"],
                ["Malformed"],
                inp(params, [ask("k", method), {"op": "on_commit", "label": "c"}, ret()]),
                out(err(-32602, f"the answer for `k` is not a valid {method} result: <serde>")),
                "upstream-test:an_answer_of_the_wrong_shape_is_a_protocol_error"
                if slug == "number"
                else "handwritten",
            )
    fits = [
        ("elicitation/create", "content-null", {"action": "accept", "content": None}),
        ("elicitation/create", "cancel", {"action": "cancel"}),
        ("elicitation/create", "decline-extra", {"action": "decline", "extra": [1, 2]}),
        (
            "sampling/createMessage",
            "content-array",
            {
                "role": "user",
                "content": [{"type": "text", "text": "a"}],
                "model": "m",
                "stopReason": "endTurn",
            },
        ),
        ("sampling/createMessage", "text", SAMPLED),
        (
            "sampling/createMessage",
            "image",
            {
                "role": "user",
                "content": {"type": "image", "data": "AA==", "mimeType": "image/png"},
                "model": "m",
            },
        ),
        (
            "sampling/createMessage",
            "tool-use",
            {
                "role": "assistant",
                "content": {"type": "tool_use", "id": "1", "name": "t", "input": {}},
                "model": "m",
            },
        ),
        (
            "sampling/createMessage",
            "empty-content-list",
            {"role": "assistant", "content": [], "model": "m"},
        ),
        (
            "roots/list",
            "root-meta",
            {"roots": [{"uri": "file:///w", "name": "w", "_meta": {"k": 1}}]},
        ),
        # serde_json reads a unit variant from its map form {"<name>": null} too
        ("elicitation/create", "action-map-form", {"action": {"decline": None}}),
        (
            "sampling/createMessage",
            "role-map-form",
            {"role": {"assistant": None}, "content": {"type": "text", "text": "x"}, "model": "m"},
        ),
        (
            "sampling/createMessage",
            "audio-standard-base64",
            {
                "role": "user",
                "content": {"type": "audio", "data": "aGk+/w==", "mimeType": "audio/wav"},
                "model": "m",
            },
        ),
        (
            "sampling/createMessage",
            "empty-content",
            {"role": "user", "content": {"type": "empty"}, "model": "m"},
        ),
        (
            "sampling/createMessage",
            "resource-link-icon",
            {
                "role": "user",
                "content": {
                    "type": "resource_link",
                    "uri": "file:///a",
                    "name": "a",
                    "icons": [{"src": "https://e.io/i.png"}],
                },
                "model": "m",
            },
        ),
        # Annotations with their required members; tool_use has no `annotations` member (ignored)
        (
            "sampling/createMessage",
            "annotations-full",
            {
                "role": "user",
                "content": {
                    "type": "text",
                    "text": "x",
                    "annotations": {
                        "audience": ["user", {"assistant": None}],
                        "priority": 0.5,
                        "lastModified": "2025-01-12T15:00:58Z",
                    },
                },
                "model": "m",
            },
        ),
        (
            "sampling/createMessage",
            "tool-use-annotations-ignored",
            {
                "role": "user",
                "content": {"type": "tool_use", "id": "1", "name": "t", "annotations": 5},
                "model": "m",
            },
        ),
        # an undecodable blob still reads as ResourceContents::Empty (untagged, unknown members ignored)
        (
            "sampling/createMessage",
            "resource-blob-falls-to-empty",
            {
                "role": "user",
                "content": {"type": "resource", "resource": {"uri": "file:///a", "blob": "!!"}},
                "model": "m",
            },
        ),
        ("roots/list", "empty", {"roots": []}),
        ("roots/list", "one", ROOTS),
    ]
    for method, slug, answer in fits:
        kind = method.split("/")[0]
        params = {**params_for("tools/call", _meta=meta(caps)), "inputResponses": {"k": answer}}
        case(
            f,
            f"fit-{kind}-{slug}",
            "an answer that reads as the kind's result completes the call",
            ["MRTR-CTX-1", "MRTR-CTX-2"],
            ["Malformed"],
            inp(params, [ask("k", method), {"op": "on_commit", "label": "c"}, ret()]),
            out(ok(PLAIN), ["commit:c"]),
            "upstream-test:resolve_replays_each_input_kind_as_its_own_result_type"
            if kind != "elicitation"
            else "upstream-test:resolve_replays_cached_answer_and_records_pending_on_miss",
        )
    params = {**params_for("tools/call"), "inputResponses": {"a": 1, "b": "x"}}
    case(
        f,
        "malformed-first-wins",
        "two misfits (held): the first recorded reason is the response",
        ["MRTR-CTX-2", "MRTR-ROUND-4"],
        ["Malformed"],
        inp(params, [ask("a", on_error="hold"), ask("b", on_error="hold"), {"op": "raise"}, ret()]),
        out(err(-32602, "the answer for `a` is not a valid elicitation/create result: <serde>")),
    )
    params = {**params_for("tools/call"), "inputResponses": {"a": 1}}
    case(
        f,
        "malformed-outranks-pending",
        "a misfit and a pending ask in one round: the misfit wins, nothing is minted",
        ["MRTR-ROUND-4"],
        ["Malformed"],
        inp(params, [ask("a", on_error="hold"), ask("b", on_error="hold"), {"op": "raise"}, ret()]),
        out(err(-32602, "the answer for `a` is not a valid elicitation/create result: <serde>")),
    )
    case(
        f,
        "malformed-swallowed-still-error",
        "the handler swallows the misfit and returns success: still -32602, no commit",
        ["MRTR-ROUND-4"],
        ["Malformed"],
        inp(params, [ask("a", on_error="swallow"), {"op": "on_commit", "label": "c"}, ret()]),
        out(err(-32602, "the answer for `a` is not a valid elicitation/create result: <serde>")),
    )
    for method in ("prompts/get", "resources/read"):
        prm = {**params_for(method), "inputResponses": {"a": 1}}
        case(
            f,
            f"malformed-{_short(method)}",
            "the misfit rule on the other MRTR methods",
            ["MRTR-ROUND-4"],
            ["Malformed"],
            inp(prm, [ask("a"), ret({"messages": []})], method=method),
            out(
                err(-32602, "the answer for `a` is not a valid elicitation/create result: <serde>")
            ),
        )
    params = {
        **params_for("tools/call", _meta=meta({"elicitation": {}, "roots": {}})),
        "inputResponses": {"k": ROOTS},
    }
    case(
        f,
        "keys-one-namespace",
        "a roots-shaped answer under a key asked as elicitation: a misfit naming elicitation",
        ["MRTR-CTX-2", "MRTR-CTX-4"],
        ["Malformed"],
        inp(params, [ask("k"), ret()]),
        out(err(-32602, "the answer for `k` is not a valid elicitation/create result: <serde>")),
    )
    params = {**params_for("tools/call", _meta=meta({"elicitation": {}, "roots": {}}))}
    case(
        f,
        "same-key-twice-counts-once",
        "the same key asked twice (second as roots) is one pending request: the first wins",
        ["MRTR-CTX-3"],
        ["Requested"],
        inp(
            params,
            [ask("k", on_error="swallow"), ask("k", "roots/list", on_error="swallow"), ret()],
        ),
        out(
            input_required(
                {"k": env("elicitation/create", "k")}, mint_state("tools/call", p, requested=["k"])
            )
        ),
    )
    case(
        f,
        "unasked-answer-unused",
        "an offered answer the handler never asks for is not typed (no error) and is sealed",
        ["MRTR-CTX-2", "MRTR-SEED-4"],
        ["Merge"],
        inp({**p, "inputResponses": {"x": 5}}, [ask("name"), ret()]),
        out(
            input_required(
                {"name": env("elicitation/create", "name")},
                mint_state("tools/call", p, answers={"x": 5}, requested=["name"]),
            )
        ),
    )
    # memo / once, inside MRTR.
    case(
        f,
        "memo-computed-and-sealed",
        "a memo computed in a minting round is sealed; ran lists it",
        ["MRTR-CTX-5"],
        ["Effects"],
        inp(p, [{"op": "memo", "key": "quote", "value": {"price": 42}}, ask("name"), ret()]),
        out(
            input_required(
                {"name": env("elicitation/create", "name")},
                mint_state("tools/call", p, memos={"quote": {"price": 42}}, requested=["name"]),
            ),
            ["memo:quote"],
        ),
    )
    case(
        f,
        "memo-twice-in-a-round",
        "the same memo key twice in one round computes once",
        ["MRTR-CTX-5"],
        ["Effects"],
        inp(
            p,
            [
                {"op": "memo", "key": "q", "value": 1},
                {"op": "memo", "key": "q", "value": 2},
                ask("name"),
                ret(),
            ],
        ),
        out(
            input_required(
                {"name": env("elicitation/create", "name")},
                mint_state("tools/call", p, memos={"q": 1}, requested=["name"]),
            ),
            ["memo:q"],
        ),
    )
    case(
        f,
        "memo-fail-not-stored",
        "a failing memo (held) stores nothing; the round still mints",
        ["MRTR-CTX-5"],
        ["Effects"],
        inp(
            p,
            [
                {
                    "op": "memo",
                    "key": "q",
                    "fail": {"code": -32603, "message": "down"},
                    "on_error": "hold",
                },
                ask("name", on_error="hold"),
                {"op": "raise"},
                ret(),
            ],
        ),
        out(
            input_required(
                {"name": env("elicitation/create", "name")},
                mint_state("tools/call", p, requested=["name"]),
            ),
            ["memo:q"],
        ),
    )
    case(
        f,
        "memo-fail-propagates",
        "a failing memo propagated on tools/call is folded into isError; nothing commits",
        ["MRTR-CTX-5", "MRTR-ROUND-7"],
        ["Effects", "Wrapper"],
        inp(
            p,
            [
                {"op": "on_commit", "label": "c"},
                {
                    "op": "memo",
                    "key": "q",
                    "fail": {"code": -32603, "message": "quote service down"},
                },
                ret(),
            ],
        ),
        out(ok(folded("quote service down")), ["memo:q"]),
    )
    case(
        f,
        "once-sealed",
        "a once effect run in a minting round is sealed into effects",
        ["MRTR-CTX-6"],
        ["Effects"],
        inp(
            p, [{"op": "once", "key": "charge"}, {"op": "once", "key": "audit"}, ask("name"), ret()]
        ),
        out(
            input_required(
                {"name": env("elicitation/create", "name")},
                mint_state("tools/call", p, effects=["audit", "charge"], requested=["name"]),
            ),
            ["once:charge", "once:audit"],
        ),
    )
    case(
        f,
        "once-twice-in-a-round",
        "the same once key twice in one round runs once",
        ["MRTR-CTX-6"],
        ["Effects"],
        inp(p, [{"op": "once", "key": "c"}, {"op": "once", "key": "c"}, ask("name"), ret()]),
        out(
            input_required(
                {"name": env("elicitation/create", "name")},
                mint_state("tools/call", p, effects=["c"], requested=["name"]),
            ),
            ["once:c"],
        ),
    )
    case(
        f,
        "once-fail-not-recorded",
        "a failing once effect (swallowed) is not recorded, so a later round retries it",
        ["MRTR-CTX-6"],
        ["Effects"],
        inp(
            p,
            [
                {
                    "op": "once",
                    "key": "c",
                    "fail": {"code": -32603, "message": "x"},
                    "on_error": "swallow",
                },
                ask("name"),
                ret(),
            ],
        ),
        out(
            input_required(
                {"name": env("elicitation/create", "name")},
                mint_state("tools/call", p, requested=["name"]),
            ),
            ["once:c"],
        ),
    )
    tok = inbound("tools/call", p, effects=["c"], requested=["name"])
    params = {**p, "requestState": tok, "inputResponses": {"name": ACCEPT}}
    case(
        f,
        "once-seeded-skips",
        "a once key in the state's effects does not run again",
        ["MRTR-CTX-6"],
        ["Effects"],
        inp(params, [{"op": "once", "key": "c"}, ask("name"), ret()]),
        final(tok, {"name": ACCEPT}, []),
    )
    # Outside MRTR.
    cust = {"_meta": meta({"elicitation": {}, "sampling": {}, "roots": {}})}
    for method, word in (
        ("elicitation/create", "elicitation"),
        ("sampling/createMessage", "sampling"),
        ("roots/list", "roots"),
    ):
        case(
            f,
            f"outside-{word}",
            f"{word} on a custom method is -32600 (a JSON-RPC error: no tool wrapper)",
            ["MRTR-CTX-8"],
            ["Effects"],
            inp(cust, [ask("k", method), ret()], method="custom/x"),
            out(err(-32600, f"{word} is not available for this request")),
        )
        case(
            f,
            f"outside-{word}-swallowed",
            f"{word} swallowed on a custom method: the call completes, nothing is minted",
            ["MRTR-CTX-8"],
            ["Effects"],
            inp(cust, [ask("k", method, on_error="swallow"), ret()], method="custom/x"),
            out(ok(PLAIN)),
        )
    case(
        f,
        "outside-once-memo-commit",
        "outside MRTR once runs every time, memo computes every time, on_commit never runs",
        ["MRTR-CTX-8"],
        ["Effects"],
        inp(
            cust,
            [
                {"op": "once", "key": "o"},
                {"op": "once", "key": "o"},
                {"op": "memo", "key": "m", "value": 1},
                {"op": "memo", "key": "m", "value": 1},
                {"op": "on_commit", "label": "c"},
                ret(),
            ],
            method="custom/x",
        ),
        out(ok(PLAIN), ["once:o", "once:o", "memo:m", "memo:m"]),
    )
    case(
        f,
        "outside-answers-ignored",
        "a custom method with answers and a state in params: no seeding, the ask is still -32600",
        ["MRTR-CTX-8", "MRTR-ROUND-9"],
        ["Effects"],
        inp(
            {**cust, "inputResponses": {"k": ACCEPT}, "requestState": "junk"},
            [ask("k"), ret()],
            method="custom/x",
        ),
        out(err(-32600, "elicitation is not available for this request")),
    )
    case(
        f,
        "if-declared-custom",
        "if_declared reads the declared capabilities on a custom method too",
        ["MRTR-CTX-9", "MRTR-ROUND-2"],
        ["Effects"],
        inp(
            {"_meta": meta({"sampling": {}})},
            [
                {
                    "op": "if_declared",
                    "capability": "sampling",
                    "then": [ret({"picked": "sampling"})],
                    "else": [ret({"picked": "other"})],
                }
            ],
            method="custom/x",
        ),
        out(ok(stamped({"picked": "sampling"}))),
    )
    case(
        f,
        "if-declared-bad-meta",
        "a _meta failing the typed read declares nothing on a custom method (not an error)",
        ["MRTR-CTX-9"],
        ["Effects"],
        inp(
            {"_meta": meta({"sampling": {}, "roots": 5})},
            [
                {
                    "op": "if_declared",
                    "capability": "sampling",
                    "then": [ret({"picked": "sampling"})],
                    "else": [ret({"picked": "none"})],
                }
            ],
            method="custom/x",
        ),
        out(ok(stamped({"picked": "none"}))),
    )


def after() -> None:
    f = "round_after"
    p = params_for("tools/call")
    r = lambda name: env("elicitation/create", name)  # noqa: E731 -- shorthand
    # Pending forces input_required whatever the handler returned; that round's commits are dropped.
    for slug, script in (
        (
            "swallowed-success",
            [{"op": "on_commit", "label": "c"}, ask("name", on_error="swallow"), ret()],
        ),
        ("propagated-folded", [{"op": "on_commit", "label": "c"}, ask("name"), ret()]),
        (
            "held-then-fail",
            [ask("name", on_error="hold"), {"op": "on_commit", "label": "c"}, fail(-32603, "boom")],
        ),
        (
            "is-error-result",
            [
                ask("name", on_error="swallow"),
                {"op": "on_commit", "label": "c"},
                ret({"content": [], "isError": True}),
            ],
        ),
    ):
        case(
            f,
            f"pending-{slug}",
            "a pending input forces input_required; the round's commits never run",
            ["MRTR-ROUND-5"],
            ["Pending"],
            inp(p, script),
            out(
                input_required({"name": r("name")}, mint_state("tools/call", p, requested=["name"]))
            ),
        )
    for method in ("prompts/get", "resources/read"):
        prm = params_for(method)
        case(
            f,
            f"pending-{_short(method)}",
            "the pending rule on the other MRTR methods (their Err is not folded, yet pending wins)",
            ["MRTR-ROUND-5"],
            ["Pending"],
            inp(prm, [ask("name"), ret({"messages": []})], method=method),
            out(input_required({"name": r("name")}, mint_state(method, prm, requested=["name"]))),
        )
        case(
            f,
            f"fail-{_short(method)}",
            "a handler error on a prompt/resource is a JSON-RPC error, not isError",
            ["MRTR-ROUND-7"],
            ["Wrapper"],
            inp(
                prm,
                [{"op": "on_commit", "label": "c"}, fail(-32602, "bad prompt", data={"x": 1})],
                method=method,
            ),
            out(err(-32602, "bad prompt", {"x": 1})),
        )
        case(
            f,
            f"commit-{_short(method)}",
            "a prompt/resource success without isError commits",
            ["MRTR-ROUND-6"],
            ["Commit"],
            inp(prm, [{"op": "on_commit", "label": "c"}, ret({"messages": []})], method=method),
            out(ok(stamped({"messages": []})), ["commit:c"]),
        )
    case(
        f,
        "requested-pending-only",
        "requested holds only this round's pending keys, in ask order",
        ["MRTR-ROUND-8"],
        ["Requested"],
        inp(
            {**p, "inputResponses": {"a": ACCEPT}},
            [
                ask("a"),
                ask("c", on_error="hold"),
                ask("b", on_error="hold"),
                {"op": "raise"},
                ret(),
            ],
        ),
        out(
            input_required(
                {"c": r("c"), "b": r("b")},
                mint_state("tools/call", p, answers={"a": ACCEPT}, requested=["c", "b"]),
            )
        ),
    )
    tok = inbound("tools/call", p, answers={"a": ACCEPT}, requested=["b"])
    case(
        f,
        "requested-not-cumulative",
        "a second round's state lists only what is still pending, not what was asked before",
        ["MRTR-ROUND-8"],
        ["Requested"],
        inp(
            {**p, "requestState": tok, "inputResponses": {"b": MONA}},
            [ask("a"), ask("b"), ask("c"), ret()],
        ),
        out(
            input_required(
                {"c": r("c")},
                mint_state("tools/call", p, answers={"a": ACCEPT, "b": MONA}, requested=["c"]),
            )
        ),
    )
    # The tool wrapper and the error codes.
    for code, wire in (
        (-32000, -32603),
        (-32002, -32602),
        (-99999, -32603),
        (-99998, -32603),
        (-99997, -32603),
        (-32021, -32021),
        (-32600, -32600),
        (1, -32603),
        (-32700, -32700),
    ):
        case(
            f,
            f"code-{str(code).replace('-', 'm')}-prompt",
            f"Error::new({code}) reaches the wire as {wire}",
            ["MRTR-ROUND-7"],
            ["Wrapper"],
            inp(params_for("prompts/get"), [fail(code, "nope")], method="prompts/get"),
            out(err(wire, "nope")),
        )
        case(
            f,
            f"code-{str(code).replace('-', 'm')}-commit",
            f"a commit failing with {code} is the response as {wire} (for tools/call too)",
            ["MRTR-ROUND-6", "MRTR-ROUND-7"],
            ["Commit", "Wrapper"],
            inp(
                p,
                [
                    {"op": "on_commit", "label": "c", "fail": {"code": code, "message": "down"}},
                    ret(),
                ],
            ),
            out(err(wire, "down"), ["commit:c"]),
        )
    case(
        f,
        "tool-fail-folded",
        "a tools/call handler error is folded into isError: text only, code and data lost, no commit",
        ["MRTR-ROUND-7"],
        ["Wrapper"],
        inp(p, [{"op": "on_commit", "label": "c"}, fail(-32602, "no such city", data={"c": 1})]),
        out(ok(folded("no such city"))),
    )
    case(
        f,
        "tool-is-error-no-commit",
        "an isError: true result commits nothing",
        ["MRTR-ROUND-6"],
        ["Commit"],
        inp(p, [{"op": "on_commit", "label": "c"}, ret({"content": [], "isError": True})]),
        out(ok(stamped({"content": [], "isError": True}))),
    )
    case(
        f,
        "tool-is-error-false-commits",
        "isError: false commits",
        ["MRTR-ROUND-6"],
        ["Commit"],
        inp(p, [{"op": "on_commit", "label": "c"}, ret()]),
        out(ok(PLAIN), ["commit:c"]),
    )
    case(
        f,
        "tool-no-is-error-commits",
        "a result without isError commits",
        ["MRTR-ROUND-6"],
        ["Commit"],
        inp(p, [{"op": "on_commit", "label": "c"}, ret({"content": []})]),
        out(ok(stamped({"content": []})), ["commit:c"]),
    )
    case(
        f,
        "tool-is-error-string-commits",
        'isError "true" (a string) is not true: commits',
        ["MRTR-ROUND-6"],
        ["Commit"],
        inp(p, [{"op": "on_commit", "label": "c"}, ret({"content": [], "isError": "true"})]),
        out(ok(stamped({"content": [], "isError": "true"})), ["commit:c"]),
    )
    case(
        f,
        "commits-in-order",
        "commits run in registration order",
        ["MRTR-ROUND-6"],
        ["Commit"],
        inp(
            p,
            [
                {"op": "on_commit", "label": "b"},
                {"op": "on_commit", "label": "a"},
                {"op": "on_commit", "label": "c"},
                ret(),
            ],
        ),
        out(ok(PLAIN), ["commit:b", "commit:a", "commit:c"]),
    )
    case(
        f,
        "commit-first-failure-stops",
        "the first failing commit stops the rest and becomes the error",
        ["MRTR-ROUND-6"],
        ["Commit"],
        inp(
            p,
            [
                {"op": "on_commit", "label": "a"},
                {
                    "op": "on_commit",
                    "label": "b",
                    "fail": {"code": -32603, "message": "b down", "data": [1]},
                },
                {"op": "on_commit", "label": "c", "fail": {"code": -32603, "message": "c down"}},
                ret(),
            ],
        ),
        out(err(-32603, "b down", [1]), ["commit:a", "commit:b"]),
    )
    case(
        f,
        "no-state-final-not-stored",
        "a one-shot call with no state commits but is never stored",
        ["MRTR-ROUND-6", "MRTR-STORE-2"],
        ["Commit", "Store"],
        inp({**p, "inputResponses": {"name": ACCEPT}}, GREET),
        out(ok(PLAIN), ["commit:greet"]),
    )
    # Capability gate.
    gates = [
        ("elicit-none", {}, [ask("k")], "elicitation/create", {"elicitation": {"form": {}}}),
        (
            "elicit-false",
            {"elicitation": False},
            [ask("k")],
            "elicitation/create",
            {"elicitation": {"form": {}}},
        ),
        (
            "elicit-null",
            {"elicitation": None},
            [ask("k")],
            "elicitation/create",
            {"elicitation": {"form": {}}},
        ),
        (
            "url-form-only",
            {"elicitation": {"form": {}}},
            [ask("k", params=URL)],
            "elicitation/create",
            {"elicitation": {"url": {}}},
        ),
        (
            "form-url-only",
            {"elicitation": {"url": True}},
            [ask("k")],
            "elicitation/create",
            {"elicitation": {"form": {}}},
        ),
        (
            "sampling-none",
            {"elicitation": {}},
            [ask("k", "sampling/createMessage")],
            "sampling/createMessage",
            {"sampling": {}},
        ),
        (
            "sampling-false",
            {"sampling": False},
            [ask("k", "sampling/createMessage")],
            "sampling/createMessage",
            {"sampling": {}},
        ),
        ("roots-none", {"elicitation": {}}, [ask("k", "roots/list")], "roots/list", {"roots": {}}),
        ("roots-null", {"roots": None}, [ask("k", "roots/list")], "roots/list", {"roots": {}}),
        (
            "second-of-three",
            {"elicitation": {}, "roots": {}},
            [
                ask("a", on_error="hold"),
                ask("b", "sampling/createMessage", on_error="hold"),
                ask("c", "roots/list", on_error="hold"),
                {"op": "raise"},
            ],
            "sampling/createMessage",
            {"sampling": {}},
        ),
        (
            "first-undeclared-wins",
            {},
            [ask("a", "roots/list", on_error="hold"), ask("b", on_error="hold"), {"op": "raise"}],
            "roots/list",
            {"roots": {}},
        ),
        (
            "bad-meta-declares-nothing",
            {"elicitation": {}, "sampling": "yes"},
            [ask("k")],
            None,
            None,
        ),
    ]
    for slug, caps, script, method, required in gates:
        prm = params_for("tools/call", _meta=meta(caps))
        if method is None:
            expected = out(
                err(-32602, "data did not match any variant of untagged enum Declaration")
            )
        else:
            expected = out(
                err(
                    -32021,
                    f"server requested `{method}` but the client did not declare support",
                    {"requiredCapabilities": required},
                )
            )
        case(
            f,
            f"gate-{slug}",
            "the capability gate: the first undeclared request in ask order fails the whole round",
            ["MRTR-ROUND-8", "MRTR-CAP-7"],
            ["Capability"],
            inp(prm, [{"op": "once", "key": "o"}, *script, ret()]),
            {**expected, "ran": ["once:o"]} if method else expected,
        )
    allowed = [
        (
            "elicit-unconstrained-url",
            {"elicitation": {}},
            ask("k", params=URL),
            {"k": {"method": "elicitation/create", "params": URL}},
        ),
        (
            "elicit-form-false-unconstrained",
            {"elicitation": {"form": False}},
            ask("k", params=URL),
            {"k": {"method": "elicitation/create", "params": URL}},
        ),
        ("elicit-legacy-true", {"elicitation": True}, ask("k"), {"k": r("k")}),
        (
            "sampling-legacy-true",
            {"sampling": True},
            ask("k", "sampling/createMessage"),
            {"k": env("sampling/createMessage", "k")},
        ),
        (
            "roots-object",
            {"roots": {"listChanged": True}},
            ask("k", "roots/list"),
            {"k": env("roots/list", "k")},
        ),
    ]
    for slug, caps, step, requests in allowed:
        prm = params_for("tools/call", _meta=meta(caps))
        case(
            f,
            f"gate-allows-{slug}",
            "a declared kind passes the gate and is minted",
            ["MRTR-ROUND-8", "MRTR-CAP-7"],
            ["Capability"],
            inp(prm, [step, ret()]),
            out(input_required(requests, mint_state("tools/call", prm, requested=["k"]))),
        )
    # Minting.
    case(
        f,
        "mint-ttl-slides",
        "exp = now + ttl with a configured ttl",
        ["MRTR-ROUND-8"],
        ["Mint"],
        inp(p, [ask("k"), ret()], srv=server(ttl=60)),
        out(input_required({"k": r("k")}, mint_state("tools/call", p, requested=["k"], ttl=60))),
    )
    tok = inbound("tools/call", p, answers={"a": ACCEPT}, requested=["b"], exp=NOW + 1)
    case(
        f,
        "mint-ttl-slides-on-retry",
        "a retry's new state gets a fresh exp, not the old one",
        ["MRTR-ROUND-8"],
        ["Mint"],
        inp(
            {**p, "requestState": tok, "inputResponses": {"b": MONA}},
            [ask("a"), ask("b"), ask("c"), ret()],
        ),
        out(
            input_required(
                {"c": r("c")},
                mint_state("tools/call", p, answers={"a": ACCEPT, "b": MONA}, requested=["c"]),
            )
        ),
    )
    case(
        f,
        "mint-principal",
        "the principal is bound into the minted state",
        ["MRTR-ROUND-8"],
        ["Mint"],
        inp(p, [ask("k"), ret()], srv=server(principal="alice")),
        out(
            input_required(
                {"k": r("k")}, mint_state("tools/call", p, requested=["k"], principal="alice")
            )
        ),
    )
    case(
        f,
        "mint-audience-v2",
        "an audience mints a v2 token",
        ["MRTR-ROUND-8"],
        ["Mint"],
        inp(p, [ask("k"), ret()], srv=server(audience="https://weather.example.com/mcp")),
        out(
            input_required(
                {"k": r("k")},
                mint_state("tools/call", p, requested=["k"], aud="https://weather.example.com/mcp"),
            )
        ),
    )
    case(
        f,
        "mint-too-large",
        "a token over max_state_bytes is -32603 requestState too large, after minting (memos ran)",
        ["MRTR-ROUND-8"],
        ["Mint"],
        inp(
            p,
            [{"op": "memo", "key": "big", "value": "x" * 2048}, ask("name"), ret()],
            srv=server(max_state_bytes=256),
        ),
        out(err(-32603, "requestState too large"), ["memo:big"]),
        "upstream-test:oversized_request_state_is_rejected",
    )
    small = mint_state("tools/call", p, requested=["k"])

    size = len(seal(small))
    case(
        f,
        "mint-size-at-cap",
        "a token exactly at the cap is minted",
        ["MRTR-ROUND-8"],
        ["Mint"],
        inp(p, [ask("k"), ret()], srv=server(max_state_bytes=size)),
        out(input_required({"k": r("k")}, small)),
    )
    case(
        f,
        "mint-size-one-over",
        "one byte over the cap is too large",
        ["MRTR-ROUND-8"],
        ["Mint"],
        inp(p, [ask("k"), ret()], srv=server(max_state_bytes=size - 1)),
        out(err(-32603, "requestState too large")),
    )
    case(
        f,
        "mint-no-active-key",
        "an active kid missing from the ring fails the mint",
        ["MRTR-ROUND-8"],
        ["Mint"],
        inp(p, [ask("k"), ret()], srv=server(active_kid="9")),
        out(err(-32603, "active requestState kid has no key in the keyring")),
    )
    case(
        f,
        "mint-bad-kid",
        "an active kid containing '.' fails the mint",
        ["MRTR-ROUND-8"],
        ["Mint"],
        inp(
            p,
            [ask("k"), ret()],
            srv=server(active_kid="a.b", keys=[{"kid": "a.b", "secret_hex": "00"}]),
        ),
        out(err(-32603, "requestState kid must be non-empty and must not contain '.'")),
    )
    case(
        f,
        "mint-gate-before-seal",
        "the gate runs before sealing: an undeclared kind with no key is -32021",
        ["MRTR-ROUND-8"],
        ["Capability"],
        inp(
            params_for("tools/call", _meta=meta({})), [ask("k"), ret()], srv=server(active_kid="9")
        ),
        out(
            err(
                -32021,
                "server requested `elicitation/create` but the client did not declare support",
                {"requiredCapabilities": {"elicitation": {"form": {}}}},
            )
        ),
    )
    # Stamping.
    stamps = [
        (
            "keeps-result-type",
            {"resultType": "task", "x": 1},
            {"resultType": "task", "x": 1, "_meta": {SI_KEY: {"name": "neva", "version": "0.5.4"}}},
        ),
        (
            "keeps-server-info",
            {"_meta": {SI_KEY: {"name": "other", "version": "9"}}},
            {"resultType": "complete", "_meta": {SI_KEY: {"name": "other", "version": "9"}}},
        ),
        (
            "merges-meta",
            {"_meta": {"k": 1}},
            {
                "resultType": "complete",
                "_meta": {"k": 1, SI_KEY: {"name": "neva", "version": "0.5.4"}},
            },
        ),
        ("meta-not-object", {"_meta": 5}, {"resultType": "complete", "_meta": 5}),
        ("meta-null", {"_meta": None}, {"resultType": "complete", "_meta": None}),
        ("array-result", [1, 2], [1, 2]),
        ("string-result", "hi", "hi"),
        ("null-result", None, None),
    ]
    for slug, result, expected in stamps:
        case(
            f,
            f"stamp-{slug}",
            "resultType / serverInfo stamping at the seam",
            ["MRTR-ROUND-10"],
            ["Stamp"],
            inp(
                params_for("prompts/get"),
                [ret(result) if result is not None else {"op": "return", "result": None}],
                method="prompts/get",
            ),
            out(ok(expected)),
        )
    case(
        f,
        "stamp-custom-server-info",
        "a configured server_info is stamped as given",
        ["MRTR-ROUND-10"],
        ["Stamp"],
        inp(p, [ret()], srv=server(server_info={"name": "weather", "version": "1.2.3"})),
        out(ok(stamped(RESULT, {"name": "weather", "version": "1.2.3"}))),
    )
    case(
        f,
        "stamp-error-untouched",
        "an error response is not stamped",
        ["MRTR-ROUND-10"],
        ["Stamp"],
        inp(params_for("prompts/get"), [fail(-32602, "x")], method="prompts/get"),
        out(err(-32602, "x")),
    )
    # The typed params read (step 5).
    for slug, method, prm, message in (
        ("tool-no-name", "tools/call", {"arguments": {}}, "missing field `name`"),
        (
            "tool-name-number",
            "tools/call",
            {"name": 5},
            "invalid type: integer `5`, expected a string",
        ),
        (
            "tool-arguments-string",
            "tools/call",
            {"name": "t", "arguments": "x"},
            'invalid type: string "x", expected a map',
        ),
        (
            "tool-arguments-list",
            "tools/call",
            {"name": "t", "arguments": [1]},
            "invalid type: sequence, expected a map",
        ),
        ("prompt-no-name", "prompts/get", {"arguments": {}}, "missing field `name`"),
        (
            "prompt-name-null",
            "prompts/get",
            {"name": None},
            "invalid type: null, expected a string",
        ),
        ("resource-no-uri", "resources/read", {}, "missing field `uri`"),
        (
            "resource-uri-bool",
            "resources/read",
            {"uri": True},
            "invalid type: boolean `true`, expected a string",
        ),
    ):
        body = {**prm, "_meta": meta()}
        case(
            f,
            f"params-{slug}",
            "the method's typed params read fails before the handler: -32602 with serde's text",
            ["MRTR-ROUND-3"],
            ["Params"],
            inp(body, [{"op": "once", "key": "o"}, ret()], method=method),
            out(err(-32602, message)),
        )
    levels = "`debug`, `info`, `warning`, `error`, `notice`, `critical`, `alert`, `emergency`"
    serde_meta = (
        (
            "log-level-unknown",
            {"io.modelcontextprotocol/logLevel": "loud"},
            f"unknown variant `loud`, expected one of {levels}",
        ),
        (
            "log-level-number",
            {"io.modelcontextprotocol/logLevel": 3},
            "invalid type: integer `3`, expected string or map",
        ),
        ("traceparent-number", {"traceparent": 1}, "invalid type: integer `1`, expected a string"),
        (
            "client-info-no-version",
            {"io.modelcontextprotocol/clientInfo": {"name": "c"}},
            "missing field `version`",
        ),
        (
            "client-info-name-number",
            {"io.modelcontextprotocol/clientInfo": {"name": 1, "version": "1"}},
            "invalid type: integer `1`, expected a string",
        ),
        (
            "progress-token-float",
            {"progressToken": 1.5},
            "invalid type: floating point `1.5`, expected a number, UUID, string, or slash-separated path",
        ),
        (
            "progress-token-bool",
            {"progressToken": True},
            "invalid type: boolean `true`, expected a number, UUID, string, or slash-separated path",
        ),
        (
            "sorted-order",
            {"traceparent": 1, "baggage": 2},
            "invalid type: integer `2`, expected a string",
        ),
        (
            "client-info-before-log-level",
            {"io.modelcontextprotocol/clientInfo": {}, "io.modelcontextprotocol/logLevel": "x"},
            "missing field `name`",
        ),
    )
    for slug, extra, message in serde_meta:
        case(
            f,
            f"params-meta-{slug}",
            "a _meta member the typed read refuses: the params read fails with serde's text (members in sorted key order)",
            ["MRTR-ROUND-3"],
            ["Params"],
            inp(
                params_for("tools/call", _meta=meta(None, **extra)),
                [{"op": "once", "key": "o"}, ret()],
            ),
            out(err(-32602, message)),
        )
        case(
            f,
            f"params-meta-{slug}-custom",
            "the same _meta on a custom method: nothing declared, the handler runs",
            ["MRTR-ROUND-3", "MRTR-CTX-9"],
            ["Params"],
            inp(
                {"_meta": meta(None, **extra)},
                [
                    {
                        "op": "if_declared",
                        "capability": "elicitation",
                        "then": [ret({"declared": True})],
                        "else": [ret({"declared": False})],
                    }
                ],
                method="custom/x",
            ),
            out(ok(stamped({"declared": False}))),
        )
    case(
        f,
        "params-arguments-null-ok",
        "arguments: null reads as absent",
        ["MRTR-ROUND-3"],
        ["Params"],
        inp({"name": "t", "arguments": None, "_meta": meta()}, [ret()]),
        out(ok(PLAIN)),
    )
    case(
        f,
        "params-bad-caps-mrtr",
        "a capability the typed read refuses ends an MRTR round at the params read",
        ["MRTR-ROUND-3"],
        ["Params"],
        inp(
            params_for("tools/call", _meta=meta({"roots": 5})), [{"op": "once", "key": "o"}, ret()]
        ),
        out(err(-32602, "data did not match any variant of untagged enum Declaration")),
    )
    case(
        f,
        "params-bad-caps-custom",
        "the same _meta on a custom method runs with no capabilities",
        ["MRTR-ROUND-3", "MRTR-CTX-9"],
        ["Params"],
        inp({"_meta": meta({"roots": 5})}, [{"op": "once", "key": "o"}, ret()], method="custom/x"),
        out(ok(PLAIN), ["once:o"]),
    )


def store() -> None:
    f = "round_store"
    p = params_for("tools/call")
    tok = inbound("tools/call", p, requested=["name"])
    seeded = {"name": ACCEPT}
    tag = tag_of(tok, seeded)
    cached = ok(stamped(RESULT), id_=2)
    entry = {"tag": tag, "response": cached, "exp": NOW + 50}
    retry = {**p, "requestState": tok, "inputResponses": {"name": ACCEPT}}
    case(
        f,
        "miss-puts",
        "a committing final of a request with a state is stored under last segment + digest",
        ["MRTR-STORE-1", "MRTR-STORE-2"],
        ["Store"],
        inp(retry, GREET, id_=2),
        final(tok, seeded, ["commit:greet"], id_=2),
    )
    for id_ in (3, "abc", 0, -7):
        case(
            f,
            f"hit-id-{str(id_).replace('-', 'm')}",
            "a hit replays the stored response with only the id replaced; nothing runs",
            ["MRTR-STORE-3", "MRTR-STORE-5"],
            ["Store"],
            inp(retry, GREET, id_=id_, store=[entry]),
            out({**cached, "id": id_}, [], None, [entry]),
            "upstream-test:final_round_replay_is_idempotent_after_a_lost_response",
        )
    case(
        f,
        "hit-junk-key",
        "an unrequested extra key does not change the tag: still a hit",
        ["MRTR-STORE-1"],
        ["Store"],
        inp({**retry, "inputResponses": {"name": ACCEPT, "junk": 1}}, GREET, id_=3, store=[entry]),
        out({**cached, "id": 3}, [], None, [entry]),
        "upstream-test:an_ignored_answer_does_not_buy_a_second_run_of_the_final_round",
    )
    case(
        f,
        "hit-legacy-location",
        "a retry stating state and answers in _meta hits the same tag",
        ["MRTR-STORE-1"],
        ["Store"],
        inp(
            {**p, "_meta": meta(requestState=tok, inputResponses={"name": ACCEPT})},
            GREET,
            id_=3,
            store=[entry],
        ),
        out({**cached, "id": 3}, [], None, [entry]),
    )
    tok2 = inbound("tools/call", p, answers={"name": ACCEPT}, requested=["age"])
    tag2 = tag_of(tok2, {"name": ACCEPT})
    e2 = {"tag": tag2, "response": cached, "exp": NOW + 50}
    case(
        f,
        "hit-settled-reanswer",
        "re-answering a settled key does not change the tag",
        ["MRTR-STORE-1"],
        ["Store"],
        inp(
            {**p, "requestState": tok2, "inputResponses": {"name": MONA}}, GREET, id_=3, store=[e2]
        ),
        out({**cached, "id": 3}, [], None, [e2]),
    )
    case(
        f,
        "miss-other-answers",
        "the same state with other answers misses and gets its own entry",
        ["MRTR-STORE-1"],
        ["Store"],
        inp({**retry, "inputResponses": {"name": MONA}}, GREET, id_=3, store=[entry]),
        final(tok, {"name": MONA}, ["commit:greet"], id_=3, store=[entry]),
        "upstream-test:distinct_answers_to_the_same_state_do_not_collide_in_the_cache",
    )
    expired = {**entry, "exp": NOW}
    case(
        f,
        "expired-entry-reruns",
        "an entry with exp == now is not a hit: removed, the round reruns and is stored again",
        ["MRTR-STORE-3"],
        ["Store"],
        inp(retry, GREET, id_=2, store=[expired]),
        final(tok, seeded, ["commit:greet"], id_=2),
    )
    live = {**entry, "exp": NOW + 1}
    case(
        f,
        "exp-now-plus-one-hits",
        "exp == now + 1 is a hit",
        ["MRTR-STORE-3"],
        ["Store"],
        inp(retry, GREET, id_=3, store=[live]),
        out({**cached, "id": 3}, [], None, [live]),
    )
    other_old = {"tag": "zzz.old", "response": cached, "exp": NOW - 5}
    other_live = {"tag": "aaa.live", "response": cached, "exp": NOW + 5}
    case(
        f,
        "put-sweeps-expired",
        "a put removes every expired entry, keeps live ones",
        ["MRTR-STORE-2"],
        ["Store"],
        inp(retry, GREET, id_=2, store=[other_old, other_live]),
        final(tok, seeded, ["commit:greet"], id_=2, store=[other_live]),
        "upstream-test:put_evicts_expired_entries",
    )
    case(
        f,
        "no-put-no-sweep",
        "a round that stores nothing sweeps nothing",
        ["MRTR-STORE-2"],
        ["Store"],
        inp(p, GREET, store=[other_old]),
        out(
            input_required(
                {"name": env("elicitation/create", "name")},
                mint_state("tools/call", p, requested=["name"]),
            ),
            [],
            None,
            [other_old],
        ),
    )
    case(
        f,
        "hit-not-restamped",
        "a stored response is replayed verbatim: not re-stamped",
        ["MRTR-STORE-5"],
        ["Store"],
        inp(retry, GREET, id_=3, store=[{**entry, "response": ok({"bare": True}, id_=2)}]),
        out(
            ok({"bare": True}, id_=3), [], None, [{**entry, "response": ok({"bare": True}, id_=2)}]
        ),
    )
    case(
        f,
        "hit-before-params-read",
        "the lookup precedes the params read: a hit even when _meta fails the typed read",
        ["MRTR-STORE-3", "MRTR-ROUND-3"],
        ["Store"],
        inp({**retry, "_meta": meta({"elicitation": {}, "roots": 5})}, GREET, id_=3, store=[entry]),
        out({**cached, "id": 3}, [], None, [entry]),
    )
    case(
        f,
        "verify-before-lookup",
        "an expired state never reaches the store",
        ["MRTR-STORE-4"],
        ["Store"],
        inp(retry, GREET, id_=3, store=[entry], srv=server(now=NOW + 101)),
        out(err(-32602, "requestState expired", id_=3), [], None, [entry]),
    )
    case(
        f,
        "no-state-no-lookup",
        "a request without a state never consults the store",
        ["MRTR-STORE-4"],
        ["Store"],
        inp({**p, "inputResponses": {"name": ACCEPT}}, GREET, id_=3, store=[entry]),
        out(ok(PLAIN, id_=3), ["commit:greet"], None, [entry]),
    )
    err_entry = err(-32603, "receipt service down", id_=2)
    script5 = [
        ask("name"),
        {"op": "on_commit", "label": "charge"},
        {
            "op": "on_commit",
            "label": "receipt",
            "fail": {"code": -32603, "message": "receipt service down"},
        },
        {"op": "on_commit", "label": "never"},
        ret(),
    ]
    case(
        f,
        "commit-failure-stored",
        "a failed commit is a final round: its error is stored",
        ["MRTR-STORE-2", "MRTR-ROUND-6"],
        ["Store", "Commit"],
        inp(retry, script5, id_=2),
        out(
            err_entry,
            ["commit:charge", "commit:receipt"],
            None,
            [{"tag": tag, "response": err_entry, "exp": NOW + 300}],
        ),
        "upstream-test:a_round_that_failed_midway_through_its_commits_is_not_repeatable",
    )
    case(
        f,
        "commit-failure-replayed",
        "the identical retry replays the stored error; no commit reruns",
        ["MRTR-STORE-3"],
        ["Store", "Commit"],
        inp(retry, script5, id_=3, store=[{"tag": tag, "response": err_entry, "exp": NOW + 300}]),
        out(
            {**err_entry, "id": 3},
            [],
            None,
            [{"tag": tag, "response": err_entry, "exp": NOW + 300}],
        ),
    )
    for slug, script, response in (
        (
            "is-error",
            [ask("name"), {"op": "on_commit", "label": "c"}, ret({"content": [], "isError": True})],
            ok(stamped({"content": [], "isError": True}), id_=2),
        ),
        ("tool-fail", [ask("name"), fail(-32603, "boom")], ok(folded("boom"), id_=2)),
    ):
        case(
            f,
            f"not-stored-{slug}",
            "a non-committing final is not stored (a retry reruns the handler)",
            ["MRTR-STORE-2"],
            ["Store"],
            inp(retry, script, id_=2),
            out(response),
        )
    case(
        f,
        "not-stored-malformed",
        "a malformed answer is not stored",
        ["MRTR-STORE-2"],
        ["Store", "Malformed"],
        inp({**retry, "inputResponses": {"name": 5}}, GREET, id_=2),
        out(
            err(
                -32602,
                "the answer for `name` is not a valid elicitation/create result: <serde>",
                id_=2,
            )
        ),
    )
    tok3 = inbound("tools/call", p, requested=["name"])
    case(
        f,
        "not-stored-input-required",
        "an input_required round is not stored",
        ["MRTR-STORE-2"],
        ["Store"],
        inp({**p, "requestState": tok3, "inputResponses": {}}, GREET, id_=2),
        out(
            input_required(
                {"name": env("elicitation/create", "name")},
                mint_state("tools/call", p, requested=["name"]),
                id_=2,
            )
        ),
    )
    case(
        f,
        "ttl-sets-store-exp",
        "the stored entry lives until now + ttl",
        ["MRTR-STORE-2"],
        ["Store"],
        inp(retry, GREET, id_=2, srv=server(ttl=30)),
        final(tok, seeded, ["commit:greet"], id_=2, ttl=30),
    )
    for method in ("prompts/get", "resources/read"):
        prm = params_for(method)
        t = inbound(method, prm, requested=["name"])
        res = {"messages": []}
        response = ok(stamped(res), id_=2)
        case(
            f,
            f"stored-{_short(method)}",
            "prompt/resource finals are stored too",
            ["MRTR-STORE-2"],
            ["Store"],
            inp(
                {**prm, "requestState": t, "inputResponses": {"name": ACCEPT}},
                [ask("name"), ret(res)],
                method=method,
                id_=2,
            ),
            out(
                response,
                [],
                None,
                [{"tag": tag_of(t, {"name": ACCEPT}), "response": response, "exp": NOW + 300}],
            ),
        )


def upstream() -> None:
    f = "round_upstream"
    p = params_for("tools/call", _meta=meta({"elicitation": {"form": {}}}))
    case(
        f,
        "e2e-1-round-1",
        "round 1 of a two-round elicitation",
        ["MRTR-ROUND-8"],
        ["Upstream"],
        inp(p, GREET),
        out(
            input_required(
                {"name": env("elicitation/create", "name")},
                mint_state("tools/call", p, requested=["name"]),
            )
        ),
        "upstream-test:tool_elicits_then_completes_over_two_rounds",
    )
    minted = mint_state("tools/call", p, requested=["name"])

    token = seal(minted)
    case(
        f,
        "e2e-1-round-2",
        "round 2 echoes round 1's token byte for byte and completes",
        ["MRTR-ROUND-6"],
        ["Upstream"],
        inp({**p, "requestState": token, "inputResponses": {"name": ACCEPT}}, GREET, id_=2),
        final(token, {"name": ACCEPT}, ["commit:greet"], id_=2),
        "upstream-test:tool_elicits_then_completes_over_two_rounds",
    )
    script8 = [
        {"op": "memo", "key": "quote", "value": 42},
        {"op": "once", "key": "charge"},
        {"op": "on_commit", "label": "receipt"},
        ask("name"),
        ret(),
    ]
    s8 = mint_state("tools/call", p, memos={"quote": 42}, effects=["charge"], requested=["name"])
    case(
        f,
        "e2e-8-round-1",
        "memo and once run in round 1, the receipt does not",
        ["MRTR-CTX-5", "MRTR-CTX-6"],
        ["Upstream"],
        inp(p, script8),
        out(
            input_required({"name": env("elicitation/create", "name")}, s8),
            ["memo:quote", "once:charge"],
        ),
        "upstream-test:effects_run_once_memo_caches_commit_fires_on_final_round",
    )
    t8 = seal(s8)
    case(
        f,
        "e2e-8-round-2",
        "round 2: no refetch, no recharge, one receipt",
        ["MRTR-CTX-5", "MRTR-CTX-6", "MRTR-CTX-7"],
        ["Upstream"],
        inp({**p, "requestState": t8, "inputResponses": {"name": ACCEPT}}, script8, id_=2),
        final(t8, {"name": ACCEPT}, ["commit:receipt"], id_=2),
        "upstream-test:effects_run_once_memo_caches_commit_fires_on_final_round",
    )
    case(
        f,
        "e2e-10",
        "a 4096-byte inbound state against a 256 cap",
        ["MRTR-SEED-1"],
        ["Upstream"],
        inp({**p, "requestState": "A" * 4096}, GREET, srv=server(max_state_bytes=256)),
        out(err(-32602, "requestState exceeds the configured maximum size")),
        "upstream-test:oversized_inbound_request_state_is_rejected_before_decoding",
    )
    case(
        f,
        "e2e-11",
        "the state replayed against other arguments",
        ["MRTR-SEED-1"],
        ["Upstream"],
        inp(
            {
                **params_for("tools/call", arguments={"city": "x"}),
                "requestState": token,
                "inputResponses": {"name": ACCEPT},
            },
            GREET,
        ),
        out(err(-32602, "requestState does not match this request")),
        "upstream-test:replaying_request_state_against_a_different_request_is_rejected",
    )
    s12 = mint_state("tools/call", p, requested=["name"], aud="https://a.example/mcp")
    t12 = seal(s12)
    case(
        f,
        "e2e-12-other",
        "the other service refuses the state",
        ["MRTR-SEED-1"],
        ["Upstream"],
        inp(
            {**p, "requestState": t12, "inputResponses": {"name": ACCEPT}},
            GREET,
            srv=server(audience="https://b.example/mcp"),
        ),
        out(err(-32602, "requestState audience mismatch")),
        "upstream-test:a_request_state_minted_by_another_service_is_rejected",
    )
    case(
        f,
        "e2e-12-same",
        "the minting service accepts the same retry",
        ["MRTR-SEED-1"],
        ["Upstream"],
        inp(
            {**p, "requestState": t12, "inputResponses": {"name": ACCEPT}},
            GREET,
            srv=server(audience="https://a.example/mcp"),
        ),
        final(t12, {"name": ACCEPT}, ["commit:greet"]),
        "upstream-test:a_request_state_minted_by_another_service_is_rejected",
    )
    case(
        f,
        "e2e-13",
        "caps {} and an elicitation ask",
        ["MRTR-CAP-7"],
        ["Upstream"],
        inp(params_for("tools/call", _meta=meta({})), GREET),
        out(
            err(
                -32021,
                "server requested `elicitation/create` but the client did not declare support",
                {"requiredCapabilities": {"elicitation": {"form": {}}}},
            )
        ),
        "upstream-test:eliciting_without_declared_capability_is_rejected",
    )
    case(
        f,
        "e2e-23",
        "caps {elicitation: true} and a sampling ask",
        ["MRTR-CAP-7"],
        ["Upstream"],
        inp(
            params_for("tools/call", _meta=meta({"elicitation": True})),
            [ask("summary", "sampling/createMessage"), ret()],
        ),
        out(
            err(
                -32021,
                "server requested `sampling/createMessage` but the client did not declare support",
                {"requiredCapabilities": {"sampling": {}}},
            )
        ),
        "upstream-test:sampling_without_declared_capability_is_rejected",
    )
    ps = params_for("tools/call", _meta=meta({"sampling": True}))
    case(
        f,
        "e2e-19",
        "a sampling ask goes out as sampling/createMessage",
        ["MRTR-ROUND-8"],
        ["Upstream"],
        inp(ps, [ask("summary", "sampling/createMessage"), ret()]),
        out(
            input_required(
                {"summary": env("sampling/createMessage", "summary")},
                mint_state("tools/call", ps, requested=["summary"]),
            )
        ),
        "upstream-test:tool_samples_then_completes_over_two_rounds",
    )
    pr = params_for("tools/call", _meta=meta({"roots": True}))
    case(
        f,
        "e2e-20",
        "a roots ask goes out as roots/list with params {}",
        ["MRTR-ROUND-8"],
        ["Upstream"],
        inp(pr, [ask("dirs", "roots/list", params={"ignored": True}), ret()]),
        out(
            input_required(
                {"dirs": env("roots/list", "dirs")},
                mint_state("tools/call", pr, requested=["dirs"]),
            )
        ),
        "upstream-test:tool_lists_roots_then_completes_over_two_rounds",
    )
    pa = params_for("tools/call", _meta=meta({"elicitation": {}, "sampling": {}, "roots": {}}))
    script24 = [
        ask("who", on_error="hold"),
        ask("dirs", "roots/list", on_error="hold"),
        ask("greeting", "sampling/createMessage", on_error="hold"),
        {"op": "raise"},
        ret(),
    ]
    case(
        f,
        "e2e-24",
        "three held asks go out in one round",
        ["MRTR-ROUND-8", "MRTR-CTX-3"],
        ["Upstream"],
        inp(pa, script24),
        out(
            input_required(
                {
                    "who": env("elicitation/create", "who"),
                    "dirs": env("roots/list", "dirs"),
                    "greeting": env("sampling/createMessage", "greeting"),
                },
                mint_state("tools/call", pa, requested=["who", "dirs", "greeting"]),
            )
        ),
        "upstream-test:one_round_carries_every_input_the_handler_asked_for",
    )
    case(
        f,
        "e2e-25",
        "{who: 12345} with no state",
        ["MRTR-CTX-2"],
        ["Upstream"],
        inp({**p, "inputResponses": {"who": 12345}}, [ask("who"), ret()]),
        out(err(-32602, "the answer for `who` is not a valid elicitation/create result: <serde>")),
        "upstream-test:an_answer_of_the_wrong_shape_is_a_protocol_error",
    )
    p26 = params_for("tools/call", _meta=meta({"sampling": {}}))
    script26 = [
        {
            "op": "if_declared",
            "capability": "elicitation",
            "then": [ask("who"), ret()],
            "else": [ask("who", "sampling/createMessage"), ret()],
        }
    ]
    case(
        f,
        "e2e-26",
        "the handler branches on the declared capabilities",
        ["MRTR-CTX-9", "MRTR-ROUND-2", "MRTR-HARNESS-4"],
        ["Upstream"],
        inp(p26, script26),
        out(
            input_required(
                {"who": env("sampling/createMessage", "who")},
                mint_state("tools/call", p26, requested=["who"]),
            )
        ),
        "upstream-test:a_handler_asks_only_for_what_the_caller_declared",
    )


def build() -> None:
    envelope()
    seed()
    context()
    after()
    store()
    upstream()
