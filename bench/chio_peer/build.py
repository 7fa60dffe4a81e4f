"""Build ``chio-peer``: Chio's own portable scope matcher behind harness protocol v1, offline.

Run: ``python bench/chio_peer/build.py`` (or ``make chio-peer``).  Prints the binary's path last.
Steps 1, 4 and 5 are the offline build every upstream harness shares
(``conformance/upstream/_offline_build.py``).

1. Checks that the Debian Rust crate packages are installed (``dpkg -s``) and installs the missing
   ones with ``apt-get`` (root and Debian's archive needed): they put crate sources with
   ``.cargo-checksum.json`` under ``/usr/share/cargo/registry``, a cargo directory source.
2. Extracts ``crates/chio-core-types`` and ``crates/chio-kernel-core`` at the pinned commit
   ``d2816aa0`` from a Chio git dir (``CHIO_GIT``, required: see ``chio_git``) into the
   git-ignored ``bench/chio_peer/build/chio`` (each ``Cargo.toml`` kept as ``Cargo.toml.orig``
   beside its rewrite; unchanged files keep their mtime, so a rebuild is a no-op).  Chio's Rust
   source is not changed.
3. Rewrites the two extracted ``Cargo.toml`` files for this offline build (each change printed):
   ``[dev-dependencies]`` dropped (tests are not built, and cargo would resolve them), the optional
   ``aws-lc-rs`` dropped from the dependencies and from the ``fips`` feature (off by default; not
   packaged; the feature stays, so Chio's ``cfg(feature = "fips")`` still names a feature), every
   ``dep/feature`` entry whose Debian crate version has no such feature dropped (``url/std``,
   ``percent-encoding/std``: Debian's url 2.3.1 and percent-encoding 2.2.0 predate them), and the
   ``wasm32`` target table (it asks for getrandom's ``js`` feature, which Debian's getrandom
   0.2.8 lacks; this is a host build).
4. Writes the workspace root ``build/Cargo.toml`` (Chio's ``[workspace.package]`` and the
   ``[workspace.dependencies]`` the crates inherit, taken from Chio's root manifest; our driver
   ``bench/chio_peer`` as a member; ``ed25519-dalek`` patched to our stub
   ``stubs/ed25519-dalek``, every body of which aborts) and ``build/.cargo/config.toml``
   (crates-io replaced by the Debian directory source).
5. ``cargo build --offline --release -p chio-peer`` in ``build/`` (Chio's workspace sets no release
   profile, so cargo's default one, as Chio's own release build uses), then prints the versions
   cargo resolved and the binary's path.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
import time
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "conformance" / "upstream"))

from _offline_build import (  # noqa: E402 -- the shared offline build, beside matrix.py
    REGISTRY,
    OfflineBuild,
    toml_document,
    write_if_changed,
)

BUILD = HERE / "build"
OFFLINE = OfflineBuild("chio-peer", BUILD)
CHIO_COMMIT = "d2816aa060ba7c0fd10edcece9192e9b4c2850fd"
GET_CHIO = (
    "set CHIO_GIT to the git dir of a clone of Chio's source that holds commit d2816aa0, e.g. "
    "`git clone https://github.com/bb-connor/arc chio-src` and then "
    "`make chio-peer CHIO_GIT=$PWD/chio-src/.git`"
)
CRATES = ("crates/chio-core-types", "crates/chio-kernel-core")
BINARY = BUILD / "target" / "release" / "chio-peer"
DEBIAN_PACKAGES = (
    "librust-serde-dev",
    "librust-serde-derive-dev",
    "librust-serde-json-dev",
    "librust-url-dev",
    "librust-hex-dev",
    "librust-ryu-dev",
    "librust-sha2-dev",
    "librust-percent-encoding-dev",
    "librust-thiserror-dev",
    "librust-rand-core-dev",
    "librust-getrandom-dev",
)
DROPPED_DEPENDENCIES = ("aws-lc-rs",)
say = OFFLINE.say


def git(*args: str) -> bytes:
    return subprocess.run(
        ["git", f"--git-dir={chio_git()}", *args], capture_output=True, check=True
    ).stdout


def chio_git() -> Path:
    """The Chio git dir named by ``CHIO_GIT`` (no default: Chio's source is wherever the user
    cloned it); a clear one-line refusal when it is unset or not a git dir."""
    named = os.environ.get("CHIO_GIT", "")
    if not named:
        raise SystemExit(f"chio-peer: CHIO_GIT is not set: {GET_CHIO}")
    path = Path(named)
    if not (path / "HEAD").exists():
        raise SystemExit(f"chio-peer: {path} is not a git dir: {GET_CHIO}")
    return path


def extract_chio() -> dict[str, Any]:
    """Extract the two crates at the pinned commit into ``build/chio`` (files that did not
    change are left alone; files no longer in the archive are removed); return Chio's root
    manifest."""
    source = chio_git()
    try:
        git("cat-file", "-e", f"{CHIO_COMMIT}^{{commit}}")
    except subprocess.CalledProcessError:
        raise SystemExit(f"chio-peer: {source} has no commit {CHIO_COMMIT}: {GET_CHIO}") from None
    target = BUILD / "chio"
    archive = git("archive", "--format=tar", CHIO_COMMIT, *CRATES)
    wanted: dict[Path, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            member_file = tar.extractfile(member) if member.isfile() else None
            if member_file is not None:
                wanted[target / member.name] = member_file.read()
    for path in [p for p in target.rglob("*") if p.is_file() and p not in wanted]:
        path.unlink()
    for path, data in wanted.items():
        if path.name != "Cargo.toml":  # the manifests are rewritten by write_workspace
            write_if_changed(path, data)
        else:
            write_if_changed(path.with_name("Cargo.toml.orig"), data)
    say(f"extracted {', '.join(CRATES)} at {CHIO_COMMIT[:8]} from {chio_git()}")
    return tomllib.loads(git("show", f"{CHIO_COMMIT}:Cargo.toml").decode())


def _version_key(manifest: Path) -> tuple[int, ...]:
    """``<crate>-<x.y.z>/Cargo.toml`` by its version numbers (``url-2.10.0`` after ``2.3.1``)."""
    version = manifest.parent.name.rpartition("-")[2]
    return tuple(int(part) if part.isdigit() else -1 for part in version.split("."))


def debian_features(crate: str) -> set[str] | None:
    """The feature names (explicit and optional-dependency ones) of the Debian copy of ``crate``."""
    found = sorted(REGISTRY.glob(f"{crate}-[0-9]*/Cargo.toml"), key=_version_key)
    if not found:
        return None
    manifest = tomllib.loads(found[-1].read_text())
    deps = manifest.get("dependencies", {})
    optional = {n for n, d in deps.items() if isinstance(d, dict) and d.get("optional")}
    return set(manifest.get("features", {})) | optional


def adapt_manifest(manifest: dict[str, Any], name: str) -> dict[str, Any]:
    """Chio's crate manifest, adapted to the offline Debian build (every change printed)."""
    if manifest.pop("dev-dependencies", None) is not None:
        say(f"{name}: [dev-dependencies] dropped (tests are not built)")
    for cfg in [c for c in manifest.get("target", {}) if "wasm32" in c]:
        del manifest["target"][cfg]
        say(f"{name}: [target.'{cfg}'] dropped (a host build; Debian's getrandom has no js)")
    if manifest.get("target") == {}:
        del manifest["target"]
    deps = manifest.get("dependencies", {})
    for dep in DROPPED_DEPENDENCIES:
        if deps.pop(dep, None) is not None:
            say(f"{name}: optional dependency {dep} dropped (not packaged; its feature is off)")
    features: dict[str, list[str]] = manifest.get("features", {})
    for feature, entries in features.items():
        kept = []
        for entry in entries:
            if entry.removeprefix("dep:") in DROPPED_DEPENDENCIES:
                say(f"{name}: feature {feature}: {entry} dropped (a dropped dependency)")
                continue
            dep, _, wanted = entry.partition("/")
            have = debian_features(dep) if wanted and dep in deps else None
            if have is not None and wanted not in have:
                say(f"{name}: feature {feature}: {entry} dropped (Debian's {dep} has no {wanted})")
                continue
            kept.append(entry)
        features[feature] = kept
    return manifest


