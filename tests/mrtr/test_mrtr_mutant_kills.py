"""Tests added to kill surviving mutants of `make mutants` (docs/assurance.md, "Survivors")."""

from __future__ import annotations

import pytest

from mcp_touchstone.mrtr import (
    ClientOptions,
    InputRequestError,
    PayloadError,
    StatePayload,
    decode_input_request,
    run_with_mrtr,
)
from mcp_touchstone.mrtr._meta import MetaError, parse_request_meta
from mcp_touchstone.serde_json import JSON


def test_meta_protocol_version_must_be_a_string() -> None:
    """`io.modelcontextprotocol/protocolVersion` is neva's `Option<String>`: an integer fails the
    whole `_meta` parse with serde's invalid-type message."""
    with pytest.raises(MetaError) as exc:
        parse_request_meta({"io.modelcontextprotocol/protocolVersion": 5})
    assert str(exc.value) == "invalid type: integer `5`, expected a string"
    assert parse_request_meta({"io.modelcontextprotocol/protocolVersion": "2026-07-28"})


@pytest.mark.parametrize(
    "data",
    [
        b'{"answers":{},"exp":18446744073709551615,"req":"x"}',
        b'{ "answers" : {}, "exp" : 18446744073709551615 , "req":"x", "zz": [1]}',
        # serde's sequence form of the struct: only the byte reader reads it.
        b'[{},[],{},[],18446744073709551615,"x",null]',
    ],
)
def test_payload_exp_accepts_u64_max_on_both_decode_paths(data: bytes) -> None:
    """`exp` is a u64: exactly 2**64 - 1 decodes, in the object form (fast path) and the
    sequence form (the byte reader's check; kills mrtr/_payload_reader.py:66 `<=` -> `<`); one
    more reads as a float (serde_json), so it is an invalid type."""
    assert StatePayload.decode(data).exp == (1 << 64) - 1
    with pytest.raises(PayloadError, match=r"invalid type: floating point `1\.8446744073709552e"):
        StatePayload.decode(data.replace(b"551615", b"551616"))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        # An ignored member whose value starts with a byte no JSON value starts with: serde's
        # ignore_value peeks it and fails "expected value" at that byte's own column.
        (b'{"answers":{},"exp":5,"req":"r","x":X}', "expected value at line 1 column 37"),
        (b'{"answers":{},"exp":5,"req":"r","x":[1,X]}', "expected value at line 1 column 40"),
    ],
)
def test_skipped_member_errors_name_serde_position(data: bytes, message: str) -> None:
    """MRTR-PAYLOAD-8: a syntax error inside an ignored member fails the decode with serde_json's
    message and column, ``expected value`` for a byte that starts no value (kills
    mrtr/_payload_reader.py:205 ``b"tfn"`` -> ``b"XXtfn"``, which read ``X`` as a literal's
    first byte and answered ``expected ident`` one column later)."""
    with pytest.raises(PayloadError) as exc:
        StatePayload.decode(data)
    assert str(exc.value) == message


@pytest.mark.parametrize(
    "params",
    [
        {"messages": [], "maxTokens": 5, "temperature": "hot"},
        # serde's sequence form of neva's CreateMessageRequestParams: temperature is field 7.
        [[], 5, None, None, None, None, "hot", None, None, None],
    ],
)
def test_sampling_temperature_is_an_f32_in_both_struct_forms(params: JSON) -> None:
    """`temperature` is neva's `Option<f32>`: a string fails with serde's invalid-type message
    in the object form and in the sequence form, where it is read by position (kills
    mrtr/_requests.py:240 "temperature" renamed in the field list, which only the sequence
    form reads)."""
    with pytest.raises(InputRequestError) as exc:
        decode_input_request({"method": "sampling/createMessage", "params": params})
    assert str(exc.value) == 'invalid type: string "hot", expected f32'
    ok: list[JSON] = [[], 5, None, None, None, None, 0.5, None, None, None]
    assert decode_input_request({"method": "sampling/createMessage", "params": ok}).params == ok


def test_meta_request_state_must_be_a_string() -> None:
    """`requestState` in `_meta` is an `Option<String>`: an integer fails the `_meta` parse with
    serde's message, null is absent (kills mrtr/_meta.py:151 "requestState" renamed in the
    table of modelled members)."""
    with pytest.raises(MetaError) as exc:
        parse_request_meta({"requestState": 5})
    assert str(exc.value) == "invalid type: integer `5`, expected a string"
    assert parse_request_meta({"requestState": None}).request_state is None
    assert parse_request_meta({"requestState": "tok"}).request_state == "tok"


