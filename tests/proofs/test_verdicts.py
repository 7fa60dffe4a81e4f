"""The verdict words, the canary machinery and the generated spec lines say what was shown."""

from __future__ import annotations

from pathlib import Path

import pytest
from proofs._plant import planted
from proofs.properties import PROPERTIES
from proofs.run import reaches

from proofs import canaries, enumerate, spec_links

ROOT = Path(__file__).resolve().parents[2]


def test_a_verdict_reaches_only_what_it_shows() -> None:
    """proved > bounded > searched; a failure word reaches nothing."""
    assert reaches("proved", "proved")
    assert reaches("proved", "searched")
    assert reaches("bounded", "bounded")
    assert not reaches("searched", "proved")
    assert not reaches("bounded", "proved")
    assert not reaches("refuted", "searched")
    assert not reaches("unknown", "searched")


def _calls_helper(x: int) -> int:
    return _helper(x)


def _helper(x: int) -> int:
    return x + 1


def test_planted_rebinds_the_name_in_the_check_and_its_helpers() -> None:
    """A planted copy calls the replacement, through the module's own helpers too; the
    original is untouched."""
    copy = planted(_calls_helper, {"_helper": lambda x: x - 1}, __name__)
    assert copy(1) == 0
    assert _calls_helper(1) == 2


def _wrapper(a: int, b: bool) -> bool:
    """A contract over a finite domain.

    pre: a != 2
    post: __return__
    """
    return a < 3 or b


def test_enumeration_checks_every_combination_meeting_the_preconditions() -> None:
    """Every combination is called (those failing a precondition skipped); a broken
    postcondition names its call."""
    assert enumerate.check(_wrapper, {"a": (0, 1, 2), "b": (False, True)}) == 4
    with pytest.raises(AssertionError, match=r"_wrapper\(a=3, b=False\) breaks post"):
        enumerate.check(_wrapper, {"a": (3,), "b": (False,)})


def test_every_canary_is_wired() -> None:
    """Each property's canary rebinds a name its check reads, to a planted function."""
    for prop in PROPERTIES:
        assert prop.canary is not None, prop.id
        check = canaries.planted_check(prop)
        assert prop.canary.replaces in check.__globals__, prop.id


def test_spec_proof_lines_are_generated() -> None:
    """The spec's proof lines are what ``python -m proofs.spec_links`` writes."""
    for path in sorted((ROOT / "spec").glob("*.md")):
        if path.name != "README.md":
            text = path.read_text(encoding="utf-8")
            assert spec_links.rewrite(text) == text, path.name
