"""The reference's operation table (HARNESS-OPS-*): wiring, and totality on junk input."""

from __future__ import annotations

import ast

import pytest

from mcp_touchstone.harness import V1_OPERATIONS, reference_operations
from mcp_touchstone.harness._operation import PINNED_SECOND_WAVE
from mcp_touchstone.harness._server import answer
from mcp_touchstone.serde_json import JSON

# Additions: HARNESS-JSON-1, HARNESS-MRTR-CLIENT-1, HARNESS-ENTRY-1.
ADDED_OPERATIONS = {"json.to_string", "mrtr.client", "scope.evaluate_entry"}

JUNK: list[JSON] = [None, True, 0, -1.5, "", "x", [], [None], {}, {"unexpected": [1, {"a": None}]}]


def test_table_only_holds_known_operations() -> None:
    """HARNESS-OPS-2, HARNESS-OPS-3: each operation is pinned (v1 or later) or an addition."""
    known = set(V1_OPERATIONS) | set(PINNED_SECOND_WAVE) | ADDED_OPERATIONS
    assert set(reference_operations()) <= known


def test_hosted_match_is_served() -> None:
    """HARNESS-OPS-4: the pinned second-wave operation scope.hosted_match is in the table."""
    assert "scope.hosted_match" in PINNED_SECOND_WAVE
    assert "scope.hosted_match" in reference_operations()


def test_v1_names_are_the_pinned_twelve() -> None:
    """HARNESS-OPS-1: the pinned contract names twelve operations."""
    assert len(V1_OPERATIONS) == len(set(V1_OPERATIONS)) == 12


@pytest.mark.parametrize("name", sorted(reference_operations()))
def test_operations_are_total_on_junk(name: str) -> None:
    """HARNESS-MSG-3: malformed case input is answered with an output object, never raised."""
    op = reference_operations()[name]
    for junk in JUNK:
        out = op(junk)
        assert isinstance(out, dict), (name, junk)


_IMPORTED_ADAPTERS = """
import io, sys
from mcp_touchstone.harness._registry import adapter_modules, reference_operations
from mcp_touchstone.harness._server import serve
serve([line.encode() for line in sys.argv[1:]], io.BytesIO(), reference_operations())
print(sum(f"mcp_touchstone.harness.{m}" in sys.modules for m in adapter_modules()))
"""


@pytest.mark.parametrize(
    ("lines", "imported"),
    [
        ([], "none"),
        (['{"cmd":"start","version":2}'], "none"),
        (['{"cmd":"start","version":1}'], "all"),
    ],
)
def test_adapters_are_imported_once_start_is_answered(lines: list[str], imported: str) -> None:
    """HARNESS-OPS-2: no adapter is imported before ``start`` is answered; once an accepted
    ``start`` is answered, every adapter is (a refused one imports none)."""
    import subprocess
    import sys

    from mcp_touchstone.harness._registry import adapter_modules

    done = subprocess.run(
        [sys.executable, "-c", _IMPORTED_ADAPTERS, *lines],
        capture_output=True,
        text=True,
        check=True,
    )
    want = 0 if imported == "none" else len(adapter_modules())
    assert int(done.stdout) == want, done.stderr


def test_static_table_agrees_with_each_adapter() -> None:
    """HARNESS-OPS-2: the registry's static table names exactly what each adapter serves."""
    import importlib

    from mcp_touchstone.harness._registry import _ADAPTERS, adapter_modules

    served: dict[str, str] = {}
    for module in adapter_modules():
        ops = importlib.import_module(f"mcp_touchstone.harness.{module}").OPERATIONS
        for name in ops:
            assert name not in served, f"{name} served by {served[name]} and {module}"
            served[name] = module
    assert served == dict(_ADAPTERS)


def test_every_adapter_refuses_bad_input_one_way() -> None:
    """HARNESS-MSG-3: no adapter defines its own bad-input exception; they share _input's."""
    import ast
    import importlib
    from pathlib import Path

    from mcp_touchstone.harness._input import BadInputError

    folder = Path(importlib.import_module("mcp_touchstone.harness").__file__ or "").parent
    for path in sorted(folder.glob("_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = [
            node.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef) and node.name.endswith(("InputError", "BadInput"))
        ]
        assert path.name == "_input.py" or not own, f"{path.name} defines {own}"
    assert issubclass(BadInputError, ValueError)


