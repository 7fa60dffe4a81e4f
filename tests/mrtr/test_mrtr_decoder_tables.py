"""Every derived serde struct the mrtr decoders read, walked field by field from a table stated
by hand from neva's types (commit e6822d7) and serde_derive's generated visitor (MRTR-REQ-6,
MRTR-REQ-7, MRTR-RETRY-4, MRTR-CAP-1, MRTR-CAP-3, MRTR-ROUND-3, MRTR-CTX-2).

For each struct the table lists its fields in declared order with their JSON names (after
``rename``), whether each is required, an ``Option``, ``#[serde(default)]`` or both, one value
that reads and one that does not, with serde's message for it. The tests derive every case
from that table alone, by serde's rules, never from the code under test:

* an object's present members are read in sorted key order (a ``serde_json::Value`` map is a
  B-tree map), the first bad one failing; unknown keys are ignored; then the first missing
  required field in declared order is ``missing field `x```; ``null`` is ``None`` for an
  ``Option`` and a type error otherwise;
* the sequence form reads its slots in declared order, each decoded when its turn comes; a
  missing slot is ``invalid length <index>, expected struct X with N element(s)`` unless the
  field has ``#[serde(default)]``; more elements than fields is serde_json's ``invalid length
  <len>, expected fewer elements in array``, judged only after every slot read;
* anything else is ``invalid type: <value>, expected struct X``.

Over ~400 lines on purpose: one hand-written table and the rules read from it; split, each
half would import the table from the other.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from mcp_touchstone.mrtr._answers import AnswerError, read_answer
from mcp_touchstone.mrtr._capabilities import CapabilityError, parse_capabilities
from mcp_touchstone.mrtr._input import InputKind, InputRequestError
from mcp_touchstone.mrtr._meta import MetaError, check_icon, parse_request_meta
from mcp_touchstone.mrtr._params import method_params_error
from mcp_touchstone.mrtr._requests import decode_input_request
from mcp_touchstone.serde_json import JSON

_ERRORS = (InputRequestError, MetaError, AnswerError, CapabilityError)


def _refusal(run: Callable[[], object]) -> str | None:
    """The decoder's message, or ``None`` when it accepts."""
    try:
        run()
    except _ERRORS as exc:
        return str(exc)
    return None


@dataclass(frozen=True)
class F:
    """One field: JSON name, kind (``req``: required; ``opt``: ``Option``; ``def``:
    ``#[serde(default)]``; ``optdef``: both), a value that reads, one that does not and
    serde's message for it."""

    name: str
    kind: str
    good: JSON
    bad: JSON = None
    message: str | None = None  # None: every JSON value reads (``serde_json::Value``)

    @property
    def may_be_absent(self) -> bool:
        return self.kind != "req"

    @property
    def slot_may_be_absent(self) -> bool:
        return self.kind in ("def", "optdef")

    @property
    def null_reads(self) -> bool:
        return self.kind in ("opt", "optdef")

    def null_message(self) -> str:
        """serde's message for ``null`` in a non-``Option`` field: the type error names the
        same expected type as the bad value's (an untagged enum's message names no value)."""
        assert self.message is not None, self.name
        if self.message.startswith("invalid type: "):
            return "invalid type: null, expected " + self.message.split(", expected ", 1)[1]
        return self.message


@dataclass(frozen=True)
class S:
    """One struct: its serde name, its fields in declared order, how to decode a value of it
    (in context: the value is placed where neva reads the struct), the members every object
    form carries besides the fields, and whether its sequence form can be reached."""

    name: str
    fields: tuple[F, ...]
    decode: Callable[[JSON], str | None]
    base: dict[str, JSON] = field(default_factory=dict)
    sequence: bool = True
    null_overrides: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.name

    def good_object(self) -> dict[str, JSON]:
        return {**self.base, **{f.name: f.good for f in self.fields}}

    def good_sequence(self) -> list[JSON]:
        return [f.good for f in self.fields]

    def bad_fields(self) -> list[tuple[int, F]]:
        return [(i, f) for i, f in enumerate(self.fields) if f.message is not None]

    def expecting(self) -> str:
        n = len(self.fields)
        return f"struct {self.name} with {n} element{'' if n == 1 else 's'}"


