"""Values are values: the core's frozen value classes hold read-only mappings, not dicts."""

from __future__ import annotations

import pytest

from mcp_touchstone.mrtr import StatePayload
from mcp_touchstone.serde_json import frozen_object
from mcp_touchstone.visibility import Entry, Identity, RequestContext


def test_frozen_values_hold_read_only_mappings() -> None:
    """StatePayload, Entry, Identity and RequestContext copy their mappings into read-only views."""
    source = {"k": 1}
    payload = StatePayload(answers=source, exp=1, req="r", memos=source)
    entry = Entry("t", meta=source, wire=source)
    identity = Identity.bearer("alice", source)
    context = RequestContext(propagated_meta=source)
    for view in (
        payload.answers,
        payload.memos,
        entry.meta,
        entry.wire,
        identity.claims,
        context.propagated_meta,
    ):
        with pytest.raises(TypeError):
            view["k"] = 2  # type: ignore[index]
        assert view == {"k": 1}
    source["k"] = 3
    assert payload.answers == {"k": 1}
    assert entry.meta == {"k": 1}


def test_frozen_object_keeps_a_view_it_is_given() -> None:
    """frozen_object returns an existing read-only view unchanged and copies a dict."""
    view = frozen_object({"a": None})
    assert frozen_object(view) is view
    assert dict(view) == {"a": None}


# Value classes that are mutable on purpose: per-dispatch bookkeeping, never handed out as values.
_MUTABLE = {"mcp_touchstone.mrtr._context.RoundState", "mcp_touchstone.mrtr._client._Slot"}
# Compared by identity on purpose: a compiled regex has no meaningful equality.
_IDENTITY_EQ = {"mcp_touchstone.scope._regex.RustRegex"}


def _core_dataclasses() -> list[type]:
    import importlib
    import pkgutil

    import mcp_touchstone

    found: list[type] = []
    for info in pkgutil.walk_packages(mcp_touchstone.__path__, "mcp_touchstone."):
        if info.name.split(".")[1] not in {"scope", "visibility", "mrtr"}:
            continue
        module = importlib.import_module(info.name)
        for obj in vars(module).values():
            if (
                isinstance(obj, type)
                and obj.__module__ == info.name
                and "__dataclass_params__" in obj.__dict__
            ):
                found.append(obj)
    return found


def test_core_dataclasses_are_frozen_slotted_values() -> None:
    """Every dataclass of the three semantic cores is frozen, slotted and compared by value, but
    for the named bookkeeping classes and the compiled regex (kills every
    ``frozen=True``/``slots=True``/``eq=False`` flip in their decorators)."""
    classes = _core_dataclasses()
    assert len(classes) >= 70  # the walk found the cores' dataclasses and records
    for cls in classes:
        name = f"{cls.__module__}.{cls.__qualname__}"
        assert "__slots__" in cls.__dict__, name
        params = cls.__dataclass_params__  # type: ignore[attr-defined]
        assert params.frozen is (name not in _MUTABLE), name
        assert params.eq is (name not in _IDENTITY_EQ), name
