# mcp-touchstone: every set-up step lives here, so a fresh machine needs only
# Python >= 3.11 with venv, Node.js >= 18 with npm, and make.  `make demo` and `make test` are
# the two commands the README promises.  What the tests need beyond .venv and node_modules
# (redis-server, Chromium) is installed with apt-get when missing and we are root on Debian or
# Ubuntu; anywhere else the target stops with one line naming what is missing and how to get it.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP_RUN := $(VENV)/.stamp-run
STAMP_DEV := $(VENV)/.stamp-dev
STAMP_BENCH := $(VENV)/.stamp-bench
STAMP_PROOFS := $(VENV)/.stamp-proofs
STAMP_FUZZ := $(VENV)/.stamp-fuzz

NODE_STAMP := tests/node/node_modules/.stamp

.PHONY: demo test slow bench vectors conformance drt-node leak-matrix audit-matrix node-deps proofs proofs-mutants mutants fuzz clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || { \
	  echo "make: $(PYTHON) >= 3.11 with venv and ensurepip is needed (Debian: apt-get install python3-venv; or PYTHON=python3.12 make ...)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_RUN): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(STAMP_DEV): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@ $(STAMP_RUN)

# The proof tools (pinned in the [proofs] extra): tests/proofs and the Z3 witness generator
# import z3, so `make test` installs them too.
$(STAMP_PROOFS): pyproject.toml | $(STAMP_DEV)
	$(BIN)/python -m pip install --quiet -e '.[dev,proofs]'
	@touch $@

$(STAMP_FUZZ): pyproject.toml | $(STAMP_DEV)
	$(BIN)/python -m pip install --quiet -e '.[dev,fuzz]'
	@touch $@

$(STAMP_BENCH): pyproject.toml | $(STAMP_DEV)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	@touch $@

## demo: run the conformance suite against the built-in reference and print the report.
demo: $(STAMP_RUN)
	$(BIN)/touchstone run

## compiled: byte-compile the package, as pip does for an installed wheel (an editable install
## under PYTHONDONTWRITEBYTECODE would otherwise recompile it at every process start).
.PHONY: compiled
compiled: | $(BIN)/python
	$(BIN)/python -m compileall -q src/mcp_touchstone

## test: ruff, mypy --strict, then the fast pytest suite (slow/proof/bench runs excluded), one
## worker per core (PYTEST_WORKERS, default auto).  Installs what the tests need first: .venv,
## the Node deps, redis-server, Chromium.  The package is byte-compiled first (`compiled`): many
## tests start `touchstone` or a harness as a subprocess.
PYTEST_WORKERS ?= auto
test: $(STAMP_PROOFS) $(NODE_STAMP) redis-server chromium
	$(BIN)/ruff check src tests bench proofs conformance/vectorgen assurance
	$(BIN)/ruff format --check src tests bench proofs conformance/vectorgen assurance
	$(BIN)/mypy src tests proofs
	$(MAKE) --no-print-directory compiled
	$(BIN)/pytest -q -n $(PYTEST_WORKERS) -m "not slow and not proof and not bench"

## slow: the slower Hypothesis / differential runs (budget: ~5 min on 2 cores).
slow: $(STAMP_PROOFS) $(NODE_STAMP) redis-server chromium rustc
	$(MAKE) --no-print-directory compiled
	$(BIN)/pytest -q -n $(PYTEST_WORKERS) -m slow

## bench: benchmarks against peers measured in the same run (each bench/bench_*.py script);
## results also go to bench/results/*.json.  The package is byte-compiled first, as pip does for
## an installed wheel (an editable install under PYTHONDONTWRITEBYTECODE recompiles every start).
## bench/bench_table.py measures the guard rails for BEFORE (a git revision, default the last
## commit with the fast twins) and the current tree side by side, and writes the table into
## docs/performance.md (about 8 min on 2 cores; `make chio-peer` first for the scope row).
BEFORE ?= 9238721
bench: $(STAMP_BENCH)
	$(MAKE) --no-print-directory compiled
	@for b in bench/bench_*.py; do echo "== $$b"; BEFORE=$(BEFORE) $(BIN)/python $$b || exit 1; done

## bench-table: only the guard-rail table (bench/bench_table.py), BEFORE against the current tree.
.PHONY: bench-table
bench-table: $(STAMP_BENCH)
	$(MAKE) --no-print-directory compiled
	BEFORE=$(BEFORE) $(BIN)/python bench/bench_table.py

## chio-peer: build Chio's own portable scope matcher (bb-connor/arc d2816aa0, chio-kernel-core)
## from its source, offline, as the scope batch bench's in-run peer (bench/chio_peer/build.py;
## about 65 s clean on 2 cores, under a second when nothing changed).  Needs cargo, CHIO_GIT
## (the git dir of a clone of bb-connor/arc holding d2816aa0; no default) and Debian's
## librust-*-dev crate packages, which it installs with apt-get when missing (root and the Debian
## archive needed, as .ci/run installs
## redis).  Not part of test or CI: Chio's source exists only where someone fetched it.
.PHONY: chio-peer chio-peer-check
chio-peer: $(STAMP_DEV)
	$(BIN)/python bench/chio_peer/build.py

## chio-peer-check: the peer against our reference: the bench batch and every shipped vector,
## each difference explained (bench/chio_peer/check.py; the baseline-d2816aa0.json run must pass).
chio-peer-check: chio-peer
	$(BIN)/python bench/chio_peer/check.py

## vectors: rewrite the generated vector files (conformance/vectorgen) and MANIFEST.json; tests check both.
vectors: $(STAMP_PROOFS)
	$(BIN)/python -m conformance.vectorgen
	$(BIN)/touchstone vectors manifest --vectors conformance/vectors

## conformance: what an SDK team's CI runs, against our own harnesses: lint the vectors, the Node
## harness with its baseline, the planted-bug variant (must fail), a short DRT run (the planted-bug
## DRT run is seeded and focused on the SCOPE-PATH vectors (CONF-DRT-4), and its candidate must be
## a path_prefix case; the baseline's vectors are left out of the corpus DRT mutates, as an SDK team
## would run it).
NODE_HARNESS := node conformance/harnesses/node/harness.js
conformance: $(STAMP_DEV)
	$(BIN)/touchstone vectors lint
	$(BIN)/touchstone run --impl "$(NODE_HARNESS)" --expected-failures conformance/harnesses/node/baseline.json --format markdown
	@if TOUCHSTONE_NODE_PLANT=path-prefix $(BIN)/touchstone run --impl "$(NODE_HARNESS)" --expected-failures conformance/harnesses/node/baseline.json > /dev/null; then echo "the planted bug was not caught"; exit 1; else echo "planted bug caught (exit 1, as it must be)"; fi
	$(BIN)/touchstone drt --impl "$(NODE_HARNESS)" --operation visibility.is_visible --examples 300 --expected-failures conformance/harnesses/node/baseline.json
	@out=$$(mktemp); if TOUCHSTONE_NODE_PLANT=path-prefix $(BIN)/touchstone drt --impl "$(NODE_HARNESS)" --operation scope.resolve_matching_grants --examples 3000 --seed 0 --expected-failures conformance/harnesses/node/baseline.json --rule SCOPE-PATH --out $$out; then echo "drt missed the planted bug"; exit 1; fi; grep -q '"path_prefix"' $$out || { echo "drt's candidate is not the planted path_prefix bug"; exit 1; }; rm -f $$out; echo "drt found and shrank the planted bug (exit 1, as it must; the candidate is a path_prefix case)"
	$(BIN)/touchstone drt --operation scope.resolve_matching_grants --examples 300

## drt-node: unfocused DRT of the Node harness's six operations, SEEDS (default 0-4) x DRT_EXAMPLES
## (default 3000), with its baseline and --js-numbers (CONF-DRT-5); any difference fails (budget:
## ~2 min on 2 cores, about 3 s per run; the slow test runs seed 0).
SEEDS ?= 0 1 2 3 4
DRT_EXAMPLES ?= 3000
NODE_OPERATIONS := scope.resolve_matching_grants mrtr.request_binding mrtr.input_responses_digest mrtr.state.seal mrtr.state.open visibility.is_visible
drt-node: $(STAMP_DEV)
	@for op in $(NODE_OPERATIONS); do for s in $(SEEDS); do \
	  out=$$($(BIN)/touchstone drt --impl "$(NODE_HARNESS)" --operation $$op --examples $(DRT_EXAMPLES) \
	    --seed $$s --expected-failures conformance/harnesses/node/baseline.json --js-numbers); rc=$$?; \
	  echo "seed $$s: $$(echo "$$out" | head -1)"; \
	  test $$rc -eq 0 || { echo "$$out"; echo "drt-node: a difference ($$op, seed $$s)"; exit 1; }; \
	done; done

## leak-matrix: rerun the cross-SDK leak checks and rewrite docs/leak-matrix.md (~30 s).
leak-matrix: $(STAMP_DEV) $(NODE_STAMP)
	$(BIN)/python -m tests.adapters.leak_matrix > docs/leak-matrix.md

## mutants: mutation testing with cosmic-ray's full operator set (docs/assurance.md), killed by
## the package's vectors in-process and then its tests that execute the mutated lines.
## PKG=scope|visibility|mrtr|json (default: all four, one after another), SAMPLE=N mutants per
## package drawn by the seeded ranking of their keys (SEED, default 13; 0 = every mutant),
## BUDGET=s per package (default 1200). Each run works in a private copy of the tree; results
## and cosmic-ray's session go to the ignored assurance/.cache/mutants/ (a re-run decides only
## what is new), then the report: first-pass rate per package, then after assurance/equivalent.toml.
SAMPLE ?= 60
SEED ?= 13
BUDGET ?= 1200
mutants: $(STAMP_DEV)
	$(BIN)/python -m assurance.mutants run $(if $(PKG),--pkg $(PKG)) --sample $(SAMPLE) \
	  --seed $(SEED) --budget $(BUDGET)

## fuzz: atheris byte fuzzing of every parser (each target to its quota, 1,000,000 inputs, fixed
## SEED; FUZZ_SECONDS caps each target, a target cut short fails), the Hypothesis fuzz tests at
## FUZZ_EXAMPLES each, then the growth table.
FUZZ_SECONDS ?= 0
FUZZ_EXAMPLES ?= 2000
fuzz: $(STAMP_FUZZ)
	$(BIN)/python -m assurance.fuzz all --seed $(SEED) --seconds $(FUZZ_SECONDS)
	FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/pytest -q -p no:randomly tests/fuzz
	$(BIN)/python -m assurance.growth

## audit-matrix: audit every test server with `touchstone audit`, rewrite docs/audit-matrix.md (~1 min).
audit-matrix: $(STAMP_DEV) $(NODE_STAMP)
	$(BIN)/python -m tests.audit.audit_matrix > docs/audit-matrix.md

## node-deps: the TypeScript SDK (npm @modelcontextprotocol/sdk) for the leak/audit matrices, from
## tests/node/package-lock.json; re-run only when the lock file changes (stamp file).
node-deps: $(NODE_STAMP)

$(NODE_STAMP): tests/node/package-lock.json tests/node/package.json
	@command -v node >/dev/null && command -v npm >/dev/null || { \
	  echo "make: Node.js >= 18 with npm is needed (https://nodejs.org, or Debian: apt-get install nodejs npm)"; exit 1; }
	cd tests/node && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

## proofs: every named property (CrossHair gate + Z3 models tied to the code); records proofs/manifest.json.
proofs: $(STAMP_PROOFS)
	PYTHONHASHSEED=0 $(BIN)/python -m proofs.run --record
	$(BIN)/pytest -q -m proof tests/proofs

## proofs-mutants: plant each property's bug in a temporary copy of src/ and check it is caught.
proofs-mutants: $(STAMP_PROOFS)
	PYTHONHASHSEED=0 $(BIN)/python -m proofs.mutants --record

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .hypothesis .fuzz-corpus

## redis-server, chromium: the system programs the tests start (a real Redis on a loopback port;
## Debian's Chromium, headless, with a font for its screenshots, for the HTML report's browser
## test).  Present: nothing to do.
## Missing: apt-get install when root with apt-get (as CI is); otherwise one line saying what to
## install.  `make test` and `make slow` depend on both.  rustc: the compiler the slow
## Debug-escaping test builds with; rustup's (Debian's is too old), never installed here.
.PHONY: redis-server chromium rustc
APT_INSTALL = DEBIAN_FRONTEND=noninteractive sh -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends "$$@" >/dev/null' apt-get
CHROMIUM_NAMES ?= chromium chromium-browser google-chrome
REDIS_SERVER ?= redis-server
redis-server:
	@command -v $(REDIS_SERVER) >/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then echo "installing redis-server (apt-get)"; $(APT_INSTALL) redis-server; \
	  else echo "make: redis-server is needed by the adapter tests: install it (Debian: sudo apt-get install redis-server; macOS: brew install redis)"; exit 1; fi; }
