"""The layer contract (spec/README.md, Architecture): which package may import which.

* Outside a semantic package (``scope``, ``visibility``, ``mrtr``), that semantic is imported
  only through its package's public API: ``from mcp_touchstone.scope import X``, never
  ``mcp_touchstone.scope._matcher`` (:func:`private_semantic_imports`).
* A semantic package imports no tooling (``harness``, ``conformance``, ``adapters``, ``audit``,
  ``_cli``) and no other semantic.
* Importing a semantic loads no ``subprocess``, ``selectors`` or ``pydantic`` and no tooling
  (a fresh interpreter's ``sys.modules``, :func:`loaded_by`).
* Each semantic ``__init__`` binds its public names by explicit imports.

Each check is also run once on planted input, to show it can fail.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "mcp_touchstone"
SEMANTICS = ("scope", "visibility", "mrtr")
TOOLING = (
    "mcp_touchstone.harness",
    "mcp_touchstone.conformance",
    "mcp_touchstone._cli",
    "mcp_touchstone.adapters",
    "mcp_touchstone.audit",
)
HEAVY = ("subprocess", "selectors", "pydantic")
"""Modules importing a semantic must not load: process and event-loop machinery, pydantic."""


def _module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute module an ``ImportFrom`` in ``module`` names (relative levels resolved)."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _imported_modules(tree: ast.AST, module: str, is_package: bool) -> list[str]:
    """Every module ``tree`` imports, at any depth (functions and ``TYPE_CHECKING`` blocks
    included): ``import a.b``, ``from a.b import c`` (as ``a.b`` and ``a.b.c``) and
    ``importlib.import_module("a.b")`` with a literal name."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(node, module, is_package)
            found.append(target)
            found.extend(f"{target}.{alias.name}" for alias in node.names)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, (ast.Attribute, ast.Name))
            and (getattr(node.func, "attr", None) or getattr(node.func, "id", None))
            == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append(node.args[0].value)
    return found


def _semantic_of(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) >= 2 and parts[0] == "mcp_touchstone" and parts[1] in SEMANTICS:
        return parts[1]
    return None


def private_semantic_imports(source: str, module: str, *, is_package: bool = False) -> list[str]:
    """The private modules of a semantic that ``module`` (whose text is ``source``) imports
    from outside that semantic's package: ``mcp_touchstone.<semantic>._<name>...``."""
    own = _semantic_of(module)
    bad: list[str] = []
    for name in _imported_modules(ast.parse(source), module, is_package):
        semantic = _semantic_of(name)
        if semantic is None or semantic == own:
            continue
        parts = name.split(".")
        if len(parts) >= 3 and parts[2].startswith("_"):
            bad.append(name)
    return sorted(set(bad))


def _outside_modules() -> list[Path]:
    return sorted(
        p
        for p in SRC.rglob("*.py")
        if _semantic_of(_module_name(p)) is None and "__pycache__" not in p.parts
    )


