"""Where neva's client loop reads or writes a value through one of its types, with the
expectations written by hand from neva's source at ``e6822d7`` (each test names the lines):
the ``progressToken`` path split, a sampling message's ``OneOrMany<Content>``, a property
``Schema``'s refusals, a batch slot's original params and the ``Root`` it answers with
(MRTR-CLIENT-2, MRTR-CLIENT-3, MRTR-CLIENT-4, MRTR-CLIENT-8)."""

from __future__ import annotations

import pytest

from mcp_touchstone.mrtr import ClientOptions, InputRequest, RpcError, run_batch_with_mrtr
from mcp_touchstone.mrtr._client import fulfil_input
from mcp_touchstone.mrtr._client_meta import apply_client_meta
from mcp_touchstone.mrtr._client_reads import read_input_required, read_server_info
from mcp_touchstone.mrtr._requests import decode_input_request
from mcp_touchstone.serde_json import JSON
from tests.mrtr._client_helpers import FORM, OCTOCAT, counter, text_result


@pytest.mark.parametrize(
    ("token", "written"),
    [
        ("a/b", "a/b"),  # shared/memchr.rs:43-45 it_splits_on_char
        ("res://a/b", "res:/a/b"),  # shared/memchr.rs:48-53 it_splits_on_char1
        ("a/b/", "a/b"),  # shared/memchr.rs:61-63 it_splits_on_char_with_trailing_slash
        ("/a/b", "a/b"),  # shared/memchr.rs:66-68 it_splits_on_char_with_leading_slash
        ("a//b", "a/b"),
        ("/", ""),  # no part survives: an empty ArcSlice, whose Display is ""
        ("trail/", "trail"),
        ("//-0//", "0"),
        ("x//550E8400E29B41D4A716446655440000", "x/550e8400-e29b-41d4-a716-446655440000"),
    ],
)
def test_progress_token_path_drops_empty_segments(token: str, written: str) -> None:
    """MRTR-CLIENT-2: a string token holding ``/`` is split by ``MemChr::split``, whose
    ``.filter(|part| !part.is_empty())`` drops empty parts (``types/progress.rs:107-110``,
    ``shared/memchr.rs:14-25``), and written back joined by ``/`` (``shared/arc_slice.rs:13-25``,
    ``:57-68``)."""
    params = apply_client_meta({"_meta": {"progressToken": token}}, ClientOptions())
    assert isinstance(params, dict)
    meta = params["_meta"]
    assert isinstance(meta, dict)
    assert meta["progressToken"] == written


def _parse_error(requests: JSON) -> str:
    with pytest.raises(RpcError) as info:
        read_input_required({"resultType": "input_required", "inputRequests": requests})
    assert info.value.code == -32700
    return info.value.message


_ONE_OR_MANY = "data did not match any variant of untagged enum OneOrMany"


@pytest.mark.parametrize(
    "content",
    [
        {"type": "text"},  # TextContent.text: String, required (types/content.rs:65-67)
        {"type": "video", "url": "v"},  # Content's tags are closed (types/content.rs:22-56)
        {"text": "hi"},  # no tag
        {"type": "text", "text": None},
        [{"type": "text", "text": "a"}, {"type": "audio", "mimeType": "audio/wav"}],
        None,
        "hi",
    ],
)
def test_sampling_message_content_misfit_fails_the_whole_result(content: JSON) -> None:
    """MRTR-CLIENT-3, MRTR-REQ-6: ``SamplingMessage.content`` is ``OneOrMany<Content>``
    (``types/sampling.rs:37-43``, untagged: ``shared/one_or_many.rs:7-15``), so any misfit is
    serde's one untagged message, raised as ``-32700`` by ``Error::from`` (``error.rs:40-48``,
    ``client/mrtr.rs:70-73``)."""
    sample: JSON = {
        "method": "sampling/createMessage",
        "params": {"messages": [{"role": "user", "content": content}], "maxTokens": 1},
    }
    assert _parse_error({"s": sample}) == _ONE_OR_MANY


def test_sampling_message_content_list_of_typed_items_reads() -> None:
    """MRTR-REQ-6: ``Many`` of well-typed items reads."""
    content: JSON = [
        {"type": "text", "text": "a"},
        {"type": "resource_link", "uri": "file:///a", "name": "a"},
    ]
    sample: JSON = {
        "method": "sampling/createMessage",
        "params": {"messages": [{"role": "assistant", "content": content}], "maxTokens": 1},
    }
    requests, state = read_input_required(
        {"resultType": "input_required", "inputRequests": {"s": sample}}
    )
    assert [key for key, _ in requests] == ["s"]
    assert state is None


def _form(properties: JSON) -> JSON:
    return {
        "method": "elicitation/create",
        "params": {"message": "m", "requestedSchema": {"properties": properties}},
    }


