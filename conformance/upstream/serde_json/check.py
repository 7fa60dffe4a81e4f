"""Every shipped ``json.*`` vector against serde_json itself, each failure explained.

Run: ``.venv/bin/python conformance/upstream/serde_json/check.py [--write-baseline]``, after
``python conformance/upstream/serde_json/build.py``.  The harness is ``SERDE_JSON_HARNESS`` or
``build/target/release/serde-json-harness`` beside this file.

``touchstone run --impl <harness> --semantic json`` runs the vectors; every failing vector is
explained by :func:`explain` from its input and the two answers, or it is a finding (printed,
exit 1).  The explanations are the two ways Debian's serde_json 1.0.87 (what this build links)
differs from serde_json 1.0.149 (what the vectors record, spec/json.md), each a "Debian crate
version differs" reason (spec/conformance.md, CONF-UPSTREAM-2).  ``--write-baseline`` rewrites
``baseline.json`` from the run (only when every failure is explained); the run with the
baseline must then pass.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from _harness_check import check_main  # noqa: E402 -- the shared check

REASONS = {
    "exponent-plus": (
        "Debian crate version differs: Debian's serde_json 1.0.87 writes an f64 with ryu, whose"
        " exponent has no '+' (1e16), where serde_json 1.0.149, the version the vectors record"
        " (chio.md 4.5), writes it with zmij (1e+16): the string is one byte shorter per"
        " positive exponent"
    ),
    "overflow-fraction": (
        "Debian crate version differs: Debian's serde_json 1.0.87 parse_decimal decides whether"
        " a digit follows the decimal point by exponent == 0, but after parse_long_integer the"
        " exponent starts at the count of overflowed integer digits, so a fraction of exactly"
        " that many digits is refused (invalid number) and an empty fraction is accepted;"
        " serde_json 1.0.149 counts the fraction's digits apart (exponent_after_decimal_point)"
        " and does neither"
    ),
}

_OVERFLOW_FRACTION = re.compile(r"-?([0-9]+)\.([0-9]*)(?:[eE][+-]?[0-9]*)?")


def _kind(answer: Any) -> str | None:
    error = answer.get("error") if isinstance(answer, dict) else None
    return error.get("kind") if isinstance(error, dict) else None


def explain(case_input: Any, expected: Any, actual: Any) -> str | None:
    """The REASONS key that explains ``actual`` where the vector expects ``expected``, or None.

    ``exponent-plus``: both are strings, and the expected one with every ``e+`` written ``e``
    (and its byte count lowered by one per exponent) is the actual one.  ``overflow-fraction``:
    the text is one number whose integer part overflows u64 and is followed by a decimal point;
    either its fraction has exactly as many digits as overflowed (the expected answer is a
    string, the actual one an ``invalid_json`` error) or it has none (the reverse)."""
    if isinstance(expected, dict) and isinstance(actual, dict) and "string" in expected:
        want = expected["string"]
        if isinstance(want, str) and "e+" in want:
            shorter = {
                "string": want.replace("e+", "e"),
                "bytes": expected["bytes"] - want.count("e+"),
            }
            if actual == shorter:
                return "exponent-plus"
    text = case_input.get("text") if isinstance(case_input, dict) else None
    match = _OVERFLOW_FRACTION.fullmatch(text.strip()) if isinstance(text, str) else None
    if match:
        integer, fraction = match.groups()
        significand, overflowed = 0, 0
        for digit in integer:
            if overflowed or significand * 10 + int(digit) > 2**64 - 1:
                overflowed += 1
            else:
                significand = significand * 10 + int(digit)
        refused = isinstance(expected, dict) and "string" in expected
        refused = refused and _kind(actual) == "invalid_json" and overflowed == len(fraction)
        accepted = _kind(expected) == "invalid_json" and isinstance(actual, dict)
        accepted = accepted and "string" in actual and not fraction
        if overflowed and (refused or accepted):
            return "overflow-fraction"
    return None


def explain_failures(failed: list[dict[str, Any]]) -> list[str | None]:
    """Each failing vector's reason key (:func:`explain`), or None (a finding)."""
    vectors = _vectors()
    return [
        explain(vector["input"], vector["expected"], result.get("actual"))
        if (vector := vectors.get(result["id"])) is not None and result["verdict"] == "fail"
        else None
        for result in failed
    ]


def main() -> int:
    return check_main("serde_json", "SERDE_JSON_HARNESS", REASONS, explain_failures)


def _vectors() -> dict[str, Any]:
    """Every shipped json vector by id (input and expected answer)."""
    root = Path(__file__).resolve().parents[2] / "vectors" / "json"
    out = {}
    for path in sorted(root.glob("*.json")):
        for test in json.loads(path.read_text(encoding="utf-8"))["tests"]:
            out[test["id"]] = test
    return out


if __name__ == "__main__":
    sys.exit(main())
