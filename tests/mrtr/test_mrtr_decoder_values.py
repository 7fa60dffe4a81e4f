"""The leaf types the mrtr decoders read, walked from tables stated by hand from neva's types
(commit e6822d7) and serde/serde_json: every unit enum's variants in declared order and serde's
wording for each refusal, every integer bound at its edge, the capability declarations
(MRTR-REQ-4, MRTR-REQ-6, MRTR-RETRY-4, MRTR-CAP-1..3, MRTR-CTX-2)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from mcp_touchstone.mrtr._answers import AnswerError, read_answer
from mcp_touchstone.mrtr._capabilities import (
    CapabilityError,
    ClientMrtrCapabilities,
    ElicitationModes,
    parse_capabilities,
)
from mcp_touchstone.mrtr._input import InputKind, InputRequestError
from mcp_touchstone.mrtr._meta import MetaError, check_icon, parse_request_meta
from mcp_touchstone.mrtr._requests import decode_input_request
from mcp_touchstone.serde_json import JSON

_ERRORS = (InputRequestError, MetaError, AnswerError, CapabilityError)


def _refusal(run: Callable[[], object]) -> str | None:
    try:
        run()
    except _ERRORS as exc:
        return str(exc)
    return None


def _sampling(**extra: JSON) -> JSON:
    params: dict[str, JSON] = {"messages": [], "maxTokens": 1, **extra}
    return {"method": "sampling/createMessage", "params": params}


def _request(value: JSON) -> str | None:
    return _refusal(lambda: decode_input_request(value))


def _form(mode: JSON = None, schema_type: JSON = "object") -> JSON:
    params: dict[str, JSON] = {
        "message": "m",
        "requestedSchema": {"type": schema_type, "properties": {}},
    }
    if mode is not None:
        params["mode"] = mode
    return {"method": "elicitation/create", "params": params}


# Each unit enum: (where it is read, its variants' JSON names in declared order).
ENUMS: list[tuple[str, Callable[[JSON], str | None], tuple[str, ...]]] = [
    (
        "LoggingLevel",
        lambda v: _refusal(lambda: parse_request_meta({"io.modelcontextprotocol/logLevel": v})),
        ("debug", "info", "warning", "error", "notice", "critical", "alert", "emergency"),
    ),
    (
        "IconTheme",
        lambda v: _refusal(lambda: check_icon({"src": "s", "theme": v})),
        ("dark", "light"),
    ),
    (
        "ElicitationAction",
        lambda v: _refusal(lambda: read_answer(InputKind.ELICITATION, {"action": v})),
        ("accept", "cancel", "decline"),
    ),
    (
        "Role (answer)",
        lambda v: _refusal(
            lambda: read_answer(
                InputKind.SAMPLING,
                {"role": v, "content": {"type": "text", "text": "t"}, "model": "m"},
            )
        ),
        ("user", "assistant"),
    ),
    (
        "Role (request)",
        lambda v: _request(_sampling(messages=[{"role": v, "content": []}])),
        ("user", "assistant"),
    ),
    (
        "ContextInclusion",
        lambda v: _request(_sampling(includeContext=v)),
        ("none", "thisServer", "allServers"),
    ),
    (
        "ToolChoiceMode",
        lambda v: _request(_sampling(toolChoice={"mode": v})),
        ("auto", "required", "none"),
    ),
    (
        "PropertyType",
        lambda v: _request(_form(schema_type=v)),
        ("none", "array", "string", "number", "integer", "boolean", "object"),
    ),
    (
        "ElicitationMode (form slot)",
        lambda v: _request(
            {"method": "elicitation/create", "params": ["m", v, {"properties": {}}, None]}
        ),
        ("form", "url"),
    ),
]
_ENUM_IDS = [name for name, _, _ in ENUMS]


def _expected(variants: tuple[str, ...]) -> str:
    quoted = [f"`{v}`" for v in variants]
    if len(quoted) == 2:
        return f"{quoted[0]} or {quoted[1]}"
    return "one of " + ", ".join(quoted)


@pytest.mark.parametrize(("name", "read", "variants"), ENUMS, ids=_ENUM_IDS)
def test_every_variant_reads_by_name_and_in_the_map_form(
    name: str, read: Callable[[JSON], str | None], variants: tuple[str, ...]
) -> None:
    """Each variant's JSON name reads, and so does serde_json's map form ``{name: null}``."""
    for variant in variants:
        assert read(variant) is None, (name, variant)
        assert read({variant: None}) is None, (name, variant)


@pytest.mark.parametrize(("name", "read", "variants"), ENUMS, ids=_ENUM_IDS)
def test_an_unknown_variant_lists_every_variant_in_declared_order(
    name: str, read: Callable[[JSON], str | None], variants: tuple[str, ...]
) -> None:
    """An unknown name (a near miss in case or spelling included), as a string or as the map
    form's key, is ``unknown variant `x`, expected ...`` with every variant, declared order."""
    tail = _expected(variants)
    for wrong in ("zz", variants[0].upper(), variants[-1] + " ", ""):
        assert read(wrong) == f"unknown variant `{wrong}`, expected {tail}", name
        assert read({wrong: None}) == f"unknown variant `{wrong}`, expected {tail}", name


