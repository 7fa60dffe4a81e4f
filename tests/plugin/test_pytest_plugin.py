"""The pytest plugin (``mcp_touchstone.conformance._pytest_plugin``): the vectors as pytest items,
run by pytest in a subprocess (``pytester``) against the Node.js harness and the reference."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[2]
NODE = ROOT / "conformance" / "harnesses" / "node"
VECTORS = ROOT / "conformance" / "vectors"
NODE_IMPL = f"node {NODE / 'harness.js'}"


@pytest.fixture
def subset(tmp_path: Path) -> Path:
    """A small vector tree: the 51 path vectors (an operation the Node harness implements) and
    json.to_string (one it does not announce)."""
    tree = tmp_path / "vectors"
    for name in ("scope/paths.json", "json/to_string.json"):
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(VECTORS / name, tree / name)
    return tree


def _ids(path: Path) -> list[str]:
    return [t["id"] for t in json.loads(path.read_text())["tests"]]


def test_plugin_is_inert_unless_asked(pytester: pytest.Pytester) -> None:
    """PYTEST-1: without --touchstone-impl, a test run is untouched: no vector items, no harness."""
    pytester.makepyfile("def test_one():\n    assert True\n")
    result = pytester.runpytest_subprocess("-q")
    result.assert_outcomes(passed=1)
    assert "touchstone::" not in result.stdout.str()
    helped = pytester.runpytest_subprocess("--help")
    assert "--touchstone-impl" in helped.stdout.str()
    assert "--touchstone-baseline" in helped.stdout.str()


def test_collects_applicable_vectors_named_by_semantic_and_id(
    pytester: pytest.Pytester, subset: Path
) -> None:
    """PYTEST-2: every vector of an announced operation is an item `touchstone::<semantic>::<id>`;
    the others are counted as not applicable; test files are not collected unless named."""
    pytester.makepyfile("def test_mine():\n    assert True\n")
    result = pytester.runpytest_subprocess(
        "--co", "-q", "--touchstone-impl", NODE_IMPL, "--touchstone-vectors", str(subset)
    )
    out = result.stdout.str()
    paths = _ids(subset / "scope" / "paths.json")
    not_applicable = len(_ids(subset / "json" / "to_string.json"))
    for vid in paths:
        assert f"touchstone::scope::{vid}" in out
    assert "json-" not in out.replace("to_string", "")
    assert "test_mine" not in out
    assert f"{len(paths)} vectors of 6 announced operations collected, " in out
    assert f"{not_applicable} not applicable" in out
    named = pytester.runpytest_subprocess(
        "--co", "-q", "--touchstone-impl", NODE_IMPL, "--touchstone-vectors", str(subset), "."
    )
    assert "test_mine" in named.stdout.str()
    assert "touchstone::scope::scope-path-traversal-out" in named.stdout.str()


def test_node_harness_with_its_baseline_passes(pytester: pytest.Pytester) -> None:
    """PYTEST-2, PYTEST-5: the Node.js harness over every shipped vector with its baseline: no
    failure; each baseline entry that fails is an xfail."""
    baseline = json.loads((NODE / "baseline.json").read_text())
    result = pytester.runpytest_subprocess(
        "-q",
        "--touchstone-impl",
        NODE_IMPL,
        "--touchstone-baseline",
        str(NODE / "baseline.json"),
    )
    outcomes = result.parseoutcomes()
    assert result.ret == 0, result.stdout.str()[-3000:]
    assert outcomes.get("failed", 0) == 0
    assert outcomes["xfailed"] == len(baseline["entries"])
    assert outcomes["passed"] > 1000


def test_planted_bug_fails_with_why_and_first_path(
    pytester: pytest.Pytester, subset: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PYTEST-4, PYTEST-2: TOUCHSTONE_NODE_PLANT=path-prefix: the path vectors it breaks fail, each
    showing the vector's why and the first differing JSON path; -x stops at the first; --lf reruns
    only the failures."""
    monkeypatch.setenv("TOUCHSTONE_NODE_PLANT", "path-prefix")
    args = (
        "--touchstone-impl",
        NODE_IMPL,
        "--touchstone-vectors",
        str(subset),
        "-p",
        "no:randomly",
    )
    result = pytester.runpytest_subprocess("-q", *args)
    out = result.stdout.str()
    assert result.ret == 1
    failed = result.parseoutcomes()["failed"]
    assert failed >= 5
    assert "_ touchstone::scope::scope-path-traversal-out _" not in out  # named below instead
    assert "scope::scope-path-traversal-out" in out
    assert "why:      " in out
    assert "differs at $.matches[0]" in out
    assert 'expected: {"matches":' in out
    assert "Traceback" not in out
    first = pytester.runpytest_subprocess("-q", "-x", *args)
    assert first.parseoutcomes()["failed"] == 1
    again = pytester.runpytest_subprocess("-q", "--lf", *args)
    outcomes = again.parseoutcomes()
    assert outcomes["failed"] == failed
    assert "passed" not in outcomes
    picked = pytester.runpytest_subprocess("-q", "-k", "traversal", *args)
    assert picked.parseoutcomes()["failed"] + picked.parseoutcomes().get("passed", 0) == len(
        [i for i in _ids(subset / "scope" / "paths.json") if "traversal" in i]
    )


