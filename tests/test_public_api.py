"""The public API: small, typed, documented (every exported name has a docstring)."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

import pytest

import mcp_touchstone

PUBLIC_MODULES = [
    "mcp_touchstone",
    "mcp_touchstone.serde_json",
    "mcp_touchstone.conformance",
    "mcp_touchstone.scope",
    "mcp_touchstone.visibility",
    "mcp_touchstone.mrtr",
]


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_exports_exist_and_are_documented(name: str) -> None:
    """Every name in a public module's __all__ exists, and functions and classes are documented."""
    module = importlib.import_module(name)
    assert module.__doc__, name
    exported = getattr(module, "__all__", None)
    assert exported is not None, f"{name} has no __all__"
    for attr in exported:
        obj = getattr(module, attr)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            assert inspect.getdoc(obj), f"{name}.{attr} has no docstring"


def test_package_is_typed() -> None:
    """The package ships py.typed (PEP 561)."""
    assert (Path(mcp_touchstone.__file__).parent / "py.typed").is_file()


def test_version_matches_distribution() -> None:
    """__version__ agrees with the installed distribution's metadata."""
    from importlib.metadata import version

    assert mcp_touchstone.__version__ == version("mcp-touchstone")


@pytest.mark.parametrize("package", ["scope", "visibility", "mrtr", "conformance"])
def test_implementation_modules_are_private(package: str) -> None:
    """Each semantic's modules are private (_name.py); its __init__ is the whole public API, but
    for ``mrtr.wire``, the pydantic wire models a user imports explicitly (importing the package
    loads no pydantic)."""
    folder = Path(mcp_touchstone.__file__).parent / package
    public = [p.name for p in folder.glob("*.py") if not p.name.startswith("_")]
    expected = ["wire.py"] if package == "mrtr" else []
    assert public == expected, f"{package} has public modules: {public}"


def test_every_scope_name_is_its_definition_on_first_access() -> None:
    """The scope package's public API: in a fresh interpreter the first access of each name of
    ``scope.__all__`` is the very object its defining module holds, each name is listed once, and
    the package binds no other public name."""
    import subprocess
    import sys

    code = (
        "import importlib\n"
        "from mcp_touchstone import scope\n"
        "for name in scope.__all__:\n"
        "    obj = getattr(scope, name)\n"
        "    home = getattr(obj, '__module__', None)\n"
        "    if isinstance(home, str) and getattr(obj, '__name__', None) == name:\n"
        "        assert home.startswith('mcp_touchstone.scope.'), (name, home)\n"
        "        assert getattr(importlib.import_module(home), name) is obj, name\n"
        "assert len(set(scope.__all__)) == len(scope.__all__)\n"
        "extra = [n for n in dir(scope) if not n.startswith('_') and n not in scope.__all__]\n"
        "assert extra == ['annotations'], extra\n"
        "print(len(scope.__all__))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 10
