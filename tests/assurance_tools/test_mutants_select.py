"""The mutation tool: a fresh batch is a window of one seeded ranking, keys that do not move with
lines, and results saved without loss."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
from pathlib import Path

import pytest
from assurance import mutants


def _ranking(pkg: str, seed: int) -> list[str]:
    def key(m: mutants.Mutant) -> bytes:
        return hashlib.sha256(f"{seed}:{m.key}".encode()).digest()

    return [m.id for m in sorted(mutants.generate(pkg), key=key)]


def test_a_rank_window_is_the_slice_of_the_seeded_ranking() -> None:
    """`--first A --sample B` selects ranks A..B (1-based) of the seed's ranking, in rank order."""
    ranking = _ranking("json", 13)
    chosen = [m.id for m in mutants.select("json", 60, 13, (0, 1), first=41)]
    assert chosen == ranking[40:60]
    assert [m.id for m in mutants.select("json", 40, 13, (0, 1))] == ranking[:40]


def test_shards_of_a_window_partition_it() -> None:
    """Two shards of one window are disjoint and together the whole window."""
    whole = [m.id for m in mutants.select("json", 30, 13, (0, 1), first=11)]
    a = [m.id for m in mutants.select("json", 30, 13, (0, 2), first=11)]
    b = [m.id for m in mutants.select("json", 30, 13, (1, 2), first=11)]
    assert sorted(a + b) == sorted(whole)
    assert not set(a) & set(b)


def _save_many(args: tuple[str, int]) -> None:
    results, start = args
    mutants.RESULTS = Path(results)
    for k in range(start, start + 40):
        mutants._save("json", {f"m{k}": {"verdict": "killed"}})


@pytest.mark.parametrize("workers", [2])
def test_concurrent_saves_keep_every_result(tmp_path: Path, workers: int) -> None:
    """Two processes saving results into one file at once lose none of them (the file lock)."""
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(workers) as pool:
        pool.map(_save_many, [(str(tmp_path), 0), (str(tmp_path), 1000)])
    saved = json.loads((tmp_path / "json.json").read_text(encoding="utf-8"))["mutants"]
    assert len(saved) == 80


_SOURCE = """def f(x):
    if x < 1:
        return x + 1
    return x - 1


def g(x):
    return x < 1
"""


def test_a_key_names_the_edit_and_its_function_not_its_line() -> None:
    """A mutant's key is its edit in its enclosing function: lines added above move every id but
    no key, and identical edits in one function are told apart by ``#k``."""
    before = mutants.mutants_of("m.py", _SOURCE)
    after = mutants.mutants_of("m.py", "# a comment\n\n" + _SOURCE)
    assert [m.key for m in before] == [m.key for m in after]
    assert all(a.id != b.id for a, b in zip(before, after, strict=True))
    keys = [m.key for m in before]
    assert len(set(keys)) == len(keys)
    assert "m.py f: x < 1 -> (x <= 1)" in keys
    assert "m.py g: x < 1 -> (x <= 1)" in keys
    assert "m.py f: 1 -> 2" in keys
    assert "m.py f: 1 -> 2 #1" in keys
