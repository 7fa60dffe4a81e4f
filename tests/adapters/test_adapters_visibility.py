"""protect() and TouchstoneMiddleware on real SDK servers: hidden == nonexistent (ADAPT-VIS-*)."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from tests.adapters import leak_matrix
from tests.adapters._drive import (
    LIST_OF,
    call_for,
    http_exchange,
    listed,
    memory_exchange,
)
from tests.adapters._servers import HIDDEN, SUBJECTS, Subject

PROTECTED = [s for s in SUBJECTS if s.mode == "protected"]
MIDDLEWARE_ONLY = [s for s in SUBJECTS if s.mode == "middleware"]
LEAKY = [s for s in SUBJECTS if s.mode in ("plain", "naive", "authmw")]
FAST_COLUMNS = {  # one transport/era per kind in the fast suite; `make slow` runs all of them
    "tool": ("http", "modern"),
    "prompt": ("memory", "legacy"),
    "resource": ("http", "legacy"),
    "template": ("memory", "modern"),
}


def _run(check: Any, *args: Any) -> leak_matrix.Cell:
    result: leak_matrix.Cell = anyio.run(check, *args)
    return result


@pytest.mark.parametrize("subject", PROTECTED + MIDDLEWARE_ONLY, ids=lambda s: s.label)
@pytest.mark.parametrize("kind", sorted(FAST_COLUMNS))
def test_hidden_answers_exactly_as_nonexistent(subject: Subject, kind: str) -> None:
    """ADAPT-VIS-1, ADAPT-VIS-3: a hidden component is unlisted and its call answers as the
    SDK's own not-found, byte for byte over HTTP (status included)."""
    transport, era = FAST_COLUMNS[kind]
    cell = _run(leak_matrix.check, subject, kind, transport, era)
    assert cell.holds, cell.why


@pytest.mark.slow
@pytest.mark.parametrize("subject", PROTECTED + MIDDLEWARE_ONLY, ids=lambda s: s.label)
@pytest.mark.parametrize("kind", leak_matrix.KINDS)
@pytest.mark.parametrize(("transport", "era"), leak_matrix.COLUMNS)
def test_hidden_answers_exactly_as_nonexistent_everywhere(
    subject: Subject, kind: str, transport: str, era: str
) -> None:
    """ADAPT-VIS-1, ADAPT-VIS-3 on every transport and era."""
    cell = _run(leak_matrix.check, subject, kind, transport, era)
    assert cell.holds, cell.why


@pytest.mark.parametrize("subject", PROTECTED, ids=lambda s: s.sdk)
def test_header_validation_oracle_closed(subject: Subject) -> None:
    """ADAPT-VIS-5: a hidden tool called without its ``Mcp-Param-*`` header answers as a
    nonexistent one, not with the header error that validation before middleware gives."""
    cell = _run(leak_matrix.header_check, subject)
    assert cell.holds, cell.why


@pytest.mark.parametrize("subject", MIDDLEWARE_ONLY, ids=lambda s: s.label)
def test_without_install_the_header_oracle_stays_open(subject: Subject) -> None:
    """ADAPT-FMCP-1: the header check runs before any middleware; only install() closes it."""
    assert not _run(leak_matrix.header_check, subject).holds


@pytest.mark.parametrize("subject", LEAKY, ids=lambda s: s.label)
def test_the_matrix_tells_a_leak(subject: Subject) -> None:
    """The check is not vacuous: an unprotected or hand-protected server fails it."""
    cell = _run(leak_matrix.check, subject, "tool", "http", "modern")
    assert not cell.holds


@pytest.mark.parametrize("subject", PROTECTED, ids=lambda s: s.sdk)
def test_privileged_caller_sees_and_reaches_everything(subject: Subject) -> None:
    """ADAPT-VIS-1: root, who holds ``admin``, has the privileged components listed and served."""
    calls: list[tuple[str, dict[str, Any]]] = [(LIST_OF[k][0], {}) for k in leak_matrix.KINDS]
    calls.append(call_for("tool", HIDDEN["tool"]))
    answers = anyio.run(http_exchange, subject.server(), "modern", "root", calls)
    assert HIDDEN["tool"] in listed(answers[0], "tool")
    assert HIDDEN["prompt"] in listed(answers[1], "prompt")
    assert HIDDEN["resource"] in listed(answers[2], "resource")
    assert "vault://{id}" in listed(answers[3], "template")
    status, body = answers[4]
    assert status == 200
    assert "deleted x in eu" in body.decode()


@pytest.mark.parametrize("subject", PROTECTED, ids=lambda s: s.sdk)
def test_filtered_lists_are_private(subject: Subject) -> None:
    """ADAPT-VIS-4: a caller-filtered list never goes out with a public cache scope."""
    answers = anyio.run(http_exchange, subject.server(), "modern", "alice", [("tools/list", {})])
    result = json.loads(answers[0][1])["result"]
    assert result.get("cacheScope", "private") == "private"


@pytest.mark.parametrize("subject", PROTECTED, ids=lambda s: s.sdk)
def test_visible_components_still_work(subject: Subject) -> None:
    """A visible tool, prompt, resource and template are served as before."""
    calls: list[tuple[str, dict[str, Any]]] = [
        ("tools/call", {"name": "add", "arguments": {"a": 2, "b": 3}}),
        ("prompts/get", {"name": "hello", "arguments": {"who": "bob"}}),
        ("resources/read", {"uri": "res://public"}),
        ("resources/read", {"uri": "notes://9"}),
    ]
    answers: list[Any] = anyio.run(memory_exchange, subject.server(), "modern", "alice", calls)
    assert all("result" in answer for answer in answers), answers
    tool, prompt, resource, note = (json.dumps(answer) for answer in answers)
    assert '"text": "5"' in tool
    assert "hello bob" in prompt
    assert '"text": "public"' in resource
    assert "note 9" in note


@pytest.mark.slow
def test_committed_leak_matrix_is_current() -> None:
    """docs/leak-matrix.md is what the checks say now (`make leak-matrix` regenerates it)."""
    from pathlib import Path

    committed = (Path(__file__).resolve().parents[2] / "docs" / "leak-matrix.md").read_text()
    assert anyio.run(leak_matrix.matrix) == committed
