"""neva's typed reads asserted member by member and whole: each modelled ``_meta`` member's serde
message and check order, the parse's kept values, every annotated ``Content`` variant's
``Annotations`` and ``ModelPreferences``' priorities by position (docs/assurance.md: survivors
of ``make mutants`` where a table entry was renamed and no test named that entry)."""

from __future__ import annotations

import pytest

from mcp_touchstone.mrtr import (
    InputRequestError,
    PayloadError,
    StatePayload,
    decode_input_request,
)
from mcp_touchstone.mrtr._answers import AnswerError, read_answer
from mcp_touchstone.mrtr._capabilities import CapabilityError, parse_capabilities
from mcp_touchstone.mrtr._client import read_server_info
from mcp_touchstone.mrtr._engine import ServerConfig
from mcp_touchstone.mrtr._errors import INVALID_PARAMS
from mcp_touchstone.mrtr._meta import (
    CLIENT_CAPABILITIES_KEY,
    MetaError,
    check_icon,
    parse_request_meta,
)
from mcp_touchstone.mrtr._params import method_params_error
from mcp_touchstone.mrtr._requests import InputKind
from mcp_touchstone.mrtr._state import Keyring
from mcp_touchstone.mrtr.wire import (
    CreateMessageResult,
    ElicitResult,
    InputRequiredResult,
    ListRootsResult,
    Root,
)
from mcp_touchstone.serde_json import JSON

_TOKEN = "a number, UUID, string, or slash-separated path"  # neva's ProgressToken visitor
_SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
_LEVELS = "`debug`, `info`, `warning`, `error`, `notice`, `critical`, `alert`, `emergency`"


@pytest.mark.parametrize(
    ("meta", "message"),
    [
        ({"progressToken": 1.5}, f"invalid type: floating point `1.5`, expected {_TOKEN}"),
        ({"progressToken": True}, f"invalid type: boolean `true`, expected {_TOKEN}"),
        ({"progressToken": {}}, f"invalid type: map, expected {_TOKEN}"),
        ({"traceparent": 5}, "invalid type: integer `5`, expected a string"),
        ({"tracestate": 5}, "invalid type: integer `5`, expected a string"),
        ({"tracestate": [1]}, "invalid type: sequence, expected a string"),
        ({"baggage": False}, "invalid type: boolean `false`, expected a string"),
        ({"requestState": 5}, "invalid type: integer `5`, expected a string"),
        ({"inputResponses": 5}, "invalid type: integer `5`, expected a map"),
        ({"inputResponses": []}, "invalid type: sequence, expected a map"),
        ({"inputResponses": "x"}, 'invalid type: string "x", expected a map'),
        (
            {"io.modelcontextprotocol/protocolVersion": 1.0},
            "invalid type: floating point `1.0`, expected a string",
        ),
        (
            {"io.modelcontextprotocol/logLevel": "loud"},
            f"unknown variant `loud`, expected one of {_LEVELS}",
        ),
        (
            {"io.modelcontextprotocol/logLevel": 3},
            "invalid type: integer `3`, expected string or map",
        ),
        ({"io.modelcontextprotocol/clientInfo": {"name": "n"}}, "missing field `version`"),
        ({"io.modelcontextprotocol/clientInfo": {"version": "1"}}, "missing field `name`"),
        (
            {"io.modelcontextprotocol/clientInfo": {"name": 1, "version": "1"}},
            "invalid type: integer `1`, expected a string",
        ),
    ],
)
def test_each_modelled_meta_member_is_refused_with_serde_message(meta: JSON, message: str) -> None:
    """Every member ``RequestParamsMeta`` types fails the whole ``_meta`` parse with serde's
    message for its own type when the value does not read as that type (MRTR-RETRY-4)."""
    with pytest.raises(MetaError) as exc:
        parse_request_meta(meta)
    assert str(exc.value) == message


@pytest.mark.parametrize(
    "key",
    [
        "progressToken",
        "traceparent",
        "tracestate",
        "baggage",
        "inputResponses",
        "requestState",
        "io.modelcontextprotocol/protocolVersion",
        "io.modelcontextprotocol/logLevel",
        "io.modelcontextprotocol/clientInfo",
        CLIENT_CAPABILITIES_KEY,
    ],
)
def test_every_modelled_meta_member_is_optional(key: str) -> None:
    """Each modelled member is an ``Option``: ``null`` reads as absent."""
    assert parse_request_meta({key: None}) == parse_request_meta({})


def test_meta_members_are_checked_in_sorted_key_order() -> None:
    """serde visits a ``serde_json::Value`` map in sorted key order, so the first failing
    member in that order names the error, whatever order the object was written in."""
    cases: list[tuple[dict[str, JSON], str]] = [
        ({"traceparent": 1, "inputResponses": 2}, "invalid type: integer `2`, expected a map"),
        ({"tracestate": 1, "baggage": {}}, "invalid type: map, expected a string"),
        (
            {"requestState": 1, "progressToken": 2.5},
            f"invalid type: floating point `2.5`, expected {_TOKEN}",
        ),
        ({"tracestate": True, "traceparent": 7}, "invalid type: integer `7`, expected a string"),
    ]
    for meta, message in cases:
        with pytest.raises(MetaError) as exc:
            parse_request_meta(meta)
        assert str(exc.value) == message