def _int(n: int, expected: str) -> str:
    return f"invalid type: integer `{n}`, expected {expected}"


def _str(s: str, expected: str) -> str:
    return f'invalid type: string "{s}", expected {expected}'


_ENUM = "string or map"
_ONE_OR_MANY = "data did not match any variant of untagged enum OneOrMany"
_TEXT: JSON = {"type": "text", "text": "t"}
_SCHEMA: JSON = {"type": "object", "properties": {}}
_CAPS = "io.modelcontextprotocol/clientCapabilities"
_INFO = "io.modelcontextprotocol/clientInfo"


# --------------------------------------------------------------------------- decoders in context


def _request(value: JSON) -> str | None:
    return _refusal(lambda: decode_input_request(value))


def _sampling(**extra: JSON) -> dict[str, JSON]:
    params: dict[str, JSON] = {"messages": [], "maxTokens": 1, **extra}
    return {"method": "sampling/createMessage", "params": params}


def _form(schema: JSON) -> JSON:
    return {"method": "elicitation/create", "params": {"message": "m", "requestedSchema": schema}}


def _meta(value: JSON) -> str | None:
    return _refusal(lambda: parse_request_meta(value))


def _params(method: str) -> Callable[[JSON], str | None]:
    def decode(value: JSON) -> str | None:
        error = method_params_error(method, value)
        if error is None:
            return None
        wire = error.to_json()
        assert wire["code"] == -32602
        message = wire["message"]
        assert isinstance(message, str)
        return message

    return decode


def _answer(kind: InputKind) -> Callable[[JSON], str | None]:
    return lambda value: _refusal(lambda: read_answer(kind, value))


_META_STRUCT = "invalid type: integer `{}`, expected struct RequestParamsMeta"

