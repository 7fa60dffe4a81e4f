"""Vectors for ``scope.bind_event`` (the AG-UI proxy) and ``scope.evaluate_entry`` (where each
evaluate entry point refuses cumulative approval).

Length: this module is long because it is a table of hand-stated vectors (the formatter puts
each field of a case on its own line); splitting it would scatter one operation's cases.

Every expected answer is stated by hand from seed 003 (the proxy paragraph, "Cumulative approval
before matching"), ``shared/reference/chio.md`` §7-§8 and the upstream code and tests
(bb-connor/arc ``chio-ag-ui-proxy/src/proxy/core.rs`` @ ``123cc792``, its helpers @
``4bad2b57``, the proxy tests in ``proxy.rs``; ``evaluate.rs``, ``capability_verify.rs``,
``portable_build.rs``, ``mutation_boundaries.rs``). The binding matrix is enumerated from the
decision table of chio.md §8.3, written out below as ``_BINDS``. Nothing here imports
``mcp_touchstone``; the one computed quantity is a compact JSON byte length (stdlib ``json``)
for a ``max_args_size`` boundary.
"""

from __future__ import annotations

import json
from typing import Any

from conformance.vectorgen._common import envelope, grant, vector

__all__ = ["files"]

Json = Any

NOT_AUTH = "capability scope does not authorize this AG-UI event"
CUMUL = "cumulative approval enforcement is unavailable"
CONSTRAINT = "capability scope constraint failed: portable kernel cannot safely evaluate "
CUMUL_CON = {
    "type": "require_cumulative_approval_above",
    "value": {
        "threshold": {"units": 100, "currency": "USD"},
        "approval_budget_id": "budget-1",
        "approval_budget_epoch": 1,
    },
}
CLASSIFICATIONS = ["display", "mutate", "navigate", "create", "destroy", "submit", "alert"]


def _custom(key: str, value: str) -> dict[str, Json]:
    return {"type": "custom", "value": [key, value]}


def _grant(
    server: str = "ag-ui",
    tool: str = "submit",
    constraints: list[Json] | None = None,
    operations: list[str] | None = None,
) -> dict[str, Json]:
    return grant(server, tool, constraints, operations)


SCOPED = [_custom("session_id", "sess-1"), _custom("target_component_type", "chat")]


def _scoped(tool: str = "submit", *extra: Json) -> dict[str, Json]:
    """Upstream's make_scoped_capability grant: ag-ui/{tool}, session sess-1, target chat."""
    return _grant("ag-ui", tool, [*SCOPED, *extra])


def _event(
    classification: str = "submit",
    *,
    event_id: str = "evt-test",
    session_id: str | None = "sess-1",
    target: Json = "default",
    payload: Json = "default",
    agent_id: str = "agent-1",
) -> dict[str, Json]:
    """Upstream's make_event: evt-test, agent-1, sess-1, target chat, payload {"text": "hi"}."""
    out: dict[str, Json] = {
        "event_id": event_id,
        "agent_id": agent_id,
        "classification": classification,
        "payload": {"text": "hi"} if payload == "default" else payload,
    }
    if session_id is not None:
        out["session_id"] = session_id
    if target == "default":
        out["target"] = {"component_type": "chat"}
    elif target is not None:
        out["target"] = target
    return out


def _forward(matches: list[tuple[int, list[int]]], binding: list[int]) -> dict[str, Json]:
    return {
        "decision": "forward",
        "matches": [{"index": i, "specificity": s} for i, s in matches],
        "binding": binding,
    }


def _block(reason: str) -> dict[str, Json]:
    return {"decision": "block", "reason": reason}


def _invalid() -> dict[str, Json]:
    return {"error": {"kind": "invalid_input", "message": ""}}


def _vec(  # noqa: PLR0917 (a vector is one row of six fields; keywords would bloat every table)
    prefix: str,
    vid: str,
    comment: str,
    rules: list[str],
    flags: list[str],
    inp: Json,
    expected: Json,
    origin: str = "seed",
) -> dict[str, Json]:
    return vector(f"{prefix}-{vid}", comment, rules, flags, inp, expected, origin)


def _b(*grants: Json, event: Json = None) -> dict[str, Json]:
    return {"scope": {"grants": list(grants)}, "event": _event() if event is None else event}


# -- scope.bind_event -------------------------------------------------------------------------

_BIND_NOTES = {
    "upstream": {
        "bugType": "BASIC",
        "description": "The proxy tests of chio-ag-ui-proxy, on the part of the decision modelled.",
    },
    "cumulative": {
        "bugType": "FAIL_CLOSED",
        "description": "Cumulative approval anywhere in the scope blocks before matching.",
    },
    "binding": {
        "bugType": "FAIL_CLOSED",
        "description": "grant_binds_event's two-way rules for session_id, target_component_type, "
        "target_component_id and the optional event_id binding.",
    },
    "smuggling": {
        "bugType": "QUIRK",
        "description": "The matcher's Custom is satisfied anywhere in the arguments, payload "
        "included; the binding re-reads trusted fields, so a payload cannot stand in for them.",
    },
    "ranking": {
        "bugType": "QUIRK",
        "description": "any() over the matches: the ranking is computed, then ignored; binding "
        "lists the binding matches in ranked order.",
    },
    "target": {
        "bugType": "EDGE_CASE",
        "description": "Server id ag-ui and tool name = classification, with the matcher's exact "
        "target test; the synthesized arguments are what constraints read.",
    },
    "reason": {
        "bugType": "KNOWN_ANSWER",
        "description": "The proxy's exact block reasons.",
    },
    "malformed": {
        "bugType": "MALFORMED_INPUT",
        "description": "A scope that does not decode, or an event outside the pinned shape "
        "(a blank event_id or target component_type included), is invalid_input.",
    },
}

_UP = "upstream-test:"


