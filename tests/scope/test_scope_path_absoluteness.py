"""A path prefix and its candidate must agree on absoluteness, whichever side is absolute."""

from __future__ import annotations

import pytest

from mcp_touchstone.scope._arguments import path_has_prefix


@pytest.mark.parametrize(
    ("candidate", "prefix"),
    [("/a/b", "a"), ("/a", "a"), ("a/b", "/a"), ("a", "/a")],
)
def test_scope_path_4_absolute_and_relative_never_nest(candidate: str, prefix: str) -> None:
    """SCOPE-PATH-4: an absolute path is never under a relative prefix, nor a relative path
    under an absolute one, even when their segments agree."""
    assert not path_has_prefix(candidate, prefix)
    assert path_has_prefix(candidate, candidate)
