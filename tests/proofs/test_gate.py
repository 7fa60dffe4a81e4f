"""The CrossHair gate is not silently broken: it refutes canaries and fails crashes."""

from __future__ import annotations

import pytest
from proofs.properties import Budget

from proofs import gate


@pytest.mark.proof
def test_gate_refutes_a_false_contract() -> None:
    """A contract false of the real code is reported refuted, with a concrete replay."""
    out = gate.check("proofs.contracts.canary.canary_star_needs_a_character", "clean", Budget())
    assert out.verdict == "refuted"
    assert not out.ok


@pytest.mark.proof
def test_gate_fails_a_missing_target() -> None:
    """A target that does not exist is a crash, never a pass (CrossHair's rc alone would be 1)."""
    out = gate.check("proofs.contracts.canary.no_such_function", "clean", Budget(iters=5, cond_s=2))
    assert out.verdict in ("crash", "nothing-checked")
    assert not out.ok


def test_replay_tells_a_real_counterexample() -> None:
    """The replayer re-runs a reported call concretely and finds the broken postcondition."""
    real, why = gate.replay(
        "proofs.contracts.canary.canary_star_needs_a_character",
        "error: false when calling canary_star_needs_a_character('') (which returns True)",
    )
    assert real, why


def test_replay_tells_a_false_positive() -> None:
    """A reported call whose postconditions all hold concretely is not a failure of the code."""
    real, why = gate.replay(
        "proofs.contracts.canary.canary_star_needs_a_character",
        "error: false when calling canary_star_needs_a_character('a')",
    )
    assert not real
    assert "false positive" in why


def test_contract_conditions_name_only_defined_things() -> None:
    """Every name a ``pre:``/``post:`` line reads is a parameter, ``__return__``, a builtin or a
    module global (an import a linter dropped would make CrossHair check nothing)."""
    import ast
    import builtins
    import importlib
    import inspect

    from proofs.properties import PROPERTIES

    for prop in PROPERTIES:
        if prop.tool != "crosshair":
            continue
        module_name, _, name = prop.check.removeprefix("crosshair:").rpartition(".")
        module = importlib.import_module(module_name)
        fn = getattr(module, name)
        known = set(vars(module)) | set(dir(builtins)) | set(inspect.signature(fn).parameters)
        known.add("__return__")
        for tag in ("pre:", "post:"):
            for cond in gate.conditions(fn, tag):
                source = cond
                tree = ast.parse(source, mode="eval")
                bound = {
                    a.arg for n in ast.walk(tree) if isinstance(n, ast.Lambda) for a in n.args.args
                }
                bound |= {
                    t.id
                    for n in ast.walk(tree)
                    if isinstance(n, ast.comprehension)
                    for t in ast.walk(n.target)
                    if isinstance(t, ast.Name)
                }
                names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
                missing = names - known - bound
                assert not missing, (prop.id, cond, missing)


def test_an_empty_search_is_retried_once_and_then_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """A CrossHair search that checks nothing is retried once at twice the budget, and a second
    empty search still fails the property (never a pass)."""
    from proofs.properties import PROPERTIES

    from proofs import run

    prop = next(p for p in PROPERTIES if p.id == "PROOF-MRTR-BIND")
    budgets: list[Budget] = []

    def empty(target: str, expect: str, budget: Budget) -> gate.Outcome:
        budgets.append(budget)
        return gate.Outcome("nothing-checked", False, 1.0, "Unable to meet precondition.")

    monkeypatch.setattr(gate, "check", empty)
    result = run._crosshair(prop)
    b = prop.budget
    assert budgets == [b, Budget(iters=b.iters * 2, cond_s=b.cond_s * 2, path_s=b.path_s * 2)]
    assert result["ok"] is False
    assert result["verdict"] == "nothing-checked"

    def empty_then_clean(target: str, expect: str, budget: Budget) -> gate.Outcome:
        if budget == prop.budget:
            return gate.Outcome("nothing-checked", False, 1.0, "Unable to meet precondition.")
        return gate.Outcome("clean", True, 2.0, "confirmed=0 not_confirmed=1")

    monkeypatch.setattr(gate, "check", empty_then_clean)
    result = run._crosshair(prop)
    assert result["ok"] is True
    assert result["seconds"] == 3.0
    assert "retried at 2x budget" in str(result["detail"])