def _bind_upstream() -> list[dict[str, Json]]:
    p = "scope-agui"
    r3, r5 = ["SCOPE-AGUI-3", "SCOPE-AGUI-5"], ["SCOPE-AGUI-5"]
    return [
        _vec(
            p,
            "up-accepts-scoped",
            "The scoped submit grant forwards the submit event.",
            r3,
            ["upstream"],
            _b(_scoped()),
            _forward([(0, [1, 1, 2])], [0]),
            _UP + "restricted_event_accepts_properly_scoped_trusted_capability",
        ),
        _vec(
            p,
            "up-accepts-delegated",
            "The delegated child's identical grant binds the same way.",
            r3,
            ["upstream"],
            _b(_scoped()),
            _forward([(0, [1, 1, 2])], [0]),
            _UP + "restricted_event_accepts_delegated_capability_with_parent_budget_snapshot",
        ),
        _vec(
            p,
            "up-display-needs-display-scope",
            "A submit grant does not cover a display event.",
            ["SCOPE-AGUI-2", "SCOPE-AGUI-4"],
            ["upstream", "target"],
            _b(_scoped("submit"), event=_event("display")),
            _block(NOT_AUTH),
            _UP + "display_event_requires_display_scope_when_capability_supplied",
        ),
        _vec(
            p,
            "up-empty-event-id",
            "A blank event_id fails boundary validation: invalid_input.",
            ["SCOPE-AGUI-6"],
            ["upstream", "malformed"],
            _b(_scoped(), event=_event(event_id="  ")),
            _invalid(),
            _UP + "proxy_rejects_empty_event_id_before_receipt",
        ),
        _vec(
            p,
            "up-empty-target-component",
            "A blank target component_type: invalid_input.",
            ["SCOPE-AGUI-6"],
            ["upstream", "malformed"],
            _b(_scoped(), event=_event(target={"component_type": " ", "component_id": "composer"})),
            _invalid(),
            _UP + "proxy_rejects_empty_target_component_before_receipt",
        ),
        _vec(
            p,
            "up-cumulative-valid-root",
            "A verified cumulative child is blocked, exact reason.",
            ["SCOPE-AGUI-1"],
            ["upstream", "cumulative"],
            _b(_scoped("submit", CUMUL_CON)),
            _block(CUMUL),
            _UP + "cumulative_family_requires_matching_signed_root",
        ),
        _vec(
            p,
            "up-wrong-session",
            "A wrong trusted session blocks.",
            r5,
            ["upstream", "binding"],
            _b(_scoped(), event=_event(session_id="sess-2")),
            _block(NOT_AUTH),
            _UP + "denied_delegated_event_does_not_consume_sibling_budget",
        ),
        _vec(
            p,
            "up-right-session",
            "The right trusted session forwards.",
            r5,
            ["upstream", "binding"],
            _b(_scoped(), event=_event(event_id="evt-valid-session")),
            _forward([(0, [1, 1, 2])], [0]),
            _UP + "denied_delegated_event_does_not_consume_sibling_budget",
        ),
        _vec(
            p,
            "up-payload-event-id-spoof",
            "A payload event_id cannot stand in for the trusted one.",
            r5,
            ["upstream", "smuggling"],
            _b(
                _scoped("submit", _custom("event_id", "evt-authorized")),
                event=_event(
                    event_id="evt-spoofed", payload={"event_id": "evt-authorized", "text": "spoof"}
                ),
            ),
            _block(NOT_AUTH),
            _UP + "payload_event_id_spoofing_is_denied_without_consuming_sibling_budget",
        ),
        _vec(
            p,
            "up-event-id-bound",
            "The trusted event_id named by the grant forwards.",
            r5,
            ["upstream", "binding"],
            _b(
                _scoped("submit", _custom("event_id", "evt-valid-sibling")),
                event=_event(event_id="evt-valid-sibling", payload={"text": "valid"}),
            ),
            _forward([(0, [1, 1, 3])], [0]),
            _UP + "payload_event_id_spoofing_is_denied_without_consuming_sibling_budget",
        ),
        _vec(
            p,
            "up-payload-metadata-spoof",
            "Payload session/target metadata cannot stand in for absent trusted fields.",
            r5,
            ["upstream", "smuggling"],
            _b(
                _scoped("submit", _custom("target_component_id", "composer")),
                event=_event(
                    session_id=None,
                    target=None,
                    payload={
                        "metadata": {
                            "session_id": "sess-1",
                            "target_component_type": "chat",
                            "target_component_id": "composer",
                        },
                        "text": "spoof",
                    },
                ),
            ),
            _block(NOT_AUTH),
            _UP + "payload_session_and_target_spoofing_is_denied_without_consuming_sibling_budget",
        ),
        _vec(
            p,
            "up-metadata-trusted",
            "The same grant with the trusted fields present forwards.",
            r5,
            ["upstream", "binding"],
            _b(
                _scoped("submit", _custom("target_component_id", "composer")),
                event=_event(
                    target={"component_type": "chat", "component_id": "composer"},
                    payload={"text": "valid"},
                ),
            ),
            _forward([(0, [1, 1, 3])], [0]),
            _UP + "payload_session_and_target_spoofing_is_denied_without_consuming_sibling_budget",
        ),
    ]


def _bind_classification() -> list[dict[str, Json]]:
    out = []
    for i, cls in enumerate(CLASSIFICATIONS):
        other = CLASSIFICATIONS[(i + 1) % len(CLASSIFICATIONS)]
        out.append(
            _vec(
                "scope-agui",
                f"tool-{cls}",
                f"A {cls} event is matched as tool {cls}.",
                ["SCOPE-AGUI-2"],
                ["target"],
                _b(_scoped(cls), event=_event(cls)),
                _forward([(0, [1, 1, 2])], [0]),
            )
        )
        out.append(
            _vec(
                "scope-agui",
                f"tool-{cls}-not-{other}",
                f"A grant for {other} does not cover a {cls} event.",
                ["SCOPE-AGUI-2", "SCOPE-AGUI-4"],
                ["target"],
                _b(_scoped(other), event=_event(cls)),
                _block(NOT_AUTH),
            )
        )
    return out


# The decision table of chio.md §8.3 for a strictly bound field F:
# (event has F?, the grant's Custom(F, .) values) -> binds?
_BINDS: list[tuple[str, bool, list[str], bool]] = [
    ("present-none", True, [], False),
    ("present-equal", True, ["x"], True),
    ("present-equal-twice", True, ["x", "x"], True),
    ("present-one-differs", True, ["x", "y"], False),
    ("present-differs", True, ["y"], False),
    ("absent-none", False, [], True),
    ("absent-some", False, ["x"], False),
]