STRUCTS: list[S] = [
    S(
        "Envelope",
        (
            F("method", "req", "roots/list", 7, _int(7, "a string")),
            F("params", "optdef", {}),
        ),
        _request,
    ),
    S(
        "ListRootsRequestParams",
        (F("_meta", "opt", {}, 5, _META_STRUCT.format(5)),),
        lambda v: _request({"method": "roots/list", "params": v}),
    ),
    S(
        "CreateMessageRequestParams",
        (
            F("messages", "req", [], 1, _int(1, "a sequence")),
            F("maxTokens", "req", 1, "x", _str("x", "i32")),
            F("includeContext", "opt", "none", 2, _int(2, _ENUM)),
            F("metadata", "opt", {}),
            F("modelPreferences", "opt", {}, 3, _int(3, "struct ModelPreferences")),
            F("systemPrompt", "opt", "s", 4, _int(4, "a string")),
            F("temperature", "opt", 0.5, "t", _str("t", "f32")),
            F("stopSequences", "opt", [], 5, _int(5, "a sequence")),
            F("tools", "opt", [], 6, _int(6, "a sequence")),
            F("toolChoice", "opt", {"mode": "auto"}, 7, _int(7, "struct ToolChoice")),
        ),
        lambda v: _request({"method": "sampling/createMessage", "params": v}),
    ),
    S(
        "SamplingMessage",
        (
            F("role", "req", "user", 1, _int(1, _ENUM)),
            F("content", "req", _TEXT, 2, _ONE_OR_MANY),
        ),
        lambda v: _request(_sampling(messages=[v])),
    ),
    S(
        "ModelPreferences",
        (
            F("costPriority", "opt", 0.1, "c", _str("c", "f32")),
            F("hints", "opt", [], 1, _int(1, "a sequence")),
            F("speedPriority", "opt", 0.2, "s", _str("s", "f32")),
            F("intelligencePriority", "opt", 0.3, "i", _str("i", "f32")),
        ),
        lambda v: _request(_sampling(modelPreferences=v)),
    ),
    S(
        "ModelHint",
        (F("name", "opt", "n", 1, _int(1, "a string")),),
        lambda v: _request(_sampling(modelPreferences={"hints": [v]})),
    ),
    S(
        "ToolChoice",
        (F("mode", "req", "auto", 1, _int(1, _ENUM)),),
        lambda v: _request(_sampling(toolChoice=v)),
    ),
    S(
        "ElicitRequestFormParams",
        (
            F("message", "req", "m", 1, _int(1, "a string")),
            F("mode", "optdef", "form", "x", "unknown variant `x`, expected `form` or `url`"),
            F("requestedSchema", "req", _SCHEMA, 3, _int(3, "struct RequestSchema")),
            F("_meta", "opt", {}),
        ),
        lambda v: _request({"method": "elicitation/create", "params": v}),
        # neva's ElicitRequestParams reader: a stated mode must be a string (null included).
        null_overrides={"mode": "`mode` must be a string"},
    ),
    S(
        "ElicitRequestUrlParams",
        (
            F("message", "req", "m", 1, _int(1, "a string")),
            F("url", "req", "https://e.io", 2, _int(2, "a string")),
            F("_meta", "opt", {}),
        ),
        lambda v: _request({"method": "elicitation/create", "params": v}),
        base={"mode": "url"},
        sequence=False,  # an array has no `mode`: neva reads it as a form
    ),
    S(
        "RequestSchema",
        (
            F("type", "def", "object", 1, _int(1, _ENUM)),
            F("properties", "req", {}, 2, _int(2, "a map")),
            F("required", "opt", [], 3, _int(3, "a sequence")),
        ),
        lambda v: _request(_form(v)),
    ),
    S(
        "RequestParamsMeta",
        (
            F(
                "progressToken",
                "opt",
                1,
                1.5,
                "invalid type: floating point `1.5`, expected a number, UUID, string, or "
                "slash-separated path",
            ),
            F("traceparent", "opt", "t", 2, _int(2, "a string")),
            F("tracestate", "opt", "t", 3, _int(3, "a string")),
            F("baggage", "opt", "b", 4, _int(4, "a string")),
            F(_INFO, "opt", {"name": "n", "version": "1"}, 5, _int(5, "struct Implementation")),
            F("inputResponses", "optdef", {}, 6, _int(6, "a map")),
            F("requestState", "optdef", "s", 7, _int(7, "a string")),
            F("io.modelcontextprotocol/logLevel", "opt", "info", 8, _int(8, _ENUM)),
            F(
                "io.modelcontextprotocol/protocolVersion",
                "opt",
                "2026-07-28",
                9,
                _int(9, "a string"),
            ),
            F(_CAPS, "opt", {}, 10, _int(10, "struct ClientMrtrCapabilities")),
        ),
        _meta,
    ),
    S(
        "Implementation",
        (
            F("name", "req", "n", 1, _int(1, "a string")),
            F("version", "req", "1", 2, _int(2, "a string")),
            F("icons", "opt", [], 3, _int(3, "a sequence")),
        ),
        lambda v: _meta({_INFO: v}),
    ),
    S(
        "Icon",
        (
            F("mimeType", "opt", "image/png", 1, _int(1, "a string")),
            F("sizes", "opt", ["48x48", "any"], 2, _int(2, "a sequence")),
            F("src", "req", "https://e.io/i.png", 3, _int(3, "a string")),
            F("theme", "opt", "dark", 4, _int(4, _ENUM)),
        ),
        lambda v: _refusal(lambda: check_icon(v)),
    ),
    S(
        "Icon",  # the same struct met inside a request `_meta`'s clientInfo
        (
            F("mimeType", "opt", "image/png", 1, _int(1, "a string")),
            F("sizes", "opt", [], 2, _int(2, "a sequence")),
            F("src", "req", "https://e.io/i.png", 3, _int(3, "a string")),
            F("theme", "opt", "light", 4, _int(4, _ENUM)),
        ),
        lambda v: _meta({_INFO: {"name": "n", "version": "1", "icons": [{"src": "s"}, v]}}),
    ),
    S(
        "ClientMrtrCapabilities",
        (
            F(
                "elicitation",
                "optdef",
                {},
                1,
                "data did not match any variant of untagged enum ElicitationDeclaration",
            ),
            F(
                "sampling",
                "optdef",
                {},
                2,
                "data did not match any variant of untagged enum Declaration",
            ),
            F(
                "roots",
                "optdef",
                {},
                3,
                "data did not match any variant of untagged enum Declaration",
            ),
        ),
        lambda v: _refusal(lambda: parse_capabilities(v)),
    ),
    S(
        "CallToolRequestParams",
        (
            F("name", "req", "t", 1, _int(1, "a string")),
            F("arguments", "optdef", {}, 2, _int(2, "a map")),
            F("_meta", "opt", {}, 3, _META_STRUCT.format(3)),
        ),
        _params("tools/call"),
    ),
    S(
        "GetPromptRequestParams",
        (
            F("name", "req", "p", 1, _int(1, "a string")),
            F("arguments", "opt", {}, 2, _int(2, "a map")),
            F("_meta", "opt", {}, 3, _META_STRUCT.format(3)),
        ),
        _params("prompts/get"),
    ),
    S(
        "ReadResourceRequestParams",  # its `#[serde(skip)] args` is no slot
        (
            F("uri", "req", "file:///r", 1, _int(1, "a string")),
            F("_meta", "opt", {}, 2, _META_STRUCT.format(2)),
        ),
        _params("resources/read"),
    ),
    S(
        "ElicitResult",
        (
            F("action", "req", "accept", 1, _int(1, _ENUM)),
            F("content", "opt", {}),
            F("_meta", "opt", {}),
        ),
        _answer(InputKind.ELICITATION),
    ),
    S(
        "CreateMessageResult",
        (
            F("role", "req", "assistant", 1, _int(1, _ENUM)),
            F("content", "req", [_TEXT], 2, _ONE_OR_MANY),
            F("model", "req", "m", 3, _int(3, "a string")),
            F("stopReason", "opt", "endTurn", 4, _int(4, "a string")),
        ),
        _answer(InputKind.SAMPLING),
    ),
    S(
        "ListRootsResult",
        (
            F("roots", "req", [], 1, _int(1, "a sequence")),
            F("_meta", "opt", {}, 2, _META_STRUCT.format(2)),
        ),
        _answer(InputKind.ROOTS),
    ),
    S(
        "Root",
        (
            F("uri", "req", "file:///w", 1, _int(1, "a string")),
            F("name", "req", "w", 2, _int(2, "a string")),
            F("_meta", "opt", {}),
        ),
        lambda v: _answer(InputKind.ROOTS)({"roots": [{"uri": "file:///a", "name": "a"}, v]}),
    ),
]
_SEQUENCE_STRUCTS = [s for s in STRUCTS if s.sequence]
_IDS = [f"{s.name}-{i}" for i, s in enumerate(STRUCTS)]
_SEQUENCE_IDS = [f"{s.name}-{i}" for i, s in enumerate(STRUCTS) if s.sequence]
# A scalar elicitation params has no `mode`: neva reads it as a form, never as the URL variant.
_SCALAR_STRUCTS = [s for s in STRUCTS if not s.base]
_SCALAR_IDS = [f"{s.name}-{i}" for i, s in enumerate(STRUCTS) if not s.base]


