"""Tests added in session 7 to kill surviving mutants of a fresh `make mutants` batch for scope
(ranks 241-400, docs/assurance.md).

Every expectation is stated by hand from seed 003, ``/work/shared/reference/chio.md`` (the
serde shapes and unknown-key policies) and spec/scope.md; none is computed by calling the code
under test.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from mcp_touchstone.scope import ScopeDecodeError, decode_constraint
from mcp_touchstone.scope._decode import decode_scope_general
from mcp_touchstone.scope._decode_fast import fast_scope
from mcp_touchstone.scope._regex import compile_rust_regex_uncached
from mcp_touchstone.scope._types import Operation, PromptGrant, ResourceGrant
from mcp_touchstone.serde_json import JSON


def test_resource_and_prompt_grants_ignore_unknown_keys_on_the_general_path() -> None:
    """SCOPE-SHAPE-2: neither ``ResourceGrant`` nor ``PromptGrant`` denies unknown fields, on
    the general decoder too (the one-pass read ignores them as well)."""
    scope = decode_scope_general(
        {
            "resource_grants": [{"uri_pattern": "file:///*", "operations": ["read"], "x": 1}],
            "prompt_grants": [{"prompt_name": "p", "operations": ["get"], "note": "n"}],
        }
    )
    assert scope.resource_grants == (ResourceGrant("file:///*", (Operation.READ,)),)
    assert scope.prompt_grants == (PromptGrant("p", (Operation.GET,)),)


@pytest.mark.parametrize("value", [5, "max_length", None, True])
def test_a_constraint_that_is_neither_map_nor_array_names_serdes_expectation(
    value: object,
) -> None:
    """SCOPE-SHAPE-4: a constraint written as a scalar is refused with serde's invalid-type
    message for an adjacently tagged enum."""
    with pytest.raises(ScopeDecodeError) as exc:
        decode_constraint(value)  # type: ignore[arg-type]  # the bad input under test
    assert str(exc.value).endswith(", expected adjacently tagged enum Constraint")
    assert str(exc.value).startswith("constraint: invalid type: ")


@pytest.mark.parametrize(
    "pattern", [chr(0xD800), "a" + chr(0xDBFF), chr(0xDC00) + "b", chr(0xDFFF)]
)
def test_every_lone_surrogate_is_api_misuse(pattern: str) -> None:
    """SCOPE-HOSTED-RX-1: a pattern holding any code point of U+D800..U+DFFF (both ends
    included) is no Rust ``String``: a ``ValueError``, never handed to the crate."""
    with pytest.raises(ValueError, match="lone surrogate"):
        compile_rust_regex_uncached(pattern)


def test_the_code_point_after_the_surrogates_is_a_pattern() -> None:
    """SCOPE-HOSTED-RX-1: U+E000, just past the surrogate block, is ordinary text."""
    assert compile_rust_regex_uncached("\ue000").is_match("x\ue000")  # type: ignore[union-attr]


@pytest.mark.parametrize("count", [0, 1, (1 << 32) - 1])
def test_the_one_pass_read_takes_every_u32_invocation_count(count: int) -> None:
    """SCOPE-SHAPE-2: ``max_invocations`` is a ``u32``; the one-pass read takes the whole range,
    0 and ``u32::MAX`` included (declining them would only cost the general path)."""
    grant: dict[str, JSON] = {
        "server_id": "s",
        "tool_name": "t",
        "operations": ["invoke"],
        "max_invocations": count,
    }
    scope = fast_scope({"grants": [grant]})
    assert scope is not None
    assert scope.grants[0].max_invocations == count


def test_a_lazy_public_name_is_its_definition_on_first_access() -> None:
    """The package's lazy names (PEP 562): the very first access of each, in a fresh
    interpreter, is the object its home module defines (not a placeholder)."""
    code = (
        "import importlib, mcp_touchstone.scope as s\n"
        "for name, home in s._HOME.items():\n"
        "    first = getattr(s, name)\n"
        "    defined = getattr(importlib.import_module('mcp_touchstone.scope.' + home), name)\n"
        "    assert first is defined, name\n"
        "print(len(s._HOME))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 10