def _bind_matrix() -> list[dict[str, Json]]:
    out = []
    for field in ("session_id", "target_component_type", "target_component_id"):
        for name, has, values, binds in _BINDS:
            session = "s" if field != "session_id" else ("x" if has else None)
            if field == "session_id":
                target: Json = {"component_type": "t", "component_id": "i"}
            elif field == "target_component_type":
                target = {"component_type": "x", "component_id": "i"} if has else None
            else:
                target = (
                    {"component_type": "t", "component_id": "x"} if has else {"component_type": "t"}
                )
            constraints = []
            if field != "session_id":
                constraints.append(_custom("session_id", "s"))
            if field != "target_component_type" and target is not None:
                constraints.append(_custom("target_component_type", "t"))
            if field != "target_component_id" and target is not None:
                constraints.append(_custom("target_component_id", "i"))
            constraints += [_custom(field, v) for v in values]
            event = _event(session_id=session, target=target, payload={})
            # A differing Custom already fails the matcher (no entry equals it); a missing one
            # passes the matcher and fails the binding. Both block with the same reason.
            expected = _forward([(0, [1, 1, len(constraints)])], [0]) if binds else _block(NOT_AUTH)
            out.append(
                _vec(
                    "scope-agui",
                    f"bind-{field.replace('_', '-')}-{name}",
                    f"{field}: event {'has' if has else 'lacks'} it, grant names "
                    f"{values or 'none'}: {'binds' if binds else 'does not bind'}.",
                    ["SCOPE-AGUI-5"],
                    ["binding"],
                    _b(_grant("ag-ui", "submit", constraints), event=event),
                    expected,
                )
            )
    return out


