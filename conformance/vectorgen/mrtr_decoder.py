"""``mrtr/round_decoder.json``: serde_derive's reading order inside a request ``_meta``, seen
through ``mrtr.round``'s params read (MRTR-ROUND-3, MRTR-RETRY-4, MRTR-REQ-7).

A ``tools/call`` whose ``_meta`` fails neva's typed ``RequestParamsMeta`` read ends the round
with ``-32602`` and serde_json's exact text. These cases put the fault where the reading order
decides the message: neva's ``Implementation`` (``clientInfo``) in serde's sequence form
``[name, version, icons]``, whose slots serde_derive's visitor decodes one by one (a bad slot
is reported before a missing one, and before extra elements), and two bad members of the
object form, the one sorting first being reported. Expected messages are stated by hand from
serde_derive's generated ``visit_seq``/``visit_map`` and serde_json's ``visit_array``.
"""

from __future__ import annotations

from typing import Any

from conformance.vectorgen._common import envelope, vector
from conformance.vectorgen._mrtr_round_kit import (
    NOTES,
    RESULT,
    SOURCE,
    err,
    inp,
    meta,
    ok,
    out,
    params_for,
    ret,
    stamped,
)

INFO = "io.modelcontextprotocol/clientInfo"
SCRIPT = [{"op": "once", "key": "o"}, ret()]
IMPLEMENTATION_3 = "struct Implementation with 3 elements"

# (slug, extra _meta members, serde's message, what the case shows)
CASES: list[tuple[str, dict[str, Any], str, str]] = [
    (
        "client-info-seq-slot-before-length",
        {INFO: [1, "v"]},
        "invalid type: integer `1`, expected a string",
        "clientInfo as [name, version] with a numeric name: the name slot is read (and refused) "
        "before the missing icons slot is noticed",
    ),
    (
        "client-info-seq-version-slot",
        {INFO: ["n", 2]},
        "invalid type: integer `2`, expected a string",
        "clientInfo as [name, version] with a numeric version: slot 1 is refused before the "
        "missing slot 2 is noticed",
    ),
    (
        "client-info-seq-short",
        {INFO: ["n", "1"]},
        f"invalid length 2, expected {IMPLEMENTATION_3}",
        "clientInfo as [name, version]: icons is an Option without a default, so its slot is "
        "needed; serde_derive names the index it could not fill",
    ),
    (
        "client-info-seq-one",
        {INFO: ["n"]},
        f"invalid length 1, expected {IMPLEMENTATION_3}",
        "clientInfo as [name]: the version slot (index 1) is the first one missing",
    ),
    (
        "client-info-seq-empty",
        {INFO: []},
        f"invalid length 0, expected {IMPLEMENTATION_3}",
        "clientInfo as []: the name slot (index 0) is missing",
    ),
    (
        "client-info-seq-long",
        {INFO: ["n", "1", None, None]},
        "invalid length 4, expected fewer elements in array",
        "clientInfo with a fourth element: serde_json's visit_array refuses the extra element "
        "once the three slots read",
    ),
    (
        "client-info-seq-long-bad-slot",
        {INFO: ["n", 2, None, None]},
        "invalid type: integer `2`, expected a string",
        "clientInfo with a fourth element and a numeric version: the slot is refused before "
        "the length is judged",
    ),
    (
        "client-info-seq-icons-slot",
        {INFO: ["n", "1", 3]},
        "invalid type: integer `3`, expected a sequence",
        "clientInfo as [name, version, icons] with a numeric icons: the third slot is a Vec",
    ),
    (
        "client-info-seq-reads",
        {INFO: ["n", "1", None]},
        "",
        "clientInfo as [name, version, null]: the sequence form reads, the handler runs",
    ),
    (
        "client-info-icons-before-name",
        {INFO: {"version": "1", "icons": 5}},
        "invalid type: integer `5`, expected a sequence",
        "clientInfo without a name and with a numeric icons: icons is read (icons < name) and "
        "refused before the missing name is judged",
    ),
    (
        "client-info-version-before-missing-name",
        {INFO: {"version": 1}},
        "invalid type: integer `1`, expected a string",
        "clientInfo with a numeric version and no name: the present member is read first",
    ),
    (
        "client-info-missing-name-first",
        {INFO: {"icons": []}},
        "missing field `name`",
        "clientInfo with neither name nor version: the first missing field in declared order",
    ),
    (
        "sorted-client-info-before-progress-token",
        {"progressToken": 1.5, INFO: 5},
        "invalid type: integer `5`, expected struct Implementation",
        "two bad members: io.modelcontextprotocol/clientInfo sorts before progressToken",
    ),
    (
        "sorted-traceparent-before-tracestate",
        {"tracestate": 1, "traceparent": 2},
        "invalid type: integer `2`, expected a string",
        "two bad members: traceparent sorts before tracestate",
    ),
    (
        "sorted-capabilities-before-client-info",
        {INFO: 5, "io.modelcontextprotocol/clientCapabilities": {"roots": 5}},
        "data did not match any variant of untagged enum Declaration",
        "two bad members: io.modelcontextprotocol/clientCapabilities sorts before .../clientInfo",
    ),
    (
        "sorted-log-level-before-progress-token",
        {"progressToken": True, "io.modelcontextprotocol/logLevel": "loud"},
        "unknown variant `loud`, expected one of `debug`, `info`, `warning`, `error`, `notice`, "
        "`critical`, `alert`, `emergency`",
        "two bad members: io.modelcontextprotocol/logLevel sorts before progressToken",
    ),
    (
        "sorted-capabilities-elicitation-before-roots",
        {"io.modelcontextprotocol/clientCapabilities": {"roots": 1, "elicitation": 1}},
        "data did not match any variant of untagged enum ElicitationDeclaration",
        "two bad capabilities: elicitation sorts before roots",
    ),
]


