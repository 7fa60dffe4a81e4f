"""``make mutants``: mutation testing of the semantic packages and the JSON layer.

A little over ~400 lines, on purpose: this module is one tool (generate, apply, kill, persist)
whose parts share the ``Mutant`` and ``Overlay`` types; the report and the coverage map, which
stand alone, are their own modules (``mutants_report.py``, ``covmap.py``).

A mutant is one small AST edit of one source file (operators below). It is applied in a private
overlay copy of ``src/mcp_touchstone`` (never in the work tree), put first on ``PYTHONPATH``, and
then killed, in this order, by

1. the conformance vectors of the package's semantic(s), run through the harness subprocess
   exactly as ``touchstone run --semantic <pkg>`` does (every vector file is run, so the kill
   matrix records each file that kills the mutant), and, only if no vector killed it,
2. the package's test subset (``pytest -x``), stopping at the first failure: first only the
   tests that execute the mutated lines (``assurance/covmap.py``, a coverage map of the
   unmutated run), then, if those pass, the whole subset, so a survivor has passed all of it.

Results persist in ``assurance/results/<pkg>.json`` (ignored by git: generated data, kept by CI as
an artifact) keyed by mutant id and the SHA-256 of the mutated file, so a re-run skips every
mutant already decided for an unchanged file (incremental); ``SAMPLE``/``SEED`` pick a seeded
random sample, ``SHARD=i/n`` one slice of it. Mutants shown equivalent are listed in
``assurance/equivalent.txt`` by their ``key`` (the edit and its enclosing function).
"""

from __future__ import annotations

import argparse
import ast
import bisect
import compileall
import fcntl
import hashlib
import json
import os
import py_compile
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from assurance import covmap

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "mcp_touchstone"
RESULTS = ROOT / "assurance" / "results"
CACHE = ROOT / "assurance" / ".cache"  # coverage maps (ignored by git)

# The value-type contract (frozen, slotted dataclasses) of the three cores: first, it is quick.
_VALUES = "tests/test_values.py"
# Package -> (source files, semantics whose vectors run, test paths).
PACKAGES: dict[str, tuple[list[str], list[str], list[str]]] = {
    "scope": (["scope"], ["scope"], [_VALUES, "tests/scope", "tests/test_serde_struct.py"]),
    "visibility": (["visibility"], ["visibility"], [_VALUES, "tests/visibility"]),
    "mrtr": (["mrtr"], ["mrtr"], [_VALUES, "tests/mrtr"]),
    "json": (
        ["serde_json.py", "_json_read.py", "_json_value.py", "_serde.py", "_rust.py"],
        ["json", "scope", "mrtr", "visibility"],
        ["tests/json", "tests/test_rust_semantics.py", "tests/test_serde_struct.py"],
    ),
}

_CMP_SWAP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.LtE, ast.LtE: ast.Lt,
    ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
    ast.In: ast.NotIn, ast.NotIn: ast.In,
}  # fmt: skip
_BIN_SWAP: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd, ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
}  # fmt: skip


@dataclass(frozen=True)
class Mutant:
    """One edit: replace ``src[start:end]`` of ``file`` by ``text``.

    ``id`` names the place (file, line, operator, index) for a reader and keys the results of a
    run; ``key`` names the edit by what it changes, ``file function: source -> replacement``
    (each side cut to 100 characters; `` #k`` for the k-th such edit in that function), so it
    does not move when lines do: equivalents and the sample's ranking use it."""

    id: str
    key: str
    file: str
    line: int
    last: int  # the last line the edit spans
    start: int
    end: int
    text: str
    desc: str


def _offsets(source: str) -> list[int]:
    out, pos = [0], 0
    for line in source.splitlines(keepends=True):
        pos += len(line.encode())
        out.append(pos)
    return out


# Calls whose first argument is type text only: cast("T", x) returns x; TypeVar("T") names a
# type variable for the type checker (its name shows only in its repr).
_CASTS = {"cast", "typing.cast", "TypeVar", "typing.TypeVar"}


def _skipped_ids(tree: ast.Module) -> set[int]:
    """Nodes never mutated: annotations, (attribute) docstrings, f-string parts, TYPE_CHECKING
    blocks, ``__all__``, the type text of ``typing.cast`` and ``TypeVar``: mutating them cannot
    change behaviour (equivalent by construction)."""
    skip: set[int] = set()

    def mark(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.arg | ast.AnnAssign):
            mark(node.annotation)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            mark(node.returns)
        if isinstance(node, ast.JoinedStr):
            mark(node)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            mark(node)  # a docstring, or an attribute's docstring: no effect when run
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            mark(node)
        if isinstance(node, ast.Call) and node.args and ast.unparse(node.func) in _CASTS:
            mark(node.args[0])  # type text: no effect when run
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            mark(node)
    return skip


