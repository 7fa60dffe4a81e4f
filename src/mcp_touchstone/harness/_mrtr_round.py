"""Harness operation ``mrtr.round`` (pinned: ``shared/protocol/mrtr-round.md``; rules
MRTR-HARNESS-4): one server round of neva's MRTR dispatch for a scripted handler.

The input names the request, the server configuration, the store's entries before the round and
a script for the handler; the output is the JSON-RPC response, every effect that ran, the payload
of the state the round minted and the store after the round. The script is checked for shape
before anything runs; a path that ends without ``return`` or ``fail`` is found only when taken and
is invalid input too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone._rust import I64_MAX, I64_MIN
from mcp_touchstone.harness._input import MUST, checked
from mcp_touchstone.harness._input import BadInputError as _BadInputError
from mcp_touchstone.harness._input import invalid_input as _invalid
from mcp_touchstone.harness._mrtr_keyring import keyring
from mcp_touchstone.mrtr import (
    Context,
    InMemoryRequestStateStore,
    InputKind,
    InputRequestError,
    RpcError,
    ServerConfig,
    StoredResponse,
    decode_input_request,
    dispatch,
    neva_code,
)
from mcp_touchstone.serde_json import JSON

__all__ = ["mrtr_round"]

_HEX24 = re.compile(r"[0-9a-fA-F]{24}")
_HEX = re.compile(r"(?:[0-9a-fA-F]{2})*")
_UUID_BODY = r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}"
_UUID = re.compile(rf"(?:urn:uuid:)?{_UUID_BODY}|\{{{_UUID_BODY}\}}", re.IGNORECASE)
"""The spellings the ``uuid`` crate parses (hyphenated, simple, braced, URN)."""
_ON_ERROR = ("propagate", "hold", "swallow")
_CAPABILITY_NAMES = ("elicitation", "sampling", "roots")
_METHODS = {kind.value: kind for kind in InputKind}


def _obj(value: JSON, where: str) -> dict[str, JSON]:
    return MUST.object(value, f"`{where}`")


def _str(obj: dict[str, JSON], key: str, where: str) -> str:
    return MUST.string(obj.get(key), f"`{where}.{key}`")


def _uint(obj: dict[str, JSON], key: str, where: str, default: int | None = None) -> int:
    if key not in obj and default is not None:
        return default
    return MUST.unsigned(obj.get(key), f"`{where}.{key}`")


def _opt_str(obj: dict[str, JSON], key: str, where: str) -> str | None:
    return MUST.optional_string(obj.get(key), f"`{where}.{key}`", "a string or null")


def _error_value(value: JSON, where: str) -> RpcError:
    err = _obj(value, where)
    code = err.get("code")
    if isinstance(code, bool) or not isinstance(code, int):
        raise _BadInputError(f"`{where}.code` must be an integer")
    message = err.get("message")
    if not isinstance(message, str):
        raise _BadInputError(f"`{where}.message` must be a string")
    return RpcError(neva_code(code), message, err.get("data"))


def _on_error(step: dict[str, JSON], where: str) -> str:
    value = step.get("on_error", "propagate")
    if value not in _ON_ERROR:
        raise _BadInputError(f"`{where}.on_error` must be propagate, hold or swallow")
    assert isinstance(value, str)
    return value


def _check_script(script: JSON, where: str) -> list[dict[str, JSON]]:
    """Check every step's shape (both branches of an ``if_declared`` included); an elicitation
    or sampling ``ask`` must carry params its method decodes."""
    if not isinstance(script, list):
        raise _BadInputError(f"`{where}` must be an array of steps")
    steps: list[dict[str, JSON]] = []
    for index, raw in enumerate(script):
        at = f"{where}[{index}]"
        step = _obj(raw, at)
        op = step.get("op")
        if op == "ask":
            method = _str(step, "method", at)
            if method not in _METHODS:
                raise _BadInputError(f"`{at}.method` is not an input kind")
            _str(step, "key", at)
            if _METHODS[method] is not InputKind.ROOTS:
                if "params" not in step:
                    raise _BadInputError(f"`{at}.params` is required for {method}")
                try:
                    decode_input_request({"method": method, "params": step["params"]})
                except InputRequestError as exc:
                    raise _BadInputError(f"`{at}.params` is not {method} params: {exc}") from None
            _on_error(step, at)
        elif op == "memo":
            _str(step, "key", at)
            if ("value" in step) == ("fail" in step):
                raise _BadInputError(f"`{at}` needs exactly one of `value` and `fail`")
            if "fail" in step:
                _error_value(step["fail"], f"{at}.fail")
            _on_error(step, at)
        elif op == "once":
            _str(step, "key", at)
            if "fail" in step:
                _error_value(step["fail"], f"{at}.fail")
            _on_error(step, at)
        elif op == "on_commit":
            _str(step, "label", at)
            if "fail" in step:
                _error_value(step["fail"], f"{at}.fail")
        elif op == "if_declared":
            if step.get("capability") not in _CAPABILITY_NAMES:
                raise _BadInputError(f"`{at}.capability` must be elicitation, sampling or roots")
            _check_script(step.get("then"), f"{at}.then")
            if "else" in step:
                _check_script(step["else"], f"{at}.else")
        elif op == "return":
            if "result" not in step:
                raise _BadInputError(f"`{at}.result` is required")
        elif op == "fail":
            _error_value(step.get("error"), f"{at}.error")
        elif op != "raise":
            raise _BadInputError(f"`{at}.op` is not a script step")
        steps.append(step)
    return steps


class _ScriptEndedError(TouchstoneError):
    """A script path ended without ``return`` or ``fail``."""


@dataclass(slots=True)
class _Script:
    """The scripted handler: runs the steps against a context, logging what ran."""

    steps: list[dict[str, JSON]]
    ran: list[str] = field(default_factory=list)

    def __call__(self, ctx: Context, params: JSON) -> JSON:
        held: list[RpcError] = []
        done, result = self._run(self.steps, ctx, held)
        if not done:
            raise _ScriptEndedError
        return result

    def _failing(self, label: str, fail: JSON) -> Callable[[], None]:
        def effect() -> None:
            self.ran.append(label)
            if fail is not None:
                raise _error_value(fail, "fail")

        return effect

    def _call(self, step: dict[str, JSON], ctx: Context) -> None:
        """Run one ``ask`` / ``memo`` / ``once`` step; its error propagates."""
        op = step["op"]
        key = str(step["key"])
        if op == "ask":
            kind = _METHODS[str(step["method"])]
            if kind is InputKind.ELICITATION:
                ctx.elicit(key, step.get("params"))
            elif kind is InputKind.SAMPLING:
                ctx.sample(key, step.get("params"))
            else:
                ctx.list_roots(key)
        elif op == "memo":
            fail = step.get("fail")
            value = step.get("value")

            def compute() -> JSON:
                self.ran.append(f"memo:{key}")
                if fail is not None:
                    raise _error_value(fail, "fail")
                return value

            ctx.memo(key, compute)
        else:
            ctx.once(key, self._failing(f"once:{key}", step.get("fail")))

    def _run(
        self, steps: list[dict[str, JSON]], ctx: Context, held: list[RpcError]
    ) -> tuple[bool, JSON]:
        for step in steps:
            op = step["op"]
            if op in ("ask", "memo", "once"):
                try:
                    self._call(step, ctx)
                except RpcError as error:
                    mode = step.get("on_error", "propagate")
                    if mode == "propagate":
                        raise
                    if mode == "hold":
                        held.append(error)
            elif op == "on_commit":
                label = str(step["label"])
                ctx.on_commit(self._failing(f"commit:{label}", step.get("fail")), label)
            elif op == "raise":
                if held:
                    raise held[0]
            elif op == "if_declared":
                caps = ctx.client_capabilities()
                name = step["capability"]
                if name == "elicitation":
                    declared = caps.elicitation is not None
                else:
                    declared = caps.sampling if name == "sampling" else caps.roots
                branch = step.get("then") if declared else step.get("else", [])
                assert isinstance(branch, list)
                done, result = self._run([s for s in branch if isinstance(s, dict)], ctx, held)
                if done:
                    return True, result
            elif op == "return":
                return True, step.get("result")
            elif op == "fail":
                raise _error_value(step.get("error"), "error")
        return False, None


def _request(raw: JSON) -> dict[str, JSON]:
    request = _obj(raw, "request")
    request_id = request.get("id")
    if isinstance(request_id, bool) or not isinstance(request_id, int | str):
        raise _BadInputError("`request.id` must be an integer or a string")
    if isinstance(request_id, int) and not I64_MIN <= request_id <= I64_MAX:
        raise _BadInputError("`request.id` must be in i64 range")
    if isinstance(request_id, str) and ("/" in request_id or _UUID.fullmatch(request_id)):
        raise _BadInputError("`request.id` must not contain `/` or be a UUID")
    _str(request, "method", "request")
    return request


def _server(raw: JSON) -> tuple[ServerConfig, int, bytes, str | None]:
    server = _obj(raw, "server")
    entries = server.get("keys")
    if not isinstance(entries, list):
        raise _BadInputError("`server.keys` must be an array of {kid, secret_hex}")
    keys: dict[str, bytes] = {}
    for entry in entries:
        key = _obj(entry, "server.keys[]")
        secret = _str(key, "secret_hex", "server.keys[]")
        if not _HEX.fullmatch(secret):
            raise _BadInputError("`server.keys[].secret_hex` must be an even-length hex string")
        keys[_str(key, "kid", "server.keys[]")] = bytes.fromhex(secret)
    nonce_hex = _str(server, "nonce_hex", "server")
    if not _HEX24.fullmatch(nonce_hex):
        raise _BadInputError("`server.nonce_hex` must be 24 hex characters")
    info = server.get("server_info", {"name": "neva", "version": "0.5.4"})
    info_obj = _obj(info, "server.server_info")
    _str(info_obj, "name", "server.server_info")
    _str(info_obj, "version", "server.server_info")
    config = ServerConfig(
        keyring=keyring(_str(server, "active_kid", "server"), keys),
        ttl=_uint(server, "ttl", "server", 300),
        max_state_bytes=_uint(server, "max_state_bytes", "server", 8192),
        audience=_opt_str(server, "audience", "server"),
        server_info=info_obj,
    )
    now = _uint(server, "now", "server")
    return config, now, bytes.fromhex(nonce_hex), _opt_str(server, "principal", "server")


def _store(raw: JSON) -> InMemoryRequestStateStore:
    if not isinstance(raw, list):
        raise _BadInputError("`store` must be an array of {tag, response, exp}")
    store = InMemoryRequestStateStore(capacity=max(len(raw) + 1, 1024))
    seen: set[str] = set()
    for entry in raw:
        item = _obj(entry, "store[]")
        tag = _str(item, "tag", "store[]")
        if tag in seen:
            raise _BadInputError(f"`store` repeats the tag {tag!r}")
        seen.add(tag)
        response = _obj(item.get("response"), "store[].response")
        store.load(tag, StoredResponse.of(response), _uint(item, "exp", "store[]"))
    return store


def _mrtr_round(raw: JSON) -> dict[str, JSON]:
    try:
        obj = _obj(raw, "input")
        request = _request(obj.get("request"))
        config, now, nonce, principal = _server(obj.get("server"))
        store = _store(obj.get("store", []))
        script = _Script(_check_script(obj.get("script"), "script"))
    except _BadInputError as exc:
        return _invalid(str(exc))
    try:
        result = dispatch(
            request, script, config, now=now, nonce=lambda: nonce, store=store, principal=principal
        )
    except _ScriptEndedError:
        return _invalid("the script ended without `return` or `fail`")
    state: JSON = None
    if result.minted is not None:
        payload = result.minted.to_json()
        payload["effects"] = list[JSON](sorted(result.minted.effects))
        state = payload
    return {
        "response": result.response,
        "ran": list[JSON](script.ran),
        "state": state,
        "store": [
            {"tag": tag, "response": response.to_json(), "exp": exp}
            for tag, response, exp in sorted(store.items(), key=lambda item: item[0])
        ],
    }


mrtr_round = checked(_mrtr_round)
"""``mrtr.round``: one round of neva's dispatch for a scripted handler (MRTR-HARNESS-4)."""
