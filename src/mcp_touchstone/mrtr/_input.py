"""The ``InputRequest`` types (MRTR-REQ-*): kinds, elicitation modes, the decoded envelope.

Decoding is :func:`mcp_touchstone.mrtr._requests.decode_input_request`; the types sit apart so
the capability model (``_capabilities``) can use them without an import cycle.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone.serde_json import JSON

__all__ = ["ElicitationMode", "InputKind", "InputRequest", "InputRequestError"]


class InputRequestError(TouchstoneError, ValueError):
    """An envelope neva would not decode as an ``InputRequest``."""


class InputKind(Enum):
    """The input kinds, by the JSON-RPC method that names them on the wire."""

    ELICITATION = "elicitation/create"
    SAMPLING = "sampling/createMessage"  # deprecated on arrival in MCP 2026-07-28
    ROOTS = "roots/list"  # deprecated on arrival in MCP 2026-07-28


class ElicitationMode(Enum):
    """The two ``elicitation/create`` variants."""

    FORM = "form"
    URL = "url"


@dataclass(frozen=True, slots=True)
class InputRequest:
    """A decoded envelope: its kind, its params object (``{}`` when it had none) and,
    for an elicitation, its mode."""

    kind: InputKind
    params: JSON
    mode: ElicitationMode | None = None

    @property
    def method(self) -> str:
        """The JSON-RPC method the envelope carries."""
        return self.kind.value

    def to_json(self) -> dict[str, JSON]:
        """The adjacent-tagged envelope, ``method`` first, ``params`` always written."""
        return {"method": self.kind.value, "params": self.params}
