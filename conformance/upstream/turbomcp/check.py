"""Every shipped ``visibility.*`` vector the turbomcp harness runs, each failure explained.

Run: ``.venv/bin/python conformance/upstream/turbomcp/check.py [--write-baseline]``, after
``python conformance/upstream/turbomcp/build.py``.  The harness is ``TURBOMCP_HARNESS`` or
``build/target/release/turbomcp-harness`` beside this file.

``touchstone run --impl <harness> --semantic visibility`` runs the vectors (``visibility.dispatch``
is not announced, so its vectors are not applicable).  turbomcp 519331ee is the version the
visibility spec mirrors, and the crates Debian supplies (serde_json 1.0.87, regex 1.7.1,
hashbrown 0.12.3) change nothing these operations answer, so no difference is known:
:data:`REASONS` is empty, :func:`explain` names none, and every failing vector is a finding
(printed, exit 1).  ``baseline.json`` is empty; the run with it must pass.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from _harness_check import check_main  # noqa: E402 -- the shared check

REASONS: dict[str, str] = {}
"""The ways this build may differ from the vectors, by key: none is known."""


def explain(case_input: Any, expected: Any, actual: Any) -> str | None:
    """The REASONS key that explains ``actual`` where ``expected`` was wanted: none is known,
    so every difference is a finding."""
    del case_input, expected, actual
    return None


def explain_failures(failed: list[dict[str, Any]]) -> list[str | None]:
    """Each failing vector's reason key (:func:`explain`): None, a finding."""
    return [explain(None, r.get("expected"), r.get("actual")) for r in failed]


def main() -> int:
    return check_main("turbomcp", "TURBOMCP_HARNESS", REASONS, explain_failures)


if __name__ == "__main__":
    sys.exit(main())
