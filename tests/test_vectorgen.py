"""The generated vector files are what their generators write (regenerate-and-diff)."""

from __future__ import annotations

from conformance.vectorgen import VECTORS, generated, stale


def test_every_generated_file_is_current() -> None:
    """Each generated file's committed text equals its generator's output (`make vectors`)."""
    assert stale() == []


def test_generated_files_exist_in_the_tree() -> None:
    """Every path a generator names lies inside conformance/vectors/<semantic>/."""
    for name, rel, _text in generated():
        assert (VECTORS / rel).resolve().is_relative_to(VECTORS), (name, rel)
        assert rel.count("/") == 1, (name, rel)