def _is_type_guard_reader(func: ast.FunctionDef) -> bool:
    """A reader that only checks one value's JSON type and returns it: ``if not isinstance(v, T):
    raise ...`` then ``return v``, in at most three statements (an ``v = obj.get(k)`` before)."""
    body = [s for s in func.body if not isinstance(s, ast.Expr)]  # a docstring is no statement
    last = body[-1] if body else None
    if not isinstance(last, ast.Return) or not isinstance(last.value, ast.Name) or len(body) > 3:
        return False
    returned = last.value.id
    for stmt in body[:-1]:
        if isinstance(stmt, ast.If) and all(isinstance(s, ast.Raise) for s in stmt.body):
            checked = {
                arg.id
                for neg in ast.walk(stmt.test)
                if isinstance(neg, ast.UnaryOp) and isinstance(neg.op, ast.Not)
                for call in [neg.operand]
                if isinstance(call, ast.Call)
                and isinstance(call.func, ast.Name)
                and call.func.id == "isinstance"
                for arg in call.args[:1]
                if isinstance(arg, ast.Name)
            }
            if returned in checked:
                return True
    return False


def test_every_adapter_reads_input_with_the_shared_readers() -> None:
    """HARNESS-MSG-3: no adapter writes its own object/string/bool/u64 reader; _input has them."""
    import importlib
    from pathlib import Path

    folder = Path(importlib.import_module("mcp_touchstone.harness").__file__ or "").parent
    found = []
    for path in sorted(folder.glob("_*.py")):
        if path.name == "_input.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [
            f"{path.name}:{node.lineno} {node.name}"
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef) and _is_type_guard_reader(node)
        ]
    assert not found, f"adapters with their own readers (use harness._input's): {found}"


def test_the_shared_readers_keep_each_wording() -> None:
    """HARNESS-MSG-3: the readers name the place in the wording each adapter family has used."""
    from collections.abc import Callable

    from mcp_touchstone.harness._input import EXPECTED, MUST, BadInputError

    cases: list[tuple[Callable[[], object], str]] = [
        (lambda: MUST.object(1, "input"), "input must be an object"),
        (lambda: MUST.field({}, "id", "input"), "input.id is missing"),
        (lambda: EXPECTED.object([], "input.x"), "input.x: expected an object"),
        (lambda: EXPECTED.field({}, "id", "input"), "input: missing field `id`"),
        (lambda: EXPECTED.unsigned(True, "i"), "i: expected a non-negative integer"),
        (lambda: EXPECTED.unsigned(1 << 64, "i"), "i: expected a non-negative integer"),
        (
            lambda: MUST.optional_string(3, "`k`", "a string or null"),
            "`k` must be a string or null",
        ),
        (lambda: MUST.boolean(None, "b"), "b must be a boolean"),
    ]
    for read, message in cases:
        with pytest.raises(BadInputError) as caught:
            read()
        assert str(caught.value) == message
    assert EXPECTED.optional_unsigned(None, "i") is None
    assert EXPECTED.unsigned((1 << 64) - 1, "i") == (1 << 64) - 1
    assert MUST.field({"id": None}, "id", "input") is None


_SCOPE_INPUT: dict[str, JSON] = {
    "scope": {"grants": [{"server_id": "s", "tool_name": "t", "operations": ["invoke"]}]},
    "tool_name": "t",
    "server_id": "s",
    "arguments": {"x": float("nan")},
}

_CHECKED = [
    "mrtr.allows",
    "mrtr.capabilities",
    "mrtr.client",
    "mrtr.input_responses_digest",
    "mrtr.request_binding",
    "mrtr.round",
    "mrtr.state.open",
    "mrtr.state.seal",
    "scope.resolve_capability_grants",
    "scope.resolve_matching_grants",
]


@pytest.mark.parametrize("operation", _CHECKED)
def test_an_input_serde_json_cannot_hold_is_invalid_input(operation: str) -> None:
    """HARNESS-MSG-3: a Python value serde_json could not hold (here a NaN) is answered
    ``invalid_input`` with the JSON layer's message naming the place (the MRTR operations check
    their whole input, the scope operations their arguments)."""
    if operation.startswith("scope."):
        raw, where = _SCOPE_INPUT, "arguments.x"
    else:
        raw, where = {"request": float("nan")}, "input.request"
    out = reference_operations()[operation](raw)
    assert out == {"error": {"kind": "invalid_input", "message": f"{where}: non-finite float nan"}}


_REFUSED_LINES = [
    b"NaN",
    b"Infinity",
    b"1e400",
    b'"\\ud800"',
    b"[" * 130 + b"]" * 130,
    b'{"a":1,}',
    b'"\xff"',
]


@pytest.mark.parametrize("value", _REFUSED_LINES)
def test_a_line_whose_input_is_not_json_is_errored_before_any_operation(value: bytes) -> None:
    """HARNESS-MSG-2: a run line whose input serde_json refuses is ``errored`` by the server's
    line parse; no operation runs."""
    line = b'{"cmd":"run","seq":1,"case":{"operation":"mrtr.round","input":' + value + b"}}"
    response = answer(line, reference_operations())
    assert response is not None
    assert response.get("errored") is True
    assert "seq" not in response