@pytest.mark.parametrize(
    ("prop", "message"),
    [
        ({"type": "date"}, 'Unknown or missing type field: Some("date")'),  # schema.rs:486-490
        ({"type": "a\\b"}, 'Unknown or missing type field: Some("a\\\\b")'),  # Debug escapes
        ({"type": None}, "Unknown or missing type field: None"),  # schema.rs:441
        (["string"], "Expected object"),  # schema.rs:437-439
        ({"type": "array", "items": 1}, "Array schema missing items"),  # schema.rs:476-478
        ({"type": "array", "items": {}}, "Unknown array schema type"),  # schema.rs:473-475
        (
            {"type": "string", "format": "phone"},
            "unknown variant `phone`, expected one of `email`, `uri`, `date`, `date-time`",
        ),
        ({"type": "string", "maxLength": -1}, "invalid value: integer `-1`, expected usize"),
        ({"type": "boolean", "default": "yes"}, 'invalid type: string "yes", expected a boolean'),
        ({"type": "integer", "maximum": []}, "invalid type: sequence, expected f64"),
        ({"type": "string", "oneOf": [[]]}, "invalid type: sequence, expected struct EnumOption"),
        ({"type": "array", "items": {"anyOf": [{"title": "A"}]}}, "missing field `const`"),
    ],
)
def test_property_schema_refused_in_nevas_words(prop: JSON, message: str) -> None:
    """MRTR-CLIENT-3, MRTR-REQ-4: ``Schema::deserialize`` (``types/schema.rs:430-495``) refuses
    in its own words or passes the chosen struct's serde error through (``map_err(custom)``)."""
    assert _parse_error({"k": _form({"p": prop})}) == message


def test_first_refused_property_in_sorted_name_order_names_the_error() -> None:
    """MRTR-CLIENT-3: ``HashMap<String, Schema>`` read from a ``BTreeMap``-backed ``Value`` map
    visits names in sorted order (``types/elicitation.rs:198-206``)."""
    properties: JSON = {"z": {"type": "date"}, "Z": {"type": "string", "minLength": 1.5}}
    message = "invalid type: floating point `1.5`, expected usize"
    assert _parse_error({"k": _form(properties)}) == message


def test_batch_retry_rereads_round_zero_params() -> None:
    """MRTR-CLIENT-8: ``run_batch_with_mrtr`` keeps each slot's params after
    ``apply_client_meta_to_batch`` (``client/mrtr.rs:265-276``) and retries them, so a ``_meta``
    that failed the typed read only for a field round 0 overwrote reads on the retry."""
    caller: JSON = {
        "name": "greet",
        "_meta": {"progressToken": "a//b", "io.modelcontextprotocol/protocolVersion": 5},
    }
    writes: list[list[dict[str, JSON]]] = []

    def send_batch(envelopes: list[dict[str, JSON]]) -> list[dict[str, JSON] | RpcError]:
        writes.append(envelopes)
        if len(writes) == 1:
            result: JSON = {
                "resultType": "input_required",
                "inputRequests": {"name": FORM},
                "requestState": "s",
            }
        else:
            result = text_result("done")
        return [{"jsonrpc": "2.0", "id": envelopes[0]["id"], "result": result}]

    def fulfil(_key: str, _request: InputRequest) -> JSON:
        return dict(OCTOCAT)

    run_batch_with_mrtr(
        [{"id": 1, "method": "tools/call", "params": caller}],
        ClientOptions(elicitation=True),
        send_batch=send_batch,
        fulfil=fulfil,
        next_id=counter(),
    )
    tokens = []
    for write in writes:
        params = write[0]["params"]
        assert isinstance(params, dict)
        meta = params["_meta"]
        assert isinstance(meta, dict)
        tokens.append(meta["progressToken"])
    assert tokens == ["a//b", "a/b"]


def test_roots_written_as_neva_root() -> None:
    """MRTR-CLIENT-4: ``ListRootsResult { roots, meta: None }`` serialized
    (``client/mrtr.rs:222-225``): each ``Root`` writes ``uri``, ``name`` and ``_meta`` only when
    it is ``Some`` (``types/root.rs:29-39``); the result's own ``_meta`` is skipped."""
    roots: tuple[JSON, ...] = (
        {"uri": "file:///a", "name": "a", "_meta": None, "label": "x"},
        {"uri": "file:///b", "name": "b", "_meta": {"k": 1}},
    )
    request = decode_input_request({"method": "roots/list"})
    answer = fulfil_input(ClientOptions(roots=roots), lambda _k, _r: None, "dirs", request)
    assert answer == {
        "roots": [
            {"uri": "file:///a", "name": "a"},
            {"uri": "file:///b", "name": "b", "_meta": {"k": 1}},
        ]
    }


def test_log_level_map_form_written_by_name() -> None:
    """MRTR-CLIENT-2: ``RequestParamsMeta.log_level`` is a derived ``LoggingLevel``
    (``types/request.rs:136-141``, ``types/notification/log_message.rs:17-19``): read from
    serde_json's map form ``{"warning": null}``, written back as ``"warning"``."""
    params = apply_client_meta(
        {"_meta": {"io.modelcontextprotocol/logLevel": {"warning": None}}}, ClientOptions()
    )
    assert isinstance(params, dict)
    meta = params["_meta"]
    assert isinstance(meta, dict)
    assert meta["io.modelcontextprotocol/logLevel"] == "warning"


def test_server_info_theme_map_form_recorded_by_name() -> None:
    """MRTR-CLIENT-10: ``Icon.theme`` is an ``Option<IconTheme>`` always written
    (``types/icon.rs:40-52``): read from ``{"light": null}``, held as ``"light"``."""
    icon: JSON = {"src": "https://e.io/i.png", "sizes": ["+48x", "any"], "theme": {"light": None}}
    info: JSON = {"name": "s", "version": "1", "icons": [icon]}
    response: dict[str, JSON] = {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {"_meta": {"io.modelcontextprotocol/serverInfo": info}},
    }
    assert read_server_info(response) == {
        "name": "s",
        "version": "1",
        "icons": [{"src": "https://e.io/i.png", "sizes": ["48x0", "any"], "theme": "light"}],
    }
