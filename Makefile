# mcp-touchstone: every set-up step lives here, so a fresh machine needs only
# Python >= 3.11 with venv, and make.  `make demo` and `make test` are the two
# commands the README promises.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP_RUN := $(VENV)/.stamp-run
STAMP_DEV := $(VENV)/.stamp-dev
STAMP_BENCH := $(VENV)/.stamp-bench

NODE_STAMP := tests/node/node_modules/.stamp

.PHONY: demo test slow bench vectors leak-matrix audit-matrix node-deps clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_RUN): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(STAMP_DEV): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@ $(STAMP_RUN)

$(STAMP_BENCH): pyproject.toml | $(STAMP_DEV)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	@touch $@

## demo: run the conformance suite against the built-in reference and print the report.
demo: $(STAMP_RUN)
	$(BIN)/touchstone run

## test: ruff, mypy --strict, then the fast pytest suite (slow/proof/bench runs excluded).
test: $(STAMP_DEV) $(NODE_STAMP)
	$(BIN)/ruff check src tests bench proofs conformance/vectorgen examples
	$(BIN)/ruff format --check src tests bench proofs conformance/vectorgen examples
	$(BIN)/mypy src tests
	$(BIN)/pytest -q -m "not slow and not proof and not bench"

## slow: the slower Hypothesis / differential runs (budget: ~5 min on 2 cores).
slow: $(STAMP_DEV) $(NODE_STAMP)
	$(BIN)/pytest -q -m slow

## bench: benchmarks against peers measured in the same run (each bench/bench_*.py script).
bench: $(STAMP_BENCH)
	@for b in bench/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

## vectors: rewrite the generated vector files (conformance/vectorgen); a test checks they are current.
vectors: $(STAMP_DEV)
	$(BIN)/python -m conformance.vectorgen

## leak-matrix: rerun the cross-SDK leak checks and rewrite docs/leak-matrix.md (~30 s).
leak-matrix: $(STAMP_DEV) $(NODE_STAMP)
	$(BIN)/python -m tests.adapters.leak_matrix > docs/leak-matrix.md

## audit-matrix: audit every test server with `touchstone audit`, rewrite docs/audit-matrix.md (~1 min).
audit-matrix: $(STAMP_DEV) $(NODE_STAMP)
	$(BIN)/python -m tests.audit.audit_matrix > docs/audit-matrix.md

## node-deps: the TypeScript SDK (npm @modelcontextprotocol/sdk) for the leak/audit matrices, from
## tests/node/package-lock.json; re-run only when the lock file changes (stamp file).
node-deps: $(NODE_STAMP)

$(NODE_STAMP): tests/node/package-lock.json tests/node/package.json
	cd tests/node && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .hypothesis
