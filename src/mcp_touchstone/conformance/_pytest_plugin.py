"""The conformance vectors as pytest items, for SDK authors whose CI is pytest.

Registered through the ``pytest11`` entry point and inert unless asked::

    pytest --touchstone-impl "python -m mysdk.harness" [--touchstone-baseline baseline.json]

collects every vector of an operation the implementation announces in ``start`` as one item,
``touchstone::<semantic>::<vector id>`` (``-k`` also matches the operation), so ``-k``, ``-x``,
``--lf`` and pytest-xdist work as for any test.  Each pytest process (each xdist worker) starts
one harness process at collection, asks it every case it runs, and stops it at the end; a harness
that dies at a case errors that case with its exit status and the end of its stderr and is
started again for the next one.  A failure shows the vector's ``why`` and the first JSON path
where the answer differs, as ``touchstone run`` prints it.  A baseline's ``id`` entries are
strict xfails (a listed vector that passes fails the run, as a stale entry does); its
``operation`` entries are non-strict xfails of that operation's vectors.

With ``--touchstone-impl`` and no test paths on the command line, only the vectors are
collected; name paths to run your own tests beside them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from mcp_touchstone._errors import TouchstoneError

if TYPE_CHECKING:
    from mcp_touchstone.conformance import Result, Vector
    from mcp_touchstone.conformance._baseline import Baseline
    from mcp_touchstone.conformance._worker import Worker

__all__ = ["VectorItem"]

_STASH: pytest.StashKey[_Session] = pytest.StashKey()


def pytest_addoption(parser: pytest.Parser) -> None:
    """The plugin's options (all inert until ``--touchstone-impl`` is given)."""
    group = parser.getgroup("touchstone", "mcp-touchstone conformance vectors")
    group.addoption(
        "--touchstone-impl",
        metavar="COMMAND",
        help="collect the conformance vectors and run them against the harness COMMAND starts",
    )
    group.addoption(
        "--touchstone-baseline",
        metavar="FILE",
        help="baseline of known failures: id entries are strict xfails, operation entries xfails",
    )
    group.addoption(
        "--touchstone-vectors",
        metavar="DIR",
        help="vector tree (default: the vectors this package ships)",
    )
    group.addoption(
        "--touchstone-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="seconds to wait for each answer (default: 30)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Set up the session's state when asked; nothing otherwise."""
    impl = config.getoption("--touchstone-impl")
    if impl is None:
        return
    import shlex

    command = shlex.split(impl)
    if not command:
        raise pytest.UsageError("--touchstone-impl names no command (an unset variable?)")
    config.stash[_STASH] = _Session(config, command)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With ``--touchstone-impl`` and no paths given, collect no test files: only the vectors."""
    if _STASH in config.stash and config.args_source is not pytest.Config.ArgsSource.ARGS:
        return True
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Append the applicable vectors, before ``-k``, ``-m`` and ``--lf`` select among items."""
    state = config.stash.get(_STASH, None)
    if state is not None:
        items.extend(state.collect(session))


def pytest_report_collectionfinish(config: pytest.Config) -> list[str]:
    """One line naming the implementation and what was collected, not applicable included."""
    state = config.stash.get(_STASH, None)
    return [] if state is None else state.summary


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop the harness process this pytest process started."""
    state = config.stash.get(_STASH, None)
    if state is not None:
        state.close()


class _NotPassedError(TouchstoneError):
    """A vector that did not pass; its lines are what ``touchstone run`` prints for it."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


class _Vectors(pytest.Collector):
    """The parent of the vector items (nothing of its own to collect)."""

    def collect(self) -> list[pytest.Item | pytest.Collector]:
        return []


class VectorItem(pytest.Item):
    """One conformance vector, run through the session's harness process."""

    def __init__(self, *, vector: Vector, state: _Session, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.vector = vector
        self.state = state
        self.extra_keyword_matches.update({vector.semantic, vector.operation})

    def runtest(self) -> None:
        """Ask the harness; anything but a pass raises :class:`_NotPassedError`."""
        from mcp_touchstone.conformance import Verdict
        from mcp_touchstone.conformance._report import _explain, first_difference
        from mcp_touchstone.conformance._text import clean

        result = self.state.ask(self.vector)
        if result.verdict is Verdict.PASS:
            return
        v = self.vector
        if result.verdict is Verdict.FAIL:
            path, _, _ = first_difference(v.operation, v.expected, result.answer)
            head = f"differs at {clean(path, 200)}"
        else:
            head = f"{result.verdict.value}: {clean(result.message, 200)}"
        raise _NotPassedError([head, *_explain([result], width=400)])

    def repr_failure(
        self,
        excinfo: pytest.ExceptionInfo[BaseException],
        style: Any = None,
    ) -> str:
        """The vector's lines (why, the first differing path, expected, actual), no traceback."""
        if isinstance(excinfo.value, _NotPassedError):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo, style=style))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        """Where the vector is written, and its name."""
        return Path(self.vector.file), None, f"{self.vector.semantic}::{self.vector.id}"