@pytest.mark.parametrize(("name", "read", "variants"), ENUMS, ids=_ENUM_IDS)
def test_an_enum_of_the_wrong_shape_is_refused_in_serdes_words(
    name: str, read: Callable[[JSON], str | None], variants: tuple[str, ...]
) -> None:
    """A number, boolean or array is ``expected string or map``; a map form with a value is
    ``expected unit``; a map of two keys ``map with a single key``; an unknown key in the map
    form is named before its value is read."""
    assert read(3) == "invalid type: integer `3`, expected string or map", name
    assert read(False) == "invalid type: boolean `false`, expected string or map", name
    assert read([variants[0]]) == "invalid type: sequence, expected string or map", name
    assert read({variants[0]: 1}) == "invalid type: integer `1`, expected unit", name
    assert read({variants[0]: {}}) == "invalid type: map, expected unit", name
    two: JSON = {variants[0]: None, variants[-1] + "x": None}
    assert read(two) == "invalid value: map, expected map with a single key", name
    assert read({}) == "invalid value: map, expected map with a single key", name
    assert read({"zz": 1}) == f"unknown variant `zz`, expected {_expected(variants)}", name


def test_string_format_reads_neva_four_and_refuses_others() -> None:
    """``StringFormat`` inside a string schema: ``email``, ``uri``, ``date``, ``date-time``
    read (and their map form); any other name makes the property no schema neva reads."""

    def prop(fmt: JSON) -> str | None:
        schema: JSON = {"type": "object", "properties": {"p": {"type": "string", "format": fmt}}}
        return _request(
            {"method": "elicitation/create", "params": {"message": "m", "requestedSchema": schema}}
        )

    for fmt in ("email", "uri", "date", "date-time"):
        assert prop(fmt) is None
        assert prop({fmt: None}) is None
    expected = "expected one of `email`, `uri`, `date`, `date-time`"
    wrong: list[tuple[JSON, str]] = [
        ("time", f"unknown variant `time`, {expected}"),
        ("Email", f"unknown variant `Email`, {expected}"),
        ("datetime", f"unknown variant `datetime`, {expected}"),
        ("", f"unknown variant ``, {expected}"),
        (5, "invalid type: integer `5`, expected string or map"),
        ({"uri": 1}, "invalid type: integer `1`, expected unit"),
    ]
    for bad, message in wrong:
        assert prop(bad) == message


# --------------------------------------------------------------------------- integer bounds

_I32 = "i32"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (2**31 - 1, None),
        (-(2**31), None),
        (0, None),
        (2**31, f"invalid value: integer `{2**31}`, expected {_I32}"),
        (-(2**31) - 1, f"invalid value: integer `{-(2**31) - 1}`, expected {_I32}"),
        (2**64 - 1, f"invalid value: integer `{2**64 - 1}`, expected {_I32}"),
        (1.5, f"invalid type: floating point `1.5`, expected {_I32}"),
        (True, f"invalid type: boolean `true`, expected {_I32}"),
        ("1", f'invalid type: string "1", expected {_I32}'),
        ([], f"invalid type: sequence, expected {_I32}"),
    ],
)
def test_max_tokens_is_an_i32_at_its_edges(value: JSON, message: str | None) -> None:
    """``maxTokens: i32``: both ends of the range read; one past either end is serde's
    ``invalid value``; a non-integer is ``invalid type``."""
    assert _request(_sampling(maxTokens=value)) == message


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (0, None),
        (1, None),
        (-3, None),
        (0.25, None),
        (1e30, None),
        (True, "invalid type: boolean `true`, expected f32"),
        ("0.5", 'invalid type: string "0.5", expected f32'),
        ({}, "invalid type: map, expected f32"),
    ],
)
def test_an_f32_takes_every_json_number(value: JSON, message: str | None) -> None:
    """``Option<f32>`` (``temperature`` and the model priorities): any JSON number reads
    (serde's f32 visitor casts), a boolean or string does not."""
    assert _request(_sampling(temperature=value)) == message
    for name in ("costPriority", "speedPriority", "intelligencePriority"):
        assert _request(_sampling(modelPreferences={name: value})) == message


