"""The layer contract (spec/README.md, Architecture): which package may import which."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "mcp_touchstone"
SEMANTICS = ("scope", "visibility", "mrtr")
# What a semantic package may import from the project: the JSON layer and the shared serde and
# Rust-semantics modules, and its own modules.  Never tooling, never another semantic.
SHARED = {
    "mcp_touchstone.serde_json",
    "mcp_touchstone._serde",
    "mcp_touchstone._rust",
    "mcp_touchstone._errors",
    "mcp_touchstone",
}
TOOLING = (
    "mcp_touchstone.harness",
    "mcp_touchstone.conformance",
    "mcp_touchstone._cli",
    "mcp_touchstone.adapters",
    "mcp_touchstone.audit",
)


def _project_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("mcp_touchstone"))
        elif (
            isinstance(node, ast.ImportFrom)
            and node.level == 0
            and (node.module or "").startswith("mcp_touchstone")
        ):
            found.add(str(node.module))
    return found


@pytest.mark.parametrize("semantic", SEMANTICS)
def test_semantic_imports_only_the_shared_layer(semantic: str) -> None:
    """A semantic package imports only itself and the shared JSON/serde layer."""
    for path in sorted((SRC / semantic).rglob("*.py")):
        for name in _project_imports(path):
            own = name == f"mcp_touchstone.{semantic}" or name.startswith(
                f"mcp_touchstone.{semantic}."
            )
            shared = name in SHARED or any(
                name.startswith(s + ".") for s in SHARED - {"mcp_touchstone"}
            )
            assert own or shared, f"{path.relative_to(SRC)} imports {name}"


def test_shared_layer_imports_no_semantic_or_tooling() -> None:
    """The JSON layer and the shared serde modules import no semantic and no tooling."""
    for module in sorted(SHARED - {"mcp_touchstone"}):
        path = SRC / (module.removeprefix("mcp_touchstone.") + ".py")
        if not path.exists():
            continue
        for name in _project_imports(path):
            assert not name.startswith(TOOLING), f"{path.name} imports {name}"
            assert not any(name.startswith(f"mcp_touchstone.{s}") for s in SEMANTICS), name


@pytest.mark.parametrize("semantic", SEMANTICS)
def test_importing_a_semantic_loads_no_tooling(semantic: str) -> None:
    """``import mcp_touchstone.<semantic>`` loads neither the harness nor the runner machinery."""
    probe = (
        f"import sys, mcp_touchstone.{semantic}\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('mcp_touchstone.harness',"
        " 'mcp_touchstone.conformance', 'mcp_touchstone._cli', 'subprocess')))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "", f"import mcp_touchstone.{semantic} loaded {out}"