def _edits(node: ast.AST) -> Iterator[tuple[str, str]]:
    """(replacement source, description) for each mutation of ``node``."""
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            swap = _CMP_SWAP.get(type(op))
            if swap is not None:
                ops = list(node.ops)
                ops[i] = swap()
                new = ast.Compare(left=node.left, ops=ops, comparators=node.comparators)
                yield f"({ast.unparse(new)})", f"{type(op).__name__}->{swap.__name__}"
    elif isinstance(node, ast.BoolOp):
        other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        yield f"({ast.unparse(ast.BoolOp(op=other, values=node.values))})", "and<->or"
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield f"({ast.unparse(node.operand)})", "drop not"
    elif isinstance(node, ast.BinOp):
        swap_b = _BIN_SWAP.get(type(node.op))
        if swap_b is not None:
            new_b = ast.BinOp(left=node.left, op=swap_b(), right=node.right)
            yield f"({ast.unparse(new_b)})", f"{type(node.op).__name__}->{swap_b.__name__}"
    elif isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, bool):
            yield repr(not v), f"{v}->{not v}"
        elif isinstance(v, int):
            yield repr(v + 1), f"{v}->{v + 1}"
        elif isinstance(v, str) and v:
            yield repr("XX" + v), "string changed"
        elif isinstance(v, bytes) and v:
            yield repr(b"XX" + v), "bytes changed"


def _stmt_edits(node: ast.stmt) -> Iterator[tuple[ast.AST, str, str]]:
    """Statement-level mutations: negate a non-comparison condition, return None, break/continue."""
    if isinstance(node, ast.If | ast.While) and not isinstance(node.test, ast.Compare):
        yield node.test, f"(not ({ast.unparse(node.test)}))", "negate condition"
    elif isinstance(node, ast.Return) and node.value is not None:
        if not (isinstance(node.value, ast.Constant) and node.value.value is None):
            yield node, "return None", "return None"
    elif isinstance(node, ast.Break):
        yield node, "continue", "break->continue"
    elif isinstance(node, ast.Continue):
        yield node, "break", "continue->break"


def _enclosing(tree: ast.Module) -> dict[int, str]:
    """Node id -> the qualified name of the function or class around it (``<module>`` at the
    top level)."""
    names: dict[int, str] = {}

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = where
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                inner = child.name if where == "<module>" else f"{where}.{child.name}"
            names[id(child)] = inner
            visit(child, inner)

    visit(tree, "<module>")
    return names


