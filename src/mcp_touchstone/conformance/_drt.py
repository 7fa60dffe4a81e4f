"""``touchstone drt``: differential random testing of an implementation against the reference.

Hypothesis generates inputs for one operation (:mod:`._strategies`); the reference computes the
expected output in-process; the implementation answers over harness protocol v1, one case at a
time on a live subprocess.  On a mismatch Hypothesis shrinks the input *against the live
implementation* (each shrink step is a new question to it), and the minimal case is written as a
candidate vector with ``origin: drt-shrunk``, ready to paste into a vector file (CONF-DRT-1).
"""

from __future__ import annotations

import hashlib
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mcp_touchstone import serde_json
from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone.conformance._compare import outputs_match
from mcp_touchstone.conformance._report import first_difference
from mcp_touchstone.conformance._runner import ProtocolError, _Lines, default_command
from mcp_touchstone.serde_json import JSON

# The rule a candidate vector cites until its author picks the precise one.
_DEFAULT_RULE = {
    "scope": "SCOPE-WIRE-1",
    "mrtr": "MRTR-HARNESS-1",
    "visibility": "VIS-HARN-2",
    "json": "HARNESS-JSON-1",
}
_PREFIX = {"visibility": "vis"}


BATCH = 32
"""Most inputs per Hypothesis example (one write to the implementation)."""


class DrtError(TouchstoneError, RuntimeError):
    """The run could not be made (no strategy, the implementation broke the protocol)."""


class _Session:
    """A live implementation answering one ``run`` at a time."""

    def __init__(self, command: Sequence[str], timeout: float) -> None:
        try:
            self.proc = subprocess.Popen(
                list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE
            )
        except OSError as exc:
            raise DrtError(f"cannot start {command[0]}: {exc.strerror}") from None
        self.timeout = timeout
        self.lines = _Lines(self.proc)
        self.seq = 0
        hello = self._ask({"cmd": "start", "version": 1})
        ops = hello.get("operations") if isinstance(hello, dict) else None
        self.operations = {o for o in ops if isinstance(o, str)} if isinstance(ops, list) else None

    def _ask(self, request: dict[str, JSON]) -> JSON:
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        try:
            self.proc.stdin.write(serde_json.to_string_ordered(request).encode() + b"\n")
            self.proc.stdin.flush()
            line = self._line()
        except OSError as exc:
            raise DrtError(f"the implementation stopped: {exc}") from None
        if not line:
            raise DrtError("the implementation exited")
        try:
            return serde_json.from_str(line.rstrip(b"\n"))
        except serde_json.JsonError as exc:
            return {"errored": True, "message": f"answer is not JSON: {exc}"}

    def _line(self) -> bytes:
        """The next answer line (``b""`` at end of output); a stall past the timeout kills the
        implementation and ends the run."""
        try:
            line = self.lines.next(self.timeout)
        except TimeoutError:
            self.proc.kill()
            raise DrtError(
                f"no answer within {self.timeout:g}s: the implementation was killed"
            ) from None
        return b"" if line is None else line + b"\n"

    def run_batch(self, operation: str, values: Sequence[JSON]) -> list[JSON]:
        """The implementation's outputs for a batch of cases, written in one go and read in
        order (an ``errored``/``skipped`` answer stands in as a non-output that never matches)."""
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        first = self.seq + 1
        lines = []
        for value in values:
            self.seq += 1
            case: dict[str, JSON] = {"operation": operation, "input": value}
            request: dict[str, JSON] = {"cmd": "run", "seq": self.seq, "case": case}
            lines.append(serde_json.to_string_ordered(request).encode() + b"\n")
        try:
            self.proc.stdin.write(b"".join(lines))
            self.proc.stdin.flush()
            answers = [self._line() for _ in values]
        except OSError as exc:
            raise DrtError(f"the implementation stopped: {exc}") from None
        outputs: list[JSON] = []
        for seq, line in enumerate(answers, first):
            if not line:
                raise DrtError("the implementation exited")
            try:
                answer = serde_json.from_str(line.rstrip(b"\n"))
            except serde_json.JsonError as exc:
                answer = {"errored": True, "message": f"answer is not JSON: {exc}"}
            if isinstance(answer, dict) and "output" in answer and answer.get("seq") == seq:
                outputs.append(answer["output"])
            else:
                outputs.append({"<not an output>": answer})
        return outputs

    def close(self) -> None:
        """Send ``stop`` and reap the process (killed if it lingers)."""
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.write(b'{"cmd":"stop"}\n')
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