# --------------------------------------------------------------------------- the object form


@pytest.mark.parametrize("struct", STRUCTS, ids=_IDS)
def test_the_whole_struct_reads_by_name(struct: S) -> None:
    """Every field present with a value of its type: the struct reads, in either form."""
    assert struct.decode(struct.good_object()) is None
    if struct.sequence:
        assert struct.decode(struct.good_sequence()) is None


@pytest.mark.parametrize("struct", STRUCTS, ids=_IDS)
def test_each_field_is_read_by_its_json_name(struct: S) -> None:
    """A field of the wrong type fails with serde's message for that field's type."""
    for _, f in struct.bad_fields():
        assert struct.decode({**struct.good_object(), f.name: f.bad}) == f.message, f.name


@pytest.mark.parametrize("struct", STRUCTS, ids=_IDS)
def test_each_missing_field_is_missing_or_defaulted(struct: S) -> None:
    """A required field left out is ``missing field `x```; any other reads as absent."""
    for f in struct.fields:
        members = {k: v for k, v in struct.good_object().items() if k != f.name}
        expected = None if f.may_be_absent else f"missing field `{f.name}`"
        assert struct.decode(members) == expected, f.name


@pytest.mark.parametrize("struct", STRUCTS, ids=_IDS)
def test_null_is_none_only_for_an_option(struct: S) -> None:
    """``null`` reads as ``None`` for an ``Option`` field, and is a type error for any other
    field (a ``#[serde(default)]`` one included)."""
    for f in struct.fields:
        got = struct.decode({**struct.good_object(), f.name: None})
        if f.name in struct.null_overrides:
            assert got == struct.null_overrides[f.name], f.name
        elif f.null_reads:
            assert got is None, f.name
        else:
            assert got == f.null_message(), f.name


