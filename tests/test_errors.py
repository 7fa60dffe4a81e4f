"""The one error model (mcp_touchstone._errors): the root exception and the JSON-RPC error value."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import mcp_touchstone
from mcp_touchstone._errors import (
    INVALID_PARAMS,
    PARSE_ERROR,
    RpcError,
    TouchstoneError,
)
from mcp_touchstone.mrtr import StateError


def _package_exceptions() -> list[type[BaseException]]:
    found: list[type[BaseException]] = []
    for info in pkgutil.walk_packages(mcp_touchstone.__path__, "mcp_touchstone."):
        if info.name.endswith("__main__"):
            continue  # running it runs the CLI
        module = importlib.import_module(info.name)
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if (
                issubclass(obj, BaseException)
                and obj.__module__ == module.__name__
                and obj.__module__.startswith("mcp_touchstone")
            ):
                found.append(obj)
    return found


def test_every_package_exception_derives_from_the_root() -> None:
    """Every exception class defined in mcp_touchstone derives from TouchstoneError."""
    classes = _package_exceptions()
    assert len(classes) >= 17
    stray = [
        f"{c.__module__}.{c.__qualname__}" for c in classes if not issubclass(c, TouchstoneError)
    ]
    assert stray == []


def test_rpc_error_renders_data_always_or_omits_it_when_absent() -> None:
    """RpcError.to_json writes data (null when absent) unless omit_absent_data is asked for."""
    error = RpcError(INVALID_PARAMS, "bad")
    assert error.to_json() == {"code": -32602, "message": "bad", "data": None}
    assert error.to_json(omit_absent_data=True) == {"code": -32602, "message": "bad"}
    with_data = RpcError(INVALID_PARAMS, "bad", {"k": 1})
    assert with_data.to_json(omit_absent_data=True) == {
        "code": -32602,
        "message": "bad",
        "data": {"k": 1},
    }


def test_rpc_error_is_a_hashable_value_even_with_object_data() -> None:
    """RpcError compares by fields and hashes even when data is a JSON object."""
    a = RpcError(INVALID_PARAMS, "bad", {"k": 1})
    assert a == RpcError(INVALID_PARAMS, "bad", {"k": 1})
    assert a != RpcError(INVALID_PARAMS, "bad")
    assert hash(a) == hash(RpcError(INVALID_PARAMS, "bad"))


def test_state_error_carries_an_rpc_error() -> None:
    """StateError is raisable, carries its RpcError and exposes code, message, data, to_json."""
    exc = StateError(PARSE_ERROR, "EOF while parsing")
    assert isinstance(exc, RpcError)
    assert isinstance(exc, TouchstoneError)
    assert exc.error == RpcError(PARSE_ERROR, "EOF while parsing")
    assert (exc.code, exc.message, exc.data, str(exc)) == (
        PARSE_ERROR,
        "EOF while parsing",
        None,
        "EOF while parsing",
    )
    assert exc.to_json() == {"code": -32700, "message": "EOF while parsing", "data": None}
    assert exc == StateError(PARSE_ERROR, "EOF while parsing")


def test_rpc_error_fields_are_read_only() -> None:
    """An RpcError's code, message and data cannot be reassigned."""
    error = RpcError(INVALID_PARAMS, "bad")
    with pytest.raises(AttributeError):
        error.code = 1