def test_meta_parse_keeps_the_members_mrtr_reads() -> None:
    """The parse keeps the capabilities (their own parse), ``inputResponses`` and
    ``requestState``, next to members that are read only to be checked."""
    caps: JSON = {"elicitation": {"form": {}}, "sampling": {}}
    meta: JSON = {
        CLIENT_CAPABILITIES_KEY: caps,
        "inputResponses": {"a": {"action": "accept"}},
        "requestState": "tok",
        "progressToken": "p",
        "traceparent": "00-x",
        "tracestate": "k=v",
        "baggage": "b=1",
        "io.modelcontextprotocol/logLevel": "info",
        "io.modelcontextprotocol/clientInfo": {"name": "n", "version": "1"},
        "other": [1, 2],
    }
    parsed = parse_request_meta(meta)
    assert parsed.capabilities == parse_capabilities(caps)
    assert parsed.capabilities is not None
    assert parsed.input_responses == {"a": {"action": "accept"}}
    assert parsed.request_state == "tok"
    assert parse_request_meta({"progressToken": 7}).capabilities is None


def _fits_sampling(content: JSON) -> bool:
    try:
        read_answer(InputKind.SAMPLING, {"role": "user", "content": content, "model": "m"})
    except AnswerError:
        return False
    return True


_ANNOTATED: list[JSON] = [
    {"type": "text", "text": "x"},
    {"type": "audio", "data": "aGk=", "mimeType": "audio/wav"},
    {"type": "image", "data": "aGk=", "mimeType": "image/png"},
    {"type": "resource_link", "uri": "file:///a", "name": "a"},
    {"type": "resource", "resource": {"uri": "file:///a", "text": "t"}},
]


@pytest.mark.parametrize("content", _ANNOTATED)
def test_every_annotated_content_variant_reads_its_annotations(content: dict[str, JSON]) -> None:
    """The five ``Content`` structs that declare ``annotations: Option<Annotations>`` (text,
    audio, image, resource link, embedded resource) each refuse annotations missing a required
    member and take well-formed ones."""
    good: JSON = {"audience": ["user"], "priority": 0.5}
    assert _fits_sampling(content)
    assert _fits_sampling({**content, "annotations": good})
    assert _fits_sampling({**content, "annotations": None})
    bads: list[JSON] = [
        {"priority": 0.5},
        {"audience": ["user"]},
        {"audience": "user", "priority": 1},
        5,
    ]
    for bad in bads:
        assert not _fits_sampling({**content, "annotations": bad})


@pytest.mark.parametrize("position", [0, 2, 3])
def test_model_preferences_priorities_are_f32_by_position(position: int) -> None:
    """``ModelPreferences`` declares ``costPriority``, ``hints``, ``speedPriority``,
    ``intelligencePriority`` in that order: in serde's sequence form each priority is read by
    its position and a string there fails as an ``f32``, as in the object form."""
    names = ("costPriority", "hints", "speedPriority", "intelligencePriority")
    seq: list[JSON] = [None, None, None, None]
    seq[position] = "fast"
    forms: list[JSON] = [seq, {names[position]: "fast"}]
    for prefs in forms:
        params: JSON = {"messages": [], "maxTokens": 1, "modelPreferences": prefs}
        with pytest.raises(InputRequestError) as exc:
            decode_input_request({"method": "sampling/createMessage", "params": params})
        assert str(exc.value) == 'invalid type: string "fast", expected f32'
    ok: JSON = {"messages": [], "maxTokens": 1, "modelPreferences": [0.1, [], 0.2, 0.3]}
    assert decode_input_request({"method": "sampling/createMessage", "params": ok}).params == ok


@pytest.mark.parametrize(
    ("method", "params", "message"),
    [
        (
            "tools/call",
            [],
            "invalid length 0, expected struct CallToolRequestParams with 3 elements",
        ),
        (
            "tools/call",
            ["t"],
            "invalid length 2, expected struct CallToolRequestParams with 3 elements",
        ),
        ("tools/call", 5, "invalid type: integer `5`, expected struct CallToolRequestParams"),
        ("tools/call", ["t", None, None, 1], "invalid length 4, expected fewer elements in array"),
        (
            "prompts/get",
            ["p"],
            "invalid length 1, expected struct GetPromptRequestParams with 3 elements",
        ),
        ("prompts/get", "p", 'invalid type: string "p", expected struct GetPromptRequestParams'),
        (
            "resources/read",
            [],
            "invalid length 0, expected struct ReadResourceRequestParams with 2 elements",
        ),
        (
            "resources/read",
            True,
            "invalid type: boolean `true`, expected struct ReadResourceRequestParams",
        ),
    ],
)
def test_mrtr_params_structs_are_named_in_serde_messages(
    method: str, params: JSON, message: str
) -> None:
    """The three MRTR methods' params structs (neva's ``CallToolRequestParams``,
    ``GetPromptRequestParams``, ``ReadResourceRequestParams``; default build, no ``task``) are
    named, with their field counts, in serde's sequence-form and wrong-type messages."""
    error = method_params_error(method, params)
    assert error is not None
    assert error.code == INVALID_PARAMS
    assert error.message == message