def _short(text: str, limit: int = 100) -> str:
    """Source text for a key, cut to ``limit`` characters (``#k`` tells cut twins apart)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def mutants_of(rel: str, source: str) -> list[Mutant]:
    """Every mutant of one file, in source order; ids are stable for an unchanged file, keys for
    an unchanged function."""
    tree = ast.parse(source)
    where = _enclosing(tree)
    skip = _skipped_ids(tree)
    offs = _offsets(source)
    raw = source.encode()
    found: list[tuple[ast.AST, str, str]] = []
    for node in ast.walk(tree):
        if id(node) in skip or not hasattr(node, "end_col_offset"):
            continue
        if isinstance(node, ast.stmt):
            found.extend(_stmt_edits(node))
        elif isinstance(node, ast.expr):
            found.extend((node, text, desc) for text, desc in _edits(node))
    out: list[Mutant] = []
    seen: dict[tuple[int, str], int] = {}
    same: dict[str, int] = {}
    for node, text, desc in found:
        start = offs[node.lineno - 1] + node.col_offset  # type: ignore[attr-defined]
        end = offs[node.end_lineno - 1] + node.end_col_offset  # type: ignore[attr-defined]
        if raw[start:end].decode() == text:
            continue
        key = (node.lineno, desc)  # type: ignore[attr-defined]
        k = seen[key] = seen.get(key, -1) + 1
        mid = f"{rel}:{node.lineno}:{desc}:{k}"  # type: ignore[attr-defined]
        edit = f"{rel} {where[id(node)]}: {_short(ast.unparse(node))} -> {_short(text)}"
        n = same[edit] = same.get(edit, -1) + 1
        mkey = f"{edit} #{n}" if n else edit
        last = bisect.bisect_right(offs, end - 1)
        out.append(Mutant(mid, mkey, rel, node.lineno, last, start, end, text, desc))  # type: ignore[attr-defined]
    out.sort(key=lambda m: (m.start, m.id))
    return out


def package_files(pkg: str) -> list[str]:
    """Source files (relative to src/mcp_touchstone) mutated for ``pkg``."""
    files: list[str] = []
    for entry in PACKAGES[pkg][0]:
        path = SRC / entry
        if path.is_dir():
            files += sorted(str(p.relative_to(SRC)) for p in path.glob("*.py"))
        else:
            files.append(entry)
    return files


def generate(pkg: str) -> list[Mutant]:
    """Every mutant of the package."""
    out: list[Mutant] = []
    for rel in package_files(pkg):
        out += mutants_of(rel, (SRC / rel).read_text(encoding="utf-8"))
    return out


def _sha(rel: str) -> str:
    return hashlib.sha256((SRC / rel).read_bytes()).hexdigest()[:16]


class Overlay:
    """A private copy of the package tree, first on PYTHONPATH, with one file mutated at a time."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="touchstone-mut-"))
        shutil.copytree(SRC, self.dir / "mcp_touchstone", ignore=shutil.ignore_patterns("*.pyc"))
        # The vectors of the same moment: a merge landing mid-run must not pair new vectors
        # (for operations the snapshot lacks) with the old code.
        shutil.copytree(ROOT / "conformance" / "vectors", self.dir / "vectors")
        # Bytecode once, checked by source hash (not mtime: a same-size edit within one second
        # would reuse a stale mtime-keyed .pyc): each process then compiles only the mutated
        # file, in memory (PYTHONDONTWRITEBYTECODE), instead of the whole package.
        checked = py_compile.PycInvalidationMode.CHECKED_HASH
        compileall.compile_dir(self.dir / "mcp_touchstone", quiet=1, invalidation_mode=checked)
        self.env = dict(
            os.environ,
            PYTHONPATH=str(self.dir),
            PYTHONDONTWRITEBYTECODE="1",
            HYPOTHESIS_PROFILE="mutants",
        )
        self.env.pop("CI", None)

    def apply(self, m: Mutant | None, original: dict[str, bytes]) -> None:
        for rel, data in original.items():
            (self.dir / "mcp_touchstone" / rel).write_bytes(data)
        if m is not None:
            raw = original[m.file]
            mutated = raw[: m.start] + m.text.encode() + raw[m.end :]
            (self.dir / "mcp_touchstone" / m.file).write_bytes(mutated)

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def run_vectors(overlay: Overlay, semantics: list[str], timeout: float) -> tuple[str, list[str]]:
    """Run the vectors via ``touchstone run``; ('pass'|'killed'|'timeout', failing vector ids)."""
    report = overlay.dir / "report.json"
    vectors = str(overlay.dir / "vectors")
    cmd = [sys.executable, "-m", "mcp_touchstone", "run", "--report", str(report),
           "--vectors", vectors, "--timeout", str(timeout)]  # fmt: skip
    for s in semantics:
        cmd += ["--semantic", s]
    report.unlink(missing_ok=True)
    with subprocess.Popen(cmd, env=overlay.env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, cwd=ROOT) as proc:  # fmt: skip
        try:
            proc.wait(timeout=timeout * 2)
        except subprocess.TimeoutExpired:
            # SIGTERM first: the runner then stops the implementation it started in its own
            # session (a SIGKILL would leave that process running, looping on the mutant).
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
            return "timeout", []
    if proc.returncode == 0:
        return "pass", []
    if not report.exists():  # the runner itself failed (e.g. the mutant breaks an import)
        return "killed", ["(harness start-up)"]
    try:
        data = json.loads(report.read_text(encoding="utf-8"))
    except ValueError:  # the run died while writing its report (the mutant broke the runner)
        return "killed", []
    return "killed", sorted(r["id"] for r in data["results"] if r["verdict"] != "pass")


def vector_files() -> dict[str, str]:
    """Vector id -> its file, relative to conformance/vectors."""
    from mcp_touchstone.conformance import load_vectors

    root = ROOT / "conformance" / "vectors"
    return {v.id: str(Path(v.file).relative_to(root)) for v in load_vectors(root)}


