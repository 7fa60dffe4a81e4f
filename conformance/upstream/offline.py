"""Whether an upstream's crates can be built offline from Debian's crate packages.

Run: ``.venv/bin/python conformance/upstream/offline.py neva|turbomcp|chio-kernel`` (``make
upstream-harnesses`` runs it for neva and for turbomcp's dispatcher).  The upstream's source comes
from its git dir (``NEVA_GIT``, ``TURBOMCP_GIT``, ``CHIO_GIT``; no default path: the message says
how to get it).  For each crate the harness would link, every non-optional dependency in its
``Cargo.toml`` at the mirrored commit (workspace-inherited ones resolved, path dependencies
followed) is set beside the version Debian's ``librust-<name>-dev`` package offers
(``apt-cache policy``, the candidate; no network), and the requirements Debian cannot meet
(cargo's caret rule) are printed.  Exit 0 when every requirement is met, 1 when some are not
(the upstream cannot be built offline: docs/upstream-matrix.md gives the reason), 2 for bad use.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True, slots=True)
class Source:
    """An upstream's git dir variable, mirrored commit, the crates a harness would link, how
    to get the source, and why no harness may link less of it (the modules the operations
    reach, and what each needs that Debian does not package: no stub may stand in for code an
    operation reaches)."""

    variable: str
    commit: str
    crates: tuple[str, ...]
    get: str
    why: str


SOURCES = {
    "neva": Source(
        "NEVA_GIT",
        "e6822d7",
        ("neva",),
        "git clone https://github.com/RomanEmreis/neva neva-src, then NEVA_GIT=$PWD/neva-src/.git",
        "no harness can include fewer of neva's own files either (by #[path], unchanged):"
        " types/mrtr/state.rs (mrtr.state.seal, mrtr.state.open, mrtr.request_binding,"
        " mrtr.input_responses_digest) imports chacha20poly1305 ^0.11.0 (not packaged; it uses"
        " aead 0.6's Generate), base64 ^0.23.1's Engine (Debian's 0.13.0 has no Engine) and"
        " sha2 ^0.11 (Debian 0.10.5); types/mrtr.rs (mrtr.capabilities, mrtr.allows) decodes"
        " ElicitRequestParams from types/elicitation.rs, which derives schemars::JsonSchema"
        " (not packaged) and imports the types tree (chrono, http, Request, Response); app/mrtr.rs"
        " (mrtr.round) and client/mrtr.rs (mrtr.client) run inside neva's app dispatch and client"
        " loop (tokio); a stub would stand in for the sealing, the encoding or the decoding the"
        " operations reach",
    ),
    "turbomcp": Source(
        "TURBOMCP_GIT",
        "519331ee",
        ("crates/turbomcp-server",),
        "git clone https://github.com/Epistates/turbomcp turbomcp-src, then"
        " TURBOMCP_GIT=$PWD/turbomcp-src/.git",
        "visibility.dispatch runs turbomcp-server's dispatcher (src/dispatcher/mod.rs: a"
        " tower::Service over futures' BoxFuture, with the crate's mrtr.rs, session.rs, tasks.rs"
        " and subscriptions.rs, which use tokio, async-trait, hmac 0.13, sha2 0.11 and rand 0.10,"
        " and turbomcp-service's error mapping), so no stub may stand in; the other three"
        " operations are run (conformance/upstream/turbomcp: turbomcp-core, turbomcp-protocol, and"
        " turbomcp-server's visibility.rs, tags.rs and match_uri_template,"
        " which need only serde_json and regex)",
    ),
    "chio-kernel": Source(
        "CHIO_GIT",
        "d2816aa0",
        ("crates/chio-kernel",),
        "git clone https://github.com/bb-connor/arc chio-src, then CHIO_GIT=$PWD/chio-src/.git",
        "the hosted matcher and admission are chio-kernel's (docs/upstream-matrix.md)",
    ),
}


def show(git: Path, commit: str, path: str) -> dict[str, Any]:
    text = subprocess.run(
        ["git", f"--git-dir={git}", "show", f"{commit}:{path}"],
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    return tomllib.loads(text)


def requirements(git: Path, source: Source) -> dict[str, set[str]]:
    """Every non-optional registry dependency of the crates and their path dependencies: name ->
    the version requirements written for it."""
    workspace = show(git, source.commit, "Cargo.toml").get("workspace", {})
    inherited = workspace.get("dependencies", {})
    out: dict[str, set[str]] = {}
    seen: set[str] = set()
    todo = list(source.crates)
    while todo:
        crate = os.path.normpath(todo.pop())
        if crate in seen:
            continue
        seen.add(crate)
        manifest = show(git, source.commit, f"{crate}/Cargo.toml")
        for name, dep in manifest.get("dependencies", {}).items():
            spec = dep if isinstance(dep, dict) else {"version": dep}
            if spec.get("optional"):
                continue
            if spec.get("workspace"):
                base = inherited.get(name, {})
                spec = {**(base if isinstance(base, dict) else {"version": base}), **spec}
                if "path" in spec:
                    todo.append(spec["path"])
                    continue
            elif "path" in spec:
                todo.append(f"{crate}/{spec['path']}")
                continue
            package = spec.get("package", name)
            out.setdefault(package, set()).add(str(spec.get("version", "*")))
    return out


def debian_version(crate: str) -> str | None:
    """The candidate version of ``librust-<crate>-dev`` (its Debian revision dropped)."""
    package = f"librust-{crate.replace('_', '-').lower()}-dev"
    text = subprocess.run(
        ["apt-cache", "policy", package], capture_output=True, check=False, text=True
    ).stdout
    found = re.search(r"Candidate: (\S+)", text)
    if found is None or found[1] == "(none)":
        return None
    return re.split(r"[-+~]", found[1].split(":")[-1])[0]


def _numbers(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version)[:3])


def meets(requirement: str, version: str) -> bool:
    """Cargo's default (caret) rule, with ``=`` and ``>=`` prefixes: does ``version`` meet it?"""
    requirement = requirement.strip()
    if requirement == "*":
        return True
    have = _numbers(version)
    if requirement.startswith(">="):
        return have >= _numbers(requirement[2:])
    exact = requirement.startswith("=")
    want = _numbers(requirement.lstrip("=^~ "))
    if exact:
        return have[: len(want)] == want
    width = next((i + 1 for i, n in enumerate(want) if n != 0), len(want))
    return have[:width] == want[:width] and have >= want


