"""The examples the README walks through, shipped inside the package so a pip install has them.

``touchstone example`` lists them, ``touchstone example NAME`` prints one (``--path``: where it is
installed).  The Python ones also run as modules: ``python -m mcp_touchstone.examples.server``
(needs the ``[mcp]`` extra) and ``python -m mcp_touchstone.examples.client``.  The Node.js harness
and its baseline are the files of ``conformance/harnesses/node/``, shipped with the vectors.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["EXAMPLES", "Example", "add_parser", "path_of"]

_HERE = Path(__file__).resolve().parent


@dataclass(frozen=True, slots=True)
class Example:
    """One shipped example: its name, what it is, and its file (relative to ``root``)."""

    name: str
    what: str
    file: str
    root: str = "examples"
    """``examples`` (this package) or ``node`` (the Node.js harness shipped with the vectors)."""


EXAMPLES: tuple[Example, ...] = (
    Example(
        "scope",
        "a scope.resolve_matching_grants case input: which of two grants let server `files` "
        "call tool `read` (pipe it to `touchstone eval scope.resolve_matching_grants`)",
        "scope_case.json",
    ),
    Example(
        "server",
        "an `mcp` server with visibility, grants and replay in front of it "
        "(run: python -m mcp_touchstone.examples.server)",
        "server.py",
    ),
    Example(
        "client",
        "talks to the example server and shows what each caller gets "
        "(run: python -m mcp_touchstone.examples.client [URL])",
        "client.py",
    ),
    Example(
        "node-harness",
        "a complete harness in Node.js, standard library only (save it, then: "
        'touchstone run --impl "node harness.js")',
        "harness.js",
        "node",
    ),
    Example(
        "node-baseline",
        "the Node.js harness's baseline: its known failures, each with the reason "
        "(--expected-failures)",
        "baseline.json",
        "node",
    ),
)


def _node_dir() -> Path:
    """The Node.js harness's directory: in the wheel's data, else (a checkout) the source tree."""
    shipped = _HERE.parent / "_vectors_data" / "harnesses" / "node"
    if shipped.is_dir():
        return shipped
    return _HERE.parents[2] / "conformance" / "harnesses" / "node"


def path_of(name: str) -> Path:
    """The installed file of the example called ``name``; ``KeyError`` naming the choices."""
    for example in EXAMPLES:
        if example.name == name:
            base = _HERE if example.root == "examples" else _node_dir()
            return base / example.file
    known = ", ".join(e.name for e in EXAMPLES)
    raise KeyError(f"no example {name!r} (known: {known})")


def _cmd_example(args: argparse.Namespace) -> int:
    if args.name is None:
        width = max(len(e.name) for e in EXAMPLES)
        for e in EXAMPLES:
            print(f"{e.name:<{width}}  {e.what}")
        return 0
    try:
        path = path_of(args.name)
        text = str(path) + "\n" if args.path else path.read_text(encoding="utf-8")
    except KeyError as exc:
        print(f"touchstone: {exc.args[0]}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"touchstone: cannot read example {args.name}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        return 1
    return 0


def add_parser(sub: Any) -> None:
    """``touchstone example [NAME] [--path]`` on the ``touchstone`` command's subparsers."""
    e = sub.add_parser(
        "example",
        help="list the shipped examples, or print one",
        description="With no NAME, list the examples; with NAME, print its text.",
    )
    e.add_argument("name", nargs="?", help=", ".join(x.name for x in EXAMPLES))
    e.add_argument("--path", action="store_true", help="print where the file is installed")
    e.set_defaults(func=_cmd_example)
