"""Assurance tooling: mutation testing (``make mutants``) and fuzzing (``make fuzz``).

Not part of the installed package; run from the repository root (docs/assurance.md).
"""
