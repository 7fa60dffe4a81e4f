"""The mutation tool's bookkeeping: keys that name the edit and not its line, a seeded sample
that does not move when other code does, the annotations left out, and an equivalents list
whose every entry still names a mutant cosmic-ray makes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from assurance import mutant_keys as mutants

_SOURCE = """from __future__ import annotations


def f(x: int | None) -> int:
    if x < 1:
        return x + 1
    return x + 1


class C:
    def g(self, x: int) -> bool:
        return x < 1
"""


def _keys(source: str, tmp_path: Path) -> list[str]:
    path = tmp_path / "m.py"
    path.write_text(source, encoding="utf-8")
    specs = [("m.py", op, s, e) for op, s, e in mutants.enumerate_mutants(path)]
    return mutants.keys_of(specs, {"m.py": source})


def test_a_key_names_the_edit_and_its_function_not_its_line(tmp_path: Path) -> None:
    """Lines added above move every mutant but change no key; identical edits in one function
    are told apart by ``#k``, and a method's key carries its class."""
    before = _keys(_SOURCE, tmp_path)
    after = _keys(_SOURCE.replace("\n\n\ndef f", "\n\nX = 1\n\n\ndef f"), tmp_path)
    assert set(before) <= set(after)
    assert len(set(before)) == len(before)
    add_sub = "m.py::f core/ReplaceBinaryOperator_Add_Sub: return x ⟦+⟧ 1"
    assert add_sub in before
    assert f"{add_sub} #2" in before
    assert "m.py::C.g core/ReplaceComparisonOperator_Lt_LtE: return x ⟦<⟧ 1" in before


def test_the_sample_is_a_prefix_of_one_seeded_ranking_of_keys(tmp_path: Path) -> None:
    """A mutant's rank depends on its key and the seed only: new mutants elsewhere never
    reorder the others, and another seed draws another sample."""
    keys = _keys(_SOURCE, tmp_path)
    more = [*keys, "m.py::h core/NumberReplacer: y = ⟦2⟧"]
    assert [k for k in mutants.ranked(more, 13) if k in keys] == mutants.ranked(keys, 13)
    assert mutants.ranked(keys, 13) != mutants.ranked(keys, 14)


def test_only_annotations_python_never_evaluates_are_left_out(tmp_path: Path) -> None:
    """Under ``from __future__ import annotations`` a mutant inside a parameter or return
    annotation is never run; without it, or where pydantic reads annotations, it is."""
    spans = mutants.annotation_spans(_SOURCE)
    path = tmp_path / "m.py"
    path.write_text(_SOURCE, encoding="utf-8")
    inside = [
        (op, s, e)
        for op, s, e in mutants.enumerate_mutants(path)
        if mutants.in_annotation(spans, s, e)
    ]
    assert inside
    assert all(s[0] in (4, 11) for _, s, _ in inside)
    assert all("BitOr" in op for op, _, _ in inside)
    assert mutants.annotation_spans(_SOURCE.replace("from __future__ import annotations", "")) == []
    assert mutants.annotation_spans(_SOURCE + "\nimport pydantic\n") == []


EQUIVALENTS = sorted(mutants.load_equivalents().items())
WRITTEN_FOR = sorted(mutants.load_written_for().items())


def test_every_equivalent_has_a_reason() -> None:
    """The list parses, and no entry lacks its one-line reason (``load_equivalents`` raises)."""
    assert all(why.strip() and "\n" not in why.strip() for _, why in EQUIVALENTS)


def test_every_survivor_written_for_names_its_tests_and_the_doc_lists_them() -> None:
    """The written-for list parses; every test file an entry names exists, and the survivors
    table of ``docs/assurance.md`` names it too."""
    assert WRITTEN_FOR
    doc = (mutants.ROOT / "docs" / "assurance.md").read_text(encoding="utf-8")
    for key, test in WRITTEN_FOR:
        paths = re.findall(r"tests/[\w/]+\.py", test)
        assert paths, f"{key}: names no test file"
        for path in paths:
            assert (mutants.ROOT / path).is_file(), f"{key}: no such test {path}"
            assert path.rsplit("/", 1)[1] in doc, f"{key}: {path} is not in docs/assurance.md"


_KEYED = [key for key, _ in EQUIVALENTS + WRITTEN_FOR]


@pytest.mark.parametrize("key", _KEYED, ids=[k[:60] for k in _KEYED])
def test_every_listed_key_names_a_mutant_cosmic_ray_makes(key: str) -> None:
    """A stale entry of either list fails: its module, function, operator and marked source
    text must still name one mutant of the code as it is."""
    rel, qual, op, _ = mutants.split_key(key)
    path = mutants.SRC / rel
    assert path.is_file(), f"{rel}: no such module"
    source = path.read_text(encoding="utf-8")
    assert qual == "<module>" or qual in {q for _, _, q in mutants.definitions(source)}, (
        f"{qual} is gone"
    )
    specs = [(rel, o, s, e) for o, s, e in mutants.enumerate_mutants(path, op)]
    assert key in mutants.keys_of(specs, {rel: source}), f"no such mutant now: {key}"


_SIGNATURE = '''def f(
    a: int,
    *,
    b: int = 0,
) -> int:
    """Doc."""
    c = a + b
    return c
'''


def test_a_signature_mutant_is_run_by_the_tests_that_call_the_function() -> None:
    """A mutated signature line after the ``def`` line runs in no test, so the kill command
    widens it to the function's first statement (past the docstring); body lines stay."""
    from assurance.kill import _past_signature

    assert _past_signature(_SIGNATURE, 3, 3) == 7
    assert _past_signature(_SIGNATURE, 1, 1) == 1
    assert _past_signature(_SIGNATURE, 8, 8) == 8