class _Session:
    """This pytest process's vectors, baseline and (once collection starts it) harness process."""

    def __init__(self, config: pytest.Config, command: list[str]) -> None:
        self.config = config
        self.command = command
        self.timeout = float(config.getoption("--touchstone-timeout"))
        self.summary: list[str] = []
        self.worker: Worker | None = None
        self.started: tuple[dict[str, Any], list[str]] | None = None
        """The first ``start`` answer; a restarted process must answer the same."""
        self.seq = 0

    def collect(self, session: pytest.Session) -> list[VectorItem]:
        """Start the harness, read its ``start``, and make an item per applicable vector."""
        from mcp_touchstone.conformance import ProtocolError

        vectors = self._vectors()
        baseline = self._baseline(vectors)
        try:
            implementation, operations = self._start()
        except ProtocolError as exc:
            raise pytest.UsageError(f"--touchstone-impl {' '.join(self.command)}: {exc}") from None
        announced = set(operations)
        parent = _Vectors.from_parent(session, name="touchstone", nodeid="touchstone")
        items: list[VectorItem] = []
        for v in vectors:
            if v.operation not in announced:
                continue
            item = VectorItem.from_parent(
                parent,
                name=f"{v.semantic}::{v.id}",
                nodeid=f"touchstone::{v.semantic}::{v.id}",
                vector=v,
                state=self,
            )
            if v.id in baseline.ids:
                item.add_marker(pytest.mark.xfail(reason=baseline.ids[v.id], strict=True))
            elif v.operation in baseline.operations:
                reason = baseline.operations[v.operation]
                item.add_marker(pytest.mark.xfail(reason=reason, strict=False))
            items.append(item)
        name = " ".join(str(implementation.get(k, "?")) for k in ("name", "version", "language"))
        self.summary = [
            f"touchstone: {name}: {len(items)} vectors of {len(announced)} announced "
            f"operations collected, {len(vectors) - len(items)} not applicable"
        ]
        return items

    def _vectors(self) -> list[Vector]:
        from mcp_touchstone.conformance import VectorError, default_vectors_dir, load_vectors

        given = self.config.getoption("--touchstone-vectors")
        root = Path(given) if given else default_vectors_dir()
        if root is None:
            raise pytest.UsageError("no vectors installed: pass --touchstone-vectors DIR")
        try:
            return load_vectors(root)
        except VectorError as exc:
            raise pytest.UsageError(f"--touchstone-vectors: {exc}") from None

    def _baseline(self, vectors: list[Vector]) -> Baseline:
        from mcp_touchstone.conformance import _baseline

        path = self.config.getoption("--touchstone-baseline")
        if path is None:
            return _baseline.EMPTY
        try:
            baseline = _baseline.load(Path(path))
            _baseline.check_known(baseline, Path(path), vectors)  # a typo baselines nothing
        except _baseline.BaselineError as exc:
            raise pytest.UsageError(str(exc)) from None
        return baseline

    def _start(self) -> tuple[dict[str, Any], list[str]]:
        from mcp_touchstone.conformance._process import MAX_LINE_BYTES
        from mcp_touchstone.conformance._worker import Worker

        worker = Worker(self.command, MAX_LINE_BYTES)
        self.worker = worker
        worker.send_start()
        implementation, operations = worker.read_start(self.timeout)
        if self.started is None:
            self.started = (implementation, operations)
        return implementation, operations

    def ask(self, vector: Vector) -> Result:
        """One case through the harness process, restarted first if the last one died."""
        from mcp_touchstone.conformance import ProtocolError, Result, Verdict
        from mcp_touchstone.conformance._process import describe_exit, exit_status_of
        from mcp_touchstone.conformance._results import NoAnswerError
        from mcp_touchstone.conformance._worker import _parse, _read_line, _score, request_line

        if self.worker is None:
            try:
                again = self._start()
            except ProtocolError as exc:
                self._retire()
                return Result(vector, Verdict.ERROR, message=f"restarting the harness: {exc}")
            if again != self.started:
                self._retire()
                message = "the restarted implementation answered start differently"
                return Result(vector, Verdict.ERROR, message=message)
        worker = self.worker
        assert worker is not None
        assert worker.proc.stdin is not None
        seq, self.seq = self.seq, self.seq + 1
        try:
            worker.proc.stdin.write(request_line(seq, vector))
            worker.proc.stdin.flush()
        except OSError:
            pass  # It died; reading says how.
        what = f"case {vector.id}"
        try:
            return _score(vector, seq, _parse(_read_line(worker.lines, self.timeout, what), what))
        except NoAnswerError as exc:
            status = exit_status_of(worker.proc) if exc.exited else None
            self._retire()
            tail = worker.tail.text().strip()[-300:]
            note = (
                "the implementation exited before answering this case"
                if exc.exited
                else f"timed out after {self.timeout:g}s waiting for this case; killed"
            )
            if status is not None:
                note += f" ({describe_exit(status)})"
            if tail:
                note += f"; its stderr ends: {tail}"
            return Result(vector, Verdict.ERROR, message=note + "; restarted for the next case")
        except ProtocolError as exc:  # Its answers are out of step: a fresh process next.
            self._retire()
            return Result(vector, Verdict.ERROR, message=f"{exc}; restarted for the next case")

    def _retire(self) -> None:
        """End the current harness process and its process group; the next case starts one."""
        if self.worker is not None:
            self.worker.kill()
            self.worker.proc.wait()
            self.worker = None

    def close(self) -> None:
        """Stop the harness process (``stop``, then its process group is ended)."""
        if self.worker is not None:
            self.worker.stop()
            self.worker = None