@dataclass
class DrtResult:
    """What a DRT run found."""

    operation: str
    cases: int = 0
    """Distinct cases generated and answered before the first difference (the search); a
    repeated input is answered from the cache and not counted."""
    shrink_cases: int = 0
    """Cases asked while shrinking."""
    seconds: float = 0.0
    shrink_seconds: float = 0.0
    candidate: dict[str, Any] | None = None
    actual: JSON = None
    where: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def cases_per_second(self) -> float:
        """Generated cases answered per second (the search phase, shrinking excluded)."""
        search = self.seconds - self.shrink_seconds
        return self.cases / search if search > 0 else 0.0


def _without_one(value: JSON) -> list[JSON]:
    """Every value that is ``value`` with one array element or object member removed, at any
    depth, outermost first."""
    out: list[JSON] = []
    if isinstance(value, list):
        out += [value[:i] + value[i + 1 :] for i in range(len(value))]
        for i, item in enumerate(value):
            out += [[*value[:i], sub, *value[i + 1 :]] for sub in _without_one(item)]
    elif isinstance(value, dict):
        out += [{k: v for k, v in value.items() if k != key} for key in value]
        for key, item in value.items():
            out += [{**value, key: sub} for sub in _without_one(item)]
    return out


def _reduce(
    value: JSON,
    expected: JSON,
    actual: JSON,
    ask: Callable[[JSON], tuple[JSON, JSON]],
    result: DrtResult,
    *,
    budget: int = 300,
) -> tuple[JSON, JSON, JSON]:
    """After Hypothesis: drop array elements and object members one at a time, against the live
    implementation, while the difference persists (a greedy pass Hypothesis's choice-sequence
    shrinker can miss, e.g. a passing grant before the failing one)."""
    operation = result.operation
    improved = True
    while improved and budget > 0:
        improved = False
        for smaller in _without_one(value):
            budget -= 1
            result.shrink_cases += 1
            want, got = ask(smaller)
            if not outputs_match(operation, want, got):
                value, expected, actual, improved = smaller, want, got, True
                break
            if budget <= 0:
                break
    return value, expected, actual


def candidate_vector(
    operation: str, value: JSON, expected: JSON, seed: int | None
) -> dict[str, Any]:
    """A vector for a shrunk mismatch, schema-valid, with a stable id from its input."""
    semantic = operation.split(".", maxsplit=1)[0]
    digest = hashlib.sha256(serde_json.to_string(value).encode()).hexdigest()[:10]
    return {
        "id": f"{_PREFIX.get(semantic, semantic)}-drt-{digest}",
        "comment": (
            f"drt-shrunk against a live implementation "
            f"({'derandomized' if seed is None else f'seed {seed}'}); say what it pins"
        ),
        "rules": [_DEFAULT_RULE.get(semantic, "HARNESS-OPS-1")],
        "flags": [],
        "origin": "drt-shrunk",
        "input": value,
        "expected": expected,
    }


