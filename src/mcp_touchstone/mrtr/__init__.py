"""neva multi round-trip requests and the sealed ``requestState`` (``spec/mrtr.md``).

The public API: the sealed-state codec (:func:`seal`, :func:`open_state`, :func:`verify` over a
:class:`Keyring` and a :class:`StatePayload`), request binding and the answers digest, client
capabilities and the server's gate, the ``InputRequest`` union and where a retry carries its
answers; the round engine: :func:`dispatch` runs one server round of neva's MRTR dispatch for a
handler given a :class:`Context` (``elicit``/``sample``/``list_roots``, ``memo``, ``once``,
``on_commit``), with the final-response store behind the :class:`RequestStateStore` protocol
(default :class:`InMemoryRequestStateStore`, bounded); and neva's client loop
(:func:`run_with_mrtr`, :func:`run_batch_with_mrtr`) over an injected transport, fulfiller and
id counter. Randomness, the clock and the store are always arguments.

The pydantic wire models (``InputRequiredResult`` and the answer types) are
:mod:`mcp_touchstone.mrtr.wire`, imported on their own: importing this package loads no
pydantic.
"""

from mcp_touchstone.mrtr._answers import AnswerError, read_answer
from mcp_touchstone.mrtr._binding import input_responses_digest, request_binding, salient_params
from mcp_touchstone.mrtr._capabilities import (
    CapabilityError,
    ClientMrtrCapabilities,
    ElicitationModes,
    missing_capability_error,
    parse_capabilities,
)
from mcp_touchstone.mrtr._client import (
    DEFAULT_MAX_MRTR_ROUNDS,
    ROUNDS_EXHAUSTED,
    BatchSender,
    ClientOptions,
    Fulfiller,
    IdSource,
    Observer,
    Sender,
    TraceContext,
    apply_client_meta,
    client_request,
    declared_capabilities,
    fulfil_input,
    read_input_required,
    read_server_info,
    run_batch_with_mrtr,
    run_with_mrtr,
)
from mcp_touchstone.mrtr._context import Context, RoundState
from mcp_touchstone.mrtr._engine import (
    NEVA_ERROR_CODES,
    Handler,
    RoundResult,
    ServerConfig,
    Wrapper,
    dispatch,
    neva_code,
)
from mcp_touchstone.mrtr._errors import RpcError, StateError
from mcp_touchstone.mrtr._meta import (
    MRTR_METHODS,
    client_capabilities,
    input_responses,
    malformed_mrtr_error,
    request_state,
)
from mcp_touchstone.mrtr._payload import PayloadError, StatePayload
from mcp_touchstone.mrtr._requests import (
    ElicitationMode,
    InputKind,
    InputRequest,
    InputRequestError,
    decode_input_request,
)
from mcp_touchstone.mrtr._seed import merge_answers
from mcp_touchstone.mrtr._state import (
    DEFAULT_MAX_STATE_BYTES,
    CheckContext,
    Keyring,
    derive_key,
    open_plaintext,
    open_state,
    seal,
    seal_plaintext,
    verify,
)
from mcp_touchstone.mrtr._store import (
    InMemoryRequestStateStore,
    RequestStateStore,
    Reservation,
    StoredResponse,
)

__all__ = [
    "DEFAULT_MAX_MRTR_ROUNDS",
    "DEFAULT_MAX_STATE_BYTES",
    "MRTR_METHODS",
    "NEVA_ERROR_CODES",
    "ROUNDS_EXHAUSTED",
    "AnswerError",
    "BatchSender",
    "CapabilityError",
    "CheckContext",
    "ClientMrtrCapabilities",
    "ClientOptions",
    "Context",
    "ElicitationMode",
    "ElicitationModes",
    "Fulfiller",
    "Handler",
    "IdSource",
    "InMemoryRequestStateStore",
    "InputKind",
    "InputRequest",
    "InputRequestError",
    "Keyring",
    "Observer",
    "PayloadError",
    "RequestStateStore",
    "Reservation",
    "RoundResult",
    "RoundState",
    "RpcError",
    "Sender",
    "ServerConfig",
    "StateError",
    "StatePayload",
    "StoredResponse",
    "TraceContext",
    "Wrapper",
    "apply_client_meta",
    "client_capabilities",
    "client_request",
    "declared_capabilities",
    "decode_input_request",
    "derive_key",
    "dispatch",
    "fulfil_input",
    "input_responses",
    "input_responses_digest",
    "malformed_mrtr_error",
    "merge_answers",
    "missing_capability_error",
    "neva_code",
    "open_plaintext",
    "open_state",
    "parse_capabilities",
    "read_answer",
    "read_input_required",
    "read_server_info",
    "request_binding",
    "request_state",
    "run_batch_with_mrtr",
    "run_with_mrtr",
    "salient_params",
    "seal",
    "seal_plaintext",
    "verify",
]