def _bind_more() -> list[dict[str, Json]]:
    p = "scope-agui"
    v: list[dict[str, Json]] = []

    def add(  # noqa: PLR0917 (one table row per call, as _vec)
        vid: str, comment: str, rules: list[str], flags: list[str], inp: Json, exp: Json
    ) -> None:
        v.append(_vec(p, vid, comment, rules, flags, inp, exp))

    r5 = ["SCOPE-AGUI-5"]
    # event_id: the optional binding.
    add(
        "event-id-none",
        "No event_id Custom: the event_id is not bound.",
        r5,
        ["binding"],
        _b(_scoped()),
        _forward([(0, [1, 1, 2])], [0]),
    )
    add(
        "event-id-equal-twice",
        "Two event_id Customs both equal to the event's: binds.",
        r5,
        ["binding"],
        _b(_scoped("submit", _custom("event_id", "evt-test"), _custom("event_id", "evt-test"))),
        _forward([(0, [1, 1, 4])], [0]),
    )
    add(
        "event-id-one-differs-payload",
        "A second event_id satisfied only by the payload still fails the binding.",
        r5,
        ["binding", "smuggling"],
        _b(
            _scoped("submit", _custom("event_id", "evt-test"), _custom("event_id", "evt-other")),
            event=_event(payload={"event_id": "evt-other"}),
        ),
        _block(NOT_AUTH),
    )
    add(
        "event-id-key-case",
        "Custom keys compare exactly: Event_ID is an ordinary matcher constraint.",
        r5,
        ["binding"],
        _b(_scoped("submit", _custom("Event_ID", "x")), event=_event(payload={"Event_ID": "x"})),
        _forward([(0, [1, 1, 3])], [0]),
    )
    # Smuggling through the payload.
    add(
        "smuggle-session",
        "No trusted session; the payload's session_id satisfies the matcher, not the binding.",
        r5,
        ["smuggling"],
        _b(
            _grant("ag-ui", "submit", [_custom("session_id", "s1")]),
            event=_event(session_id=None, target=None, payload={"session_id": "s1"}),
        ),
        _block(NOT_AUTH),
    )
    add(
        "smuggle-target-type",
        "No trusted target; a payload target_component_type cannot bind.",
        r5,
        ["smuggling"],
        _b(
            _grant(
                "ag-ui",
                "submit",
                [_custom("session_id", "sess-1"), _custom("target_component_type", "chat")],
            ),
            event=_event(target=None, payload={"deep": [{"target_component_type": "chat"}]}),
        ),
        _block(NOT_AUTH),
    )
    add(
        "smuggle-component-id",
        "A target without a component id; a payload target_component_id cannot bind.",
        r5,
        ["smuggling"],
        _b(
            _scoped("submit", _custom("target_component_id", "composer")),
            event=_event(payload={"target_component_id": "composer"}),
        ),
        _block(NOT_AUTH),
    )
    add(
        "payload-extra-custom-ok",
        "An ordinary Custom may be satisfied by the payload (not a trusted field).",
        r5,
        ["smuggling"],
        _b(_scoped("submit", _custom("doc", "d1")), event=_event(payload={"doc": "d1"})),
        _forward([(0, [1, 1, 3])], [0]),
    )
    add(
        "component-id-empty",
        "An empty component id is present: it binds only a Custom naming the empty string.",
        r5,
        ["binding"],
        _b(
            _scoped("submit", _custom("target_component_id", "")),
            event=_event(target={"component_type": "chat", "component_id": ""}),
        ),
        _forward([(0, [1, 1, 3])], [0]),
    )
    add(
        "component-id-empty-unnamed",
        "An empty component id is still a trusted value the grant must name.",
        r5,
        ["binding"],
        _b(_scoped(), event=_event(target={"component_type": "chat", "component_id": ""})),
        _block(NOT_AUTH),
    )
    add(
        "session-empty-string",
        "An empty session_id is present and must be named.",
        r5,
        ["binding"],
        _b(
            _grant(
                "ag-ui",
                "submit",
                [_custom("session_id", ""), _custom("target_component_type", "chat")],
            ),
            event=_event(session_id=""),
        ),
        _forward([(0, [1, 1, 2])], [0]),
    )
    add(
        "bare-event-bare-grant",
        "No session, no target, an unconstrained grant: forwards.",
        r5,
        ["binding"],
        _b(_grant("ag-ui", "submit"), event=_event(session_id=None, target=None)),
        _forward([(0, [1, 1, 0])], [0]),
    )
    add(
        "session-unnamed",
        "A trusted session the grant does not name: the unconstrained grant does not bind.",
        [*r5, "SCOPE-AGUI-4"],
        ["binding", "reason"],
        _b(_grant("ag-ui", "submit"), event=_event(target=None)),
        _block(NOT_AUTH),
    )
    # Ranking computed then ignored.
    r3 = ["SCOPE-AGUI-3"]
    wide = _grant("*", "*", SCOPED)
    add(
        "ranking-ignored",
        "The top-ranked match does not bind, a wildcard one does: forward.",
        r3,
        ["ranking"],
        _b(_grant("ag-ui", "submit", [_custom("agent_id", "agent-1")]), wide),
        _forward([(0, [1, 1, 1]), (1, [0, 0, 2])], [1]),
    )
    add(
        "ranking-binding-order",
        "Several binding matches are listed in ranked order, not scope order.",
        r3,
        ["ranking"],
        _b(wide, _grant("ag-ui", "*", SCOPED), _scoped(), _grant("ag-ui", "submit")),
        _forward([(2, [1, 1, 2]), (3, [1, 1, 0]), (1, [1, 0, 2]), (0, [0, 0, 2])], [2, 1, 0]),
    )
    add(
        "wildcard-server",
        "A */submit grant scores 0 on the server key.",
        r3,
        ["target"],
        _b(_grant("*", "submit", SCOPED)),
        _forward([(0, [0, 1, 2])], [0]),
    )
    add(
        "server-case",
        "The server id is exactly ag-ui: AG-UI does not cover it.",
        ["SCOPE-AGUI-2"],
        ["target"],
        _b(_grant("AG-UI", "submit", SCOPED)),
        _block(NOT_AUTH),
    )
    add(
        "server-underscore",
        "ag_ui is not ag-ui.",
        ["SCOPE-AGUI-2"],
        ["target"],
        _b(_grant("ag_ui", "submit", SCOPED)),
        _block(NOT_AUTH),
    )
    add(
        "tool-case",
        "The tool name is the lowercase classification: Submit does not cover it.",
        ["SCOPE-AGUI-2"],
        ["target"],
        _b(_grant("ag-ui", "Submit", SCOPED)),
        _block(NOT_AUTH),
    )
    add(
        "no-invoke",
        "A grant without invoke never matches.",
        ["SCOPE-AGUI-2"],
        ["target"],
        _b(_grant("ag-ui", "submit", SCOPED, ["read"])),
        _block(NOT_AUTH),
    )
    add(
        "empty-scope",
        "An empty scope is out of scope: the unauthorized reason.",
        ["SCOPE-AGUI-4"],
        ["reason"],
        _b(),
        _block(NOT_AUTH),
    )
    # Synthesized arguments are what constraints read.
    r2 = ["SCOPE-AGUI-2"]
    add(
        "args-classification",
        "event_classification is in the synthesized arguments.",
        r2,
        ["target"],
        _b(_scoped("submit", _custom("event_classification", "submit"))),
        _forward([(0, [1, 1, 3])], [0]),
    )
    add(
        "args-agent-id",
        "agent_id is in the synthesized arguments.",
        r2,
        ["target"],
        _b(_scoped("submit", _custom("agent_id", "agent-1"))),
        _forward([(0, [1, 1, 3])], [0]),
    )
    add(
        "args-agent-id-mismatch",
        "A Custom on another agent fails the matcher.",
        r2,
        ["target"],
        _b(_scoped("submit", _custom("agent_id", "agent-2"))),
        _block(NOT_AUTH),
    )
    add(
        "args-no-optional-keys",
        "Without session or target the four fixed keys hold no audience value.",
        r2,
        ["target"],
        _b(
            _grant("ag-ui", "submit", [{"type": "audience_allowlist", "value": []}]),
            event=_event(session_id=None, target=None, payload={"n": 1}),
        ),
        _forward([(0, [1, 1, 1])], [0]),
    )
    size = len(
        json.dumps(
            {
                "agent_id": "agent-1",
                "event_classification": "submit",
                "event_id": "evt-test",
                "payload": {"text": "hi"},
                "session_id": "sess-1",
                "target_component_type": "chat",
            },
            separators=(",", ":"),
            ensure_ascii=False,
        )
    )
    add(
        "args-size-boundary",
        "max_args_size measures the synthesized object: at its size it holds.",
        r2,
        ["target"],
        _b(_scoped("submit", {"type": "max_args_size", "value": size})),
        _forward([(0, [1, 1, 3])], [0]),
    )
    add(
        "args-size-one-less",
        "One byte under the synthesized object's size: no match.",
        r2,
        ["target"],
        _b(_scoped("submit", {"type": "max_args_size", "value": size - 1})),
        _block(NOT_AUTH),
    )
    add(
        "args-payload-path",
        "A slash in the payload is a path candidate for path_prefix.",
        r2,
        ["target"],
        _b(
            _scoped("submit", {"type": "path_prefix", "value": "/ui"}),
            event=_event(payload={"p": "/ui/a", "q": "x/y"}),
        ),
        _block(NOT_AUTH),
    )
    add(
        "args-audience-payload",
        "An audience key in the payload is read by the allowlist.",
        r2,
        ["target"],
        _b(
            _scoped("submit", {"type": "audience_allowlist", "value": ["#ops"]}),
            event=_event(payload={"to": "#ops"}),
        ),
        _forward([(0, [1, 1, 3])], [0]),
    )
    add(
        "args-domain-payload",
        "A URL in the payload is the domain candidate: it matches.",
        r2,
        ["target"],
        _b(
            _scoped("submit", {"type": "domain_exact", "value": "a.example"}),
            event=_event(payload={"u": "https://a.example/x"}),
        ),
        _forward([(0, [1, 1, 3])], [0]),
    )
    add(
        "args-domain-event-id",
        "A dotted event_id is a domain candidate too, and differs.",
        r2,
        ["target"],
        _b(
            _scoped("submit", {"type": "domain_exact", "value": "a.example"}),
            event=_event(event_id="evt.1", payload={"u": "https://a.example/x"}),
        ),
        _block(NOT_AUTH),
    )
    # Constraint errors and the cumulative refusal.
    r4, r1 = ["SCOPE-AGUI-4"], ["SCOPE-AGUI-1"]
    add(
        "constraint-error",
        "A refused constraint on a target grant blocks with the matcher's reason.",
        r4,
        ["reason"],
        _b(_grant("ag-ui", "submit", [{"type": "regex_match", "value": ".*"}])),
        _block(CONSTRAINT + "regex_match"),
    )
    add(
        "constraint-error-after-binding-match",
        "The error aborts even after a binding grant matched.",
        r4,
        ["reason"],
        _b(_scoped(), _grant("*", "*", [{"type": "seller_exact", "value": "s"}])),
        _block(CONSTRAINT + "seller_exact"),
    )
    add(
        "constraint-error-non-target",
        "A refused constraint on another tool's grant is never reached.",
        r4,
        ["reason"],
        _b(_scoped(), _grant("ag-ui", "alert", [{"type": "regex_match", "value": "x"}])),
        _forward([(0, [1, 1, 2])], [0]),
    )
    add(
        "constraint-false-first",
        "A false constraint before the refused one drops the grant quietly.",
        r4,
        ["reason"],
        _b(
            _grant(
                "ag-ui",
                "submit",
                [_custom("agent_id", "nobody"), {"type": "governed_intent_required"}],
            ),
            _scoped(),
        ),
        _forward([(1, [1, 1, 2])], [1]),
    )
    add(
        "constraint-dual-approval-none",
        "require_dual_approval false is refused by the portable matcher.",
        r4,
        ["reason"],
        _b(_grant("ag-ui", "submit", [{"type": "require_dual_approval", "value": False}])),
        _block(CONSTRAINT + "require_dual_approval"),
    )
    add(
        "cumulative-non-target",
        "Cumulative approval on another server's grant blocks first.",
        r1,
        ["cumulative"],
        _b(_scoped(), _grant("files", "read", [CUMUL_CON])),
        _block(CUMUL),
    )
    add(
        "cumulative-no-invoke",
        "Cumulative approval on a grant without invoke still blocks.",
        r1,
        ["cumulative"],
        _b(_scoped(), _grant("ag-ui", "submit", [CUMUL_CON], ["read"])),
        _block(CUMUL),
    )
    add(
        "cumulative-after-false",
        "Cumulative approval behind a false constraint still blocks.",
        r1,
        ["cumulative"],
        _b(_grant("ag-ui", "submit", [_custom("agent_id", "x"), CUMUL_CON])),
        _block(CUMUL),
    )
    add(
        "cumulative-before-constraint-error",
        "The cumulative refusal precedes a constraint error.",
        r1,
        ["cumulative"],
        _b(
            _grant("ag-ui", "submit", [{"type": "regex_match", "value": "x"}]),
            _grant("z", "z", [CUMUL_CON]),
        ),
        _block(CUMUL),
    )
    add(
        "cumulative-resource-only-scope",
        "A scope without tool grants cannot carry cumulative approval.",
        r1,
        ["cumulative"],
        {
            "scope": {"resource_grants": [{"uri_pattern": "*", "operations": ["read"]}]},
            "event": _event(),
        },
        _block(NOT_AUTH),
    )
    add(
        "cumulative-invalid-event-first",
        "Boundary validation precedes the cumulative refusal.",
        ["SCOPE-AGUI-1", "SCOPE-AGUI-6"],
        ["cumulative", "malformed"],
        _b(_scoped("submit", CUMUL_CON), event=_event(event_id="")),
        _invalid(),
    )
    return v


