"""``python -m conformance.vectorgen [--check]``: regenerate the generated vector files."""

from __future__ import annotations

import sys

from conformance.vectorgen import stale, write_all


def main(argv: list[str]) -> int:
    """Rewrite the generated files (or, with ``--check``, list the stale ones and exit 1)."""
    if argv == ["--check"]:
        bad = stale()
        for rel in bad:
            print(f"stale: conformance/vectors/{rel} (run `make vectors`)")
        return 1 if bad else 0
    if argv:
        print("usage: python -m conformance.vectorgen [--check]", file=sys.stderr)
        return 2
    for rel in write_all():
        print(f"wrote conformance/vectors/{rel}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