@pytest.mark.parametrize(
    ("method", "params", "message"),
    [
        ("tools/call", [5], "invalid type: integer `5`, expected a string"),
        ("resources/read", [5, None, None], "invalid type: integer `5`, expected a string"),
        ("prompts/get", {"arguments": 5}, "invalid type: integer `5`, expected a map"),
    ],
)
def test_mrtr_params_structs_decode_before_judging_length_or_missing(
    method: str, params: JSON, message: str
) -> None:
    """A bad first slot of a too-short or too-long sequence form, or a bad present member of an
    object missing its required field, is reported first, as serde_derive's visitor reads."""
    error = method_params_error(method, params)
    assert error is not None
    assert error.message == message


def test_embedded_resource_title_and_mime_type_are_strings() -> None:
    """Every ``ResourceContents`` variant declares ``title`` and ``mimeType`` as
    ``Option<String>``: strings (or null) read, any other value is a misfit."""
    base: dict[str, JSON] = {"uri": "file:///a", "text": "t"}
    for name in ("title", "mimeType"):
        for value, fits in (("T", True), (None, True), (5, False), ([], False)):
            content: JSON = {"type": "resource", "resource": {**base, name: value}}
            assert _fits_sampling(content) is fits, (name, value)


def test_resource_link_size_is_a_usize() -> None:
    """``ResourceLink.size`` is an ``Option<usize>`` (64-bit): 0 and 2**64 - 1 read; a negative
    number, 2**64, a float and a string do not."""
    link: dict[str, JSON] = {"type": "resource_link", "uri": "file:///a", "name": "a"}
    for size, fits in ((0, True), ((1 << 64) - 1, True), (-1, False), (1 << 64, False)):
        assert _fits_sampling({**link, "size": size}) is fits, size
    for other in (1.0, "1", True):
        assert not _fits_sampling({**link, "size": other})


_SAMPLE: dict[str, JSON] = {"messages": [], "maxTokens": 1}
_FORM: dict[str, JSON] = {"message": "m", "requestedSchema": {"properties": {}}}


@pytest.mark.parametrize(
    ("method", "params", "message"),
    [
        (
            "sampling/createMessage",
            [],
            "invalid length 0, expected struct CreateMessageRequestParams with 10 elements",
        ),
        (
            "sampling/createMessage",
            5,
            "invalid type: integer `5`, expected struct CreateMessageRequestParams",
        ),
        (
            "sampling/createMessage",
            {"messages": [[]], "maxTokens": 1},
            "invalid length 0, expected struct SamplingMessage with 2 elements",
        ),
        (
            "sampling/createMessage",
            {**_SAMPLE, "toolChoice": []},
            "invalid length 0, expected struct ToolChoice with 1 element",
        ),
        ("sampling/createMessage", {**_SAMPLE, "toolChoice": {}}, "missing field `mode`"),
        (
            "sampling/createMessage",
            {**_SAMPLE, "modelPreferences": []},
            "invalid length 0, expected struct ModelPreferences with 4 elements",
        ),
        (
            "sampling/createMessage",
            {**_SAMPLE, "modelPreferences": "p"},
            'invalid type: string "p", expected struct ModelPreferences',
        ),
        (
            "elicitation/create",
            [],
            "invalid length 0, expected struct ElicitRequestFormParams with 4 elements",
        ),
        (
            "elicitation/create",
            ["m"],
            "invalid length 2, expected struct ElicitRequestFormParams with 4 elements",
        ),
        (
            "elicitation/create",
            {"message": "m", "requestedSchema": []},
            "invalid length 1, expected struct RequestSchema with 3 elements",
        ),
        (
            "elicitation/create",
            {"message": "m", "requestedSchema": 1},
            "invalid type: integer `1`, expected struct RequestSchema",
        ),
        (
            "elicitation/create",
            {**_FORM, "mode": "other"},
            "unknown variant `other`, expected `form` or `url`",
        ),
        (
            "roots/list",
            [],
            "invalid length 0, expected struct ListRootsRequestParams with 1 element",
        ),
        ("roots/list", 5, "invalid type: integer `5`, expected struct ListRootsRequestParams"),
    ],
)
def test_input_request_params_structs_are_named_in_serde_messages(
    method: str, params: JSON, message: str
) -> None:
    """Each params struct an input request decodes (neva's default build: no ``task``) is named,
    with its field count and the slot it could not fill, in serde's sequence-form and
    wrong-type messages."""
    with pytest.raises(InputRequestError) as exc:
        decode_input_request({"method": method, "params": params})
    assert str(exc.value) == message


