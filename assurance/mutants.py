"""``make mutants``: mutation testing of the semantic packages and the JSON layer with cosmic-ray.

cosmic-ray (pinned in the ``dev`` extra) makes the mutants, with its full operator set, and runs
each; this module chooses which, where and with what:

* **where**: a private copy of the tree under ``assurance/.cache/mutants/<pkg>/tree`` (cosmic-ray
  edits the module it mutates in place, so never the work tree), its ``src`` first on
  ``PYTHONPATH``; the copy's sources are byte-compiled with hash-checked ``.pyc`` files.
* **with what**: ``python -m assurance.kill PKG`` (``assurance/kill.py``): the package's vectors
  in-process, then the package's tests that execute the mutated lines (``assurance/covmap.py``).
  The unmutated tree must pass it whole (the baseline); three times its time (at least 60 s) is
  the per-mutant timeout.
* **which**: every mutant has a **key** that names the edit, not its place:
  ``<module>::<qualname> <operator>: <source line with the edited span in ⟦ ⟧>`` (`` #k`` for the
  k-th identical one in that function), so moving lines never changes a key. ``--sample N``
  takes the first N of the package's mutants ranked by SHA-256 of ``seed:key``.

Results (the first verdict of each key and the latest) go to
``assurance/.cache/mutants/results/<pkg>.json`` (ignored by git); ``report`` prints the
first-pass rate per package and the rate after the equivalents listed, with their reasons, in
``assurance/equivalent.toml``.
"""

from __future__ import annotations

import argparse
import compileall
import hashlib
import json
import math
import os
import py_compile
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assurance.mutant_keys import (
    annotation_spans,
    in_annotation,
    keys_of,
    load_equivalents,
    load_written_for,
    ranked,
    split_key,
)

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "mcp_touchstone"
CACHE = ROOT / "assurance" / ".cache" / "mutants"
PRISTINE = Path(".pristine")  # in the tree copy: the unmutated package sources
MARKERS = "not slow and not proof and not bench"


@dataclass(frozen=True)
class Package:
    """What one package's mutants are made of and killed by."""

    paths: tuple[str, ...]  # under src/mcp_touchstone: a folder or a module
    semantics: tuple[str, ...]  # whose vectors run
    tests: tuple[str, ...]  # the test selection (markers MARKERS)
    # Wall-clock bounds: on a shared machine under coverage they fail by load, not by a mutant
    # (a mutant that makes the code hang meets the per-mutant timeout instead).
    deselect: tuple[str, ...] = ()


_VALUES = "tests/test_values.py"
PACKAGES: dict[str, Package] = {
    "scope": Package(
        ("scope",), ("scope",), (_VALUES, "tests/scope", "tests/test_serde_struct.py")
    ),
    "visibility": Package(
        ("visibility",),
        ("visibility",),
        (_VALUES, "tests/visibility"),
        (
            "tests/visibility/test_visibility_template_bounds.py::"
            "test_an_800_kb_template_is_read_and_matched_in_linear_time",
            "tests/visibility/test_visibility_templates.py::test_pathological_templates_stay_fast",
        ),
    ),
    "mrtr": Package(("mrtr",), ("mrtr",), (_VALUES, "tests/mrtr")),
    "json": Package(
        ("serde_json.py", "_json_read.py", "_json_value.py", "_rust.py", "_serde.py"),
        ("json", "scope", "mrtr", "visibility"),
        (_VALUES, "tests/json", "tests/test_rust_semantics.py", "tests/test_serde_struct.py"),
    ),
}


def package_modules(pkg: str, root: Path = ROOT) -> list[str]:
    """The package's modules, relative to ``src/mcp_touchstone`` of ``root``."""
    base = root / "src" / "mcp_touchstone"
    out: list[str] = []
    for p in PACKAGES[pkg].paths:
        out += (
            [str(f.relative_to(base)) for f in (base / p).rglob("*.py")]
            if (base / p).is_dir()
            else [p]
        )
    return sorted(out)


def test_args(pkg: str) -> list[str]:
    """The pytest options every run of the package's tests takes."""
    # The project's own pytest plugin imports the package when pytest loads it, before the
    # coverage map starts: left out, every import-time line is seen and mapped.
    args = ["-p", "no:cacheprovider", "-p", "no:touchstone", "-m", MARKERS]
    for nodeid in PACKAGES[pkg].deselect:
        args += ["--deselect", nodeid]
    return args


