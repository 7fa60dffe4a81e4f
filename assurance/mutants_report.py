"""The mutation report: score per package, the kill matrix, and vector files that kill nothing
the other files don't (``python -m assurance.mutants report``; docs/assurance.md)."""

from __future__ import annotations

import math
from collections import Counter, defaultdict

from assurance.mutants import ROOT, _load, _sha, generate, package_files, vector_files

EQUIVALENT = ROOT / "assurance" / "equivalent.txt"


def equivalents() -> dict[str, str]:
    """Mutant key -> why it is equivalent (``assurance/equivalent.txt``: ``key<TAB>reason``; the
    key is :attr:`assurance.mutants.Mutant.key`, the edit and its enclosing function)."""
    out: dict[str, str] = {}
    if EQUIVALENT.exists():
        for line in EQUIVALENT.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                key, _, reason = line.partition("\t")
                out[key] = reason
    return out


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion ``k`` of ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def report(pkgs: list[str]) -> str:
    """Markdown: per-package counts, then the kill matrix over all the packages' results."""
    eq = equivalents()
    files = vector_files()
    lines = [
        "| package | generated | run | killed (vectors / tests only) | survived | equivalent "
        "| timed out | score | 95% interval | commits | stale |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    kills: dict[str, set[str]] = defaultdict(set)
    survivors: list[str] = []
    every_key: set[str] = set()
    for pkg in pkgs:
        generated = generate(pkg)
        ids = {m.id for m in generated}
        key_of = {m.id: m.key for m in generated}
        every_key |= set(key_of.values())
        shas = {rel: _sha(rel) for rel in package_files(pkg)}
        every_result = _load(pkg)
        # A result counts only for the file it was measured on (same id, same file SHA-256).
        res = {
            k: v
            for k, v in every_result.items()
            if k in ids and v["sha"] == shas.get(k.split(":", 1)[0])
        }
        stale = len(every_result) - len(res)
        c: Counter[str] = Counter()
        for mid, r in res.items():
            verdict = str(r["verdict"])
            if verdict == "survived" and key_of[mid] in eq:
                verdict = "equivalent"
            if verdict == "survived":
                survivors.append(f"{mid}: `{key_of[mid]}`")
            c[verdict] += 1
            if verdict == "killed":
                c[f"by-{r['killed_by']}"] += 1
            for vid in r.get("vectors") or []:  # type: ignore[attr-defined]
                kills[files.get(str(vid), "(harness start-up)")].add(mid)
        decided = c["killed"] + c["survived"] + c["timeout"]
        score = f"{100 * (c['killed'] + c['timeout']) / decided:.1f}%" if decided else "-"
        low, high = wilson(c["killed"] + c["timeout"], decided)
        interval = f"{100 * low:.1f}-{100 * high:.1f}%" if decided else "-"
        commits = ", ".join(sorted({str(r.get("commit") or "-") for r in res.values()}))
        lines.append(
            f"| {pkg} | {len(ids)} | {len(res)} | {c['killed']} ({c['by-vectors']} / "
            f"{c['by-tests']}) | {c['survived']} | {c['equivalent']} | {c['timeout']} | {score} "
            f"| {interval} | {commits} | {stale} |"
        )
    lines += [
        "",
        "Score = (killed + timed out) / (run - equivalent); the interval is Wilson's 95% score"
        " interval of that proportion over the sample. Commits: the HEAD each counted result was"
        " measured at (a result counts only while its file's SHA-256 is unchanged). Stale:"
        " results for a file that has changed since (not counted; a re-run decides them again).",
        "",
    ]
    lines += ["| vector file | mutants killed | killed by no other file |", "| --- | --- | --- |"]
    every = sorted(set(files.values()))
    redundant = []
    for f in every:
        mine = kills.get(f, set())
        others = set().union(*(v for k, v in kills.items() if k != f))
        unique = len(mine - others)
        if mine:
            lines.append(f"| {f} | {len(mine)} | {unique} |")
        if unique == 0:
            redundant.append(f)
    lines += ["", f"Vector files that kill no run mutant the other files don't ({len(redundant)}):"]
    lines.append(", ".join(f"`{f}`" for f in redundant) or "none")
    if survivors:
        lines += ["", "Survivors not yet killed or shown equivalent:", ""]
        lines += [f"- {s}" for s in survivors]
    mine = {k for k in eq if k.split(" ", 1)[0] in _files_of(pkgs)}
    unmatched = sorted(mine - every_key)
    if unmatched:
        lines += ["", f"Equivalents whose edit no longer exists ({len(unmatched)}):", ""]
        lines += [f"- `{k}`" for k in unmatched]
    return "\n".join(lines)


def _files_of(pkgs: list[str]) -> set[str]:
    return {rel for pkg in pkgs for rel in package_files(pkg)}


__all__ = ["equivalents", "report", "wilson"]
