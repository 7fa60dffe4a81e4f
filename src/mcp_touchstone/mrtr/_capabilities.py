"""Client MRTR capabilities and the server's gate on input kinds (rules MRTR-CAP-*).

The value read is ``_meta["io.modelcontextprotocol/clientCapabilities"]``. Each
capability is declared by the *presence* of an object (its contents ignored) or by
the legacy boolean ``true``; ``false``, ``null`` and absence declare nothing; any
other JSON type is an error. ``elicitation`` additionally names modes: naming none
leaves the client unconstrained, naming one turns the set into an allow-list.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass

from mcp_touchstone._errors import TouchstoneError
from mcp_touchstone._serde import fewer_elements, invalid_type
from mcp_touchstone.mrtr._errors import MISSING_REQUIRED_CLIENT_CAPABILITY, RpcError
from mcp_touchstone.mrtr._input import ElicitationMode, InputKind, InputRequest
from mcp_touchstone.serde_json import JSON

__all__ = [
    "CapabilityError",
    "ClientMrtrCapabilities",
    "ElicitationModes",
    "missing_capability_error",
    "parse_capabilities",
]


class CapabilityError(TouchstoneError, ValueError):
    """A capabilities value neva's typed parse would refuse."""


@dataclass(frozen=True, slots=True)
class ElicitationModes:
    """The ``elicitation`` modes a client named (MRTR-CAP-4, MRTR-CAP-5)."""

    form: bool = False
    url: bool = False

    def unconstrained(self) -> bool:
        """Whether no mode was named, so none is ruled out."""
        return not self.form and not self.url

    def allows(self, mode: ElicitationMode) -> bool:
        """Whether an elicitation in ``mode`` can be answered."""
        if self.unconstrained():
            return True
        return self.form if mode is ElicitationMode.FORM else self.url

    @staticmethod
    def requiring(mode: ElicitationMode) -> ElicitationModes:
        """The declaration needed to answer ``mode``: that mode, named."""
        return ElicitationModes(form=mode is ElicitationMode.FORM, url=mode is ElicitationMode.URL)

    def to_json(self) -> dict[str, JSON]:
        """Spec shape: a named mode is an empty object, an unnamed one is omitted."""
        out: dict[str, JSON] = {}
        if self.form:
            out["form"] = {}
        if self.url:
            out["url"] = {}
        return out


@dataclass(frozen=True, slots=True)
class ClientMrtrCapabilities:
    """Which input kinds a client declared it can fulfil (``None`` elicitation: not declared)."""

    elicitation: ElicitationModes | None = None
    sampling: bool = False
    roots: bool = False

    def allows(self, request: InputRequest) -> bool:
        """The server's gate: whether the client declared support for ``request`` (MRTR-CAP-6)."""
        if request.kind is InputKind.ELICITATION:
            mode = request.mode or ElicitationMode.FORM
            return self.elicitation is not None and self.elicitation.allows(mode)
        if request.kind is InputKind.SAMPLING:
            return self.sampling
        return self.roots

    @staticmethod
    def requiring(request: InputRequest) -> ClientMrtrCapabilities:
        """The capability set ``request`` needs, an elicitation named down to its mode."""
        if request.kind is InputKind.ELICITATION:
            mode = request.mode or ElicitationMode.FORM
            return ClientMrtrCapabilities(elicitation=ElicitationModes.requiring(mode))
        if request.kind is InputKind.SAMPLING:
            return ClientMrtrCapabilities(sampling=True)
        return ClientMrtrCapabilities(roots=True)

    def to_json(self) -> dict[str, JSON]:
        """Spec shape: each declared capability an object, undeclared ones omitted."""
        out: dict[str, JSON] = {}
        if self.elicitation is not None:
            out["elicitation"] = self.elicitation.to_json()
        if self.sampling:
            out["sampling"] = {}
        if self.roots:
            out["roots"] = {}
        return out


def _declared(value: JSON) -> bool:
    """One capability flag: object or ``true`` declares; ``false``/``null`` does not."""
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, dict):
        return True
    if isinstance(value, list) and not value:
        return True  # serde reads an empty array as the fieldless struct's sequence form
    raise CapabilityError("data did not match any variant of untagged enum Declaration")


def _modes(value: dict[str, JSON] | list[JSON]) -> ElicitationModes | None:
    """``ElicitationModes`` by name or from its sequence form ``[form, url]``; ``None`` for a
    sequence longer than its two fields (serde's own message for it is never shown: the untagged
    enum around it replaces every inner error). A bad mode raises :class:`CapabilityError`."""
    if isinstance(value, dict):
        return ElicitationModes(form=_declared(value.get("form")), url=_declared(value.get("url")))
    if len(value) > 2:
        return None
    padded = [*value, None, None]
    return ElicitationModes(form=_declared(padded[0]), url=_declared(padded[1]))


def _elicitation(value: JSON) -> ElicitationModes | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return ElicitationModes() if value else None
    modes = None
    if isinstance(value, dict | list):
        with contextlib.suppress(CapabilityError):  # serde's untagged enum hides the inner error
            modes = _modes(value)
    if modes is None:
        raise CapabilityError(
            "data did not match any variant of untagged enum ElicitationDeclaration"
        )
    return modes


def parse_capabilities(value: JSON) -> ClientMrtrCapabilities:
    """Read a ``clientCapabilities`` value as neva's typed parse does (MRTR-CAP-1..3).

    ``null`` (the ``Option`` around it in the request ``_meta``) declares nothing. Every field
    has ``#[serde(default)]``: an object's members are read in sorted key order
    (``elicitation``, ``roots``, ``sampling``); serde's sequence form
    ``[elicitation, sampling, roots]`` may be short, and an over-long one is refused only after
    its three slots read (serde_json's ``invalid length N, expected fewer elements in array``).
    Raises :class:`CapabilityError` for a value neva would refuse.
    """
    if value is None:
        return ClientMrtrCapabilities()
    if isinstance(value, dict):
        elicitation = _elicitation(value.get("elicitation"))
        roots = _declared(value.get("roots"))
        sampling = _declared(value.get("sampling"))
    elif isinstance(value, list):
        slots = [*value[:3], None, None, None]
        elicitation = _elicitation(slots[0])
        sampling = _declared(slots[1])
        roots = _declared(slots[2])
        if len(value) > 3:
            raise CapabilityError(fewer_elements(len(value)))
    else:
        raise CapabilityError(invalid_type(value, "struct ClientMrtrCapabilities"))
    return ClientMrtrCapabilities(elicitation=elicitation, sampling=sampling, roots=roots)


def missing_capability_error(
    capabilities: ClientMrtrCapabilities, requests: Sequence[InputRequest]
) -> RpcError | None:
    """The ``-32021`` error for the first request (in ask order) the client cannot answer,
    or ``None`` when it can answer all of them: one undeclared kind fails the whole round
    (MRTR-CAP-7)."""
    for request in requests:
        if not capabilities.allows(request):
            return RpcError(
                MISSING_REQUIRED_CLIENT_CAPABILITY,
                f"server requested `{request.method}` but the client did not declare support",
                {"requiredCapabilities": ClientMrtrCapabilities.requiring(request).to_json()},
            )
    return None
