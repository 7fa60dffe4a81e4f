"""The handler's view of a round: neva's ``MrtrCtx`` and the ``Context`` helpers (MRTR-CTX-*).

A handler runs from the top on every round. :class:`RoundState` is one round's bookkeeping (the
replay log of answers, what was asked this round, the first malformed answer, memos, ``once``
effects already run, and the commits registered this round). :class:`Context` is what the handler
calls: ``elicit`` / ``sample`` / ``list_roots`` resolve against the replay log, ``memo`` /
``once`` survive the re-run through the sealed state, ``on_commit`` defers an effect to the final
round. Outside the MRTR methods the context has no round (``ExecMode::None``).

Errors are :class:`RpcError` raised to the handler, Rust's ``Err``: a handler that lets one
propagate is ``?``, one that catches it is ``let _ =`` or the batching idiom.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from mcp_touchstone.mrtr._answers import AnswerError, read_answer
from mcp_touchstone.mrtr._capabilities import ClientMrtrCapabilities
from mcp_touchstone.mrtr._errors import INVALID_PARAMS, INVALID_REQUEST, RpcError
from mcp_touchstone.mrtr._requests import InputKind, InputRequest, decode_input_request
from mcp_touchstone.serde_json import JSON

__all__ = [
    "INPUT_REQUIRED",
    "INVALID_REQUEST",
    "REQUEST_CANCELLED",
    "TIMEOUT",
    "Commit",
    "Context",
    "Effect",
    "RoundState",
    "input_required_error",
]

REQUEST_CANCELLED = -99999
"""neva's internal ``ErrorCode::RequestCancelled`` (wire: ``-32603``)."""
TIMEOUT = -99998
"""neva's internal ``ErrorCode::Timeout`` (wire: ``-32603``)."""
INPUT_REQUIRED = -99997
"""neva's internal ``ErrorCode::InputRequired``: the sentinel a miss returns (wire: ``-32603``)."""

Effect = Callable[[], None]
"""A side effect for ``once``: returns on success, raises :class:`RpcError` on failure."""
Commit = Callable[[], None]
"""A deferred ``on_commit`` effect: returns on success, raises :class:`RpcError` on failure."""


def input_required_error() -> RpcError:
    """The sentinel error a miss yields: ``-99997`` ``input required`` (MRTR-CTX-3)."""
    return RpcError(INPUT_REQUIRED, "input required")


_KIND_WORD = {
    InputKind.ELICITATION: "elicitation",
    InputKind.SAMPLING: "sampling",
    InputKind.ROOTS: "roots",
}


@dataclass(slots=True)
class RoundState:
    """One dispatch's MRTR bookkeeping, seeded from the verified state and the answers.

    ``requested`` is the verified state's ``requested`` (``None`` without a state); ``effects``
    keeps insertion order but is a set. ``pending`` and ``commits`` start empty every round.
    """

    answers: dict[str, JSON] = field(default_factory=dict)
    capabilities: ClientMrtrCapabilities = field(default_factory=ClientMrtrCapabilities)
    memos: dict[str, JSON] = field(default_factory=dict)
    effects: list[str] = field(default_factory=list)
    requested: tuple[str, ...] | None = None
    pending: list[tuple[str, InputRequest]] = field(default_factory=list)
    malformed_answer: str | None = None
    commits: list[tuple[str, Commit]] = field(default_factory=list)

    def resolve(self, key: str, request: InputRequest) -> JSON:
        """``MrtrCtx::resolve``: the answer read as ``request``'s result type, or an error.

        A hit that fits returns the answer. A hit that does not fit records the malformed-answer
        reason (the first one recorded wins) and raises it as ``-32602``; the key is not asked
        again. A miss appends ``(key, request)`` to ``pending`` unless the key is already pending
        this round, and raises the ``-99997`` sentinel (MRTR-CTX-1..4).
        """
        if key in self.answers:
            try:
                return read_answer(request.kind, self.answers[key])
            except AnswerError as exc:
                reason = f"the answer for `{key}` is not a valid {request.method} result: {exc}"
                if self.malformed_answer is None:
                    self.malformed_answer = reason
                raise RpcError(INVALID_PARAMS, reason) from None
        if all(pending_key != key for pending_key, _ in self.pending):
            self.pending.append((key, request))
        raise input_required_error()

    def effect_seen(self, key: str) -> bool:
        """Whether the ``once`` key already ran in this state chain."""
        return key in self.effects

    def record_effect(self, key: str) -> None:
        """Record a ``once`` key as run (a set: recording twice keeps one)."""
        if key not in self.effects:
            self.effects.append(key)

    def cached_memo(self, key: str) -> tuple[bool, JSON]:
        """``(True, value)`` for a memo key computed earlier, else ``(False, None)``."""
        if key in self.memos:
            return True, self.memos[key]
        return False, None

    def store_memo(self, key: str, value: JSON) -> None:
        """Store a computed memo value."""
        self.memos[key] = value

    def push_commit(self, label: str, effect: Commit) -> None:
        """Register a deferred commit (in registration order)."""
        self.commits.append((label, effect))


