"""Differentials for the requestState codec's fast paths (issue 13): each one gives the answer
of the general path it short-cuts, errors byte for byte (MRTR-PAYLOAD-*, MRTR-BIND-1,
MRTR-SEAL-1..3)."""

from __future__ import annotations

import hashlib
import json
import math
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from types import MappingProxyType

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from mcp_touchstone.mrtr import Keyring, PayloadError, StateError, StatePayload, request_binding
from mcp_touchstone.mrtr._b64 import b64url_encode
from mcp_touchstone.mrtr._binding import salient_params
from mcp_touchstone.mrtr._payload import _assemble, _build, _from_object_fast, plain_object
from mcp_touchstone.mrtr._payload_reader import PayloadReader
from mcp_touchstone.mrtr._plain_json import parse_plain
from mcp_touchstone.serde_json import JSON, JsonError, canonical, from_str
from tests.strategies.mrtr import json_values, nonces, payloads


def _same(a: object, b: object) -> bool:
    """Equal as JSON values *and* of the same Python types throughout (``0`` is not ``-0.0``
    and ``1`` is not ``1.0``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        assert isinstance(b, list)
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        assert isinstance(b, float)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b


def _from_str_or_error(data: bytes) -> JSON | str:
    try:
        return from_str(data)
    except JsonError as exc:
        return f"error: {exc}"


_NUMBER_TEXTS = st.sampled_from(
    [
        b"0",
        b"-0",
        b"-0.0",
        b"7",
        b"-7",
        b"123456789012345678",
        b"-12345678901234567",
        b"-123456789012345678",
        b"1234567890123456789",
        b"18446744073709551615",
        b"18446744073709551616",
        b"-9223372036854775809",
        b"1.5",
        b"1e5",
        b"1E400",
        b"NaN",
        b"Infinity",
        b"-Infinity",
        b"01",
        b"1.",
        b"--1",
    ]
)
_PIECES = st.one_of(
    _NUMBER_TEXTS,
    st.sampled_from(
        [b"{", b"}", b"[", b"]", b",", b":", b" ", b"\t", b"\n", b'"', b'"k"', b"\\", b"\\u00e9"]
    ),
    st.sampled_from([b"\xef\xbb\xbf", b"\xff", b"\xc3\xa9", b"\x01", b"\xed\xa0\x80"]),
    st.sampled_from([b"true", b"false", b"null", b"nul", b'"answers"']),
)


@st.composite
def _json_texts(draw: st.DrawFn) -> bytes:
    """A JSON object text (any value nested in it, compact or spaced), often broken: a piece
    inserted, a byte dropped, or deep nesting."""
    value = {"k": draw(json_values), "n": draw(st.lists(json_values, max_size=3))}
    spaced = draw(st.booleans())
    text = json.dumps(value, ensure_ascii=draw(st.booleans()), indent=1 if spaced else None)
    data = text.encode("utf-8", "surrogatepass")
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(data)))
        if draw(st.booleans()):
            data = data[:at] + draw(_PIECES) + data[at:]
        else:
            data = data[:at] + data[at + 1 :]
    if draw(st.integers(0, 9)) == 0:
        depth = draw(st.integers(120, 130))
        data = b"{" + b'"d":' + b"[" * depth + b"]" * depth + b"}"
    return data


@given(_json_texts())
@example(b'{"a":-0}')
@example(b'{"a":1234567890123456789}')
@example(b'{"a":1.0}')
@example(b'{"a":[1]} ')
@example(b' {"a":1}')
@example(b'\xef\xbb\xbf{"a":1}')
@example(b'{"a":"\x01"}')
@example(b'{"a":1,"a":2}')
@example(b'{"a":' + b"[" * 126 + b"]" * 126 + b"}")
@example(b'{"a":' + b"[" * 127 + b"]" * 127 + b"}")
def test_plain_parse_is_the_json_layer_where_it_answers(data: bytes) -> None:
    """MRTR-PAYLOAD-8: where the plain scan answers, it is from_str's value type for type; it
    never answers for a text from_str refuses."""
    plain = parse_plain(data)
    if plain is not None:
        assert _same(plain, _from_str_or_error(data))


_PLAIN_TEXT = st.text(alphabet="abz019 \u00e9\u4e2d-", max_size=5)
_PLAIN_VALUES: st.SearchStrategy[JSON] = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**16), 10**17) | _PLAIN_TEXT,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(_PLAIN_TEXT, children, max_size=3)
    ),
    max_leaves=10,
)


@given(st.dictionaries(_PLAIN_TEXT, _PLAIN_VALUES, max_size=4))
def test_plain_parse_answers_for_plain_objects(value: dict[str, JSON]) -> None:
    """MRTR-PAYLOAD-8: a compact, escape-free object whose numbers are short integers is
    taken by the plain scan (the fast path is exercised, not merely allowed), as from_str."""
    data = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    plain = parse_plain(data)
    assert plain is not None
    assert _same(plain, from_str(data))


def _reader_or_error(data: bytes) -> StatePayload | str:
    try:
        return PayloadReader(data).payload(_build)
    except PayloadError as exc:
        return f"error: {exc}"


def _decode_or_error(data: bytes) -> StatePayload | str:
    try:
        return StatePayload.decode(data)
    except PayloadError as exc:
        return f"error: {exc}"


def _fields_equal(a: StatePayload, b: StatePayload) -> bool:
    return (
        all(
            _same(getattr(a, n), getattr(b, n))
            for n in ("exp", "req", "requested", "effects", "principal", "aud")
        )
        and _same(dict(a.answers), dict(b.answers))
        and _same(dict(a.memos), dict(b.memos))
        and type(a.answers) is type(b.answers) is MappingProxyType
        and type(a.memos) is type(b.memos) is MappingProxyType
    )


@st.composite
def _payload_texts(draw: st.DrawFn) -> bytes:
    """A sealed payload's plaintext, often altered: a field repeated, dropped, retyped or
    renamed, an escape, a name nested inside a value, whitespace, trailing bytes."""
    p = draw(payloads())
    obj = json.loads(p.encode())
    names = list(obj)
    action = draw(st.integers(0, 8))
    if action == 1 and names:
        del obj[draw(st.sampled_from(names))]
    elif action == 2 and names:
        obj[draw(st.sampled_from(names))] = draw(
            st.sampled_from([None, 1, -1, 2**64, "x", [], ["a", 1], {}, 1.5, True])
        )
    elif action == 3:
        obj["answers"] = {"exp": {"req": "answers"}}
    elif action == 4 and names:
        items = list(obj.items())
        obj = dict(draw(st.permutations(items)))
    data = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if action == 5:
        field = draw(st.sampled_from([b'"exp":5', b'"req":"r"', b'"answers":{}', b'"aud":null']))
        data = data[:1] + field + b"," + data[1:]
    elif action == 6:
        data = data.replace(b'"req"', b'"r\\u0065q"', 1)
    elif action == 7:
        data = draw(st.sampled_from([b" ", b"\n"])) + data + draw(st.sampled_from([b"", b" x"]))
    elif action == 8:
        data = data.replace(b",", b", ", 1).replace(b":", b" :", 1)
    return data


@given(_payload_texts())
@example(b'{"answers":{},"exp":5,"req":"r","exp":6}')
@example(b'{"answers":{},"exp":5,"req":"r","effects":["a","a","b"]}')
@example(b'{"exp":5,"req":"r","answers":{"k":-0}}')
@example(b'{"answers":{},"exp":18446744073709551616,"req":"r"}')
@example(b'["answers"]')
def test_decode_is_the_byte_reader_errors_included(data: bytes) -> None:
    """MRTR-PAYLOAD-2..8: StatePayload.decode (fast paths first) gives the byte reader's
    payload, field for field, or its error message byte for byte."""
    fast = _decode_or_error(data)
    slow = _reader_or_error(data)
    if isinstance(slow, str) or isinstance(fast, str):
        assert fast == slow
    else:
        assert _fields_equal(fast, slow)


@given(payloads())
def test_a_sealed_plaintext_takes_the_fast_path(p: StatePayload) -> None:
    """MRTR-PAYLOAD-1: the plaintext a seal writes decodes through the object fast path (so
    the benchmark measures the fast path) to the typed reader's payload (floats are read back
    serde's way, not always to the same double, so the sealed payload itself is not the
    reference)."""
    obj = from_str(p.encode())
    assert isinstance(obj, dict)
    fast = _from_object_fast(obj)
    assert fast is not None
    reference = StatePayload.from_json(obj)
    assert fast == reference
    assert _fields_equal(fast, reference)


@given(
    st.dictionaries(st.text(max_size=3), json_values, max_size=2),
    st.integers(0, 2**64 - 1),
    st.text(max_size=4),
    st.lists(st.text(max_size=2), max_size=3),
    st.dictionaries(st.text(max_size=3), json_values, max_size=2),
    st.lists(st.sampled_from(["a", "b", "c"]), max_size=4),
    st.none() | st.text(max_size=3),
    st.none() | st.text(max_size=3),
)
def test_assemble_is_the_constructor(  # noqa: PLR0917 - one argument per payload field
    answers: dict[str, JSON],
    exp: int,
    req: str,
    requested: list[str],
    memos: dict[str, JSON],
    effects: list[str],
    principal: str | None,
    aud: str | None,
) -> None:
    """The slot-setting constructor of the decode fast path builds the value the dataclass
    constructor builds from the same fields (equal, same repr, same field types)."""
    built = StatePayload(
        answers=answers,
        exp=exp,
        req=req,
        requested=tuple(requested),
        memos=memos,
        effects=tuple(effects),
        principal=principal,
        aud=aud,
    )
    fast = _assemble(
        MappingProxyType(dict(answers)),
        exp,
        req,
        tuple(requested),
        MappingProxyType(dict(memos)),
        tuple(dict.fromkeys(effects)),
        principal,
        aud,
    )
    assert fast == built
    assert repr(fast) == repr(built)
    assert _fields_equal(fast, built)
    with pytest.raises(AttributeError):
        fast.exp = 0  # type: ignore[misc]  # still frozen


class _Odd(Mapping[str, JSON]):
    """A mapping that is not a dict (its copy is not a dict either)."""

    def __init__(self, items: dict[str, JSON]) -> None:
        self._items = items

    def __getitem__(self, key: str) -> JSON:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def copy(self) -> _Odd:
        return _Odd(self._items)


@given(st.dictionaries(st.text(max_size=3), json_values, max_size=4))
def test_plain_object_is_a_fresh_dict_copy(items: dict[str, JSON]) -> None:
    """A payload map's plain copy equals dict(map) for every kind of mapping and is a new
    dict (writing to it never reaches the payload)."""
    for m in (
        MappingProxyType(dict(items)),
        MappingProxyType(OrderedDict(items)),
        MappingProxyType(_Odd(items)),
        dict(items),
    ):
        plain = plain_object(m)
        assert type(plain) is dict
        assert plain == dict(m)
        assert list(plain) == list(dict(m))
        plain["\x00new"] = 1
        assert "\x00new" not in m


_PARAMS = st.one_of(
    st.none(),
    json_values,
    st.dictionaries(
        st.sampled_from(["_meta", "inputResponses", "requestState", "name", "arguments", "x"]),
        json_values,
        max_size=5,
    ),
)


@given(st.text(max_size=8), _PARAMS)
def test_binding_shortcut_is_the_salient_hash(method: str, params: JSON) -> None:
    """MRTR-BIND-1, MRTR-BIND-2: request_binding (params hashed uncopied when no unbound key
    is present) is the hash of the canonical salient params, and leaves params unchanged."""
    before = canonical(params) if params is not None else None
    digest = hashlib.sha256(canonical(salient_params(params)).encode("utf-8")).digest()
    assert request_binding(method, params) == f"{method}:{b64url_encode(digest)}"
    assert (canonical(params) if params is not None else None) == before


@given(payloads(), nonces, st.booleans())
def test_cached_sealer_seals_what_a_fresh_keyring_seals(
    p: StatePayload, nonce: bytes, bound: bool
) -> None:
    """MRTR-SEAL-1..3: a keyring's cached sealing header and AEAD give the token a fresh
    keyring gives, seal after seal, for both header versions."""
    ring = Keyring("k", {"k": b"secret", "old": b"other"})
    first = ring.sealer(bound)
    assert ring.sealer(bound) is first
    plaintext = p.encode()
    fresh = Keyring("k", {"k": b"secret"})
    from mcp_touchstone.mrtr._state import seal_plaintext

    again = seal_plaintext(plaintext, ring, nonce, audience_bound=bound)
    assert again == seal_plaintext(plaintext, fresh, nonce, audience_bound=bound)
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    from mcp_touchstone.mrtr._state import derive_key

    header = ("v2" if bound else "v1") + ".k"
    sealed = ChaCha20Poly1305(derive_key(b"secret")).encrypt(nonce, plaintext, header.encode())
    assert again == f"{header}.{b64url_encode(nonce)}.{b64url_encode(sealed)}"


@pytest.mark.parametrize(
    ("ring", "message"),
    [
        (Keyring("missing", {"k": b"s"}), "active requestState kid has no key in the keyring"),
        (Keyring("", {"": b"s"}), "requestState kid must be non-empty and must not contain '.'"),
        (
            Keyring("a.b", {"a.b": b"s"}),
            "requestState kid must be non-empty and must not contain '.'",
        ),
    ],
)
def test_sealer_errors_are_raised_every_time(ring: Keyring, message: str) -> None:
    """MRTR-SEAL-2, MRTR-SEAL-3: a keyring that cannot seal fails each seal alike (a failure
    is never cached)."""
    for _ in range(2):
        with pytest.raises(StateError) as err:
            ring.sealer(True)
        assert err.value.error.code == -32603
        assert err.value.error.message == message


def test_a_mutable_secret_is_read_afresh() -> None:
    """A bytearray secret changed after the keyring was built seals under its new value, as
    before the sealing cache (only an immutable secret is cached)."""
    secret = bytearray(b"one")
    ring = Keyring("k", {"k": secret})  # type: ignore[dict-item]  # a caller's bytearray
    nonce = bytes(12)
    from mcp_touchstone.mrtr._state import seal_plaintext

    def sealed(keyring: Keyring) -> str:
        return seal_plaintext(b"{}", keyring, nonce, audience_bound=False)

    first = sealed(ring)
    secret[:] = b"two"
    second = sealed(ring)
    assert first == sealed(Keyring("k", {"k": b"one"}))
    assert second == sealed(Keyring("k", {"k": b"two"}))


def _sequential_open(token: str, keyring: Keyring) -> bytes:
    """open_plaintext as the codec reads it step by step (each segment decoded on its own),
    the reference for the one-decode fast path."""
    from cryptography.exceptions import InvalidTag

    from mcp_touchstone.mrtr._b64 import B64Error, b64url_decode
    from mcp_touchstone.mrtr._state import ACCEPTED_VERSIONS

    def invalid(message: str) -> StateError:
        return StateError(-32602, message)

    parts = token.split(".")
    if len(parts) != 4:
        raise invalid("malformed requestState")
    version, kid, nonce_b64, sealed_b64 = parts
    if version not in ACCEPTED_VERSIONS:
        raise invalid("unsupported requestState version")
    secret = keyring.keys.get(kid)
    if secret is None:
        raise invalid("unknown requestState key id")
    try:
        nonce = b64url_decode(nonce_b64)
    except B64Error:
        raise invalid("bad requestState nonce") from None
    try:
        sealed = b64url_decode(sealed_b64)
    except B64Error:
        raise invalid("bad requestState payload") from None
    if len(nonce) != 12:
        raise invalid("bad requestState nonce")
    header = f"{version}.{kid}".encode("utf-8", "surrogatepass")
    try:
        return keyring.cipher(bytes(secret)).decrypt(nonce, sealed, header)
    except InvalidTag:
        raise invalid("requestState integrity check failed") from None


def _outcome(fn: object, token: str, keyring: Keyring) -> bytes | tuple[int, str]:
    assert callable(fn)
    try:
        out = fn(token, keyring)
    except StateError as exc:
        return (exc.error.code, exc.error.message)
    assert isinstance(out, bytes)
    return out


_B64_NOISE = st.sampled_from(["A", "Q", "_", "-", "=", "+", "/", " ", "é", ".", "AA", ""])


@given(payloads(), nonces, st.data())
def test_open_plaintext_is_the_sequential_decode(
    p: StatePayload, nonce: bytes, data: st.DataObject
) -> None:
    """MRTR-OPEN-2..8, MRTR-B64-1: opening with the two segments decoded as one text gives
    the plaintext, or the error, that decoding them one by one gives, for tokens altered in
    either segment (lengths, alphabet, padding, trailing bits)."""
    from mcp_touchstone.mrtr import seal
    from mcp_touchstone.mrtr._state import open_plaintext

    ring = Keyring.single(b"k")
    token = seal(p, ring, nonce)
    head, kid, nonce_b64, sealed_b64 = token.split(".")
    segments = [nonce_b64, sealed_b64]
    for _ in range(data.draw(st.integers(0, 3))):
        which = data.draw(st.integers(0, 1))
        text = segments[which]
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 1))
        segments[which] = text[:at] + data.draw(_B64_NOISE) + text[at + cut :]
    altered = f"{head}.{kid}.{segments[0]}.{segments[1]}"
    assert _outcome(open_plaintext, altered, ring) == _outcome(_sequential_open, altered, ring)