def _tests() -> list[dict[str, Any]]:
    tests = []
    for slug, extra, message, comment in CASES:
        caps = extra.get("io.modelcontextprotocol/clientCapabilities")
        members = {
            k: v for k, v in extra.items() if k != "io.modelcontextprotocol/clientCapabilities"
        }
        params = params_for("tools/call", _meta=meta(caps, **members))
        expected = out(err(-32602, message)) if message else out(ok(stamped(RESULT)), ["once:o"])
        tests.append(
            vector(
                f"mrtr-round-decoder-{slug}",
                comment,
                ["MRTR-ROUND-3", "MRTR-RETRY-4", "MRTR-REQ-7"],
                ["Params"],
                inp(params, SCRIPT),
                expected,
            )
        )
    return tests


ALLOWS_NOTES = {
    "Schema": {
        "bugType": "QUIRK",
        "description": "A requestedSchema property read as neva's Schema reader reads it.",
    },
    "Error": {
        "bugType": "MALFORMED_INPUT",
        "description": "An envelope neva refuses (message not compared).",
    },
}
FORM_ONLY = {"elicitation": {"form": {}}}

# (slug, property schema, whether neva reads it, what the case shows)
SCHEMAS: list[tuple[str, Any, bool, str]] = [
    (
        "multi-untitled-items-type-null",
        {"type": "array", "items": {"type": None, "enum": ["a"]}},
        False,
        "EnumItems.type is #[serde(default)] PropertyType, not an Option: null is refused",
    ),
    (
        "multi-untitled-items-type-absent",
        {"type": "array", "items": {"enum": ["a"]}},
        True,
        "EnumItems.type left out takes its default",
    ),
    (
        "multi-untitled-items-type-map-form",
        {"type": "array", "items": {"type": {"string": None}, "enum": ["a"]}},
        True,
        "EnumItems.type in serde_json's map form of a unit variant reads",
    ),
    (
        "multi-untitled-items-type-unknown",
        {"type": "array", "items": {"type": "text", "enum": ["a"]}},
        False,
        "EnumItems.type must name a PropertyType variant",
    ),
    (
        "titled-single-option-sequence-form",
        {"type": "string", "oneOf": [["a", "A"]]},
        False,
        "EnumOption has a flattened extra map, so serde reads it from an object only",
    ),
    (
        "titled-single-option-no-title",
        {"type": "string", "oneOf": [{"const": "a"}]},
        False,
        "EnumOption.title is a required String",
    ),
]


def _allows() -> list[dict[str, Any]]:
    tests = []
    for slug, prop, reads, comment in SCHEMAS:
        schema = {"type": "object", "properties": {"p": prop}}
        request = {
            "method": "elicitation/create",
            "params": {"message": "m", "requestedSchema": schema},
        }
        expected = (
            {"allowed": True, "required": FORM_ONLY}
            if reads
            else {"error": {"message": "(not compared)"}}
        )
        tests.append(
            vector(
                f"mrtr-allows-decoder-{slug}",
                comment,
                ["MRTR-REQ-4"],
                ["Schema"] if reads else ["Schema", "Error"],
                {"capabilities": {"elicitation": {}}, "request": request},
                expected,
            )
        )
    return tests


def files() -> dict[str, dict[str, Any]]:
    """The files this generator writes."""
    return {
        "mrtr/allows_decoder.json": envelope(
            semantic="mrtr",
            operation="mrtr.allows",
            title="mrtr.allows: property schemas as neva's Schema reader and its structs read them",
            header=[
                "Generated by conformance/vectorgen/mrtr_decoder.py (make vectors); "
                "expected outputs stated by hand from neva's types/schema.rs.",
            ],
            source=SOURCE,
            notes=ALLOWS_NOTES,
            tests=_allows(),
        ),
        "mrtr/round_decoder.json": envelope(
            semantic="mrtr",
            operation="mrtr.round",
            title="mrtr.round: serde_derive's reading order inside a request _meta (params read)",
            header=[
                "Generated by conformance/vectorgen/mrtr_decoder.py (make vectors); "
                "expected outputs stated by hand.",
                "Each case is one tools/call round whose _meta fails (or passes) neva's typed "
                "RequestParamsMeta read.",
            ],
            source=SOURCE,
            notes={"Params": NOTES["Params"]},
            tests=_tests(),
        ),
    }
