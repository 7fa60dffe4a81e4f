"""What neva's answer and request readers accept member by member, from tables stated by hand
from neva's types (commit e6822d7): every ``Content`` variant's required and optional members,
``Annotations`` and the ``DateTime<Utc>`` it carries at each field's edge, embedded resource
contents, property schemas, and what a decoded ``InputRequest`` holds (MRTR-CTX-2, MRTR-REQ-1..5).

A little over ~400 lines on purpose: hand-stated case tables, one parametrised row each.
"""

from __future__ import annotations

import pytest

from mcp_touchstone.mrtr._answers import AnswerError, read_answer
from mcp_touchstone.mrtr._input import ElicitationMode, InputKind, InputRequest, InputRequestError
from mcp_touchstone.mrtr._requests import decode_input_request
from mcp_touchstone.serde_json import JSON

_MISFIT = "data did not match any variant of untagged enum OneOrMany"
_PNG = "iVBORw0KGgo="  # standard base64, padded, canonical


def _sampled(content: JSON) -> str | None:
    """A sampling answer carrying ``content``: ``None`` when it reads, else the reason."""
    answer: JSON = {"role": "assistant", "content": content, "model": "m"}
    try:
        read_answer(InputKind.SAMPLING, answer)
    except AnswerError as exc:
        return str(exc)
    return None


# Each Content variant: its tag, a minimal item that reads, and its required members.
_VARIANTS: list[tuple[str, dict[str, JSON], tuple[str, ...]]] = [
    ("text", {"text": "t"}, ("text",)),
    ("audio", {"data": _PNG, "mimeType": "audio/wav"}, ("data", "mimeType")),
    ("image", {"data": _PNG, "mimeType": "image/png"}, ("data", "mimeType")),
    ("resource_link", {"uri": "file:///a", "name": "a"}, ("uri", "name")),
    ("resource", {"resource": {"uri": "file:///a"}}, ("resource",)),
    ("tool_use", {"id": "1", "name": "t"}, ("id", "name")),
    ("tool_result", {"toolUseId": "1", "content": []}, ("toolUseId", "content")),
    ("empty", {}, ()),
]
_VARIANT_IDS = [tag for tag, _, _ in _VARIANTS]


@pytest.mark.parametrize(("tag", "members", "required"), _VARIANTS, ids=_VARIANT_IDS)
def test_each_content_variant_reads_alone_and_in_a_list(
    tag: str, members: dict[str, JSON], required: tuple[str, ...]
) -> None:
    """``OneOrMany<Content>``: each variant reads as the one item and inside a list."""
    item: JSON = {"type": tag, **members}
    assert _sampled(item) is None
    assert _sampled([item, {"type": "text", "text": "x"}]) is None


@pytest.mark.parametrize(("tag", "members", "required"), _VARIANTS, ids=_VARIANT_IDS)
def test_each_required_content_member_is_needed_and_typed(
    tag: str, members: dict[str, JSON], required: tuple[str, ...]
) -> None:
    """Leaving out, nulling or mistyping (a number) any required member is a misfit, alone or
    as one item of a list that is otherwise fine."""
    for name in required:
        rest = {k: v for k, v in members.items() if k != name}
        for item in ({"type": tag, **rest}, {"type": tag, **rest, name: None}):
            assert _sampled(item) == _MISFIT, (tag, name)
            assert _sampled([{"type": "text", "text": "x"}, item]) == _MISFIT, (tag, name)
        assert _sampled({"type": tag, **rest, name: 7}) == _MISFIT, (tag, name)


@pytest.mark.parametrize(
    "item",
    [
        {"text": "t"},
        {"type": "Text", "text": "t"},
        {"type": "video", "data": _PNG},
        {"type": 1, "text": "t"},
        {"type": None},
        5,
        "text",
        None,
        [],
    ],
)
def test_a_content_item_needs_a_known_tag(item: JSON) -> None:
    """``#[serde(tag = "type")]``: an item needs a ``type`` naming one of the eight variants
    (case-sensitive); a non-object is no item. An empty list is zero items: it reads."""
    assert _sampled(item) == (None if item == [] else _MISFIT)


