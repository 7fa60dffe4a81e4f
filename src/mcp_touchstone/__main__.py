"""``python -m mcp_touchstone`` is the ``touchstone`` command."""

import sys

from mcp_touchstone._cli import main

sys.exit(main())