def run_tests(
    overlay: Overlay, paths: list[str], timeout: float, plugin_env: dict[str, str] | None = None
) -> tuple[str, str | None]:
    """Tests (paths or node ids), first failure stops them: ('pass'|'killed'|'timeout', the
    first failing node id). Node ids go through an argument file (``@file``): there can be
    thousands. ``plugin_env`` runs them under the coverage-map plugin instead."""
    args = overlay.dir / "pytest-args.txt"
    args.write_text("\n".join(paths) + "\n", encoding="utf-8")
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-rf", "-p", "no:randomly",
           "-p", "no:cacheprovider", "-m", "not slow and not proof and not bench",
           f"@{args}"]  # fmt: skip
    env = overlay.env
    if plugin_env is not None:
        cmd[3:3] = ["-p", "assurance.covmap"]
        env = {**env, **plugin_env, "PYTHONPATH": f"{overlay.dir}{os.pathsep}{ROOT}"}
    try:
        proc = subprocess.run(cmd, env=env, capture_output=True, timeout=timeout,
                              cwd=ROOT, check=False)  # fmt: skip
    except subprocess.TimeoutExpired:
        return "timeout", None
    if proc.returncode == 0:
        return "pass", None
    failed = [ln[7:].split(" - ")[0] for ln in proc.stdout.decode(errors="replace").splitlines()
              if ln.startswith("FAILED ")]  # fmt: skip
    return "killed", (failed[0] if failed else None)


def coverage_map(overlay: Overlay, paths: list[str], timeout: float) -> tuple[covmap.CovMap, float]:
    """Run ``paths`` once, unmutated (green, or the run stops), recording which test executes
    which line; the map and the run's seconds. Cached under ``assurance/.cache`` by the SHA-256
    of every source file and of the package's own test files (with conftest and strategies):
    an edit there, or a new test, rebuilds it. A map that misses a test only orders the work
    less well: a survivor is always decided by the whole subset."""
    h = hashlib.sha256("\0".join(paths).encode())
    roots = [overlay.dir / "mcp_touchstone", ROOT / "tests" / "strategies"]
    roots += [ROOT / p for p in paths] + [ROOT / "tests" / "conftest.py"]
    for root in roots:
        for f in sorted(root.rglob("*.py")) if root.is_dir() else [root]:
            h.update(str(f.relative_to(ROOT if root.is_file() else root)).encode())
            h.update(b"\0" + f.read_bytes())
    cached = CACHE / f"covmap-{h.hexdigest()[:16]}.json"
    seconds = cached.with_suffix(".seconds")
    if cached.exists() and seconds.exists():
        return covmap.load(cached), float(seconds.read_text(encoding="utf-8"))
    t0 = time.monotonic()
    out = overlay.dir / "covmap.json"
    plugin_env = {"COVMAP_OUT": str(out), "COVMAP_SOURCE": str(overlay.dir / "mcp_touchstone")}
    verdict, failed = run_tests(overlay, paths, timeout, plugin_env)
    if verdict != "pass":
        sys.exit(f"the coverage-map run is not green ({verdict} {failed}): fix that first")
    elapsed = time.monotonic() - t0
    CACHE.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(out, cached)
    seconds.write_text(f"{elapsed:.1f}", encoding="utf-8")
    return covmap.load(out), elapsed


def _load(pkg: str) -> dict[str, dict[str, object]]:
    path = RESULTS / f"{pkg}.json"
    if not path.exists():
        return {}
    data: dict[str, dict[str, object]] = json.loads(path.read_text(encoding="utf-8"))["mutants"]
    return data


