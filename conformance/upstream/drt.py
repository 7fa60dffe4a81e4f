"""Classified DRT of an upstream harness: many generated inputs, every disagreement explained.

Run: ``.venv/bin/python conformance/upstream/drt.py --upstream chio|serde_json --operation OP
[--examples N] [--seed S] [--record]`` after ``make upstream-harnesses``.

``touchstone drt`` stops at the first difference and shrinks it (CONF-DRT-2).  Against an
upstream harness the first differences are the known ones (its baseline's reasons), so this
runs the whole budget instead: ``N`` inputs from the same input decoder ``touchstone drt`` uses
(``mcp_touchstone.conformance._strategies.pool(OP, baseline ids).drawn``, the corpus of OP's
shipped vectors mutated), each decoded from ``random.Random(S).randbytes`` (seeded, so a run is
repeatable), are asked of the reference (``touchstone harness``) and of the upstream harness,
one process each.  Answers are compared under the runner's rules (``outputs_match``); every
disagreement is classified by the harness's own explainer (``bench/chio_peer/check.py``
``explain_all``, ``conformance/upstream/serde_json/check.py`` ``explain``), the same that writes
its baseline.  An unexplained disagreement is printed with its input and both answers (exit 1):
a finding, to be shrunk and classified by hand.  ``--record`` writes the run into ``drt.json``
beside this file (replacing the run with the same upstream and operation), which
``matrix.py`` renders.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from mcp_touchstone.conformance._compare import outputs_match
from mcp_touchstone.conformance._strategies import pool

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from _harness_check import HARNESSES, ask  # noqa: E402 -- beside this file

RECORD = HERE / "drt.json"
DRAWS_PER_CASE = 20
"""Inputs are drawn until ``--examples`` distinct texts are found or this many draws per case
were made (an operation whose mutated corpus is small has fewer distinct inputs)."""
ABOUT = (
    "Each run: N inputs decoded by touchstone drt's input decoder (the operation's shipped"
    " vectors, the harness's baseline left out, mutated) from seeded random bytes, asked of the"
    " reference and of the upstream harness, compared under the runner's rules; every"
    " disagreement classified by the harness's explainer, the one that writes its baseline"
    " (`conformance/upstream/drt.py`). Inputs are drawn until N distinct texts are found"
    " (or 20 N draws were made); `cases` counts the distinct inputs asked, `draws` the draws."
)


def _load(name: str, path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent.parent))  # bench/, for chio's bench_scope_batch import
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", choices=sorted(HARNESSES), required=True)
    parser.add_argument("--operation", required=True)
    parser.add_argument("--examples", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--record", action="store_true", help=f"write the run into {RECORD.name}")
    args = parser.parse_args()
    harness = HARNESSES[args.upstream]
    name, checker_path, binary, baseline = (
        harness.label,
        harness.check,
        harness.binary,
        harness.baseline,
    )
    if not binary.is_file():
        print(f"drt: {name} is not built (make upstream-harnesses)", file=sys.stderr)
        return 2
    checker = _load(f"_check_{args.upstream}", checker_path)
    leave_out = frozenset(e["id"] for e in json.loads(baseline.read_text())["entries"])
    found = pool(args.operation, leave_out)
    if found is None:
        print(f"drt: no shipped vectors seed {args.operation}", file=sys.stderr)
        return 2
    draw = random.Random(args.seed)
    started = time.monotonic()
    by_text: dict[str, Any] = {}
    draws = 0
    while len(by_text) < args.examples and draws < DRAWS_PER_CASE * args.examples:
        draws += 1
        one = found.drawn(draw.randbytes(found.size))
        by_text.setdefault(one.text, one)
    drawn = list(by_text.values())
    texts = list(by_text)
    cases = [(args.operation, text) for text in texts]
    reference = ask([sys.executable, "-m", "mcp_touchstone", "harness"], cases)
    theirs = ask([str(binary)], cases)
    differ = [
        k
        for k, (want, got) in enumerate(zip(reference, theirs, strict=True))
        if not outputs_match(args.operation, want, got)
    ]
    if args.upstream == "chio":
        disagree = [(args.operation, drawn[k].value, reference[k], theirs[k]) for k in differ]
        keys = checker.explain_all(str(binary), disagree)
    else:
        keys = [checker.explain(drawn[k].value, reference[k], theirs[k]) for k in differ]
    classified = Counter(key for key in keys if key is not None)
    findings = [k for k, key in zip(differ, keys, strict=True) if key is None]
    seconds = time.monotonic() - started
    print(
        f"drt {name} {args.operation}: {len(texts)} distinct cases ({draws} draws) in"
        f" {seconds:.1f} s; {len(texts) - len(differ)} agree, {len(differ)} disagree;"
        f" classified {dict(sorted(classified.items()))}; unexplained {len(findings)}"
    )
    for k in findings[:20]:
        print(
            f"FINDING input {drawn[k].text}\n  reference {json.dumps(reference[k])}\n"
            f"  {name} {json.dumps(theirs[k])}"
        )
    if args.record and not findings:
        doc = json.loads(RECORD.read_text()) if RECORD.is_file() else {"runs": [], "classes": {}}
        doc["about"] = ABOUT
        runs = [r for r in doc["runs"] if (r["upstream"], r["operation"]) != (name, args.operation)]
        runs.append(
            {
                "upstream": name,
                "operation": args.operation,
                "seed": args.seed,
                "cases": len(texts),
                "draws": draws,
                "agree": len(texts) - len(differ),
                "disagree": len(differ),
                "classified": dict(sorted(classified.items())),
            }
        )
        doc["runs"] = sorted(runs, key=lambda r: (r["upstream"], r["operation"]))
        for key in classified:
            doc["classes"][key] = checker.REASONS[key]
        doc["classes"] = dict(sorted(doc["classes"].items()))
        RECORD.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
        print(f"drt: recorded in {RECORD.relative_to(ROOT)}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
