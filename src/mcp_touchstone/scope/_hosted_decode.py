"""Decode a hosted request's ``ModelMetadata`` as Chio's serde derive does (SCOPE-HOSTED-WIRE-2).

Kept apart from :mod:`mcp_touchstone.scope._decode` (the scope decoder); both are built from
the serde forms of :mod:`mcp_touchstone.scope._decode_forms`.
"""

from __future__ import annotations

from mcp_touchstone.scope._decode_forms import REQUIRED, option, record, string, unit_enum
from mcp_touchstone.scope._hosted import ModelMetadata, ProvenanceEvidenceClass
from mcp_touchstone.scope._types import ModelSafetyTier
from mcp_touchstone.serde_json import JSON

__all__ = ["decode_model_metadata"]

_model_metadata = record(
    ModelMetadata,
    [
        ("model_id", string, REQUIRED),
        ("safety_tier", option(unit_enum(ModelSafetyTier, "ModelSafetyTier")), None),
        ("provider", option(string), None),
        (
            "provenance_class",
            unit_enum(ProvenanceEvidenceClass, "ProvenanceEvidenceClass"),
            ProvenanceEvidenceClass.ASSERTED,
        ),
    ],
    deny_unknown=False,
)


def decode_model_metadata(value: JSON, where: str = "model_metadata") -> ModelMetadata | None:
    """Decode a hosted request's ``ModelMetadata``, or ``None`` for ``null``.

    ``model_id`` (a string) is required; ``safety_tier`` and ``provider`` may be absent or null;
    ``provenance_class`` (not null) defaults to ``asserted``; unknown keys are ignored; serde's
    positional array form is accepted.  Raises :class:`ScopeDecodeError` naming the place.
    """
    return None if value is None else _model_metadata(value, where)