@pytest.mark.parametrize(
    ("item", "reads"),
    [
        ({"type": "resource_link", "uri": "u", "name": "n", "size": 0}, True),
        ({"type": "resource_link", "uri": "u", "name": "n", "size": None}, True),
        ({"type": "resource_link", "uri": "u", "name": "n", "size": -1}, False),
        ({"type": "resource_link", "uri": "u", "name": "n", "mimeType": 1}, False),
        ({"type": "resource_link", "uri": "u", "name": "n", "title": 1}, False),
        ({"type": "resource_link", "uri": "u", "name": "n", "description": 1}, False),
        ({"type": "resource_link", "uri": "u", "name": "n", "description": None}, True),
        ({"type": "resource_link", "uri": "u", "name": "n", "icons": []}, True),
        ({"type": "resource_link", "uri": "u", "name": "n", "icons": None}, True),
        ({"type": "resource_link", "uri": "u", "name": "n", "icons": [5]}, False),
        (
            {
                "type": "resource_link",
                "uri": "u",
                "name": "n",
                "icons": [{"src": "s", "theme": "x"}],
            },
            False,
        ),
        ({"type": "tool_use", "id": "1", "name": "t", "input": {}}, True),
        ({"type": "tool_use", "id": "1", "name": "t", "input": None}, True),
        ({"type": "tool_use", "id": "1", "name": "t", "input": []}, False),
        ({"type": "tool_use", "id": "1", "name": "t", "input": "x"}, False),
        ({"type": "tool_result", "toolUseId": "1", "content": [], "isError": True}, True),
        ({"type": "tool_result", "toolUseId": "1", "content": [], "isError": False}, True),
        ({"type": "tool_result", "toolUseId": "1", "content": [], "isError": None}, False),
        ({"type": "tool_result", "toolUseId": "1", "content": [], "isError": 1}, False),
        (
            {"type": "tool_result", "toolUseId": "1", "content": {"type": "text", "text": "t"}},
            False,
        ),
        (
            {"type": "tool_result", "toolUseId": "1", "content": [{"type": "text", "text": "t"}]},
            True,
        ),
        ({"type": "tool_result", "toolUseId": "1", "content": [{"type": "text"}]}, False),
        ({"type": "tool_result", "toolUseId": "1", "content": [], "structuredContent": 5}, True),
        ({"type": "text", "text": "t", "_meta": 5}, True),
        ({"type": "empty", "_meta": None}, False),
    ],
)
def test_optional_content_members_are_typed(item: JSON, reads: bool) -> None:
    """A resource link's ``size`` (usize), ``mimeType``/``title``/``description`` (strings) and
    ``icons`` (neva's ``Icon``s); a tool use's ``input`` (a map); a tool result's ``content``
    (a list of ``Content``) and ``isError`` (a ``bool`` with a default: ``null`` refused);
    ``_meta`` and ``structuredContent`` are any ``Value``; ``EmptyContent`` takes no member."""
    assert _sampled(item) == (None if reads else _MISFIT)


@pytest.mark.parametrize(
    ("annotations", "reads"),
    [
        ({"audience": ["user", "assistant"], "priority": 0}, True),
        ({"audience": [{"user": None}], "priority": 1.5}, True),
        ({"audience": [], "priority": -1, "lastModified": None}, True),
        ([[], None, 0.5], True),
        ([["user"], "2025-01-12T15:00:58Z", 1], True),
        ([[], None], False),
        ([[], None, 0.5, None], False),
        ({"audience": "user", "priority": 1}, False),
        ({"audience": [1], "priority": 1}, False),
        ({"audience": [], "priority": True}, False),
        ({"audience": [], "priority": "1"}, False),
        ({"audience": [], "priority": None}, False),
        ({"audience": None, "priority": 1}, False),
        (5, False),
    ],
)
def test_annotations_read_by_name_or_position(annotations: JSON, reads: bool) -> None:
    """neva's ``Annotations``: ``audience`` a list of ``Role``s and ``priority`` an f32, both
    required; ``lastModified`` an optional time; the sequence form is ``[audience,
    lastModified, priority]`` with all three slots needed. Only annotated variants check it."""
    annotated: list[tuple[str, dict[str, JSON]]] = [
        ("text", {"text": "t"}),
        ("image", {"data": _PNG, "mimeType": "image/png"}),
        ("audio", {"data": _PNG, "mimeType": "audio/wav"}),
        ("resource_link", {"uri": "u", "name": "n"}),
        ("resource", {"resource": {"uri": "u"}}),
    ]
    for tag, members in annotated:
        got = _sampled({"type": tag, **members, "annotations": annotations})
        assert got == (None if reads else _MISFIT), tag
    # ToolUse declares no `annotations`: any value there is an ignored unknown member.
    assert (
        _sampled({"type": "tool_use", "id": "1", "name": "t", "annotations": annotations}) is None
    )