def _bind_malformed() -> list[dict[str, Json]]:
    ev = _event()

    def drop(key: str) -> dict[str, Json]:
        return {k: v for k, v in ev.items() if k != key}

    cases: list[tuple[str, str, Json, Json]] = [
        ("not-object", "Input that is not an object.", [ev], _invalid()),
        ("missing-scope", "No scope.", {"event": ev}, _invalid()),
        ("missing-event", "No event.", {"scope": {}}, _invalid()),
        ("scope-null", "A null scope does not decode.", {"scope": None, "event": ev}, _invalid()),
        (
            "scope-grants-null",
            "grants null does not decode.",
            {"scope": {"grants": None}, "event": ev},
            _invalid(),
        ),
        (
            "scope-bad-operation",
            "An unknown operation does not decode.",
            {"scope": {"grants": [_grant("ag-ui", "submit", None, ["Invoke"])]}, "event": ev},
            _invalid(),
        ),
        (
            "scope-bad-constraint",
            "An unknown constraint tag does not decode.",
            {
                "scope": {
                    "grants": [
                        _grant("ag-ui", "submit", [{"type": "output_digest_sha256", "value": "aa"}])
                    ]
                },
                "event": ev,
            },
            _invalid(),
        ),
        (
            "event-not-object",
            "An event that is not an object.",
            {"scope": {}, "event": "evt"},
            _invalid(),
        ),
        ("missing-event-id", "No event_id.", {"scope": {}, "event": drop("event_id")}, _invalid()),
        ("missing-agent-id", "No agent_id.", {"scope": {}, "event": drop("agent_id")}, _invalid()),
        (
            "missing-classification",
            "No classification.",
            {"scope": {}, "event": drop("classification")},
            _invalid(),
        ),
        ("missing-payload", "No payload.", {"scope": {}, "event": drop("payload")}, _invalid()),
        (
            "classification-unknown",
            "An unknown classification.",
            {"scope": {}, "event": {**ev, "classification": "delete"}},
            _invalid(),
        ),
        (
            "classification-case",
            "Classifications are lowercase.",
            {"scope": {}, "event": {**ev, "classification": "Submit"}},
            _invalid(),
        ),
        (
            "event-id-number",
            "A numeric event_id.",
            {"scope": {}, "event": {**ev, "event_id": 7}},
            _invalid(),
        ),
        (
            "agent-id-null",
            "A null agent_id.",
            {"scope": {}, "event": {**ev, "agent_id": None}},
            _invalid(),
        ),
        (
            "session-number",
            "A numeric session_id.",
            {"scope": {}, "event": {**ev, "session_id": 1}},
            _invalid(),
        ),
        (
            "target-string",
            "A string target.",
            {"scope": {}, "event": {**ev, "target": "chat"}},
            _invalid(),
        ),
        (
            "target-missing-type",
            "A target without component_type.",
            {"scope": {}, "event": {**ev, "target": {"component_id": "c"}}},
            _invalid(),
        ),
        (
            "component-id-number",
            "A numeric component_id.",
            {"scope": {}, "event": {**ev, "target": {"component_type": "chat", "component_id": 3}}},
            _invalid(),
        ),
        (
            "event-id-empty",
            "An empty event_id.",
            _b(_scoped(), event=_event(event_id="")),
            _invalid(),
        ),
        (
            "event-id-tab-newline",
            "Whitespace only (tab, newline) is empty after trimming.",
            _b(_scoped(), event=_event(event_id="\t\n")),
            _invalid(),
        ),
        (
            "event-id-nbsp",
            "U+00A0 is Rust White_Space: an event_id of it alone is empty.",
            _b(_scoped(), event=_event(event_id="\u00a0")),
            _invalid(),
        ),
        (
            "component-type-empty",
            "An empty component_type.",
            _b(_scoped(), event=_event(target={"component_type": ""})),
            _invalid(),
        ),
        (
            "component-type-ideographic-space",
            "U+3000 alone is empty after Rust's trim.",
            _b(_scoped(), event=_event(target={"component_type": "\u3000"})),
            _invalid(),
        ),
    ]
    out = [
        _vec(
            "scope-agui",
            f"bad-{vid}",
            comment,
            ["SCOPE-AGUI-6", "SCOPE-AGUI-7"],
            ["malformed"],
            inp,
            exp,
            "handwritten",
        )
        for vid, comment, inp, exp in cases
    ]
    quirks: list[tuple[str, str, Json, Json]] = [
        (
            "agent-id-empty-ok",
            "An empty agent_id is not checked by the boundary validation.",
            _b(_scoped(), event=_event(agent_id="")),
            _forward([(0, [1, 1, 2])], [0]),
        ),
        (
            "extra-keys-ignored",
            "Unknown event and input keys are ignored.",
            {
                **_b(_scoped(), event={**_event(), "event_type": "form_action", "timestamp": 1}),
                "x": 1,
            },
            _forward([(0, [1, 1, 2])], [0]),
        ),
    ]
    out += [
        _vec("scope-agui", vid, comment, ["SCOPE-AGUI-6"], ["malformed"], inp, exp)
        for vid, comment, inp, exp in quirks
    ]
    # validate_boundary at bb-connor/arc 123cc792 (proxy.rs,
    # proxy_rejects_padded_or_control_event_identity_before_receipt): event_id, agent_id,
    # session_id and target.component_id must be unpadded (Rust trim leaves them alone) and free
    # of control characters (char::is_control, category Cc). Replaces the retired
    # event-id-info-separator and event-id-padded-ok.
    identity: list[tuple[str, str, Json, Json]] = [
        (
            "event-id-padded-refused",
            'A padded event_id is refused at the boundary (upstream: " evt-padded ").',
            _b(_scoped(), event=_event(event_id=" evt-padded ")),
            _invalid(),
        ),
        (
            "event-id-info-separator-refused",
            "U+001C is not White_Space (not empty) but is a control character: refused.",
            _b(_scoped(), event=_event(event_id="\u001c")),
            _invalid(),
        ),
        (
            "event-id-del-refused",
            "U+007F inside the event_id is a control character.",
            _b(_scoped(), event=_event(event_id="evt\u007fx")),
            _invalid(),
        ),
        (
            "event-id-c1-refused",
            "U+0085 (NEL, category Cc) inside the event_id is a control character.",
            _b(_scoped(), event=_event(event_id="evt\u0085x")),
            _invalid(),
        ),
        (
            "event-id-inner-space-ok",
            "An inner space is neither padding nor a control character.",
            _b(_scoped(), event=_event(event_id="evt 1")),
            _forward([(0, [1, 1, 2])], [0]),
        ),
        (
            "event-id-inner-nbsp-ok",
            "An inner U+00A0 is White_Space but not Cc, and not at an end: accepted.",
            _b(_scoped(), event=_event(event_id="evt\u00a0x")),
            _forward([(0, [1, 1, 2])], [0]),
        ),
        (
            "agent-id-control-refused",
            'An agent_id with a newline is refused (upstream: "agent\\ncontrol").',
            _b(_scoped(), event=_event(agent_id="agent\ncontrol")),
            _invalid(),
        ),
        (
            "agent-id-padded-refused",
            "A padded agent_id is refused.",
            _b(_scoped(), event=_event(agent_id="agent-1 ")),
            _invalid(),
        ),
        (
            "session-id-padded-refused",
            'A padded session_id is refused (upstream: " sess-padded ").',
            _b(_scoped(), event=_event(session_id=" sess-padded ")),
            _invalid(),
        ),
        (
            "component-id-control-refused",
            'A component_id with a carriage return is refused (upstream: "composer\\rcontrol").',
            _b(
                _scoped(),
                event=_event(
                    target={"component_type": "chat", "component_id": "composer\rcontrol"}
                ),
            ),
            _invalid(),
        ),
        (
            "component-id-padded-refused",
            "A padded component_id is refused.",
            _b(
                _scoped(),
                event=_event(target={"component_type": "chat", "component_id": "\u3000composer"}),
            ),
            _invalid(),
        ),
    ]
    out += [
        _vec("scope-agui", vid, comment, ["SCOPE-AGUI-6"], ["malformed"], inp, exp)
        for vid, comment, inp, exp in identity
    ]
    # chio's AgUiEvent declares session_id, target and target.component_id as
    # `#[serde(default)] Option<_>`: null is absent (replaces the retired
    # bad-session-null and bad-target-null).
    nulls: list[tuple[str, str, Json, Json]] = [
        (
            "null-session-is-absent",
            "session_id: null is no session: a grant without a session Custom binds.",
            _b(_grant("ag-ui", "submit"), event={**_event(target=None), "session_id": None}),
            _forward([(0, [1, 1, 0])], [0]),
        ),
        (
            "null-session-grant-names-it",
            "session_id: null is no session, so the grant's session Custom is unmet: blocked.",
            _b(_scoped(), event={**_event(), "session_id": None}),
            _block("capability scope does not authorize this AG-UI event"),
        ),
        (
            "null-target-is-absent",
            "target: null is no target: a grant naming only the session binds.",
            _b(
                _grant("ag-ui", "submit", [_custom("session_id", "sess-1")]),
                event={**_event(), "target": None},
            ),
            _forward([(0, [1, 1, 1])], [0]),
        ),
        (
            "null-component-id-is-absent",
            "component_id: null is no component id: the scoped grant binds.",
            _b(_scoped(), event=_event(target={"component_type": "chat", "component_id": None})),
            _forward([(0, [1, 1, 2])], [0]),
        ),
    ]
    out += [
        _vec("scope-agui", vid, comment, ["SCOPE-AGUI-7"], ["malformed"], inp, exp)
        for vid, comment, inp, exp in nulls
    ]
    return out