_TEXT: JSON = {"type": "text", "text": "x"}


@pytest.mark.parametrize(
    ("kind", "answer", "message"),
    [
        (
            InputKind.ELICITATION,
            [],
            "invalid length 0, expected struct ElicitResult with 3 elements",
        ),
        (InputKind.ELICITATION, 5, "invalid type: integer `5`, expected struct ElicitResult"),
        (InputKind.ELICITATION, {}, "missing field `action`"),
        (
            InputKind.ELICITATION,
            {"action": "maybe"},
            "unknown variant `maybe`, expected one of `accept`, `cancel`, `decline`",
        ),
        (
            InputKind.SAMPLING,
            [],
            "invalid length 0, expected struct CreateMessageResult with 4 elements",
        ),
        (InputKind.SAMPLING, {"content": _TEXT, "model": "m"}, "missing field `role`"),
        (
            InputKind.SAMPLING,
            {"role": "bot", "content": _TEXT, "model": "m"},
            "unknown variant `bot`, expected `user` or `assistant`",
        ),
        (InputKind.SAMPLING, {"role": "user", "model": "m"}, "missing field `content`"),
        (InputKind.SAMPLING, {"role": "user", "content": _TEXT}, "missing field `model`"),
        (
            InputKind.SAMPLING,
            {"role": "user", "content": _TEXT, "model": 5},
            "invalid type: integer `5`, expected a string",
        ),
        (
            InputKind.SAMPLING,
            {"role": "user", "content": 5, "model": "m"},
            "data did not match any variant of untagged enum OneOrMany",
        ),
        (InputKind.ROOTS, [], "invalid length 0, expected struct ListRootsResult with 2 elements"),
        (InputKind.ROOTS, {}, "missing field `roots`"),
        (InputKind.ROOTS, {"roots": 5}, "invalid type: integer `5`, expected a sequence"),
        (
            InputKind.ROOTS,
            {"roots": [[]]},
            "invalid length 0, expected struct Root with 3 elements",
        ),
        (InputKind.ROOTS, {"roots": [{"uri": "file:///a"}]}, "missing field `name`"),
        (InputKind.ROOTS, {"roots": [{"name": "a"}]}, "missing field `uri`"),
        (
            InputKind.ROOTS,
            {"roots": [{"uri": 1, "name": "a"}]},
            "invalid type: integer `1`, expected a string",
        ),
        (
            InputKind.ROOTS,
            {"roots": [], "_meta": {"tracestate": 1}},
            "invalid type: integer `1`, expected a string",
        ),
    ],
)
def test_answer_misfits_are_worded_whole(kind: InputKind, answer: JSON, message: str) -> None:
    """A replayed answer that does not read as ``ElicitResult``, ``CreateMessageResult`` or
    ``ListRootsResult`` fails with serde's message naming the struct, member or variant (the
    harness compares these only up to `` result``, so this test pins them whole)."""
    with pytest.raises(AnswerError) as exc:
        read_answer(kind, answer)
    assert str(exc.value) == message


def test_wire_models_read_every_variant_and_alias() -> None:
    """MRTR-WIRE-2: every ``action`` and ``role`` variant reads, each camelCase or ``_meta``
    alias fills its field, and ``ElicitResult`` writes ``_meta`` back when present."""
    for action in ("accept", "decline", "cancel"):
        answer = ElicitResult.model_validate({"action": action, "_meta": {"k": 1}, "content": {}})
        assert answer.to_json() == {"action": action, "content": {}, "_meta": {"k": 1}}
    for role in ("user", "assistant"):
        sampled = CreateMessageResult.model_validate(
            {"role": role, "content": [_TEXT], "model": "m", "stopReason": "endTurn"}
        )
        assert (sampled.role, sampled.stop_reason) == (role, "endTurn")
    root = Root.model_validate({"uri": "file:///a", "name": "a", "_meta": {"m": True}})
    assert root.meta == {"m": True}
    listed = ListRootsResult.model_validate({"roots": [], "_meta": {"progressToken": "p"}})
    assert listed.meta == {"progressToken": "p"}
    envelope: JSON = {"method": "roots/list"}
    required = InputRequiredResult.model_validate(
        {"resultType": "input_required", "inputRequests": {"r": envelope}, "requestState": "s"}
    )
    assert required.request_state == "s"
    assert required.to_json() == {
        "resultType": "input_required",
        "inputRequests": {"r": required.requests()["r"].to_json()},
        "requestState": "s",
    }
    assert required.requests()["r"].kind is InputKind.ROOTS


def test_request_meta_struct_is_named_in_serde_messages() -> None:
    """A ``_meta`` that is no object reads as ``RequestParamsMeta`` (ten fields in the default
    build) and serde names that struct: by type, or by the first slot its sequence form lacks."""
    cases: list[tuple[JSON, str]] = [
        (5, "invalid type: integer `5`, expected struct RequestParamsMeta"),
        ("m", 'invalid type: string "m", expected struct RequestParamsMeta'),
        ([], "invalid length 0, expected struct RequestParamsMeta with 10 elements"),
        (["p"], "invalid length 1, expected struct RequestParamsMeta with 10 elements"),
    ]
    for meta, message in cases:
        with pytest.raises(MetaError) as exc:
            parse_request_meta(meta)
        assert str(exc.value) == message


