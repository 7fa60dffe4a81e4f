"""``proofs/manifest.json``: the property table plus the last run's results and the catches.

The static part (statement, rules, tool, targets, bound, vectors, planted mutant) comes from
:data:`proofs.properties.PROPERTIES`; ``python -m proofs.run --record`` fills ``last_result``
and ``python -m proofs.mutants --record`` fills ``caught``.  ``python -m proofs.manifest``
rewrites the static part and keeps the recorded fields.
"""

from __future__ import annotations

import json
import os
import platform
import time
from pathlib import Path
from typing import Any

from proofs.properties import PROPERTIES

PATH = Path(__file__).resolve().parent / "manifest.json"


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def load() -> dict[str, Any]:
    """The committed manifest (an empty skeleton when there is none)."""
    if PATH.exists():
        data: dict[str, Any] = json.loads(PATH.read_text(encoding="utf-8"))
        return data
    return {"properties": {}}


def static(prop_id: str) -> dict[str, Any]:
    """The static entry of one property, from the registry."""
    prop = next(p for p in PROPERTIES if p.id == prop_id)
    entry: dict[str, Any] = {
        "statement": prop.statement,
        "rules": list(prop.rules),
        "tool": prop.tool,
        "targets": list(prop.targets),
        "bound": prop.bound,
        "check": prop.check,
        "claim": prop.claimed,
        "vectors": list(prop.vectors),
    }
    if prop.mutant is not None:
        entry["mutant"] = {
            "id": prop.mutant.id,
            "file": "src/mcp_touchstone/" + prop.mutant.file,
            "function": prop.mutant.function,
            "bug": prop.mutant.why,
        }
    if prop.canary is not None:
        entry["canary"] = {
            "replaces": prop.canary.replaces,
            "planted": "proofs.canaries." + prop.canary.planted,
            "bug": prop.canary.why,
        }
    if prop.tool == "crosshair":
        entry["expect"] = prop.expect
        entry["budget"] = {
            "max_uninteresting_iterations": prop.budget.iters,
            "per_condition_timeout": prop.budget.cond_s,
            "per_path_timeout": prop.budget.path_s,
        }
    return entry


def build(old: dict[str, Any]) -> dict[str, Any]:
    """The manifest with its static part refreshed and recorded fields kept."""
    props: dict[str, Any] = {}
    for prop in PROPERTIES:
        before = old.get("properties", {}).get(prop.id, {})
        entry = static(prop.id)
        for key in ("last_result", "last_canary", "caught"):
            if key in before:
                entry[key] = before[key]
        props[prop.id] = entry
    out = {k: v for k, v in old.items() if k != "properties"}
    out.setdefault("schema", "touchstone-proofs/1")
    out["tools"] = {"crosshair-tool": "0.0.112", "z3-solver": "5.4.1.0"}
    out["properties"] = props
    return out


def save(data: dict[str, Any]) -> None:
    """Write the manifest canonically (2-space indent, final newline)."""
    PATH.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _machine() -> str:
    return f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores"


def record_run(results: dict[str, dict[str, Any]], total: float) -> None:
    """Store a run's per-property results (and, for a full run, its total time)."""
    data = build(load())
    for key, result in results.items():
        prop_id, _, canary = key.partition(" ")
        data["properties"][prop_id]["last_canary" if canary else "last_result"] = {
            "verdict": result["verdict"],
            "ok": result["ok"],
            "seconds": round(float(result["seconds"]), 2),
            "at": _now(),
        }
    if sum(1 for key in results if " " not in key) == len(PROPERTIES):
        data["last_run"] = {
            "total_seconds": round(total, 1),
            "at": _now(),
            "machine": _machine(),
            "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
        }
    save(data)


def record_catches(catches: dict[str, list[str]], total: float) -> None:
    """Store which properties caught each planted mutant (``mutant id -> property ids``)."""
    data = build(load())
    by_prop: dict[str, list[str]] = {p.id: [] for p in PROPERTIES}
    for mutant_id, caught_by in catches.items():
        for prop_id in caught_by:
            by_prop[prop_id].append(mutant_id)
    for prop_id, mutants in by_prop.items():
        data["properties"][prop_id]["caught"] = sorted(mutants)
    data["last_mutants_run"] = {
        "total_seconds": round(total, 1),
        "at": _now(),
        "machine": _machine(),
    }
    save(data)


if __name__ == "__main__":
    save(build(load()))
