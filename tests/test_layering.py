"""The layer contract (spec/README.md, Architecture): which package may import which."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "mcp_touchstone"
SEMANTICS = ("scope", "visibility", "mrtr")
# What a semantic package may import from the project: the JSON layer, the shared serde,
# Rust-semantics and value-class (``_record``) modules, and its own modules.  Never tooling,
# never another semantic.
SHARED = {
    "mcp_touchstone.serde_json",
    "mcp_touchstone._serde",
    "mcp_touchstone._rust",
    "mcp_touchstone._errors",
    "mcp_touchstone._record",
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
    """``import mcp_touchstone.<semantic>`` loads neither the harness, the runner machinery nor
    pydantic (mrtr's wire models load it on first use)."""
    probe = (
        f"import sys, mcp_touchstone.{semantic}\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('mcp_touchstone.harness',"
        " 'mcp_touchstone.conformance', 'mcp_touchstone._cli', 'subprocess', 'pydantic')))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "", f"import mcp_touchstone.{semantic} loaded {out}"


def _runtime_imports(path: Path) -> set[str]:
    """The project modules ``path`` imports at run time (``if TYPE_CHECKING:`` blocks left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Name)
            and node.test.id == "TYPE_CHECKING"
        ):
            node.body = []
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


def _module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def test_no_import_cycles_inside_the_package() -> None:
    """No chain of imports between the package's private modules (lazy imports included)
    leads back to where it started; package ``__init__`` re-exports and type-only imports are
    left out."""
    graph: dict[str, set[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        if path.name == "__init__.py":
            continue
        graph[_module_name(path)] = _runtime_imports(path)
    state: dict[str, int] = {}

    def visit(node: str, trail: tuple[str, ...]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if nxt not in graph:
                continue
            assert state.get(nxt) != 1, "import cycle: " + " -> ".join((*trail, node, nxt))
            if nxt not in state:
                visit(nxt, (*trail, node))
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, ())


def test_mrtr_wire_models_load_on_first_use() -> None:
    """``mcp_touchstone.mrtr.ElicitResult`` still resolves, loading pydantic only then."""
    probe = (
        "import sys, mcp_touchstone.mrtr as m\n"
        "before = 'pydantic' in sys.modules\n"
        "from mcp_touchstone.mrtr import ElicitResult\n"
        "print(before, 'pydantic' in sys.modules, ElicitResult is m._wire.ElicitResult)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "False True True"


def test_conformance_imports_no_semantic_and_no_harness() -> None:
    """The conformance tooling talks to implementations over the wire: no semantic, no harness."""
    for path in sorted((SRC / "conformance").rglob("*.py")):
        for name in _project_imports(path):
            assert not name.startswith(("mcp_touchstone.harness", "mcp_touchstone._cli")), name
            assert not any(name.startswith(f"mcp_touchstone.{s}") for s in SEMANTICS), name