def covmap_path(pkg: str, tree: Path) -> Path:
    """Where the tree copy keeps its coverage map."""
    return tree / f".covmap-{pkg}.json"


# ---------------------------------------------------------------------------------------------
# Running


class NotGreenError(Exception):
    """The unmutated package does not pass its own kill command: no mutant can be decided."""


def _tree(pkg: str) -> Path:
    """A fresh private copy of what the kill command reads, under the cache."""
    tree = CACHE / pkg / "tree"
    if tree.exists():
        shutil.rmtree(tree)
    junk = shutil.ignore_patterns(
        "__pycache__", "node_modules", ".cache", ".hypothesis", "build", "target"
    )
    for name in ("src", "tests", "conformance", "spec", "assurance"):
        shutil.copytree(ROOT / name, tree / name, ignore=junk)
    shutil.copy2(ROOT / "pyproject.toml", tree / "pyproject.toml")
    shutil.copytree(tree / "src" / "mcp_touchstone", tree / PRISTINE, ignore=junk)
    compileall.compile_dir(
        tree / "src",
        quiet=1,
        invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH,
    )
    return tree


def _env(tree: Path, **extra: str) -> dict[str, str]:
    env = dict(
        os.environ, PYTHONPATH=f"{tree / 'src'}{os.pathsep}{tree}", HYPOTHESIS_PROFILE="mutants"
    )
    return {**env, **extra}


def _covmap(pkg: str, tree: Path) -> None:
    """Build (or reuse, by the hash of every source and test file) the coverage map."""
    h = hashlib.sha256(" ".join([pkg, *test_args(pkg)]).encode())
    for f in sorted([*(tree / "src").rglob("*.py"), *(tree / "tests").rglob("*.py")]):
        h.update(str(f.relative_to(tree)).encode() + b"\0" + f.read_bytes())
    cached = CACHE / pkg / f"covmap-{h.hexdigest()[:16]}.json"
    if not cached.exists():
        print(f"{pkg}: coverage map of the unmutated tests", flush=True)
        out = tree / ".covmap-unchecked.json"
        env = _env(tree, COVMAP_OUT=str(out), COVMAP_SOURCE=str(tree / "src" / "mcp_touchstone"))
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "assurance.covmap"]
        cmd += [*test_args(pkg), *PACKAGES[pkg].tests]
        rc = subprocess.run(cmd, cwd=tree, env=env, check=False, capture_output=True, text=True)
        if rc.returncode != 0 or not out.exists():
            raise NotGreenError(f"{pkg}: the unmutated tests do not pass:\n{rc.stdout[-2000:]}")
        shutil.copyfile(out, cached)
    shutil.copyfile(cached, covmap_path(pkg, tree))


def _baseline(pkg: str, tree: Path) -> float:
    """Seconds the whole kill command takes unmutated; it must pass."""
    t0 = time.monotonic()
    cmd = [sys.executable, "-m", "assurance.kill", pkg, "--all"]
    rc = subprocess.run(cmd, cwd=tree, env=_env(tree), capture_output=True, text=True, check=False)
    if rc.returncode != 0:
        raise NotGreenError(f"{pkg}: the kill command fails unmutated:\n{rc.stdout[-2000:]}")
    return time.monotonic() - t0


def results_path(pkg: str) -> Path:
    """The package's results file."""
    return CACHE / "results" / f"{pkg}.json"