@pytest.mark.parametrize(
    ("stamp", "reads"),
    [
        ("2025-01-12T15:00:58Z", True),
        ("2025-01-12t15:00:58z", True),
        ("2025-01-12 15:00:58Z", True),
        ("2025-01-12T15:00:58.123456Z", True),
        ("2025-01-12T15:00:58+01:00", True),
        ("2025-01-12T15:00:58-0130", True),
        ("2025-01-12T15:00:58+23:59", True),
        ("2025-01-12T15:00:58+24:00", False),
        ("2025-01-12T15:00:58+01:60", False),
        ("2025-01-12T23:59:59Z", True),
        ("2025-01-12T24:00:00Z", False),
        ("2025-01-12T15:60:00Z", False),
        ("2025-01-12T15:00:60Z", True),
        ("2025-01-12T15:00:61Z", False),
        ("2024-02-29T00:00:00Z", True),
        ("2025-02-29T00:00:00Z", False),
        ("2025-13-01T00:00:00Z", False),
        ("2025-00-01T00:00:00Z", False),
        ("2025-01-00T00:00:00Z", False),
        ("2025-01-12T15:00:58", False),
        ("2025-01-12", False),
        ("2025-01-12T15:00Z", False),
        (" 2025-01-12T15:00:58Z", False),
        ("2025-01-12X15:00:58Z", False),
        (20250112, False),
    ],
)
def test_last_modified_is_an_rfc3339_time_at_each_fields_edge(stamp: JSON, reads: bool) -> None:
    """``lastModified: DateTime<Utc>`` (chrono's relaxed RFC 3339, as the spec approximates it):
    a real calendar date, ``T``/``t``/space, hours below 24, minutes below 60, seconds up to
    60 (a leap second), an optional fraction, ``Z``/``z`` or an offset below 24:00 (colon
    optional)."""
    annotations: JSON = {"audience": [], "priority": 1, "lastModified": stamp}
    assert _sampled({"type": "text", "text": "t", "annotations": annotations}) == (
        None if reads else _MISFIT
    )


@pytest.mark.parametrize(
    ("resource", "reads"),
    [
        ({"uri": "u"}, True),
        ({"uri": "u", "text": "t", "mimeType": "text/plain", "title": "T"}, True),
        ({"uri": "u", "blob": "not base64!"}, True),
        ({"uri": "u", "title": None, "mimeType": None}, True),
        ({"uri": "u", "title": 1}, False),
        ({"uri": "u", "mimeType": 1}, False),
        ({"uri": 1}, False),
        ({"text": "t"}, False),
        ({"uri": "u", "annotations": {"audience": [], "priority": 1}}, True),
        ({"uri": "u", "annotations": {"audience": []}}, False),
        ({"uri": "u", "annotations": None}, True),
        ("u", False),
        (None, False),
    ],
)
def test_embedded_resource_contents_share_uri_title_mime_and_annotations(
    resource: JSON, reads: bool
) -> None:
    """``ResourceContents`` (untagged): every variant needs a string ``uri`` and types
    ``title``, ``mimeType`` and ``annotations``; ``Empty`` ignores ``text``/``blob``."""
    assert _sampled({"type": "resource", "resource": resource}) == (None if reads else _MISFIT)


# --------------------------------------------------------------------------- request side


def _schema_refusal(prop: JSON) -> str | None:
    schema: JSON = {"type": "object", "properties": {"p": prop}}
    request: JSON = {
        "method": "elicitation/create",
        "params": {"message": "m", "requestedSchema": schema},
    }
    try:
        decode_input_request(request)
    except InputRequestError as exc:
        return str(exc)
    return None


_OPTION: JSON = {"const": "a", "title": "A"}


