"""The CrossHair gate: run one ``crosshair check`` per target with an explicit budget, parse its
output (its exit code alone is not a safe signal, toolchain.md §1.5), and replay every
counterexample concretely against the real function.

Verdicts: ``confirmed`` (every condition exhausted), ``clean`` (no counterexample within the
budget), ``refuted`` (a counterexample that replays concretely: the property is false of the
code), and failures that are never a pass: ``unknown`` (a counterexample that does not replay,
a wall-clock timeout), ``crash`` (a traceback, rc 2) and ``nothing-checked``.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from proofs.properties import Budget

ROOT = Path(__file__).resolve().parents[1]
CROSSHAIR = str(Path(sys.executable).parent / "crosshair")
ERROR_LINE = re.compile(r":\d+: error: (.*)$")
ENUM_REPR = re.compile(r"<([A-Za-z_][\w.]*): [^>]*>")


@dataclass(frozen=True)
class Outcome:
    """What the gate concluded for one target."""

    verdict: str
    ok: bool
    seconds: float
    detail: str


def _call_text(message: str) -> str | None:
    at = message.find("when calling ")
    if at < 0:
        return None
    call = message[at + len("when calling ") :]
    cut = call.rfind(" (which returns")
    return call[:cut] if cut >= 0 else call


def conditions(fn: Any, tag: str) -> list[str]:
    """The ``pre:`` or ``post:`` lines of ``fn``'s docstring, as Python source."""
    lines = [line.strip() for line in (inspect.getdoc(fn) or "").splitlines()]
    # A lone surrogate in a literal cannot be compiled from text: escape non-ASCII first.
    return [
        line[len(tag) :].strip().encode("unicode_escape").decode("ascii")
        for line in lines
        if line.startswith(tag)
    ]


def replay(target: str, message: str) -> tuple[bool, str]:
    """Re-run a reported counterexample concretely: ``(True, why)`` when a postcondition
    really fails (or the call raises), ``(False, why)`` when everything holds (a false positive
    of CrossHair) or the report cannot be replayed."""
    call_text = _call_text(message)
    if call_text is None:
        return False, f"no call to replay in {message[:120]!r}"
    module_name, _, name = target.rpartition(".")
    module = importlib.import_module(module_name)
    try:
        call = ast.parse(ENUM_REPR.sub(r"\1", call_text), mode="eval").body
        assert isinstance(call, ast.Call)
        assert isinstance(call.func, ast.Name)
        # The target itself (a canary is a copy of a contract under another name, with its
        # own globals): the conditions and the call are evaluated in its namespace.
        fn = getattr(module, name)
        namespace = dict(fn.__globals__)
        args = [eval(compile(ast.Expression(a), "<cex>", "eval"), namespace) for a in call.args]
        kwargs = {
            k.arg: eval(compile(ast.Expression(k.value), "<cex>", "eval"), namespace)
            for k in call.keywords
            if k.arg is not None
        }
    except Exception as exc:
        return False, f"cannot replay {call_text[:120]!r}: {exc!r}"
    bound = inspect.signature(fn).bind(*args, **kwargs)
    env = dict(namespace, **bound.arguments)
    for pre in conditions(fn, "pre:"):
        if not eval(pre, env):
            return False, f"precondition {pre!r} does not hold for {call_text[:120]}"
    try:
        env["__return__"] = fn(*args, **kwargs)
    except Exception as exc:
        return True, f"{call_text[:160]} raises {exc!r}"
    failed = [post for post in conditions(fn, "post:") if not eval(post, env)]
    if failed:
        return True, f"{call_text[:160]} breaks post: {failed[0]}"
    return False, f"every postcondition holds concretely for {call_text[:120]} (false positive)"


def check(target: str, expect: str, budget: Budget) -> Outcome:
    """Run ``crosshair check`` on ``target`` and judge its output."""
    cmd = [
        CROSSHAIR,
        "check",
        target,
        "--report_all",
        "--analysis_kind=PEP316",
        f"--max_uninteresting_iterations={budget.iters}",
        f"--per_condition_timeout={budget.cond_s}",
        f"--per_path_timeout={budget.path_s}",
    ]
    env = dict(os.environ, PYTHONHASHSEED="0")
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            timeout=budget.cond_s * 20 + 60,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return Outcome("unknown", False, time.perf_counter() - start, "wall-clock timeout")
    seconds = time.perf_counter() - start
    out = proc.stdout + proc.stderr
    errors = [m.group(1) for line in out.splitlines() if (m := ERROR_LINE.search(line))]
    confirmed = out.count("Confirmed over all paths.")
    unconfirmed = out.count("Not confirmed.")
    if "Traceback (most recent call last)" in out or proc.returncode == 2:
        return Outcome("crash", False, seconds, out.strip()[-400:])
    if "contain no checkable functions" in out or confirmed + unconfirmed + len(errors) == 0:
        return Outcome("nothing-checked", False, seconds, out.strip()[-400:])
    if errors:
        replays = [replay(target, e) for e in errors]
        real = [why for is_real, why in replays if is_real]
        if real:
            return Outcome("refuted", False, seconds, real[0])
        return Outcome("unknown", False, seconds, replays[0][1])
    if expect == "confirmed" and (unconfirmed or not confirmed):
        return Outcome("unknown", False, seconds, f"{unconfirmed} condition(s) not exhausted")
    verdict = "confirmed" if confirmed and not unconfirmed else "clean"
    return Outcome(verdict, True, seconds, f"confirmed={confirmed} not_confirmed={unconfirmed}")