def test_input_required_result_writes_request_state_back() -> None:
    """MRTR-WIRE-1: a parsed ``InputRequiredResult`` re-emits ``requestState`` under its wire
    name (kills mrtr/_wire.py:112, the key renamed in ``to_json``)."""
    from mcp_touchstone.mrtr import InputRequiredResult

    parsed = InputRequiredResult.model_validate(
        {"resultType": "input_required", "requestState": "abc.def"}
    )
    assert parsed.to_json() == {"resultType": "input_required", "requestState": "abc.def"}


def test_input_request_envelope_without_method_names_the_field() -> None:
    """MRTR-REQ-1: an envelope object without ``method`` fails with serde's ``missing field
    `method``` (kills mrtr/_requests.py:320, the message changed)."""
    with pytest.raises(InputRequestError) as exc:
        decode_input_request({"params": {"message": "m"}})
    assert str(exc.value) == "missing field `method`"


def test_run_with_mrtr_refuses_a_non_string_method_by_name() -> None:
    """API misuse (a request whose ``method`` is not a string) is a ``TypeError`` saying what is
    wrong, before anything is sent (kills mrtr/_client.py:404, the message changed)."""
    sent: list[JSON] = []

    def send(message: dict[str, JSON]) -> dict[str, JSON]:
        sent.append(message)
        return {"jsonrpc": "2.0", "id": 1, "result": {}}

    with pytest.raises(TypeError) as exc:
        run_with_mrtr(
            {"id": 1, "method": 5},
            ClientOptions(),
            send=send,
            fulfil=lambda *_: None,
            next_id=lambda: 2,
        )
    assert str(exc.value) == "a request's method is a string"
    assert sent == []


@pytest.mark.parametrize(
    ("data", "message"),
    [
        # serde_json's parse_ident consumes the literal byte by byte and fails at the first byte
        # that differs (the column of that byte), or at the end of the input.
        (b'{"answers":{},"exp":5,"req":"r","x":nux}', "expected ident at line 1 column 39"),
        (b'{"answers":{},"exp":5,"req":"r","x":nul}', "expected ident at line 1 column 40"),
        (
            b'{"answers":{},"exp":5,"req":"r","x":tru',
            "EOF while parsing a value at line 1 column 39",
        ),
        (b'{"answers":nul}', "expected ident at line 1 column 15"),
        (b"[fals]", "expected ident at line 1 column 6"),
        (b"nul", "EOF while parsing a value at line 1 column 3"),
        (b"not json", "expected ident at line 1 column 2"),
    ],
)
def test_truncated_literals_fail_where_serde_parse_ident_stops(data: bytes, message: str) -> None:
    """MRTR-PAYLOAD-8: a broken ``true``/``false``/``null`` fails at serde_json's position (found
    while killing mrtr/_payload_reader.py:205: the reader always named the literal's second
    byte, and said ``expected ident`` at the end of the input where serde says ``EOF while
    parsing a value``; serde_json 1.0.87 ``de.rs`` ``parse_ident``, unchanged to 1.0.149)."""
    with pytest.raises(PayloadError) as exc:
        StatePayload.decode(data)
    assert str(exc.value) == message


@pytest.mark.parametrize(
    ("data", "message"),
    [
        # A number that ends the input: the scan stops at the end, then the object is unclosed.
        (
            b'{"answers":{},"exp":5,"req":"r","x":0',
            "EOF while parsing an object at line 1 column 37",
        ),
        (
            b'{"answers":{},"exp":5,"req":"r","x":1e5',
            "EOF while parsing an object at line 1 column 39",
        ),
        (b'{"answers":{},"req":"r","exp":0', "EOF while parsing an object at line 1 column 31"),
        # A missing comma in a skipped container: serde peeks the byte that should be `,`.
        (b'{"answers":{},"exp":5,"req":"r","x":[1 2]}', "expected `,` or `]` at line 1 column 40"),
        (
            b'{"answers":{},"exp":5,"req":"r","x":{"a":1 "b":2}}',
            "expected `,` or `}` at line 1 column 44",
        ),
    ],
)
def test_payload_reader_edges_fail_with_serde_messages(data: bytes, message: str) -> None:
    """MRTR-PAYLOAD-8: a number at the very end of the input, and a missing comma inside an
    ignored member, fail with serde_json's message and position, never an IndexError (kills
    mrtr/_payload_reader.py:157 and :174, ``pos < len(data)`` -> ``<=``, and :253, the
    comma message changed)."""
    with pytest.raises(PayloadError) as exc:
        StatePayload.decode(data)
    assert str(exc.value) == message


