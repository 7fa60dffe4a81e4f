"""CHANGELOG.md follows Keep a Changelog and agrees with the version pyproject.toml declares."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RELEASE = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", re.MULTILINE)
FRAGMENT = re.compile(r"^\+[a-z0-9-]+\.(added|changed|deprecated|removed|fixed|security)\.md$")


def test_the_latest_release_is_the_declared_version() -> None:
    """The newest release section of CHANGELOG.md names the version in pyproject.toml."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    releases = RELEASE.findall(text)
    assert releases, "CHANGELOG.md has no '## [X.Y.Z] - YYYY-MM-DD' section"
    assert releases[0][0] == declared["version"]
    assert text.index("## [Unreleased]") < text.index(f"## [{releases[0][0]}]")


def test_changelog_fragments_are_named_by_type() -> None:
    """Every fragment in changelog.d/ is ``+<slug>.<type>.md`` with a Keep a Changelog type."""
    names = [p.name for p in (ROOT / "changelog.d").iterdir() if p.name != "README.md"]
    assert [n for n in names if not FRAGMENT.match(n)] == []
