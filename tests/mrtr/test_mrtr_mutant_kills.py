"""Tests added to kill surviving mutants of `make mutants` (docs/assurance.md, "Survivors")."""

from __future__ import annotations

import pytest

from mcp_touchstone.mrtr._meta import MetaError, parse_request_meta


def test_meta_protocol_version_must_be_a_string() -> None:
    """`io.modelcontextprotocol/protocolVersion` is neva's `Option<String>`: an integer fails the
    whole `_meta` parse with serde's invalid-type message (kills mrtr/_meta.py:156 "str")."""
    with pytest.raises(MetaError) as exc:
        parse_request_meta({"io.modelcontextprotocol/protocolVersion": 5})
    assert str(exc.value) == "invalid type: integer `5`, expected a string"
    assert parse_request_meta({"io.modelcontextprotocol/protocolVersion": "2026-07-28"})