class Context:
    """What a handler is given: the round (``None`` outside MRTR) and the declared capabilities."""

    __slots__ = ("_capabilities", "_round")

    def __init__(
        self,
        round_state: RoundState | None,
        capabilities: ClientMrtrCapabilities | None = None,
    ) -> None:
        self._round = round_state
        if capabilities is None:
            capabilities = (
                round_state.capabilities if round_state is not None else ClientMrtrCapabilities()
            )
        self._capabilities = capabilities

    @property
    def round(self) -> RoundState | None:
        """This dispatch's MRTR round, ``None`` outside the MRTR methods."""
        return self._round

    def client_capabilities(self) -> ClientMrtrCapabilities:
        """What the caller declared in this request's ``_meta`` (nothing when it fails to read)."""
        return self._capabilities

    # ------------------------------------------------------------------ inputs
    def _open_round(self, kind: InputKind) -> RoundState:
        """This dispatch's round, or the refusal of asking ``kind`` outside the MRTR methods."""
        if self._round is None:
            raise RpcError(INVALID_REQUEST, f"{_KIND_WORD[kind]} is not available for this request")
        return self._round

    def _request_input(self, kind: InputKind, key: str, params: JSON) -> JSON:
        round_state = self._open_round(kind)  # refused before the params are read
        request = decode_input_request({"method": kind.value, "params": params})
        return round_state.resolve(key, request)

    def request_input(self, key: str, request: InputRequest) -> JSON:
        """``elicit`` / ``sample`` / ``list_roots`` for a request already decoded (with
        :func:`~mcp_touchstone.mrtr._requests.decode_input_request`, which is total and pure):
        the same answer or error as the helper for ``request.kind`` given the params it was
        decoded from, without decoding them again."""
        return self._open_round(request.kind).resolve(key, request)

    def elicit(self, key: str, params: JSON) -> JSON:
        """``ctx.elicit(key, params)``: the ``ElicitResult`` answer, or an error (MRTR-CTX-1)."""
        return self._request_input(InputKind.ELICITATION, key, params)

    def sample(self, key: str, params: JSON) -> JSON:
        """``ctx.sample(key, params)``: the ``CreateMessageResult`` answer, or an error."""
        return self._request_input(InputKind.SAMPLING, key, params)

    def list_roots(self, key: str) -> JSON:
        """``ctx.list_roots(key)`` (params always ``{}``): the ``ListRootsResult`` answer."""
        return self._request_input(InputKind.ROOTS, key, {})

    # ------------------------------------------------------------------ effects
    def memo(self, key: str, compute: Callable[[], JSON]) -> JSON:
        """``ctx.memo``: a value already computed in this chain, else ``compute()`` stored.

        A failed compute (an :class:`RpcError`) stores nothing. Outside MRTR it just computes
        (MRTR-CTX-5, MRTR-CTX-8).
        """
        if self._round is None:
            return compute()
        hit, value = self._round.cached_memo(key)
        if hit:
            return value
        value = compute()
        self._round.store_memo(key, value)
        return value

    def once(self, key: str, effect: Effect) -> bool:
        """``ctx.once``: run ``effect`` unless ``key`` already ran in this state chain.

        ``False`` when it had run (the effect is not called); ``True`` after a successful run,
        which records the key; a failure propagates and records nothing. Outside MRTR the effect
        simply runs (MRTR-CTX-6, MRTR-CTX-8).
        """
        if self._round is None:
            effect()
            return True
        if self._round.effect_seen(key):
            return False
        effect()
        self._round.record_effect(key)
        return True

    def on_commit(self, effect: Commit, label: str = "") -> None:
        """``ctx.on_commit``: defer ``effect`` to the final committing round; dropped outside
        MRTR, where it never runs (MRTR-CTX-7, MRTR-CTX-8)."""
        if self._round is not None:
            self._round.push_commit(label, effect)
