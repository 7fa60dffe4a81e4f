"""Which replayed answers read as their kind's result type, at the serde edges neva's derived
types draw (MRTR-CTX-1, MRTR-CTX-2): serde_json's enum map form, the standard-base64 ``Bytes``
of audio/image content, the unit struct ``EmptyContent`` and ``ResourceLink.icons``."""

from __future__ import annotations

import pytest

from mcp_touchstone.mrtr._answers import AnswerError, read_answer
from mcp_touchstone.mrtr._requests import InputKind
from mcp_touchstone.serde_json import JSON


def _sampled(content: JSON, role: JSON = "user") -> JSON:
    return {"role": role, "content": content, "model": "m"}


def _fits(kind: InputKind, value: JSON) -> bool:
    try:
        read_answer(kind, value)
    except AnswerError:
        return False
    return True


@pytest.mark.parametrize(
    ("action", "fits"),
    [
        ("accept", True),
        ({"decline": None}, True),
        ({"accept": 1}, False),
        ({"accept": None, "cancel": None}, False),
        ({"maybe": None}, False),
        (5, False),
    ],
)
def test_elicitation_action_reads_serde_json_enum_forms(action: JSON, fits: bool) -> None:
    """`ElicitationAction` from a `Value` takes a name or the map form `{name: null}` (serde_json's
    `deserialize_enum`); any other map or a non-string is a misfit."""
    assert _fits(InputKind.ELICITATION, {"action": action}) is fits


def test_sampling_role_reads_the_map_form() -> None:
    """`Role` is a derived unit enum too: `{"assistant": null}` fits a `CreateMessageResult`."""
    assert _fits(InputKind.SAMPLING, _sampled({"type": "text", "text": "x"}, {"assistant": None}))


@pytest.mark.parametrize(
    ("data", "fits"),
    [
        ("aGk+/w==", True),
        ("", True),
        ("AA", False),  # padding required
        ("AB==", False),  # non-canonical trailing bits
        ("-_8=", False),  # URL-safe alphabet
        ("not base64!", False),
        ("aGk=\n", False),
    ],
)
def test_content_bytes_deserialize_base64_as_bytes_standard(data: str, fits: bool) -> None:
    """Audio and image `data` is `Bytes` read by `deserialize_base64_as_bytes` with the base64
    crate's `STANDARD` engine: padded, canonical, standard alphabet."""
    for kind in ("image", "audio"):
        content: JSON = {"type": kind, "data": data, "mimeType": "x/y"}
        assert _fits(InputKind.SAMPLING, _sampled(content)) is fits


def test_empty_content_is_a_unit_struct() -> None:
    """`Content::Empty(EmptyContent)` holds a unit struct: the bare tag fits, any other member is
    refused."""
    assert _fits(InputKind.SAMPLING, _sampled({"type": "empty"}))
    assert not _fits(InputKind.SAMPLING, _sampled({"type": "empty", "text": "x"}))


def test_resource_link_icons_are_typed() -> None:
    """`ResourceLink.icons` is `Option<Vec<Icon>>`: an icon with a non-string `src` is a misfit."""
    link = {"type": "resource_link", "uri": "file:///a", "name": "a"}
    assert _fits(InputKind.SAMPLING, _sampled({**link, "icons": [{"src": "https://e.io/i.png"}]}))
    assert not _fits(InputKind.SAMPLING, _sampled({**link, "icons": [{"src": 1}]}))
    assert not _fits(InputKind.SAMPLING, _sampled({**link, "icons": {"src": "s"}}))


@pytest.mark.parametrize(
    ("annotations", "fits"),
    [
        ({"audience": ["user"], "priority": 0.5}, True),
        ({"audience": [], "priority": 1, "lastModified": "2025-01-12T15:00:58Z"}, True),
        ({}, False),
        ({"audience": ["user"]}, False),
        ({"priority": 1}, False),
        ({"audience": ["system"], "priority": 1}, False),
        ({"audience": [], "priority": 1, "lastModified": "yesterday"}, False),
    ],
)
def test_annotations_audience_and_priority_are_required(annotations: JSON, fits: bool) -> None:
    """neva's `Annotations` has no `#[serde(default)]`: `audience` and `priority` are required
    members, `lastModified` a `DateTime<Utc>`."""
    content: JSON = {"type": "text", "text": "x", "annotations": annotations}
    assert _fits(InputKind.SAMPLING, _sampled(content)) is fits


def test_tool_use_has_no_annotations_member() -> None:
    """`ToolUse` declares no `annotations`, so any value there is an ignored unknown member."""
    content: JSON = {"type": "tool_use", "id": "1", "name": "t", "annotations": 5}
    assert _fits(InputKind.SAMPLING, _sampled(content))


def test_embedded_resource_contents_untagged_variants() -> None:
    """`ResourceContents` is untagged Text | Json | Blob | Empty: a string `uri` is needed by all,
    and an undecodable `blob` still reads as `Empty`."""
    assert _fits(InputKind.SAMPLING, _sampled({"type": "resource", "resource": {"uri": "u"}}))
    blob: JSON = {"uri": "u", "blob": "!!"}
    assert _fits(InputKind.SAMPLING, _sampled({"type": "resource", "resource": blob}))
    assert not _fits(InputKind.SAMPLING, _sampled({"type": "resource", "resource": {"text": "t"}}))
