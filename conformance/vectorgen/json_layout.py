"""``json/layout.json``: serde_json's parse and compact write, as grids over the documented rules.

Every expected string is stated from the rule it pins, built from the same hand-chosen parts as
the input (never by running a JSON library over the input):

* floats (JSON-FLOAT-1/2/4): a significand of at most 15 digits scaled by 10^k with |k| <= 22 is
  read exactly (serde_json's fast path, JSON-NUM-3), so its shortest round-trip digits are the
  significand's own digits; the layout then follows from the decimal exponent alone;
* integers (JSON-NUM-1): the u64 / i64 boundaries, stated as literals;
* strings (JSON-STR-1/2, JSON-PARSE-3/4): each control character, escaped and raw;
* objects (JSON-WRITE-1, JSON-PARSE-5): keys written sorted by code point, last duplicate wins;
* nesting (JSON-PARSE-6) and surrounding whitespace (JSON-PARSE-1).
"""

from __future__ import annotations

import itertools
from typing import Any

from conformance.vectorgen._common import envelope

ERROR = {"error": {"kind": "invalid_json", "message": ""}}

NOTES = {
    "FloatLayout": {
        "bugType": "QUIRK",
        "description": "serde_json's float layout: positional for decimal exponents -5..15 with "
        "'.0' kept, else d[.ddd]e±X unpadded; a port on JSON.stringify or json.dumps differs.",
        "effect": "MaxArgsSize byte counts, MRTR bindings and digests drift.",
    },
    "Integer": {
        "bugType": "EDGE_CASE",
        "description": "The u64 / i64 boundaries of serde_json's integer model.",
    },
    "Escape": {
        "bugType": "EDGE_CASE",
        "description": "Exactly which characters serde_json escapes, and how.",
    },
    "Malformed": {
        "bugType": "MALFORMED_INPUT",
        "description": "Text serde_json rejects although some JSON parsers accept it.",
    },
    "KeyOrder": {
        "bugType": "QUIRK",
        "description": "A serde_json::Value map is a BTreeMap: keys come out sorted by code "
        "point whatever order they went in; the last duplicate wins.",
    },
}


def _out(text: str) -> dict[str, Any]:
    return {"string": text, "bytes": len(text.encode("utf-8"))}


def _layout(digits: str, exp: int, negative: bool) -> str:
    """serde_json's text for the float with significant ``digits`` (no trailing zero, first digit
    non-zero) and decimal exponent ``exp`` of the leading digit (JSON-FLOAT-2, JSON-FLOAT-4)."""
    sign = "-" if negative else ""
    if -5 <= exp <= 15:
        if exp >= 0:
            whole = digits[: exp + 1].ljust(exp + 1, "0")
            frac = digits[exp + 1 :] or "0"
            return f"{sign}{whole}.{frac}"
        return f"{sign}0.{'0' * (-exp - 1)}{digits}"
    tail = f".{digits[1:]}" if len(digits) > 1 else ""
    return f"{sign}{digits[0]}{tail}e{'+' if exp > 0 else '-'}{abs(exp)}"


SIGNIFICANDS = ["1", "15", "25", "123", "9999", "1000001", "314159265358979"]


def _floats() -> list[dict[str, Any]]:
    tests = []
    for digits, exp in itertools.product(SIGNIFICANDS, range(-22, 23)):
        k = exp - (len(digits) - 1)  # the power of ten the integer significand is scaled by
        if abs(k) > 22:
            continue
        for negative in (False, True) if digits in ("15", "9999") else (False,):
            literal = f"{'-' if negative else ''}{digits}e{k}"
            expected = _layout(digits, exp, negative)
            tests.append(
                {
                    "id": f"json-layout-{'neg-' if negative else ''}{digits}e{k}".replace(
                        "e-", "e-minus-"
                    ),
                    "comment": f"{literal} has decimal exponent {exp}: {expected}",
                    "rules": [
                        "JSON-FLOAT-1",
                        "JSON-FLOAT-2" if -5 <= exp <= 15 else "JSON-FLOAT-4",
                    ],
                    "flags": ["FloatLayout"],
                    "input": {"text": literal},
                    "expected": _out(expected),
                }
            )
    return tests