@pytest.mark.parametrize(
    ("max_tokens", "message"),
    [
        (2_147_483_647, None),
        (-2_147_483_648, None),
        (2_147_483_648, "invalid value: integer `2147483648`, expected i32"),
        (-2_147_483_649, "invalid value: integer `-2147483649`, expected i32"),
        (1.5, "invalid type: floating point `1.5`, expected i32"),
        (True, "invalid type: boolean `true`, expected i32"),
        ("1", 'invalid type: string "1", expected i32'),
    ],
)
def test_max_tokens_is_an_i32_refused_as_serde_refuses(
    max_tokens: JSON, message: str | None
) -> None:
    """``maxTokens`` is neva's ``i32``: both bounds read; serde's i32 visitor calls an integer
    out of range an invalid *value* (``visit_u64``/``visit_i64``) and any other JSON type an
    invalid *type* (regression: out-of-range integers were reported as an invalid type)."""
    params: JSON = {"messages": [], "maxTokens": max_tokens}
    envelope: JSON = {"method": "sampling/createMessage", "params": params}
    if message is None:
        assert decode_input_request(envelope).params == params
        return
    with pytest.raises(InputRequestError) as exc:
        decode_input_request(envelope)
    assert str(exc.value) == message


def test_optional_strings_of_sampling_params_are_worded_whole() -> None:
    """``systemPrompt`` and a model hint's ``name`` are ``Option<String>``: another type fails
    with serde's invalid-type message, whole."""
    cases: list[tuple[dict[str, JSON], str]] = [
        ({**_SAMPLE, "systemPrompt": 5}, "invalid type: integer `5`, expected a string"),
        (
            {**_SAMPLE, "modelPreferences": {"hints": [{"name": []}]}},
            "invalid type: sequence, expected a string",
        ),
        ({**_SAMPLE, "stopSequences": [1]}, "invalid type: integer `1`, expected a string"),
        ({**_SAMPLE, "stopSequences": "s"}, 'invalid type: string "s", expected a sequence'),
    ]
    for params, message in cases:
        with pytest.raises(InputRequestError) as exc:
            decode_input_request({"method": "sampling/createMessage", "params": params})
        assert str(exc.value) == message


def test_envelope_sequence_form_counts_its_slots() -> None:
    """The envelope read from serde's sequence form: an empty array lacks slot 0 of the two
    (``method``, ``params``), three elements are too many."""
    cases: list[tuple[JSON, str]] = [
        ([], "invalid length 0, expected struct Envelope with 2 elements"),
        (["roots/list", {}, 1], "invalid length 3, expected fewer elements in array"),
        (5, "invalid type: integer `5`, expected struct Envelope"),
        ({"params": {}}, "missing field `method`"),
        ([7], "invalid type: integer `7`, expected a string"),
    ]
    for envelope, message in cases:
        with pytest.raises(InputRequestError) as exc:
            decode_input_request(envelope)
        assert str(exc.value) == message
    assert decode_input_request(["roots/list"]).kind is InputKind.ROOTS


def test_tool_result_is_error_is_a_bool() -> None:
    """``ToolResult.is_error`` is a ``#[serde(default)] bool``: absent or a boolean reads,
    ``null`` or another type is a misfit."""
    base: dict[str, JSON] = {"type": "tool_result", "toolUseId": "1", "content": [_TEXT]}
    assert _fits_sampling(base)
    assert _fits_sampling({**base, "isError": True})
    assert _fits_sampling({**base, "isError": False})
    for bad in (None, "yes", 1):
        assert not _fits_sampling({**base, "isError": bad})


def test_server_config_defaults_are_nevas() -> None:
    """neva's ``McpOptions`` defaults: a 300 s ``requestState`` lifetime and an 8 KiB token cap."""
    config = ServerConfig(Keyring.single(b"k" * 32))
    assert config.ttl == 300
    assert config.max_state_bytes == 8 * 1024