def test_form_string_formats_are_neva_four() -> None:
    """MRTR-REQ: a form property's ``format`` is one of neva's ``email``, ``uri``, ``date``,
    ``date-time``; any other is serde's unknown variant (kills mrtr/_requests.py:86, a name
    dropped from the list)."""

    def form(fmt: str) -> JSON:
        prop: dict[str, JSON] = {"type": "string", "format": fmt}
        schema: dict[str, JSON] = {"type": "object", "properties": {"p": prop}}
        return {
            "method": "elicitation/create",
            "params": {"message": "m", "requestedSchema": schema},
        }

    for fmt in ("email", "uri", "date", "date-time"):
        assert decode_input_request(form(fmt)).kind.value == "elicitation/create"
    with pytest.raises(InputRequestError) as exc:
        decode_input_request(form("time"))
    assert str(exc.value) == (
        "unknown variant `time`, expected one of `email`, `uri`, `date`, `date-time`"
    )


def test_roots_params_of_the_wrong_type_name_the_struct() -> None:
    """MRTR-REQ: ``roots/list`` params that are neither an object nor a sequence fail with
    serde's invalid-type message naming ``ListRootsRequestParams`` (kills
    mrtr/_requests.py:307, the struct name changed)."""
    with pytest.raises(InputRequestError) as exc:
        decode_input_request({"method": "roots/list", "params": 5})
    assert str(exc.value) == "invalid type: integer `5`, expected struct ListRootsRequestParams"


def test_memo_returns_the_value_it_computes_in_a_round() -> None:
    """MRTR-CTX-5: inside an MRTR round, ``ctx.memo`` returns what ``compute`` returned the first
    time, and the cached value afterwards (kills mrtr/_context.py:178, the first computation
    answering None)."""
    from mcp_touchstone.mrtr._context import Context
    from mcp_touchstone.mrtr._engine import ServerConfig, dispatch
    from mcp_touchstone.mrtr._state import Keyring
    from mcp_touchstone.mrtr._store import InMemoryRequestStateStore
    from tests.mrtr._round_helpers import meta

    seen: list[JSON] = []

    def handler(ctx: Context, params: JSON) -> JSON:
        seen.append(ctx.memo("m", lambda: {"price": 42}))
        seen.append(ctx.memo("m", lambda: "not called"))
        return {"content": []}

    request: dict[str, JSON] = {
        "id": 1,
        "method": "tools/call",
        "params": {"name": "t", "arguments": {}, "_meta": meta()},
    }
    config = ServerConfig(Keyring("0", {"0": b"s0"}), ttl=300)
    store = InMemoryRequestStateStore()
    dispatch(request, handler, config, now=1_000, nonce=lambda: bytes(12), store=store)
    assert seen == [{"price": 42}, {"price": 42}]


def test_input_required_result_refuses_input_requests_that_are_not_a_map() -> None:
    """MRTR-WIRE-1: ``inputRequests`` is a map or absent; a list or a string is a validation
    error, not read as absent (kills mrtr/_wire.py:93, the before-validator answering None
    for a non-map)."""
    from pydantic import ValidationError

    from mcp_touchstone.mrtr import InputRequiredResult

    bads: list[JSON] = [[], "x", 5]
    for bad in bads:
        with pytest.raises(ValidationError):
            InputRequiredResult.model_validate(
                {"resultType": "input_required", "inputRequests": bad}
            )
    absent = InputRequiredResult.model_validate(
        {"resultType": "input_required", "inputRequests": None}
    )
    assert absent.requests() == {}


@pytest.mark.parametrize("data", [b"{} ", b"{}x", b"{}\n"])
def test_empty_object_payload_reports_missing_field_at_its_end(data: bytes) -> None:
    """MRTR-PAYLOAD-8: ``{}`` followed by anything fails with ``missing field `answers```
    where the object ends (serde checks the fields at the closing brace, before any trailing
    byte), column 2 (kills mrtr/_payload_reader.py:328, which stepped past the brace and a
    byte more)."""
    with pytest.raises(PayloadError) as exc:
        StatePayload.decode(data)
    assert str(exc.value) == "missing field `answers` at line 1 column 2"