# -- scope.evaluate_entry ---------------------------------------------------------------------

_ENTRY_NOTES = {
    "refusal": {
        "bugType": "FAIL_CLOSED",
        "description": "A scope carrying cumulative approval anywhere is refused before matching "
        "on both evaluate paths, whatever the grant targets.",
    },
    "negotiation": {
        "bugType": "EDGE_CASE",
        "description": "The plain verifier ignores negotiation; the full-floor path refuses as "
        "not negotiated without the feature and as UnsupportedCapabilityFeature with it.",
    },
    "direct": {
        "bugType": "QUIRK",
        "description": "Only a direct matcher call reaches the matcher's own, target-only "
        "ConstraintError for the variant.",
    },
    "evaluate": {
        "bugType": "BASIC",
        "description": "Without cumulative approval evaluate takes matches.first() or denies with "
        "its exact texts.",
    },
    "malformed": {
        "bugType": "MALFORMED_INPUT",
        "description": "Input outside the operation's shape is invalid_input.",
    },
}
NOT_NEG = {
    "decision": "refused",
    "kind": "attenuation_violation",
    "reason": "cumulative_approval_budget was not negotiated",
}
UNSUP = {
    "decision": "refused",
    "kind": "unsupported_capability_feature",
    "reason": "cumulative approval enforcement is unavailable",
}
REFUSED_CUMUL = "portable kernel cannot safely evaluate require_cumulative_approval_above"
FEAT, AGG = "cumulative_approval_budget", "aggregate_invocation_budget"