def test_payload_from_json_takes_the_whole_sequence_form() -> None:
    """``StatePayload`` read from a JSON value in serde's sequence form takes all eight fields
    (``aud`` last) as the byte decoder does; a ninth element is one too many (MRTR-PAYLOAD-8)."""
    seq: list[JSON] = [{}, [], {}, [], 18446744073709551615, "x", "p", "svc"]
    data = b'[{},[],{},[],18446744073709551615,"x","p","svc"]'
    assert StatePayload.from_json(seq) == StatePayload.decode(data)
    assert StatePayload.from_json(seq).aud == "svc"
    with pytest.raises(PayloadError) as exc:
        StatePayload.from_json([*seq, None])
    assert str(exc.value) == "invalid length 9, expected fewer elements in array"
    # From bytes serde_json's end_seq meets the ninth element: trailing characters.
    with pytest.raises(PayloadError) as exc:
        StatePayload.decode(b'[{},[],{},[],1,"x",null,null,null]')
    assert str(exc.value) == "trailing characters at line 1 column 30"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"{1:2}", "key must be a string at line 1 column 2"),
        (b"{", "EOF while parsing an object at line 1 column 1"),
    ],
)
def test_payload_object_keys_fail_as_serde_parse_object_does(data: bytes, message: str) -> None:
    """Where an object key should start, serde_json's ``parse_object`` says ``key must be a
    string`` at any other byte and ``EOF while parsing an object`` at the end of the input."""
    with pytest.raises(PayloadError) as exc:
        StatePayload.decode(data)
    assert str(exc.value) == message
    with pytest.raises(PayloadError) as exc:
        StatePayload.decode(b'{"answers":{},' + data[1:])
    assert str(exc.value).startswith(message.split(" at ", maxsplit=1)[0])


_VARIANTS: list[tuple[dict[str, JSON], tuple[str, ...], tuple[str, ...]]] = [
    # (a well-formed item, its required string members, its optional typed members)
    ({"type": "text", "text": "x"}, ("text",), ()),
    ({"type": "audio", "data": "aGk=", "mimeType": "audio/wav"}, ("data", "mimeType"), ()),
    ({"type": "image", "data": "aGk=", "mimeType": "image/png"}, ("data", "mimeType"), ()),
    (
        {"type": "resource_link", "uri": "file:///a", "name": "a"},
        ("uri", "name"),
        ("mimeType", "title", "description", "size", "icons"),
    ),
    ({"type": "tool_use", "id": "1", "name": "t"}, ("id", "name"), ("input",)),
    ({"type": "tool_result", "toolUseId": "1", "content": []}, ("toolUseId",), ("isError",)),
]


@pytest.mark.parametrize(("item", "required", "optional"), _VARIANTS)
def test_every_content_variant_types_each_member(
    item: dict[str, JSON], required: tuple[str, ...], optional: tuple[str, ...]
) -> None:
    """Each ``Content`` variant (internally tagged by ``type``) needs each of its required
    string members, and refuses a wrongly typed optional one; a well-formed item fits."""
    assert _fits_sampling(item)
    for name in required:
        assert not _fits_sampling({k: v for k, v in item.items() if k != name}), name
        assert not _fits_sampling({**item, name: 7}), name
    for name in optional:
        assert not _fits_sampling({**item, name: "x" if name in ("size", "input") else 7}), name
    assert not _fits_sampling({**item, "type": "video"})


def test_roots_params_sequence_form_reads_its_meta() -> None:
    """``ListRootsRequestParams``' one field is ``_meta`` (a ``RequestParamsMeta``): its
    sequence form ``[meta]`` parses that meta as the object form does."""
    forms: list[JSON] = [{"_meta": {"tracestate": 1}}, [{"tracestate": 1}]]
    for params in forms:
        with pytest.raises(InputRequestError) as exc:
            decode_input_request({"method": "roots/list", "params": params})
        assert str(exc.value) == "invalid type: integer `1`, expected a string"
    assert decode_input_request({"method": "roots/list", "params": [{"tracestate": "t"}]})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"answers"', "EOF while parsing an object at line 1 column 10"),
        (b'{"answers" 1', "expected `:` at line 1 column 12"),
        (b'{"zz":{"a"', "EOF while parsing an object at line 1 column 10"),
        (b'{"zz":{"a" 1}}', "expected `:` at line 1 column 12"),
    ],
)
def test_payload_colon_errors_are_serde_parse_object_colon(data: bytes, message: str) -> None:
    """After an object key serde_json's ``parse_object_colon`` wants ``:``: the end of the
    input is ``EOF while parsing an object``, another byte ``expected `:```, in a payload
    field's key and in an ignored member's nested object alike."""
    with pytest.raises(PayloadError) as exc:
        StatePayload.decode(data)
    assert str(exc.value) == message


def _form_with(prop: JSON) -> JSON:
    schema: dict[str, JSON] = {"type": "object", "properties": {"p": prop}}
    return {"method": "elicitation/create", "params": {"message": "m", "requestedSchema": schema}}