@pytest.mark.parametrize(
    ("value", "refusal"),
    [
        (0, None),
        (7, None),
        (2**64 - 1, None),
        (-1, "invalid value: integer `-1`, expected usize"),
        # serde_json reads 2^64 as an f64 (the project's reader does the same).
        (float(2**64), "invalid type: floating point `1.8446744073709552e+19`, expected usize"),
        (1.0, "invalid type: floating point `1.0`, expected usize"),
        (True, "invalid type: boolean `true`, expected usize"),
    ],
)
def test_schema_lengths_and_counts_are_usize(value: JSON, refusal: str | None) -> None:
    """``minLength``/``maxLength``/``minItems``/``maxItems`` are ``usize``: 0 to 2^64-1; any
    other value is refused in serde's words."""
    items: JSON = {"enum": ["a"]}
    props: list[JSON] = [
        {"type": "string", "minLength": value},
        {"type": "string", "maxLength": value},
        {"type": "array", "items": items, "minItems": value},
        {"type": "array", "items": items, "maxItems": value},
    ]
    for prop in props:
        schema: JSON = {"type": "object", "properties": {"p": prop}}
        got = _request(
            {"method": "elicitation/create", "params": {"message": "m", "requestedSchema": schema}}
        )
        assert got == refusal, prop


@pytest.mark.parametrize(
    ("value", "reads"),
    [(0, True), (2**64 - 1, True), (-1, False), (2**64, False), (1.5, False), (False, False)],
)
def test_resource_link_size_is_usize(value: JSON, reads: bool) -> None:
    """A resource link's ``size: Option<usize>``: 0 to 2^64-1 reads, anything else does not."""
    link: JSON = {"type": "resource_link", "uri": "file:///f", "name": "f", "size": value}
    answer: JSON = {"role": "assistant", "content": link, "model": "m"}
    got = _refusal(lambda: read_answer(InputKind.SAMPLING, answer))
    assert got == (None if reads else "data did not match any variant of untagged enum OneOrMany")


_TOKEN = "a number, UUID, string, or slash-separated path"


@pytest.mark.parametrize(
    ("token", "message"),
    [
        (0, None),
        (-(2**63), None),
        (2**64 - 1, None),
        ("", None),
        ("a/b/c", None),
        ("123e4567-e89b-12d3-a456-426614174000", None),
        (None, None),
        (0.0, f"invalid type: floating point `0.0`, expected {_TOKEN}"),
        (True, f"invalid type: boolean `true`, expected {_TOKEN}"),
        ([], f"invalid type: sequence, expected {_TOKEN}"),
        ({}, f"invalid type: map, expected {_TOKEN}"),
    ],
)
def test_progress_token_reads_integers_and_strings(token: JSON, message: str | None) -> None:
    """neva's ``ProgressToken`` visitor takes integers and every string, ``null`` being the
    ``Option``'s ``None``; anything else fails with the visitor's ``expecting``."""
    assert _refusal(lambda: parse_request_meta({"progressToken": token})) == message


# --------------------------------------------------------------------------- capabilities

_ELICITATION = "data did not match any variant of untagged enum ElicitationDeclaration"
_DECLARATION = "data did not match any variant of untagged enum Declaration"


@pytest.mark.parametrize(
    ("value", "declared"),
    [
        (None, False),
        (False, False),
        (True, True),
        ({}, True),
        ({"anything": [1, 2]}, True),
        ([], True),
    ],
)
def test_a_declaration_is_an_object_true_or_an_empty_array(value: JSON, declared: bool) -> None:
    """MRTR-CAP-1: ``sampling`` and ``roots`` read ``Option<Declaration>`` (an object, any
    contents, or a boolean; serde reads an empty array as the fieldless struct)."""
    assert parse_capabilities({"sampling": value}).sampling is declared
    assert parse_capabilities({"roots": value}).roots is declared
    assert parse_capabilities({"elicitation": {"form": value}}).elicitation == ElicitationModes(
        form=declared
    )
    assert parse_capabilities({"elicitation": {"url": value}}).elicitation == ElicitationModes(
        url=declared
    )


