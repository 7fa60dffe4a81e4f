"""A Hypothesis state machine over the round engine and the final-response store
(MRTR-STORE-*, MRTR-SEED-*, MRTR-CTX-5..7, MRTR-ROUND-4..6)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from mcp_touchstone.mrtr._context import Context
from mcp_touchstone.mrtr._engine import ServerConfig, dispatch, state_tag
from mcp_touchstone.mrtr._meta import request_state
from mcp_touchstone.mrtr._state import Keyring
from mcp_touchstone.mrtr._store import InMemoryRequestStateStore, StoredResponse
from mcp_touchstone.serde_json import JSON
from tests.mrtr._round_helpers import meta

FORM: JSON = {"message": "m", "requestedSchema": {"properties": {}}}
GOOD: JSON = {"action": "accept", "content": {"v": 1}}
CAPACITY = 3


class _WatchedStore(InMemoryRequestStateStore):
    """The bounded store, recording every key it lost (evicted, swept or expired on get)."""

    def __init__(self, capacity: int) -> None:
        super().__init__(capacity)
        self.lost: dict[str, int] = {}

    def _note(self, before: set[str]) -> None:
        after = {k for k, _, _ in self.items()}
        for key in before - after:
            self.lost[key] = self.lost.get(key, 0) + 1

    def get(self, key: str, now: int) -> StoredResponse | None:
        before = {k for k, _, _ in self.items()}
        try:
            return super().get(key, now)
        finally:
            self._note(before)

    def put(self, key: str, response: StoredResponse, exp: int, now: int | None = None) -> None:
        before = {k for k, _, _ in self.items()}
        super().put(key, response, exp, now)
        self._note(before - {key})


@dataclass
class Chain:
    """One client flow: its request args, its latest state and its final (if any)."""

    ident: int
    token: str | None = None
    answered: dict[str, JSON] = field(default_factory=dict)
    final_request: dict[str, Any] | None = None
    final_response: dict[str, Any] | None = None


class EngineMachine(RuleBasedStateMachine):
    """Chains of rounds against one server, a bounded store and a rotating keyring."""

    def __init__(self) -> None:
        super().__init__()
        self.store = _WatchedStore(CAPACITY)
        self.now = 1_000
        self.kids = ["0"]
        self.secrets = {"0": b"s0"}
        self.chains: list[Chain] = []
        self.commits: dict[int, int] = {}
        self.commits_by_tag: dict[str, int] = {}
        self.onces: dict[int, int] = {}
        self.nonce = 0
        self.lock = threading.Lock()
        self.kid_counter = 0

    # ------------------------------------------------------------ plumbing
    def _config(self) -> ServerConfig:
        return ServerConfig(Keyring(self.kids[-1], dict(self.secrets)), ttl=300)

    def _nonce(self) -> bytes:
        with self.lock:
            self.nonce += 1
            return self.nonce.to_bytes(12, "big")

    def _handler(self, chain: int) -> Any:
        def handler(ctx: Context, params: JSON) -> JSON:
            ctx.memo("m", lambda: chain)

            def once() -> None:
                with self.lock:
                    self.onces[chain] = self.onces.get(chain, 0) + 1

            ctx.once("o", once)
            held = []
            for key in ("a", "b"):
                try:
                    ctx.elicit(key, FORM)
                except Exception as exc:
                    held.append(exc)

            token = request_state(params)
            assert ctx.round is not None
            tag = None if token is None else state_tag(token, ctx.round.answers)

            def commit() -> None:
                with self.lock:
                    self.commits[chain] = self.commits.get(chain, 0) + 1
                    if tag is not None:
                        self.commits_by_tag[tag] = self.commits_by_tag.get(tag, 0) + 1

            ctx.on_commit(commit)
            if held:
                raise held[0]
            return {"content": [], "isError": False}

        return handler

    def _params(
        self, chain: Chain, token: str | None, answers: dict[str, JSON] | None
    ) -> dict[str, Any]:
        params: dict[str, Any] = {"name": "t", "arguments": {"chain": chain.ident}, "_meta": meta()}
        if token is not None:
            params["requestState"] = token
        if answers is not None:
            params["inputResponses"] = answers
        return params

    def _send(self, chain: Chain, params: dict[str, Any], principal: str | None = None) -> Any:
        request: Any = {"id": self.nonce + 100, "method": "tools/call", "params": params}
        return dispatch(
            request,
            self._handler(chain.ident),
            self._config(),
            now=self.now,
            nonce=self._nonce,
            store=self.store,
            principal=principal,
        )

    def _absorb(self, chain: Chain, params: dict[str, Any], out: Any) -> None:
        result = out.response.get("result")
        if isinstance(result, dict) and result.get("resultType") == "input_required":
            chain.token = result["requestState"]
            assert out.minted is not None
            assert out.minted.requested == tuple(
                k for k in ("a", "b") if k not in out.minted.answers
            )
            chain.answered = dict(out.minted.answers)
        elif out.final and chain.final_response is None:
            chain.final_request, chain.final_response = params, out.response
        if out.replayed:
            assert chain.final_response is not None
            assert {**out.response, "id": 0} == {**chain.final_response, "id": 0}

    # ------------------------------------------------------------ rules
    @rule()
    def start(self) -> None:
        chain = Chain(len(self.chains))
        self.chains.append(chain)
        params = self._params(chain, None, None)
        out = self._send(chain, params)
        self._absorb(chain, params, out)

    @precondition(lambda self: any(c.token for c in self.chains))
    @rule(
        data=st.data(),
        shape=st.sampled_from(["partial", "full", "extra", "settled", "wrong"]),
    )
    def answer(self, data: st.DataObject, shape: str) -> None:
        chain = data.draw(st.sampled_from([c for c in self.chains if c.token]))
        answers: dict[str, JSON] = {"a": GOOD} if shape == "partial" else {"a": GOOD, "b": GOOD}
        if shape == "extra":
            answers["zzz"] = GOOD
        if shape == "settled":
            answers = {k: {"action": "decline"} for k in ("a", "b")}
        if shape == "wrong":
            answers = {"a": 12345, "b": GOOD}
        params = self._params(chain, chain.token, answers)
        out = self._send(chain, params)
        if shape == "wrong" and "a" not in chain.answered and "error" in out.response:
            # The malformed answer outranks everything, unless the state had expired or gone.
            assert out.response["error"]["code"] == -32602
        self._absorb(chain, params, out)

    @precondition(lambda self: any(c.token for c in self.chains))
    @rule(data=st.data(), at=st.integers(min_value=0, max_value=300))
    def tamper(self, data: st.DataObject, at: int) -> None:
        chain = data.draw(st.sampled_from([c for c in self.chains if c.token]))
        token = chain.token or ""
        i = at % len(token)
        flipped = token[:i] + ("A" if token[i] != "A" else "B") + token[i + 1 :]
        before = (dict(self.commits), dict(self.onces))
        out = self._send(chain, self._params(chain, flipped, {"a": GOOD, "b": GOOD}))
        assert "error" in out.response
        assert (dict(self.commits), dict(self.onces)) == before

    @precondition(lambda self: any(c.token for c in self.chains))
    @rule(data=st.data(), who=st.sampled_from(["mallory", None]))
    def other_principal_or_request(self, data: st.DataObject, who: str | None) -> None:
        chain = data.draw(st.sampled_from([c for c in self.chains if c.token]))
        if who is None:  # another request: the chain's state under other arguments
            other = Chain(10_000 + chain.ident)
            out = self._send(other, self._params(other, chain.token, {"a": GOOD}))
        else:
            out = self._send(chain, self._params(chain, chain.token, {"a": GOOD}), principal=who)
        assert "error" in out.response
        assert out.response["error"]["code"] == -32602

    @precondition(lambda self: any(c.final_request for c in self.chains))
    @rule(data=st.data())
    def lose_final_and_retry(self, data: st.DataObject) -> None:
        chain = data.draw(st.sampled_from([c for c in self.chains if c.final_request]))
        assert chain.final_request is not None
        stored_before = len(self.store)
        commits_before = self.commits.get(chain.ident, 0)
        out = self._send(chain, chain.final_request)
        self._absorb(chain, chain.final_request, out)
        if out.replayed:
            assert self.commits.get(chain.ident, 0) == commits_before
        assert stored_before <= CAPACITY

    @precondition(lambda self: any(c.final_request for c in self.chains))
    @rule(data=st.data())
    def concurrent_retry(self, data: st.DataObject) -> None:
        chain = data.draw(st.sampled_from([c for c in self.chains if c.final_request]))
        assert chain.final_request is not None
        request = chain.final_request
        before = self.commits.get(chain.ident, 0)
        outs: list[Any] = []
        barrier = threading.Barrier(2)

        def go() -> None:
            barrier.wait()
            outs.append(self._send(chain, request))

        threads = [threading.Thread(target=go) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        # Two identical retries run the handler (and its commit) at most once between them.
        assert self.commits.get(chain.ident, 0) - before <= 1
        for out in outs:
            self._absorb(chain, request, out)

    @rule(seconds=st.sampled_from([1, 100, 299, 300, 301]))
    def advance_clock(self, seconds: int) -> None:
        self.now += seconds

    @rule(drop_old=st.booleans())
    def rotate_keys(self, drop_old: bool) -> None:
        self.kid_counter += 1
        kid = str(self.kid_counter)
        self.secrets[kid] = f"s{kid}".encode()
        self.kids.append(kid)
        if drop_old and len(self.kids) > 2:
            self.secrets.pop(self.kids.pop(0))

    # ------------------------------------------------------------ invariants
    @invariant()
    def store_is_bounded(self) -> None:
        assert len(self.store) <= CAPACITY

    @invariant()
    def once_at_most_once_per_chain(self) -> None:
        assert all(n <= 1 for n in self.onces.values()), self.onces

    @invariant()
    def commits_at_most_once_per_committed_final(self) -> None:
        # A committed final (one state, one set of seeded answers: one tag) commits once, unless
        # the store lost its entry (the bounded store's eviction, the Deviation, or expiry) while
        # the state was still valid, after which a retry legitimately runs the round again.
        for tag, n in self.commits_by_tag.items():
            assert n <= 1 + self.store.lost.get(tag, 0), (tag, n, self.store.lost)


EngineMachine.TestCase.settings = settings(max_examples=20, stateful_step_count=20, deadline=None)
TestEngineMachine = EngineMachine.TestCase


@pytest.mark.slow
def test_engine_machine_long() -> None:
    """The same machine, longer runs."""
    from hypothesis.stateful import run_state_machine_as_test

    run_state_machine_as_test(
        EngineMachine, settings=settings(max_examples=300, stateful_step_count=60, deadline=None)
    )
