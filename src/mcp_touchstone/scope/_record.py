"""The scope types' class maker: :mod:`mcp_touchstone._record`, shared by the three cores (it
began here, for the portable matcher's forty value classes)."""

from mcp_touchstone._record import FrozenInstanceError, draft, record, record_fields

__all__ = ["FrozenInstanceError", "draft", "record", "record_fields"]
