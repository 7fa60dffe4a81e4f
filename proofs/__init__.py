"""Proofs about the real code in ``src/mcp_touchstone`` (see ``proofs/README.md``).

Nothing here is imported by the library: the contracts are wrapper functions that call the real
functions, and the models import only :mod:`z3` and :mod:`proofs._ops`.
"""