def write_workspace(chio_root: dict[str, Any]) -> None:
    """Chio's two crate manifests adapted, the workspace root manifest and the offline cargo
    config, in ``build/``."""
    inherited: dict[str, Any] = {}
    for crate in CRATES:
        path = BUILD / "chio" / crate / "Cargo.toml"
        original = path.with_name("Cargo.toml.orig").read_text()
        manifest = adapt_manifest(tomllib.loads(original), Path(crate).name)
        for name, dep in manifest.get("dependencies", {}).items():
            if isinstance(dep, dict) and dep.get("workspace"):
                inherited[name] = chio_root["workspace"]["dependencies"][name]
        header = f"# Generated by bench/chio_peer/build.py from Chio's {crate}/Cargo.toml.\n\n"
        write_if_changed(path, (header + toml_document(manifest)).encode())
    workspace = {
        "workspace": {
            "resolver": "2",
            "members": ["..", *(f"chio/{crate}" for crate in CRATES)],
            "package": chio_root["workspace"]["package"],
            "dependencies": inherited,
        },
        "patch": {"crates-io": {"ed25519-dalek": {"path": "../stubs/ed25519-dalek"}}},
    }
    OFFLINE.write_workspace(workspace)


def build() -> None:
    OFFLINE.cargo_build(("-p", "chio-peer"), {"CHIO_PEER_CHIO_COMMIT": CHIO_COMMIT[:8]})
    versions = OFFLINE.resolved()
    shown = ("serde", "serde_json", "ryu", "url", "sha2", "hex", "thiserror", "ed25519-dalek")
    say("resolved: " + ", ".join(f"{n} {versions[n]}" for n in shown if n in versions))


def main() -> int:
    start = time.monotonic()
    OFFLINE.ensure_debian_crates(DEBIAN_PACKAGES)
    chio_root = extract_chio()
    write_workspace(chio_root)
    build()
    say(f"built in {time.monotonic() - start:.1f} s")
    print(BINARY)
    return 0


if __name__ == "__main__":
    sys.exit(main())
