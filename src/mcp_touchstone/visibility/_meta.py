"""Reading tags and declared scopes back out of a component's own ``_meta`` (VIS-META-*)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from mcp_touchstone.serde_json import JSON

TAGS_KEY = "io.turbomcp/tags"
"""The component ``_meta`` key holding its tags (an array of strings)."""

SCOPES_KEY = "io.turbomcp/scopes"
"""The component ``_meta`` key holding the OAuth scopes it declares it requires."""


def _strings_at(meta: Mapping[str, JSON], key: str) -> tuple[str, ...]:
    """The string entries of the array at ``key``, in order, duplicates kept (VIS-META-2).

    Any other shape at ``key`` (absent, string, number, object, bool, null) reads as empty.
    """
    value = meta.get(key)
    if not isinstance(value, list):
        return ()
    return tuple(item for item in value if isinstance(item, str))


def tags_of(meta: Mapping[str, JSON]) -> tuple[str, ...]:
    """The component's tags: the strings of ``meta["io.turbomcp/tags"]`` (VIS-META-2)."""
    return _strings_at(meta, TAGS_KEY)


def declared_scopes_of(meta: Mapping[str, JSON]) -> tuple[str, ...]:
    """The scopes the component declares: the strings of ``meta["io.turbomcp/scopes"]``."""
    return _strings_at(meta, SCOPES_KEY)


def has(meta: Mapping[str, JSON], tag: str) -> bool:
    """Whether the component carries ``tag`` (exact, case-sensitive; VIS-META-3)."""
    return tag in tags_of(meta)


def has_any(meta: Mapping[str, JSON], tags: Iterable[str]) -> bool:
    """Whether the component carries some tag of ``tags``; an empty ``tags`` is ``False``."""
    wanted = frozenset(tags)
    return any(tag in wanted for tag in tags_of(meta))


def has_all(meta: Mapping[str, JSON], tags: Iterable[str]) -> bool:
    """Whether the component carries every tag of ``tags``; an empty ``tags`` is ``True``."""
    present = frozenset(tags_of(meta))
    return all(tag in present for tag in tags)