def test_xdist_runs_one_harness_per_worker(pytester: pytest.Pytester, subset: Path) -> None:
    """PYTEST-3: with -n 2 each worker starts one harness process and asks it every case it runs."""
    log = pytester.path / "starts.log"
    wrapper = pytester.path / "harness.py"
    wrapper.write_text(
        "import os, sys\n"
        f"open({str(log)!r}, 'a').write(f'{{os.getpid()}}\\n')\n"
        "from mcp_touchstone._cli import main\n"
        "sys.exit(main(['harness']))\n"
    )
    impl = f"{sys.executable} {wrapper}"
    result = pytester.runpytest_subprocess(
        "-q", "-n", "2", "--touchstone-impl", impl, "--touchstone-vectors", str(subset)
    )
    everything = _ids(subset / "scope" / "paths.json") + _ids(subset / "json" / "to_string.json")
    result.assert_outcomes(passed=len(everything))
    assert len(set(log.read_text().split())) == 2


def test_baseline_entries_are_strict_xfails(pytester: pytest.Pytester, subset: Path) -> None:
    """PYTEST-5: a baseline id entry is a strict xfail: against the reference (which passes it) it
    is XPASS(strict), a failure, as a stale entry fails `touchstone run`; an unknown id is a usage
    error naming it."""
    baseline = pytester.path / "baseline.json"
    baseline.write_text(
        json.dumps(
            {
                "schema": "touchstone-baseline/1",
                "entries": [{"id": "scope-path-traversal-out", "reason": "we resolve .."}],
            }
        )
    )
    impl = f"{sys.executable} -m mcp_touchstone harness"
    result = pytester.runpytest_subprocess(
        "-q",
        "--touchstone-impl",
        impl,
        "--touchstone-vectors",
        str(subset),
        "--touchstone-baseline",
        str(baseline),
    )
    assert result.ret == 1
    assert "XPASS(strict)" in result.stdout.str()
    assert "we resolve .." in result.stdout.str()
    baseline.write_text(
        json.dumps(
            {
                "schema": "touchstone-baseline/1",
                "entries": [{"id": "scope-path-no-such-vector", "reason": "x"}],
            }
        )
    )
    bad = pytester.runpytest_subprocess(
        "--touchstone-impl",
        impl,
        "--touchstone-vectors",
        str(subset),
        "--touchstone-baseline",
        str(baseline),
    )
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    assert "no vector has the id 'scope-path-no-such-vector'" in bad.stderr.str()


def test_a_harness_that_dies_errors_its_case_and_is_restarted(
    pytester: pytest.Pytester, subset: Path
) -> None:
    """PYTEST-3: a harness exiting at one case fails that item with its exit status and stderr; a
    fresh process answers the next."""
    marker = pytester.path / "died"
    harness = pytester.path / "dying.py"
    harness.write_text(
        "import os, sys\n"
        "from mcp_touchstone import serde_json\n"
        "from mcp_touchstone.harness._registry import reference_operations\n"
        "ops = reference_operations()\n"
        "n = 0\n"
        "for line in sys.stdin:\n"
        "    req = serde_json.from_str(line)\n"
        "    if req['cmd'] == 'start':\n"
        "        impl = {'name': 'dying', 'version': '0', 'language': 'python'}\n"
        "        hello = {'version': 1, 'implementation': impl,\n"
        "                 'operations': ['scope.resolve_matching_grants']}\n"
        "        print(serde_json.to_string(hello), flush=True)\n"
        "    elif req['cmd'] == 'stop':\n"
        "        break\n"
        "    else:\n"
        "        n += 1\n"
        f"        if n == 3 and not os.path.exists({str(marker)!r}):\n"
        f"            open({str(marker)!r}, 'w').close()\n"
        "            sys.stderr.write('boom at the third case\\n')\n"
        "            sys.exit(37)\n"
        "        out = ops[req['case']['operation']](req['case']['input'])\n"
        "        print(serde_json.to_string({'seq': req['seq'], 'output': out}), flush=True)\n"
    )
    result = pytester.runpytest_subprocess(
        "-q",
        "-p",
        "no:randomly",
        "--touchstone-impl",
        f"{sys.executable} {harness}",
        "--touchstone-vectors",
        str(subset),
    )
    out = result.stdout.str()
    result.assert_outcomes(passed=len(_ids(subset / "scope" / "paths.json")) - 1, failed=1)
    assert "exited before answering this case (exit status 37)" in out
    assert "boom at the third case" in out