@pytest.mark.parametrize("path", _outside_modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_private_import_of_a_semantic(path: Path) -> None:
    """A module outside a semantic package imports that semantic only through its package's
    public API (``from mcp_touchstone.scope import X``)."""
    source = path.read_text(encoding="utf-8")
    bad = private_semantic_imports(
        source, _module_name(path), is_package=path.name == "__init__.py"
    )
    assert bad == [], f"{path.relative_to(SRC)} imports private modules: {bad}"


_PLANTED = {
    "from mcp_touchstone.scope._matcher import resolve_parsed\n": [
        "mcp_touchstone.scope._matcher",
        "mcp_touchstone.scope._matcher.resolve_parsed",
    ],
    "def f():\n    from mcp_touchstone.mrtr._state import seal\n": [
        "mcp_touchstone.mrtr._state",
        "mcp_touchstone.mrtr._state.seal",
    ],
    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
    "    from mcp_touchstone.visibility._policy import Visibility\n": [
        "mcp_touchstone.visibility._policy",
        "mcp_touchstone.visibility._policy.Visibility",
    ],
    "from mcp_touchstone.scope import _decode\n": ["mcp_touchstone.scope._decode"],
    "import mcp_touchstone.mrtr._binding as b\n": ["mcp_touchstone.mrtr._binding"],
    "from ..scope._types import ChioScope\n": [
        "mcp_touchstone.scope._types",
        "mcp_touchstone.scope._types.ChioScope",
    ],
    "import importlib\nimportlib.import_module('mcp_touchstone.visibility._dispatch')\n": [
        "mcp_touchstone.visibility._dispatch"
    ],
}


@pytest.mark.parametrize("source", sorted(_PLANTED))
def test_the_private_import_check_catches_a_planted_import(source: str) -> None:
    """The check fails on a planted private import, wherever and however it is written."""
    assert private_semantic_imports(source, "mcp_touchstone.harness._planted") == _PLANTED[source]


def test_the_private_import_check_passes_public_and_own_imports() -> None:
    """Public imports, and a semantic's own private modules, are not flagged."""
    public = "from mcp_touchstone.scope import decode_scope\nimport mcp_touchstone.mrtr\n"
    assert private_semantic_imports(public, "mcp_touchstone.harness._planted") == []
    own = "from mcp_touchstone.scope._types import ChioScope\nfrom ._decode import x\n"
    assert private_semantic_imports(own, "mcp_touchstone.scope._matcher") == []
    other = "from mcp_touchstone.visibility._policy import Visibility\n"
    assert private_semantic_imports(other, "mcp_touchstone.scope._matcher") == [
        "mcp_touchstone.visibility._policy",
        "mcp_touchstone.visibility._policy.Visibility",
    ]


def _project_imports(path: Path) -> set[str]:
    module = _module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = _imported_modules(tree, module, path.name == "__init__.py")
    return {n for n in names if n.startswith("mcp_touchstone")}


@pytest.mark.parametrize("semantic", SEMANTICS)
def test_a_semantic_imports_no_tooling_and_no_other_semantic(semantic: str) -> None:
    """A semantic package imports no tooling and no other semantic (the JSON layer and the
    shared serde, Rust-semantics and error modules are what it may share)."""
    for path in sorted((SRC / semantic).rglob("*.py")):
        for name in _project_imports(path):
            assert not name.startswith(TOOLING), f"{path.relative_to(SRC)} imports {name}"
            other = _semantic_of(name)
            assert other in (None, semantic), f"{path.relative_to(SRC)} imports {name}"


def test_shared_layer_imports_no_semantic_or_tooling() -> None:
    """The shared modules (``mcp_touchstone/*.py`` but the CLI) import no semantic and no
    tooling."""
    for path in sorted(SRC.glob("*.py")):
        if path.name.startswith("_cli") or path.name == "__main__.py":
            continue
        for name in _project_imports(path):
            assert not name.startswith(TOOLING), f"{path.name} imports {name}"
            assert _semantic_of(name) is None, f"{path.name} imports {name}"


def loaded_by(module: str) -> list[str]:
    """The heavy and tooling modules a fresh interpreter has loaded after ``import module``."""
    probe = (
        f"import sys, {module}\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}"
        f" or m.startswith({TOOLING!r}))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    return out.split(",") if out else []


@pytest.mark.parametrize("semantic", SEMANTICS)
def test_importing_a_semantic_loads_no_tooling_process_or_pydantic(semantic: str) -> None:
    """``import mcp_touchstone.<semantic>`` loads no ``subprocess``, ``selectors`` or
    ``pydantic``, and none of the tooling (mrtr's wire models are a module of their own)."""
    assert loaded_by(f"mcp_touchstone.{semantic}") == []


def test_the_load_probe_catches_a_heavy_import() -> None:
    """The probe reports what a module that does load them loads (the conformance tooling
    runs implementations as subprocesses)."""
    loaded = loaded_by("mcp_touchstone.conformance")
    assert "subprocess" in loaded
    assert "mcp_touchstone.conformance" in loaded


def unbound_exports(source: str) -> list[str]:
    """The names of ``source``'s ``__all__`` that no module-level import or assignment binds
    (``if TYPE_CHECKING:`` blocks and a module ``__getattr__`` do not bind)."""
    tree = ast.parse(source)
    exported: list[str] = []
    bound: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    bound.add(target.id)
                    if target.id == "__all__" and node.value is not None:
                        exported = list(ast.literal_eval(node.value))
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
    return sorted(set(exported) - bound - {"__getattr__"})


@pytest.mark.parametrize("semantic", SEMANTICS)
def test_each_semantic_init_imports_its_names_explicitly(semantic: str) -> None:
    """Every name a semantic exports is bound in its ``__init__`` by an explicit import, and no
    ``__init__`` looks names up with a module ``__getattr__``."""
    source = (SRC / semantic / "__init__.py").read_text(encoding="utf-8")
    assert unbound_exports(source) == []
    tree = ast.parse(source)
    assert not [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "__getattr__"]


def test_the_explicit_import_check_catches_a_lazy_name() -> None:
    """A name exported but only found by ``__getattr__`` (or only under ``TYPE_CHECKING``)
    is reported."""
    planted = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from mcp_touchstone.scope._types import ChioScope\n"
        "from mcp_touchstone.scope._decode import decode_scope\n"
        "def __getattr__(name):\n    return None\n"
        "__all__ = ['ChioScope', 'decode_scope']\n"
    )
    assert unbound_exports(planted) == ["ChioScope"]


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


def test_mrtr_wire_models_are_imported_explicitly() -> None:
    """The pydantic wire models are ``mcp_touchstone.mrtr.wire``'s: importing the package loads
    no pydantic and does not offer them; importing the module does."""
    probe = (
        "import sys, mcp_touchstone.mrtr as m\n"
        "before = 'pydantic' in sys.modules\n"
        "offered = hasattr(m, 'ElicitResult')\n"
        "from mcp_touchstone.mrtr.wire import ElicitResult\n"
        "print(before, offered, 'pydantic' in sys.modules, ElicitResult.__module__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "False False True mcp_touchstone.mrtr.wire"


def test_conformance_imports_no_semantic_and_no_harness() -> None:
    """The conformance tooling talks to implementations over the wire: no semantic, no harness."""
    for path in sorted((SRC / "conformance").rglob("*.py")):
        for name in _project_imports(path):
            assert not name.startswith(("mcp_touchstone.harness", "mcp_touchstone._cli")), name
            assert _semantic_of(name) is None, name