def load_results(pkg: str) -> dict[str, Any]:
    """The package's results (empty when none)."""
    path = results_path(pkg)
    if not path.exists():
        return {"package": pkg, "runs": [], "mutants": {}}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(pkg: str, sample: int, seed: int, only: list[str], budget: float) -> None:
    """Decide the package's sampled mutants (or ``only`` those keys) not yet decided."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    t0 = time.monotonic()
    tree = _tree(pkg)
    _covmap(pkg, tree)
    base = _baseline(pkg, tree)
    timeout = max(60.0, 3 * base)
    mods = [f"src/mcp_touchstone/{rel}" for rel in package_modules(pkg, tree)]
    config = tree / "cosmic-ray.toml"
    config.write_text(
        "[cosmic-ray]\n"
        f"module-path = {json.dumps(mods)}\n"
        f"timeout = {timeout:.0f}.0\n"
        "excluded-modules = []\n"
        f'test-command = "{sys.executable} -m assurance.kill {pkg}"\n'
        '[cosmic-ray.distributor]\nname = "local"\n',
        encoding="utf-8",
    )
    session = CACHE / pkg / "session.sqlite"
    session.unlink(missing_ok=True)
    exe = str(Path(sys.executable).parent / "cosmic-ray")
    subprocess.run([exe, "init", str(config), str(session)], cwd=tree, env=_env(tree), check=True)
    # Keys and hashes from the copy cosmic-ray mutated, not the work tree (which may move on).
    sources = {
        rel: (tree / PRISTINE / rel).read_text(encoding="utf-8") for rel in package_modules(pkg)
    }
    shas = {rel: _sha(tree / PRISTINE / rel) for rel in sources}
    results = load_results(pkg)
    with use_db(str(session), WorkDB.Mode.open) as db:
        items = list(db.work_items)
        specs = [
            (
                str(Path(m.module_path).relative_to("src/mcp_touchstone")),
                m.operator_name,
                tuple(m.start_pos),
                tuple(m.end_pos),
            )
            for m in (w.mutations[0] for w in items)
        ]
        keys = keys_of(specs, sources)
        notes = {rel: annotation_spans(src) for rel, src in sources.items()}
        unevaluated = {
            k
            for k, (rel, _, a, b) in zip(keys, specs, strict=True)
            if in_annotation(notes[rel], a, b)
        }
        by_key = dict(zip(keys, items, strict=True))
        keys = [k for k in keys if k not in unevaluated]
        if only:
            wanted = [k for k in only if k in by_key]
            for k in set(only) - set(wanted):
                print(f"no such mutant: {k}")
        else:
            decided = {
                k for k, r in results["mutants"].items() if r["sha"] == shas[split_key(k)[0]]
            }
            wanted = [k for k in ranked(keys, seed)[: sample or len(keys)] if k not in decided]
        keep = {by_key[k].job_id for k in wanted}
        db.set_multiple_results(
            [w.job_id for w in items if w.job_id not in keep],
            WorkResult(worker_outcome=WorkerOutcome.SKIPPED),
        )
    print(f"{pkg}: {len(keys)} mutants; running {len(wanted)} (seed {seed}, baseline {base:.0f} s,"
          f" timeout {timeout:.0f} s)", flush=True)  # fmt: skip
    proc = subprocess.Popen(
        [exe, "exec", str(config), str(session)], cwd=tree, env=_env(tree), start_new_session=True
    )
    try:
        proc.wait(timeout=budget or None)
    except subprocess.TimeoutExpired:
        print(f"{pkg}: budget of {budget:.0f} s spent; the rest stays undecided")
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait()
    job_key = {by_key[k].job_id: k for k in wanted}
    with use_db(str(session), WorkDB.Mode.open) as db:
        done = [(job_key[j], r) for j, r in db.results if j in job_key]
    mutants: dict[str, Any] = results["mutants"]
    for key, r in done:
        verdict = _verdict(r)
        old = mutants.get(key)
        sha = shas[split_key(key)[0]]
        first = old["first"] if old is not None and old["sha"] == sha else verdict
        mutants[key] = {"first": first, "last": verdict, "sha": sha, "diff": r.diff or ""}
    seconds = time.monotonic() - t0
    results["total"] = len(keys)
    results["annotations"] = len(unevaluated)
    results["runs"].append({"seed": seed, "sample": sample, "only": len(only), "decided": len(done),
                            "seconds": round(seconds), "timeout": round(timeout)})  # fmt: skip
    path = results_path(pkg)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{pkg}: decided {len(done)} in {seconds:.0f} s", flush=True)


def _verdict(r: Any) -> str:
    if r.worker_outcome != "normal":
        return "incompetent"
    if r.test_outcome == "killed":
        return "timeout" if r.output == "timeout" else "killed"
    return "survived" if r.test_outcome == "survived" else "incompetent"


# ---------------------------------------------------------------------------------------------
# Report


def wilson(k: int, n: int) -> str:
    """The Wilson 95% interval of a rate k/n, in percent."""
    z, p = 1.96, k / n
    mid, half = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    lo, hi = (mid - half) / (1 + z * z / n), (mid + half) / (1 + z * z / n)
    return f"{100 * lo:.1f}-{100 * hi:.1f}%"


def report(pkgs: list[str]) -> str:
    """The first-pass and after-equivalents rates per package, then the open survivors.  A
    sampled mutant listed in ``assurance/written_for.toml`` counts as a first-pass survivor
    whatever its recorded verdict: a test was written for it after it survived."""
    equivalents, written = load_equivalents(), load_written_for()
    head = ["package", "mutants", "annotations (not run)", "decided", "killed first pass",
            "timeouts", "survived", "written for", "equivalent", "first pass (95% interval)",
            "after equivalents", "open survivors"]  # fmt: skip
    rows = ["| " + " | ".join(head) + " |", "| --- |" + " ---: |" * (len(head) - 1)]
    open_: list[str] = []
    for pkg in pkgs:
        res = load_results(pkg)
        shas = {rel: _sha(SRC / rel) for rel in package_modules(pkg)}
        live = {k: r for k, r in res["mutants"].items() if shas.get(split_key(k)[0]) == r["sha"]}
        first = {
            k: "survived" if k in written else r["first"]
            for k, r in live.items()
            if r["first"] != "incompetent"
        }
        verdicts = list(first.values())
        killed, timeouts = verdicts.count("killed"), verdicts.count("timeout")
        survived = verdicts.count("survived")
        late = sum(1 for k in first if k in written)
        # A gap when drawn stays one in its sample's rates, even if its fix made it equivalent.
        eq = sum(
            1 for k, v in first.items() if v == "survived" and k in equivalents and k not in written
        )
        still = [k for k, r in live.items() if r["last"] == "survived" and k not in equivalents]
        open_ += still
        n = len(first)
        rate = (
            f"{100 * (killed + timeouts) / n:.1f}% ({wilson(killed + timeouts, n)})" if n else "-"
        )
        after = f"{100 * (killed + timeouts) / (n - eq):.1f}%" if n - eq else "-"
        cells = [pkg, res.get("total", "-"), res.get("annotations", "-"), n, killed, timeouts]
        cells += [survived, late, eq, rate, after, len(still)]
        rows.append("| " + " | ".join(map(str, cells)) + " |")
    out = "\n".join(rows)
    for pkg in pkgs:
        runs = load_results(pkg)["runs"]
        said = [f"seed {r['seed']} sample {r['sample']}{' (--only)' if r['only'] else ''}: "
                f"{r['decided']} in {r['seconds']} s" for r in runs]  # fmt: skip
        out += f"\n{pkg} runs: " + ("; ".join(said) or "none")
    if open_:
        out += "\n\nSurvivors neither killed since nor listed equivalent:\n" + "\n".join(
            f"- {k}" for k in open_
        )
    return out


def main(argv: list[str] | None = None) -> int:
    """``run`` decides mutants, ``report`` prints the table, ``show`` prints a mutant's diff."""
    ap = argparse.ArgumentParser(prog="python -m assurance.mutants")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--pkg", action="append", choices=sorted(PACKAGES))
    r.add_argument("--sample", type=int, default=40, help="mutants per package (0: all)")
    r.add_argument("--seed", type=int, default=13)
    r.add_argument("--only", action="append", default=[], help="re-decide this key")
    r.add_argument("--budget", type=float, default=0, help="seconds per package (0: none)")
    rep = sub.add_parser("report")
    rep.add_argument("--pkg", action="append", choices=sorted(PACKAGES))
    show = sub.add_parser("show")
    show.add_argument("pkg", choices=sorted(PACKAGES))
    show.add_argument("state", choices=["survived", "timeout", "killed"])
    a = ap.parse_args(argv)
    pkgs = a.pkg or list(PACKAGES)
    if a.cmd == "run":
        failed = []
        for pkg in pkgs:
            try:
                run(pkg, a.sample, a.seed, a.only, a.budget)
            except NotGreenError as exc:
                print(exc, flush=True)
                failed.append(pkg)
        print(report(pkgs))
        return 1 if failed else 0
    if a.cmd == "report":
        print(report(pkgs))
    else:
        for k, res in load_results(a.pkg)["mutants"].items():
            if res["last"] == a.state:
                print(f"== {k}\n{res['diff']}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