_STR = "invalid type: integer `1`, expected a string"
_USIZE_NEG = "invalid value: integer `-1`, expected usize"
_SCHEMAS: list[tuple[dict[str, JSON], dict[str, tuple[JSON, str]]]] = [
    # (a schema neva's ``Schema`` reads, per optional member a wrongly typed value and serde's
    # refusal of it, which neva's reader passes through: types/schema.rs:430-495)
    (
        {"type": "string"},
        {
            "title": (1, _STR),
            "description": (1, _STR),
            "minLength": (-1, _USIZE_NEG),
            "maxLength": ("9", 'invalid type: string "9", expected usize'),
            "format": (
                "time",
                "unknown variant `time`, expected one of `email`, `uri`, `date`, `date-time`",
            ),
        },
    ),
    ({"type": "string", "enum": ["a"]}, {"title": (1, _STR), "default": (1, _STR)}),
    ({"type": "string", "enum": ["a"], "enumNames": ["A"]}, {"enumNames": ([1], _STR)}),
    ({"type": "string", "oneOf": [{"const": "a", "title": "A"}]}, {"default": (1, _STR)}),
    (
        {"type": "array", "items": {"enum": ["a"]}},
        {
            "maxItems": (-1, _USIZE_NEG),
            "minItems": (1.5, "invalid type: floating point `1.5`, expected usize"),
            "default": ([1], _STR),
            "title": (1, _STR),
        },
    ),
    (
        {"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}},
        {"description": (1, _STR)},
    ),
    (
        {"type": "number"},
        {
            "minimum": ("0", 'invalid type: string "0", expected f64'),
            "maximum": ("9", 'invalid type: string "9", expected f64'),
            "title": (1, _STR),
        },
    ),
    (
        {"type": "integer"},
        {
            "minimum": (True, "invalid type: boolean `true`, expected f64"),
            "maximum": ("9", 'invalid type: string "9", expected f64'),
            "description": (1, _STR),
        },
    ),
    (
        {"type": "boolean"},
        {"default": ("yes", 'invalid type: string "yes", expected a boolean'), "title": (1, _STR)},
    ),
]


@pytest.mark.parametrize(("schema", "wrong"), _SCHEMAS)
def test_every_schema_kind_types_each_optional_member(
    schema: dict[str, JSON], wrong: dict[str, tuple[JSON, str]]
) -> None:
    """Each ``Schema`` struct neva's reader chooses types each of its optional members: the
    schema reads, and with any one member wrongly typed it is refused in serde's words."""
    assert decode_input_request(_form_with(schema)).kind is InputKind.ELICITATION
    for name, (value, message) in wrong.items():
        with pytest.raises(InputRequestError) as exc:
            decode_input_request(_form_with({**schema, name: value}))
        assert str(exc.value) == message, name


def test_icon_struct_is_named_in_serde_messages() -> None:
    """neva's ``Icon`` (``mimeType``, ``sizes``, ``src``, ``theme`` in declared order) is named
    in serde's wrong-type and sequence-form messages; its sequence form reads ``src`` third."""
    cases: list[tuple[JSON, str]] = [
        (5, "invalid type: integer `5`, expected struct Icon"),
        ([], "invalid length 0, expected struct Icon with 4 elements"),
        ([None, None], "invalid length 2, expected struct Icon with 4 elements"),
        ([None, None, 1, None], "invalid type: integer `1`, expected a string"),
    ]
    for icon, message in cases:
        with pytest.raises(MetaError) as exc:
            check_icon(icon)
        assert str(exc.value) == message
    check_icon([None, None, "https://e.io/i.png", None])


def test_sampling_message_content_is_one_or_many() -> None:
    """A sampling message's ``content`` is ``OneOrMany<Content>``: a scalar or ``null`` matches
    neither variant of the untagged enum, and is refused in serde's words."""
    for content in (5, None, "x"):
        params: JSON = {"messages": [{"role": "user", "content": content}], "maxTokens": 1}
        with pytest.raises(InputRequestError) as exc:
            decode_input_request({"method": "sampling/createMessage", "params": params})
        assert str(exc.value) == "data did not match any variant of untagged enum OneOrMany"


def test_form_elicitation_needs_its_requested_schema() -> None:
    """``ElicitRequestFormParams.requestedSchema`` has no default: a form elicitation without it
    fails with serde's missing-field message."""
    with pytest.raises(InputRequestError) as exc:
        decode_input_request({"method": "elicitation/create", "params": {"message": "m"}})
    assert str(exc.value) == "missing field `requestedSchema`"


def test_payload_from_a_non_container_names_the_struct() -> None:
    """A payload value that is neither an object nor a sequence names ``StatePayload``."""
    with pytest.raises(PayloadError) as exc:
        StatePayload.from_json(5)
    assert str(exc.value) == "invalid type: integer `5`, expected struct StatePayload"


@pytest.mark.parametrize(("arrays", "ok"), [(125, True), (126, False)])
def test_payload_typed_field_depth_limit_is_serde_jsons(arrays: int, ok: bool) -> None:
    """MRTR-PAYLOAD-8, JSON-PARSE-6: a typed payload field may nest 127 levels counting the
    payload (object or sequence form) and the ``answers`` map; the 128th level is
    ``recursion limit exceeded``."""
    deep = b"[" * arrays + b"]" * arrays
    for data in (
        b'{"answers":{"k":' + deep + b'},"exp":5,"req":"r"}',
        # An escape elsewhere in the payload changes nothing.
        b'{"answers":{"k":' + deep + b'},"exp":5,"req":"\\u0072"}',
        b'[{"k":' + deep + b'},[],{},[],5,"\\u0072",null,null]',
    ):
        if ok:
            assert StatePayload.decode(data).exp == 5
            continue
        with pytest.raises(PayloadError) as exc:
            StatePayload.decode(data)
        assert str(exc.value).startswith("recursion limit exceeded at line 1 column ")


def test_server_info_icons_in_sequence_form_are_written_back_by_name() -> None:
    """MRTR-CLIENT-10: an icon of the server's ``Implementation`` written in serde's sequence
    form (``mimeType``, ``sizes``, ``src``, ``theme``) is read by position and written back
    as an object, ``theme`` always present."""
    icon: JSON = ["image/png", None, "https://e.io/i.png", None]
    info: JSON = {"name": "s", "version": "1", "icons": [icon]}
    response: dict[str, JSON] = {"result": {"_meta": {_SERVER_INFO_KEY: info}}}
    assert read_server_info(response) == {
        "name": "s",
        "version": "1",
        "icons": [{"mimeType": "image/png", "src": "https://e.io/i.png", "theme": None}],
    }


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"zz":{', "EOF while parsing an object at line 1 column 7"),
        (b'{"zz":{1', "key must be a string at line 1 column 8"),
        (b'{"zz":1.', "invalid number at line 1 column "),
        (b'{"zz":1.x}', "invalid number at line 1 column "),
        (b'{"zz":1e', "invalid number at line 1 column "),
    ],
)
def test_ignored_member_errors_are_serde_jsons(data: bytes, message: str) -> None:
    """An ignored payload member is still read by serde_json's grammar: a key it cannot start
    and a number with no digit after ``.`` or ``e`` fail in serde_json's words, never with an
    IndexError at the end of the input."""
    with pytest.raises(PayloadError) as exc:
        StatePayload.decode(data)
    assert str(exc.value).startswith(message)