@pytest.mark.parametrize(
    ("prop", "refusal"),
    [
        ({"type": "string"}, None),
        ({"type": "string", "format": {"email": None}}, None),
        ({"type": "string", "enum": []}, None),
        ({"type": "string", "enum": ["a"], "default": "a"}, None),
        (
            {"type": "string", "enum": ["a"], "default": 1},
            "invalid type: integer `1`, expected a string",
        ),
        ({"type": "string", "enum": ["a"], "enumNames": ["A"], "default": 1}, None),
        ({"type": "string", "enum": ["a"], "enumNames": None}, None),
        ({"type": "string", "enum": [1]}, "invalid type: integer `1`, expected a string"),
        ({"type": "string", "enum": None}, "invalid type: null, expected a sequence"),
        ({"type": "string", "enum": "a"}, 'invalid type: string "a", expected a sequence'),
        ({"type": "string", "oneOf": [_OPTION]}, None),
        ({"type": "string", "oneOf": []}, None),
        ({"type": "string", "oneOf": [{"const": "a"}]}, "missing field `title`"),
        ({"type": "string", "oneOf": [{"title": "A"}]}, "missing field `const`"),
        (
            {"type": "string", "oneOf": [{"const": 1, "title": "A"}]},
            "invalid type: integer `1`, expected a string",
        ),
        (
            {"type": "string", "oneOf": [{"const": "a", "title": 1}]},
            "invalid type: integer `1`, expected a string",
        ),
        (
            {"type": "string", "oneOf": ["a"]},
            'invalid type: string "a", expected struct EnumOption',
        ),
        ({"type": "string", "oneOf": _OPTION}, "invalid type: map, expected a sequence"),
        ({"type": "string", "oneOf": None}, "invalid type: null, expected a sequence"),
        ({"type": "string", "enum": ["a"], "oneOf": 5}, None),
        ({"type": "array", "items": {"anyOf": [_OPTION]}}, None),
        ({"type": "array", "items": {"anyOf": [{"const": "a"}]}}, "missing field `title`"),
        ({"type": "array", "items": {"anyOf": None}}, "invalid type: null, expected a sequence"),
        ({"type": "array", "items": {"anyOf": [_OPTION], "enum": 5}}, None),
        ({"type": "array", "items": {"enum": ["a"], "type": "string"}}, None),
        ({"type": "array", "items": {"enum": ["a"], "type": {"string": None}}}, None),
        (
            {"type": "array", "items": {"enum": ["a"], "type": "text"}},
            "unknown variant `text`, expected one of `none`, `array`, `string`, `number`, "
            "`integer`, `boolean`, `object`",
        ),
        (
            {"type": "array", "items": {"enum": ["a"], "type": None}},
            "invalid type: null, expected string or map",
        ),
        ({"type": "array", "items": {"enum": [1]}}, "invalid type: integer `1`, expected a string"),
        ({"type": "array", "items": {"enum": None}}, "invalid type: null, expected a sequence"),
        ({"type": "array", "items": {"enum": ["a"]}, "default": ["a"]}, None),
        ({"type": "array", "items": {}}, "Unknown array schema type"),
        ({"type": "array", "items": []}, "Array schema missing items"),
        ({"type": "array"}, "Array schema missing items"),
        ({"type": "number", "minimum": 0, "maximum": 1.5}, None),
        ({"type": "integer", "minimum": -1, "maximum": None}, None),
        ({"type": "integer", "minimum": "0"}, 'invalid type: string "0", expected f64'),
        ({"type": "number", "maximum": False}, "invalid type: boolean `false`, expected f64"),
        ({"type": "boolean", "default": True}, None),
        ({"type": "boolean", "default": None}, None),
        ({"type": "boolean", "default": 0}, "invalid type: integer `0`, expected a boolean"),
        ({"type": "boolean", "title": None, "description": None}, None),
        ({"type": "boolean", "title": 1}, "invalid type: integer `1`, expected a string"),
        ({"type": "number", "description": 1}, "invalid type: integer `1`, expected a string"),
        ({"type": "object"}, 'Unknown or missing type field: Some("object")'),
        ({"type": "none"}, 'Unknown or missing type field: Some("none")'),
        ({"type": "String"}, 'Unknown or missing type field: Some("String")'),
        ({"type": ["string"]}, "Unknown or missing type field: None"),
        ({"title": "t"}, "Unknown or missing type field: None"),
        ([], "Expected object"),
        ("string", "Expected object"),
        (None, "Expected object"),
    ],
)
def test_property_schemas_as_nevas_reader_dispatches(prop: JSON, refusal: str | None) -> None:
    """MRTR-REQ-4: neva's ``Schema`` reader wants an object, dispatches on the string ``type``
    and then on which members are present (``enum`` before ``oneOf``; ``anyOf`` before
    ``enum`` in ``items``), and reads only the chosen struct, refusing in its own words or
    serde's (``types/schema.rs:430-495``)."""
    assert _schema_refusal(prop) == refusal


def test_properties_are_judged_in_sorted_name_order() -> None:
    """A ``HashMap<String, Schema>`` read from a ``Value`` map: the first bad property in sorted
    name order is the one named."""
    schema: JSON = {"type": "object", "properties": {"b": 1, "a": {}, "c": {"type": "string"}}}
    request: JSON = {
        "method": "elicitation/create",
        "params": {"message": "m", "requestedSchema": schema},
    }
    with pytest.raises(InputRequestError) as exc:
        decode_input_request(request)
    assert str(exc.value) == "Unknown or missing type field: None"  # `a`, not `b`


