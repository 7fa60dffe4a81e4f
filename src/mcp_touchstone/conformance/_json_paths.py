"""Paths into a JSON value, and copy-on-write edits at a path (the DRT mutator's tree moves).

A path is the keys and indexes from the root to a node; an edit copies only the containers
along its path, so a corpus input is never changed in place.
"""

from __future__ import annotations

from collections.abc import Callable

from mcp_touchstone.serde_json import JSON

__all__ = ["Path", "delete", "get", "paths", "update"]

Path = tuple[str | int, ...]


def paths(value: JSON) -> list[Path]:
    """Every node's path, pre-order (the root first)."""
    out: list[Path] = [()]
    _add(value, (), out)
    return out


def _add(node: JSON, path: Path, out: list[Path]) -> None:
    if isinstance(node, dict):
        for key, item in node.items():
            here = (*path, key)
            out.append(here)
            if isinstance(item, dict | list) and item:
                _add(item, here, out)
    elif isinstance(node, list):
        for i, item in enumerate(node):
            here = (*path, i)
            out.append(here)
            if isinstance(item, dict | list) and item:
                _add(item, here, out)


def get(value: JSON, path: Path) -> JSON:
    for step in path:
        value = value[step]  # type: ignore[index]  # path came from paths over this value
    return value


def update(value: JSON, path: Path, change: Callable[[JSON], JSON]) -> JSON:
    """``value`` with the node at ``path`` replaced by ``change(node)``, copying only the
    containers along the path."""
    if not path:
        return change(value)
    step, rest = path[0], path[1:]
    if isinstance(value, dict) and isinstance(step, str):
        out = dict(value)
        out[step] = update(value[step], rest, change)
        return out
    if isinstance(value, list) and isinstance(step, int):
        items = list(value)
        items[step] = update(value[step], rest, change)
        return items
    return value


def delete(value: JSON, path: Path) -> JSON:
    """``value`` without the member or element at ``path`` (the root stays)."""
    if not path:
        return value
    *parent, last = path

    def without(container: JSON) -> JSON:
        if isinstance(container, dict):
            return {k: v for k, v in container.items() if k != last}
        if isinstance(container, list) and isinstance(last, int):
            return container[:last] + container[last + 1 :]
        return container

    return update(value, tuple(parent), without)
