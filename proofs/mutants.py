"""``python -m proofs.mutants``: plant each property's bug in a temporary copy of the source
tree and check that the properties fail (``make proofs-mutants``).

For every mutant the copy of ``src/`` gets one textual replacement (``old`` must occur exactly
once), and ``python -m proofs.run`` checks, against the copy, the mutant's own property and
every property whose targets include the mutated function.  A property *caught* the mutant
when its check fails for a reason in the code (a CrossHair counterexample that replays
concretely, a Z3 tie or witness vector that disagrees), never for a timeout or an unknown.
The working tree is never touched.  ``--record`` writes the catches into the manifest.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from proofs.properties import PROPERTIES, Mutant, Prop

ROOT = Path(__file__).resolve().parents[1]


def probes(mutant: Mutant, owner: Prop) -> list[str]:
    """The properties run against ``mutant``: its owner and all that target its function."""
    return [p.id for p in PROPERTIES if mutant.function in p.targets or p is owner]


def owners() -> list[Prop]:
    """The properties that own a planted mutant."""
    return [p for p in PROPERTIES if p.mutant is not None]


def plant(mutant: Mutant, into: Path) -> Path:
    """Copy ``src/`` into ``into`` and apply ``mutant``; return the copied ``src``."""
    src = into / "src"
    shutil.copytree(ROOT / "src", src, ignore=shutil.ignore_patterns("__pycache__"))
    path = src / "mcp_touchstone" / mutant.file
    text = path.read_text(encoding="utf-8")
    if text.count(mutant.old) != 1:
        raise RuntimeError(
            f"{mutant.id}: the text to replace occurs {text.count(mutant.old)} times"
        )
    path.write_text(text.replace(mutant.old, mutant.new), encoding="utf-8")
    return src


def planted_env(src: Path) -> dict[str, str]:
    """The environment that makes ``mcp_touchstone`` import from a planted copy ``src``."""
    return dict(
        os.environ,
        PYTHONPATH=f"{src}{os.pathsep}{ROOT}",
        PYTHONDONTWRITEBYTECODE="1",
        PYTHONHASHSEED="0",
    )


def verdicts_against(src: Path, ids: list[str], out: Path) -> dict[str, str]:
    """Run the properties ``ids`` (no canaries) against the planted copy ``src``; their
    verdicts by id (an empty mapping when the run wrote nothing)."""
    cmd = [
        sys.executable,
        "-m",
        "proofs.run",
        "--jobs",
        "1",
        "--no-canaries",
        "--json",
        str(out),
        "--only",
        ",".join(ids),
    ]
    env = planted_env(src)
    subprocess.run(
        cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800, check=False
    )
    results = json.loads(out.read_text())["results"] if out.exists() else {}
    return {pid: str(r["verdict"]) for pid, r in results.items()}


def run_mutant(owner: Prop) -> tuple[str, list[str], dict[str, str], float]:
    """Plant ``owner``'s mutant, run its probes; ``(mutant id, catchers, verdicts, seconds)``."""
    mutant = owner.mutant
    assert mutant is not None
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix=f"mutant-{mutant.id}-") as tmp:
        src = plant(mutant, Path(tmp))
        verdicts = verdicts_against(src, probes(mutant, owner), Path(tmp) / "results.json")
    caught = sorted(pid for pid, v in verdicts.items() if v == "refuted")
    return mutant.id, caught, verdicts, time.perf_counter() - start


def main(argv: list[str]) -> int:
    """Run the mutants; exit 1 when some property catches none of its planted bugs."""
    parser = argparse.ArgumentParser(prog="python -m proofs.mutants")
    parser.add_argument("--only", default="", help="property ids whose mutants to run")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args(argv)
    wanted = {x for x in args.only.split(",") if x}
    chosen = [p for p in owners() if not wanted or p.id in wanted]
    start = time.perf_counter()
    catches: dict[str, list[str]] = {}
    with cf.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for mutant_id, caught, verdicts, seconds in pool.map(run_mutant, chosen):
            catches[mutant_id] = caught
            print(
                f"{mutant_id}: caught by {', '.join(caught) or 'NOTHING'} ({seconds:.1f}s) "
                f"{verdicts}",
                flush=True,
            )
    total = time.perf_counter() - start
    missed = [p.id for p in chosen if p.mutant and p.id not in catches.get(p.mutant.id, [])]
    print(
        f"mutants: {len(chosen) - len(missed)} of {len(chosen)} caught by their property "
        f"in {total:.1f}s" + (f"; NOT caught: {', '.join(missed)}" if missed else "")
    )
    if args.record:
        from proofs import manifest

        if wanted:  # keep the recorded catches of the mutants not re-run now
            old: dict[str, list[str]] = {}
            for prop_id, entry in manifest.load().get("properties", {}).items():
                for m in entry.get("caught", []):
                    old.setdefault(m, []).append(prop_id)
            catches = {**old, **catches}
        manifest.record_catches(catches, total)
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