def _e(  # noqa: PLR0917 (positional in the tables below, like _vec)
    grants: list[Json],
    path: str,
    negotiated: list[str] | None = None,
    args: Json = None,
    tool: str = "echo",
    server: str = "srv-a",
) -> dict[str, Json]:
    return {
        "scope": {"grants": grants},
        "path": path,
        "negotiated": negotiated or [],
        "tool_name": tool,
        "server_id": server,
        "arguments": {} if args is None else args,
    }


def _entry() -> list[dict[str, Json]]:
    p = "scope-entry"
    out: list[dict[str, Json]] = []
    scopes = {
        "target": [_grant("srv-a", "echo", [CUMUL_CON])],
        "non-target": [_grant("srv-a", "echo"), _grant("srv-b", "other", [CUMUL_CON])],
        "no-invoke": [_grant("srv-a", "echo"), _grant("srv-a", "echo", [CUMUL_CON], ["read"])],
        "behind-false": [
            _grant("srv-a", "echo", [{"type": "path_prefix", "value": "/x"}, CUMUL_CON]),
            _grant("*", "*"),
        ],
    }
    for sname, grants in scopes.items():
        for negs in ([], [FEAT], [AGG], [AGG, FEAT]):
            tag = "-".join(n.split("_")[0] for n in negs) or "none"
            out.append(
                _vec(
                    p,
                    f"plain-{sname}-{tag}",
                    f"Plain path, cumulative on a {sname} grant, negotiated {negs or 'nothing'}: "
                    "the verifier's not-negotiated refusal.",
                    ["SCOPE-CUMUL-1", "SCOPE-CUMUL-2"],
                    ["refusal", "negotiation"],
                    _e(grants, "plain", negs),
                    NOT_NEG,
                )
            )
            full = UNSUP if FEAT in negs else NOT_NEG
            out.append(
                _vec(
                    p,
                    f"full-{sname}-{tag}",
                    f"Full-floor path, cumulative on a {sname} grant, negotiated "
                    f"{negs or 'nothing'}: {full['kind']}.",
                    ["SCOPE-CUMUL-1", "SCOPE-CUMUL-3"],
                    ["refusal", "negotiation"],
                    _e(grants, "full_floor", negs),
                    full,
                )
            )
    out += [
        _vec(
            p,
            "direct-target",
            "A direct call on a target cumulative grant: the matcher's refusal.",
            ["SCOPE-CUMUL-4"],
            ["direct"],
            _e(scopes["target"], "direct"),
            {
                "decision": "constraint_error",
                "message": REFUSED_CUMUL,
            },
            _UP + "resolve_matching_grants_rejects_cumulative_approval_until_enforced",
        ),
        _vec(
            p,
            "direct-target-negotiated",
            "Negotiation does not change the direct matcher call.",
            ["SCOPE-CUMUL-4"],
            ["direct"],
            _e(scopes["target"], "direct", [FEAT]),
            {
                "decision": "constraint_error",
                "message": REFUSED_CUMUL,
            },
        ),
        _vec(
            p,
            "direct-non-target",
            "A direct call never reaches a non-target cumulative grant.",
            ["SCOPE-CUMUL-4"],
            ["direct"],
            _e(scopes["non-target"], "direct"),
            {"decision": "matches", "matches": [{"index": 0, "specificity": [1, 1, 0]}]},
        ),
        _vec(
            p,
            "direct-no-invoke",
            "A grant without invoke is no target: its cumulative constraint is skipped.",
            ["SCOPE-CUMUL-4"],
            ["direct"],
            _e(scopes["no-invoke"], "direct"),
            {"decision": "matches", "matches": [{"index": 0, "specificity": [1, 1, 0]}]},
        ),
        _vec(
            p,
            "direct-behind-false",
            "A false constraint before the variant drops the grant quietly.",
            ["SCOPE-CUMUL-4"],
            ["direct"],
            _e(scopes["behind-false"], "direct", args={"q": "none"}),
            {"decision": "matches", "matches": [{"index": 1, "specificity": [0, 0, 0]}]},
        ),
        _vec(
            p,
            "direct-empty",
            "A direct call with nothing covering answers an empty list.",
            ["SCOPE-CUMUL-4"],
            ["direct"],
            _e([], "direct"),
            {"decision": "matches", "matches": []},
        ),
    ]
    for path in ("plain", "full_floor"):
        short = "plain" if path == "plain" else "full"
        out += [
            _vec(
                p,
                f"{short}-allow-first",
                "Evaluate takes matches.first(), the most specific grant.",
                ["SCOPE-CUMUL-5"],
                ["evaluate"],
                _e([_grant("*", "*"), _grant("srv-a", "echo")], path, [FEAT]),
                {"decision": "allowed", "index": 1, "specificity": [1, 1, 0]},
                _UP + "evaluate_allow_path",
            ),
            _vec(
                p,
                f"{short}-out-of-scope",
                "No covering grant: the not-in-capability-scope text.",
                ["SCOPE-CUMUL-5"],
                ["evaluate"],
                _e([_grant("srv-a", "other")], path),
                {
                    "decision": "denied",
                    "reason": "requested tool echo on server srv-a is not in capability scope",
                },
                _UP + "evaluate_out_of_scope",
            ),
            _vec(
                p,
                f"{short}-unsupported-constraint",
                "A refused constraint: constraint evaluation failed.",
                ["SCOPE-CUMUL-5"],
                ["evaluate"],
                _e(
                    [
                        _grant(
                            "srv-a",
                            "echo",
                            [{"type": "minimum_runtime_assurance", "value": "attested"}],
                        ),
                        _grant("*", "*"),
                    ],
                    path,
                ),
                {
                    "decision": "denied",
                    "reason": "constraint evaluation failed: portable kernel cannot safely "
                    "evaluate minimum_runtime_assurance",
                },
                _UP + "evaluate_fails_closed_on_unsupported_constraint",
            ),
            _vec(
                p,
                f"{short}-path-sibling",
                "A path under a sibling directory is out of scope.",
                ["SCOPE-CUMUL-5"],
                ["evaluate"],
                _e(
                    [_grant("srv-a", "echo", [{"type": "path_prefix", "value": "/data/safe"}])],
                    path,
                    args={"path": "/data/unsafe/x.txt"},
                ),
                {
                    "decision": "denied",
                    "reason": "requested tool echo on server srv-a is not in capability scope",
                },
                _UP + "evaluate_enforces_path_prefix_constraint",
            ),
            _vec(
                p,
                f"{short}-path-traversal",
                "A traversal out of the prefix is out of scope.",
                ["SCOPE-CUMUL-5"],
                ["evaluate"],
                _e(
                    [_grant("srv-a", "echo", [{"type": "path_prefix", "value": "/data/safe"}])],
                    path,
                    args={"path": "/data/safe/../secret.txt"},
                ),
                {
                    "decision": "denied",
                    "reason": "requested tool echo on server srv-a is not in capability scope",
                },
                _UP + "evaluate_rejects_path_traversal_against_path_prefix_constraint",
            ),
            _vec(
                p,
                f"{short}-path-sibling-prefix",
                "safeX is not under safe.",
                ["SCOPE-CUMUL-5"],
                ["evaluate"],
                _e(
                    [_grant("srv-a", "echo", [{"type": "path_prefix", "value": "/data/safe"}])],
                    path,
                    args={"path": "/data/safeX/f"},
                ),
                {
                    "decision": "denied",
                    "reason": "requested tool echo on server srv-a is not in capability scope",
                },
                _UP + "evaluate_rejects_sibling_prefix_match_for_path_constraint",
            ),
            _vec(
                p,
                f"{short}-path-allowed",
                "A path under the prefix is allowed.",
                ["SCOPE-CUMUL-5"],
                ["evaluate"],
                _e(
                    [_grant("srv-a", "echo", [{"type": "path_prefix", "value": "/data/safe"}])],
                    path,
                    args={"path": "/data/safe/./a.txt"},
                ),
                {"decision": "allowed", "index": 0, "specificity": [1, 1, 1]},
            ),
            _vec(
                p,
                f"{short}-refusal-before-constraint-error",
                "The refusal precedes matching, so a refused constraint is never reached.",
                ["SCOPE-CUMUL-1"],
                ["refusal"],
                _e(
                    [
                        _grant("srv-a", "echo", [{"type": "regex_match", "value": ".*"}]),
                        _grant("z", "z", [CUMUL_CON]),
                    ],
                    path,
                    [FEAT],
                ),
                UNSUP if path == "full_floor" else NOT_NEG,
            ),
        ]
    bad: list[tuple[str, Json]] = [
        ("not-object", []),
        ("missing-path", {k: v for k, v in _e([], "plain").items() if k != "path"}),
        ("path-unknown", _e([], "ag_ui")),
        ("path-case", _e([], "Plain")),
        ("negotiated-missing", {k: v for k, v in _e([], "plain").items() if k != "negotiated"}),
        ("negotiated-string", {**_e([], "plain"), "negotiated": FEAT}),
        ("negotiated-number-item", {**_e([], "plain"), "negotiated": [1]}),
        ("tool-name-null", {**_e([], "plain"), "tool_name": None}),
        ("missing-arguments", {k: v for k, v in _e([], "plain").items() if k != "arguments"}),
        ("scope-invalid", {**_e([], "plain"), "scope": {"grants": [{"server_id": "s"}]}}),
    ]
    out += [
        _vec(
            p,
            f"bad-{vid}",
            f"Malformed input ({vid.replace('-', ' ')}) is invalid_input.",
            ["SCOPE-CUMUL-6", "HARNESS-ENTRY-1"],
            ["malformed"],
            inp,
            _invalid(),
            "handwritten",
        )
        for vid, inp in bad
    ]
    return out