@pytest.mark.parametrize("value", [0, 1, "", "yes", [None], [{}], 1.5])
def test_anything_else_is_no_declaration(value: JSON) -> None:
    """MRTR-CAP-1: a number, string or non-empty array matches neither variant of the
    untagged ``Declaration`` (inside ``elicitation``: of ``ElicitationDeclaration``)."""
    cases: list[tuple[JSON, str]] = [
        ({"sampling": value}, _DECLARATION),
        ({"roots": value}, _DECLARATION),
        ({"elicitation": {"form": value}}, _ELICITATION),
        ({"elicitation": {"url": value}}, _ELICITATION),
    ]
    for caps, message in cases:
        with pytest.raises(CapabilityError) as exc:
            parse_capabilities(caps)
        assert str(exc.value) == message, caps


@pytest.mark.parametrize(
    ("elicitation", "modes"),
    [
        (None, None),
        (False, None),
        (True, ElicitationModes()),
        ({}, ElicitationModes()),
        ([], ElicitationModes()),
        ([True], ElicitationModes(form=True)),
        ([None, {}], ElicitationModes(url=True)),
        ([{}, True], ElicitationModes(form=True, url=True)),
        ([False, False], ElicitationModes()),
        ({"form": {}, "url": False}, ElicitationModes(form=True)),
    ],
)
def test_elicitation_reads_modes_by_name_or_position(
    elicitation: JSON, modes: ElicitationModes | None
) -> None:
    """MRTR-CAP-2: ``elicitation`` is ``ElicitationModes`` (an object, or its sequence form
    ``[form, url]``), or a boolean; ``false`` and ``null`` declare nothing."""
    assert parse_capabilities({"elicitation": elicitation}).elicitation == modes


@pytest.mark.parametrize("elicitation", [[None, None, None], [True, True, True], 1, "form"])
def test_elicitation_of_another_shape_is_refused(elicitation: JSON) -> None:
    """MRTR-CAP-2: three positions are one too many for ``ElicitationModes``; a number or a
    string is neither variant; serde's untagged enum names itself, not the inner error."""
    assert _refusal(lambda: parse_capabilities({"elicitation": elicitation})) == _ELICITATION


@pytest.mark.parametrize(
    ("value", "caps"),
    [
        ([], ClientMrtrCapabilities()),
        ([True], ClientMrtrCapabilities(elicitation=ElicitationModes())),
        ([None, {}], ClientMrtrCapabilities(sampling=True)),
        ([None, None, {}], ClientMrtrCapabilities(roots=True)),
        ([{"url": {}}, True, []], ClientMrtrCapabilities(ElicitationModes(url=True), True, True)),
    ],
)
def test_capabilities_sequence_form_is_elicitation_sampling_roots(
    value: JSON, caps: ClientMrtrCapabilities
) -> None:
    """MRTR-CAP-3: the sequence form's slots are ``elicitation``, ``sampling``, ``roots`` in
    declared order, each defaulted (a short array reads)."""
    assert parse_capabilities(value) == caps


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ([None, None, None, None], "invalid length 4, expected fewer elements in array"),
        ([{}, {}, {}, {}, {}], "invalid length 5, expected fewer elements in array"),
        ([5, None, None, None], _ELICITATION),
        ([None, 5, None, None], _DECLARATION),
        ([None, None, 5, None], _DECLARATION),
    ],
)
def test_an_overlong_capabilities_sequence_reads_its_slots_first(value: JSON, message: str) -> None:
    """MRTR-CAP-3: more than three elements is serde_json's ``fewer elements in array``
    error, judged only after the three slots read (a bad slot is reported instead)."""
    assert _refusal(lambda: parse_capabilities(value)) == message


def test_the_elicitation_member_is_read_before_roots() -> None:
    """An object's members are read in sorted key order: a bad ``elicitation`` is reported
    before a bad ``roots`` or ``sampling``, whatever order the object was written in."""
    caps: JSON = {"sampling": 1, "roots": 1, "elicitation": 1}
    assert _refusal(lambda: parse_capabilities(caps)) == _ELICITATION
    assert _refusal(lambda: parse_capabilities({"roots": 1, "elicitation": {}})) == _DECLARATION