@pytest.mark.parametrize("struct", STRUCTS, ids=_IDS)
def test_two_bad_members_report_the_one_sorting_first(struct: S) -> None:
    """Of two wrongly typed members, the one whose JSON name sorts first (code point order,
    a ``Value`` map's order) is reported, whatever the declared order."""
    for (_, a), (_, b) in itertools.combinations(struct.bad_fields(), 2):
        first = min(a, b, key=lambda f: f.name)
        members = {**struct.good_object(), a.name: a.bad, b.name: b.bad}
        assert struct.decode(members) == first.message, (a.name, b.name)


@pytest.mark.parametrize("struct", STRUCTS, ids=_IDS)
def test_a_bad_member_beats_a_missing_required_field(struct: S) -> None:
    """Missing fields are judged only after every present member read: a wrongly typed member
    is reported even when a required field is missing, wherever either sorts."""
    for missing in (f for f in struct.fields if not f.may_be_absent):
        for _, bad in struct.bad_fields():
            if bad is missing:
                continue
            members = {k: v for k, v in struct.good_object().items() if k != missing.name}
            assert struct.decode({**members, bad.name: bad.bad}) == bad.message


@pytest.mark.parametrize("struct", STRUCTS, ids=_IDS)
def test_missing_required_fields_are_reported_in_declared_order(struct: S) -> None:
    """Of two missing required fields the one declared first is named, whatever the names
    sort as; with none present at all, the first declared."""
    required = [f for f in struct.fields if not f.may_be_absent]
    empty = dict(struct.base)
    assert struct.decode(empty) == (f"missing field `{required[0].name}`" if required else None)
    for a, b in itertools.combinations(required, 2):
        rest = {k: v for k, v in struct.good_object().items() if k not in (a.name, b.name)}
        assert struct.decode(rest) == f"missing field `{a.name}`", (a.name, b.name)


@pytest.mark.parametrize("struct", STRUCTS, ids=_IDS)
def test_unknown_members_are_ignored(struct: S) -> None:
    """No struct denies unknown fields: keys sorting before, between and after the fields,
    the empty key and a field's name in another case, whatever they hold, are ignored."""
    extra: dict[str, JSON] = {"": 1, "!": [1], "zzzz": {"a": 1}, "~": None}
    for f in struct.fields:
        extra[f.name.upper()] = 5
        extra["XX" + f.name] = 5
    assert struct.decode({**extra, **struct.good_object()}) is None


@pytest.mark.parametrize("struct", _SCALAR_STRUCTS, ids=_SCALAR_IDS)
@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (5, "integer `5`"),
        ("s", 'string "s"'),
        (True, "boolean `true`"),
        (2.5, "floating point `2.5`"),
    ],
)
def test_a_scalar_is_not_the_struct(struct: S, value: JSON, shown: str) -> None:
    """A value that is neither an object nor an array is ``invalid type: ..., expected struct
    X`` (serde_derive's ``expecting``)."""
    assert struct.decode(value) == f"invalid type: {shown}, expected struct {struct.name}"


