"""An ``MCPServer`` with an MRTR tool on stdio (``python -m tests.audit._stdio_server``), for
the audit's ``--command`` test: the SDK's AES-GCM boundary, and no single use."""

from __future__ import annotations

from tests.audit._strong import build_mcp

if __name__ == "__main__":
    build_mcp().run("stdio")