rustc:
	@command -v rustc >/dev/null || [ -x "$$HOME/.cargo/bin/rustc" ] || { \
	  echo "make: rustc is needed by the slow Debug-escaping test: install Rust with rustup (https://rustup.rs; Debian's rustc is too old)"; exit 1; }
chromium:
	@for b in $(CHROMIUM) $(CHROMIUM_NAMES); do command -v $$b >/dev/null && exit 0; done; \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then echo "installing chromium (apt-get)"; $(APT_INSTALL) chromium fonts-liberation; \
	  else echo "make: Chromium is needed by the HTML report's browser test: install it (Debian: sudo apt-get install chromium; or put chromium on PATH, or set CHROMIUM=/path/to/chrome)"; exit 1; fi

## upstream-harnesses: build the upstream harnesses offline from Debian's crate packages
## (serde_json for json.*; Chio's chio-peer for scope.*, which needs CHIO_GIT; turbomcp's for
## visibility.* but dispatch, which needs TURBOMCP_GIT; neva and turbomcp's dispatcher cannot be
## built offline: offline.py, given NEVA_GIT and TURBOMCP_GIT, says why). Builds what it can.
## upstream-matrix needs all three git dirs (the doc's reasons are read from them).
.PHONY: upstream-harnesses upstream-matrix
upstream-harnesses: $(STAMP_DEV)
	$(BIN)/python conformance/upstream/serde_json/build.py
	@$(BIN)/python bench/chio_peer/build.py || echo "upstream-harnesses: Chio's harness is not built (the reason is above)"
	@$(BIN)/python conformance/upstream/turbomcp/build.py || echo "upstream-harnesses: turbomcp's harness is not built (the reason is above)"
	@for u in neva turbomcp; do $(BIN)/python conformance/upstream/offline.py $$u; done || true

## upstream-matrix: every shipped vector against the reference, each upstream harness and the
## Node harness; writes docs/upstream-matrix.md (conformance/upstream/matrix.py).
upstream-matrix: upstream-harnesses $(NODE_STAMP)
	$(BIN)/python conformance/upstream/matrix.py

## soak: the adapters under load and faults (bench/soak.py): 200 concurrent clients on an `mcp`
## and a FastMCP server, bare and guarded, with a durable redis-server killed and SIGSTOPped;
## loopback only, under 5 min; exits 1 when a goal is missed.  soak-short: the CI run, under 2 min.
.PHONY: soak soak-short
soak: $(STAMP_DEV) redis-server
	$(BIN)/python bench/soak.py

soak-short: $(STAMP_DEV) redis-server
	$(BIN)/python bench/soak.py --short