# --------------------------------------------------------------------------- the sequence form


@pytest.mark.parametrize("struct", _SEQUENCE_STRUCTS, ids=_SEQUENCE_IDS)
def test_each_slot_is_read_in_declared_order(struct: S) -> None:
    """Slot ``i`` of the sequence form is field ``i``: a wrongly typed value there fails with
    that field's message."""
    for i, f in struct.bad_fields():
        seq = struct.good_sequence()
        seq[i] = f.bad
        assert struct.decode(seq) == f.message, f.name


@pytest.mark.parametrize("struct", _SEQUENCE_STRUCTS, ids=_SEQUENCE_IDS)
def test_two_bad_slots_report_the_first(struct: S) -> None:
    """Of two wrongly typed slots the earlier one is reported, whatever the names sort as."""
    for (i, a), (j, b) in itertools.combinations(struct.bad_fields(), 2):
        seq = struct.good_sequence()
        seq[i], seq[j] = a.bad, b.bad
        assert struct.decode(seq) == a.message, (a.name, b.name)


def _short_message(struct: S, length: int) -> str | None:
    """serde_derive on a sequence of ``length`` elements: the first slot past the end that is
    not ``#[serde(default)]`` is reported by its index; none, and the struct reads."""
    for index in range(length, len(struct.fields)):
        if not struct.fields[index].slot_may_be_absent:
            return f"invalid length {index}, expected {struct.expecting()}"
    return None


@pytest.mark.parametrize("struct", _SEQUENCE_STRUCTS, ids=_SEQUENCE_IDS)
def test_a_short_sequence_names_the_slot_it_could_not_fill(struct: S) -> None:
    """Every length below the field count: the index of the first missing slot without a
    default, in serde_derive's words; a sequence that only leaves off defaulted slots reads."""
    for length in range(len(struct.fields)):
        assert struct.decode(struct.good_sequence()[:length]) == _short_message(struct, length)


@pytest.mark.parametrize("struct", _SEQUENCE_STRUCTS, ids=_SEQUENCE_IDS)
def test_an_overlong_sequence_is_judged_after_its_slots(struct: S) -> None:
    """One element too many is serde_json's ``fewer elements in array`` error, but only once
    every slot has read: a bad slot in an over-long sequence reports the slot."""
    long = [*struct.good_sequence(), None]
    n = len(long)
    assert struct.decode(long) == f"invalid length {n}, expected fewer elements in array"
    assert struct.decode([*long, 1]) == f"invalid length {n + 1}, expected fewer elements in array"
    for i, f in struct.bad_fields():
        seq = list(long)
        seq[i] = f.bad
        assert struct.decode(seq) == f.message, f.name


@pytest.mark.parametrize("struct", _SEQUENCE_STRUCTS, ids=_SEQUENCE_IDS)
def test_a_short_sequence_reads_its_slots_before_the_missing_one(struct: S) -> None:
    """A bad slot before the end is reported rather than the missing slot after it: the
    visitor decodes each slot as it comes (for ``_meta`` too)."""
    for i, f in struct.bad_fields():
        for length in range(i + 1, len(struct.fields)):
            seq = struct.good_sequence()[:length]
            seq[i] = f.bad
            assert struct.decode(seq) == f.message, (f.name, length)


@pytest.mark.parametrize("struct", _SEQUENCE_STRUCTS, ids=_SEQUENCE_IDS)
def test_null_in_a_slot_is_none_only_for_an_option(struct: S) -> None:
    """``null`` in a slot reads as ``None`` for an ``Option`` field, and is a type error for
    any other (neva's dispatcher on ``mode`` looks at objects only)."""
    for i, f in enumerate(struct.fields):
        seq = struct.good_sequence()
        seq[i] = None
        got = struct.decode(seq)
        assert got == (None if f.null_reads else f.null_message()), f.name