def _save(pkg: str, update: dict[str, dict[str, object]]) -> None:
    """Merge ``update`` into the results file (re-read first: an ``--only`` run may have written
    it since this run started)."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    # Two shards of one package run side by side (``SHARD=0/2`` and ``1/2``): the read, merge
    # and write are one step under an exclusive lock, so neither loses the other's results.
    with (RESULTS / f".{pkg}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        results = {**_load(pkg), **update}
        body = {"package": pkg, "mutants": dict(sorted(results.items()))}
        tmp = RESULTS / f".{pkg}.json.tmp"
        tmp.write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")
        tmp.replace(RESULTS / f"{pkg}.json")


def select(
    pkg: str, sample: int, seed: int, shard: tuple[int, int], first: int = 1
) -> list[Mutant]:
    """All mutants, or the seeded ranking's ranks ``first``..``sample`` (1-based: a fresh batch
    is the ranks no earlier batch reached); then shard ``i`` of ``n``."""
    every = generate(pkg)
    if 0 < sample < len(every) or first > 1:
        # Ranked by a seeded hash of the key, so a mutant's membership in the sample does not
        # change when other mutants of the package appear or go, or when lines move.
        rank = sorted(every, key=lambda m: hashlib.sha256(f"{seed}:{m.key}".encode()).digest())
        # Run in rank order: a run cut short is still a random subset.
        every = rank[first - 1 : sample if sample > 0 else None]
    i, n = shard
    return [m for k, m in enumerate(every) if k % n == i]


def run(pkg: str, mutants: list[Mutant], budget: float, force: bool = False) -> None:
    """Decide every not-yet-decided mutant in ``mutants`` (all of them when ``force``: after a
    test or vector was added to kill a survivor) until ``budget`` seconds are spent."""
    _, semantics, tests = PACKAGES[pkg]
    results = _load(pkg)
    files = {rel: (SRC / rel).read_bytes() for rel in package_files(pkg)}
    shas = {rel: _sha(rel) for rel in files}
    todo = [m for m in mutants if force or results.get(m.id, {}).get("sha") != shas[m.file]]
    print(f"{pkg}: {len(mutants)} selected, {len(todo)} to run", flush=True)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                          cwd=ROOT, check=False).stdout.strip()  # fmt: skip
    overlay = Overlay()
    cmap: covmap.CovMap | None = None  # built at the first mutant the vectors do not kill
    t_test = 0.0
    try:
        overlay.apply(None, files)
        t0 = time.monotonic()
        base_v, _ = run_vectors(overlay, semantics, 60.0)
        t_vec = time.monotonic() - t0
        if base_v != "pass":
            sys.exit(f"baseline is not green (vectors {base_v}): fix that first")
        print(f"baseline: vectors {t_vec:.1f}s", flush=True)
        start = time.monotonic()
        for k, m in enumerate(todo):
            if time.monotonic() - start > budget:
                print(f"budget of {budget:.0f}s spent: {len(todo) - k} left", flush=True)
                break
            overlay.apply(m, files)
            t0 = time.monotonic()
            verdict, killing = run_vectors(overlay, semantics, max(10.0, 3 * t_vec))
            by, test = "vectors", None
            if verdict == "pass":
                if cmap is None:  # The unmutated subset, once: green, timed, and mapped.
                    overlay.apply(None, files)
                    cmap, t_test = coverage_map(overlay, tests, 900.0)
                    print(f"baseline: tests (coverage map) {t_test:.1f}s", flush=True)
                    overlay.apply(m, files)
                    t0 = time.monotonic()
                by, limit = "tests", 3 * t_test + 30
                chosen = covmap.tests_for(cmap, m.file, m.line, m.last)
                verdict = "pass"
                if chosen:
                    verdict, test = run_tests(overlay, chosen, limit)
                if verdict == "pass":  # The whole subset decides a survivor.
                    verdict, test = run_tests(overlay, tests, limit)
                verdict = "survived" if verdict == "pass" else verdict
            results[m.id] = {"sha": shas[m.file], "key": m.key, "line": m.line, "desc": m.desc,
                             "replacement": m.text[:120], "verdict": verdict,
                             "killed_by": by if verdict == "killed" else None,
                             "vectors": killing, "test": test, "commit": head,
                             "seconds": round(time.monotonic() - t0, 1)}  # fmt: skip
            print(f"[{k + 1}/{len(todo)}] {m.id}: {verdict} {by} {len(killing)} {test or ''}",
                  flush=True)  # fmt: skip
            _save(pkg, {m.id: results[m.id]})
    finally:
        overlay.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m assurance.mutants")
    p.add_argument("command", choices=["run", "list", "report"])
    p.add_argument("--pkg", action="append", choices=sorted(PACKAGES))
    p.add_argument("--sample", type=int, default=int(os.environ.get("SAMPLE", "0")))
    p.add_argument("--seed", type=int, default=int(os.environ.get("SEED", "13")))
    p.add_argument("--shard", default=os.environ.get("SHARD", "0/1"))
    p.add_argument("--first", type=int, default=int(os.environ.get("FIRST", "1")),
                   help="start at this rank of the seeded ranking (a fresh batch)")  # fmt: skip
    p.add_argument("--budget", type=float, default=float(os.environ.get("BUDGET", "3600")))
    p.add_argument("--only", action="append", help="re-run exactly this mutant id (repeatable)")
    p.add_argument("--keys", action="store_true", help="list: print each mutant's id and key")
    args = p.parse_args(argv)
    pkgs = args.pkg or sorted(PACKAGES)
    i, n = (int(x) for x in args.shard.split("/"))
    if args.command == "list":
        for pkg in pkgs:
            generated = generate(pkg)
            print(f"{pkg}: {len(generated)} mutants")
            if args.keys:
                for m in generated:
                    print(f"{m.id}\t{m.key}")
        return 0
    if args.command == "report":
        from assurance.mutants_report import report

        print(report(pkgs))
        return 0
    for pkg in pkgs:
        if args.only:
            chosen = [m for m in generate(pkg) if m.id in args.only]
            run(pkg, chosen, args.budget, force=True)
        else:
            run(pkg, select(pkg, args.sample, args.seed, (i, n), args.first), args.budget)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