INTEGERS = [
    ("0", "0"),
    ("7", "7"),
    ("-7", "-7"),
    ("9007199254740992", "9007199254740992"),
    ("9007199254740993", "9007199254740993"),
    ("-9007199254740993", "-9007199254740993"),
    ("9223372036854775807", "9223372036854775807"),
    ("9223372036854775808", "9223372036854775808"),
    ("-9223372036854775807", "-9223372036854775807"),
    ("18446744073709551614", "18446744073709551614"),
    ("10000000000000000000", "10000000000000000000"),
    ("-10000000000000000000", "-1e+19"),
    ("100000000000000000000", "1e+20"),
    ("-0", "-0.0"),
    ("5.0", "5.0"),
    ("100.00", "100.0"),
    ("-5.0", "-5.0"),
    ("0.0", "0.0"),
    ("0e0", "0.0"),
    ("1E0", "1.0"),
]


def _integers() -> list[dict[str, Any]]:
    return [
        {
            "id": f"json-layout-int-{n:02d}",
            "comment": f"{literal} writes as {expected} (integers fit u64 / i64, else float)",
            "rules": ["JSON-NUM-1"],
            "flags": ["Integer"],
            "input": {"text": f"[{literal}]"},
            "expected": _out(f"[{expected}]"),
        }
        for n, (literal, expected) in enumerate(INTEGERS)
    ]