_FORM: dict[str, JSON] = {"message": "m", "requestedSchema": {"properties": {}}}


@pytest.mark.parametrize(
    ("envelope", "kind", "params", "mode"),
    [
        ({"method": "roots/list"}, InputKind.ROOTS, {}, None),
        ({"method": "roots/list", "params": None}, InputKind.ROOTS, {}, None),
        (["roots/list"], InputKind.ROOTS, {}, None),
        (["roots/list", {"_meta": None}], InputKind.ROOTS, {"_meta": None}, None),
        (
            {"method": "elicitation/create", "params": _FORM},
            InputKind.ELICITATION,
            _FORM,
            ElicitationMode.FORM,
        ),
        (
            {"method": "elicitation/create", "params": {**_FORM, "mode": "form"}},
            InputKind.ELICITATION,
            {**_FORM, "mode": "form"},
            ElicitationMode.FORM,
        ),
        (
            {"method": "elicitation/create", "params": {"message": "m", "mode": "url", "url": "u"}},
            InputKind.ELICITATION,
            {"message": "m", "mode": "url", "url": "u"},
            ElicitationMode.URL,
        ),
        (
            {"method": "elicitation/create", "params": ["m", "url", {"properties": {}}, None]},
            InputKind.ELICITATION,
            ["m", "url", {"properties": {}}, None],
            ElicitationMode.FORM,
        ),
        (
            {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 0}},
            InputKind.SAMPLING,
            {"messages": [], "maxTokens": 0},
            None,
        ),
    ],
)
def test_a_decoded_request_holds_its_kind_params_and_mode(
    envelope: JSON, kind: InputKind, params: JSON, mode: ElicitationMode | None
) -> None:
    """MRTR-REQ-1..3: the kind by method, the params as given (``{}`` when absent or
    ``null``), the elicitation mode by ``mode == "url"`` on an object (an array is a form);
    the envelope writes back ``method`` and ``params``."""
    request = decode_input_request(envelope)
    assert request == InputRequest(kind, params, mode)
    assert request.method == kind.value
    assert request.to_json() == {"method": kind.value, "params": params}


@pytest.mark.parametrize(
    ("method", "message"),
    [
        ("tools/call", "unknown MRTR input request method `tools/call`"),
        ("Roots/list", "unknown MRTR input request method `Roots/list`"),
        ("", "unknown MRTR input request method ``"),
        ("elicitation/create ", "unknown MRTR input request method `elicitation/create `"),
    ],
)
def test_an_unknown_method_is_refused_by_name(method: str, message: str) -> None:
    """MRTR-REQ-1: only the three kinds' methods, exactly; any other is named in neva's words."""
    with pytest.raises(InputRequestError) as exc:
        decode_input_request({"method": method, "params": {}})
    assert str(exc.value) == message


@pytest.mark.parametrize(
    "params",
    [{"mode": None}, {"mode": 1}, {"mode": {"url": None}}, {"mode": ["url"]}, {"mode": True}],
)
def test_a_stated_elicitation_mode_must_be_a_string(params: dict[str, JSON]) -> None:
    """MRTR-REQ-3: neva's ``ElicitRequestParams`` reader refuses a present, non-string ``mode``
    before reading either variant (a missing message is not reached)."""
    with pytest.raises(InputRequestError) as exc:
        decode_input_request({"method": "elicitation/create", "params": params})
    assert str(exc.value) == "`mode` must be a string"


@pytest.mark.parametrize(
    ("data", "reads"),
    [
        (_PNG, True),
        ("", True),
        ("iVBORw0KGgo\u00e9", False),
        ("\u00e9VBORw0KGgo=", False),
        ("iVBORw0KGgo=\n", False),
        ("iVBORw0KGgo", False),
        ("iVBORw0KGgp=", False),
        ("iVBO Rw0KGgo=", False),
    ],
)
def test_audio_and_image_data_is_canonical_standard_base64(data: str, reads: bool) -> None:
    """``data: Bytes`` through ``deserialize_base64_as_bytes`` (``STANDARD``): padded,
    canonical trailing bits, the standard alphabet only (a non-ASCII character, a newline or a
    space is refused)."""
    for tag, mime in (("image", "image/png"), ("audio", "audio/wav")):
        item: JSON = {"type": tag, "data": data, "mimeType": mime}
        assert _sampled(item) == (None if reads else _MISFIT), tag
