"""Single-source models: each builds Z3 terms with ``proofs._ops.Z3`` and computes plain values
with ``proofs._ops.PY``.  They import neither ``mcp_touchstone`` nor anything but z3, so the
witness generator in ``conformance/vectorgen`` can take expected answers from them."""