def test_elicitation_modes_sequence_form_has_two_slots() -> None:
    """MRTR-CAP-2: ``ElicitationModes`` has two fields (``form``, ``url``): its sequence form
    takes up to two elements, a third makes no variant of the untagged declaration match."""
    assert parse_capabilities({"elicitation": [{}, {}]}) == parse_capabilities(
        {"elicitation": {"form": {}, "url": {}}}
    )
    with pytest.raises(CapabilityError) as exc:
        parse_capabilities({"elicitation": [{}, {}, {}]})
    assert str(exc.value) == (
        "data did not match any variant of untagged enum ElicitationDeclaration"
    )


_SAMPLING_ORDER = (
    "messages",
    "maxTokens",
    "includeContext",
    "metadata",
    "modelPreferences",
    "systemPrompt",
    "temperature",
    "stopSequences",
    "tools",
    "toolChoice",
)  # neva's CreateMessageRequestParams, declared order (default build: no `task`)
_SAMPLING_WRONG: dict[str, JSON] = {
    "messages": 5,
    "maxTokens": "5",
    "includeContext": "everything",
    "modelPreferences": "p",
    "systemPrompt": 5,
    "temperature": "hot",
    "stopSequences": "s",
    "tools": 5,
    "toolChoice": 5,
}


@pytest.mark.parametrize("name", sorted(_SAMPLING_WRONG))
def test_sampling_params_sequence_form_reads_each_field_by_position(name: str) -> None:
    """In serde's sequence form each ``CreateMessageRequestParams`` field is read from its
    declared position: a wrongly typed value there is refused with the same message as under
    its name in the object form."""
    obj: dict[str, JSON] = {"messages": [], "maxTokens": 5, name: _SAMPLING_WRONG[name]}
    seq: list[JSON] = [obj.get(field) for field in _SAMPLING_ORDER]
    messages = []
    for params in (obj, seq):
        with pytest.raises(InputRequestError) as exc:
            decode_input_request({"method": "sampling/createMessage", "params": params})
        messages.append(str(exc.value))
    assert messages[0] == messages[1]


def test_roots_answer_sequence_forms_read_by_position() -> None:
    """``ListRootsResult`` (``roots``, ``_meta``) and ``Root`` (``uri``, ``name``, ``_meta``)
    read their sequence forms by position: the roots' members and the typed ``_meta``."""
    assert read_answer(InputKind.ROOTS, [[["file:///a", "a", None]], None]) is not None
    assert read_answer(InputKind.ROOTS, {"roots": [["file:///a", "a", {"x": 1}]]}) is not None
    with pytest.raises(AnswerError) as exc:
        read_answer(InputKind.ROOTS, [[], {"tracestate": 1}])
    assert str(exc.value) == "invalid type: integer `1`, expected a string"
    with pytest.raises(AnswerError) as exc:
        read_answer(InputKind.ROOTS, [[["file:///a", 7, None]], None])
    assert str(exc.value) == "invalid type: integer `7`, expected a string"


def test_keyring_caches_are_not_part_of_its_repr() -> None:
    """A keyring's AEAD caches are bookkeeping, not fields of the value: its repr names only
    ``active_kid`` and ``keys``, before and after a cipher is derived."""
    ring = Keyring.single(b"s" * 32)
    ring.cipher(b"s" * 32)
    text = repr(ring)
    assert text.startswith("Keyring(active_kid='0', keys=")
    assert "_ciphers" not in text
    assert "_sealers" not in text
