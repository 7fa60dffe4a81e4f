"""Build ``serde-json-harness``: serde_json itself behind harness protocol v1, offline.

Run: ``python conformance/upstream/serde_json/build.py`` (or ``make upstream-harnesses``).  Prints
the binary's path last.  The offline build is the one every upstream harness shares
(``conformance/upstream/_offline_build.py``):

1. Checks that Debian's ``librust-serde-json-dev`` is installed (``dpkg -s``) and installs it
   with ``apt-get`` when it is not (root and Debian's archive needed).  It puts serde_json's
   source, with ``.cargo-checksum.json``, under ``/usr/share/cargo/registry``, a cargo directory
   source.  No other source is needed: the upstream here is serde_json itself.
2. Writes the workspace root ``build/Cargo.toml`` (this package its one member) and
   ``build/.cargo/config.toml`` (crates-io replaced by the Debian directory source), both
   git-ignored.
3. ``cargo build --offline --release -j 2`` in ``build/``, then prints the serde_json version
   cargo resolved (the harness announces it in its ``start`` response) and the binary's path.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from _offline_build import OfflineBuild  # noqa: E402 -- the shared offline build, one level up

OFFLINE = OfflineBuild("serde-json-harness", HERE / "build")
BINARY = OFFLINE.build / "target" / "release" / "serde-json-harness"
DEBIAN_PACKAGES = ("librust-serde-json-dev",)


def main() -> int:
    start = time.monotonic()
    OFFLINE.ensure_debian_crates(DEBIAN_PACKAGES)
    OFFLINE.write_workspace({"workspace": {"resolver": "2", "members": [".."]}})
    version = OFFLINE.resolved()["serde_json"]
    OFFLINE.cargo_build(("-j", "2"), {"SERDE_JSON_HARNESS_VERSION": version})
    OFFLINE.say(f"resolved: serde_json {version}")
    OFFLINE.say(f"built in {time.monotonic() - start:.1f} s")
    print(BINARY)
    return 0


if __name__ == "__main__":
    sys.exit(main())