def git_dir(name: str) -> Path:
    """The upstream's git dir from its variable; a one-line refusal when unset or not one."""
    source = SOURCES[name]
    named = os.environ.get(source.variable, "")
    if not named or not (Path(named) / "HEAD").exists():
        why = "is not set" if not named else f"= {named} is not a git dir"
        raise SystemExit(f"offline: {name}: {source.variable} {why}: {source.get}")
    return Path(named)


def unmet(name: str) -> list[str]:
    """Each requirement of the upstream's crates that Debian cannot meet, as
    ``<crate> <requirement> (Debian <version>)`` or ``(not packaged)``, in name order."""
    out = []
    for crate, wanted in sorted(requirements(git_dir(name), SOURCES[name]).items()):
        have = debian_version(crate)
        for requirement in sorted(wanted):
            if have is None:
                out.append(f"{crate} ^{requirement} (not packaged)")
            elif not meets(requirement, have):
                out.append(f"{crate} ^{requirement} (Debian {have})")
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in SOURCES:
        print(f"usage: offline.py {'|'.join(SOURCES)}", file=sys.stderr)
        return 2
    name = argv[0]
    source = SOURCES[name]
    found = unmet(name)
    where = f"{name} {source.commit} ({', '.join(source.crates)})"
    if not found:
        print(f"offline: {where}: every dependency is met by Debian's crate packages")
        return 0
    print(f"offline: {where}: not buildable offline; Debian cannot meet: {', '.join(found)}")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
