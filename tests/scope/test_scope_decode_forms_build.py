"""How the decoder's ``record`` form builds its values (SCOPE-SHAPE-2, SCOPE-SHAPE-3).

Every value is made by the class's own ``__init__`` from the decoded fields, so it is what the
constructor gives: a ``__post_init__`` runs, and a field the decoder does not list keeps its
class default.
"""

from __future__ import annotations

from dataclasses import dataclass

from mcp_touchstone.scope._decode import decode_tool_grant
from mcp_touchstone.scope._decode_forms import REQUIRED, record, string, u64
from mcp_touchstone.scope._types import MonetaryAmount, Operation, ToolGrant
from mcp_touchstone.serde_json import JSON


def test_a_decoded_grant_equals_the_constructed_one() -> None:
    """SCOPE-SHAPE-2: a grant decoded from serde's sequence form is a real ``ToolGrant``, equal
    to, hashed and printed as the one its constructor makes, and frozen."""
    value: JSON = [
        "files",
        "read",
        ["invoke"],
        [],
        7,
        {"units": 5, "currency": "USD"},
        None,
        True,
    ]
    got = decode_tool_grant(value)
    expected = ToolGrant(
        "files", "read", (Operation.INVOKE,), (), 7, MonetaryAmount(5, "USD"), None, True
    )
    assert type(got) is ToolGrant
    assert got == expected
    assert repr(got) == repr(expected)
    assert hash(got) == hash(expected)
    try:
        got.tool_name = "x"  # type: ignore[misc]  # a frozen record refuses
    except AttributeError:
        pass
    else:
        raise AssertionError("a decoded ToolGrant accepted an assignment")


@dataclass(frozen=True, slots=True)
class _Checked:
    units: int
    seen: list[int]

    def __post_init__(self) -> None:
        self.seen.append(self.units)


@dataclass(frozen=True, slots=True)
class _Defaulted:
    name: str
    units: int = 9


def test_a_record_with_post_init_or_a_default_left_out_is_constructed() -> None:
    """SCOPE-SHAPE-3: a class with ``__post_init__`` runs it, and a field the decoder does not
    list keeps its class default: both are made by the class's ``__init__``."""
    seen: list[int] = []
    with_seen = record(
        _Checked,
        [("units", u64, REQUIRED), ("seen", lambda v, w: seen, REQUIRED)],
        deny_unknown=True,
    )
    assert with_seen({"units": 3, "seen": None}, "x") == _Checked(3, seen)
    assert seen == [3, 3]
    defaulted = record(_Defaulted, [("name", string, REQUIRED)], deny_unknown=False)
    assert defaulted({"name": "n"}, "x") == _Defaulted("n", 9)