def files() -> dict[str, dict[str, Json]]:
    """The two generated files."""
    header = [
        "Generated by conformance/vectorgen/scope_agui.py (make vectors); do not edit by hand."
    ]
    return {
        "scope/bind_event.json": envelope(
            semantic="scope",
            operation="scope.bind_event",
            title="The AG-UI proxy's capability-bound decision",
            header=header,
            source={
                "name": "Chio AG-UI proxy (bb-connor/arc chio-ag-ui-proxy proxy/core.rs, helpers)",
                "version": "123cc792ceeaa6448796e7bc53c347d73bf000a0 (helpers 4bad2b57)",
                "reference": "seed 003_b6aa25f0d73b50e9; shared/reference/chio.md §7.3, §8",
            },
            notes=_BIND_NOTES,
            tests=_bind_upstream()
            + _bind_classification()
            + _bind_matrix()
            + _bind_more()
            + _bind_malformed(),
        ),
        "scope/evaluate_entry.json": envelope(
            semantic="scope",
            operation="scope.evaluate_entry",
            title="Cumulative approval refused before matching by every evaluate entry point",
            header=header,
            source={
                "name": "Chio portable evaluate and verifier (bb-connor/arc chio-kernel-core)",
                "version": "123cc792ceeaa6448796e7bc53c347d73bf000a0",
                "reference": "seed 003_b6aa25f0d73b50e9 (Cumulative approval before matching); "
                "shared/reference/chio.md §7",
            },
            notes=_ENTRY_NOTES,
            tests=_entry(),
        ),
    }