SHORT = {0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r"}


def _strings() -> list[dict[str, Any]]:
    tests = []
    for code in range(0x20):
        escaped = SHORT.get(code, f"\\u{code:04x}")
        tests.append(
            {
                "id": f"json-layout-control-{code:02x}-escaped",
                "comment": f"U+{code:04X} given as \\u{code:04X} is written {escaped}",
                "rules": ["JSON-STR-1"],
                "flags": ["Escape"],
                "input": {"text": f'"a\\u{code:04X}b"'},
                "expected": _out(f'"a{escaped}b"'),
            }
        )
        tests.append(
            {
                "id": f"json-layout-control-{code:02x}-raw",
                "comment": f"a raw U+{code:04X} inside a string is an error",
                "rules": ["JSON-PARSE-4"],
                "flags": ["Malformed"],
                "input": {"text": f'"a{chr(code)}b"'},
                "expected": ERROR,
            }
        )
    raw = [
        ("slash", '"\\/"', '"/"'),
        ("quote", '"\\u0022"', '"\\""'),
        ("backslash", '"\\u005C"', '"\\\\"'),
        ("del", '"\\u007F"', '"\x7f"'),
        ("ls", '"\\u2028"', '"\u2028"'),
        ("ps", '"\\u2029"', '"\u2029"'),
        ("e-acute", '"\\u00e9"', '"é"'),
        ("cjk", '"\\u65E5"', '"日"'),
        ("pair", '"\\uD83D\\uDE00"', '"😀"'),
        ("raw-emoji", '"😀"', '"😀"'),
        ("letter", '"\\u0041"', '"A"'),
        ("space", '"\\u0020"', '" "'),
    ]
    for name, text, expected in raw:
        tests.append(
            {
                "id": f"json-layout-string-{name}",
                "comment": f"{text} is written {expected} (raw UTF-8, no escaping)",
                "rules": ["JSON-STR-2"],
                "flags": ["Escape"],
                "input": {"text": text},
                "expected": _out(expected),
            }
        )
    for name, text in [
        ("lone-lead", '"\\uD800"'),
        ("lone-trail", '"\\uDC00"'),
        ("lead-lead", '"\\uD800\\uD800"'),
        ("lead-then-letter", '"\\uD83Dx"'),
        ("reversed-pair", '"\\uDE00\\uD83D"'),
        ("bad-escape", '"\\x41"'),
        ("short-hex", '"\\u41"'),
        ("single-quotes", "'a'"),
    ]:
        tests.append(
            {
                "id": f"json-layout-string-{name}-rejected",
                "comment": f"{text} is not a valid JSON string for serde_json",
                "rules": ["JSON-PARSE-3" if "u" in text else "JSON-PARSE-1"],
                "flags": ["Malformed"],
                "input": {"text": text},
                "expected": ERROR,
            }
        )
    return tests


KEYSETS = [
    ["b", "a", "c"],
    ["B", "a", "_", "1"],
    ["é", "e", "z", "E"],
    ["aa", "a", "ab", ""],
    ["日", "~", "ÿ", "Z"],
    ["a\u0000", "a", "a\u0001"],
]


def _objects() -> list[dict[str, Any]]:
    tests = []
    for n, keys in enumerate(KEYSETS):
        ordered = sorted(keys)  # code-point order, as stated by JSON-WRITE-1
        expected = "{" + ",".join(f"{_str(k)}:{i}" for i, k in enumerate(ordered)) + "}"
        values = {k: i for i, k in enumerate(ordered)}
        for m, perm in enumerate(itertools.islice(itertools.permutations(keys), 6)):
            text = "{" + ", ".join(f"{_str(k)}: {values[k]}" for k in perm) + "}"
            tests.append(
                {
                    "id": f"json-layout-keys-{n}-{m}",
                    "comment": "object keys come out sorted by code point, in any input order",
                    "rules": ["JSON-WRITE-1"],
                    "flags": ["KeyOrder"],
                    "input": {"text": text},
                    "expected": _out(expected),
                }
            )
    for n, (text, expected) in enumerate(
        [
            ('{"a":1,"a":2}', '{"a":2}'),
            ('{"a":1,"b":0,"a":3}', '{"a":3,"b":0}'),
            ('{"a":{"x":1},"a":[2]}', '{"a":[2]}'),
            ('{"a":"\\u00e9","\\u0061":5}', '{"a":5}'),
            ('[{"k":1,"k":null}]', '[{"k":null}]'),
        ]
    ):
        tests.append(
            {
                "id": f"json-layout-duplicate-{n}",
                "comment": "duplicate keys: the last occurrence wins (escapes decoded first)",
                "rules": ["JSON-PARSE-5"],
                "flags": ["KeyOrder"],
                "input": {"text": text},
                "expected": _out(expected),
            }
        )
    return tests


def _str(key: str) -> str:
    """A key written as serde_json writes it (only the characters used in KEYSETS)."""
    escaped = key.replace("\u0000", "\\u0000").replace("\u0001", "\\u0001")
    return f'"{escaped}"'


def _nesting() -> list[dict[str, Any]]:
    tests = []
    for depth, ok in [(1, True), (64, True), (126, True), (127, True), (128, False), (200, False)]:
        for kind, (open_, close) in {"array": ("[", "]"), "object": ('{"k":', "}")}.items():
            text = open_ * depth + "0" + close * depth
            tests.append(
                {
                    "id": f"json-layout-depth-{kind}-{depth}",
                    "comment": f"{depth} nested {kind}s {'parse' if ok else 'exceed the limit'}",
                    "rules": ["JSON-PARSE-6"],
                    "flags": ["Integer" if ok else "Malformed"],
                    "input": {"text": text},
                    "expected": _out(text) if ok else ERROR,
                }
            )
    return tests


def _whitespace() -> list[dict[str, Any]]:
    tests = []
    for name, ws in [("space", " "), ("tab", "\t"), ("lf", "\n"), ("cr", "\r")]:
        tests.append(
            {
                "id": f"json-layout-ws-{name}",
                "comment": f"JSON whitespace ({name}) around and inside a value is dropped",
                "rules": ["JSON-WRITE-1"],
                "flags": ["Escape"],
                "input": {"text": f"{ws}[{ws}1{ws},{ws}2{ws}]{ws}"},
                "expected": _out("[1,2]"),
            }
        )
    for name, ws in [
        ("nbsp", "\u00a0"),
        ("ff", "\u000c"),
        ("vt", "\u000b"),
        ("nel", "\u0085"),
        ("ideographic", "\u3000"),
        ("bom-inside", "\ufeff"),
    ]:
        tests.append(
            {
                "id": f"json-layout-ws-{name}-rejected",
                "comment": f"{name} is not JSON whitespace: serde_json refuses it",
                "rules": ["JSON-PARSE-1"],
                "flags": ["Malformed"],
                "input": {"text": f"[1,{ws}2]"},
                "expected": ERROR,
            }
        )
    return tests


def files() -> dict[str, dict[str, Any]]:
    """The generated file."""
    tests = _floats() + _integers() + _strings() + _objects() + _nesting() + _whitespace()
    return {
        "json/layout.json": envelope(
            semantic="json",
            operation="json.to_string",
            title="serde_json parse and compact write: grids over the layout and parse rules",
            header=[
                "Generated by conformance/vectorgen/json_layout.py from the rules in spec/json.md.",
                "Expected strings are stated from each rule, not computed by a JSON library.",
            ],
            source={"name": "serde_json", "version": "1.0.149", "reference": "spec/json.md"},
            notes=NOTES,
            tests=tests,
        )
    }
