"""Structure-aware fuzzing of every parser target (assurance/fuzz_targets.py) with Hypothesis.

The byte-level, coverage-guided counterpart is ``make fuzz`` (atheris); these run in ``make test``
at Hypothesis' default example count (a few seconds), and at ``FUZZ_EXAMPLES`` each under
``make fuzz``. A target raises only for a finding: an untyped exception or a broken invariant.
"""

from __future__ import annotations

import os

import pytest
from assurance import fuzz_targets
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_touchstone import serde_json
from tests.strategies import mrtr as mrtr_st
from tests.strategies import scope as scope_st
from tests.strategies.scope_hosted import counted_patterns, near_counted_patterns

_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "0"))
# In `make test` a short run (30 examples a test, a few seconds); `make fuzz` sets FUZZ_EXAMPLES.
_fuzz = settings(max_examples=_EXAMPLES or 30)


@st.composite
def mutated(draw: st.DrawFn, values: st.SearchStrategy[serde_json.JSON]) -> bytes:
    """A JSON value's text, sometimes cut, spliced or with one byte changed."""
    data = serde_json.to_string(draw(values)).encode()
    how = draw(st.sampled_from(["as-is", "as-is", "cut", "flip", "insert"]))
    if not data or how == "as-is":
        return data
    at = draw(st.integers(0, len(data) - 1))
    if how == "cut":
        return data[:at]
    junk = draw(st.sampled_from([b'"', b"\\", b"{", b"]", b"-", b"1e999", b"\xff", b"\x00", b","]))
    if how == "flip":
        return data[:at] + junk + data[at + 1 :]
    return data[:at] + junk + data[at:]


_json = mutated(scope_st.json_values())
_scope = mutated(
    st.one_of(
        st.builds(lambda gs: {"grants": gs}, st.lists(scope_st.grant_json(), max_size=4)),
        scope_st.constraint_json(),
        scope_st.json_values(),
    )
)
_caps = mutated(
    st.one_of(
        st.fixed_dictionaries(
            {},
            optional={
                "elicitation": st.one_of(
                    st.just({}),
                    st.dictionaries(st.sampled_from(["form", "url"]), mrtr_st.json_values),
                ),
                "sampling": mrtr_st.json_values,
                "roots": mrtr_st.json_values,
            },
        ),
        mrtr_st.json_values,
    )
)
_input = mutated(
    st.one_of(
        st.fixed_dictionaries(
            {
                "method": st.sampled_from(
                    ["elicitation/create", "sampling/createMessage", "roots/list"]
                )
            },
            optional={"params": mrtr_st.json_values},
        ),
        mrtr_st.json_values,
    )
)
_payload = mutated(st.one_of(mrtr_st.payloads().map(lambda p: p.to_json()), mrtr_st.json_values))


@pytest.mark.parametrize(
    ("target", "inputs"),
    [
        ("json_from_str", _json),
        ("json_validate", _json),
        ("scope_decode", _scope),
        ("mrtr_capabilities", _caps),
        ("mrtr_input_request", _input),
        ("mrtr_payload", _payload),
        ("mrtr_token", _payload),
        ("regex_size", (counted_patterns | near_counted_patterns).map(str.encode)),
    ],
)
def test_fuzz_parser_answers_or_raises_its_documented_error(
    target: str, inputs: st.SearchStrategy[bytes]
) -> None:
    """Each parser answers or raises its documented error on near-valid structured input."""

    @_fuzz
    @given(inputs)
    def check(data: bytes) -> None:
        fuzz_targets.TARGETS[target](data)

    check()


@_fuzz
@given(st.sampled_from(sorted(fuzz_targets.TARGETS)), st.binary(max_size=64))
def test_fuzz_every_target_on_raw_bytes(target: str, data: bytes) -> None:
    """Every target, the harness line and the CLI included, survives raw bytes."""
    fuzz_targets.TARGETS[target](data)
