# ruff: noqa: E501 - a data table (one port bug per property, ~600 lines once formatted): the exact source texts of the planted port bugs read best unwrapped.
"""``python -m proofs.port_bugs``: for each property, plant one bug a port would plausibly have
(not the property's canary) in a temporary copy of ``src/`` and record which gates fail on it.

Gates, each run against the copy: the property itself (``proofs``); ``vectors`` (the committed
suite through the real harness operations, in process); ``tests`` (the test file named in the
row, run only when the property and the vectors both pass, to tell "tests" from "none").  ``--record``
writes the table into ``proofs/manifest.json`` (``python -m proofs.report`` puts it in
``docs/assurance.md``).  The working tree is never touched.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from proofs.mutants import ROOT, plant, planted_env, verdicts_against
from proofs.properties import Mutant


@dataclass(frozen=True)
class PortBug:
    """A port bug for ``prop``: ``old`` becomes ``new`` in ``file``; ``tests`` is the test file
    (or node id) run as the tests gate."""

    prop: str
    file: str
    old: str
    new: str
    function: str
    why: str
    tests: str


M = "mcp_touchstone."
SA, SM, SW = M + "scope._arguments.", M + "scope._matcher.", M + "scope._walks."
ST = M + "mrtr._state."
T_SCOPE = "tests/scope/test_scope_properties.py"
T_WALKS = "tests/scope/test_scope_argument_walks.py"
T_STATE = "tests/mrtr/test_mrtr_state.py"

BUGS: tuple[PortBug, ...] = (
    PortBug(
        "PROOF-SCOPE-UNCOVERED",
        "scope/_matcher.py",
        '        grant.server_id in ("*", server_id)\n',
        '        (grant.server_id in ("*", server_id) or (grant.server_id.endswith("*") and server_id.startswith(grant.server_id[:-1])))\n',
        SM + "grant_targets",
        "a trailing '*' server pattern matches by prefix",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-STAR",
        "scope/_matcher.py",
        "        int(grant.tool_name == tool_name),\n",
        '        int(grant.tool_name in (tool_name, "*")),\n',
        SM + "specificity",
        "a '*' tool counts as exact in the rank",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-REFUSAL",
        "scope/_matcher.py",
        "        if isinstance(covered, ConstraintError):\n            return covered\n",
        "        if isinstance(covered, ConstraintError):\n            continue\n",
        SM + "resolve_matching_grants",
        "a refusal skips the grant (fail open)",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-NONMATCH",
        "scope/_matcher.py",
        "    if not grant_targets(grant, tool_name, server_id):\n        return False\n    return constraints_match(grant.constraints, facts)\n",
        "    verdict = constraints_match(grant.constraints, facts)\n    if not grant_targets(grant, tool_name, server_id):\n        return verdict if isinstance(verdict, ConstraintError) else False\n    return verdict\n",
        SM + "grant_covers",
        "constraints are evaluated before the target test",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-RANK-TOTAL",
        "scope/_matcher.py",
        "    return (-server_exact, -tool_exact, -constraint_count, match.index)\n",
        "    return (-server_exact, -tool_exact, -constraint_count, -match.index)\n",
        SM + "_rank_key",
        "ties broken by descending index",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-RANK-EXACT",
        "scope/_matcher.py",
        "    return (-server_exact, -tool_exact, -constraint_count, match.index)\n",
        "    return (-tool_exact, -server_exact, -constraint_count, match.index)\n",
        SM + "_rank_key",
        "tool exactness ranked before server exactness",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-MAXLEN",
        "scope/_arguments.py",
        "        return all(len(leaf.value.encode()) <= limit for leaf in self.string_leaves)\n",
        "        return all(len(leaf.value) <= limit for leaf in self.string_leaves)\n",
        SA + "ArgumentFacts.max_length",
        "the length counted in characters, not UTF-8 bytes",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-MAXARGS",
        "scope/_arguments.py",
        "        return len(serde_json.to_string(self.arguments).encode()) <= limit\n",
        "        return len(serde_json.to_string(self.arguments)) <= limit\n",
        SA + "ArgumentFacts.max_args_size",
        "the size counted in characters, not bytes",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-AUD-STRICT",
        "scope/_walks.py",
        "    if isinstance(value, list):\n        return all(collect_string_values_strict(item, out) for item in value)\n    return False\n",
        "    if isinstance(value, list):\n        return all(collect_string_values_strict(item, out) for item in value if item is not None)\n    return False\n",
        SW + "collect_string_values_strict",
        "a null inside an audience array is skipped",
        T_WALKS,
    ),
    PortBug(
        "PROOF-SCOPE-AUD-ABSENT",
        "scope/_walks.py",
        "    return ascii_lower(key) in AUDIENCE_KEYS\n",
        '    return ascii_lower(key) in AUDIENCE_KEYS or key.endswith("_to")\n',
        SW + "is_audience_key",
        "keys ending in _to read as audience keys",
        T_WALKS,
    ),
    PortBug(
        "PROOF-SCOPE-STORE-STRICT",
        "scope/_walks.py",
        "    return ascii_lower(key) in MEMORY_STORE_KEYS\n",
        "    return key in MEMORY_STORE_KEYS\n",
        SW + "is_memory_store_key",
        "store keys matched case-sensitively",
        T_WALKS,
    ),
    PortBug(
        "PROOF-SCOPE-PATH-DESC",
        "scope/_arguments.py",
        "    if len(prefix_path.segments) > len(candidate_path.segments):\n",
        "    if len(prefix_path.segments) >= len(candidate_path.segments):\n",
        SA + "path_has_prefix",
        "a path is not under itself",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-PATH-SIBLING",
        "scope/_arguments.py",
        "    return all(\n        expected == actual\n",
        "    return all(\n        actual.startswith(expected)\n",
        SA + "path_has_prefix",
        "segments compared by string prefix",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-PATH-DOTDOT",
        "scope/_arguments.py",
        "            if not segments:\n                return None\n",
        "            if not segments:\n                continue\n",
        SA + "normalize_path",
        "'..' at the root is clamped",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-PATH-NORMAL",
        "scope/_arguments.py",
        '        if segment in ("", "."):\n',
        '        if segment == "":\n',
        SA + "normalize_path",
        "'.' segments kept",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-PATH-ABS",
        "scope/_arguments.py",
        '    is_absolute = path.startswith(("/", "\\\\"))\n',
        '    is_absolute = path.startswith("/")\n',
        SA + "normalize_path",
        "a leading backslash is not absolute",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-GLOB-EQUIV",
        "scope/_arguments.py",
        "            match_idx += 1\n",
        "            match_idx += 2\n",
        SA + "wildcard_matches",
        "the star backtracks two characters at a time",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-GLOB-SUBDOMAIN",
        "scope/_arguments.py",
        '    while pattern_idx < len(pattern) and pattern[pattern_idx] == "*":\n',
        '    while pattern_idx < len(pattern) and pattern[pattern_idx] in "*.":\n',
        SA + "wildcard_matches",
        "trailing '.' after a star is optional",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-GLOB-TRAILDOT",
        "scope/_arguments.py",
        '    host = authority.partition(":")[0].strip(".")\n',
        '    host = authority.partition(":")[0].lstrip(".")\n',
        SA + "parse_domain",
        "trailing dots kept on the host",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-GLOB-LITERAL",
        "scope/_arguments.py",
        '        if pattern_idx < len(pattern) and pattern[pattern_idx] in ("*", candidate[candidate_idx]):\n',
        '        if pattern_idx < len(pattern) and pattern[pattern_idx] in ("*", "?", candidate[candidate_idx]):\n',
        SA + "wildcard_matches",
        "'?' matches any character",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-ALL-NONEMPTY",
        "scope/_arguments.py",
        "        return bool(candidates) and all(path_has_prefix(path, prefix) for path in candidates)\n",
        "        return all(path_has_prefix(path, prefix) for path in candidates)\n",
        SA + "ArgumentFacts.path_prefix",
        "no path candidate passes",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-ALL-EVERY",
        "scope/_arguments.py",
        "        return bool(domains) and all(wildcard_matches(pattern, domain) for domain in domains)\n",
        "        return any(wildcard_matches(pattern, domain) for domain in domains)\n",
        SA + "ArgumentFacts.domain_glob",
        "one matching domain is enough",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-ADMIT-NEVER-REFUSED",
        "scope/_admission.py",
        "            if outcome.released:\n",
        "            if True:\n",
        M + "scope._admission.admit",
        "an unreleased exhausted budget continues",
        "tests/scope/test_scope_admission.py",
    ),
    PortBug(
        "PROOF-SCOPE-ADMIT-PRECEDENCE",
        "scope/_admission.py",
        "    if budget_error is not None:\n        return AdmissionDeny(budget, budget_error, final)\n    if guard_denial is not None:\n        return AdmissionDeny(guard, guard_denial, final)\n",
        "    if guard_denial is not None:\n        return AdmissionDeny(guard, guard_denial, final)\n    if budget_error is not None:\n        return AdmissionDeny(budget, budget_error, final)\n",
        M + "scope._admission.admit",
        "guard denial reported before the budget error",
        "tests/scope/test_scope_admission.py",
    ),
    PortBug(
        "PROOF-VIS-LIST-ABSENT",
        "visibility/_dispatch.py",
        "        unfiltered = task_path and list_kind is ComponentKind.TOOL\n",
        "        unfiltered = list_kind is ComponentKind.RESOURCE_TEMPLATE or (task_path and list_kind is ComponentKind.TOOL)\n",
        M + "visibility._dispatch.dispatch",
        "the template list is left unfiltered",
        "tests/visibility",
    ),
    PortBug(
        "PROOF-VIS-CALL-REFUSAL",
        "visibility/_rpc.py",
        '    return invalid_params(f"unknown prompt: {name}")\n',
        '    return invalid_params(f"prompt not found: {name}")\n',
        M + "visibility._rpc.unknown_prompt_error",
        "a hidden prompt's error worded differently",
        "tests/visibility",
    ),
    PortBug(
        "PROOF-VIS-BARE",
        "visibility/_policy.py",
        "            if not hidden.isdisjoint(tags_of(meta)):\n",
        '            if not hidden.isdisjoint(tags_of(meta)) or "hidden" in tags_of(meta):\n',
        M + "visibility._policy.Visibility.is_visible",
        "a 'hidden' tag hides by default",
        "tests/visibility",
    ),
    PortBug(
        "PROOF-VIS-EMPTY-SCOPES",
        "visibility/_identity.py",
        "    if not needed:\n        return True\n",
        "    if not needed:\n        return identity.subject is not None\n",
        M + "visibility._identity.has_scopes",
        "an empty requirement needs a signed-in caller",
        "tests/visibility",
    ),
    PortBug(
        "PROOF-VIS-TPL-SEGMENT",
        "visibility/_template.py",
        '            parts.append("([^/]+)" if kind == _SEGMENT else "(.+)")\n',
        '            parts.append("([^/]*)" if kind == _SEGMENT else "(.+)")\n',
        M + "visibility._template.match_uri_template",
        "a {v} variable may be empty",
        "tests/visibility",
    ),
    PortBug(
        "PROOF-VIS-TPL-ANCHORED",
        "visibility/_template.py",
        "    found = pattern.fullmatch(uri)\n",
        "    found = pattern.match(uri)\n",
        M + "visibility._template.match_uri_template",
        "the template anchored at the start only",
        "tests/visibility",
    ),
    PortBug(
        "PROOF-MRTR-ROUNDTRIP",
        "mrtr/_state.py",
        "    token = seal_plaintext(payload.encode(), keyring, nonce, audience_bound=payload.aud is not None)\n",
        "    token = seal_plaintext(payload.encode(), keyring, nonce, audience_bound=bool(payload.aud))\n",
        ST + "seal",
        "an empty audience sealed as v1",
        T_STATE,
    ),
    PortBug(
        "PROOF-MRTR-TAMPER",
        "mrtr/_state.py",
        "    if version not in ACCEPTED_VERSIONS:\n",
        "    if version.lower() not in ACCEPTED_VERSIONS:\n",
        ST + "open_plaintext",
        "the version compared case-insensitively",
        T_STATE,
    ),
    PortBug(
        "PROOF-MRTR-SIZE-FIRST",
        "mrtr/_state.py",
        "    if size > check.max_state_bytes:\n",
        "    if size > check.max_state_bytes + 1:\n",
        ST + "verify",
        "the size cap off by one",
        T_STATE,
    ),
    PortBug(
        "PROOF-MRTR-ORDER",
        "mrtr/_state.py",
        '    if payload.principal != check.principal:\n        raise _invalid("requestState principal mismatch")\n    if payload.aud != check.audience:\n        raise _invalid("requestState audience mismatch")\n',
        '    if payload.aud != check.audience:\n        raise _invalid("requestState audience mismatch")\n    if payload.principal != check.principal:\n        raise _invalid("requestState principal mismatch")\n',
        ST + "verify",
        "audience checked before principal",
        T_STATE,
    ),
    PortBug(
        "PROOF-MRTR-EXPIRY",
        "mrtr/_state.py",
        "    if payload.exp < check.now:\n",
        "    if payload.exp <= check.now:\n",
        ST + "verify",
        "exp == now expired",
        T_STATE,
    ),
    PortBug(
        "PROOF-MRTR-ALLOWS",
        "mrtr/_capabilities.py",
        "            mode = request.mode or ElicitationMode.FORM\n            return self.elicitation is not None and self.elicitation.allows(mode)\n",
        "            mode = request.mode or ElicitationMode.URL\n            return self.elicitation is not None and self.elicitation.allows(mode)\n",
        M + "mrtr._capabilities.ClientMrtrCapabilities.allows",
        "an elicitation without a mode read as URL",
        "tests/mrtr/test_mrtr_capabilities.py",
    ),
    PortBug(
        "PROOF-MRTR-CAP-ROUND",
        "mrtr/_capabilities.py",
        "    for request in requests:\n        if not capabilities.allows(request):\n",
        "    for request in reversed(requests):\n        if not capabilities.allows(request):\n",
        M + "mrtr._capabilities.missing_capability_error",
        "the last refused request named",
        "tests/mrtr/test_mrtr_capabilities.py",
    ),
    PortBug(
        "PROOF-MRTR-BIND",
        "mrtr/_binding.py",
        "        return {k: v for k, v in params.items() if k not in UNBOUND_KEYS}\n",
        '        return {k: v for k, v in params.items() if k not in UNBOUND_KEYS and k != "task"}\n',
        M + "mrtr._binding.salient_params",
        "a 'task' key left out of the binding",
        "tests/mrtr/test_mrtr_binding.py",
    ),
    PortBug(
        "PROOF-MRTR-SETTLED",
        "mrtr/_seed.py",
        "        if key in answers:\n            continue  # settled: a later answer never overwrites a sealed one\n",
        "        if key in answers and value is None:\n            continue  # settled: a later answer never overwrites a sealed one\n",
        M + "mrtr._seed.merge_answers",
        "a non-null retry answer overwrites a settled one",
        "tests/mrtr/test_mrtr_retry.py",
    ),
    PortBug(
        "PROOF-MRTR-REPLAY",
        "mrtr/_store.py",
        "            if exp > now:\n                self._entries.move_to_end(key)\n",
        "            if exp > now + 1:\n                self._entries.move_to_end(key)\n",
        M + "mrtr._store.InMemoryRequestStateStore.get",
        "a stored final read as expired one second early",
        "tests/mrtr/test_mrtr_engine.py",
    ),
    PortBug(
        "PROOF-MRTR-PRINCIPAL",
        "mrtr/_state.py",
        "    if payload.principal != check.principal:\n",
        '    if (payload.principal or "") != (check.principal or ""):\n',
        ST + "verify",
        "a null principal equals the empty one",
        T_STATE,
    ),
    PortBug(
        "PROOF-MRTR-AUDIENCE",
        "mrtr/_state.py",
        "    if payload.aud != check.audience:\n",
        '    if (payload.aud or "") != (check.audience or ""):\n',
        ST + "verify",
        "a null audience equals the empty one",
        T_STATE,
    ),
    PortBug(
        "PROOF-MRTR-EXPIRES",
        "mrtr/_state.py",
        "    if payload.exp < check.now:\n",
        "    if payload.exp + 1 < check.now:\n",
        ST + "verify",
        "one second of grace after exp",
        T_STATE,
    ),
    PortBug(
        "PROOF-MRTR-OTHER-REQUEST",
        "mrtr/_binding.py",
        '    return f"{method}:{_digest(params)}"\n',
        '    return f"tools/call:{_digest(params)}"\n',
        M + "mrtr._binding.request_binding",
        "the method left out of the binding",
        "tests/mrtr/test_mrtr_binding.py",
    ),
    PortBug(
        "PROOF-MRTR-WRONG-KEY",
        "mrtr/_state.py",
        '    secret = keyring.keys.get(kid)\n    if secret is None:\n        raise _invalid("unknown requestState key id")\n',
        '    secret = keyring.keys.get(kid, keyring.keys.get(keyring.active_kid))\n    if secret is None:\n        raise _invalid("unknown requestState key id")\n',
        ST + "open_plaintext",
        "an unknown kid falls back to the active key",
        T_STATE,
    ),
    PortBug(
        "PROOF-SCOPE-TARGETS",
        "scope/_matcher.py",
        '        and grant.tool_name in ("*", tool_name)\n',
        '        and grant.tool_name.lower() in ("*", tool_name.lower())\n',
        SM + "grant_targets",
        "tool names compared case-insensitively",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-NARROW",
        "scope/_matcher.py",
        "    if not grant_targets(grant, tool_name, server_id):\n        return False\n",
        "    if not grant_targets(grant, tool_name, server_id) and not grant.constraints:\n        return False\n",
        SM + "grant_covers",
        "a constrained grant is judged by its constraints alone",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-MONOTONE",
        "scope/_matcher.py",
        "        if not covered:\n            continue\n",
        "        if not covered:\n            matches.clear()\n            continue\n",
        SM + "resolve_matching_grants",
        "a grant that does not cover the call drops the matches before it",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-SCOPE-OUT-OF-SCOPE",
        "scope/_matcher.py",
        "        and Operation.INVOKE in grant.operations\n",
        "        and (Operation.INVOKE in grant.operations or Operation.DELEGATE in grant.operations)\n",
        SM + "grant_targets",
        "delegate read as implying invoke",
        T_SCOPE,
    ),
    PortBug(
        "PROOF-VIS-BARE-ANY",
        "visibility/_policy.py",
        "        hidden = self.hidden_tags\n",
        '        hidden = self.hidden_tags or frozenset({"secret"})\n',
        M + "visibility._policy.Visibility.is_visible",
        "a default hidden tag",
        "tests/visibility",
    ),
    PortBug(
        "PROOF-VIS-WIRE",
        "visibility/_hiddenness.py",
        "    for page in pages:\n        found = page.first_with_id(key)\n",
        "    for page in pages[:1]:\n        found = page.first_with_id(key)\n",
        M + "visibility._hiddenness.is_hidden",
        "the strict profile reads the first page only",
        "tests/visibility",
    ),
)

VECTORS = "from proofs import _vectors; print(len(_vectors.replay(('*',))))"


def _vectors_failing(src: Path) -> int:
    proc = subprocess.run(
        [sys.executable, "-c", VECTORS],
        cwd=ROOT,
        env=planted_env(src),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    try:
        return int(proc.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return -1


def _tests_fail(bug: PortBug, src: Path) -> bool:
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-x",
        "-p",
        "no:cacheprovider",
        "-m",
        "not slow and not proof and not bench",
        bug.tests,
    ]
    proc = subprocess.run(
        cmd,
        cwd=ROOT,
        env=planted_env(src),
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    return proc.returncode != 0


def run_bug(bug: PortBug) -> dict[str, object]:
    """Plant ``bug`` and run the gates; one row of the table."""
    start = time.perf_counter()
    mutant = Mutant(bug.prop, bug.file, bug.old, bug.new, bug.function, bug.why)
    with tempfile.TemporaryDirectory(prefix="port-bug-") as name:
        tmp = Path(name)
        src = plant(mutant, tmp)
        verdicts = verdicts_against(src, [bug.prop], tmp / "proofs.json")
        vectors = _vectors_failing(src)
        caught = verdicts.get(bug.prop) == "refuted"
        # The tests gate decides only what the proof and the vectors both missed.
        tests = None if caught or vectors > 0 else _tests_fail(bug, src)
    return {
        "property": bug.prop,
        "bug": bug.why,
        "own": verdicts.get(bug.prop, "not run"),
        "vectors": f"{vectors} failing" if vectors > 0 else ("error" if vectors < 0 else "pass"),
        "tests": "not needed" if tests is None else f"{'fail' if tests else 'pass'} ({bug.tests})",
        "seconds": round(time.perf_counter() - start, 1),
    }


def totals(rows: list[dict[str, object]]) -> dict[str, int]:
    """How many rows each kind of gate caught."""
    by_proofs = [r["own"] == "refuted" for r in rows]
    by_vectors = [str(r["vectors"]).endswith("failing") for r in rows]
    by_tests = [str(r["tests"]).startswith("fail") for r in rows]
    return {
        "proofs": sum(by_proofs),
        "vectors_only": sum(v and not p for p, v in zip(by_proofs, by_vectors, strict=True)),
        "tests_only": sum(
            t and not p and not v for p, v, t in zip(by_proofs, by_vectors, by_tests, strict=True)
        ),
        "missed": sum(
            not (p or v or t) for p, v, t in zip(by_proofs, by_vectors, by_tests, strict=True)
        ),
    }


def main(argv: list[str]) -> int:
    """Run every port bug (``--only`` some properties'); ``--record`` stores the table."""
    parser = argparse.ArgumentParser(prog="python -m proofs.port_bugs")
    parser.add_argument("--only", default="")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    parser.add_argument("--load", type=Path, help="take the rows of an earlier --json run")
    args = parser.parse_args(argv)
    wanted = {x for x in args.only.split(",") if x}
    chosen = [b for b in BUGS if not wanted or b.prop in wanted]
    rows: list[dict[str, object]] = []
    if args.load:
        rows = json.loads(args.load.read_text())
    else:
        with cf.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            for row in pool.map(run_bug, chosen):
                rows.append(row)
                print(json.dumps(row), flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    summary = totals(rows)
    print(f"port bugs: {summary} of {len(rows)}")
    if args.record:
        from proofs import manifest

        data = manifest.load()
        if wanted:  # keep the recorded rows of the properties not re-run now
            kept = {b.prop for b in BUGS} - wanted
            earlier = data.get("port_bugs", {}).get("rows", [])
            order = [b.prop for b in BUGS]
            rows = sorted(
                [r for r in earlier if r["property"] in kept] + rows,
                key=lambda r: order.index(str(r["property"])),
            )
            summary = totals(rows)
        data["port_bugs"] = {
            "at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "machine": manifest._machine(),
            "rows": rows,
            "totals": summary,
        }
        manifest.save(data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