def run_drt(
    command: Sequence[str],
    operation: str,
    *,
    examples: int = 1000,
    seed: int | None = None,
    timeout: float = 30.0,
) -> DrtResult:
    """Search ``examples`` inputs of ``operation`` for a difference; shrink the first found."""
    try:
        from hypothesis import HealthCheck, Phase, given, settings
        from hypothesis import seed as hypothesis_seed
        from hypothesis import strategies as st
    except ImportError:  # pragma: no cover - hypothesis ships with the drt extra
        raise DrtError(
            "touchstone drt needs Hypothesis: pip install 'mcp-touchstone[drt]'"
        ) from None
    from mcp_touchstone.conformance._strategies import STRATEGIES

    if operation not in STRATEGIES:
        raise DrtError(f"no input strategy for {operation} (have: {', '.join(sorted(STRATEGIES))})")
    # The reference answers over the wire too, as its own subprocess: the conformance tooling
    # never imports a semantic (tests/test_layering.py).
    reference = _Session(default_command(), timeout)
    session = _Session(command, timeout)
    result = DrtResult(operation)
    for who, s in (("the implementation", session), ("the reference", reference)):
        if s.operations is not None and operation not in s.operations:
            session.close()
            reference.close()
            raise DrtError(f"{who} does not announce {operation}")
    state: dict[str, Any] = {"first_failure": None, "last": None}
    # Answers by input text: a shrink step changes one input of a batch, so only that one is
    # asked again; the reference's answers are cached the same way.
    answers: dict[str, tuple[JSON, JSON]] = {}

    def check(values: list[JSON]) -> None:
        keys = [serde_json.to_string_ordered(v) for v in values]
        fresh = [
            (k, v) for k, v in dict(zip(keys, values, strict=True)).items() if k not in answers
        ]
        if state["first_failure"] is None:
            result.cases += len(fresh)
        else:
            result.shrink_cases += len(fresh)
        if fresh:
            asked = [v for _, v in fresh]
            outputs = session.run_batch(operation, asked)
            wanted = reference.run_batch(operation, asked)
            for (key, _value), want, got in zip(fresh, wanted, outputs, strict=True):
                answers[key] = (want, got)
        failing = [
            (len(key), value, *answers[key])
            for key, value in zip(keys, values, strict=True)
            if not outputs_match(operation, *answers[key])
        ]
        if failing:
            if state["first_failure"] is None:
                state["first_failure"] = time.perf_counter()
            _, value, expected, got = min(failing, key=lambda f: f[0])
            state["last"] = (value, expected, got)
            raise AssertionError("differs")

    def ask(value: JSON) -> tuple[JSON, JSON]:
        return reference.run_batch(operation, [value])[0], session.run_batch(operation, [value])[0]

    # Each Hypothesis example is a batch of up to BATCH inputs sent in one write, so the round
    # trip to the implementation is paid per batch; shrinking first deletes the passing inputs
    # (min_size=1), then minimizes the one left, asking only about inputs not seen before.
    batch = min(BATCH, examples)
    mean = min(6, batch)  # Hypothesis draws lists of about 6 on average for min_size=1.
    test = settings(
        max_examples=max(1, examples // mean),
        deadline=None,
        database=None,
        derandomize=seed is None,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
    )(given(st.lists(STRATEGIES[operation](), min_size=1, max_size=batch))(check))
    if seed is not None:
        test = hypothesis_seed(seed)(test)
    started = time.perf_counter()
    try:
        test()
    except AssertionError:
        pass
    except ProtocolError as exc:
        session.close()
        reference.close()
        raise DrtError(str(exc)) from None
    except BaseException:
        session.close()
        reference.close()
        raise
    finally:
        result.seconds = time.perf_counter() - started
    if state["last"] is not None:
        value, expected, actual = state["last"]
        value, expected, actual = _reduce(value, expected, actual, ask, result)
        result.shrink_seconds = time.perf_counter() - state["first_failure"]
        result.candidate = candidate_vector(operation, value, expected, seed)
        result.actual = actual
        result.where = first_difference(operation, expected, actual)[0]
    session.close()
    reference.close()
    result.seconds = time.perf_counter() - started
    return result
